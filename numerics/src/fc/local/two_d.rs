//! Exact solution of one 2D contact `u = W r + q` (W 2×2), `K ∋ r ⟂ û ∈ K*`, by its three regimes.

use nalgebra::{Matrix2, Vector2};

/// Returns the reaction of the first regime that holds, tested in the order
/// separation (`r = 0`, needs `q_N ≥ 0`), sticking (`u = 0`, `r = −W⁻¹q ∈ K`), sliding in
/// direction `s = ±1` (`r_T = −s μ r_N`, `u_N = 0`, `r_N > 0`, `s u_T ≥ 0`).
/// `None` if no regime holds exactly (possible only for a degenerate block, e.g. `W_NN ≤ 0`).
pub fn solve_2d(w: &Matrix2<f64>, q: &Vector2<f64>, mu: f64) -> Option<Vector2<f64>> {
    if q[0] >= 0.0 {
        return Some(Vector2::zeros());
    }
    if let Some(r) = w.lu().solve(&(-q)) {
        if r[0] >= 0.0 && r[1].abs() <= mu * r[0] && r.iter().all(|x| x.is_finite()) {
            return Some(r);
        }
    }
    let mut best: Option<(f64, Vector2<f64>)> = None;
    for s in [1.0, -1.0] {
        let den = w[(0, 0)] - s * mu * w[(0, 1)];
        if den <= 0.0 {
            continue;
        }
        let rn = -q[0] / den;
        let r = Vector2::new(rn, -s * mu * rn);
        let ut = w[(1, 0)] * r[0] + w[(1, 1)] * r[1] + q[1];
        // Keep the regime whose sign condition is best satisfied (exact solutions give s·u_T ≥ 0).
        let viol = (-s * ut).max(0.0);
        if best.as_ref().is_none_or(|(v, _)| viol < *v) {
            best = Some((viol, r));
        }
    }
    best.map(|(_, r)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regimes() {
        let w = Matrix2::new(2.0, 0.5, 0.5, 1.0);
        // separation
        assert_eq!(solve_2d(&w, &Vector2::new(1.0, -3.0), 0.3), Some(Vector2::zeros()));
        // sticking: q = −W (1, 0), so r = (1, 0) with u = 0 is inside the cone
        let q = Vector2::new(-2.0, -0.5);
        let r = solve_2d(&w, &q, 0.5).unwrap();
        let u = w * r + q;
        assert!(u.norm() < 1e-14 && r[1].abs() <= 0.5 * r[0]);
        // sliding: large tangential load, r_T = −s μ r_N with u_N = 0
        let q = Vector2::new(-1.0, 5.0);
        let r = solve_2d(&w, &q, 0.5).unwrap();
        let u = w * r + q;
        assert!(u[0].abs() < 1e-14 && (r[1] + 0.5 * r[0]).abs() < 1e-14 && u[1] > 0.0);
    }
}
