//! Semismooth Newton on a box MCP `l ≤ z ≤ u ⊥ F(z)` with an Armijo line search on the
//! Fischer–Burmeister merit `Ψ(z) = ½ ‖Φ(z)‖²` (De Luca, Facchinei, Kanzow; Facchinei–Pang
//! §9.1): the direction solves `H d = −Φ(z)` with `H` an element of the generalized Jacobian of
//! `Φ` (Billups' nested Fischer–Burmeister function or Qi's box function, see `merit`; or, for
//! the min variant, of the natural map `z − P_[l,u](z − F(z))`); it is replaced by
//! `−∇Ψ = −H_FBᵀ Φ` when that system is singular or its solution is not a descent direction
//! (`∇Ψᵀd > −ρ ‖d‖^p`). Steps `t = 1, β, β², …` until `Ψ(z(t)) ≤ Ψ(z) + σ t ∇Ψᵀd`, with
//! `z(t) = z + t d`, or `P_[l,u](z + t d)` with the projected ("arc") search.

use super::eval::Eval;
use super::merit::{fb_box, natural_box, qi_box};
use super::{BoxFunction, Measure, NewtonOptions, SetRef, Setting};
use crate::error::Result;
use crate::report::FailReason;
use nalgebra::{DMatrix, DVector};
use std::borrow::Cow;

/// Returns `(iterations, failure)`; `z` holds the last iterate.
pub(super) fn solve(
    ev: &mut Eval<'_>,
    lb: &[f64],
    ub: &[f64],
    measure: Measure,
    z: &mut [f64],
    o: &NewtonOptions,
    min_direction: bool,
) -> Result<(usize, Option<FailReason>)> {
    let n = z.len();
    let mut fz = vec![0.0; n];
    let mut phi = vec![0.0; n];
    let (mut da, mut db) = (vec![0.0; n], vec![0.0; n]);
    let kind = o.function;
    if o.arc_search {
        // the projected search keeps the iterates in the box: start there
        for i in 0..n {
            z[i] = z[i].max(lb[i]).min(ub[i]);
        }
    }
    ev.value(z, &mut fz, 0)?;
    let mut psi = merit(kind, z, &fz, lb, ub, &mut phi, &mut da, &mut db);
    let mut jac = DMatrix::zeros(n, n);
    let (mut zt, mut ft, mut phit) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut dat, mut dbt) = (vec![0.0; n], vec![0.0; n]);
    let mut setting = Setting { set: SetRef::Bounds { lb: Cow::Borrowed(lb), ub: Cow::Borrowed(ub) }, measure };
    for k in 0..o.iter.max_iter {
        if super::error(&mut setting, ev, z, &fz, k)? <= o.iter.tol {
            return Ok((k, None));
        }
        ev.jacobian(z, &fz, &mut jac, k + 1)?;
        // H_FB = diag(d_a) + diag(d_b) ∇F and ∇Ψ = H_FBᵀ Φ
        let h_fb = DMatrix::from_fn(n, n, |i, j| db[i] * jac[(i, j)] + if i == j { da[i] } else { 0.0 });
        let grad = h_fb.tr_mul(&DVector::from_column_slice(&phi));
        let (h, rhs) = if min_direction {
            let mut r = DVector::zeros(n);
            let mut cd = vec![(0.0, 0.0); n];
            for i in 0..n {
                let (v, a, b) = natural_box(z[i], fz[i], lb[i], ub[i]);
                r[i] = -v;
                cd[i] = (a, b);
            }
            (DMatrix::from_fn(n, n, |i, j| cd[i].1 * jac[(i, j)] + if i == j { cd[i].0 } else { 0.0 }), r)
        } else {
            (h_fb, -DVector::from_column_slice(&phi))
        };
        let newton = h.lu().solve(&rhs).filter(|d| d.iter().all(|v| v.is_finite()));
        // Siconos's rule: the full Newton step when it decreases the merit enough
        if let (Some(kappa), Some(dd)) = (o.newton_acceptance, &newton) {
            for i in 0..n {
                zt[i] = z[i] + dd[i];
            }
            if ev.try_value(&zt, &mut ft, k + 1)? {
                let psit = merit(kind, &zt, &ft, lb, ub, &mut phit, &mut dat, &mut dbt);
                if psit <= kappa * psi {
                    psi = psit;
                    z.copy_from_slice(&zt);
                    std::mem::swap(&mut fz, &mut ft);
                    std::mem::swap(&mut phi, &mut phit);
                    std::mem::swap(&mut da, &mut dat);
                    std::mem::swap(&mut db, &mut dbt);
                    continue;
                }
            }
        }
        let mut d = newton;
        if let Some(dd) = &d {
            let slope = grad.dot(dd);
            if slope > -o.descent_rho * dd.norm().powf(o.descent_p) {
                d = None;
            }
        }
        let d = d.unwrap_or_else(|| -&grad);
        let slope = grad.dot(&d);
        if !(slope < 0.0) {
            // ∇Ψ = 0 at a point that is not a solution: a stationary point of the merit
            return Ok((k, Some(FailReason::Stalled)));
        }
        let mut t = o.first_step;
        loop {
            for i in 0..n {
                zt[i] = z[i] + t * d[i];
                if o.arc_search {
                    zt[i] = zt[i].max(lb[i]).min(ub[i]);
                }
            }
            if ev.try_value(&zt, &mut ft, k + 1)? {
                let psit = merit(kind, &zt, &ft, lb, ub, &mut phit, &mut dat, &mut dbt);
                if psit <= psi + o.sigma * t * slope {
                    psi = psit;
                    break;
                }
                if o.continue_after_search_failure && t * o.beta < o.min_step {
                    // Siconos takes the smallest step tried and goes on
                    psi = psit;
                    break;
                }
            }
            t *= o.beta;
            if t < o.min_step {
                return Ok((k, Some(FailReason::LineSearch)));
            }
        }
        z.copy_from_slice(&zt);
        std::mem::swap(&mut fz, &mut ft);
        std::mem::swap(&mut phi, &mut phit);
        std::mem::swap(&mut da, &mut dat);
        std::mem::swap(&mut db, &mut dbt);
    }
    Ok((o.iter.max_iter, None))
}

/// Fills `Φ` and its Jacobian coefficients; returns `Ψ = ½ ‖Φ‖²`.
#[allow(clippy::too_many_arguments)]
fn merit(
    kind: BoxFunction,
    z: &[f64],
    fz: &[f64],
    lb: &[f64],
    ub: &[f64],
    phi: &mut [f64],
    da: &mut [f64],
    db: &mut [f64],
) -> f64 {
    let mut s = 0.0;
    for i in 0..z.len() {
        let (p, a, b) = match kind {
            BoxFunction::FischerBurmeister => fb_box(z[i], fz[i], lb[i], ub[i]),
            BoxFunction::Qi => qi_box(z[i], fz[i], lb[i], ub[i]),
        };
        phi[i] = p;
        da[i] = a;
        db[i] = b;
        s += p * p;
    }
    0.5 * s
}
