//! The rolling-friction cone (Siconos `projectionOnRollingCone`):
//! `K_{μ,μr} = { r = (r_N, r_T, r_R) : r_N ≥ 0, ‖r_T‖ ≤ μ r_N, ‖r_R‖ ≤ μ_r r_N }`, the
//! intersection of the Coulomb cone with a cone on the rolling components, in 3D (`r_T`, `r_R`
//! in R², 5 components) or 2D (`r_T`, `r_R` scalars, 3 components). Its dual is
//! `K* = { u : u_N ≥ μ ‖u_T‖ + μ_r ‖u_R‖ }`.

/// Euclidean projection of `x = (x_N, x_T, x_R)` (length 5: `x_T`, `x_R` in R²; or length 3:
/// scalars) on `K_{μ,μr}`, in place.
///
/// The projection keeps the directions of `x_T` and `x_R`; with `a = ‖x_T‖`, `b = ‖x_R‖` it
/// minimizes over `n ≥ 0` the convex piecewise quadratic
/// `f(n) = (n − x_N)² + (a − μ n)₊² + (b − μ_r n)₊²` (for a given `n` the nearest tangential and
/// rolling norms are `min(a, μ n)` and `min(b, μ_r n)`), whose derivative is monotone and
/// linear between the breakpoints `a/μ` and `b/μ_r`: its zero is found exactly. The cases are
/// Siconos's: polar cone (`x_N + μ a + μ_r b ≤ 0`, `P = 0`), inside, on the friction boundary
/// only, on the rolling boundary only, on both (`n = (x_N + μ a + μ_r b)/(1 + μ² + μ_r²)`).
pub fn project_on_rolling_cone(x: &mut [f64], mu: f64, mu_r: f64) {
    let k = (x.len() - 1) / 2;
    let a = x[1..1 + k].iter().map(|v| v * v).sum::<f64>().sqrt();
    let b = x[1 + k..].iter().map(|v| v * v).sum::<f64>().sqrt();
    let x0 = x[0];
    if x0 >= 0.0 && a <= mu * x0 && b <= mu_r * x0 {
        return; // inside
    }
    let n = if x0 + mu * a + mu_r * b <= 0.0 { 0.0 } else { minimize_n(x0, a, b, mu, mu_r) };
    let t = a.min(mu * n);
    let s = b.min(mu_r * n);
    x[0] = n;
    let st = if a > 0.0 { t / a } else { 0.0 };
    let sr = if b > 0.0 { s / b } else { 0.0 };
    x[1..1 + k].iter_mut().for_each(|v| *v *= st);
    x[1 + k..].iter_mut().for_each(|v| *v *= sr);
}

/// The zero `n > 0` of `f'(n)/2 = n − x_N − μ (a − μ n)₊ − μ_r (b − μ_r n)₊`, given
/// `f'(0) < 0`: locate the linear piece between breakpoints, then solve it.
fn minimize_n(x0: f64, a: f64, b: f64, mu: f64, mu_r: f64) -> f64 {
    let fp = |n: f64| n - x0 - mu * (a - mu * n).max(0.0) - mu_r * (b - mu_r * n).max(0.0);
    let bp = |c: f64, m: f64| if m > 0.0 { c / m } else { f64::INFINITY };
    let (b1, b2) = (bp(a, mu), bp(b, mu_r));
    let (lo, hi) = (b1.min(b2), b1.max(b2));
    // The piece [start, end) holding the zero; its active terms are those whose breakpoint is
    // beyond `start`.
    let start = if lo.is_finite() && fp(lo) < 0.0 {
        if hi.is_finite() && fp(hi) < 0.0 {
            hi
        } else {
            lo
        }
    } else {
        0.0
    };
    let t_on = mu > 0.0 && b1 > start;
    let r_on = mu_r > 0.0 && b2 > start;
    let mut num = x0;
    let mut den = 1.0;
    if t_on {
        num += mu * a;
        den += mu * mu;
    }
    if r_on {
        num += mu_r * b;
        den += mu_r * mu_r;
    }
    (num / den).max(0.0)
}

