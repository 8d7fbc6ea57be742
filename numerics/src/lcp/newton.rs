//! Semismooth Newton methods on an NCP function `Φ(z)` with `Φ_i = φ(z_i, w_i)`, `w = M z + q`.
//!
//! * Fischer–Burmeister: `φ(a, b) = √(a² + b²) − a − b`; generalized Jacobian
//!   `J = D_a + D_b M` with `D_a = a/‖(a,b)‖ − 1`, `D_b = b/‖(a,b)‖ − 1` (at `(0,0)`:
//!   `D_a = D_b = 1/√2 − 1`).
//! * min-map: `φ(a, b) = min(a, b)`; row `i` of `J` is `e_iᵀ` when `z_i ≤ w_i`, else `M_i`.
//!
//! Step: `J d = −Φ`; globalized by an Armijo backtracking search on `θ = ½‖Φ‖²` along `d`,
//! falling back to the steepest-descent direction `−∇θ = −Jᵀ Φ` when `J` is singular or `d` is
//! not a sufficient descent direction. Stops when the canonical LCP residual is `<= tol`.

use super::lu::DenseLu;
use super::{lcp_error_zw, Lcp, NewtonOptions, Outcome};
use crate::error::Result;
use crate::report::FailReason;
use nalgebra::DMatrix;

/// Which NCP function the Newton method works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Merit {
    FischerBurmeister,
    Min,
}

/// Reusable vectors and factorization of the Newton methods.
#[derive(Debug, Clone, Default)]
pub struct NewtonWorkspace {
    w: Vec<f64>,
    phi: Vec<f64>,
    da: Vec<f64>,
    db: Vec<f64>,
    d: Vec<f64>,
    grad: Vec<f64>,
    zt: Vec<f64>,
    wt: Vec<f64>,
    tmp: Vec<f64>,
    lu: DenseLu,
}

const FB_ORIGIN: f64 = std::f64::consts::FRAC_1_SQRT_2 - 1.0;

fn phi(merit: Merit, a: f64, b: f64) -> f64 {
    match merit {
        Merit::FischerBurmeister => a.hypot(b) - a - b,
        Merit::Min => a.min(b),
    }
}

/// `θ = ½‖Φ‖²` for `(z, w)`, filling `phi`.
fn theta(merit: Merit, z: &[f64], w: &[f64], phi_out: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..z.len() {
        let p = phi(merit, z[i], w[i]);
        phi_out[i] = p;
        s += p * p;
    }
    0.5 * s
}

/// Diagonal scalings of the generalized Jacobian `J = diag(da) + diag(db) M`.
fn jacobian_diagonals(merit: Merit, z: &[f64], w: &[f64], da: &mut [f64], db: &mut [f64]) {
    for i in 0..z.len() {
        let (a, b) = (z[i], w[i]);
        match merit {
            Merit::FischerBurmeister => {
                let r = a.hypot(b);
                if r > 0.0 {
                    da[i] = a / r - 1.0;
                    db[i] = b / r - 1.0;
                } else {
                    da[i] = FB_ORIGIN;
                    db[i] = FB_ORIGIN;
                }
            }
            Merit::Min => {
                if a <= b {
                    da[i] = 1.0;
                    db[i] = 0.0;
                } else {
                    da[i] = 0.0;
                    db[i] = 1.0;
                }
            }
        }
    }
}

fn fill_jacobian(lu: &mut DenseLu, m: &DMatrix<f64>, da: &[f64], db: &[f64]) {
    let n = da.len();
    let a = lu.matrix_mut(n);
    for j in 0..n {
        let col = &mut a[j * n..(j + 1) * n];
        for ((x, mij), dbi) in col.iter_mut().zip(m.column(j).iter()).zip(db) {
            *x = dbi * mij;
        }
        col[j] += da[j];
    }
}

