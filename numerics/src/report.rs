//! Solver reports and shared iteration options.

use crate::error::{NumericsError, Result};
use std::time::Duration;

/// How a solve ended. Non-convergence is a status, never an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveStatus {
    /// The residual is at or below the tolerance.
    Converged,
    /// The iteration cap was hit before the tolerance was reached.
    MaxIterations,
    /// The method stopped for a reason of its own; the returned iterate is its best one.
    Failed(FailReason),
}

/// Why a method stopped without converging (other than the iteration cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailReason {
    /// Lemke's method ended on a secondary ray: the LCP may have no solution.
    RayTermination,
    /// The iterates stopped making progress.
    Stalled,
    /// A line search could not find an acceptable step.
    LineSearch,
    /// A linear system along the way was singular.
    SingularSystem,
    /// No candidate solution exists (e.g. enumeration found no feasible active set).
    NoSolution,
    /// The iterate became non-finite; the returned iterate is the last finite one.
    NonFinite,
}

impl SolveStatus {
    /// `true` for [`SolveStatus::Converged`].
    pub fn converged(self) -> bool {
        matches!(self, SolveStatus::Converged)
    }

    /// The lower-case name used in CSV output: `converged`, `max_iterations` or `failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            SolveStatus::Converged => "converged",
            SolveStatus::MaxIterations => "max_iterations",
            SolveStatus::Failed(_) => "failed",
        }
    }
}

/// The outcome of one solve.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveReport {
    /// How the solve ended.
    pub status: SolveStatus,
    /// Iterations (pivots, sweeps or Newton steps, as the solver counts them).
    pub iterations: usize,
    /// The canonical residual of the problem type on the returned solution
    /// (the same measure Siconos reports, see each problem's `error` function).
    pub residual: f64,
    /// Wall time spent in the solver.
    pub elapsed: Duration,
}

impl SolveReport {
    /// A report for a problem answered in closed form (0 iterations).
    pub fn trivial(residual: f64) -> Self {
        SolveReport { status: SolveStatus::Converged, iterations: 0, residual, elapsed: Duration::ZERO }
    }
}

/// Tolerance and iteration cap shared by the iterative solvers.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct IterOptions {
    /// Stop when the problem's canonical residual is `<= tol`. Must be `> 0`.
    pub tol: f64,
    /// Maximum number of iterations. Must be `> 0`.
    pub max_iter: usize,
}

impl Default for IterOptions {
    fn default() -> Self {
        IterOptions { tol: 1e-8, max_iter: 1000 }
    }
}

impl IterOptions {
    /// Options with the given tolerance and iteration cap.
    pub fn new(tol: f64, max_iter: usize) -> Self {
        IterOptions { tol, max_iter }
    }

    /// Checks `tol > 0` (finite) and `max_iter > 0`.
    pub fn validate(&self) -> Result<()> {
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return Err(NumericsError::InvalidOption {
                option: "tol",
                reason: format!("must be finite and > 0, got {}", self.tol),
            });
        }
        if self.max_iter == 0 {
            return Err(NumericsError::InvalidOption { option: "max_iter", reason: "must be > 0".into() });
        }
        Ok(())
    }
}
