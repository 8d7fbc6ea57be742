//! Convex quadratic programs.
//!
//! * [`Qp`]: the dense QP `min ½ xᵀQx + pᵀx  s.t.  A x >= b,  Aeq x = beq` (`Q` symmetric PSD),
//!   solved by the Goldfarb–Idnani dual active-set method (`qp`), with proximal-point steps
//!   when `Q` is singular (see `dense.rs` for why). Infeasibility and unboundedness are
//!   reported in [`QpReport::outcome`], never as errors.
//! * [`ConvexQp`]: Siconos's ConvexQP over Coulomb cones (`min ½ xᵀMx + qᵀx`, `x_α ∈ K_{μ_α}`),
//!   solved by accelerated projected gradient (`pg`); residual [`convex_qp_error`].
//! * [`bounded`]: the bound-constrained QP `min ½ zᵀMz + qᵀz s.t. z >= 0` (used by the LCP `qp` solver).
//!
//! ```
//! use nalgebra::DMatrix;
//! use saltus_numerics::qp::{self, Qp};
//! use saltus_numerics::IterOptions;
//! // min ½‖x‖² − 3x₁ − x₂  s.t.  x₁ + x₂ <= 1 (−x₁ − x₂ >= −1)  →  x = (1.5, −0.5).
//! let p = Qp::with_inequalities(DMatrix::identity(2, 2), vec![-3.0, -1.0],
//!                               DMatrix::from_row_slice(1, 2, &[-1.0, -1.0]), vec![-1.0])?;
//! let mut x = vec![0.0; 2];
//! let r = qp::solve(&p, &mut x, &qp::solver_by_name("qp", IterOptions::new(1e-10, 100)).unwrap())?;
//! assert!(r.report.status.converged());
//! assert!((x[0] - 1.5).abs() < 1e-12 && (x[1] + 0.5).abs() < 1e-12 && (r.lambda[0] - 1.5).abs() < 1e-12);
//! # Ok::<(), saltus_numerics::NumericsError>(())
//! ```

// Dense kernels index several arrays in lockstep; `!(a < b)` is deliberate so that NaN fails
// the test; `map_or(true, ..)` keeps the crate's MSRV (1.80, before `is_none_or`).
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord, clippy::unnecessary_map_or)]

pub mod bounded;
mod cone;
mod convex_qp;
mod dense;
mod goldfarb_idnani;
mod options;
mod pg;
mod problem;

pub use cone::project_on_cone;
pub use convex_qp::{convex_qp_error, read_convex_qp, read_convex_qp_file, ConvexQp};
pub use dense::solve_dense;
pub use options::{DualActiveSetOptions, PgOptions};
pub use pg::solve_pg;
pub use problem::Qp;

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::report::{IterOptions, SolveReport, SolveStatus};
use std::time::Instant;

/// The QP solvers.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum QpSolver {
    /// Goldfarb–Idnani dual active set, for the dense [`Qp`].
    DualActiveSet(DualActiveSetOptions),
    /// Accelerated projected gradient, for the cone-constrained [`ConvexQp`].
    ProjectedGradient(PgOptions),
}

impl QpSolver {
    /// The CLI name (`qp`, `pg`).
    pub fn name(&self) -> &'static str {
        match self {
            QpSolver::DualActiveSet(_) => "qp",
            QpSolver::ProjectedGradient(_) => "pg",
        }
    }
}

/// The solver catalogue: (CLI name, one-line description).
pub const SOLVERS: &[(&str, &str)] = &[
    ("qp", "Goldfarb-Idnani dual active set for dense convex QPs (proximal point when Q is singular)"),
    ("pg", "accelerated projected gradient with backtracking for the ConvexQP over Coulomb cones"),
];

/// The solver called `name` in [`SOLVERS`] with tolerance and iteration cap from `it`.
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<QpSolver> {
    match name {
        "qp" => Some(QpSolver::DualActiveSet(DualActiveSetOptions::new(it))),
        "pg" => Some(QpSolver::ProjectedGradient(PgOptions::new(it))),
        _ => None,
    }
}

/// What a dense QP solve found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum QpOutcome {
    /// A KKT point within tolerance (optimal, the QP being convex).
    Optimal,
    /// The constraints have no common point.
    Infeasible,
    /// The objective is unbounded below on the feasible set.
    Unbounded,
    /// Stopped (iteration cap or numerical trouble) without a certificate.
    NotConverged,
}

/// Report of a dense QP solve: the common report (residual = KKT residual; status `Converged`
/// iff optimal within tolerance, `Failed(NoSolution)` for infeasible or unbounded problems),
/// the outcome, and the multipliers (`λ >= 0` for `A x >= b`, `μ` for `Aeq x = beq`).
#[derive(Debug, Clone, PartialEq)]
pub struct QpReport {
    /// Status, iterations (active-set changes), KKT residual, elapsed time.
    pub report: SolveReport,
    /// What was found.
    pub outcome: QpOutcome,
    /// Multipliers of the inequalities.
    pub lambda: Vec<f64>,
    /// Multipliers of the equalities.
    pub mu: Vec<f64>,
}

/// Solves the dense QP `p` with `solver` (which must be `DualActiveSet`); `x` receives the
/// answer.
pub fn solve(p: &Qp, x: &mut [f64], solver: &QpSolver) -> Result<QpReport> {
    check_len("x", p.n(), x.len())?;
    let QpSolver::DualActiveSet(o) = solver else {
        return Err(NumericsError::Unsupported {
            solver: solver.name(),
            what: "the dense polyhedral QP (use `qp`)".into(),
        });
    };
    o.validate()?;
    let start = Instant::now();
    let mut r = solve_dense(p, x, o)?;
    if !x.iter().all(|v| v.is_finite()) {
        x.iter_mut().for_each(|v| *v = 0.0);
        r.report.status = SolveStatus::Failed(crate::report::FailReason::NonFinite);
        r.outcome = QpOutcome::NotConverged;
        r.report.residual = f64::INFINITY;
    }
    r.report.elapsed = start.elapsed();
    Ok(r)
}

/// Solves the ConvexQP `p` with `solver` (which must be `ProjectedGradient`); `z` holds the warm
/// start on entry when asked, and the answer on exit.
pub fn solve_convex_qp(p: &ConvexQp, z: &mut [f64], solver: &QpSolver) -> Result<SolveReport> {
    check_len("z", p.size(), z.len())?;
    let QpSolver::ProjectedGradient(o) = solver else {
        return Err(NumericsError::Unsupported {
            solver: solver.name(),
            what: "the ConvexQP over Coulomb cones (use `pg`)".into(),
        });
    };
    o.validate()?;
    if o.warm_start {
        check_finite("z (warm start)", z)?;
    }
    let start = Instant::now();
    let mut r = solve_pg(p, z, o)?;
    r.elapsed = start.elapsed();
    Ok(r)
}