/// Runs the semismooth Newton method for `merit`.
pub(crate) fn solve(
    ws: &mut NewtonWorkspace,
    lcp: &Lcp,
    z: &mut [f64],
    o: &NewtonOptions,
    merit: Merit,
) -> Result<Outcome> {
    let name = match merit {
        Merit::FischerBurmeister => "newton-fb",
        Merit::Min => "newton-min",
    };
    let m = lcp.m().dense(name)?;
    let op = lcp.m();
    let q = lcp.q();
    let n = q.len();
    let q_norm = super::error::norm(q);
    for v in
        [&mut ws.w, &mut ws.phi, &mut ws.da, &mut ws.db, &mut ws.d, &mut ws.grad, &mut ws.zt, &mut ws.wt, &mut ws.tmp]
    {
        v.clear();
        v.resize(n, 0.0);
    }
    ws.w.copy_from_slice(q);
    op.matvec_add(1.0, z, &mut ws.w);
    let mut th = theta(merit, z, &ws.w, &mut ws.phi);
    let mut iters = 0;
    let mut stalled = 0;
    while iters < o.iter.max_iter {
        if lcp_error_zw(z, &ws.w, q_norm) <= o.iter.tol {
            return Ok(Outcome { iterations: iters, failure: None });
        }
        iters += 1;
        jacobian_diagonals(merit, z, &ws.w, &mut ws.da, &mut ws.db);
        // ∇θ = Jᵀ Φ = da∘Φ + Mᵀ (db∘Φ)
        for i in 0..n {
            ws.tmp[i] = ws.db[i] * ws.phi[i];
            ws.grad[i] = ws.da[i] * ws.phi[i];
        }
        op.tr_matvec_add(1.0, &ws.tmp, &mut ws.grad);
        fill_jacobian(&mut ws.lu, m, &ws.da, &ws.db);
        let mut newton_ok = ws.lu.factor(1e-14).is_ok();
        if newton_ok {
            for i in 0..n {
                ws.d[i] = -ws.phi[i];
            }
            ws.lu.solve(&mut ws.d);
            newton_ok = ws.d.iter().all(|v| v.is_finite());
        }
        let mut slope = dot(&ws.grad, &ws.d);
        let dn = dot(&ws.d, &ws.d);
        if !newton_ok || slope > -1e-12 * dn.max(f64::MIN_POSITIVE) {
            for i in 0..n {
                ws.d[i] = -ws.grad[i];
            }
            slope = -dot(&ws.grad, &ws.grad);
        }
        if slope >= 0.0 {
            return Ok(Outcome { iterations: iters, failure: Some(FailReason::Stalled) });
        }
        // Armijo backtracking on θ
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..o.max_line_search {
            for ((zt, &zi), &di) in ws.zt[..n].iter_mut().zip(&z[..n]).zip(&ws.d[..n]) {
                *zt = zi + t * di;
            }
            ws.wt.copy_from_slice(q);
            op.matvec_add(1.0, &ws.zt, &mut ws.wt);
            let th_t = theta(merit, &ws.zt, &ws.wt, &mut ws.tmp);
            if th_t <= th + o.armijo * t * slope {
                accepted = true;
                th = th_t;
                break;
            }
            t *= o.backtrack;
        }
        if !accepted {
            return Ok(Outcome { iterations: iters, failure: Some(FailReason::LineSearch) });
        }
        // stalled when the accepted step no longer moves z (relative to its size)
        let step = ws.d.iter().fold(0.0f64, |a, v| a.max(v.abs())) * t;
        let zmax = z.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        if step <= 1e-15 * (1.0 + zmax) {
            stalled += 1;
            if stalled >= 5 {
                return Ok(Outcome { iterations: iters, failure: Some(FailReason::Stalled) });
            }
        } else {
            stalled = 0;
        }
        z.copy_from_slice(&ws.zt);
        std::mem::swap(&mut ws.w, &mut ws.wt);
        std::mem::swap(&mut ws.phi, &mut ws.tmp);
        if z.iter().any(|v| !v.is_finite()) {
            return Ok(Outcome { iterations: iters, failure: Some(FailReason::NonFinite) });
        }
    }
    Ok(Outcome { iterations: iters, failure: None })
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
