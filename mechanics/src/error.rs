//! The error type of the mechanics crate.

use crate::body::BodyId;
use saltus_numerics::NumericsError;

/// Everything that stops the mechanics crate from building a scene or taking a step.
///
/// Errors met during a step carry the time `t` of the step and the body or pair concerned; the
/// state of the scene is then left at the last good step (nothing non-finite enters it).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum MechanicsError {
    /// A body, shape, law or option is malformed.
    #[error("invalid {what}: {reason}")]
    InvalidModel {
        /// Which object (e.g. `"body `ball3`"`).
        what: String,
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
    /// A combination of features the mechanics time stepping does not have.
    #[error("unsupported: {feature}: {reason}")]
    Unsupported {
        /// What was asked for.
        feature: &'static str,
        /// Why it is not available, and what to use instead.
        reason: &'static str,
    },
    /// parry has no contact generator for this pair of shapes.
    #[error("at t = {t}: no contact generator between shape {shape1} of {body1:?} and shape {shape2} of {body2:?}")]
    UnsupportedPair {
        /// Time of the step.
        t: f64,
        /// First body.
        body1: BodyId,
        /// Its shape number.
        shape1: usize,
        /// Second body.
        body2: BodyId,
        /// Its shape number.
        shape2: usize,
    },
    /// A user function (external force, prescribed motion) returned a non-finite value.
    #[error("at t = {t}: {what} of {body:?} is not finite")]
    NonFiniteUserValue {
        /// Time of the evaluation.
        t: f64,
        /// Which function.
        what: &'static str,
        /// The body.
        body: BodyId,
    },
    /// A user function (external force, prescribed velocity) failed.
    #[error("at t = {t}: {what} of {body:?} failed: {message}")]
    UserFunction {
        /// Time of the evaluation.
        t: f64,
        /// Which function.
        what: &'static str,
        /// The body.
        body: BodyId,
        /// What the function said.
        message: String,
    },
    /// The state would become non-finite (the step is refused and the state kept).
    #[error("at t = {t}: the new state of {body:?} is not finite")]
    NonFiniteState {
        /// Time of the step's end.
        t: f64,
        /// The body.
        body: BodyId,
    },
    /// The friction-contact solver refused the problem (bad input, not non-convergence).
    #[error("at t = {t}: friction-contact problem: {source}")]
    Numerics {
        /// Time of the step.
        t: f64,
        /// The numerics error.
        source: NumericsError,
    },
}

/// Result alias of the mechanics crate.
pub type Result<T> = std::result::Result<T, MechanicsError>;
