//! The Siconos LCP residual (`lcp_compute_error`, siconos-error-measures.md §1).

use crate::matrix::Operator;

/// `DBL_EPSILON`, the threshold below which Siconos does not scale by `‖q‖`.
pub const DBL_EPSILON: f64 = f64::EPSILON;

/// Siconos `lcp_compute_error`: with `w = M z + q`,
/// `e = ‖min(z, w)‖ / ‖q‖` if `‖q‖ > DBL_EPSILON`, else `‖min(z, w)‖`.
///
/// Dimensions are the caller's responsibility (an [`crate::lcp::Lcp`] guarantees them).
pub fn lcp_error(m: &Operator, q: &[f64], z: &[f64]) -> f64 {
    let mut w = q.to_vec();
    m.matvec_add(1.0, z, &mut w);
    lcp_error_zw(z, &w, norm(q))
}

/// The residual of [`lcp_error`] from a `w = M z + q` already computed and `‖q‖`.
pub fn lcp_error_zw(z: &[f64], w: &[f64], q_norm: f64) -> f64 {
    let e: f64 = z
        .iter()
        .zip(w)
        .map(|(&a, &b)| {
            // z − max(0, z − w), exactly as Siconos writes it.
            let d = a - (a - b).max(0.0);
            d * d
        })
        .sum::<f64>()
        .sqrt();
    if q_norm > DBL_EPSILON {
        e / q_norm
    } else {
        e
    }
}

/// Euclidean norm.
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn error_is_natural_map_scaled_by_q() {
        let m = Operator::Dense(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]));
        let q = [-5.0, -6.0];
        // exact solution z = (4/3, 7/3), w = 0
        assert!(lcp_error(&m, &q, &[4.0 / 3.0, 7.0 / 3.0]) < 1e-15);
        // z = 0: w = q, min(z, w) = q, error = 1
        assert!((lcp_error(&m, &q, &[0.0, 0.0]) - 1.0).abs() < 1e-15);
        // q = 0: unscaled
        let e = lcp_error(&m, &[0.0, 0.0], &[-1.0, 0.0]);
        // w = (-2, -1), min(z,w) = (-2, -1)
        assert!((e - 5f64.sqrt()).abs() < 1e-14);
    }
}
