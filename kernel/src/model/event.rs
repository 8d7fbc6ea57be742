//! User events (`events-accuracy-projection.md` §3–4): a scalar trigger function `g(t, s)` of
//! one dynamical system's state `s`, the sign transitions that count, a localization window,
//! and what happens when the event is found.
//!
//! The state `s` of a system is `x` for a first-order system and `(q, v)` stacked for a
//! Lagrangian one (`2 n` entries). `g` is either linear, `g = a·s + b`, or a closure (a plugin).
//! Both the event-driven simulation (root finding on the integrator's dense output) and the
//! time-stepping monitor ([`crate::simulation::user_events::EventMonitor`], root finding on the
//! linear interpolant of a step) use these definitions.

use super::ds::DynamicalSystem;
use super::nsds::{DsId, Nsds};
use super::userfn::{StateVecFn, UserFnError};
use crate::KernelError;
use nalgebra::DVector;
pub use saltus_numerics::ode::{RootDirection, RootKind, RootTransition};

/// The trigger function `g(t, s)` of a user event.
#[derive(Clone)]
pub enum EventFunction {
    /// `g = a·s + b` (`a` has the length of the system's state `s`).
    Linear {
        /// Coefficients `a`.
        a: DVector<f64>,
        /// Offset `b`.
        b: f64,
    },
    /// `g = f(t, s)`: a closure writing one value.
    Function(StateVecFn),
}

/// What happens at a located event.
#[derive(Clone)]
pub enum EventAction {
    /// Nothing but a report (the runners write a row).
    Record,
    /// The run stops after the event (a successful end, not an error).
    Stop,
    /// The state is replaced by `s⁺ = R(t, s⁻)`: the closure receives `s⁻` and writes `s⁺`
    /// (its output buffer holds `s⁻` on entry, so it may change some entries only).
    Reset(StateVecFn),
}

/// One user event of a dynamical system.
#[derive(Clone)]
pub struct UserEvent {
    /// Name (for reports and errors).
    pub name: String,
    /// The system whose state `g` reads.
    pub ds: DsId,
    /// `g(t, s)`.
    pub function: EventFunction,
    /// Declared transitions (rising, falling, both; discrete zero) and localization window.
    pub kind: RootKind,
    /// What the event does.
    pub action: EventAction,
}

impl std::fmt::Debug for UserEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserEvent").field("name", &self.name).field("ds", &self.ds).field("kind", &self.kind).finish()
    }
}

/// Length of the state `s` a user event of `ds` reads: `x`, or `(q, v)`.
pub fn event_state_len(ds: &DynamicalSystem) -> usize {
    if ds.is_lagrangian() {
        2 * ds.dim()
    } else {
        ds.dim()
    }
}

/// Writes the event state `s` of `ds` (`x`, or `(q, v)`) into `out`.
pub fn gather_event_state(ds: &DynamicalSystem, out: &mut Vec<f64>) {
    out.clear();
    out.extend_from_slice(ds.state().as_slice());
    if let Some(v) = ds.velocity() {
        out.extend_from_slice(v.as_slice());
    }
}

impl UserEvent {
    /// Checks the system exists, the linear coefficients' length and the window.
    pub fn validate(&self, nsds: &Nsds) -> Result<(), KernelError> {
        let bad = |reason: String| KernelError::InvalidOption { option: "event", reason };
        let ds = nsds.ds(self.ds).ok_or_else(|| bad(format!("event `{}`: unknown system {:?}", self.name, self.ds)))?;
        let n = event_state_len(ds);
        if let EventFunction::Linear { a, b } = &self.function {
            if a.len() != n {
                return Err(bad(format!(
                    "event `{}`: {} coefficients for a state of {n} entries{}",
                    self.name,
                    a.len(),
                    if ds.is_lagrangian() { " (q then v)" } else { "" }
                )));
            }
            if a.iter().chain(std::iter::once(b)).any(|x| !x.is_finite()) {
                return Err(bad(format!("event `{}`: non-finite coefficient", self.name)));
            }
        }
        if let Some(w) = self.kind.window {
            if !(w.is_finite() && w > 0.0) {
                return Err(bad(format!("event `{}`: window must be finite and > 0, got {w}", self.name)));
            }
        }
        Ok(())
    }

    /// `g(t, s)`; a non-finite value is an error.
    pub fn value(&self, t: f64, s: &[f64]) -> Result<f64, UserFnError> {
        let g = match &self.function {
            EventFunction::Linear { a, b } => a.iter().zip(s).map(|(a, x)| a * x).sum::<f64>() + b,
            EventFunction::Function(f) => {
                let mut out = [0.0];
                f(t, s, &mut out)?;
                out[0]
            }
        };
        if g.is_finite() {
            Ok(g)
        } else {
            Err(UserFnError::new(format!("event `{}`: g(t, s) is not finite", self.name)))
        }
    }

    /// Applies a [`EventAction::Reset`] to `s` in place (no-op for other actions). Returns
    /// whether the state was reset.
    pub fn apply_reset(&self, t: f64, s: &mut [f64]) -> Result<bool, KernelError> {
        let EventAction::Reset(r) = &self.action else { return Ok(false) };
        let mut out = s.to_vec();
        let what = format!("reset of event `{}`", self.name);
        r(t, s, &mut out).map_err(|source| KernelError::UserFn { t, what: what.clone(), source })?;
        if out.iter().any(|x| !x.is_finite()) {
            return Err(KernelError::NonFinite { t, what: "state after an event reset", interaction: None });
        }
        s.copy_from_slice(&out);
        Ok(true)
    }
}

/// Events located together in one window `(t_low, t]`.
#[derive(Debug, Clone, PartialEq)]
pub struct UserEventHit {
    /// Right end of the window (the transitions have happened; the handlers act here).
    pub t: f64,
    /// Left end of the window (none of them had happened).
    pub t_low: f64,
    /// The transitions, `index` being the event's index in the simulation's event list.
    pub transitions: Vec<RootTransition>,
    /// The event state of every system at `t`, before any handler (`x`, or `(q, v)`).
    pub states: Vec<Vec<f64>>,
    /// Some event asked the run to stop.
    pub stop: bool,
    /// Some event reset a state.
    pub reset: bool,
}
