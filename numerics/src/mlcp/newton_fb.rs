//! Semismooth Newton method on the Fischer–Burmeister reformulation (Siconos `MLCP_FB`).
//!
//! `Φ(z) = [w_eq; φ(z_c, w_c)] = 0` with `w = M z + q` and
//! `φ(a, b) = √(a² + b²) − a − b` componentwise (`φ = 0 ⇔ a >= 0, b >= 0, a b = 0`).
//! An element of the generalized Jacobian has the rows `M_i` (equalities) and
//! `(a/r − 1) e_iᵀ + (b/r − 1) M_i` (complementarity, `r = √(a²+b²)`; at `a = b = 0` the
//! element with `a/r = b/r = 1/√2` is used). Each step solves `J d = −Φ` (or falls back to the
//! steepest descent `d = −Jᵀ Φ` when `J` is singular or `d` is not a descent direction) and
//! takes an Armijo step on the merit function `ψ = ½‖Φ‖²` (De Luca, Facchinei, Kanzow 1996).

use super::error::error_from_zw;
use super::linalg::{lu_factor, lu_solve};
use super::options::NewtonFbOptions;
use super::problem::Mlcp;
use crate::error::Result;
use crate::report::{FailReason, SolveReport, SolveStatus};

fn fb(a: f64, b: f64) -> f64 {
    // Stable form: for a, b > 0 use −2ab/(√(a²+b²) + a + b) to avoid cancellation.
    let r = a.hypot(b);
    if a > 0.0 && b > 0.0 {
        -2.0 * a * b / (r + a + b)
    } else {
        r - a - b
    }
}

fn residual(p: &Mlcp, z: &[f64], w: &mut [f64], phi: &mut [f64]) -> f64 {
    p.compute_w(z, w);
    let ne = p.n_eq();
    let mut s = 0.0;
    for i in 0..p.size() {
        phi[i] = if i < ne { w[i] } else { fb(z[i], w[i]) };
        s += phi[i] * phi[i];
    }
    0.5 * s
}

/// Solves `p` by semismooth Newton with an Armijo line search.
pub fn solve_newton_fb(p: &Mlcp, z: &mut [f64], w: &mut [f64], opts: &NewtonFbOptions) -> Result<SolveReport> {
    let (ne, n) = (p.n_eq(), p.size());
    let m = p.m().as_slice();
    let mut phi = vec![0.0; n];
    let mut jac = vec![0.0; n * n];
    let mut piv = vec![0; n];
    let mut d = vec![0.0; n];
    let mut grad = vec![0.0; n];
    let mut zt = vec![0.0; n];
    let mut wt = vec![0.0; n];
    let mut phit = vec![0.0; n];
    let mut psi = residual(p, z, w, &mut phi);
    let mut err = error_from_zw(p, z, w);
    let report =
        |status, iterations, residual| SolveReport { status, iterations, residual, elapsed: Default::default() };
    if err <= opts.iter.tol {
        return Ok(report(SolveStatus::Converged, 0, err));
    }
    let mscale = 1.0 + super::linalg::max_abs(m);
    let mut da = vec![0.0; n];
    let mut db = vec![1.0; n];
    for it in 1..=opts.iter.max_iter {
        // Generalized Jacobian, column-major: J[i, j].
        for i in ne..n {
            let (a, b) = (z[i], w[i]);
            let r = a.hypot(b);
            if r > 1e-300 {
                da[i] = a / r - 1.0;
                db[i] = b / r - 1.0;
            } else {
                da[i] = std::f64::consts::FRAC_1_SQRT_2 - 1.0;
                db[i] = std::f64::consts::FRAC_1_SQRT_2 - 1.0;
            }
        }
        for j in 0..n {
            for i in 0..n {
                jac[j * n + i] = db[i] * m[j * n + i];
            }
            jac[j * n + j] += da[j];
        }
        // Gradient of ψ: Jᵀ Φ.
        for j in 0..n {
            grad[j] = (0..n).map(|i| jac[j * n + i] * phi[i]).sum();
        }
        let gnorm = grad.iter().map(|g| g * g).sum::<f64>().sqrt();
        d.iter_mut().zip(&phi).for_each(|(di, f)| *di = -f);
        let mut newton_ok = lu_factor(&mut jac, n, &mut piv, 1e-13 * mscale).is_ok();
        if newton_ok {
            lu_solve(&jac, n, &piv, &mut d);
            let dn = d.iter().map(|x| x * x).sum::<f64>().sqrt();
            let slope: f64 = grad.iter().zip(&d).map(|(g, x)| g * x).sum();
            newton_ok = d.iter().all(|x| x.is_finite()) && slope < -1e-14 * dn * gnorm;
        }
        if !newton_ok {
            d.iter_mut().zip(&grad).for_each(|(di, g)| *di = -g);
        }
        let slope: f64 = grad.iter().zip(&d).map(|(g, x)| g * x).sum();
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..opts.max_backtracks {
            for i in 0..n {
                zt[i] = z[i] + t * d[i];
            }
            let psit = residual(p, &zt, &mut wt, &mut phit);
            if psit.is_finite() && psit <= psi + opts.armijo * t * slope {
                accepted = true;
                z.copy_from_slice(&zt);
                w.copy_from_slice(&wt);
                phi.copy_from_slice(&phit);
                psi = psit;
                break;
            }
            t *= 0.5;
        }
        err = error_from_zw(p, z, w);
        if err <= opts.iter.tol {
            return Ok(report(SolveStatus::Converged, it, err));
        }
        if !accepted {
            return Ok(report(SolveStatus::Failed(FailReason::LineSearch), it, err));
        }
    }
    Ok(report(SolveStatus::MaxIterations, opts.iter.max_iter, err))
}
