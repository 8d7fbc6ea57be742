//! [`EventDriven`]: the public event-driven simulation, running the engine that fits the model
//! (Lagrangian systems with Newton impacts, or first-order linear complementarity systems).

use super::first_order::{is_first_order, FirstOrderEd};
use super::{EventDrivenOptions, EventReport, EventsManager, LagrangianEd};
use crate::model::event::UserEvent;
use crate::model::nsds::{InterId, Nsds};
use crate::KernelError;
use saltus_numerics::ode::OdeStats;

enum Engine {
    Lagrangian(Box<LagrangianEd>),
    FirstOrder(Box<FirstOrderEd>),
}

/// The event-driven simulation (Siconos `EventDriven`).
///
/// * Lagrangian systems (`LagrangianDS`, `LagrangianLinearTIDS`) with `LagrangianLinearTIR` /
///   `LagrangianScleronomousR` relations and `NewtonImpactNSL` or `NewtonImpactFrictionNSL` of
///   dimension 2: impacts, contact closing/detachment and stick/slip transitions are the events
///   (see the [module docs](super) and `friction`); or bilateral constraints
///   (`EqualityConditionNSL` of size 1, not mixed with contacts) held at acceleration level with
///   `q`, `v` projected at every event (`bilateral` module).
/// * First-order linear systems (`FirstOrderLinearDS`, `FirstOrderLinearTIDS`) with
///   `FirstOrderLinearR` / `FirstOrderLinearTIR` relations and `ComplementarityConditionNSL` /
///   `RelayNSL`: mode switches are the events (see the module `first_order`).
///
/// Mixing the two kinds, or any other system, relation or law, is a typed error naming it.
pub struct EventDriven {
    engine: Engine,
    /// The model's topology revision the engine was built for ([`Nsds::revision`]).
    revision: u64,
}

impl std::fmt::Debug for EventDriven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventDriven").field("t", &self.t()).field("next_td", &self.events().next_td_index()).finish()
    }
}

macro_rules! both {
    ($self:expr, $e:ident => $body:expr) => {
        match &$self.engine {
            Engine::Lagrangian($e) => $body,
            Engine::FirstOrder($e) => $body,
        }
    };
}

impl EventDriven {
    /// Checks the options and the model, and picks the engine (see the type docs).
    pub fn new(nsds: &Nsds, opts: EventDrivenOptions) -> Result<Self, KernelError> {
        Self::with_events(nsds, opts, Vec::new())
    }

    /// [`Self::new`] with user events (Lagrangian engine): their trigger functions are root
    /// functions of the integrator after the contacts' ones, located to their window; a hit is
    /// reported in [`EventReport::user`]. First-order models with user events are refused.
    pub fn with_events(nsds: &Nsds, opts: EventDrivenOptions, events: Vec<UserEvent>) -> Result<Self, KernelError> {
        opts.validate()?;
        if nsds.n_linked() != nsds.n_interactions() {
            return Err(KernelError::InvalidOption {
                option: "nsds",
                reason: "the model has removed interactions (tombstones); event-driven simulations need a \
                         model whose interactions were never removed"
                    .into(),
            });
        }
        let engine = if is_first_order(nsds) {
            Engine::FirstOrder(Box::new(FirstOrderEd::with_events(nsds, opts, events)?))
        } else {
            Engine::Lagrangian(Box::new(LagrangianEd::with_events(nsds, opts, events)?))
        };
        Ok(EventDriven { engine, revision: nsds.revision() })
    }

    /// Holds the control input term `g` of system `ds` from the last processed event on (Siconos's
    /// actuators on an event-driven simulation, `ControlLsodarSimulation`), until set again: a
    /// force added to a Lagrangian system's, or a term added to a first-order system's vector
    /// field (`M ẋ = A x + b + g + r`, the mode chosen again where `g` changes); the integrator
    /// restarts where `g` changes.
    pub fn set_control_input(&mut self, ds: crate::DsId, g: &[f64]) -> Result<(), KernelError> {
        match &mut self.engine {
            Engine::Lagrangian(e) => e.set_control_input(ds, g),
            Engine::FirstOrder(e) => e.set_control_input(ds, g),
        }
    }

