//! The step to the next event, shared by both engines: integrate to the next TD event or the
//! first root before it, merge a root with a coincident TD event, count the nonsmooth events
//! between two TD events (chattering guard).

use super::{EventDrivenOptions, EventReport, EventsManager};
use crate::{EventKind, KernelError};
use saltus_numerics::ode::{OdeStop, RootTransition};

/// Where the integrator stopped.
pub(crate) struct Stop {
    pub t: f64,
    /// Left end of the localization window (`t` at a plain TD event).
    pub t_low: f64,
    /// The root functions that fired (`None` at a plain TD event).
    pub which: Option<Vec<usize>>,
    /// The sign transitions of the roots in `which` (empty at a plain TD event).
    pub transitions: Vec<RootTransition>,
    /// The TD event processed (alone or merged with the root).
    pub td: Option<u64>,
}

/// An engine's integrator, events manager and counters.
pub(crate) trait EdStepper {
    /// `step_until(t_out)` with the engine's error mapping.
    fn advance_ode(&mut self, t_out: f64) -> Result<OdeStop, KernelError>;
    fn events_mut(&mut self) -> &mut EventsManager;
    fn ed_options(&self) -> &EventDrivenOptions;
    /// Keeps the integrator's state at a reached TD event (before peeking past it).
    fn keep_td_state(&mut self);
    /// `(time of the last event, nonsmooth events since the last TD event)`.
    fn counters(&mut self) -> (&mut f64, &mut u64);

    /// Integrates to the next stop. A root within `merge_tol` before the TD event is merged with
    /// it; after reaching the TD event the integrator peeks `merge_tol` ahead for a root to
    /// merge (without restarting, so the step sequence is unchanged).
    fn next_stop(&mut self) -> Result<Stop, KernelError> {
        let t_td = self.events_mut().next_td_time();
        let (t, t_low, which, transitions, td) = match self.advance_ode(t_td)? {
            OdeStop::Root { t, t_low, which, transitions } => {
                let ev = self.events_mut();
                let td = ev.coincides(t).then(|| ev.consume_td());
                (t, t_low, Some(which), transitions, td)
            }
            OdeStop::Reached(t) => {
                self.keep_td_state();
                let k = self.events_mut().consume_td();
                let t_peek = t + self.ed_options().merge_tol * t.abs().max(1.0);
                match self.advance_ode(t_peek)? {
                    OdeStop::Root { t: tr, t_low, which, transitions } => {
                        (tr, t_low, Some(which), transitions, Some(k))
                    }
                    OdeStop::Reached(_) => (t, t, None, Vec::new(), Some(k)),
                }
            }
        };
        let max = self.ed_options().max_events_between_td;
        let (t_event, ns) = self.counters();
        *t_event = t;
        *ns = if td.is_some() { 0 } else { *ns + 1 };
        if *ns > max {
            return Err(KernelError::TooManyEvents { t, count: *ns });
        }
        Ok(Stop { t, t_low, which, transitions, td })
    }
}

/// Implements [`EdStepper`] for an engine with the fields `ode`, `events`, `opts`, `x`,
/// `t_event`, `ns_since_td` and an inherent `step_ode`.
macro_rules! impl_ed_stepper {
    ($ty:ty) => {
        impl $crate::simulation::event_driven::stepping::EdStepper for $ty {
            fn advance_ode(&mut self, t_out: f64) -> Result<saltus_numerics::ode::OdeStop, $crate::KernelError> {
                self.step_ode(t_out)
            }
            fn events_mut(&mut self) -> &mut $crate::simulation::event_driven::EventsManager {
                &mut self.events
            }
            fn ed_options(&self) -> &$crate::simulation::event_driven::EventDrivenOptions {
                &self.opts
            }
            fn keep_td_state(&mut self) {
                self.x.copy_from_slice(self.ode.y());
            }
            fn counters(&mut self) -> (&mut f64, &mut u64) {
                (&mut self.t_event, &mut self.ns_since_td)
            }
        }
    };
}
pub(crate) use impl_ed_stepper;

impl EventReport {
    /// A report with nothing solved (filled in by the engines).
    pub(crate) fn bare(t: f64, kind: EventKind, td_index: Option<u64>) -> Self {
        EventReport {
            t,
            kind,
            td_index,
            pre_velocities: None,
            pre_lambda: None,
            pre_y: None,
            impulses: Vec::new(),
            zeno: Vec::new(),
            closed: 0,
            impact: None,
            acceleration: None,
            user: None,
        }
    }
}
