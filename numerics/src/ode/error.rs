//! Errors of the integrators. Every failure carries the time reached and the counters; the
//! last accepted state stays readable in the integrator.

use super::stats::OdeStats;
use super::system::UserFnError;
use crate::NumericsError;

/// Why an integration stopped with an error.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OdeError {
    /// Invalid options or initial data.
    #[error("invalid input: {0}")]
    Invalid(#[from] NumericsError),
    /// The step size fell below `hmin` (or roundoff) while errors kept failing.
    #[error("step size too small at t = {t} (h = {h})")]
    StepSizeTooSmall {
        /// Time of the last accepted step.
        t: f64,
        /// Step size that was rejected.
        h: f64,
        /// Counters.
        stats: Box<OdeStats>,
    },
    /// `max_steps` accepted steps in one call without reaching the target.
    #[error("too many steps ({max}) before reaching the target, at t = {t}")]
    TooManySteps {
        /// Time reached.
        t: f64,
        /// The limit.
        max: u64,
        /// Counters.
        stats: Box<OdeStats>,
    },
    /// Repeated error-test failures on one step.
    #[error("repeated error-test failures ({count}) at t = {t} (h = {h})")]
    ErrorTestFailures {
        /// Time of the last accepted step.
        t: f64,
        /// Last step size tried.
        h: f64,
        /// Failures on this step.
        count: u32,
        /// Counters.
        stats: Box<OdeStats>,
    },
    /// Repeated corrector (or recoverable RHS / projection) failures on one step.
    #[error("repeated convergence failures ({count}) at t = {t} (h = {h})")]
    ConvergenceFailures {
        /// Time of the last accepted step.
        t: f64,
        /// Last step size tried.
        h: f64,
        /// Failures on this step.
        count: u32,
        /// Counters.
        stats: Box<OdeStats>,
    },
    /// A user function failed for good.
    #[error("user function `{what}` failed at t = {t}: {source}")]
    UserFn {
        /// Which function (`rhs`, `jacobian`, `roots`, `constraints`).
        what: &'static str,
        /// Time of the evaluation.
        t: f64,
        /// The user's error.
        source: UserFnError,
        /// Counters.
        stats: Box<OdeStats>,
    },
    /// A non-finite value that could not be recovered from (e.g. in the root functions).
    #[error("non-finite value in {what} at t = {t}")]
    NonFinite {
        /// What contained it.
        what: &'static str,
        /// Time.
        t: f64,
        /// Counters.
        stats: Box<OdeStats>,
    },
    /// A requested time is outside the interval the integrator can answer.
    #[error("time {t} outside the available interval [{lo}, {hi}]")]
    OutsideInterval {
        /// Requested time.
        t: f64,
        /// Interval start.
        lo: f64,
        /// Interval end.
        hi: f64,
    },
}
