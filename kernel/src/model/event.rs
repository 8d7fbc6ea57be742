//! User events (`events-accuracy-projection.md` §3–4): a scalar trigger function `g(t, s)` of
//! one dynamical system's state `s`, the sign transitions that count, a localization window,
//! and what happens when the event is found.
//!
//! The state `s` of a system is `x` for a first-order system and `(q, v)` stacked for a
//! Lagrangian one (`2 n` entries). `g` is either linear, `g = a·s + b`, or a closure (a plugin).
//! Both the event-driven simulation (root finding on the integrator's dense output) and the
//! time-stepping monitor ([`crate::simulation::user_events::EventMonitor`], root finding on the
//! linear interpolant of a step) use these definitions. The monitor reads and resets states
//! through [`EventStates`], which the kernel's [`Nsds`] implements and so does a rigid-body
//! scene of `saltus-mechanics` (a body's state is its pose and twist, 13 numbers), so one monitor
//! serves both engines.

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
    /// The system whose state `g` reads: its index among the model's systems ([`EventStates`]),
    /// a `DsId` of an [`Nsds`] or the index of a body in a rigid-body scene.
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
        ds.dim_q() + ds.dim_v()
    } else {
        ds.dim_q()
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

/// The systems whose states user events read and reset, addressed by their index `0..n`:
/// the time-stepping [`crate::EventMonitor`] works through this view only.
pub trait EventStates {
    /// The current time.
    fn event_time(&self) -> f64;
    /// Number of systems.
    fn n_event_systems(&self) -> usize;
    /// Length of the state `s` of system `i`.
    fn event_state_len(&self, i: usize) -> usize;
    /// What the entries of the state of system `i` are, for error messages (e.g. "(q then v)").
    fn event_state_layout(&self, i: usize) -> &'static str;
    /// Writes the state `s` of system `i` into `out`.
    fn gather_event_state(&self, i: usize, out: &mut Vec<f64>);
    /// Replaces the state of system `i` by `s` (after a reset, at time `t`).
    fn write_event_state(&mut self, i: usize, s: &[f64], t: f64) -> Result<(), KernelError>;
}

impl EventStates for Nsds {
    fn event_time(&self) -> f64 {
        self.t()
    }
    fn n_event_systems(&self) -> usize {
        self.n_ds()
    }
    fn event_state_len(&self, i: usize) -> usize {
        event_state_len(&self.systems()[i])
    }
    fn event_state_layout(&self, i: usize) -> &'static str {
        if self.systems()[i].is_lagrangian() {
            " (q then v)"
        } else {
            ""
        }
    }
    fn gather_event_state(&self, i: usize, out: &mut Vec<f64>) {
        gather_event_state(&self.systems()[i], out);
    }
    fn write_event_state(&mut self, i: usize, s: &[f64], _t: f64) -> Result<(), KernelError> {
        let (systems, _) = self.parts_mut();
        let d = &mut systems[i];
        let (nq, nv) = (d.dim_q(), d.dim_v());
        let (q, v, _) = d.state_mut();
        q.as_mut_slice().copy_from_slice(&s[..nq]);
        if let Some(v) = v {
            v.as_mut_slice().copy_from_slice(&s[nq..nq + nv]);
        }
        Ok(())
    }
}

impl UserEvent {
    /// Checks the system exists, the linear coefficients' length and the window.
    pub fn validate(&self, systems: &impl EventStates) -> Result<(), KernelError> {
        let bad = |reason: String| KernelError::InvalidOption { option: "event", reason };
        let i = self.ds.index();
        if i >= systems.n_event_systems() {
            return Err(bad(format!("event `{}`: unknown system {:?}", self.name, self.ds)));
        }
        let n = systems.event_state_len(i);
        if let EventFunction::Linear { a, b } = &self.function {
            if a.len() != n {
                return Err(bad(format!(
                    "event `{}`: {} coefficients for a state of {n} entries{}",
                    self.name,
                    a.len(),
                    systems.event_state_layout(i)
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
        r(t, s, &mut out).map_err(|source| KernelError::UserFn { t, owner: None, what: what.clone(), source })?;
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
