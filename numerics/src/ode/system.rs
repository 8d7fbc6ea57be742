//! The user side of the integrator: the ODE `y' = f(t, y)`, its root (event) functions
//! `g(t, y)`, optional invariants `c(t, y) = 0`, and the errors user functions may return.

use nalgebra::DMatrix;

/// An error returned by a user function (RHS, Jacobian, root or constraint function).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UserFnError {
    /// The function cannot be evaluated at this point, but may be at a nearby one (for example
    /// outside its domain after an over-long trial step). The integrator reduces the step and
    /// retries, exactly like a corrector convergence failure.
    #[error("recoverable failure: {0}")]
    Recoverable(String),
    /// The function failed for good; the integration stops with this error.
    #[error("fatal failure: {0}")]
    Fatal(String),
    /// The optional function (Jacobian, constraint Jacobian) is not provided.
    #[error("function not provided")]
    NotProvided,
}

/// Which sign transitions of a root function are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RootDirection {
    /// Only increasing transitions (−1 → 1, and with a discrete zero −1 → 0 and 0 → 1).
    Rising,
    /// Only decreasing transitions (1 → −1, and with a discrete zero 1 → 0 and 0 → −1).
    Falling,
    /// Both.
    #[default]
    Both,
}

impl RootDirection {
    /// Whether a transition from sign `from` to sign `to` (each −1, 0, 1) is declared.
    pub fn accepts(self, from: i8, to: i8) -> bool {
        match self {
            RootDirection::Rising => to > from,
            RootDirection::Falling => to < from,
            RootDirection::Both => to != from,
        }
    }
}

/// How a root function `g_i(t, y)` is watched (see `events-accuracy-projection.md` §4).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RootKind {
    /// Declared transitions.
    pub direction: RootDirection,
    /// If true, zero is a third sign state ("discrete zero"): −1 → 0 and 0 → 1 are transitions of
    /// their own. If false (continuous trigger) a landing exactly on zero counts as the crossing,
    /// and leaving zero afterwards reports nothing.
    pub discrete_zero: bool,
    /// Localization window: the reported window `(t_low, t_high]` is at most this long. `None`
    /// uses the roundoff-level window `10 · uround · (|t| + |h|)`.
    pub window: Option<f64>,
}

/// The ODE system `y' = f(t, y)` with optional Jacobian `∂f/∂y`, root functions `g(t, y)` and
/// invariants `c(t, y) = 0`. Functions take `&self`: they must not change discrete state (trial
/// steps may go back in time), see `events-accuracy-projection.md` §1.
pub trait OdeSystem {
    /// Number of states `n`.
    fn dim(&self) -> usize;
    /// Writes `dy = f(t, y)`.
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError>;
    /// Whether [`OdeSystem::jacobian`] is implemented (otherwise finite differences are used).
    fn has_jacobian(&self) -> bool {
        false
    }
    /// Writes the dense Jacobian `jac = ∂f/∂y (t, y)` (`n × n`, zeroed on entry).
    fn jacobian(&self, _t: f64, _y: &[f64], _jac: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        Err(UserFnError::NotProvided)
    }
    /// Whether [`OdeSystem::sparse_jacobian`] is implemented (used with
    /// [`crate::ode::JacobianKind::Sparse`]; otherwise grouped finite differences).
    fn has_sparse_jacobian(&self) -> bool {
        false
    }
    /// Writes the structural nonzeros of `∂f/∂y (t, y)` in the CSC order of the pattern given
    /// in [`crate::ode::JacobianKind::Sparse`] (`values[k]` is the entry
    /// `(pattern.row_idx()[k], j)` with `pattern.col_ptr()[j] ≤ k < pattern.col_ptr()[j + 1]`;
    /// see [`crate::ode::SparsityPattern::entry_index`]). Zeroed on entry.
    fn sparse_jacobian(&self, _t: f64, _y: &[f64], _values: &mut [f64]) -> Result<(), UserFnError> {
        Err(UserFnError::NotProvided)
    }
    /// Number of root functions.
    fn n_roots(&self) -> usize {
        0
    }
    /// Writes `g = g(t, y)` (length [`OdeSystem::n_roots`]).
    fn roots(&self, _t: f64, _y: &[f64], _g: &mut [f64]) -> Result<(), UserFnError> {
        Ok(())
    }
    /// How root function `i` is watched. Default: both directions, continuous, roundoff window.
    fn root_kind(&self, _i: usize) -> RootKind {
        RootKind::default()
    }
    /// Number of invariants `c(t, y) = 0` used by the optional projection.
    fn n_constraints(&self) -> usize {
        0
    }
    /// Writes `c = c(t, y)` (length [`OdeSystem::n_constraints`]).
    fn constraints(&self, _t: f64, _y: &[f64], _c: &mut [f64]) -> Result<(), UserFnError> {
        Ok(())
    }
    /// Writes `G = ∂c/∂y (t, y)` (`m × n`, zeroed on entry). If not provided
    /// (`Err(NotProvided)`), the projection uses forward differences.
    fn constraint_jacobian(&self, _t: f64, _y: &[f64], _g: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        Err(UserFnError::NotProvided)
    }
}
