//! Initial-value ODE integration with events and invariants (an LSODAR-class integrator).
//!
//! * [`OdeSystem`]: the user's `y' = f(t, y)`, optional Jacobian, root functions `g(t, y)`
//!   (with [`RootKind`]: direction and discrete zero) and invariants `c(t, y) = 0`.
//! * [`Integrator`]: `step_until(t_out) -> Result<OdeStop, OdeError>` returning
//!   [`OdeStop::Reached`] or [`OdeStop::Root`]; dense output [`Integrator::y_at`];
//!   [`Integrator::reinit`] after an event handler changed the state.
//! * Methods ([`OdeMethod`]): LSODA (Nordsieck Adams 1–12 / BDF 1–5 with automatic stiffness
//!   switching, modified Newton with a reused dense, banded or general sparse Jacobian), pure Adams, pure BDF,
//!   Dormand–Prince 5(4), fixed-step symplectic Euler.
//! * Error control: `rtol`/`atol` (scalar or per component) or the single accuracy knob α with
//!   per-state weights ([`Tolerance`]); max or RMS norm.
//! * Projection ([`ProjectionOptions`]) onto `c(t, y) = 0` after each step, with the error
//!   estimate projected too; a failed projection is a recoverable step failure.
//!
//! Failures are [`OdeError`]s carrying `t` and the counters; the last accepted state remains
//! readable. Nothing here panics on bad input or prints.
//!
//! # Event-driven use (the kernel's loop)
//!
//! ```text
//! loop {
//!     match ode.step_until(t_next_report)? {
//!         OdeStop::Reached(t) => record(t, ode.y()),
//!         OdeStop::Root { t, t_low, which, transitions } => {
//!             // the events had not happened at t_low (ode.y_at(t_low, ..) is a legal state)
//!             // and had at t (ode.y()); apply the impact law to ode.y() and restart:
//!             let y_plus = impact(ode.y(), &which);
//!             ode.reinit(t, &y_plus)?;   // history discarded, zero roots masked
//!         }
//!     }
//! }
//! ```
//! Without `reinit` the search simply continues after the reported window. Report times are
//! answered from the dense output of the last step, so they never change the steps taken.
//! The root window is `10 · uround · (|t| + |h|)` unless [`RootKind::window`] is set; roots of
//! different functions inside one window are reported together. Pairs of roots of one function
//! inside one step are caught by a quadratic sampling of `g` (`OdeOptions::root_sampling`).
//!
//! Counting convention: `OdeStats::rhs_evals` includes finite-difference Jacobian columns
//! (like ODEPACK's NFE).

// Index loops over several parallel vectors read like the formulas they implement.
#![allow(clippy::needless_range_loop)]

mod band;
mod coeffs;
mod dense;
pub(crate) mod dense_lu;
mod dopri5;
mod error;
mod history;
mod integrator;
mod newton;
mod nordsieck;
mod options;
mod projection;
mod root;
mod sparse;
mod stats;
mod step_control;
mod switching;
mod symplectic;
mod system;
mod weights;

pub use error::OdeError;
pub use integrator::{Integrator, MethodInUse, OdeStop};
pub use options::{Atol, ErrorNorm, JacobianKind, OdeMethod, OdeOptions, ProjectionOptions, Tolerance};
pub use root::{RootFinder, RootHit, RootTransition};
pub use sparse::SparsityPattern;
pub use stats::OdeStats;
pub use system::{OdeSystem, RootDirection, RootKind, UserFnError};
