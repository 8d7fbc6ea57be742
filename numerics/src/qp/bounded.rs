//! Bound-constrained convex QP: `min f(x) = ½ xᵀ H x + cᵀ x` subject to `lb ≤ x ≤ ub`
//! (`H` symmetric positive semidefinite, dense; bounds may be infinite).
//!
//! Projected Newton method (Bertsekas 1982). At `x` with gradient `g = H x + c`, the
//! ε-active set `A = {i : x_i ≤ lb_i + ε, g_i > 0} ∪ {i : x_i ≥ ub_i − ε, g_i < 0}`
//! (`ε = min(ε₀, ‖x − P(x − g)‖)`) is moved by scaled gradient `d_i = −g_i / H_ii`, the free set
//! `F` by the regularized Newton step `(H_FF + μI) d_F = −g_F`. The step is
//! `x(t) = P(x + t d)` with Armijo backtracking `f(x(t)) ≤ f(x) + σ gᵀ(x(t) − x)`; when
//! that fails, a projected gradient step with a Cauchy step length is taken instead.
//! Stops when the projected-gradient residual `‖x − P_[lb,ub](x − g)‖ ≤ tol`.

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::lcp::lu::DenseLu;
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::DMatrix;
use std::time::Instant;

/// Options of the bound-constrained QP solver.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct BoundedQpOptions {
    /// Absolute tolerance on `‖x − P(x − (Hx + c))‖`. Must be `> 0`.
    pub tol: f64,
    /// Maximum number of projected Newton iterations. Must be `> 0`.
    pub max_iter: usize,
    /// Armijo constant `σ ∈ (0, 1)`.
    pub armijo: f64,
}

impl Default for BoundedQpOptions {
    fn default() -> Self {
        BoundedQpOptions { tol: 1e-10, max_iter: 1000, armijo: 1e-4 }
    }
}

impl BoundedQpOptions {
    /// Options with the given tolerance and iteration cap.
    pub fn new(tol: f64, max_iter: usize) -> Self {
        BoundedQpOptions { tol, max_iter, ..Default::default() }
    }
    /// Checks `tol > 0`, `max_iter > 0`, `σ ∈ (0, 1)`.
    pub fn validate(&self) -> Result<()> {
        crate::report::IterOptions::new(self.tol, self.max_iter).validate()?;
        if !(self.armijo > 0.0 && self.armijo < 1.0) {
            return Err(NumericsError::InvalidOption {
                option: "armijo",
                reason: format!("must lie in (0, 1), got {}", self.armijo),
            });
        }
        Ok(())
    }
}

/// Reusable vectors and factorization of the solver.
#[derive(Debug, Clone, Default)]
pub struct BoundedQpWorkspace {
    g: Vec<f64>,
    d: Vec<f64>,
    xt: Vec<f64>,
    hx: Vec<f64>,
    rhs: Vec<f64>,
    free: Vec<usize>,
    lu: DenseLu,
}

/// Checks the data of a bound-constrained QP (square `H`, sizes, finite `H`, `c`, no NaN
/// bounds, `lb ≤ ub`).
pub fn check_bounded_qp(h: &DMatrix<f64>, c: &[f64], lb: &[f64], ub: &[f64]) -> Result<()> {
    if h.nrows() != h.ncols() {
        return Err(NumericsError::NotSquare { what: "H", rows: h.nrows(), cols: h.ncols() });
    }
    let n = h.nrows();
    check_len("c", n, c.len())?;
    check_len("lb", n, lb.len())?;
    check_len("ub", n, ub.len())?;
    if let Some(index) = h.iter().position(|x| !x.is_finite()) {
        return Err(NumericsError::NonFinite { what: "H", index });
    }
    check_finite("c", c)?;
    for i in 0..n {
        if lb[i].is_nan() || ub[i].is_nan() || !(lb[i] <= ub[i]) || lb[i] == f64::INFINITY || ub[i] == f64::NEG_INFINITY
        {
            return Err(NumericsError::InvalidOption {
                option: "lb/ub",
                reason: format!("need -inf <= lb <= ub <= inf with lb < inf, ub > -inf at index {i}"),
            });
        }
    }
    Ok(())
}

