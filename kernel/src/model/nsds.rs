//! The nonsmooth dynamical system: systems, interactions and their topology.

use super::ds::DynamicalSystem;
use super::interaction::Interaction;
use super::nslaw::NonSmoothLaw;
use super::relation::Relation;
use crate::error::KernelError;

/// Index of a dynamical system in its [`Nsds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DsId(pub u32);

/// A handle on an interaction of its [`Nsds`]: the slot it occupies and the slot's generation
/// when it was linked (rapier's arena index). A slot freed by a removal is reused by a later
/// link with the next generation, so a handle kept across a removal is *stale*: the checked
/// accessors ([`Nsds::interaction`], [`Nsds::is_linked`], [`Nsds::remove_interaction`]) refuse
/// it instead of answering for the interaction now in its slot. Workspaces are indexed by slot
/// ([`InterId::index`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InterId {
    slot: u32,
    generation: u32,
}

impl std::fmt::Debug for InterId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.generation {
            0 => write!(f, "InterId({})", self.slot),
            g => write!(f, "InterId({}, generation {g})", self.slot),
        }
    }
}

impl DsId {
    /// As a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl InterId {
    /// The handle of `slot` at `generation` (the first interaction of a slot has generation 0).
    pub const fn new(slot: u32, generation: u32) -> InterId {
        InterId { slot, generation }
    }
    /// The slot, as a `usize` index (of [`Nsds::interactions`] and of the simulations'
    /// per-interaction workspaces).
    pub fn index(self) -> usize {
        self.slot as usize
    }
    /// How many times the slot had been reused when this interaction was linked.
    pub fn generation(self) -> u32 {
        self.generation
    }
}

/// One change of an [`Nsds`]'s topology, in its change log ([`Nsds::changes_since`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopologyChange {
    /// A dynamical system was added.
    SystemAdded(DsId),
    /// An interaction was linked.
    Linked(InterId),
    /// An interaction was removed.
    Removed(InterId),
}

/// The nonsmooth dynamical system (Siconos `NonSmoothDynamicalSystem`): owns the systems (with
/// their current state), the interactions (with their current `y` and `λ`) and the current time.
#[derive(Clone, Debug)]
pub struct Nsds {
    t0: f64,
    t: f64,
    ds: Vec<DynamicalSystem>,
    inters: Vec<Interaction>,
    ds_names: Vec<String>,
    /// `ds_to_inters[d]`: the interactions concerning system `d`, in id order.
    ds_to_inters: Vec<Vec<InterId>>,
    /// `removed[i]`: slot `i` is a tombstone (its interaction was removed).
    removed: Vec<bool>,
    /// Tombstoned slots, reused (smallest first) by the next links.
    free: Vec<InterId>,
    /// `generations[i]`: the generation of slot `i`'s interaction (live or tombstone).
    generations: Vec<u32>,
    /// The change log (Siconos's NSDS change log) of the topology: change `k` made the revision
    /// `k + 1`. A time stepping replays the changes since its own revision at the start of its
    /// next step.
    changes: Vec<TopologyChange>,
}

impl Nsds {
    /// An empty system starting at `t0`.
    pub fn new(t0: f64) -> Self {
        Nsds {
            t0,
            t: t0,
            ds: Vec::new(),
            inters: Vec::new(),
            ds_names: Vec::new(),
            ds_to_inters: Vec::new(),
            removed: Vec::new(),
            free: Vec::new(),
            generations: Vec::new(),
            changes: Vec::new(),
        }
    }

    /// Adds a dynamical system (checked with [`DynamicalSystem::validate`]).
    pub fn add_ds(&mut self, name: impl Into<String>, ds: impl Into<DynamicalSystem>) -> Result<DsId, KernelError> {
        let ds = ds.into();
        let name = name.into();
        ds.validate().map_err(|reason| KernelError::InvalidModel {
            what: format!("dynamical system `{name}` ({})", ds.kind_name()),
            reason,
        })?;
        let id = DsId(self.ds.len() as u32);
        self.ds.push(ds);
        self.ds_names.push(name);
        self.ds_to_inters.push(Vec::new());
        self.log(TopologyChange::SystemAdded(id));
        Ok(id)
    }

