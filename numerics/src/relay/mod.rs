//! Relay problems (box-constrained LCP / MCP): find `z` with `w = M z + q`,
//! `lb ≤ z ≤ ub` and `z_i = lb_i ⇒ w_i ≥ 0`, `z_i = ub_i ⇒ w_i ≤ 0`,
//! `lb_i < z_i < ub_i ⇒ w_i = 0`; equivalently `z = P_[lb,ub](z − w)`.
//!
//! The residual is Siconos's `relay_compute_error`: `‖z − P_[lb,ub](z − w)‖ / (‖q‖ + 1)`.

mod avi;
mod io;
mod lemke;
mod pgs;

pub use io::{read_relay, read_relay_file};

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::lcp::{LemkeOptions, PgsOptions};
use crate::matrix::Operator;
use crate::report::{IterOptions, SolveReport};
use std::time::Instant;

/// A relay problem with square finite `M`, finite `q` and finite bounds `lb ≤ ub`.
#[derive(Debug, Clone, PartialEq)]
pub struct Relay {
    m: Operator,
    q: Vec<f64>,
    lb: Vec<f64>,
    ub: Vec<f64>,
}

impl Relay {
    /// Checks shapes, finiteness and `lb ≤ ub` (an `InvalidOption` naming the index otherwise).
    pub fn new(m: Operator, q: Vec<f64>, lb: Vec<f64>, ub: Vec<f64>) -> Result<Self> {
        if m.nrows() != m.ncols() {
            return Err(NumericsError::NotSquare { what: "M", rows: m.nrows(), cols: m.ncols() });
        }
        let n = m.nrows();
        check_len("q", n, q.len())?;
        check_len("lb", n, lb.len())?;
        check_len("ub", n, ub.len())?;
        if let Some(index) = m.first_non_finite() {
            return Err(NumericsError::NonFinite { what: "M", index });
        }
        check_finite("q", &q)?;
        check_finite("lb", &lb)?;
        check_finite("ub", &ub)?;
        if let Some(i) = (0..n).find(|&i| lb[i] > ub[i]) {
            return Err(NumericsError::InvalidOption {
                option: "lb/ub",
                reason: format!("lb[{i}] = {} > ub[{i}] = {}", lb[i], ub[i]),
            });
        }
        let m = crate::lcp::scalar_blocks(m)?;
        Ok(Relay { m, q, lb, ub })
    }
    /// The matrix `M`.
    pub fn m(&self) -> &Operator {
        &self.m
    }
    /// The vector `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// Lower bounds.
    pub fn lb(&self) -> &[f64] {
        &self.lb
    }
    /// Upper bounds.
    pub fn ub(&self) -> &[f64] {
        &self.ub
    }
    /// The size `n`.
    pub fn size(&self) -> usize {
        self.q.len()
    }
    /// Gives back `(M, q, lb, ub)` (lets a time-stepping loop reuse the buffers without
    /// allocating).
    pub fn into_parts(self) -> (Operator, Vec<f64>, Vec<f64>, Vec<f64>) {
        (self.m, self.q, self.lb, self.ub)
    }
}

crate::solver_family! {
    /// The relay solvers.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub enum RelaySolver, RELAY_SOLVERS {
        /// Projected Gauss–Seidel: `z_i ← P_[lb_i,ub_i](z_i − w_i / M_ii)` row by row.
        Pgs(PgsOptions) = "pgs", "Pgs", "projected Gauss-Seidel on the box (dense or sparse block)";
        /// Exact pivoting: Lemke's method on the equivalent LCP of size `2n` (dense `M`).
        Lemke(LemkeOptions) = "lemke", "Lemke", "Lemke's method on the equivalent LCP of size 2n (dense)";
        /// The AVI on the box solved by Cao–Ferris pivoting (Siconos's default relay solver,
        /// `RELAY_AVI_CAOFERRIS`): Lemke's method with the artificial variable on the KKT rows only,
        /// which ends at a solution for every `M` (dense `M`; see the `avi` module).
        AviCaoFerris(LemkeOptions) = "avi-caoferris", "AviCaoFerris", "AVI on the box by Cao-Ferris pivoting, Siconos's default (dense; any M)";
    }
}

