//! Variational-inequality solvers: fixed-point projection and extragradient, self-adaptive step.
//!
//! `F(r) = W r + q + [μ_α ‖u_{α,T}‖ e_N]_α` (`u = W r + q`); the Coulomb problem is the VI
//! `r ∈ K, ⟨F(r), s − r⟩ ≥ 0 ∀ s ∈ K`, i.e. `r = P_K(r − ρ F(r))`.
//! * fixed point: `r̄ = P_K(r − ρ F(r))`, `r ← r̄`;
//! * extragradient: `r̄ = P_K(r − ρ F(r))`, `r ← P_K(r − ρ F(r̄))`;
//!
//! with the step rule `ρ ← τ ρ` until `ρ ‖F(r̄) − F(r)‖ ≤ L_max ‖r̄ − r‖`, and `ρ ← ρ/τ` when the
//! ratio falls below `L_min`. Stops on the canonical normalized error.
//! With the `parallel` feature the operator product runs block row by block row on rayon; each
//! output entry is computed by the same sequence of operations, so results do not depend on the
//! number of threads.

use super::cone::project_on_cone;
use super::options::ViOptions;
use super::residual::fc_error_with_u;
use super::FrictionContact;
use crate::error::Result;
use crate::report::{FailReason, SolveReport, SolveStatus};
use std::time::Instant;

/// `u = W r + q`, then `f = u + De Saxcé term`.
pub(crate) fn eval_f(p: &FrictionContact, r: &[f64], u: &mut [f64], f: &mut [f64]) {
    matvec_q(p, r, u);
    let dim = p.dim();
    for (a, &m) in p.mu().iter().enumerate() {
        let ua = &u[a * dim..(a + 1) * dim];
        let ut = ua[1..].iter().map(|x| x * x).sum::<f64>().sqrt();
        f[a * dim..(a + 1) * dim].copy_from_slice(ua);
        f[a * dim] += m * ut;
    }
}

#[cfg(not(feature = "parallel"))]
fn matvec_q(p: &FrictionContact, r: &[f64], u: &mut [f64]) {
    u.copy_from_slice(p.q());
    p.w().matvec_add(1.0, r, u);
}

#[cfg(feature = "parallel")]
fn matvec_q(p: &FrictionContact, r: &[f64], u: &mut [f64]) {
    use rayon::prelude::*;
    let dim = p.dim();
    u.par_chunks_mut(dim).enumerate().for_each(|(a, ua)| {
        let mut tmp = [0.0; 3];
        p.w().block_row_times(a, dim, r, false, &mut tmp);
        for k in 0..dim {
            ua[k] = p.q()[a * dim + k] + tmp[k];
        }
    });
}

fn project_all(dim: usize, mu: &[f64], x: &mut [f64]) {
    for (a, &m) in mu.iter().enumerate() {
        project_on_cone(&mut x[a * dim..(a + 1) * dim], m);
    }
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// Runs the fixed point (`extragradient = false`) or the extragradient method.
pub fn solve(
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &ViOptions,
    extragradient: bool,
) -> Result<SolveReport> {
    opts.validate()?;
    let start = Instant::now();
    let n = p.size();
    let dim = p.dim();
    if !opts.warm_start {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    project_all(dim, p.mu(), r);
    let mut rho = opts.rho0;
    if !(rho > 0.0) {
        let mut blk = [0.0; 9];
        let mut dmax: f64 = 0.0;
        for a in 0..p.n_contacts() {
            p.w().diag_block(a, dim, &mut blk);
            for k in 0..dim {
                dmax = dmax.max(blk[k * dim + k].abs());
            }
        }
        rho = if dmax > 0.0 { 1.0 / dmax } else { 1.0 };
    }
    let mut f = vec![0.0; n];
    let mut rb = vec![0.0; n];
    let mut ub = vec![0.0; n];
    let mut fb = vec![0.0; n];
    eval_f(p, r, u, &mut f);
    let mut status = SolveStatus::MaxIterations;
    let mut iterations = opts.iter.max_iter;
    let mut err = fc_error_with_u(p, r, u);
    for it in 0..opts.iter.max_iter {
        if err <= opts.iter.tol {
            status = SolveStatus::Converged;
            iterations = it;
            break;
        }
        let mut ratio = 0.0;
        let mut ok = false;
        for _ in 0..60 {
            for i in 0..n {
                rb[i] = r[i] - rho * f[i];
            }
            project_all(dim, p.mu(), &mut rb);
            eval_f(p, &rb, &mut ub, &mut fb);
            let dr = dist(&rb, r);
            if dr == 0.0 {
                ok = true;
                ratio = 0.0;
                break;
            }
            ratio = rho * dist(&fb, &f) / dr;
            if ratio <= opts.l_max {
                ok = true;
                break;
            }
            rho *= opts.tau;
        }
        if !ok || rb.iter().any(|x| !x.is_finite()) {
            status = SolveStatus::Failed(FailReason::LineSearch);
            iterations = it + 1;
            break;
        }
        if extragradient {
            for i in 0..n {
                r[i] -= rho * fb[i];
            }
            project_all(dim, p.mu(), r);
            eval_f(p, r, u, &mut f);
        } else {
            r.copy_from_slice(&rb);
            u.copy_from_slice(&ub);
            f.copy_from_slice(&fb);
        }
        err = fc_error_with_u(p, r, u);
        if ratio < opts.l_min {
            rho /= opts.tau;
        }
    }
    if status == SolveStatus::MaxIterations && err <= opts.iter.tol {
        status = SolveStatus::Converged;
    }
    matvec_q(p, r, u);
    let residual = fc_error_with_u(p, r, u);
    Ok(SolveReport { status, iterations, residual, elapsed: start.elapsed() })
}
