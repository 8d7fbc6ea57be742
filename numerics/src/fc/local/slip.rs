//! Closed-form sliding regime of one 3D contact whose block does not couple the normal and
//! tangential directions (`W_NT = W_TN = 0` to round-off: spheres, and any contact whose point
//! lies on the line of the body centres).
//!
//! With `q_N < 0` the reaction has `r_N > 0`, hence `u_N = 0` and, decoupled,
//! `r_N = −q_N / W_NN`. The tangential part of the Coulomb law is then the optimality condition of
//! `min ½ r_Tᵀ W_TT r_T + q_Tᵀ r_T` on the disk `‖r_T‖ ≤ R = μ r_N` (`−u_T` in the normal cone of
//! the disk at `r_T`). When the unconstrained minimum `−W_TT⁻¹ q_T` is outside the disk (the
//! contact does not stick), the minimizer is on the circle: `(W_TT + λ I) r_T = −q_T`,
//! `‖r_T‖ = R`, `λ > 0`, and then `u_T = −λ r_T`, which is the sliding law
//! `r_T = −μ r_N u_T / ‖u_T‖`. `λ` is the root of the secular equation
//! `ψ(λ) = 1/R − 1/‖r_T(λ)‖`, found by Newton's method from `λ = 0` (as in Moré–Sorensen's
//! trust-region solver; `ψ` is nearly linear, exactly linear when `W_TT` is a multiple of the
//! identity, as for spheres: then one step).

use nalgebra::{Matrix3, Vector3};

/// `|W_NT|, |W_TN| ≤ COUPLING · sqrt(W_NN · λ(W_TT))` counts as decoupled. The caller accepts the
/// candidate only if the one-contact residual test passes, so this only decides whether trying
/// costs less than it saves.
const COUPLING: f64 = 1e-10;
/// A block whose normal–tangential coupling and tangential anisotropy (`|W_TT,11 − W_TT,22|`,
/// `|W_TT,12|`) are at most `ISOTROPY · W_TT,11` is treated as `diag(w_N, w_T, w_T)` by
/// [`IsotropicBlock`]. Sphere contacts have both at round-off (≤ 1e-15 relative on the
/// spheres_in_a_box scene), so the closed-form sliding reaction then meets the one-contact
/// stopping test of the NSGS (`10⁻¹⁴` relative) without being checked.
const ISOTROPY: f64 = 1e-14;
/// Newton's method on the secular equation stops when `|‖r_T‖ − R| ≤ SECULAR_TOL · R`.
const SECULAR_TOL: f64 = 1e-15;
/// Iteration cap of that Newton method (quadratic convergence: a few steps suffice).
const SECULAR_MAX_ITER: usize = 30;

/// The sliding reaction of a decoupled block, or `None` when the block couples the normal and
/// tangential directions, is not positive definite, `q_N ≥ 0`, or the contact sticks (the caller
/// has ruled that case out first). The result solves the Coulomb law exactly up to round-off when
/// `W_NT = 0`; the caller checks it with its local residual test.
pub fn decoupled_slip(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64) -> Option<Vector3<f64>> {
    let wnn = w[(0, 0)];
    let (a, b, c) = (w[(1, 1)], 0.5 * (w[(1, 2)] + w[(2, 1)]), w[(2, 2)]);
    let det = a * c - b * b;
    if !(wnn > 0.0 && a > 0.0 && det > 0.0) || q[0] >= 0.0 || mu <= 0.0 {
        return None;
    }
    let coupling = w[(0, 1)].abs().max(w[(0, 2)].abs()).max(w[(1, 0)].abs()).max(w[(2, 0)].abs());
    if coupling > COUPLING * (wnn * a.min(c)).sqrt() {
        return None;
    }
    let rn = -q[0] / wnn;
    let radius = mu * rn;
    let (g1, g2) = (q[1], q[2]);
    // x(λ) = −(A + λI)⁻¹ g with A = [[a, b], [b, c]] (closed-form 2×2 inverse).
    let solve = |lam: f64, v1: f64, v2: f64| {
        let (aa, cc) = (a + lam, c + lam);
        let d = aa * cc - b * b;
        ((cc * v1 - b * v2) / d, (aa * v2 - b * v1) / d)
    };
    let mut lam = 0.0;
    let (mut x1, mut x2) = solve(lam, -g1, -g2);
    let mut nx = (x1 * x1 + x2 * x2).sqrt();
    if nx <= radius || nx.is_nan() {
        return None; // sticks (or q_T = 0): not this regime
    }
    for _ in 0..SECULAR_MAX_ITER {
        if (nx - radius).abs() <= SECULAR_TOL * radius {
            break;
        }
        // ψ(λ) = 1/R − 1/‖x‖, ψ'(λ) = −xᵀ(A + λI)⁻¹x / ‖x‖³; Newton: λ ← λ − ψ/ψ'.
        let (y1, y2) = solve(lam, x1, x2);
        let xy = x1 * y1 + x2 * y2;
        if xy <= 0.0 || xy.is_nan() {
            return None;
        }
        lam += (nx - radius) / radius * nx * nx / xy;
        (x1, x2) = solve(lam, -g1, -g2);
        nx = (x1 * x1 + x2 * x2).sqrt();
    }
    let r = Vector3::new(rn, x1 * radius / nx, x2 * radius / nx);
    (lam > 0.0 && r.iter().all(|v| v.is_finite())).then_some(r)
}

