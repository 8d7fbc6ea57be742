//! User functions: the way user physics enters the kernel.
//!
//! Every operator of a model is either a constant or a closure. The closures write their result
//! into an output buffer sized by the kernel and return `Err(UserFnError)` on failure; the kernel
//! checks the output for NaN/inf before using it. The frontend binds C-ABI plugins to these types.

use nalgebra::{DMatrix, DVector};
use std::sync::Arc;

/// The error a user function returns (also produced by the kernel when its output is not finite).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("user function failed: {message}")]
pub struct UserFnError {
    /// What went wrong, in the user's words.
    pub message: String,
}

impl UserFnError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        UserFnError { message: message.into() }
    }
}

/// Result of a user function call.
pub type UserResult = Result<(), UserFnError>;

/// `out = f(t)` (a time-dependent vector, e.g. `F_ext(t)`, `b(t)`, `e(t)`).
pub type TimeVecFn = Arc<dyn Fn(f64, &mut [f64]) -> UserResult + Send + Sync>;
/// `out = A(t)` (a time-dependent matrix, e.g. `A(t)`, `C(t)`); `out` has the declared shape.
pub type TimeMatFn = Arc<dyn Fn(f64, &mut DMatrix<f64>) -> UserResult + Send + Sync>;
/// `out = f(t, x)` (e.g. the vector field of a first-order system, `h(q)`).
pub type StateVecFn = Arc<dyn Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync>;
/// `out = J(t, x)` (a Jacobian of a [`StateVecFn`]).
pub type StateMatFn = Arc<dyn Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync>;
/// `out = f(t, a, b)` (two vector arguments, e.g. `F_int(t, q, v)`, `h(x, λ)`).
pub type PairVecFn = Arc<dyn Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync>;
/// `out = J(t, a, b)` (a Jacobian of a [`PairVecFn`]).
pub type PairMatFn = Arc<dyn Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync>;

/// A vector operator: constant or a function of time.
#[derive(Clone)]
pub enum VecOp {
    /// A constant vector.
    Constant(DVector<f64>),
    /// `v(t)`.
    Function(TimeVecFn),
}

/// A matrix operator: constant or a function of time.
#[derive(Clone)]
pub enum MatOp {
    /// A constant matrix.
    Constant(DMatrix<f64>),
    /// `A(t)`, with the declared shape `(rows, cols)`.
    Function {
        /// Number of rows of `A(t)`.
        rows: usize,
        /// Number of columns of `A(t)`.
        cols: usize,
        /// The function.
        f: TimeMatFn,
    },
}

impl std::fmt::Debug for VecOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VecOp::Constant(v) => write!(f, "Constant({:?})", v.as_slice()),
            VecOp::Function(_) => write!(f, "Function(..)"),
        }
    }
}

impl std::fmt::Debug for MatOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatOp::Constant(m) => write!(f, "Constant({}x{})", m.nrows(), m.ncols()),
            MatOp::Function { rows, cols, .. } => write!(f, "Function({rows}x{cols})"),
        }
    }
}

impl From<DVector<f64>> for VecOp {
    fn from(v: DVector<f64>) -> Self {
        VecOp::Constant(v)
    }
}

impl From<DMatrix<f64>> for MatOp {
    fn from(m: DMatrix<f64>) -> Self {
        MatOp::Constant(m)
    }
}

impl VecOp {
    /// A time function `out = f(t)`.
    pub fn function(f: impl Fn(f64, &mut [f64]) -> UserResult + Send + Sync + 'static) -> Self {
        VecOp::Function(Arc::new(f))
    }

    /// Writes `v(t)` into `out` (whose length is the declared size) and checks it is finite.
    pub fn eval(&self, t: f64, out: &mut [f64]) -> UserResult {
        match self {
            VecOp::Constant(v) => {
                out.copy_from_slice(v.as_slice());
                Ok(())
            }
            VecOp::Function(f) => {
                f(t, out)?;
                check_finite_out(out)
            }
        }
    }

    /// `true` for a constant operator.
    pub fn is_constant(&self) -> bool {
        matches!(self, VecOp::Constant(_))
    }

    /// The length of a constant vector (`None` for a function, whose length is fixed by context).
    pub fn const_len(&self) -> Option<usize> {
        match self {
            VecOp::Constant(v) => Some(v.len()),
            VecOp::Function(_) => None,
        }
    }
}

impl MatOp {
    /// A time function `out = A(t)` of the given shape.
    pub fn function(
        rows: usize,
        cols: usize,
        f: impl Fn(f64, &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        MatOp::Function { rows, cols, f: Arc::new(f) }
    }

    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        match self {
            MatOp::Constant(m) => m.shape(),
            MatOp::Function { rows, cols, .. } => (*rows, *cols),
        }
    }

    /// Writes `A(t)` into `out` (already of the declared shape) and checks it is finite.
    pub fn eval(&self, t: f64, out: &mut DMatrix<f64>) -> UserResult {
        match self {
            MatOp::Constant(m) => {
                out.copy_from(m);
                Ok(())
            }
            MatOp::Function { f, .. } => {
                f(t, out)?;
                check_finite_out(out.as_slice())
            }
        }
    }

    /// `true` for a constant operator.
    pub fn is_constant(&self) -> bool {
        matches!(self, MatOp::Constant(_))
    }
}

/// `Err` if a user function wrote a NaN or an infinity.
pub(crate) fn check_finite_out(out: &[f64]) -> UserResult {
    match out.iter().position(|x| !x.is_finite()) {
        Some(i) => Err(UserFnError::new(format!("non-finite output at index {i}"))),
        None => Ok(()),
    }
}
