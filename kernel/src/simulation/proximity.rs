//! Interactions declared with an activation distance (the interaction manager of Lagrangian
//! models): an interaction is linked into the model while its gap is small and removed when it
//! opens again, as the Siconos column-of-beads tutorial does by hand between `computeOneStep` and
//! `nextStep`. A 10 000-bead column then carries only the contacts that are about to close,
//! instead of 10 000 idle interactions whose outputs, index sets and assembly are kept every step.
//!
//! Rule, checked after every step (and once when the manager is installed), per declared
//! interaction in declaration order: with `y₀ = h(q)` its gap (the smallest component),
//! * dormant and `y₀ ≤ d` → linked ([`TimeStepping::link`]); it enters the next step's active set
//!   if `y₀ + γ h ẏ ≤ s` like any other interaction;
//! * linked and `y₀ > d` → removed ([`TimeStepping::remove_interaction`]).
//!
//! A contact farther than `d` gets no impulse as long as `d > γ h |ẏ|` (it cannot be in the
//! Moreau–Jean active set), so the run solves the same one-step problems as one that declares
//! every interaction up front (tested to round-off in `kernel/tests/proximity.rs`).
//! Dormant interactions keep their outputs here (`y₀ = h(q)`, `y₁ = ∇h(q) v`, `λ = 0`; zero
//! before the first step, as every interaction's) so recorders can write every declared
//! interaction at every step.

use super::time_stepping::TimeStepping;
use crate::error::KernelError;
use crate::model::interaction::Interaction;
use crate::model::nsds::{InterId, Nsds};
use crate::model::relation::Relation;
use crate::model::userfn::check_finite_out;
use nalgebra::{DMatrix, DVector};

/// An interaction manager (Siconos `InteractionManager`): between two steps of a time stepping,
/// and once when it is installed, it decides which interactions exist — links new ones and
/// removes old ones through the simulation ([`TimeStepping::link`],
/// [`TimeStepping::remove_interaction`]) or the model (replayed at the next step). The
/// activation-distance [`ProximityManager`] is one; a user's contact detection is another
/// (`kernel/tests/interaction_manager.rs`). Managers need an integrator whose workspaces follow
/// links (Moreau–Jean).
pub trait InteractionManager: Send {
    /// Updates the interactions of `nsds` after a step of `ts` (Siconos `updateInteractions`).
    fn update_interactions(&mut self, ts: &mut TimeStepping, nsds: &mut Nsds) -> Result<(), KernelError>;
    /// The activation-distance manager, when this is one (the runtime writes its declared
    /// interactions' columns).
    fn as_proximity(&self) -> Option<&ProximityManager> {
        None
    }
}

impl InteractionManager for ProximityManager {
    fn update_interactions(&mut self, ts: &mut TimeStepping, nsds: &mut Nsds) -> Result<(), KernelError> {
        self.update(ts, nsds).map(|_| ())
    }
    fn as_proximity(&self) -> Option<&ProximityManager> {
        Some(self)
    }
}

/// One interaction declared with an activation distance `d` (≥ 0, in the units of its gap).
#[derive(Clone, Debug)]
pub struct ProximityInteraction {
    /// The interaction as it is linked (name, systems, Lagrangian relation, law).
    pub template: Interaction,
    /// Activation distance `d`.
    pub distance: f64,
}

struct Entry {
    template: Interaction,
    distance: f64,
    slot: Option<InterId>,
    /// `[h(q), ∇h(q) v]` while dormant.
    y: [DVector<f64>; 2],
    zeros: DVector<f64>,
}

/// The declared proximity interactions of a time-stepping run and their current slots.
pub struct ProximityManager {
    entries: Vec<Entry>,
    q: Vec<f64>,
    v: Vec<f64>,
    jac: DMatrix<f64>,
}

/// Links and removals made by one [`ProximityManager`] update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProximityChanges {
    /// Interactions linked.
    pub linked: usize,
    /// Interactions removed.
    pub removed: usize,
}

/// Outputs of one declared interaction: `y` at levels 0 and 1 and `λ` at one level.
pub struct ProximityOutputs<'a> {
    /// `y₀` (gap) and `y₁` (relative velocity).
    pub y: [&'a DVector<f64>; 2],
    /// `λ` (zero while dormant).
    pub lambda: &'a DVector<f64>,
}

