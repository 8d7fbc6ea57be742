//! Linear complementarity problems (LCP): find `z ∈ Rⁿ` with
//! `w = M z + q`, `0 ≤ z ⊥ w ≥ 0`.
//!
//! [`solve`] applies the Siconos driver shortcuts (all `q_i ≥ 0` ⇒ `z = 0`; `n = 1` ⇒
//! `z = −q/M`) and then one of the solvers of [`LcpSolver`]. The returned
//! [`SolveReport::residual`] is always [`lcp_error`] on the returned `z`, and the status is
//! `Converged` iff that residual is `<= tol`. [`solve_with`] reuses an [`LcpSolverState`] so that a
//! time-stepping loop solves without allocating once the workspace has grown.

mod active_set;
mod enumerative;
mod error;
mod io;
mod lemke;
pub(crate) mod lu;
mod newton;
mod options;
mod pgs;
mod qp;

pub use error::{lcp_error, lcp_error_zw, DBL_EPSILON};
pub use io::{read_lcp, read_lcp_file};
pub use lemke::TieBreak;
pub use options::{EnumOptions, LemkeOptions, NewtonOptions, PgsOptions, PsorOptions, QpLcpOptions};

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::matrix::Operator;
use crate::report::{FailReason, IterOptions, SolveReport, SolveStatus};
use std::time::Instant;

/// An LCP `w = M z + q`, `0 ≤ z ⊥ w ≥ 0`, with square finite `M` and finite `q`.
#[derive(Debug, Clone, PartialEq)]
pub struct Lcp {
    m: Operator,
    q: Vec<f64>,
}

impl Lcp {
    /// Checks that `M` is square, `q` has `M`'s size and every entry is finite.
    pub fn new(m: Operator, q: Vec<f64>) -> Result<Lcp> {
        if m.nrows() != m.ncols() {
            return Err(NumericsError::NotSquare { what: "M", rows: m.nrows(), cols: m.ncols() });
        }
        check_len("q", m.nrows(), q.len())?;
        if let Some(index) = m.first_non_finite() {
            return Err(NumericsError::NonFinite { what: "M", index });
        }
        check_finite("q", &q)?;
        let m = scalar_blocks(m)?;
        Ok(Lcp { m, q })
    }
    /// The matrix `M`.
    pub fn m(&self) -> &Operator {
        &self.m
    }
    /// The vector `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// The size `n`.
    pub fn size(&self) -> usize {
        self.q.len()
    }
    /// Gives back `(M, q)` (lets a time-stepping loop reuse the buffers without allocating).
    pub fn into_parts(self) -> (Operator, Vec<f64>) {
        (self.m, self.q)
    }
}

/// Block storage is re-blocked into `1 × 1` blocks (the row-wise solvers work per scalar row).
pub(crate) fn scalar_blocks(m: Operator) -> Result<Operator> {
    match m {
        Operator::BlockCsr(b) if !b.is_uniform(1) => {
            let d = b.to_dense();
            let n = d.nrows();
            let mut entries = Vec::new();
            for j in 0..n {
                for i in 0..n {
                    if d[(i, j)] != 0.0 {
                        entries.push((i, j, d[(i, j)]));
                    }
                }
            }
            Ok(Operator::BlockCsr(crate::io::sparse_to_blocks(n, n, &entries, 1)?))
        }
        m => Ok(m),
    }
}

crate::solver_family! {
    /// The LCP solvers, each with its typed options.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub enum LcpSolver, LCP_SOLVERS {
        /// Lemke's complementary pivoting with covering vector `e = 1` and lexicographic degeneracy
        /// resolution (dense `M`).
        Lemke(LemkeOptions) = "lemke", "Lemke", "Lemke's complementary pivoting, lexicographic degeneracy resolution (dense)";
        /// Projected Gauss–Seidel: `z_i ← max(0, z_i − w_i / M_ii)` row by row.
        Pgs(PgsOptions) = "pgs", "Pgs", "projected Gauss-Seidel (dense or sparse block)";
        /// Projected SOR: PGS relaxed by `ω`.
        Psor(PsorOptions) = "psor", "Psor", "projected successive over-relaxation, omega = 1.2 (dense or sparse block)";
        /// Semismooth Newton on the Fischer–Burmeister function (dense `M`).
        NewtonFb(NewtonOptions) = "newton-fb", "NewtonFB", "semismooth Newton on the Fischer-Burmeister function, Armijo line search (dense)";
        /// Semismooth Newton on the min-map `min(z, w)` (dense `M`).
        NewtonMin(NewtonOptions) = "newton-min", "NewtonMin", "semismooth Newton on the min-map, Armijo line search (dense)";
        /// Enumeration of the `2ⁿ` complementary active sets (small dense `M`).
        Enumerative(EnumOptions) = "enum", "Enum", "enumeration of the 2^n active sets, n <= 20 (dense)";
        /// `min ½zᵀMz + qᵀz, z ≥ 0` by a bound-constrained QP solver (symmetric PSD dense `M`).
        Qp(QpLcpOptions) = "qp", "Qp", "bound-constrained QP min 1/2 z'Mz + q'z, z >= 0 (symmetric PSD dense M)";
    }
}