/// `true` when `x ∈ K_{μ,μr}` up to the absolute slack `eps`.
pub fn in_rolling_cone(x: &[f64], mu: f64, mu_r: f64, eps: f64) -> bool {
    let k = (x.len() - 1) / 2;
    let a = x[1..1 + k].iter().map(|v| v * v).sum::<f64>().sqrt();
    let b = x[1 + k..].iter().map(|v| v * v).sum::<f64>().sqrt();
    x[0] >= -eps && a <= mu * x[0] + eps && b <= mu_r * x[0] + eps
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Values of Siconos 4.4's `projectionOnRollingCone` (μ = 0.5, μ_r = 0.3), all on both
    /// boundaries or at 0, computed with its Python binding.
    #[test]
    fn matches_siconos_values() {
        let cases: [([f64; 5], [f64; 5]); 3] = [
            (
                [0.25146044, -0.26420973, 1.2808453, 0.20980023, -1.07133875],
                [0.92005427, -0.09293665, 0.45054161, 0.05304471, -0.27087127],
            ),
            (
                [0.72319011, 2.60800009, 1.89416193, -1.40747047, -2.53084294],
                [2.39074141, 0.96719178, 0.70246081, -0.34858775, -0.62681304],
            ),
            ([-1.46453471, -1.08851797, -0.63260031, 0.82326107, 2.08502674], [0.0; 5]),
        ];
        for (x, want) in cases {
            let mut p = x;
            project_on_rolling_cone(&mut p, 0.5, 0.3);
            for k in 0..5 {
                assert!((p[k] - want[k]).abs() < 2e-8, "{x:?}: {p:?} vs {want:?}");
            }
        }
    }

    #[test]
    fn one_boundary_only() {
        // Friction boundary only: x_R small stays.
        let mut p = [1.0, 2.0, 0.0, 0.01, 0.0];
        project_on_rolling_cone(&mut p, 0.5, 0.3);
        let n = (1.0 + 0.5 * 2.0) / 1.25;
        assert!((p[0] - n).abs() < 1e-15 && (p[1] - 0.5 * n).abs() < 1e-15 && p[3] == 0.01);
        // Rolling boundary only.
        let mut p = [1.0, 0.1, 0.0, 0.0, 2.0];
        project_on_rolling_cone(&mut p, 0.5, 0.3);
        let n = (1.0 + 0.3 * 2.0) / 1.09;
        assert!((p[0] - n).abs() < 1e-15 && (p[4] - 0.3 * n).abs() < 1e-15 && p[1] == 0.1);
    }

    fn check_projection(x: &[f64], p: &[f64], mu: f64, mu_r: f64) -> std::result::Result<(), TestCaseError> {
        let scale = 1.0 + x.iter().map(|v| v.abs()).sum::<f64>();
        prop_assert!(in_rolling_cone(p, mu, mu_r, 1e-12 * scale));
        // Characterisation on a closed convex cone: d = x − P(x) ⟂ P(x) and −d ∈ K*.
        let d: Vec<f64> = x.iter().zip(p).map(|(a, b)| a - b).collect();
        let dot: f64 = d.iter().zip(p).map(|(a, b)| a * b).sum();
        prop_assert!(dot.abs() <= 1e-10 * scale * scale, "dot {dot}");
        let k = (x.len() - 1) / 2;
        let dt = d[1..1 + k].iter().map(|v| v * v).sum::<f64>().sqrt();
        let dr = d[1 + k..].iter().map(|v| v * v).sum::<f64>().sqrt();
        prop_assert!(-d[0] >= mu * dt + mu_r * dr - 1e-10 * scale, "dual {:?}", d);
        Ok(())
    }

    proptest! {
        #[test]
        fn projection_characterisation(x in prop::array::uniform5(-10.0..10.0f64), mu in 0.0..2.0f64, mu_r in 0.0..1.0f64) {
            let mut p = x;
            project_on_rolling_cone(&mut p, mu, mu_r);
            check_projection(&x, &p, mu, mu_r)?;
            let mut pp = p;
            project_on_rolling_cone(&mut pp, mu, mu_r);
            for k in 0..5 { prop_assert!((pp[k] - p[k]).abs() <= 1e-12 * (1.0 + p[k].abs())); }
        }

        #[test]
        fn projection_characterisation_2d(x in prop::array::uniform3(-10.0..10.0f64), mu in 0.0..2.0f64, mu_r in 0.0..1.0f64) {
            let mut p = x;
            project_on_rolling_cone(&mut p, mu, mu_r);
            check_projection(&x, &p, mu, mu_r)?;
        }
    }
}
