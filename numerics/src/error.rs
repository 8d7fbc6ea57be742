//! The error type of the numerics crate.
//!
//! `Err` is returned only when the answer would be meaningless (bad input, unsupported storage,
//! a singular factorization that leaves no way forward). Non-convergence is *not* an error: it is a
//! [`crate::report::SolveStatus`] in the [`crate::report::SolveReport`].

/// Everything that can make a numerics call refuse to produce an answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NumericsError {
    /// A vector or matrix has the wrong size.
    #[error("dimension mismatch in {what}: expected {expected}, found {found}")]
    DimensionMismatch {
        /// Which operand (e.g. `"q"`, `"M rows"`).
        what: &'static str,
        /// The size required by the problem.
        expected: usize,
        /// The size given.
        found: usize,
    },
    /// A matrix that must be square is not.
    #[error("matrix {what} must be square, it is {rows}x{cols}")]
    NotSquare {
        /// Which matrix.
        what: &'static str,
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
    /// NaN or infinity in an input (or in a result that would be returned).
    #[error("non-finite value in {what} at index {index}")]
    NonFinite {
        /// Which operand.
        what: &'static str,
        /// Flat index of the first non-finite entry (column-major for matrices).
        index: usize,
    },
    /// An option value is out of its valid range.
    #[error("invalid option `{option}`: {reason}")]
    InvalidOption {
        /// Option name as written in the options struct.
        option: &'static str,
        /// Why it is rejected.
        reason: String,
    },
    /// A solver was given a storage or problem shape it cannot handle.
    #[error("solver `{solver}` does not support {what}")]
    Unsupported {
        /// Solver name.
        solver: &'static str,
        /// What is not supported (e.g. `"sparse block storage"`).
        what: String,
    },
    /// A factorization met a (numerically) singular matrix.
    #[error("singular matrix in {what} (at pivot {index})")]
    Singular {
        /// Which matrix.
        what: &'static str,
        /// Pivot or block index where it failed.
        index: usize,
    },
    /// A user function (the `F` or `∇F` of a complementarity problem or variational
    /// inequality, a user projection) failed or returned NaN/inf.
    #[error("user function {what} failed at iteration {iteration}: {message}")]
    UserFunction {
        /// Which function (e.g. `"F"`, `"jacobian of F"`, `"projection"`).
        what: &'static str,
        /// The solver iteration at which it was called (0: at the initial iterate).
        iteration: usize,
        /// Its own message, or which entry was not finite.
        message: String,
    },
    /// A problem file could not be read.
    #[error("{line}:{column}: {message}")]
    Parse {
        /// 1-based line number in the file.
        line: usize,
        /// 1-based column number in the file.
        column: usize,
        /// What was expected or found.
        message: String,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = NumericsError> = std::result::Result<T, E>;

/// Returns `NonFinite` for the first NaN/inf entry of `v`.
pub fn check_finite(what: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(NumericsError::NonFinite { what, index }),
        None => Ok(()),
    }
}

/// Returns `DimensionMismatch` unless `found == expected`.
pub fn check_len(what: &'static str, expected: usize, found: usize) -> Result<()> {
    if expected == found {
        Ok(())
    } else {
        Err(NumericsError::DimensionMismatch { what, expected, found })
    }
}