impl LcpSolver {
    /// Capability: the solver reads `M` as a dense matrix (pivoting, enumeration, Newton, QP);
    /// the row-wise solvers (PGS, PSOR) run on sparse-block storage too. Callers choose the
    /// storage from this declaration, never from a list of solver names of their own.
    pub fn needs_dense(&self) -> bool {
        !matches!(self, LcpSolver::Pgs(_) | LcpSolver::Psor(_))
    }
    /// The tolerance and iteration cap of the options.
    pub fn iter_options(&self) -> IterOptions {
        match self {
            LcpSolver::Lemke(o) => o.iter,
            LcpSolver::Pgs(o) => o.iter,
            LcpSolver::Psor(o) => o.iter,
            LcpSolver::NewtonFb(o) | LcpSolver::NewtonMin(o) => o.iter,
            LcpSolver::Enumerative(o) => o.iter,
            LcpSolver::Qp(o) => o.iter,
        }
    }
    /// Validates the options.
    pub fn validate(&self) -> Result<()> {
        match self {
            LcpSolver::Lemke(o) => o.validate(),
            LcpSolver::Pgs(o) => o.validate(),
            LcpSolver::Psor(o) => o.validate(),
            LcpSolver::NewtonFb(o) | LcpSolver::NewtonMin(o) => o.validate(),
            LcpSolver::Enumerative(o) => o.validate(),
            LcpSolver::Qp(o) => o.validate(),
        }
    }
    fn warm_start(&self) -> bool {
        match self {
            LcpSolver::Lemke(o) => o.warm_start,
            LcpSolver::Pgs(o) => o.warm_start,
            LcpSolver::Psor(o) => o.warm_start,
            LcpSolver::NewtonFb(o) | LcpSolver::NewtonMin(o) => o.warm_start,
            LcpSolver::Enumerative(o) => o.warm_start,
            LcpSolver::Qp(o) => o.warm_start,
        }
    }
}

/// The solver named `name` (see [`SOLVERS`]) with default options and `it` as tolerance/cap.
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<LcpSolver> {
    Some(match name {
        "lemke" => LcpSolver::Lemke(LemkeOptions { iter: it, ..Default::default() }),
        "pgs" => LcpSolver::Pgs(PgsOptions { iter: it, ..Default::default() }),
        "psor" => LcpSolver::Psor(PsorOptions { iter: it, ..Default::default() }),
        "newton-fb" => LcpSolver::NewtonFb(NewtonOptions { iter: it, ..Default::default() }),
        "newton-min" => LcpSolver::NewtonMin(NewtonOptions { iter: it, ..Default::default() }),
        "enum" => LcpSolver::Enumerative(EnumOptions { iter: it, ..Default::default() }),
        "qp" => LcpSolver::Qp(QpLcpOptions { iter: it, ..Default::default() }),
        _ => return None,
    })
}

/// Reusable workspaces of every LCP solver. Create once, pass to [`solve_with`] at every step.
#[derive(Debug, Clone, Default)]
pub struct LcpSolverState {
    lemke: lemke::LemkeWorkspace,
    newton: newton::NewtonWorkspace,
    lu: lu::DenseLu,
    qp: crate::qp::bounded::BoundedQpWorkspace,
    tmp: Vec<f64>,
}

impl LcpSolverState {
    /// An empty state (workspaces grow on first use).
    pub fn new() -> Self {
        Self::default()
    }
}

/// What a solver tells the driver besides the iterate it left in `z`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Outcome {
    pub iterations: usize,
    pub failure: Option<FailReason>,
}

/// Lemke's method on `lcp` with the covering vector `d ≥ 0` (`lemke::solve_covering`), for the
/// AVI solvers; `z` is the answer when `failure` is `None`.
pub(crate) fn lemke_covering(
    state: &mut LcpSolverState,
    lcp: &Lcp,
    d: &[f64],
    z: &mut [f64],
    o: &LemkeOptions,
) -> Result<Outcome> {
    lemke::solve_covering(&mut state.lemke, &mut state.lu, lcp, d, z, o)
}

/// Solves `lcp` with `solver`. `z` holds the warm start on entry when the options ask for it;
/// `(z, w)` hold the answer on exit. Allocates a fresh [`LcpSolverState`]; see [`solve_with`].
pub fn solve(lcp: &Lcp, z: &mut [f64], w: &mut [f64], solver: &LcpSolver) -> Result<SolveReport> {
    solve_with(&mut LcpSolverState::default(), lcp, z, w, solver)
}

