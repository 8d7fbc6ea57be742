//! Errors of the null-space (projection) formulation.

use saltus_numerics::ode::OdeError;

/// Why a null-space model could not be built or advanced. Errors met while advancing carry the
/// time `t` of the last good state, which stays readable in the simulation.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum NullSpaceError {
    /// A vector or matrix has the wrong size.
    #[error("{what}: expected size {expected}, got {got}")]
    Dimension {
        /// Which object.
        what: &'static str,
        /// Expected size.
        expected: usize,
        /// Given size.
        got: usize,
    },
    /// An option is out of range.
    #[error("invalid option `{option}`: {reason}")]
    InvalidOption {
        /// Option name.
        option: &'static str,
        /// Why.
        reason: String,
    },
    /// The model is outside what the formulation supports.
    #[error("unsupported model: {0}")]
    Unsupported(String),
    /// A user function failed or wrote a non-finite value.
    #[error("at t = {t}: user function `{what}` failed: {message}")]
    UserFn {
        /// Time of the evaluation.
        t: f64,
        /// Which function (`h`, `jac_q`, `mass`, `forces`, `basis`, …).
        what: &'static str,
        /// The user's message.
        message: String,
    },
    /// `C_J` has rank below `m` (redundant or singular constraints), so no basis of dimension
    /// `n − m` exists.
    #[error(
        "at t = {t}: the constraint Jacobian has rank below {m} (redundant constraints or a singular configuration)"
    )]
    RankDeficient {
        /// Time.
        t: f64,
        /// Number of constraints.
        m: usize,
    },
    /// A matrix that must be invertible is not (`DᵀMD`, `C_J M⁻¹ C_Jᵀ`, `M`).
    #[error("at t = {t}: {what} is singular")]
    Singular {
        /// Time.
        t: f64,
        /// Which matrix.
        what: &'static str,
    },
    /// The drift projection did not reach its tolerance.
    #[error("at t = {t}: the projection onto C = 0 stopped at |C|∞ = {violation:e} after {iterations} iterations")]
    ProjectionFailed {
        /// Time.
        t: f64,
        /// `max_i |C_i|` at the last iterate.
        violation: f64,
        /// Gauss–Newton corrections applied.
        iterations: usize,
    },
    /// The basis kept degenerating: more new charts than allowed within one advance.
    #[error("at t = {t}: more than {max} new charts before reaching the output time")]
    TooManyCharts {
        /// Time of the last chart.
        t: f64,
        /// The limit ([`super::NullSpaceOptions::max_charts_per_advance`]).
        max: u64,
    },
    /// The integrator stopped with an error.
    #[error("integrator: {0}")]
    Integrator(#[from] OdeError),
}