/// Projected-gradient residual `‖x − P(x − g)‖`.
pub fn projected_gradient_norm(x: &[f64], g: &[f64], lb: &[f64], ub: &[f64]) -> f64 {
    (0..x.len())
        .map(|i| {
            let r = x[i] - (x[i] - g[i]).clamp(lb[i], ub[i]);
            r * r
        })
        .sum::<f64>()
        .sqrt()
}

/// `out = H x`.
fn hmul(h: &DMatrix<f64>, x: &[f64], out: &mut [f64]) {
    out.iter_mut().for_each(|v| *v = 0.0);
    for (j, &xj) in x.iter().enumerate() {
        if xj != 0.0 {
            for (y, hij) in out.iter_mut().zip(h.column(j).iter()) {
                *y += hij * xj;
            }
        }
    }
}

/// `f(x) = ½ xᵀHx + cᵀx`, leaving `H x` in `hx`.
fn objective(h: &DMatrix<f64>, c: &[f64], x: &[f64], hx: &mut [f64]) -> f64 {
    hmul(h, x, hx);
    x.iter().zip(hx.iter()).zip(c).map(|((xi, hxi), ci)| xi * (0.5 * hxi + ci)).sum()
}

/// Solves the QP from the start point `x` (projected on the box first); `x` holds the answer.
/// The report's residual is the projected-gradient residual.
pub fn solve_bounded_qp(
    ws: &mut BoundedQpWorkspace,
    h: &DMatrix<f64>,
    c: &[f64],
    lb: &[f64],
    ub: &[f64],
    x: &mut [f64],
    o: &BoundedQpOptions,
) -> Result<SolveReport> {
    let start = Instant::now();
    o.validate()?;
    check_bounded_qp(h, c, lb, ub)?;
    check_len("x", c.len(), x.len())?;
    check_finite("x (start point)", x)?;
    let n = c.len();
    for v in [&mut ws.g, &mut ws.d, &mut ws.xt, &mut ws.hx, &mut ws.rhs] {
        v.clear();
        v.resize(n, 0.0);
    }
    for i in 0..n {
        x[i] = x[i].clamp(lb[i], ub[i]);
    }
    let diag_max = (0..n).fold(0.0f64, |m, i| m.max(h[(i, i)].abs()));
    let mu = 1e-12 * diag_max.max(1.0);
    let mut f = objective(h, c, x, &mut ws.hx);
    let mut iters = 0;
    let mut failure = None;
    let residual = loop {
        for i in 0..n {
            ws.g[i] = ws.hx[i] + c[i];
        }
        let r = projected_gradient_norm(x, &ws.g, lb, ub);
        if r <= o.tol || iters >= o.max_iter {
            break r;
        }
        iters += 1;
        let eps = r.min(1e-3);
        ws.free.clear();
        for i in 0..n {
            let at_lb = x[i] <= lb[i] + eps && ws.g[i] > 0.0;
            let at_ub = x[i] >= ub[i] - eps && ws.g[i] < 0.0;
            if at_lb || at_ub {
                let hii = h[(i, i)];
                ws.d[i] = -ws.g[i] / if hii > 0.0 { hii } else { 1.0 };
            } else {
                ws.free.push(i);
            }
        }
        let k = ws.free.len();
        if k > 0 {
            let a = ws.lu.matrix_mut(k);
            for (jj, &j) in ws.free.iter().enumerate() {
                for (ii, &i) in ws.free.iter().enumerate() {
                    a[ii + jj * k] = h[(i, j)];
                }
                a[jj + jj * k] += mu;
            }
            let ok = ws.lu.factor(1e-15).is_ok();
            for (ii, &i) in ws.free.iter().enumerate() {
                ws.rhs[ii] = -ws.g[i];
            }
            if ok {
                ws.lu.solve(&mut ws.rhs[..k]);
            }
            for (ii, &i) in ws.free.iter().enumerate() {
                ws.d[i] = if ok && ws.rhs[ii].is_finite() { ws.rhs[ii] } else { -ws.g[i] };
            }
        }
        // projected Armijo search along x(t) = P(x + t d)
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..50 {
            let mut decrease = 0.0;
            for i in 0..n {
                ws.xt[i] = (x[i] + t * ws.d[i]).clamp(lb[i], ub[i]);
                decrease += ws.g[i] * (ws.xt[i] - x[i]);
            }
            let ft = objective(h, c, &ws.xt, &mut ws.rhs);
            if ft.is_finite() && ft <= f + o.armijo * decrease && decrease <= 0.0 {
                accepted = true;
                f = ft;
                ws.hx.copy_from_slice(&ws.rhs);
                break;
            }
            t *= 0.5;
        }
        if !accepted {
            // projected gradient step with the Cauchy length gᵀg / gᵀHg on the free directions
            let gg: f64 = ws.g.iter().map(|v| v * v).sum();
            hmul(h, &ws.g, &mut ws.rhs);
            let ghg: f64 = ws.g.iter().zip(&ws.rhs).map(|(a, b)| a * b).sum();
            let alpha = if ghg > 0.0 { gg / ghg } else { 1.0 };
            for i in 0..n {
                ws.xt[i] = (x[i] - alpha * ws.g[i]).clamp(lb[i], ub[i]);
            }
            let ft = objective(h, c, &ws.xt, &mut ws.rhs);
            if !(ft < f) {
                failure = Some(FailReason::LineSearch);
                break r;
            }
            f = ft;
            ws.hx.copy_from_slice(&ws.rhs);
        }
        x.copy_from_slice(&ws.xt);
    };
    let status = if residual <= o.tol {
        SolveStatus::Converged
    } else if let Some(fr) = failure {
        SolveStatus::Failed(fr)
    } else {
        SolveStatus::MaxIterations
    };
    Ok(SolveReport { status, iterations: iters, residual, elapsed: start.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_qp_with_both_bounds_active_and_a_psd_hessian() {
        // H = [[1,1],[1,1]] (singular PSD), c = (−3, 1), box [0, 1] × [−1, 1]:
        // f = ½(x₀+x₁)² − 3x₀ + x₁. At x = (1, −1): g = H x + c = (−3, 1) ⇒ x₀ at its upper
        // bound with g₀ < 0 and x₁ at its lower bound with g₁ > 0: the KKT point.
        let h = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let mut x = [0.5, 0.5];
        let mut ws = BoundedQpWorkspace::default();
        let rep = solve_bounded_qp(
            &mut ws,
            &h,
            &[-3.0, 1.0],
            &[0.0, -1.0],
            &[1.0, 1.0],
            &mut x,
            &BoundedQpOptions::default(),
        )
        .unwrap();
        assert_eq!(rep.status, SolveStatus::Converged, "{rep:?}");
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] + 1.0).abs() < 1e-12, "{x:?}");
        // interior minimum of a strictly convex problem: x = −H⁻¹c
        let h = DMatrix::from_row_slice(2, 2, &[2.0, 0.5, 0.5, 1.0]);
        let mut x = [0.0, 0.0];
        let rep =
            solve_bounded_qp(&mut ws, &h, &[-1.0, -1.0], &[-10.0; 2], &[10.0; 2], &mut x, &BoundedQpOptions::default())
                .unwrap();
        assert!(rep.status.converged());
        let det = 2.0 - 0.25;
        assert!((x[0] - (1.0 - 0.5) / det).abs() < 1e-10 && (x[1] - (2.0 - 0.5) / det).abs() < 1e-10, "{x:?}");
        assert!(solve_bounded_qp(
            &mut ws,
            &h,
            &[0.0; 2],
            &[1.0, 0.0],
            &[0.0, 1.0],
            &mut x,
            &BoundedQpOptions::default()
        )
        .is_err());
    }
}