    /// Adds an interaction named `name` between `ds1` (and `ds2`). Checks that the systems exist,
    /// the law parameters, and the relation sizes against the law and the systems.
    pub fn link(
        &mut self,
        name: impl Into<String>,
        ds1: DsId,
        ds2: Option<DsId>,
        relation: Relation,
        law: NonSmoothLaw,
    ) -> Result<InterId, KernelError> {
        let inter = Interaction::new(name, ds1, ds2, relation, law);
        self.add_interaction(inter)
    }

    /// Adds an already built interaction (see [`Nsds::link`]).
    ///
    /// Ids are slots: a new interaction takes the smallest slot freed by
    /// [`Nsds::remove_interaction`], else a new slot at the end. Slots (tombstones plus a free
    /// list) rather than a compacting `Vec` keep every live [`InterId`] — and the per-interaction
    /// workspaces of a running simulation indexed by it — stable across removals, and the free
    /// list bounds the number of slots by the largest number of interactions alive at once (a
    /// column of beads whose contacts open and close does not grow). The price: the id of a
    /// removed interaction may name a later one.
    pub fn add_interaction(&mut self, inter: Interaction) -> Result<InterId, KernelError> {
        let err = |reason: String| KernelError::InvalidModel { what: format!("interaction `{}`", inter.name), reason };
        let mut n = 0;
        let mut nz = 0;
        for d in inter.ds_ids() {
            let ds = self.ds.get(d.index()).ok_or_else(|| err(format!("unknown dynamical system {:?}", d)))?;
            n += ds.dim_q();
            nz += ds.z().len();
        }
        if inter.ds.1 == Some(inter.ds.0) {
            return Err(err("the two concerned systems are the same".into()));
        }
        inter.law.validate().map_err(|r| err(format!("{}: {r}", inter.law.kind_name())))?;
        inter
            .relation
            .validate(inter.law.size(), n, nz)
            .map_err(|r| err(format!("{}: {r}", inter.relation.kind_name())))?;
        let id = match self.free.iter().enumerate().min_by_key(|(_, id)| **id) {
            Some((k, _)) => {
                let old = self.free.swap_remove(k);
                InterId::new(old.slot, old.generation + 1)
            }
            None => InterId::new(self.inters.len() as u32, 0),
        };
        for d in inter.ds_ids() {
            let list = &mut self.ds_to_inters[d.index()];
            let at = list.partition_point(|x| *x < id);
            list.insert(at, id);
        }
        if id.index() == self.inters.len() {
            self.inters.push(inter);
            self.removed.push(false);
            self.generations.push(0);
        } else {
            self.inters[id.index()] = inter;
            self.removed[id.index()] = false;
            self.generations[id.index()] = id.generation;
        }
        self.log(TopologyChange::Linked(id));
        Ok(id)
    }

    /// Removes interaction `id` (Siconos `removeInteraction`): its slot becomes a tombstone (kept
    /// in [`Nsds::interactions`] with zero `y` and `λ`, see [`Nsds::is_linked`]) that a later link
    /// may reuse. Errors if `id` is not a live interaction.
    pub fn remove_interaction(&mut self, id: InterId) -> Result<(), KernelError> {
        self.live(id)?;
        let inter = &mut self.inters[id.index()];
        inter.reset();
        for d in inter.ds_ids() {
            self.ds_to_inters[d.index()].retain(|x| *x != id);
        }
        self.removed[id.index()] = true;
        self.free.push(id);
        self.log(TopologyChange::Removed(id));
        Ok(())
    }

    /// The live interaction `id`, or why not: unknown, removed, or a stale handle (its slot was
    /// reused by a later link).
    pub fn live(&self, id: InterId) -> Result<&Interaction, KernelError> {
        if let Some(now) = self.id_at(id.index()).filter(|now| *now != id) {
            return Err(KernelError::InvalidModel {
                what: format!("interaction {id:?}"),
                reason: format!(
                    "stale handle: its slot was reused by `{}` ({now:?}) after this interaction was removed",
                    self.inters[id.index()].name
                ),
            });
        }
        match self.inters.get(id.index()) {
            Some(inter) if self.is_linked(id) => Ok(inter),
            _ => Err(KernelError::InvalidModel {
                what: format!("interaction {id:?}"),
                reason: "no such live interaction (unknown or already removed)".into(),
            }),
        }
    }

