//! Nonsmooth Gauss–Seidel over contacts (NSGS), 2D and 3D.
//!
//! Sweep: for each contact α (in order, or in a seeded random order), with
//! `q̃_α = q_α + Σ_{β≠α} W_αβ r_β`, solve the one-contact problem `u_α = W_αα r_α + q̃_α`
//! exactly (2D) or with the chosen local solver (3D), then `r_α ← ω r_α^{new} + (1−ω) r_α`.
//! Stopping follows Siconos's `LIGHT_WITH_FULL_FINAL` rule: the light error
//! `sqrt(Σ‖Δr_α‖²)/‖r‖` is checked each sweep; when it is below the working tolerance the full
//! normalized error decides, and the working tolerance shrinks to `tol·light/full` otherwise;
//! in addition the full error is evaluated every 10 sweeps.

use super::local::{self, LocalSolver};
use super::options::NsgsOptions;
use super::residual::fc_error_with_u;
use super::FrictionContact;
use crate::error::Result;
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};
use std::time::Instant;

/// The full error is also checked every this many sweeps (Siconos only checks it when the light
/// error is small, which on several collection files never happens before the sweep cap).
const FULL_CHECK_EVERY: usize = 10;

/// The stopping test of the NSGS solvers (local and global): the relative change of a sweep (the
/// "light" error) is cheap; the full error is computed when it falls below a working tolerance,
/// every [`FULL_CHECK_EVERY`] sweeps and at the last sweep. When the light error was too optimistic
/// the working tolerance shrinks to `min(w · light / error, w / 2)`.
pub(crate) struct SweepMonitor {
    tol: f64,
    work_tol: f64,
    max_iter: usize,
}

impl SweepMonitor {
    pub(crate) fn new(tol: f64, max_iter: usize) -> Self {
        SweepMonitor { tol, work_tol: tol, max_iter }
    }

    /// Whether sweep `sweep`, whose relative change is `light`, needs the full error.
    pub(crate) fn wants_full(&self, light: f64, sweep: usize) -> bool {
        light < self.work_tol || sweep.is_multiple_of(FULL_CHECK_EVERY) || sweep == self.max_iter
    }

    /// After the full `error`: `Some(status)` ends the solve (converged, or stalled when a sweep
    /// changed nothing: a fixed point of the sweep that is not a solution), `None` goes on.
    pub(crate) fn after_full(&mut self, light: f64, error: f64) -> Option<SolveStatus> {
        if error <= self.tol {
            return Some(SolveStatus::Converged);
        }
        if light < self.work_tol && light > 0.0 && error > 0.0 {
            self.work_tol = (self.work_tol * light / error).min(self.work_tol * 0.5);
        } else if light == 0.0 {
            return Some(SolveStatus::Failed(FailReason::Stalled));
        }
        None
    }
}

pub use crate::rng::SplitMix64;

/// Reusable buffers of NSGS (diagonal blocks, sweep order).
#[derive(Debug, Clone, Default)]
pub struct NsgsWorkspace {
    diag: Vec<f64>,
    /// `W_αα⁻¹` of each 3D contact (`None`: singular block).
    diag_inv: Vec<Option<Matrix3<f64>>>,
    order: Vec<usize>,
}

/// Runs NSGS; `local` chooses the 3D one-contact solver (2D contacts are solved exactly).
pub fn solve(
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &NsgsOptions,
    local: LocalSolver,
) -> Result<SolveReport> {
    solve_with(&mut NsgsWorkspace::default(), p, r, u, opts, local)
}

