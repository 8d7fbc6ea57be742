//! The error type of the kernel.

use crate::model::nsds::{DsId, InterId};
use crate::model::userfn::UserFnError;
use saltus_numerics::{NumericsError, SolveReport};

/// Everything that stops the kernel from building a model or a simulation, or from taking a step.
///
/// Errors met during a step carry the time `t` of the step's end and the id of the system or
/// interaction concerned; the state of the [`crate::Nsds`] is then left at the last good step.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum KernelError {
    /// A system or interaction is malformed (sizes, parameters).
    #[error("invalid {what}: {reason}")]
    InvalidModel {
        /// Which object.
        what: String,
        /// Why.
        reason: String,
    },
    /// A (system, relation, law, integrator, problem) combination is not supported.
    #[error("interaction `{name}` ({id:?}): {reason}")]
    InvalidCombination {
        /// Interaction name.
        name: String,
        /// Interaction id.
        id: InterId,
        /// What does not fit.
        reason: String,
    },
    /// A system cannot be integrated by the chosen integrator.
    #[error("dynamical system {ds:?}: {reason}")]
    UnsupportedSystem {
        /// System id.
        ds: DsId,
        /// Why.
        reason: String,
    },
    /// An option is out of range.
    #[error("invalid option `{option}`: {reason}")]
    InvalidOption {
        /// Option name.
        option: &'static str,
        /// Why.
        reason: String,
    },
    /// A user function failed or returned a non-finite value.
    #[error("at t = {t}: {what}: {source}")]
    UserFn {
        /// Time of the evaluation.
        t: f64,
        /// Which function (e.g. `"F_ext of ds 0"`).
        what: String,
        /// The user's error.
        source: UserFnError,
    },
    /// The iteration matrix `W` of a system is singular.
    #[error("at t = {t}: iteration matrix W of {ds:?} is singular")]
    SingularW {
        /// Time.
        t: f64,
        /// System.
        ds: DsId,
    },
    /// The numerics solver refused the one-step problem.
    #[error("at t = {t}: one-step problem: {source}")]
    Numerics {
        /// Time.
        t: f64,
        /// The numerics error.
        source: NumericsError,
    },
    /// The one-step problem solver did not converge and the policy is [`crate::OnNonConvergence::Fail`].
    #[error("at t = {t}: one-step problem did not converge ({:?} after {} iterations, residual {:e})", report.status, report.iterations, report.residual)]
    NotConverged {
        /// Time.
        t: f64,
        /// The solver's report.
        report: SolveReport,
    },
    /// The Newton loop did not converge and the policy is [`crate::OnNonConvergence::Fail`].
    #[error("at t = {t}: Newton loop did not converge in {iterations} iterations (residual {residual:e})")]
    NewtonNotConverged {
        /// Time.
        t: f64,
        /// Iterations done.
        iterations: usize,
        /// Last residual.
        residual: f64,
    },
    #[doc = "The ODE integrator of the event-driven simulation failed at `t` (last good state kept)."]
    #[error("at t = {t}: ODE integrator: {source}")]
    Ode {
        #[doc = "Time reached."]
        t: f64,
        #[doc = "The integrator's error."]
        source: saltus_numerics::ode::OdeError,
    },
    #[doc = "Too many nonsmooth events without reaching the next time-discretisation event (event-driven; chattering or Zeno)."]
    #[error("at t = {t}: {count} nonsmooth events without reaching the next time-discretisation event")]
    TooManyEvents {
        #[doc = "Time of the last event."]
        t: f64,
        #[doc = "Events counted."]
        count: u64,
    },
    /// Event-driven first-order systems: the mode chosen at a switch has equations for λ that the
    /// engine cannot integrate (relative degree > 1, mixed degrees, time-varying `C` in a
    /// relative-degree-one mode).
    #[error("at t = {t}: mode with free components {free:?} of the stacked λ is not supported: {reason}")]
    UnsupportedMode {
        /// Time of the switch.
        t: f64,
        /// Free components (`y_k = 0`), as indices into the stacked λ of all interactions.
        free: Vec<usize>,
        /// Why.
        reason: String,
    },
    /// A solver returned NaN/inf; nothing was written into the state.
    #[error("at t = {t}: non-finite {what}{}", interaction.map(|i| format!(" for interaction {i:?}")).unwrap_or_default())]
    NonFinite {
        /// Time.
        t: f64,
        /// What was non-finite (e.g. `"multiplier λ"`).
        what: &'static str,
        /// The interaction whose block holds the first non-finite value, if known.
        interaction: Option<InterId>,
    },
}
