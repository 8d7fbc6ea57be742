//! The error Siconos reports for friction contact (`fc3d_compute_error`, `fc2d_compute_error`),
//! `siconos-error-measures.md` §2.1 and §2.4.

use super::cone::project_on_cone;
use super::FrictionContact;

/// `DBL_EPSILON`.
pub(crate) const DBL_EPSILON: f64 = f64::EPSILON;

/// Absolute natural-map residual `sqrt(Σ_α ‖r_α − P_{K_α}(r_α − û_α)‖²)` with the De Saxcé
/// velocity `û_α = u_α + μ_α ‖u_{α,T}‖ e_N`.
pub fn natural_map_residual(dim: usize, mu: &[f64], r: &[f64], u: &[f64]) -> f64 {
    // Four partial sums over the contacts (a % 4), for the same reason as `norm`.
    let mut s = [0.0; 4];
    for (a, &m) in mu.iter().enumerate() {
        s[a % 4] += natural_map_contact(m, &r[a * dim..(a + 1) * dim], &u[a * dim..(a + 1) * dim]);
    }
    ((s[0] + s[1]) + (s[2] + s[3])).sqrt()
}

/// One contact's term of [`natural_map_residual`], `‖r_α − P_{K_α}(r_α − û_α)‖²` (`ra`, `ua` of
/// length 2 or 3).
#[inline]
pub(crate) fn natural_map_contact(mu: f64, ra: &[f64], ua: &[f64]) -> f64 {
    let dim = ra.len();
    let mut x = [0.0; 3];
    let ut = ua[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
    for k in 0..dim {
        x[k] = ra[k] - ua[k];
    }
    x[0] -= mu * ut;
    project_on_cone(&mut x[..dim], mu);
    let mut ea = 0.0;
    for k in 0..dim {
        let e = ra[k] - x[k];
        ea += e * e;
    }
    ea
}

/// `‖v‖`, summed in four interleaved partial sums: one chain of additions through `v` would cost
/// as much as the rest of an NSGS sweep on a small problem (the sweep and the error check call
/// this every time).
pub(crate) fn norm(v: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let chunks = v.chunks_exact(4);
    let tail: f64 = chunks.remainder().iter().map(|x| x * x).sum();
    for c in chunks {
        for k in 0..4 {
            acc[k] += c[k] * c[k];
        }
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3]) + tail).sqrt()
}

/// The normalized error given `u = W r + q` already computed:
/// `e = natural_map_residual / max(‖q‖, ‖r‖, ‖u‖)` (unscaled when that max is ≤ DBL_EPSILON).
pub fn fc_error_with_u(p: &FrictionContact, r: &[f64], u: &[f64]) -> f64 {
    let e = natural_map_residual(p.dim(), p.mu(), r, u);
    let scale = p.q_norm().max(norm(r)).max(norm(u));
    if scale > DBL_EPSILON {
        e / scale
    } else {
        e
    }
}

/// Siconos's `fc3d_compute_error` / `fc2d_compute_error` with `norm = ‖q‖`: recomputes
/// `u = W r + q` and returns `‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖)`.
pub fn fc_error(p: &FrictionContact, r: &[f64]) -> f64 {
    let mut u = p.q().to_vec();
    p.w().matvec_add(1.0, r, &mut u);
    fc_error_with_u(p, r, &u)
}
