//! ADMM (alternating direction method of multipliers) for the reduced friction-contact problem.
//!
//! For a fixed De Saxcé term `s = [μ_α ‖u_{α,T}‖ e_N]_α` the problem is the convex conic QP
//! `min ½ rᵀ W r + (q + s)ᵀ r` s.t. `r ∈ K`, split as `r = z`, `z ∈ K` with the scaled multiplier
//! `ξ` and penalty `ρ`:
//! * `(W_s + ρ I) r = ρ (ẑ − ξ̂) − q − s − (W − W_s) z` with `W_s = (W + Wᵀ)/2` (one sparse
//!   Cholesky factorization per value of `ρ`; the skew part of a nonsymmetric `W` — several
//!   collection files are symmetric only to a few digits — is explicit, so a fixed point with
//!   `r = z` solves the problem with `W` itself);
//! * `z = P_K(r + ξ̂)` (contact by contact);
//! * `ξ = ξ̂ + r − z`;
//!
//! and `s` is refreshed from `u = W z + q` every iteration (the fixed point on the De Saxcé
//! term). `(ẑ, ξ̂)` are the Nesterov-extrapolated iterates of fast ADMM with restart (Goldstein,
//! O'Donoghue, Setzer, Baraniuk 2014): momentum while the combined residual
//! `ρ‖ξ − ξ̂‖² + ρ‖z − ẑ‖²` decreases by the factor `restart`, plain step (restart) otherwise.
//! `ρ` adapts by residual balancing (Boyd et al. 2011, §3.4.1) on the relative residuals
//! `‖r − z‖/‖z‖` (primal) and `‖z − ẑ‖/‖ξ‖` (dual): ×`rho_factor` when the primal one exceeds
//! `balance` times the dual one, ÷`rho_factor` in the opposite case (ξ rescaled by the inverse,
//! the factorization redone), within `[10⁻⁴, 10⁴]` times its initial value. The iterate returned is `z` (always in `K`) with `u = W z + q`;
//! convergence is the canonical normalized error of [`super::fc_error`]. With `stall_window`
//! set, the run stops early (`Failed(Stalled)`) when the error does not drop fast enough.

use super::cone::project_on_cone;
use super::nsgs::compute_u;
use super::options::AdmmOptions;
use super::residual::fc_error_with_u;
use super::sparse_lu::SparseLlt;
use super::FrictionContact;
use crate::error::Result;
use crate::matrix::Operator;
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::{DMatrix, DVector};
use std::time::Instant;

/// `W + ρ I`, factorized.
enum Shifted {
    Dense { w: DMatrix<f64>, chol: Option<nalgebra::Cholesky<f64, nalgebra::Dyn>> },
    Sparse { llt: Box<SparseLlt>, values: Vec<f64>, n_off: usize },
}

impl Shifted {
    /// The factorization of `W_s + ρ I` with the symmetric part `W_s = (W + Wᵀ)/2`, and whether
    /// `W` is exactly symmetric.
    fn new(p: &FrictionContact, sparse_threshold: usize) -> Option<(Self, bool)> {
        let n = p.size();
        let dim = p.dim();
        match p.w() {
            Operator::BlockCsr(w) if n > sparse_threshold => {
                let mut entries = Vec::new();
                let mut values = Vec::new();
                let mut symmetric = true;
                for a in 0..p.n_contacts() {
                    for k in w.row_blocks(a) {
                        let b = w.block_col(k);
                        let v = w.block_values(k);
                        let mirror = w.find_block(b, a).map(|k2| w.block_values(k2));
                        symmetric &= mirror
                            .is_some_and(|m| (0..dim).all(|i| (0..dim).all(|j| m[j + dim * i] == v[i + dim * j])));
                        for jj in 0..dim {
                            for ii in 0..dim {
                                entries.push((dim * a + ii, dim * b + jj));
                                entries.push((dim * b + jj, dim * a + ii));
                                values.push(0.5 * v[ii + dim * jj]);
                                values.push(0.5 * v[ii + dim * jj]);
                            }
                        }
                    }
                }
                let n_off = values.len();
                entries.extend((0..n).map(|i| (i, i)));
                values.extend(std::iter::repeat_n(0.0, n));
                Some((Shifted::Sparse { llt: Box::new(SparseLlt::new(n, &entries)?), values, n_off }, symmetric))
            }
            w => {
                let w = w.to_dense();
                let wt = w.transpose();
                let symmetric = w == wt;
                Some((Shifted::Dense { w: (w + wt) * 0.5, chol: None }, symmetric))
            }
        }
    }