impl ProximityManager {
    /// Checks each declaration against `nsds` (systems exist and differ, sizes, a Lagrangian
    /// relation, `d` finite and ≥ 0). Nothing is linked until [`TimeStepping::with_proximity`].
    pub fn new(list: Vec<ProximityInteraction>, nsds: &Nsds) -> Result<Self, KernelError> {
        let mut entries = Vec::with_capacity(list.len());
        let mut width = 0;
        for p in list {
            let t = &p.template;
            let err = |reason: String| KernelError::InvalidModel { what: format!("interaction `{}`", t.name), reason };
            if !(p.distance.is_finite() && p.distance >= 0.0) {
                return Err(err(format!("activation distance must be finite and >= 0, got {}", p.distance)));
            }
            if !t.relation.is_lagrangian() {
                return Err(err(format!(
                    "an activation distance needs a Lagrangian relation (a gap h(q)), not {}",
                    t.relation.kind_name()
                )));
            }
            let mut n = 0;
            for d in t.ds_ids() {
                n += nsds.ds(d).ok_or_else(|| err(format!("unknown dynamical system {d:?}")))?.dim_q();
            }
            if t.ds.1 == Some(t.ds.0) {
                return Err(err("the two concerned systems are the same".into()));
            }
            t.law.validate().map_err(|r| err(format!("{}: {r}", t.law.kind_name())))?;
            t.relation.validate(t.size(), n, 0).map_err(|r| err(format!("{}: {r}", t.relation.kind_name())))?;
            width = width.max(n);
            let z = DVector::zeros(t.size());
            entries.push(Entry {
                template: p.template,
                distance: p.distance,
                slot: None,
                y: [z.clone(), z.clone()],
                zeros: z,
            });
        }
        Ok(ProximityManager {
            entries,
            q: Vec::with_capacity(width),
            v: Vec::with_capacity(width),
            jac: DMatrix::zeros(0, 0),
        })
    }

    /// Number of declared interactions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No interaction is declared.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The declared interactions, in declaration order.
    pub fn declared(&self) -> impl Iterator<Item = &Interaction> {
        self.entries.iter().map(|e| &e.template)
    }

    /// The slot of declared interaction `i` while it is linked.
    pub fn slot(&self, i: usize) -> Option<InterId> {
        self.entries.get(i).and_then(|e| e.slot)
    }

    /// Number of declared interactions linked now.
    pub fn n_linked(&self) -> usize {
        self.entries.iter().filter(|e| e.slot.is_some()).count()
    }

    /// The outputs of declared interaction `i`: the linked interaction's, or (dormant) the gap
    /// and relative velocity computed by the last update with `λ = 0`.
    pub fn outputs<'a>(&'a self, i: usize, nsds: &'a Nsds, level: usize) -> Option<ProximityOutputs<'a>> {
        let e = self.entries.get(i)?;
        match e.slot {
            Some(id) => {
                let inter = nsds.interaction(id)?;
                Some(ProximityOutputs { y: [inter.y(0)?, inter.y(1)?], lambda: inter.lambda(level)? })
            }
            None => Some(ProximityOutputs { y: [&e.y[0], &e.y[1]], lambda: &e.zeros }),
        }
    }

    /// Zeroes the outputs of the dormant interactions: before the first step a simulation reports
    /// `y = 0` for every interaction (as Siconos), and so do the dormant ones.
    pub(crate) fn clear_dormant_outputs(&mut self) {
        for e in self.entries.iter_mut().filter(|e| e.slot.is_none()) {
            e.y.iter_mut().for_each(|y| y.fill(0.0));
        }
    }

    /// Applies the rule of the module docs to every declared interaction at the simulation's
    /// current time. On error (a user function of a relation failed) the changes made before it
    /// stay.
    pub(crate) fn update(&mut self, ts: &mut TimeStepping, nsds: &mut Nsds) -> Result<ProximityChanges, KernelError> {
        let t = ts.t();
        let mut changes = ProximityChanges::default();
        for e in &mut self.entries {
            let gap = match e.slot {
                Some(id) => min(nsds.interaction(id).and_then(|i| i.y(0)).map(|y| y.as_slice()).unwrap_or(&[])),
                None => {
                    outputs(&e.template, nsds, t, &mut self.q, &mut self.v, &mut self.jac, &mut e.y)?;
                    min(e.y[0].as_slice())
                }
            };
            match e.slot {
                None if gap <= e.distance => {
                    let tp = &e.template;
                    let id = ts.link(nsds, tp.name.clone(), tp.ds.0, tp.ds.1, tp.relation.clone(), tp.law.clone())?;
                    e.slot = Some(id);
                    changes.linked += 1;
                }
                Some(id) if gap > e.distance => {
                    ts.remove_interaction(nsds, id)?;
                    e.slot = None;
                    outputs(&e.template, nsds, t, &mut self.q, &mut self.v, &mut self.jac, &mut e.y)?;
                    changes.removed += 1;
                }
                _ => {}
            }
        }
        Ok(changes)
    }
}

