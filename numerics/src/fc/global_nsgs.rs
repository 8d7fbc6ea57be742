//! Nonsmooth Gauss–Seidel on the global problem without forming `W` (Siconos
//! `GFC3D_NSGS` on a block-diagonal `M`).
//!
//! The global velocity `v = M⁻¹ (q + H r)` is kept up to date instead of `W`: for each contact
//! `α` in turn, `u_α = H_αᵀ v + b_α`, the one-contact problem `u_α = W_αα r_α + q̃_α` with
//! `q̃_α = u_α − W_αα r_α` is solved by the local solver of [`super::nsgs`], and the reaction
//! change moves the velocity of the one or two blocks the contact touches,
//! `v ← v + M⁻¹ H_α Δr_α`. This is exactly the Gauss–Seidel sweep of NSGS on the condensed
//! problem (`u_α = Σ_β W_αβ r_β + q_α` with `q = Hᵀ M⁻¹ q + b`), at the cost of the contact's
//! own rows per update; memory is `O(nnz(H))`.
//!
//! Stopping: the light error `‖Δr‖/‖r‖` each sweep, the full error (that of the equivalent local
//! problem, [`super::gfc_error`], computed from `u = Hᵀ v + b` with `v` recomputed exactly) when
//! the light error is small and every 10 sweeps, as in [`super::nsgs`].

use super::block_diag::BlockDiagSystem;
use super::local::LocalSolver;
use super::nsgs::SweepMonitor;
use super::residual::natural_map_residual;
use super::{GlobalFrictionContact, NsgsOptions};
use crate::error::{NumericsError, Result};
use crate::report::{SolveReport, SolveStatus};
use nalgebra::Matrix3;
use std::time::Instant;

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// `u = Hᵀ v + b` for every contact.
fn all_u(sys: &BlockDiagSystem, dim: usize, v: &[f64], b: &[f64], u: &mut [f64]) {
    for a in 0..sys.n_contacts() {
        let ua = &mut u[a * dim..(a + 1) * dim];
        sys.contact_velocity(a, v, ua);
        for (x, y) in ua.iter_mut().zip(&b[a * dim..(a + 1) * dim]) {
            *x += y;
        }
    }
}

/// Solves `p` by NSGS on the global problem; on exit `r`, `u = Hᵀ v + b`, `v = M⁻¹(q + H r)`.
/// `M` must be block-diagonal with blocks of at most 256 rows (else `Unsupported`).
pub fn solve(
    p: &GlobalFrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    v: &mut [f64],
    opts: &NsgsOptions,
    kind: LocalSolver,
) -> Result<SolveReport> {
    opts.validate()?;
    let start = Instant::now();
    let (dim, nc, n) = (p.dim(), p.n_contacts(), p.n_velocities());
    let sys = BlockDiagSystem::new(dim, n, &p.m().entries, &p.h().entries, nc)?.ok_or(NumericsError::Unsupported {
        solver: "gfc nsgs (global)",
        what: "M with a diagonal block larger than 256 rows (not block-diagonal)".into(),
    })?;
    // free velocity and the local problem's q = Hᵀ v_free + b (its norm scales the error)
    let zero = vec![0.0; r.len()];
    if !sys.velocity(p.q(), &zero, v) {
        return Err(NumericsError::Singular { what: "M (non-finite free velocity)", index: 0 });
    }
    all_u(&sys, dim, v, p.b(), u);
    let q_norm = norm(u);
    if (0..nc).all(|a| u[a * dim] >= -f64::EPSILON) {
        r.iter_mut().for_each(|x| *x = 0.0);
        return Ok(SolveReport::trivial(0.0));
    }
    if !opts.warm_start || r.iter().any(|x| !x.is_finite()) {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    let full_error = |r: &[f64], v: &mut [f64], u: &mut [f64]| -> f64 {
        sys.velocity(p.q(), r, v);
        all_u(&sys, dim, v, p.b(), u);
        let e = natural_map_residual(dim, p.mu(), r, u);
        let scale = q_norm.max(norm(r)).max(norm(u));
        if scale > f64::EPSILON {
            e / scale
        } else {
            e
        }
    };
    sys.velocity(p.q(), r, v);
    let mut diag = vec![0.0; nc * dim * dim];
    for a in 0..nc {
        sys.diag_block(a, &mut diag[a * dim * dim..(a + 1) * dim * dim]);
    }
    let diag_inv: Vec<Option<Matrix3<f64>>> = if dim == 3 {
        diag.chunks_exact(9).map(|b| Matrix3::from_column_slice(b).try_inverse()).collect()
    } else {
        Vec::new()
    };
    let mut monitor = SweepMonitor::new(opts.iter.tol, opts.iter.max_iter);
    let mut status = SolveStatus::MaxIterations;
    let mut iterations = 0;
    let mut error = f64::INFINITY;
    let mut ua = [0.0; 3];
    for sweep in 1..=opts.iter.max_iter {
        iterations = sweep;
        let mut light = 0.0;
        for a in 0..nc {
            sys.contact_velocity(a, v, &mut ua);
            let blk = &diag[a * dim * dim..(a + 1) * dim * dim];
            let ra = &r[a * dim..(a + 1) * dim];
            // q̃ = u_α + b_α − W_αα r_α
            let mut qa = [0.0; 3];
            for row in 0..dim {
                qa[row] = ua[row] + p.b()[a * dim + row];
                for col in 0..dim {
                    qa[row] -= blk[row + col * dim] * ra[col];
                }
            }
            let (new, _) = super::nsgs::solve_contact(
                dim,
                blk,
                diag_inv.get(a).and_then(|x| x.as_ref()),
                &qa,
                ra,
                p.mu()[a],
                opts,
                kind,
            );
            if new[..dim].iter().any(|x| !x.is_finite()) {
                continue;
            }
            let mut d = [0.0; 3];
            let ra = &mut r[a * dim..(a + 1) * dim];
            for k in 0..dim {
                let x = opts.relaxation * new[k] + (1.0 - opts.relaxation) * ra[k];
                d[k] = x - ra[k];
                light += d[k] * d[k];
                ra[k] = x;
            }
            sys.add_contact_impulse(a, &d[..dim], v);
        }
        let rn = norm(r);
        let light = if rn > f64::EPSILON { light.sqrt() / rn } else { light.sqrt() };
        if monitor.wants_full(light, sweep) {
            error = full_error(r, v, u);
            if let Some(s) = monitor.after_full(light, error) {
                status = s;
                break;
            }
        }
    }
    if !error.is_finite() || status == SolveStatus::MaxIterations {
        error = full_error(r, v, u);
    }
    if v.iter().any(|x| !x.is_finite()) {
        return Err(NumericsError::NonFinite { what: "global velocity v", index: 0 });
    }
    Ok(SolveReport { status, iterations, residual: error, elapsed: start.elapsed() })
}
