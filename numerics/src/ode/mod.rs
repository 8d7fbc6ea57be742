//! Initial-value ODE integration with events and invariants (an LSODAR-class integrator).
//!
//! * [`OdeSystem`]: the user's `y' = f(t, y)`, optional Jacobian, root functions `g(t, y)`
//!   (with [`RootKind`]: direction and discrete zero) and invariants `c(t, y) = 0`.
//! * [`Integrator`]: `step_until(t_out) -> Result<OdeStop, OdeError>` returning
//!   [`OdeStop::Reached`] or [`OdeStop::Root`]; dense output [`Integrator::y_at`];
//!   [`Integrator::reinit`] after an event handler changed the state.
//! * Methods ([`OdeMethod`]): LSODA (Nordsieck Adams 1–12 / BDF 1–5 with automatic stiffness
//!   switching, modified Newton with a reused dense or banded Jacobian), pure Adams, pure BDF,
//!   Dormand–Prince 5(4), fixed-step symplectic Euler.
//! * Error control: `rtol`/`atol` (scalar or per component) or the single accuracy knob α with
//!   per-state weights ([`Tolerance`]); max or RMS norm.
//! * Projection ([`ProjectionOptions`]) onto `c(t, y) = 0` after each step, with the error
//!   estimate projected too; a failed projection is a recoverable step failure.
//!
//! Failures are [`OdeError`]s carrying `t` and the counters; the last accepted state remains
//! readable. Nothing here panics on bad input or prints.

mod coeffs;
mod dense;
mod dopri5;
mod error;
mod integrator;
mod newton;
mod nordsieck;
mod options;
mod projection;
mod root;
mod stats;
mod switching;
mod symplectic;
mod system;
mod weights;

pub use error::OdeError;
pub use integrator::{Integrator, MethodInUse, OdeStop};
pub use options::{Atol, ErrorNorm, JacobianKind, OdeMethod, OdeOptions, ProjectionOptions, Tolerance};
pub use root::RootTransition;
pub use stats::OdeStats;
pub use system::{OdeSystem, RootDirection, RootKind, UserFnError};
