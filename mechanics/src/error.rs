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
    InvalidModel {
        /// Which object (e.g. `"body `ball3`"`).
        what: String,
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
    /// A geometric query ([`crate::query`]) was given an invalid region.
    InvalidQuery {
        /// The query (Siconos's name, e.g. `"lineIntersectionQuery"`).
        query: &'static str,
        /// Why.
        reason: String,
    },
    /// A combination of features the mechanics time stepping does not have.
    Unsupported {
        /// What was asked for.
        feature: &'static str,
        /// Why it is not available, and what to use instead.
        reason: &'static str,
    },
    /// parry has no contact generator for this pair of shapes.
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
    NonFiniteUserValue {
        /// Time of the evaluation.
        t: f64,
        /// Which function.
        what: &'static str,
        /// The body.
        body: BodyId,
    },
    /// A user function (external force, prescribed velocity) failed.
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
    NonFiniteState {
        /// Time of the step's end.
        t: f64,
        /// The body.
        body: BodyId,
    },
    /// The friction-contact solver refused the problem (bad input, not non-convergence).
    Numerics {
        /// Time of the step.
        t: f64,
        /// The numerics error.
        source: NumericsError,
    },
}

impl MechanicsError {
    /// The message, with each body written by `body` (the `Display` form writes `BodyId(k)`; the
    /// runtime and the Python package write the body's name).
    pub fn describe(&self, body: &dyn Fn(BodyId) -> String) -> String {
        match self {
            MechanicsError::InvalidModel { what, reason } => format!("invalid {what}: {reason}"),
            MechanicsError::InvalidOption { option, reason } => format!("invalid option `{option}`: {reason}"),
            MechanicsError::InvalidQuery { query, reason } => format!("invalid {query}: {reason}"),
            MechanicsError::Unsupported { feature, reason } => format!("unsupported: {feature}: {reason}"),
            MechanicsError::UnsupportedPair { t, body1, shape1, body2, shape2 } => format!(
                "at t = {t}: no contact generator between shape {shape1} of {} and shape {shape2} of {}",
                body(*body1),
                body(*body2)
            ),
            MechanicsError::NonFiniteUserValue { t, what, body: b } => {
                format!("at t = {t}: {what} of {} is not finite", body(*b))
            }
            MechanicsError::UserFunction { t, what, body: b, message } => {
                format!("at t = {t}: {what} of {} failed: {message}", body(*b))
            }
            MechanicsError::NonFiniteState { t, body: b } => {
                format!("at t = {t}: the new state of {} is not finite", body(*b))
            }
            MechanicsError::Numerics { t, source } => format!("at t = {t}: friction-contact problem: {source}"),
        }
    }
}

impl std::fmt::Display for MechanicsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&|b| format!("{b:?}")))
    }
}

/// Result alias of the mechanics crate.
pub type Result<T> = std::result::Result<T, MechanicsError>;