/// [`solve`] reusing the buffers of `ws`.
pub fn solve_with(
    ws: &mut NsgsWorkspace,
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &NsgsOptions,
    local: LocalSolver,
) -> Result<SolveReport> {
    opts.validate()?;
    let start = Instant::now();
    let dim = p.dim();
    let nc = p.n_contacts();
    if !opts.warm_start {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    let diag = &mut ws.diag;
    diag.clear();
    diag.resize(nc * dim * dim, 0.0);
    for a in 0..nc {
        p.w().diag_block(a, dim, &mut diag[a * dim * dim..(a + 1) * dim * dim]);
    }
    let diag_inv = &mut ws.diag_inv;
    diag_inv.clear();
    if dim == 3 {
        diag_inv.extend(diag.chunks_exact(9).map(|b| Matrix3::from_column_slice(b).try_inverse()));
    }
    let order = &mut ws.order;
    order.clear();
    order.extend(0..nc);
    let mut rng = opts.shuffle_seed.map(SplitMix64::new);
    let mut monitor = SweepMonitor::new(opts.iter.tol, opts.iter.max_iter);
    let mut qa = [0.0; 3];
    let mut status = SolveStatus::MaxIterations;
    let mut iterations = 0;
    let mut error = f64::INFINITY;
    let mut local_failures = 0usize;
    for sweep in 1..=opts.iter.max_iter {
        iterations = sweep;
        if let Some(g) = rng.as_mut() {
            g.shuffle(order);
        }
        let mut light = 0.0;
        for &a in order.iter() {
            let ra = &r[a * dim..(a + 1) * dim];
            p.w().block_row_times(a, dim, r, true, &mut qa);
            for (qk, &pk) in qa.iter_mut().zip(&p.q()[a * dim..(a + 1) * dim]) {
                *qk += pk;
            }
            let blk = &diag[a * dim * dim..(a + 1) * dim * dim];
            let mut new = [0.0; 3];
            let ok;
            if dim == 3 {
                let w = Matrix3::from_column_slice(blk);
                let q = Vector3::new(qa[0], qa[1], qa[2]);
                let mut x = Vector3::new(ra[0], ra[1], ra[2]);
                ok = local::solve_3d_with_inverse(
                    local,
                    &w,
                    diag_inv[a].as_ref(),
                    &q,
                    p.mu()[a],
                    &mut x,
                    opts.local_tol,
                    opts.local_max_iter,
                );
                new[..3].copy_from_slice(x.as_slice());
            } else {
                let w = Matrix2::from_column_slice(blk);
                let q = Vector2::new(qa[0], qa[1]);
                match local::solve_2d(&w, &q, p.mu()[a]) {
                    Some(x) => {
                        new[..2].copy_from_slice(x.as_slice());
                        ok = true;
                    }
                    None => {
                        new[..2].copy_from_slice(ra);
                        ok = false;
                    }
                }
            }
            if !ok {
                local_failures += 1;
            }
            if new[..dim].iter().any(|x| !x.is_finite()) {
                continue; // keep the previous (finite) reaction of this contact
            }
            let ra = &mut r[a * dim..(a + 1) * dim];
            for k in 0..dim {
                let v = opts.relaxation * new[k] + (1.0 - opts.relaxation) * ra[k];
                light += (v - ra[k]) * (v - ra[k]);
                ra[k] = v;
            }
        }
        let rn = r.iter().map(|x| x * x).sum::<f64>().sqrt();
        let light = if rn > f64::EPSILON { light.sqrt() / rn } else { light.sqrt() };
        if monitor.wants_full(light, sweep) {
            compute_u(p, r, u);
            error = fc_error_with_u(p, r, u);
            if let Some(s) = monitor.after_full(light, error) {
                status = s;
                break;
            }
        }
    }
    let _ = local_failures;
    if !error.is_finite() || status == SolveStatus::MaxIterations {
        compute_u(p, r, u);
        error = fc_error_with_u(p, r, u);
    }
    Ok(SolveReport { status, iterations, residual: error, elapsed: start.elapsed() })
}

pub(crate) fn compute_u(p: &FrictionContact, r: &[f64], u: &mut [f64]) {
    u.copy_from_slice(p.q());
    p.w().matvec_add(1.0, r, u);
}
