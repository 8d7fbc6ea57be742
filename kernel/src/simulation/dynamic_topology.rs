//! Interactions created and removed during a time-stepping run (Siconos `nsds.link(inter, ds1,
//! ds2)` + `simulation.initializeInteraction(t, inter, ds1, ds2)`, `nsds.removeInteraction`), e.g.
//! the column of beads whose bead–bead contacts exist only while two beads are close.
//!
//! Ids are slots of the [`Nsds`] (tombstones plus a free list, see [`Nsds::add_interaction`]): the
//! workspaces of the simulation, indexed by [`InterId`], stay in place; a link fills a new or
//! freed slot, a removal leaves a tombstone that no index set, assembly or output update visits.
//! Supported: [`Osi::MoreauJean`] with Lagrangian relations and any one-step problem accepting the
//! law; other integrators keep global state sized at construction and are refused.
//!
//! Changes made on the [`Nsds`] itself (`Nsds::link`, `Nsds::remove_interaction` from a user's
//! code between steps) go through the model's change log ([`Nsds::changes_since`]): the time
//! stepping replays them at the start of its next step ([`TimeStepping::consume_changes`]), so
//! nothing is ignored; what it cannot take (a system added during a run, a link under an
//! integrator sized at construction) is a typed error there.

use super::interaction_work::InterWork;
use super::osi::Osi;
use super::time_stepping::{check_interaction, TimeStepping};
use crate::error::KernelError;
use crate::model::interaction::Interaction;
use crate::model::nsds::{DsId, InterId, Nsds, TopologyChange};
use crate::model::nslaw::NonSmoothLaw;
use crate::model::relation::Relation;

impl TimeStepping {
    /// Links a new interaction between `ds1` (and `ds2`) into the model and the running
    /// simulation, between two steps (Siconos `nsds.link` + `initializeInteraction`). Its outputs
    /// are computed from the current state and it enters the next step's active set if
    /// `y + γ h ẏ ≤ s`. On error nothing changes.
    pub fn link(
        &mut self,
        nsds: &mut Nsds,
        name: impl Into<String>,
        ds1: DsId,
        ds2: Option<DsId>,
        relation: Relation,
        law: NonSmoothLaw,
    ) -> Result<InterId, KernelError> {
        let inter = Interaction::new(name, ds1, ds2, relation, law);
        self.check_dynamic(&inter.name, None)?;
        self.consume_changes(nsds)?;
        let id = nsds.add_interaction(inter)?;
        // `add_interaction` checked sizes; the combination and the first outputs may still fail
        if let Err(e) = self.initialize_interaction(nsds, id) {
            nsds.remove_interaction(id)?;
            self.revision = nsds.revision();
            return Err(e);
        }
        Ok(id)
    }

    /// Siconos `initializeInteraction`: builds the workspace of interaction `id`, just linked into
    /// `nsds` (the only topology change since the simulation was built or last updated).
    pub fn initialize_interaction(&mut self, nsds: &mut Nsds, id: InterId) -> Result<(), KernelError> {
        let inter = nsds.live(id)?;
        self.check_dynamic(&inter.name, Some(id))?;
        self.build_workspace(nsds, id)?;
        self.topology_changed(nsds);
        Ok(())
    }

    /// The workspace of interaction `id` (the slot's current interaction), from the current state.
    fn build_workspace(&mut self, nsds: &mut Nsds, id: InterId) -> Result<(), KernelError> {
        let Some(inter) = nsds.interaction(id) else {
            return Err(unknown(id));
        };
        if id.index() > self.iws.len() {
            return Err(unknown(id));
        }
        check_interaction(nsds, id, self.osi.is_lagrangian(), &self.osnsp)?;
        if !inter.relation.is_lagrangian() {
            return Err(KernelError::InvalidCombination {
                name: inter.name.clone(),
                id,
                reason: "only Lagrangian relations can be linked during a run".into(),
            });
        }
        let t = self.t();
        let mut iw = InterWork::new(id, inter, nsds.systems(), self.h);
        iw.compute_jacobians(inter, nsds.systems(), t)?;
        iw.update_output(inter, nsds.systems(), t)?;
        iw.y_old = iw.y.clone();
        self.linear &= inter.relation.is_linear();
        self.constant_matrix &= iw.constant;
        let (_, inters) = nsds.parts_mut();
        inters[id.index()].y[0].copy_from(&iw.y[0]);
        inters[id.index()].y[1].copy_from(&iw.y[1]);
        if id.index() == self.iws.len() {
            self.iws.push(iw);
        } else {
            self.iws[id.index()] = iw;
        }
        Ok(())
    }

