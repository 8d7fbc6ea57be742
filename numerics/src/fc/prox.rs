//! Proximal point around the semismooth Newton method (3D).
//!
//! Warm-up: on problems above `admm_min_size` unknowns, up to `admm_warmup` ADMM iterations
//! (one sparse Cholesky; large stacks such as KaplasTower converge there), then
//! `warmup_sweeps` NSGS-AC sweeps; either returns at once if it converges (`iterations` counts
//! ADMM iterations + sweeps + proximal steps).
//! Outer step k: solve the friction-contact problem with `W + ν_k I` and `q − ν_k r_k`
//! (a better conditioned, strongly monotone-like problem whose solution is the proximal point
//! of `r_k`) by Newton–Alart–Curnier, then `r_{k+1}` = that solution.
//! `ν_k = σ · mean(diag W) · e_k^α`, so the regularization vanishes as the error `e_k` does.
//! Each subproblem is solved inexactly, to `‖Φ‖ ≤ clamp(0.1·e_k, 0.1·tol, 1e-4)·‖r‖`.
//! When the inner Newton fails, `ν` is multiplied by 10 (more regularization) and the step retried.
//! When the centre itself already passes the inner test (so the step would not move), the inner
//! tolerance shrinks 100-fold for the rest of the solve and the step is retried.

use super::newton::{newton_core, LineSearchFailure, Linear, Stop};
use super::nsgs::compute_u;
use super::options::ProxOptions;
use super::residual::fc_error_with_u;
use super::FrictionContact;
use crate::error::Result;
use crate::fc::{AdmmOptions, LocalSolver, NsgsOptions};
use crate::report::{IterOptions, SolveReport, SolveStatus};
use std::time::Instant;

/// Runs PROX.
pub fn solve(p: &FrictionContact, r: &mut [f64], u: &mut [f64], opts: &ProxOptions) -> Result<SolveReport> {
    opts.validate()?;
    let start = Instant::now();
    let n = p.size();
    if !opts.warm_start {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    let mut blk = [0.0; 9];
    let mut mean_diag = 0.0;
    for a in 0..p.n_contacts() {
        p.w().diag_block(a, 3, &mut blk);
        mean_diag += blk[0] + blk[4] + blk[8];
    }
    mean_diag = (mean_diag / n.max(1) as f64).abs().max(1e-300);
    let mut warm_iters = 0;
    if opts.admm_warmup > 0 && n > opts.admm_min_size {
        let mut o = AdmmOptions::with_iter(IterOptions::new(opts.iter.tol, opts.admm_warmup));
        o.warm_start = true;
        o.stall_window = 10;
        o.stall_factor = 10.0;
        let mut z = r.to_vec();
        let rep = crate::fc::admm::solve(p, &mut z, u, &o)?;
        warm_iters = rep.iterations;
        if rep.status.converged() {
            r.copy_from_slice(&z);
            return Ok(SolveReport { elapsed: start.elapsed(), ..rep });
        }
    }
    if opts.warmup_sweeps > 0 {
        let mut o = NsgsOptions::with_iter(IterOptions::new(opts.iter.tol, opts.warmup_sweeps));
        o.warm_start = true;
        let rep = crate::fc::nsgs::solve(p, r, u, &o, LocalSolver::AlartCurnier)?;
        warm_iters += rep.iterations;
        if rep.status.converged() {
            return Ok(SolveReport { elapsed: start.elapsed(), iterations: warm_iters, ..rep });
        }
    }
    compute_u(p, r, u);
    let mut err = fc_error_with_u(p, r, u);
    let mut boost = 1.0;
    let mut status = SolveStatus::MaxIterations;
    let mut iterations = 0;
    let mut center = r.to_vec();
    let mut inner_shrink = 1.0;
    let mut lin = Linear::new(p, opts.factorization, opts.sparse_threshold, opts.sparse_max_density);
    for k in 0..opts.iter.max_iter {
        if err <= opts.iter.tol {
            status = SolveStatus::Converged;
            iterations = k;
            break;
        }
        iterations = k + 1;
        let nu = opts.sigma * mean_diag * err.powf(opts.alpha).min(1.0) * boost;
        center.copy_from_slice(r);
        let mut trial = r.to_vec();
        // Inner tolerance: tight enough that the outer error can reach tol.
        // Inexact proximal steps: the subproblem is solved to a fraction of the current error.
        let inner_tol = ((0.1 * err).min(1e-4).max(0.1 * opts.iter.tol) * inner_shrink).max(1e-15);
        let out = newton_core(
            p,
            &mut trial,
            nu,
            &center,
            opts.inner_max_iter,
            30,
            LineSearchFailure::Stop,
            Stop::Phi(inner_tol),
            &mut lin,
        );
        if out.iterations == 0 && out.status.converged() {
            // The centre already passes the inner test although the outer error is above tol
            // (‖Φ‖ is measured against ‖r‖, the error against max(‖q‖, ‖r‖, ‖u‖): with light
            // bodies ‖q‖ ≫ ‖r‖): without a tighter inner test every step would return the
            // centre unchanged.
            inner_shrink *= 0.01;
            continue;
        }
        if trial.iter().any(|x| !x.is_finite()) {
            boost *= 10.0;
            continue;
        }
        compute_u(p, &trial, u);
        let e2 = fc_error_with_u(p, &trial, u);
        if out.status.converged() || e2 < err {
            r.copy_from_slice(&trial);
            err = e2;
            boost = if out.status.converged() { (boost * 0.5).max(1.0) } else { boost };
        } else {
            boost *= 10.0;
        }
    }
    if status != SolveStatus::Converged && err <= opts.iter.tol {
        status = SolveStatus::Converged;
    }
    compute_u(p, r, u);
    let residual = fc_error_with_u(p, r, u);
    Ok(SolveReport { status, iterations: warm_iters + iterations, residual, elapsed: start.elapsed() })
}
