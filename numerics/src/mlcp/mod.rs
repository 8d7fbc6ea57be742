//! Mixed linear complementarity problems (MLCP) and their solvers.
//!
//! Problem ([`Mlcp`]): `z = [u; v]`, `w = M z + q`, `w_eq = 0` on the first `n_eq` rows and
//! `0 <= v ⊥ w_c >= 0` on the others; in Siconos's form
//! `A u + C v + a = 0`, `0 <= v ⊥ D u + B v + b >= 0`.
//!
//! Solvers ([`MlcpSolver`]): enumeration of active sets (`enum`), projected Gauss–Seidel
//! (`pgs`), semismooth Newton on the Fischer–Burmeister function (`newton-fb`). Every report's
//! residual is the Siconos [`mlcp_compute_error`] of the returned `z`, and the status is
//! `Converged` iff it is `<= tol`. Without complementarity rows the driver solves `M z = −q` by
//! LU directly, whichever solver is asked.
//!
//! ```
//! use nalgebra::DMatrix;
//! use saltus_numerics::mlcp::{self, Mlcp};
//! use saltus_numerics::IterOptions;
//! // 2u + v − 1 = 0,  0 <= v ⊥ u + 2v − 2 >= 0  →  u = 0, v = 1.
//! let p = Mlcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]), vec![-1.0, -2.0], 1)?;
//! let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
//! let solver = mlcp::solver_by_name("enum", IterOptions::new(1e-10, 100)).unwrap();
//! let report = mlcp::solve(&p, &mut z, &mut w, &solver)?;
//! assert!(report.status.converged());
//! assert!(z[0].abs() < 1e-12 && (z[1] - 1.0).abs() < 1e-12);
//! # Ok::<(), saltus_numerics::NumericsError>(())
//! ```

// Dense kernels index several arrays in lockstep; `!(a < b)` is deliberate so that NaN fails
// the test; `map_or(true, ..)` keeps the crate's MSRV (1.80, before `is_none_or`).
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord, clippy::unnecessary_map_or)]

mod enumerative;
mod error;
mod io;
mod lemke;
pub mod linalg;
mod newton_fb;
mod options;
mod pgs;
mod problem;

pub use enumerative::{solve_enum, solve_enum_with, EnumWorkspace};
pub use error::{comp_violation, error_from_zw, mlcp_compute_error, mlcp_error};
pub use io::{read_mlcp, read_mlcp_file};
pub use lemke::{lemke_lcp, solve_lemke};
pub use newton_fb::solve_newton_fb;
pub use options::{EnumOptions, LemkeOptions, NewtonFbOptions, PgsOptions};
pub use pgs::solve_pgs;
pub use problem::Mlcp;

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::report::{FailReason, IterOptions, SolveReport, SolveStatus};
use std::time::Instant;

crate::solver_family! {
    /// The MLCP solvers and their options.
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub enum MlcpSolver, MLCP_SOLVERS {
        /// Enumeration of complementarity active sets (exact, `m <= max_comp`).
        Enumerative(EnumOptions) = "enum", "Enum", "enumeration of complementarity active sets with an LU solve per set (exact, m <= 20 by default)";
        /// Projected Gauss–Seidel (needs a nonzero diagonal).
        Pgs(PgsOptions) = "pgs", "Pgs", "projected Gauss-Seidel (free equality rows, projected complementarity rows; needs M_ii != 0)";
        /// Semismooth Newton on the Fischer–Burmeister reformulation, Armijo line search.
        NewtonFb(NewtonFbOptions) = "newton-fb", "NewtonFB", "semismooth Newton on the Fischer-Burmeister reformulation with Armijo line search";
        /// Lemke's method on the LCP left after eliminating `u` (needs the equality block `A`
        /// invertible).
        Lemke(LemkeOptions) = "lemke", "Lemke", "Lemke's complementary pivoting on the LCP left after eliminating u (equality block A invertible)";
    }
}

impl MlcpSolver {
    fn warm_start(&self) -> bool {
        match self {
            MlcpSolver::Enumerative(o) => o.warm_start,
            MlcpSolver::Pgs(o) => o.warm_start,
            MlcpSolver::NewtonFb(o) => o.warm_start,
            MlcpSolver::Lemke(_) => false,
        }
    }
    /// Checks the options.
    pub fn validate(&self) -> Result<()> {
        match self {
            MlcpSolver::Enumerative(o) => o.validate(),
            MlcpSolver::Pgs(o) => o.validate(),
            MlcpSolver::NewtonFb(o) => o.validate(),
            MlcpSolver::Lemke(o) => o.validate(),
        }
    }
    fn tol(&self) -> f64 {
        match self {
            MlcpSolver::Enumerative(o) => o.tol,
            MlcpSolver::Pgs(o) => o.iter.tol,
            MlcpSolver::NewtonFb(o) => o.iter.tol,
            MlcpSolver::Lemke(o) => o.tol,
        }
    }
}

