//! One-contact projection fixed point: `r ← P_K(r − ρ û(r))`, `û = W r + q + μ‖u_T‖e_N`.

use super::{de_saxce, local_scale, step_from_block};
use crate::fc::cone::project_on_cone3;
use nalgebra::{Matrix3, Vector3};

/// Iterates until `‖Δr‖ ≤ tol · scale` or `max_iter`; returns whether it stopped on the tolerance.
pub fn solve(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, r: &mut Vector3<f64>, tol: f64, max_iter: usize) -> bool {
    let rho = step_from_block(w);
    for _ in 0..max_iter {
        let u = w * *r + q;
        let next = project_on_cone3(*r - rho * de_saxce(&u, mu), mu);
        let d = (next - *r).norm();
        *r = next;
        if d <= tol * local_scale(r, q, rho) {
            return true;
        }
    }
    false
}
