//! Accelerated projected gradient (FISTA with backtracking and adaptive restart) for the
//! ConvexQP over Coulomb cones.
//!
//! Iteration (Beck & Teboulle 2009): `z⁺ = P_C(y − ∇f(y)/L)` with `∇f(y) = M y + q`, `L`
//! doubled until `f(z⁺) <= f(y) + ∇f(y)·(z⁺ − y) + L/2 ‖z⁺ − y‖²`; momentum
//! `y = z⁺ + (t_k − 1)/t_{k+1} (z⁺ − z)`, reset to `t = 1` when the objective increases
//! (O'Donoghue & Candès 2015). Stops when the Siconos residual `‖z − P_C(z − (Mz+q))‖/‖q‖`
//! is `<= tol`.

use super::convex_qp::{convex_qp_error, ConvexQp};
use super::options::PgOptions;
use crate::error::Result;
use crate::report::{FailReason, SolveReport, SolveStatus};

/// Largest eigenvalue estimate of `M` (20 power iterations from a fixed start), at least 1e-12.
fn lipschitz_estimate(p: &ConvexQp) -> f64 {
    let n = p.size();
    let mut v: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64 * 0.1).collect();
    let mut mv = vec![0.0; n];
    let mut lam = 1.0;
    for _ in 0..20 {
        let nv = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !(nv > 0.0) {
            break;
        }
        v.iter_mut().for_each(|x| *x /= nv);
        p.m().matvec(&v, &mut mv);
        lam = mv.iter().map(|x| x * x).sum::<f64>().sqrt();
        std::mem::swap(&mut v, &mut mv);
    }
    lam.max(1e-12)
}

/// Solves `p` by accelerated projected gradient; `z` holds the warm start on entry (when asked)
/// and the answer on exit.
pub fn solve_pg(p: &ConvexQp, z: &mut [f64], opts: &PgOptions) -> Result<SolveReport> {
    let n = p.size();
    if !opts.warm_start {
        z.iter_mut().for_each(|x| *x = 0.0);
    }
    p.project(z);
    let report =
        |status, iterations, residual| SolveReport { status, iterations, residual, elapsed: Default::default() };
    let mut err = convex_qp_error(p, z);
    if err <= opts.iter.tol {
        return Ok(report(SolveStatus::Converged, 0, err));
    }
    let mut lip = match opts.step {
        Some(s) => 1.0 / s,
        None => lipschitz_estimate(p),
    };
    let mut y = z.to_vec();
    let mut zn = vec![0.0; n];
    let mut g = vec![0.0; n];
    let mut mz = vec![0.0; n];
    let mut t = 1.0f64;
    let obj = |x: &[f64], mx: &mut [f64]| -> f64 {
        p.m().matvec(x, mx);
        x.iter().zip(mx.iter()).zip(p.q()).map(|((x, m), q)| x * (0.5 * m + q)).sum()
    };
    let mut fz = obj(z, &mut mz);
    for it in 1..=opts.iter.max_iter {
        let fy = obj(&y, &mut g);
        for i in 0..n {
            g[i] += p.q()[i];
        }
        let mut fzn;
        let mut tries = 0;
        loop {
            for i in 0..n {
                zn[i] = y[i] - g[i] / lip;
            }
            p.project(&mut zn);
            fzn = obj(&zn, &mut mz);
            let mut lin = 0.0;
            let mut quad = 0.0;
            for i in 0..n {
                let d = zn[i] - y[i];
                lin += g[i] * d;
                quad += d * d;
            }
            if fzn <= fy + lin + 0.5 * lip * quad + 1e-12 * (1.0 + fy.abs()) || tries > 60 {
                break;
            }
            lip *= 2.0;
            tries += 1;
        }
        if !zn.iter().all(|v| v.is_finite()) {
            err = convex_qp_error(p, z);
            return Ok(report(SolveStatus::Failed(FailReason::NonFinite), it, err));
        }
        let tn = 0.5 * (1.0 + (1.0 + 4.0 * t * t).sqrt());
        if fzn > fz {
            // Adaptive restart: drop the momentum.
            t = 1.0;
            y.copy_from_slice(&zn);
        } else {
            let beta = (t - 1.0) / tn;
            for i in 0..n {
                y[i] = zn[i] + beta * (zn[i] - z[i]);
            }
            t = tn;
        }
        z.copy_from_slice(&zn);
        fz = fzn;
        err = convex_qp_error(p, z);
        if err <= opts.iter.tol {
            return Ok(report(SolveStatus::Converged, it, err));
        }
    }
    Ok(report(SolveStatus::MaxIterations, opts.iter.max_iter, err))
}