/// The solver called `name` in [`SOLVERS`] with tolerance and iteration cap from `it`.
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<MlcpSolver> {
    match name {
        "enum" => Some(MlcpSolver::Enumerative(EnumOptions::with_tol(it.tol))),
        "pgs" => Some(MlcpSolver::Pgs(PgsOptions::new(it))),
        "newton-fb" => Some(MlcpSolver::NewtonFb(NewtonFbOptions::new(it))),
        "lemke" => Some(MlcpSolver::Lemke(LemkeOptions::with_tol(it.tol))),
        _ => None,
    }
}

/// Solves the MLCP `p`. `z` (length `n_eq + m`) holds the warm start on entry when the options'
/// `warm_start` is true, and `(z, w)` hold the answer on exit (`w = M z + q`).
///
/// `Err` for wrong lengths, a non-finite warm start, invalid options, a solver that cannot take
/// the problem (`enum` over its cap, `pgs` with a zero diagonal) or a singular `M` when `m = 0`.
pub fn solve(p: &Mlcp, z: &mut [f64], w: &mut [f64], solver: &MlcpSolver) -> Result<SolveReport> {
    solve_with(&mut MlcpSolverState::default(), p, z, w, solver)
}

/// Reusable workspaces of the MLCP solvers: the enumeration and the direct LU do not allocate
/// once grown (the other solvers still allocate per call).
#[derive(Debug, Clone, Default)]
pub struct MlcpSolverState {
    enumeration: EnumWorkspace,
    lu: Vec<f64>,
    piv: Vec<usize>,
}

/// [`solve`] reusing the workspaces in `state`.
pub fn solve_with(
    state: &mut MlcpSolverState,
    p: &Mlcp,
    z: &mut [f64],
    w: &mut [f64],
    solver: &MlcpSolver,
) -> Result<SolveReport> {
    check_len("z", p.size(), z.len())?;
    check_len("w", p.size(), w.len())?;
    solver.validate()?;
    if solver.warm_start() {
        check_finite("z (warm start)", z)?;
    } else {
        z.iter_mut().for_each(|x| *x = 0.0);
    }
    let start = Instant::now();
    let mut report = if p.n_comp() == 0 {
        solve_direct_with(&mut state.lu, &mut state.piv, p, z, w, solver.tol())?
    } else {
        match solver {
            MlcpSolver::Enumerative(o) => solve_enum_with(&mut state.enumeration, p, z, w, o)?,
            MlcpSolver::Pgs(o) => solve_pgs(p, z, w, o)?,
            MlcpSolver::NewtonFb(o) => solve_newton_fb(p, z, w, o)?,
            MlcpSolver::Lemke(o) => solve_lemke(p, z, w, o)?,
        }
    };
    if !z.iter().chain(w.iter()).all(|x| x.is_finite()) {
        z.iter_mut().for_each(|x| *x = 0.0);
        report.residual = mlcp_compute_error(p, z, w);
        report.status = SolveStatus::Failed(FailReason::NonFinite);
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Solves an MLCP without complementarity rows, `M z = −q`, by LU with partial pivoting.
/// `Err(Singular)` when `M` is singular.
pub fn solve_direct(p: &Mlcp, z: &mut [f64], w: &mut [f64], tol: f64) -> Result<SolveReport> {
    solve_direct_with(&mut Vec::new(), &mut Vec::new(), p, z, w, tol)
}

fn solve_direct_with(
    a: &mut Vec<f64>,
    piv: &mut Vec<usize>,
    p: &Mlcp,
    z: &mut [f64],
    w: &mut [f64],
    tol: f64,
) -> Result<SolveReport> {
    let n = p.size();
    a.clear();
    a.extend_from_slice(p.m().as_slice());
    piv.clear();
    piv.resize(n, 0);
    let tiny = 1e-14 * (1.0 + linalg::max_abs(a));
    linalg::lu_factor(a, n, piv, tiny)
        .map_err(|k| NumericsError::Singular { what: "M (direct LU, no complementarity rows)", index: k })?;
    for (zi, qi) in z.iter_mut().zip(p.q()) {
        *zi = -qi;
    }
    linalg::lu_solve(a, n, piv, z);
    let e = mlcp_compute_error(p, z, w);
    let status = if e <= tol { SolveStatus::Converged } else { SolveStatus::Failed(FailReason::SingularSystem) };
    Ok(SolveReport { status, iterations: 1, residual: e, elapsed: Default::default() })
}
