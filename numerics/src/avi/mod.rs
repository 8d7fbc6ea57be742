//! Affine variational inequalities on a polyhedron (Siconos `AffineVariationalInequalities`):
//! find `z ∈ K = {z : H z ≥ k}` with `−(M z + q) ∈ N_K(z)`, i.e. `(M z + q)ᵀ(y − z) ≥ 0` for every
//! `y ∈ K`. With the multipliers `μ` of the rows of `K` this is the KKT system
//! `M z + q = Hᵀ μ`, `0 ≤ μ ⊥ H z − k ≥ 0`.
//!
//! The residual is the KKT error `(‖M z + q − Hᵀ μ‖² + ‖min(μ, H z − k)‖²)^½ / (‖q‖ + 1)`
//! (componentwise `min`, so a negative multiplier or a violated row counts), which is zero
//! exactly at the solutions; [`solve_with`] leaves `μ` in the state ([`AviSolverState::mu`]).
//!
//! Solver: Cao–Ferris pivoting (Siconos `SICONOS_AVI_CAOFERRIS`), see `caoferris`.

mod caoferris;

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::lcp::LemkeOptions;
use crate::matrix::Operator;
use crate::report::{IterOptions, SolveReport};
use nalgebra::{DMatrix, DVector, DVectorView, DVectorViewMut};
use std::time::Instant;

/// An AVI with square finite `M`, finite `q`, and a polyhedron `{z : H z ≥ k}` whose `H` has
/// full column rank (no line in `K`).
#[derive(Debug, Clone, PartialEq)]
pub struct Avi {
    m: DMatrix<f64>,
    q: Vec<f64>,
    h: DMatrix<f64>,
    k: Vec<f64>,
}

impl Avi {
    /// Checks shapes, finiteness and the rank of `H` (typed errors naming the operand).
    pub fn new(m: Operator, q: Vec<f64>, h: DMatrix<f64>, k: Vec<f64>) -> Result<Self> {
        if m.nrows() != m.ncols() {
            return Err(NumericsError::NotSquare { what: "M", rows: m.nrows(), cols: m.ncols() });
        }
        let n = m.nrows();
        check_len("q", n, q.len())?;
        check_len("H columns", n, h.ncols())?;
        check_len("k", h.nrows(), k.len())?;
        if let Some(index) = m.first_non_finite() {
            return Err(NumericsError::NonFinite { what: "M", index });
        }
        check_finite("q", &q)?;
        check_finite("H", h.as_slice())?;
        check_finite("k", &k)?;
        let m = match m {
            Operator::Dense(d) => d,
            other => other.dense("AVI")?.clone(),
        };
        let p = Avi { m, q, h, k };
        if caoferris::basis_rows(&p.h).len() < n {
            return Err(NumericsError::InvalidOption {
                option: "H",
                reason: format!("the polyhedron H z >= k needs H of rank {n} (no line in K)"),
            });
        }
        Ok(p)
    }
    /// `M`.
    pub fn m(&self) -> &DMatrix<f64> {
        &self.m
    }
    /// `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// `H` (rows of the polyhedron).
    pub fn h(&self) -> &DMatrix<f64> {
        &self.h
    }
    /// `k` (right-hand sides of the polyhedron).
    pub fn k(&self) -> &[f64] {
        &self.k
    }
    /// The size `n` of `z`.
    pub fn size(&self) -> usize {
        self.q.len()
    }
    /// Gives back `(M, q, H, k)`, so a caller can reuse the buffers for the next problem.
    pub fn into_parts(self) -> (Operator, Vec<f64>, DMatrix<f64>, Vec<f64>) {
        (Operator::Dense(self.m), self.q, self.h, self.k)
    }
}

