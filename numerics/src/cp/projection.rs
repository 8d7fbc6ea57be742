//! Projection methods for a VI on any closed convex `K` (Siconos `VI_FPP`, `VI_EG`), with the
//! self-adaptive step of Khobotov / Marcotte as Siconos uses it: at iterate `x`,
//! `x̄ = P_K(x − ρ F(x))`; while `ρ ‖F(x̄) − F(x)‖ > L ‖x̄ − x‖` the step shrinks (`ρ ← τ ρ`),
//! and after an accepted step whose ratio is below `L_min` it grows (`ρ ← ρ τ_inv`).
//!
//! * fixed-point projection: `x ← x̄`;
//! * extragradient (Korpelevich): `x ← P_K(x − ρ F(x̄))`.
//!
//! Convergence needs `F` monotone (extragradient) or strongly monotone (fixed point) and
//! Lipschitz on `K`.

use super::eval::{user_err, Eval};
use super::{check_user_finite, ProjectionOptions, SetRef, Setting};
use crate::error::Result;
use crate::report::FailReason;

fn project(s: &mut Setting<'_>, x: &[f64], out: &mut [f64], iteration: usize) -> Result<()> {
    match &mut s.set {
        SetRef::Bounds { lb, ub } => {
            for i in 0..x.len() {
                out[i] = x[i].max(lb[i]).min(ub[i]);
            }
            Ok(())
        }
        SetRef::General(set) => {
            set.project(x, out).map_err(|e| user_err("projection", iteration, e))?;
            check_user_finite("projection", iteration, out)
        }
    }
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// Returns `(iterations, failure)`; `x` holds the last iterate.
pub(super) fn solve(
    ev: &mut Eval<'_>,
    s: &mut Setting<'_>,
    x: &mut [f64],
    o: &ProjectionOptions,
    extragradient: bool,
) -> Result<(usize, Option<FailReason>)> {
    let n = x.len();
    let (mut fx, mut y, mut xb, mut fb, mut xn) =
        (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    // start in K
    y.copy_from_slice(x);
    project(s, &y, x, 0)?;
    ev.value(x, &mut fx, 0)?;
    let mut rho = o.rho;
    for k in 0..o.iter.max_iter {
        if super::error(s, ev, x, &fx, k)? <= o.iter.tol {
            return Ok((k, None));
        }
        let mut reductions = 0;
        let ratio = loop {
            for i in 0..n {
                y[i] = x[i] - rho * fx[i];
            }
            project(s, &y, &mut xb, k + 1)?;
            ev.value(&xb, &mut fb, k + 1)?;
            let dx = dist(&xb, x);
            if !o.adaptive || dx == 0.0 {
                break 0.0;
            }
            let r = rho * dist(&fb, &fx) / dx;
            if r <= o.l {
                break r;
            }
            rho *= o.tau;
            reductions += 1;
            if reductions > o.max_reductions {
                return Ok((k, Some(FailReason::LineSearch)));
            }
        };
        if extragradient {
            for i in 0..n {
                y[i] = x[i] - rho * fb[i];
            }
            project(s, &y, &mut xn, k + 1)?;
            x.copy_from_slice(&xn);
            ev.value(x, &mut fx, k + 1)?;
        } else {
            x.copy_from_slice(&xb);
            fx.copy_from_slice(&fb);
        }
        if o.adaptive && ratio < o.l_min {
            rho *= o.tau_inv;
        }
    }
    Ok((o.iter.max_iter, None))
}
