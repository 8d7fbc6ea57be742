//! The Siconos MLCP error measure `mlcp_compute_error` (siconos-error-measures.md §3).

use super::problem::Mlcp;

/// The complementarity violation Siconos sums per row:
/// `c = (z<0 ? −z : 0) + (z<0 && w<0 ? z·w : 0) + (w<0 ? −w : 0) + (z>0 && w>0 ? z·w : 0)`.
pub fn comp_violation(z: f64, w: f64) -> f64 {
    let mut c = 0.0;
    if z < 0.0 {
        c -= z;
        if w < 0.0 {
            c += z * w;
        }
    }
    if w < 0.0 {
        c -= w;
    }
    if z > 0.0 && w > 0.0 {
        c += z * w;
    }
    c
}

/// Siconos `mlcp_compute_error` for `z` with `w = M z + q` recomputed (written into `w`):
///
/// * `err_e = ‖w_eq‖`, `norm_e = 1 + ‖q_eq‖` (the equality block);
/// * `err_i = Σ_c c(z_i, w_i)` ([`comp_violation`]), `norm_i = 1 + ‖w_c‖`;
/// * error `= err_i/(1+norm_i)` if `err_i/norm_i >= err_e/norm_e`, else `err_e/(1+norm_e)`.
///
/// An absent block contributes `err = 0`, `norm = 1`. Returns `+inf` for a non-finite `z`.
pub fn mlcp_compute_error(p: &Mlcp, z: &[f64], w: &mut [f64]) -> f64 {
    p.compute_w(z, w);
    error_from_zw(p, z, w)
}

/// The same measure from a `w` already equal to `M z + q`.
pub fn error_from_zw(p: &Mlcp, z: &[f64], w: &[f64]) -> f64 {
    let ne = p.n_eq();
    let (mut err_e, mut norm_e) = (0.0, 0.0);
    for i in 0..ne {
        err_e += w[i] * w[i];
        norm_e += p.q()[i] * p.q()[i];
    }
    let (err_e, norm_e) = (err_e.sqrt(), 1.0 + norm_e.sqrt());
    let (mut err_i, mut wn) = (0.0, 0.0);
    for i in ne..p.size() {
        err_i += comp_violation(z[i], w[i]);
        wn += w[i] * w[i];
    }
    let norm_i = 1.0 + wn.sqrt();
    let e = if err_i / norm_i >= err_e / norm_e { err_i / (1.0 + norm_i) } else { err_e / (1.0 + norm_e) };
    if e.is_finite() {
        e
    } else {
        f64::INFINITY
    }
}

/// Siconos-compatible convenience: the error of `z` on `p` (allocates `w`).
pub fn mlcp_error(p: &Mlcp, z: &[f64]) -> f64 {
    let mut w = vec![0.0; p.size()];
    mlcp_compute_error(p, z, &mut w)
}