    /// Replays the model's topology changes made since this simulation last saw it (links and
    /// removals made on the [`Nsds`] directly, between steps): a linked interaction gets its
    /// workspace from the current state, a removed one loses its multipliers. A system added
    /// during a run, or a change under an integrator sized at construction, is a typed error
    /// (and the simulation keeps refusing to step until rebuilt). Called at the start of every
    /// step.
    pub fn consume_changes(&mut self, nsds: &mut Nsds) -> Result<(), KernelError> {
        if nsds.revision() == self.revision {
            return Ok(());
        }
        let changes = nsds.changes_since(self.revision).to_vec();
        for change in changes {
            match change {
                TopologyChange::SystemAdded(ds) => {
                    return Err(KernelError::UnsupportedSystem {
                        ds,
                        reason: format!(
                            "system `{}` was added to the model during the run: a time stepping sizes its \
                             systems' workspaces at construction; build a new simulation",
                            nsds.ds_name(ds).unwrap_or("?")
                        ),
                    })
                }
                TopologyChange::Linked(id) => {
                    // the slot's current interaction (a later change may have reused the slot:
                    // its own entry builds it again)
                    let id = nsds.handle(id.index());
                    let name = nsds.interactions().get(id.index()).map_or_else(String::new, |i| i.name.clone());
                    self.check_dynamic(&name, Some(id))?;
                    self.build_workspace(nsds, id)?;
                }
                TopologyChange::Removed(id) => {
                    if let Some(iw) = self.iws.get_mut(id.index()) {
                        iw.lambda.fill(0.0);
                        iw.lambda_i.fill(0.0);
                    }
                }
            }
        }
        self.topology_changed(nsds);
        Ok(())
    }

    /// Removes interaction `id` from the model and the running simulation, between two steps
    /// (Siconos `nsds.removeInteraction`); its slot may be reused by a later link.
    pub fn remove_interaction(&mut self, nsds: &mut Nsds, id: InterId) -> Result<(), KernelError> {
        let inter = nsds.live(id)?;
        self.check_dynamic(&inter.name, Some(id))?;
        self.consume_changes(nsds)?;
        nsds.remove_interaction(id)?;
        if let Some(iw) = self.iws.get_mut(id.index()) {
            iw.lambda.fill(0.0);
            iw.lambda_i.fill(0.0);
        }
        self.topology_changed(nsds);
        Ok(())
    }

    /// Refuses integrators whose state is sized once at construction.
    fn check_dynamic(&self, name: &str, id: Option<InterId>) -> Result<(), KernelError> {
        let Some(osi) = self.integrator_lacking(Osi::follows_links) else {
            return Ok(());
        };
        Err(KernelError::InvalidCombination {
            name: name.to_string(),
            id: id.unwrap_or(InterId::new(u32::MAX, 0)),
            reason: format!(
                "interactions can be linked or removed during a run only with MoreauJeanOSI, not {}",
                osi.kind_name()
            ),
        })
    }

    /// Index sets and assembly after a link or a removal.
    fn topology_changed(&mut self, nsds: &Nsds) {
        let n = self.iws.len();
        self.sets.grow(n);
        self.asm.reset_topology();
        // the block positions must be recomputed even if the active set did not change
        self.sets.generation = 0;
        self.update_index_sets(nsds);
        self.revision = nsds.revision();
    }
}

fn unknown(id: InterId) -> KernelError {
    KernelError::InvalidModel {
        what: format!("interaction {id:?}"),
        reason: "no such live interaction (unknown or removed)".into(),
    }
}