    /// Factorizes `W + ρ I`; `false` if it is not numerically positive definite.
    fn factor(&mut self, rho: f64) -> bool {
        match self {
            Shifted::Dense { w, chol } => {
                let mut m = w.clone();
                for i in 0..m.nrows() {
                    m[(i, i)] += rho;
                }
                *chol = m.cholesky();
                chol.is_some()
            }
            Shifted::Sparse { llt, values, n_off } => {
                values[*n_off..].iter_mut().for_each(|x| *x = rho);
                llt.factorize(values.iter().copied())
            }
        }
    }

    fn solve(&mut self, rhs: &mut [f64]) -> bool {
        match self {
            Shifted::Dense { chol: Some(c), .. } => {
                let mut b = DVector::from_column_slice(rhs);
                c.solve_mut(&mut b);
                rhs.copy_from_slice(b.as_slice());
                true
            }
            Shifted::Dense { chol: None, .. } => false,
            Shifted::Sparse { llt, .. } => llt.solve_in_place(rhs),
        }
    }
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

fn dist2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// Runs ADMM (2D or 3D).
pub fn solve(p: &FrictionContact, r: &mut [f64], u: &mut [f64], opts: &AdmmOptions) -> Result<SolveReport> {
    opts.validate()?;
    let start = Instant::now();
    let n = p.size();
    let dim = p.dim();
    let mu = p.mu();
    let fail = |status, iterations, r: &mut [f64], u: &mut [f64]| {
        compute_u(p, r, u);
        let residual = fc_error_with_u(p, r, u);
        Ok(SolveReport { status, iterations, residual, elapsed: start.elapsed() })
    };
    if !opts.warm_start {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    for a in 0..p.n_contacts() {
        project_on_cone(&mut r[a * dim..(a + 1) * dim], mu[a]);
    }
    let mut rho = opts.rho0;
    if rho.is_nan() || rho <= 0.0 {
        let mut blk = [0.0; 9];
        let mut s = 0.0;
        for a in 0..p.n_contacts() {
            p.w().diag_block(a, dim, &mut blk);
            s += (0..dim).map(|k| blk[k * dim + k].abs()).sum::<f64>();
        }
        rho = (s / n.max(1) as f64).max(1e-300);
    }
    let rho_init = rho;
    let Some((mut sys, symmetric)) = Shifted::new(p, opts.sparse_threshold) else {
        return fail(SolveStatus::Failed(FailReason::SingularSystem), 0, r, u);
    };
    if !sys.factor(rho) {
        return fail(SolveStatus::Failed(FailReason::SingularSystem), 0, r, u);
    }
    // z = r (in K), ξ = 0; hats are the extrapolated points.
    let mut z = r.to_vec();
    let mut z_hat = z.clone();
    let mut xi = vec![0.0; n];
    let mut xi_hat = xi.clone();
    let mut z_old = z.clone();
    let mut xi_old = xi.clone();
    let mut x = vec![0.0; n];
    let mut wtz = vec![0.0; if symmetric { 0 } else { n }];
    let mut alpha = 1.0_f64;
    let mut c_prev = f64::INFINITY;
    compute_u(p, &z, u);
    let mut err = fc_error_with_u(p, &z, u);
    let mut checkpoint = err;
    let mut status = SolveStatus::MaxIterations;
    let mut iterations = 0;
    for it in 1..=opts.iter.max_iter {
        if err <= opts.iter.tol {
            status = SolveStatus::Converged;
            iterations = it - 1;
            break;
        }
        iterations = it;
        // r-step: (W_s + ρI) x = ρ(ẑ − ξ̂) − q − s − (W − W_s) z, s from u = W z + q (u holds it).
        if !symmetric {
            wtz.iter_mut().for_each(|v| *v = 0.0);
            p.w().tr_matvec_add(1.0, &z, &mut wtz);
        }
        for a in 0..p.n_contacts() {
            let ua = &u[a * dim..(a + 1) * dim];
            let ut = ua[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
            for k in 0..dim {
                let i = a * dim + k;
                x[i] = rho * (z_hat[i] - xi_hat[i]) - p.q()[i];
                if !symmetric {
                    x[i] -= 0.5 * (u[i] - p.q()[i] - wtz[i]);
                }
            }
            x[a * dim] -= mu[a] * ut;
        }
        if !sys.solve(&mut x) {
            r.copy_from_slice(&z);
            return fail(SolveStatus::Failed(FailReason::SingularSystem), it, r, u);
        }
        z_old.copy_from_slice(&z);
        xi_old.copy_from_slice(&xi);
        // z-step and multiplier.
        for i in 0..n {
            z[i] = x[i] + xi_hat[i];
        }
        for a in 0..p.n_contacts() {
            project_on_cone(&mut z[a * dim..(a + 1) * dim], mu[a]);
        }
        for i in 0..n {
            xi[i] = xi_hat[i] + x[i] - z[i];
        }
        if z.iter().chain(&xi).any(|v| !v.is_finite()) {
            r.copy_from_slice(&z_old);
            return fail(SolveStatus::Failed(FailReason::NonFinite), it, r, u);
        }
        compute_u(p, &z, u);
        err = fc_error_with_u(p, &z, u);
        if opts.stall_window > 0 && it % opts.stall_window == 0 {
            if err > checkpoint / opts.stall_factor && err > opts.iter.tol {
                status = SolveStatus::Failed(FailReason::Stalled);
                break;
            }
            checkpoint = err;
        }
        // Residuals (relative) and the combined residual of the restart rule.
        let primal = dist2(&x, &z).sqrt() / norm(&z).max(1e-300);
        let dz = dist2(&z, &z_hat);
        let dual = dz.sqrt() / norm(&xi).max(1e-300);
        let c = rho * (dist2(&xi, &xi_hat) + dz);
        let mut rescale = 1.0;
        if opts.adaptive_rho && it % opts.rho_every == 0 {
            if primal > opts.balance * dual {
                rescale = opts.rho_factor;
            } else if dual > opts.balance * primal {
                rescale = 1.0 / opts.rho_factor;
            }
        }
        if !(rho * rescale >= 1e-4 * rho_init && rho * rescale <= 1e4 * rho_init) {
            rescale = 1.0;
        }
        if rescale != 1.0 {
            rho *= rescale;
            xi.iter_mut().for_each(|v| *v /= rescale);
            if !sys.factor(rho) {
                r.copy_from_slice(&z);
                return fail(SolveStatus::Failed(FailReason::SingularSystem), it, r, u);
            }
            alpha = 1.0;
            c_prev = f64::INFINITY;
            z_hat.copy_from_slice(&z);
            xi_hat.copy_from_slice(&xi);
        } else if opts.acceleration && c < opts.restart * c_prev {
            let alpha_next = 0.5 * (1.0 + (1.0 + 4.0 * alpha * alpha).sqrt());
            let beta = (alpha - 1.0) / alpha_next;
            for i in 0..n {
                z_hat[i] = z[i] + beta * (z[i] - z_old[i]);
                xi_hat[i] = xi[i] + beta * (xi[i] - xi_old[i]);
            }
            alpha = alpha_next;
            c_prev = c;
        } else {
            alpha = 1.0;
            c_prev = if opts.acceleration { c_prev / opts.restart } else { c };
            z_hat.copy_from_slice(&z);
            xi_hat.copy_from_slice(&xi);
        }
    }
    if status != SolveStatus::Converged && err <= opts.iter.tol {
        status = SolveStatus::Converged;
    }
    r.copy_from_slice(&z);
    Ok(SolveReport { status, iterations, residual: err, elapsed: start.elapsed() })
}
