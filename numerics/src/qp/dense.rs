//! Driver of the dense QP solver `qp` (Goldfarb–Idnani, with proximal-point iterations when `Q`
//! is only semidefinite).
//!
//! Choice for a singular PSD `Q`: Goldfarb–Idnani needs `Q ≻ 0` (it factors `Q`), so the
//! driver runs the proximal-point method `x_{k+1} = argmin ½xᵀQx + pᵀx + ρ/2‖x − x_k‖²` over
//! the same constraints, each subproblem strictly convex and solved by Goldfarb–Idnani with the
//! same factorization of `Q + ρI`. Unlike plain Tikhonov regularization it converges to a
//! solution of the original QP (finitely for LPs), not one biased by `O(ρ)`; and unlike ADMM
//! each step is exact, so the answer keeps an exact active set and multipliers. The
//! stationarity residual of the original problem at `x_{k+1}` is `ρ‖x_{k+1} − x_k‖∞`, so the
//! iteration stops on the ordinary KKT test. Iterates that grow without bound mean the QP is
//! unbounded below.

use super::goldfarb_idnani::{goldfarb_idnani, GiEnd};
use super::options::DualActiveSetOptions;
use super::problem::Qp;
use super::{QpOutcome, QpReport};
use crate::error::{NumericsError, Result};
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::{Cholesky, DMatrix};

/// `L⁻ᵀ` for the Cholesky factor of `g`, or `None` when `g` is not (numerically) positive
/// definite: a pivot `L_ii² <= 1e-12 max|g_ii|`.
fn inverse_factor(g: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = g.nrows();
    let chol = Cholesky::new(g.clone())?;
    let l = chol.l();
    let dmax = (0..n).fold(0.0f64, |m, i| m.max(g[(i, i)].abs())).max(f64::MIN_POSITIVE);
    if (0..n).any(|i| l[(i, i)] * l[(i, i)] <= 1e-12 * dmax) {
        return None;
    }
    let linv = l.solve_lower_triangular(&DMatrix::identity(n, n))?;
    Some(linv.transpose())
}

/// Solves the dense QP; `x` receives the answer (no warm start: the dual method starts from the
/// unconstrained minimum).
pub fn solve_dense(qp: &Qp, x: &mut [f64], opts: &DualActiveSetOptions) -> Result<QpReport> {
    let n = qp.n();
    let (mi, me) = (qp.a().nrows(), qp.aeq().nrows());
    let mut lambda = vec![0.0; mi];
    let mut mu = vec![0.0; me];
    let tol = opts.iter.tol;
    let done = |status, outcome, iterations, residual, lambda, mu| QpReport {
        report: SolveReport { status, iterations, residual, elapsed: Default::default() },
        outcome,
        lambda,
        mu,
    };
    if n == 0 {
        return Ok(done(SolveStatus::Converged, QpOutcome::Optimal, 0, 0.0, lambda, mu));
    }
    if let Some(jinv) = inverse_factor(qp.q()) {
        let out = goldfarb_idnani(qp, &jinv, qp.p(), opts.iter.max_iter, x, &mut lambda, &mut mu);
        let res = qp.kkt_residual(x, &lambda, &mu);
        let (status, outcome) = classify(out.end, res, tol);
        return Ok(done(status, outcome, out.iterations, res, lambda, mu));
    }
    // Semidefinite Q: proximal point.
    let qmax = qp.q().iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
    let rho = opts.prox_rho * qmax;
    let g = qp.q() + DMatrix::identity(n, n) * rho;
    let jinv = inverse_factor(&g).ok_or_else(|| NumericsError::Unsupported {
        solver: "qp",
        what: "a Q that is not positive semidefinite (Cholesky of Q + ρI failed)".into(),
    })?;
    let mut xk = vec![0.0; n];
    let mut total = 0;
    let mut res = f64::INFINITY;
    for _ in 0..opts.max_prox {
        let gk: Vec<f64> = qp.p().iter().zip(&xk).map(|(p, x)| p - rho * x).collect();
        let out = goldfarb_idnani(qp, &jinv, &gk, opts.iter.max_iter, x, &mut lambda, &mut mu);
        total += out.iterations;
        res = qp.kkt_residual(x, &lambda, &mu);
        match out.end {
            GiEnd::Infeasible => {
                return Ok(done(
                    SolveStatus::Failed(FailReason::NoSolution),
                    QpOutcome::Infeasible,
                    total,
                    res,
                    lambda,
                    mu,
                ))
            }
            GiEnd::MaxIterations => {
                return Ok(done(SolveStatus::MaxIterations, QpOutcome::NotConverged, total, res, lambda, mu))
            }
            GiEnd::Optimal => {}
        }
        if res <= tol {
            return Ok(done(SolveStatus::Converged, QpOutcome::Optimal, total, res, lambda, mu));
        }
        let xn = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let step: Vec<f64> = x.iter().zip(&xk).map(|(a, b)| a - b).collect();
        if !(xn < opts.unbounded_norm) || is_descent_ray(qp, &step) {
            return Ok(done(SolveStatus::Failed(FailReason::NoSolution), QpOutcome::Unbounded, total, res, lambda, mu));
        }
        xk.copy_from_slice(x);
    }
    Ok(done(SolveStatus::MaxIterations, QpOutcome::NotConverged, total, res, lambda, mu))
}

/// `true` when `d` certifies unboundedness: `Q d = 0`, `A d >= 0`, `Aeq d = 0`, `pᵀ d < 0`
/// (relative tolerance 1e-9 on the normalized direction).
fn is_descent_ray(qp: &Qp, d: &[f64]) -> bool {
    let n = qp.n();
    let dn = d.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if !(dn > 0.0 && dn.is_finite()) {
        return false;
    }
    let d: Vec<f64> = d.iter().map(|v| v / dn).collect();
    let tol = 1e-9;
    let row_dot = |m: &DMatrix<f64>, k: usize| (0..n).map(|j| m[(k, j)] * d[j]).sum::<f64>();
    let scale = |m: &DMatrix<f64>| 1.0 + m.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let (sq, sa, se) = (scale(qp.q()), scale(qp.a()), scale(qp.aeq()));
    let pd: f64 = qp.p().iter().zip(&d).map(|(p, d)| p * d).sum();
    let pn = 1.0 + qp.p().iter().fold(0.0f64, |a, v| a.max(v.abs()));
    pd < -tol * pn
        && (0..n).all(|k| row_dot(qp.q(), k).abs() <= tol * sq)
        && (0..qp.a().nrows()).all(|k| row_dot(qp.a(), k) >= -tol * sa)
        && (0..qp.aeq().nrows()).all(|k| row_dot(qp.aeq(), k).abs() <= tol * se)
}

fn classify(end: GiEnd, res: f64, tol: f64) -> (SolveStatus, QpOutcome) {
    match end {
        GiEnd::Optimal if res <= tol => (SolveStatus::Converged, QpOutcome::Optimal),
        GiEnd::Optimal => (SolveStatus::Failed(FailReason::Stalled), QpOutcome::NotConverged),
        GiEnd::Infeasible => (SolveStatus::Failed(FailReason::NoSolution), QpOutcome::Infeasible),
        GiEnd::MaxIterations => (SolveStatus::MaxIterations, QpOutcome::NotConverged),
    }
}