    /// `id` names a live interaction (not a removed slot).
    pub fn is_linked(&self, id: InterId) -> bool {
        self.removed.get(id.index()).is_some_and(|r| !r) && self.generations[id.index()] == id.generation
    }

    /// The live interaction `id`; `None` for a removed one or a stale handle. Per-interaction
    /// workspaces reach their interaction through it, by handle.
    pub fn linked(&self, id: InterId) -> Option<&Interaction> {
        self.is_linked(id).then(|| &self.inters[id.index()])
    }

    /// [`Nsds::linked`], mutable.
    pub(crate) fn linked_mut(&mut self, id: InterId) -> Option<&mut Interaction> {
        self.is_linked(id).then(|| &mut self.inters[id.index()])
    }

    /// The current handle of slot `slot` (its live interaction's, or its tombstone's).
    pub fn id_at(&self, slot: usize) -> Option<InterId> {
        self.generations.get(slot).map(|g| InterId::new(slot as u32, *g))
    }

    /// [`Nsds::id_at`] for a slot known to exist (an index of [`Nsds::interactions`]); a slot
    /// past the end names generation 0.
    pub fn handle(&self, slot: usize) -> InterId {
        self.id_at(slot).unwrap_or(InterId::new(slot as u32, 0))
    }

    /// Number of live interactions (slots minus tombstones).
    pub fn n_linked(&self) -> usize {
        self.inters.len() - self.free.len()
    }

    fn log(&mut self, change: TopologyChange) {
        self.changes.push(change);
    }

    /// The topology changes made after `revision` (a value of [`Nsds::revision`]), in order.
    pub fn changes_since(&self, revision: u64) -> &[TopologyChange] {
        let from = (revision as usize).min(self.changes.len());
        &self.changes[from..]
    }

    /// The topology revision (changes with every added system, linked or removed interaction).
    pub fn revision(&self) -> u64 {
        self.changes.len() as u64
    }

    /// Initial time.
    pub fn t0(&self) -> f64 {
        self.t0
    }
    /// Current time (the time of the current state).
    pub fn t(&self) -> f64 {
        self.t
    }
    pub(crate) fn set_t(&mut self, t: f64) {
        self.t = t;
    }
    /// All systems, indexed by [`DsId`].
    pub fn systems(&self) -> &[DynamicalSystem] {
        &self.ds
    }
    /// All interaction slots, indexed by [`InterId`] (removed ones included: see
    /// [`Nsds::is_linked`]).
    pub fn interactions(&self) -> &[Interaction] {
        &self.inters
    }
    /// One system.
    pub fn ds(&self, id: DsId) -> Option<&DynamicalSystem> {
        self.ds.get(id.index())
    }
    /// One interaction.
    pub fn interaction(&self, id: InterId) -> Option<&Interaction> {
        self.inters.get(id.index()).filter(|_| self.generations[id.index()] == id.generation)
    }
    /// Name of a system.
    pub fn ds_name(&self, id: DsId) -> Option<&str> {
        self.ds_names.get(id.index()).map(|s| s.as_str())
    }
    /// The interactions concerning a system (the adjacency of the topology).
    pub fn interactions_of(&self, id: DsId) -> &[InterId] {
        self.ds_to_inters.get(id.index()).map_or(&[], |v| v.as_slice())
    }
    /// Number of systems.
    pub fn n_ds(&self) -> usize {
        self.ds.len()
    }
    /// Number of interaction slots (live ones: [`Nsds::n_linked`]).
    pub fn n_interactions(&self) -> usize {
        self.inters.len()
    }
    /// Rewinds to `t0`: initial states, zero inputs, zero `y` and `λ`.
    pub fn reset(&mut self) {
        self.t = self.t0;
        self.ds.iter_mut().for_each(|d| d.reset());
        self.inters.iter_mut().for_each(|i| i.reset());
    }
    pub(crate) fn parts_mut(&mut self) -> (&mut [DynamicalSystem], &mut [Interaction]) {
        (&mut self.ds, &mut self.inters)
    }
}