/// [`solve`] reusing the workspaces in `state`.
pub fn solve_with(
    state: &mut LcpSolverState,
    lcp: &Lcp,
    z: &mut [f64],
    w: &mut [f64],
    solver: &LcpSolver,
) -> Result<SolveReport> {
    let start = Instant::now();
    solver.validate()?;
    let n = lcp.size();
    check_len("z", n, z.len())?;
    check_len("w", n, w.len())?;
    let tol = solver.iter_options().tol;
    // Driver shortcuts (Siconos lcp_driver_DenseMatrix).
    if lcp.q.iter().all(|&qi| qi >= 0.0) {
        z.iter_mut().for_each(|v| *v = 0.0);
        w.copy_from_slice(&lcp.q);
        return Ok(SolveReport { elapsed: start.elapsed(), ..SolveReport::trivial(0.0) });
    }
    if n == 1 {
        let mut d = [0.0];
        lcp.m.diag_block(0, 1, &mut d);
        let (m, q) = (d[0], lcp.q[0]);
        // here q < 0: a solution needs M > 0
        if m > 0.0 {
            z[0] = -q / m;
            w[0] = 0.0;
            // lcp_error without allocating (n = 1)
            let residual = lcp_error_zw(z, &[m * z[0] + q], q.abs());
            let status =
                if residual <= tol { SolveStatus::Converged } else { SolveStatus::Failed(FailReason::Stalled) };
            return Ok(SolveReport { status, iterations: 0, residual, elapsed: start.elapsed() });
        }
        z[0] = 0.0;
        w[0] = q;
        let residual = lcp_error(&lcp.m, &lcp.q, z);
        return Ok(SolveReport {
            status: SolveStatus::Failed(FailReason::NoSolution),
            iterations: 0,
            residual,
            elapsed: start.elapsed(),
        });
    }
    if !solver.warm_start() {
        z.iter_mut().for_each(|v| *v = 0.0);
    } else {
        check_finite("z (warm start)", z)?;
    }
    let outcome = match solver {
        LcpSolver::Lemke(o) => lemke::solve(&mut state.lemke, &mut state.lu, lcp, z, o)?,
        LcpSolver::Pgs(o) => pgs::solve(lcp, z, 1.0, o.iter, &mut state.tmp)?,
        LcpSolver::Psor(o) => pgs::solve(lcp, z, o.omega, o.iter, &mut state.tmp)?,
        LcpSolver::NewtonFb(o) => newton::solve(&mut state.newton, lcp, z, o, newton::Merit::FischerBurmeister)?,
        LcpSolver::NewtonMin(o) => newton::solve(&mut state.newton, lcp, z, o, newton::Merit::Min)?,
        LcpSolver::Enumerative(o) => enumerative::solve(&mut state.lu, lcp, z, o)?,
        LcpSolver::Qp(o) => qp::solve(&mut state.qp, lcp, z, o)?,
    };
    Ok(finish(lcp, z, w, outcome, solver.iter_options(), start))
}

/// Computes `w`, the residual and the status; guarantees finite `(z, w)`.
fn finish(lcp: &Lcp, z: &mut [f64], w: &mut [f64], outcome: Outcome, it: IterOptions, start: Instant) -> SolveReport {
    let mut failure = outcome.failure;
    if z.iter().any(|v| !v.is_finite()) {
        z.iter_mut().for_each(|v| *v = 0.0);
        failure = Some(FailReason::NonFinite);
    }
    w.copy_from_slice(&lcp.q);
    lcp.m.matvec_add(1.0, z, w);
    let residual = lcp_error_zw(z, w, error::norm(&lcp.q));
    let status = status_of(residual, failure, outcome.iterations, it);
    SolveReport { status, iterations: outcome.iterations, residual, elapsed: start.elapsed() }
}

/// Status rule shared by the LCP and relay drivers: `Converged` iff `residual <= tol` (and the
/// iterate was finite), else the solver's failure, else `MaxIterations` when the cap was hit,
/// else `Failed(Stalled)` (the method stopped on its own with too large a residual).
pub(crate) fn status_of(residual: f64, failure: Option<FailReason>, iterations: usize, it: IterOptions) -> SolveStatus {
    if residual <= it.tol && failure != Some(FailReason::NonFinite) {
        SolveStatus::Converged
    } else if let Some(r) = failure {
        SolveStatus::Failed(r)
    } else if iterations >= it.max_iter {
        SolveStatus::MaxIterations
    } else {
        SolveStatus::Failed(FailReason::Stalled)
    }
}

/// Euclidean norm (crate-internal helper shared with the relay module).
pub(crate) fn error_norm(v: &[f64]) -> f64 {
    error::norm(v)
}
