//! Projection on the Coulomb cone `K_μ = { x = (x_N, x_T) : ‖x_T‖ ≤ μ x_N }` (2D or 3D).

use nalgebra::Vector3;

/// Projects `x = (x_N, x_T…)` (length 2 or 3) on `K_μ` in place, Siconos's `projectionOnCone`:
/// with `t = ‖x_T‖`,
/// * `μ t ≤ −x_N` (x in the polar cone): `P(x) = 0`;
/// * `t ≤ μ x_N` (x in the cone): `P(x) = x`;
/// * otherwise `p_N = (μ t + x_N)/(μ² + 1)`, `P(x) = (p_N, μ p_N x_T / t)`.
pub fn project_on_cone(x: &mut [f64], mu: f64) {
    let t = x[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
    if mu * t <= -x[0] {
        x.iter_mut().for_each(|v| *v = 0.0);
    } else if t <= mu * x[0] {
        // inside
    } else {
        let pn = (mu * t + x[0]) / (mu * mu + 1.0);
        x[0] = pn;
        let s = if t > 0.0 { mu * pn / t } else { 0.0 };
        x[1..].iter_mut().for_each(|v| *v *= s);
    }
}

/// [`project_on_cone`] for a 3D contact held in a `Vector3`.
pub fn project_on_cone3(mut x: Vector3<f64>, mu: f64) -> Vector3<f64> {
    project_on_cone(x.as_mut_slice(), mu);
    x
}

/// Projection of `x` on the closed disk (2D: interval) of radius `radius ≥ 0` centred at 0.
pub fn project_on_disk(x: &mut [f64], radius: f64) {
    let t = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    if t > radius {
        let s = if t > 0.0 { radius / t } else { 0.0 };
        x.iter_mut().for_each(|v| *v *= s);
    }
}

/// `true` when `x ∈ K_μ` up to the absolute slack `eps`.
pub fn in_cone(x: &[f64], mu: f64, eps: f64) -> bool {
    let t = x[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
    t <= mu * x[0] + eps
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn projection_lands_in_cone_and_is_idempotent(xn in -10.0..10.0f64, t1 in -10.0..10.0f64, t2 in -10.0..10.0f64, mu in 0.0..2.0f64) {
            let mut p = [xn, t1, t2];
            project_on_cone(&mut p, mu);
            prop_assert!(in_cone(&p, mu, 1e-12));
            let mut pp = p;
            project_on_cone(&mut pp, mu);
            for k in 0..3 { prop_assert!((pp[k] - p[k]).abs() <= 1e-12 * (1.0 + p[k].abs())); }
            // Characterisation of the projection on a closed convex cone: x − P(x) ⟂ P(x) and
            // x − P(x) lies in the polar cone, i.e. −(x − P(x)) ∈ K* = K_{1/μ}.
            let d = [xn - p[0], t1 - p[1], t2 - p[2]];
            let dot = d[0] * p[0] + d[1] * p[1] + d[2] * p[2];
            prop_assert!(dot.abs() <= 1e-9 * (1.0 + xn.abs() + t1.abs() + t2.abs()).powi(2));
            let dt = (d[1] * d[1] + d[2] * d[2]).sqrt();
            prop_assert!(mu * dt <= -d[0] + 1e-9 * (1.0 + xn.abs() + t1.abs() + t2.abs()));
        }

        #[test]
        fn projection_2d_matches_3d(xn in -10.0..10.0f64, t in -10.0..10.0f64, mu in 0.0..2.0f64) {
            let mut p2 = [xn, t];
            let mut p3 = [xn, t, 0.0];
            project_on_cone(&mut p2, mu);
            project_on_cone(&mut p3, mu);
            prop_assert!((p2[0] - p3[0]).abs() < 1e-14 && (p2[1] - p3[1]).abs() < 1e-14 && p3[2] == 0.0);
        }
    }

    #[test]
    fn three_regions() {
        let mut x = [-1.0, 0.1, 0.0];
        project_on_cone(&mut x, 0.5);
        assert_eq!(x, [0.0, 0.0, 0.0]);
        let mut x = [1.0, 0.3, 0.0];
        project_on_cone(&mut x, 0.5);
        assert_eq!(x, [1.0, 0.3, 0.0]);
        // x = (0, 1, 0), μ = 1: p_N = 1/2, p_T = 1/2.
        let mut x = [0.0, 1.0, 0.0];
        project_on_cone(&mut x, 1.0);
        assert!((x[0] - 0.5).abs() < 1e-15 && (x[1] - 0.5).abs() < 1e-15);
    }
}