fn min(y: &[f64]) -> f64 {
    y.iter().copied().fold(f64::INFINITY, f64::min)
}

/// `y₀ = h(q)` and `y₁ = ∇h(q) v (+ ∂h/∂t)` of a Lagrangian relation on the systems' current
/// (concatenated) positions and velocities.
fn outputs(
    inter: &Interaction,
    nsds: &Nsds,
    t: f64,
    q: &mut Vec<f64>,
    v: &mut Vec<f64>,
    jac: &mut DMatrix<f64>,
    y: &mut [DVector<f64>; 2],
) -> Result<(), KernelError> {
    q.clear();
    v.clear();
    for d in inter.ds_ids() {
        let ds = nsds.ds(d).ok_or_else(|| KernelError::InvalidModel {
            what: format!("interaction `{}`", inter.name),
            reason: format!("unknown dynamical system {d:?}"),
        })?;
        q.extend_from_slice(ds.state().as_slice());
    }
    let fail = |what: &str| {
        let what = format!("{what} of interaction `{}`", inter.name);
        move |source| KernelError::UserFn { t, owner: None, what, source }
    };
    // the relations are written in q: ẏ = ∇h q̇ with q̇ = N(q) v on a rigid body
    for d in inter.ds_ids() {
        nsds.ds(d).map_or(Ok(()), |ds| ds.extend_q_rate(t, v)).map_err(fail("kinematics N(q)"))?;
    }
    let vq = nalgebra::DVectorView::from_slice(v, v.len());
    let [y0, y1] = y;
    match &inter.relation {
        Relation::LagrangianLinearTi(r) => {
            y0.gemv(1.0, &r.h, &nalgebra::DVectorView::from_slice(q, q.len()), 0.0);
            if let Some(b) = &r.b {
                *y0 += b;
            }
            y1.gemv(1.0, &r.h, &vq, 0.0);
        }
        Relation::LagrangianCompliantLinearTi(r) => {
            y0.gemv(1.0, &r.c, &nalgebra::DVectorView::from_slice(q, q.len()), 0.0);
            if let Some(e) = &r.e {
                *y0 += e;
            }
            y1.gemv(1.0, &r.c, &vq, 0.0);
        }
        Relation::LagrangianCompliant(r) => {
            // the rigid gap h(t, q, 0) and its rate
            let zero = vec![0.0; y0.len()];
            let res = (r.h)(t, q, &zero, y0.as_mut_slice()).and_then(|()| check_finite_out(y0.as_slice()));
            res.map_err(fail("h(q, 0)"))?;
            jac.resize_mut(y0.len(), q.len(), 0.0);
            let j = (r.jac_q)(t, q, &zero, jac).and_then(|()| check_finite_out(jac.as_slice()));
            j.map_err(fail("Jacobian of h(q, 0)"))?;
            y1.gemv(1.0, jac, &vq, 0.0);
        }
        Relation::LagrangianScleronomous(r) => {
            (r.h)(t, q, y0.as_mut_slice()).and_then(|()| check_finite_out(y0.as_slice())).map_err(fail("h(q)"))?;
            jac.resize_mut(y0.len(), q.len(), 0.0);
            (r.jac_q)(t, q, jac).and_then(|()| check_finite_out(jac.as_slice())).map_err(fail("Jacobian of h(q)"))?;
            y1.gemv(1.0, jac, &vq, 0.0);
        }
        Relation::LagrangianRheonomous(r) => {
            (r.h)(t, q, y0.as_mut_slice()).and_then(|()| check_finite_out(y0.as_slice())).map_err(fail("h(t, q)"))?;
            jac.resize_mut(y0.len(), q.len(), 0.0);
            let j = (r.jac_q)(t, q, jac).and_then(|()| check_finite_out(jac.as_slice()));
            j.map_err(fail("Jacobian of h(t, q)"))?;
            (r.dot_h)(t, q, y1.as_mut_slice()).and_then(|()| check_finite_out(y1.as_slice())).map_err(fail("∂h/∂t"))?;
            y1.gemv(1.0, jac, &vq, 1.0);
        }
        other => {
            return Err(KernelError::InvalidModel {
                what: format!("interaction `{}`", inter.name),
                reason: format!("an activation distance needs a Lagrangian relation, not {}", other.kind_name()),
            })
        }
    }
    Ok(())
}
