//! The error type of the control toolbox.

use saltus_numerics::NumericsError;

/// Everything that stops a control simulation from being built or from taking a step.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ControlError {
    /// A plant, sensor, controller or observer is malformed (sizes, parameters).
    #[error("invalid {what}: {reason}")]
    Invalid {
        /// Which object (e.g. `"actuator `smc`"`).
        what: String,
        /// Why.
        reason: String,
    },
    /// A matrix that must be inverted is singular (e.g. `C_s B` of a sliding-mode controller).
    #[error("{what}: matrix {matrix} is singular")]
    Singular {
        /// Which object.
        what: String,
        /// Which matrix.
        matrix: &'static str,
    },
    /// The numerics solver refused the controller's one-step relay problem.
    #[error("at t = {t}: {what}: relay problem: {source}")]
    Numerics {
        /// Time of the control instant.
        t: f64,
        /// Which controller.
        what: String,
        /// The numerics error.
        source: NumericsError,
    },
    /// A user function of the plant failed (the state is left at the last good step).
    #[error("at t = {t}: {what}: {message}")]
    UserFunction {
        /// Time of the call.
        t: f64,
        /// Which function.
        what: &'static str,
        /// Its message (the plugin's status, the Python exception).
        message: String,
    },
    /// A non-finite value appeared (the state is left at the last good step).
    #[error("at t = {t}: {what} is not finite")]
    NonFinite {
        /// Time.
        t: f64,
        /// Which quantity.
        what: String,
    },
}

/// Result alias of the control toolbox.
pub type Result<T> = std::result::Result<T, ControlError>;

pub(crate) fn invalid(what: impl Into<String>, reason: impl Into<String>) -> ControlError {
    ControlError::Invalid { what: what.into(), reason: reason.into() }
}