/// A diagonal block `W_αα = diag(w_N, w_T, w_T)` to round-off (spheres: the contact point is on
/// the line of the centres and the tangent plane has no preferred direction).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IsotropicBlock {
    /// `W_NN`.
    pub w_n: f64,
    /// `W_TT,11` (= `W_TT,22`).
    pub w_t: f64,
}

impl IsotropicBlock {
    /// The block as `diag(w_N, w_T, w_T)` when it is positive definite, decoupled and isotropic
    /// to `ISOTROPY`; `None` otherwise.
    pub fn of(w: &Matrix3<f64>) -> Option<Self> {
        let (w_n, w_t) = (w[(0, 0)], w[(1, 1)]);
        if !(w_n > 0.0 && w_t > 0.0 && w_n.is_finite() && w_t.is_finite()) {
            return None;
        }
        let coupling = w[(0, 1)].abs().max(w[(0, 2)].abs()).max(w[(1, 0)].abs()).max(w[(2, 0)].abs());
        let anisotropy = (w[(2, 2)] - w_t).abs().max(w[(1, 2)].abs()).max(w[(2, 1)].abs());
        (coupling.max(anisotropy) <= ISOTROPY * w_t).then_some(IsotropicBlock { w_n, w_t })
    }

    /// The sliding reaction in closed form, for a contact known not to separate or stick:
    /// `r_N = −q_N / w_N` (so `u_N = 0`) and `r_T = −μ r_N q_T / ‖q_T‖`, so that
    /// `u_T = (1 − w_T μ r_N / ‖q_T‖) q_T` points against `r_T` (the sliding law; [`decoupled_slip`]'s
    /// secular equation has the root `λ = ‖q_T‖ / (μ r_N) − w_T` here). `None` when `q_N ≥ 0`,
    /// `q_T = 0` or `μ < 0`.
    #[inline]
    pub fn slide(&self, q: &Vector3<f64>, mu: f64) -> Option<Vector3<f64>> {
        let qt = (q[1] * q[1] + q[2] * q[2]).sqrt();
        if !(q[0] < 0.0 && qt > 0.0 && mu >= 0.0) {
            return None;
        }
        let rn = -q[0] / self.w_n;
        let s = -mu * rn / qt;
        let r = Vector3::new(rn, s * q[1], s * q[2]);
        r.iter().all(|v| v.is_finite()).then_some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fc::local::local_residual;

    /// On decoupled blocks (isotropic and anisotropic tangential parts) with a sliding solution,
    /// the candidate satisfies the Coulomb law: `u_N = 0`, `‖r_T‖ = μ r_N`, `r_T` opposite to
    /// `u_T`, and the natural-map residual is at round-off; a coupled block is declined.
    #[test]
    fn sliding_candidate_solves_the_contact() {
        let cases = [
            (Matrix3::from_diagonal(&Vector3::new(2.0, 7.0, 7.0)), Vector3::new(-1.0, 3.0, -4.0), 0.3),
            (Matrix3::new(1.5, 0.0, 0.0, 0.0, 4.0, 1.2, 0.0, 1.2, 2.5), Vector3::new(-0.2, 1.0, 0.7), 0.5),
            (Matrix3::new(3.0, 0.0, 0.0, 0.0, 1.0, -0.4, 0.0, -0.4, 9.0), Vector3::new(-2.0, -5.0, 0.1), 0.1),
        ];
        for (w, q, mu) in cases {
            let r = decoupled_slip(&w, &q, mu).expect("sliding regime");
            let u = w * r + q;
            let (rt, ut) = ((r[1] * r[1] + r[2] * r[2]).sqrt(), (u[1] * u[1] + u[2] * u[2]).sqrt());
            assert!(u[0].abs() <= 1e-14 * q.norm(), "u_N = {}", u[0]);
            assert!((rt - mu * r[0]).abs() <= 1e-14 * r[0], "‖r_T‖ = {rt}, μ r_N = {}", mu * r[0]);
            let cos = (r[1] * u[1] + r[2] * u[2]) / (rt * ut);
            assert!((cos + 1.0).abs() <= 1e-12, "r_T not opposite to u_T: cos = {cos}");
            assert!(local_residual(&w, &q, mu, &r) <= 1e-14 * q.norm(), "{}", local_residual(&w, &q, mu, &r));
        }
        let coupled = Matrix3::new(2.0, 0.3, 0.0, 0.3, 7.0, 0.0, 0.0, 0.0, 7.0);
        assert!(decoupled_slip(&coupled, &Vector3::new(-1.0, 3.0, -4.0), 0.3).is_none());
        // Sticking and separating contacts are not this regime.
        let w = Matrix3::from_diagonal(&Vector3::new(2.0, 7.0, 7.0));
        assert!(decoupled_slip(&w, &Vector3::new(-1.0, 0.01, 0.0), 0.3).is_none());
        assert!(decoupled_slip(&w, &Vector3::new(1.0, 3.0, 0.0), 0.3).is_none());
    }

    /// The closed form on an isotropic block solves the Coulomb law (sliding: `u_N = 0`,
    /// `‖r_T‖ = μ r_N`, `r_T` against `u_T`), agrees with the secular-equation solver, and is
    /// offered only for decoupled isotropic blocks.
    #[test]
    fn isotropic_slide_is_the_sliding_solution() {
        let w = Matrix3::from_diagonal(&Vector3::new(2.0, 7.0, 7.0));
        let iso = IsotropicBlock::of(&w).expect("isotropic");
        for (q, mu) in [(Vector3::new(-1.0, 3.0, -4.0), 0.3), (Vector3::new(-0.5, -0.2, 9.0), 0.05)] {
            let r = iso.slide(&q, mu).expect("sliding");
            let u = w * r + q;
            let (rt, ut) = ((r[1] * r[1] + r[2] * r[2]).sqrt(), (u[1] * u[1] + u[2] * u[2]).sqrt());
            assert!(u[0].abs() <= 1e-15 * q.norm());
            assert!((rt - mu * r[0]).abs() <= 1e-15 * r[0]);
            assert!(((r[1] * u[1] + r[2] * u[2]) / (rt * ut) + 1.0).abs() <= 1e-14);
            assert!(local_residual(&w, &q, mu, &r) <= 1e-14 * q.norm());
            let s = decoupled_slip(&w, &q, mu).expect("secular");
            assert!((r - s).norm() <= 1e-14 * r.norm(), "{r} vs {s}");
        }
        assert!(iso.slide(&Vector3::new(1.0, 3.0, 0.0), 0.3).is_none());
        assert!(iso.slide(&Vector3::new(-1.0, 0.0, 0.0), 0.3).is_none());
        let anisotropic = Matrix3::new(2.0, 0.0, 0.0, 0.0, 7.0, 0.0, 0.0, 0.0, 7.0 + 1e-9);
        assert!(IsotropicBlock::of(&anisotropic).is_none());
        let coupled = Matrix3::new(2.0, 1e-9, 0.0, 1e-9, 7.0, 0.0, 0.0, 0.0, 7.0);
        assert!(IsotropicBlock::of(&coupled).is_none());
        let rounded = Matrix3::new(2.0, 1e-16, 0.0, 1e-16, 7.0, 2e-16, 0.0, 2e-16, 7.0 * (1.0 + 1e-15));
        assert!(IsotropicBlock::of(&rounded).is_some());
    }
}