impl RelaySolver {
    /// Capability: the solver reads `M` as a dense matrix (the pivoting ones); PGS runs on
    /// sparse-block storage too.
    pub fn needs_dense(&self) -> bool {
        !matches!(self, RelaySolver::Pgs(_))
    }
    /// Tolerance and cap of the options.
    pub fn iter_options(&self) -> IterOptions {
        match self {
            RelaySolver::Pgs(o) => o.iter,
            RelaySolver::Lemke(o) | RelaySolver::AviCaoFerris(o) => o.iter,
        }
    }
    /// Validates the options.
    pub fn validate(&self) -> Result<()> {
        match self {
            RelaySolver::Pgs(o) => o.validate(),
            RelaySolver::Lemke(o) | RelaySolver::AviCaoFerris(o) => o.validate(),
        }
    }
}

/// The relay solver named `name` with default options and `it` as tolerance/cap.
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<RelaySolver> {
    match name {
        "pgs" => Some(RelaySolver::Pgs(PgsOptions { iter: it, ..Default::default() })),
        "lemke" => Some(RelaySolver::Lemke(LemkeOptions { iter: it, ..Default::default() })),
        "avi-caoferris" => Some(RelaySolver::AviCaoFerris(LemkeOptions { iter: it, ..Default::default() })),
        _ => None,
    }
}

/// Siconos `relay_compute_error`: `‖z − P_[lb,ub](z − w)‖ / (‖q‖ + 1)` with `w = M z + q`.
pub fn relay_error(p: &Relay, z: &[f64]) -> f64 {
    let mut w = p.q.clone();
    p.m.matvec_add(1.0, z, &mut w);
    relay_error_zw(p, z, &w)
}

fn relay_error_zw(p: &Relay, z: &[f64], w: &[f64]) -> f64 {
    let e: f64 = (0..z.len())
        .map(|i| {
            let r = z[i] - (z[i] - w[i]).clamp(p.lb[i], p.ub[i]);
            r * r
        })
        .sum::<f64>()
        .sqrt();
    e / (crate::lcp::error_norm(&p.q) + 1.0)
}

/// Reusable workspaces of the relay solvers (the Lemke and Cao–Ferris paths keep their `2n`
/// LCP iterate and tableau here). Create once, pass to [`solve_with`] at every step.
#[derive(Debug, Clone, Default)]
pub struct RelaySolverState {
    lcp: crate::lcp::LcpSolverState,
    zl: Vec<f64>,
    wl: Vec<f64>,
    inv_diag: Vec<f64>,
    /// `w = M z + q` of the PGS residual checks.
    w: Vec<f64>,
    /// The `2n` LCP of the Lemke path (matrix and `q`), refilled at each solve.
    big: nalgebra::DMatrix<f64>,
    ql: Vec<f64>,
}

impl RelaySolverState {
    /// An empty state (workspaces grow on first use).
    pub fn new() -> Self {
        Self::default()
    }
}

/// Solves the relay problem. `z` holds the warm start when the options ask for it (PGS);
/// `(z, w)` hold the answer on exit and the report's residual is [`relay_error`].
/// Allocates a fresh [`RelaySolverState`]; see [`solve_with`].
pub fn solve(p: &Relay, z: &mut [f64], w: &mut [f64], solver: &RelaySolver) -> Result<SolveReport> {
    solve_with(&mut RelaySolverState::default(), p, z, w, solver)
}

/// [`solve`] reusing the workspaces in `state`.
pub fn solve_with(
    state: &mut RelaySolverState,
    p: &Relay,
    z: &mut [f64],
    w: &mut [f64],
    solver: &RelaySolver,
) -> Result<SolveReport> {
    let start = Instant::now();
    solver.validate()?;
    let n = p.size();
    check_len("z", n, z.len())?;
    check_len("w", n, w.len())?;
    let it = solver.iter_options();
    let (iterations, failure) = match solver {
        RelaySolver::Pgs(o) => {
            if !o.warm_start {
                z.iter_mut().for_each(|v| *v = 0.0);
            }
            check_finite("z (warm start)", z)?;
            pgs::solve(p, z, it, &mut state.inv_diag, &mut state.w)?
        }
        RelaySolver::Lemke(o) => lemke::solve(state, p, z, o)?,
        RelaySolver::AviCaoFerris(o) => avi::solve(state, p, z, o)?,
    };
    let mut failure = failure;
    if z.iter().any(|v| !v.is_finite()) {
        z.iter_mut().for_each(|v| *v = 0.0);
        failure = Some(crate::report::FailReason::NonFinite);
    }
    w.copy_from_slice(&p.q);
    p.m.matvec_add(1.0, z, w);
    let residual = relay_error_zw(p, z, w);
    let status = crate::lcp::status_of(residual, failure, iterations, it);
    Ok(SolveReport { status, iterations, residual, elapsed: start.elapsed() })
}
