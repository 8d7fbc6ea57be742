//! The error type of the kernel.

use crate::model::nsds::{DsId, InterId};
use crate::model::userfn::UserFnError;
use saltus_numerics::{NumericsError, SolveReport};

/// Everything that stops the kernel from building a model or a simulation, or from taking a step.
///
/// Errors met during a step carry the time `t` of the step's end and the id of the system or
/// interaction concerned; the state of the [`crate::Nsds`] is then left at the last good step.
/// [`KernelError::describe`] writes the message with the systems, interactions and times named
/// by an [`ErrorNames`] (the `Display` form: the kernel's ids, [`KernelIds`]).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum KernelError {
    /// A system or interaction is malformed (sizes, parameters).
    InvalidModel {
        /// Which object.
        what: String,
        /// Why.
        reason: String,
    },
    /// A (system, relation, law, integrator, problem) combination is not supported.
    InvalidCombination {
        /// Interaction name.
        name: String,
        /// Interaction id.
        id: InterId,
        /// What does not fit.
        reason: String,
    },
    /// A system cannot be integrated by the chosen integrator.
    UnsupportedSystem {
        /// System id.
        ds: DsId,
        /// Why.
        reason: String,
    },
    /// An option is out of range.
    InvalidOption {
        /// Option name.
        option: &'static str,
        /// Why.
        reason: String,
    },
    /// A user function failed or returned a non-finite value.
    UserFn {
        /// Time of the evaluation.
        t: f64,
        /// Which function (e.g. `"F_ext"`).
        what: String,
        /// The system or interaction (by index) the function belongs to, when known.
        owner: Option<u32>,
        /// The user's error.
        source: UserFnError,
    },
    /// The iteration matrix `W` of a system is singular.
    SingularW {
        /// Time.
        t: f64,
        /// System.
        ds: DsId,
    },
    /// The numerics solver refused the one-step problem.
    Numerics {
        /// Time.
        t: f64,
        /// The numerics error.
        source: NumericsError,
    },
    /// The one-step problem solver did not converge and the policy is [`crate::OnNonConvergence::Fail`].
    NotConverged {
        /// Time.
        t: f64,
        /// The solver's report.
        report: SolveReport,
    },
    /// The Newton loop did not converge and the policy is [`crate::OnNonConvergence::Fail`].
    NewtonNotConverged {
        /// Time.
        t: f64,
        /// Iterations done.
        iterations: usize,
        /// Last residual.
        residual: f64,
    },
    #[doc = "The ODE integrator of the event-driven simulation failed at `t` (last good state kept)."]
    Ode {
        #[doc = "Time reached."]
        t: f64,
        #[doc = "The integrator's error."]
        source: saltus_numerics::ode::OdeError,
    },
    #[doc = "Too many nonsmooth events without reaching the next time-discretisation event (event-driven; chattering or Zeno)."]
    TooManyEvents {
        #[doc = "Time of the last event."]
        t: f64,
        #[doc = "Events counted."]
        count: u64,
    },
    /// Event-driven first-order systems: the mode chosen at a switch has equations for λ that the
    /// engine cannot integrate (relative degree > 1, mixed degrees, time-varying `C` in a
    /// relative-degree-one mode).
    UnsupportedMode {
        /// Time of the switch.
        t: f64,
        /// Free components (`y_k = 0`), as indices into the stacked λ of all interactions.
        free: Vec<usize>,
        /// Why.
        reason: String,
    },
    /// A solver returned NaN/inf; nothing was written into the state.
    NonFinite {
        /// Time.
        t: f64,
        /// What was non-finite (e.g. `"multiplier λ"`).
        what: &'static str,
        /// The interaction whose block holds the first non-finite value, if known.
        interaction: Option<InterId>,
    },
}

/// How [`KernelError::describe`] names the objects of a model and writes times. The defaults are
/// the kernel's own wording ([`KernelIds`]: ids and Rust's float `Display`); the runtime names
/// them from the model file.
pub trait ErrorNames {
    /// A dynamical system (`dynamical system DsId(0)`).
    fn ds(&self, id: DsId) -> String {
        format!("dynamical system {id:?}")
    }
    /// An interaction, with the name the error carries when it has one (`interaction `f` (InterId(0))`).
    fn interaction(&self, id: InterId, name: Option<&str>) -> String {
        match name {
            Some(n) => format!("interaction `{n}` ({id:?})"),
            None => format!("interaction {id:?}"),
        }
    }
    /// A time (`0.000001`).
    fn time(&self, t: f64) -> String {
        format!("{t}")
    }
    /// A user function's error (`user function failed: …`).
    fn user_error(&self, e: &UserFnError) -> String {
        e.to_string()
    }
    /// What follows a user function's description to say whose it is (` (object #3)`).
    fn owner(&self, owner: u32) -> String {
        format!(" (object #{owner})")
    }
}

/// The kernel's own names: ids, Rust's float `Display` (the `Display` form of [`KernelError`]).
pub struct KernelIds;

impl ErrorNames for KernelIds {}

impl KernelError {
    /// The message, with systems, interactions and times written by `n`.
    pub fn describe(&self, n: &dyn ErrorNames) -> String {
        let at = |t: f64| format!("at t = {}: ", n.time(t));
        match self {
            KernelError::InvalidModel { what, reason } => format!("invalid {what}: {reason}"),
            KernelError::InvalidCombination { name, id, reason } => {
                format!("{}: {reason}", n.interaction(*id, Some(name)))
            }
            KernelError::UnsupportedSystem { ds, reason } => format!("{}: {reason}", n.ds(*ds)),
            KernelError::InvalidOption { option, reason } => format!("invalid option `{option}`: {reason}"),
            KernelError::UserFn { t, what, owner, source } => {
                let whose = owner.map(|o| n.owner(o)).unwrap_or_default();
                format!("{}{what}{whose}: {}", at(*t), n.user_error(source))
            }
            KernelError::SingularW { t, ds } => {
                format!("{}the iteration matrix W of {} is singular", at(*t), n.ds(*ds))
            }
            KernelError::Numerics { t, source } => format!("{}one-step problem: {source}", at(*t)),
            KernelError::NotConverged { t, report } => format!(
                "{}one-step problem did not converge ({:?} after {} iterations, residual {:e})",
                at(*t),
                report.status,
                report.iterations,
                report.residual
            ),
            KernelError::NewtonNotConverged { t, iterations, residual } => {
                format!("{}Newton loop did not converge in {iterations} iterations (residual {residual:e})", at(*t))
            }
            KernelError::Ode { t, source } => format!("{}ODE integrator: {source}", at(*t)),
            KernelError::TooManyEvents { t, count } => {
                format!("{}{count} nonsmooth events without reaching the next time-discretisation event", at(*t))
            }
            KernelError::UnsupportedMode { t, free, reason } => {
                format!("{}mode with free components {free:?} of the stacked λ is not supported: {reason}", at(*t))
            }
            KernelError::NonFinite { t, what, interaction } => {
                let whose = interaction.map(|i| format!(" for {}", n.interaction(i, None))).unwrap_or_default();
                format!("{}non-finite {what}{whose}", at(*t))
            }
        }
    }
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&KernelIds))
    }
}
