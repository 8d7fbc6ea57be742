//! NSGS for the rolling friction-contact problem (Siconos `ROLLING_FRICTION_3D_NSGS`,
//! `ROLLING_FRICTION_2D_NSGS`): Gauss–Seidel sweeps over the contacts, each solving its
//! one-contact problem `u_α = W_αα r_α + q̃_α`, `q̃_α = q_α + Σ_{β≠α} W_αβ r_β`, with the
//! projection solver of [`super::local`]; the full error of [`super::rfc_error`] is checked
//! after every sweep.

use super::local::LocalContact;
use super::{rfc_error_with_u, RollingFrictionContact};
use crate::error::{check_len, NumericsError, Result};
use crate::report::{FailReason, IterOptions, SolveReport, SolveStatus};
use std::time::Instant;

/// Options of the rolling NSGS.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RollingNsgsOptions {
    /// Tolerance on the normalized error and maximum number of sweeps.
    pub iter: IterOptions,
    /// Use `r` as given on entry (else start from 0).
    pub warm_start: bool,
    /// Finest relative tolerance of the one-contact projection iterations (on the step). A
    /// sweep uses `clamp(0.1 × the last sweep's error, local_tol, 1e-6)`: the local problems are
    /// solved as accurately as the global iterate can use (as Siconos's adaptive internal
    /// tolerance); on the Siconos-solved 12-contact problem (`tests/data/rfc3d`, tol 1e-12,
    /// release) this takes 0.56 ms and 46 sweeps, against 2.6 ms and 41 sweeps with a fixed 1e-14
    /// (Siconos 4.4's ROLLING_FRICTION_3D_NSGS: 0.80 ms, 43 sweeps).
    pub local_tol: f64,
    /// Iteration cap of the one-contact projection iterations.
    pub local_max_iter: usize,
}

impl Default for RollingNsgsOptions {
    fn default() -> Self {
        Self::with_iter(IterOptions::default())
    }
}

impl RollingNsgsOptions {
    /// Options with the given tolerance and sweep cap, cold start, local tolerance 1e-14 and
    /// 2000 local iterations.
    pub fn with_iter(iter: IterOptions) -> Self {
        RollingNsgsOptions { iter, warm_start: false, local_tol: 1e-14, local_max_iter: 2000 }
    }
    fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.local_tol > 0.0) || self.local_max_iter == 0 {
            return Err(NumericsError::InvalidOption {
                option: "local_tol",
                reason: "the local tolerance and cap must be > 0".into(),
            });
        }
        Ok(())
    }
}

/// Solves `p` by NSGS. `r` holds the warm start on entry (when asked); on exit `(r, u)` hold
/// the answer, `u = W r + q`. Shortcut first: if every `q_{α,N} ≥ −DBL_EPSILON`, `r = 0`,
/// `u = q`, 0 iterations. The report's residual is [`super::rfc_error`] of the returned `r`.
pub fn solve(
    p: &RollingFrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &RollingNsgsOptions,
) -> Result<SolveReport> {
    opts.validate()?;
    check_len("r", p.size(), r.len())?;
    check_len("u", p.size(), u.len())?;
    let start = Instant::now();
    if !opts.warm_start || r.iter().any(|x| !x.is_finite()) {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    if p.is_trivial() {
        r.iter_mut().for_each(|x| *x = 0.0);
        u.copy_from_slice(p.q());
        return Ok(SolveReport::trivial(0.0));
    }
    let d = p.dim();
    let nc = p.n_contacts();
    let mut block = vec![0.0; d * d];
    let locals: Vec<LocalContact> = (0..nc)
        .map(|a| {
            p.w().diag_block(a, d, &mut block);
            LocalContact::new(&block, d, p.mu()[a], p.mu_r()[a])
        })
        .collect();
    let mut qa = vec![0.0; d];
    let mut last_good = r.to_vec();
    let mut status = SolveStatus::MaxIterations;
    let mut residual = f64::INFINITY;
    let mut iterations = 0;
    for sweep in 1..=opts.iter.max_iter {
        iterations = sweep;
        let local_tol = if residual.is_finite() { (0.1 * residual).clamp(opts.local_tol, 1e-6) } else { 1e-6 };
        for (a, local) in locals.iter().enumerate() {
            p.w().block_row_times(a, d, r, true, &mut qa);
            for (x, qi) in qa.iter_mut().zip(&p.q()[a * d..(a + 1) * d]) {
                *x += qi;
            }
            local.solve(&qa, &mut r[a * d..(a + 1) * d], local_tol.max(opts.local_tol), opts.local_max_iter);
        }
        if r.iter().any(|x| !x.is_finite()) {
            r.copy_from_slice(&last_good);
            status = SolveStatus::Failed(FailReason::NonFinite);
            break;
        }
        u.copy_from_slice(p.q());
        p.w().matvec_add(1.0, r, u);
        residual = rfc_error_with_u(p, r, u);
        last_good.copy_from_slice(r);
        if residual <= opts.iter.tol {
            status = SolveStatus::Converged;
            break;
        }
    }
    u.copy_from_slice(p.q());
    p.w().matvec_add(1.0, r, u);
    if !residual.is_finite() || status == SolveStatus::Failed(FailReason::NonFinite) {
        residual = rfc_error_with_u(p, r, u);
    }
    Ok(SolveReport { status, iterations, residual, elapsed: start.elapsed() })
}