crate::solver_family! {
    /// The AVI solvers.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub enum AviSolver, AVI_SOLVERS {
        /// Cao–Ferris pivoting: elimination of `z` at a vertex of `K`, then Lemke's method with the
        /// artificial variable on the KKT rows (and on the rows of `K` the vertex violates).
        CaoFerris(LemkeOptions) = "caoferris", "CaoFerris", "Cao-Ferris pivoting (Lemke on the KKT rows at a vertex of K)";
    }
}

impl AviSolver {
    /// Tolerance and pivot cap.
    pub fn iter_options(&self) -> IterOptions {
        match self {
            AviSolver::CaoFerris(o) => o.iter,
        }
    }
    /// Validates the options.
    pub fn validate(&self) -> Result<()> {
        match self {
            AviSolver::CaoFerris(o) => o.validate(),
        }
    }
}

/// The AVI solver named `name` with `it` as tolerance/cap.
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<AviSolver> {
    match name {
        "caoferris" => Some(AviSolver::CaoFerris(LemkeOptions { iter: it, ..Default::default() })),
        _ => None,
    }
}

/// Reusable workspaces of the AVI solvers, and the multipliers `μ` of the last solve.
#[derive(Debug, Clone, Default)]
pub struct AviSolverState {
    lcp: crate::lcp::LcpSolverState,
    mu: Vec<f64>,
}

impl AviSolverState {
    /// An empty state.
    pub fn new() -> Self {
        Self::default()
    }
    /// The multipliers `μ` (one per row of `H`) of the last solve.
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }
}

/// The KKT error of the module documentation for `(z, μ)`.
pub fn avi_error(p: &Avi, z: &[f64], mu: &[f64]) -> f64 {
    let zv = DVectorView::from_slice(z, z.len());
    let muv = DVectorView::from_slice(mu, mu.len());
    // M z + q − Hᵀ μ
    let mut r = DVector::from_column_slice(&p.q);
    r.gemv(1.0, &p.m, &zv, 1.0);
    r.gemv_tr(-1.0, &p.h, &muv, 1.0);
    // min(μ, H z − k)
    let mut s = DVector::from_column_slice(&p.k);
    s.gemv(1.0, &p.h, &zv, -1.0);
    let e2 = r.norm_squared() + s.iter().zip(mu).map(|(sj, mj)| mj.min(*sj).powi(2)).sum::<f64>();
    e2.sqrt() / (crate::lcp::error_norm(&p.q) + 1.0)
}

/// Solves `p`; `(z, w = M z + q)` hold the answer. See [`solve_with`].
pub fn solve(p: &Avi, z: &mut [f64], w: &mut [f64], solver: &AviSolver) -> Result<SolveReport> {
    solve_with(&mut AviSolverState::default(), p, z, w, solver)
}

/// [`solve`] reusing the workspaces in `state`; the multipliers are left in `state`.
pub fn solve_with(
    state: &mut AviSolverState,
    p: &Avi,
    z: &mut [f64],
    w: &mut [f64],
    solver: &AviSolver,
) -> Result<SolveReport> {
    let start = Instant::now();
    solver.validate()?;
    let n = p.size();
    check_len("z", n, z.len())?;
    check_len("w", n, w.len())?;
    let it = solver.iter_options();
    let (iterations, mut failure) = match solver {
        AviSolver::CaoFerris(o) => caoferris::solve(&mut state.lcp, p, z, &mut state.mu, o)?,
    };
    if z.iter().chain(&state.mu).any(|v| !v.is_finite()) {
        z.iter_mut().for_each(|v| *v = 0.0);
        state.mu.iter_mut().for_each(|v| *v = 0.0);
        failure = Some(crate::report::FailReason::NonFinite);
    }
    w.copy_from_slice(&p.q);
    DVectorViewMut::from_slice(w, n).gemv(1.0, &p.m, &DVectorView::from_slice(z, n), 1.0);
    let residual = avi_error(p, z, &state.mu);
    let status = crate::lcp::status_of(residual, failure, iterations, it);
    Ok(SolveReport { status, iterations, residual, elapsed: start.elapsed() })
}