    /// Whether the model is a first-order complementarity system (mode switches as events).
    pub fn is_first_order(&self) -> bool {
        matches!(self.engine, Engine::FirstOrder(_))
    }
    /// The options.
    pub fn options(&self) -> &EventDrivenOptions {
        both!(self, e => e.options())
    }
    /// The events manager.
    pub fn events(&self) -> &EventsManager {
        both!(self, e => &e.events)
    }
    /// The user events (root functions after the contacts' or the mode's).
    pub fn user_events(&self) -> &[UserEvent] {
        both!(self, e => e.user_events())
    }
    /// Time of the last processed event.
    pub fn t(&self) -> f64 {
        both!(self, e => e.t())
    }
    /// Number of nonsmooth events processed (impacts, detachments, mode switches).
    pub fn n_nonsmooth(&self) -> u64 {
        both!(self, e => e.n_nonsmooth())
    }
    /// Integrator counters.
    pub fn ode_stats(&self) -> OdeStats {
        both!(self, e => e.ode_stats())
    }
    /// Lagrangian: whether contact `id` is in index set 2 (closed). First order: whether a
    /// component of interaction `id` is free (`y_k = 0`: a conducting diode, a sticking relay).
    pub fn is_closed(&self, id: InterId) -> bool {
        match &self.engine {
            Engine::Lagrangian(e) => e.is_closed(id),
            Engine::FirstOrder(e) => e.n_free(id) > 0,
        }
    }
    /// Lagrangian: contact force `λ(2)` of contact `id` at the last event. First order: `λ_0`
    /// of interaction `id` (all components: [`EventDriven::lambda`]).
    pub fn contact_force(&self, id: InterId) -> f64 {
        match &self.engine {
            Engine::Lagrangian(e) => e.contact_force(id),
            Engine::FirstOrder(e) => e.lambda(id).first().copied().unwrap_or(0.0),
        }
    }
    /// First order: `λ` of interaction `id` in the current mode at the last event (`None` for
    /// Lagrangian runs, whose `λ(2)` is [`EventDriven::contact_force`]).
    pub fn lambda(&self, id: InterId) -> Option<&[f64]> {
        match &self.engine {
            Engine::Lagrangian(_) => None,
            Engine::FirstOrder(e) => (id.index() < e.n_interactions()).then(|| e.lambda(id)),
        }
    }
    /// Lagrangian: the tangential mode of frictional contact `id` (`NewtonImpactFrictionNSL`)
    /// while it is closed (index set 2); `None` otherwise and for first-order runs.
    pub fn tangent_mode(&self, id: InterId) -> Option<super::TangentMode> {
        match &self.engine {
            Engine::Lagrangian(e) => e.tangent_mode(id),
            Engine::FirstOrder(_) => None,
        }
    }
    /// Impulse `λ(1)` of contact `id` at the last event (0 without impact; 0 for first-order runs,
    /// whose state is continuous).
    pub fn impulse(&self, id: InterId) -> f64 {
        match &self.engine {
            Engine::Lagrangian(e) => e.impulse(id),
            Engine::FirstOrder(_) => 0.0,
        }
    }

    /// Processes the next event (Siconos `advanceToEvent` + `processEvents`): integrates to the
    /// next TD event or the first root before it, handles an impact/detachment or a mode switch,
    /// restarts the integrator and writes the new state into `nsds`. On error `nsds` keeps the
    /// state of the last processed event.
    ///
    /// Changes of the model's topology since the last event (the model's change log: a system
    /// added, an interaction linked, Siconos `nsds.link` between events) are taken here: the
    /// engine is rebuilt from the model's current state and restarts the integrator, as at any
    /// event, keeping the time-discretisation schedule, the user events and the counters. A
    /// removal is refused with a typed error, never ignored (the engines number the contacts by
    /// slot and need every slot live).
    pub fn advance(&mut self, nsds: &mut Nsds) -> Result<EventReport, KernelError> {
        if nsds.revision() != self.revision {
            self.rebuild(nsds)?;
        }
        let mut rep = match &mut self.engine {
            Engine::Lagrangian(e) => e.advance(nsds)?,
            Engine::FirstOrder(e) => e.advance(nsds)?,
        };
        // the engines number contacts by slot: report the interactions' handles
        for (id, _) in rep.impulses.iter_mut() {
            *id = nsds.handle(id.index());
        }
        for id in rep.zeno.iter_mut() {
            *id = nsds.handle(id.index());
        }
        Ok(rep)
    }

    /// The engine built anew for the changed model (see [`Self::advance`]).
    fn rebuild(&mut self, nsds: &Nsds) -> Result<(), KernelError> {
        if nsds.n_linked() != nsds.n_interactions() {
            return Err(KernelError::InvalidOption {
                option: "nsds",
                reason: format!(
                    "an interaction was removed from the model at t = {} during the event-driven run; event-driven \
                     simulations take systems and interactions added between events, not removals: build a new \
                     EventDriven from a model without the removed interaction",
                    self.t()
                ),
            });
        }
        if nsds.t() != self.t() {
            return Err(KernelError::InvalidOption {
                option: "nsds",
                reason: format!(
                    "the model is at t = {}, the event-driven simulation at t = {}: the topology changes between events",
                    nsds.t(),
                    self.t()
                ),
            });
        }
        let (events, n_ns) = (self.events().clone(), self.n_nonsmooth());
        let controls = both!(self, e => e.controls());
        let rebuilt = Self::with_events(nsds, self.options().clone(), self.user_events().to_vec())?;
        self.engine = rebuilt.engine;
        match &mut self.engine {
            Engine::Lagrangian(e) => e.resume(events, n_ns),
            Engine::FirstOrder(e) => e.resume(events, n_ns),
        }
        // the held control inputs stay held (systems keep their ids: a rebuild only adds)
        for (i, g) in controls.iter().enumerate() {
            if let Some(g) = g {
                self.set_control_input(crate::DsId(i as u32), g.as_slice())?;
            }
        }
        self.revision = nsds.revision();
        Ok(())
    }

    /// Processes events until the TD event at `until` (included) or a user event that stops
    /// the run, calling `f` after each. Returns the number of events processed.
    pub fn run(
        &mut self,
        nsds: &mut Nsds,
        until: f64,
        f: &mut impl FnMut(&Nsds, &EventReport),
    ) -> Result<u64, KernelError> {
        let t0 = self.events().td_time(0);
        let total = ((until - t0) / self.options().h).round().max(0.0) as u64;
        let mut done = 0;
        while self.events().next_td_index() <= total {
            let rep = self.advance(nsds)?;
            f(nsds, &rep);
            done += 1;
            if rep.user.as_ref().is_some_and(|u| u.stop) {
                break;
            }
        }
        Ok(done)
    }
}
