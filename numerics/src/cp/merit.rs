//! The Fischer–Burmeister function, its box form and the natural map, each with an element of
//! its generalized Jacobian written as a row `Φ'_i = d_a e_iᵀ + d_b ∇F_i`.

/// `φ(a, b) = a + b − √(a² + b²)`: `φ(a, b) = 0 ⇔ a ≥ 0, b ≥ 0, a b = 0` (Fischer–Burmeister).
pub fn fb(a: f64, b: f64) -> f64 {
    let r = a.hypot(b);
    if a > 0.0 && b > 0.0 {
        // a + b − r = 2ab / (a + b + r), without the cancellation
        2.0 * a * b / (a + b + r)
    } else {
        a + b - r
    }
}

/// `(φ, ∂φ/∂a, ∂φ/∂b)`; at `(0, 0)` the element `(1 − 1/√2, 1 − 1/√2)` of the generalized gradient.
fn fb_d(a: f64, b: f64) -> (f64, f64, f64) {
    let r = a.hypot(b);
    if r == 0.0 {
        let d = 1.0 - std::f64::consts::FRAC_1_SQRT_2;
        (0.0, d, d)
    } else {
        (fb(a, b), 1.0 - a / r, 1.0 - b / r)
    }
}

/// The box Fischer–Burmeister function of row `i` (Billups; Facchinei–Pang §9.4) and its
/// Jacobian row coefficients `(Φ_i, d_a, d_b)`, `Φ'_i = d_a e_iᵀ + d_b ∇F_i`:
///
/// * `l = −∞, u = ∞`: `Φ_i = F_i`;
/// * `l > −∞, u = ∞`: `Φ_i = φ(z_i − l_i, F_i)`;
/// * `l = −∞, u < ∞`: `Φ_i = −φ(u_i − z_i, −F_i)`;
/// * both finite: `Φ_i = φ(z_i − l_i, −φ(u_i − z_i, −F_i))`.
///
/// `Φ_i = 0` exactly when row `i` of the box MCP `l ≤ z ≤ u ⊥ F` holds.
pub fn fb_box(z: f64, f: f64, l: f64, u: f64) -> (f64, f64, f64) {
    match (l.is_finite(), u.is_finite()) {
        (false, false) => (f, 0.0, 1.0),
        (true, false) => fb_d(z - l, f),
        (false, true) => {
            let (p, pa, pb) = fb_d(u - z, -f);
            (-p, pa, pb)
        }
        (true, true) => {
            let (p2, pa2, pb2) = fb_d(u - z, -f);
            let (p1, pa1, pb1) = fb_d(z - l, -p2);
            (p1, pa1 + pb1 * pa2, pb1 * pb2)
        }
    }
}

/// The natural map of row `i`, `Φ_i = z_i − mid(l_i, u_i, z_i − F_i)`, with `(d_a, d_b) = (1, 0)`
/// where the projection is at a bound and `(0, 1)` where it is inside.
pub fn natural_box(z: f64, f: f64, l: f64, u: f64) -> (f64, f64, f64) {
    let y = z - f;
    if y <= l {
        (z - l, 1.0, 0.0)
    } else if y >= u {
        (z - u, 1.0, 0.0)
    } else {
        (f, 0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fb_zero_set_is_complementarity() {
        for (a, b) in [(0.0, 2.0), (3.0, 0.0), (0.0, 0.0)] {
            assert_eq!(fb(a, b), 0.0);
        }
        for (a, b) in [(1.0, 1.0), (-1.0, 2.0), (2.0, -1.0), (-1.0, -1.0)] {
            assert!(fb(a, b).abs() > 0.1, "{a} {b}");
        }
    }

    #[test]
    fn box_rows_vanish_exactly_at_solutions() {
        let (l, u) = (-1.0, 2.0);
        assert_eq!(fb_box(-1.0, 3.0, l, u).0, 0.0); // at l, F ≥ 0
        assert_eq!(fb_box(2.0, -3.0, l, u).0, 0.0); // at u, F ≤ 0
        assert!(fb_box(0.5, 0.0, l, u).0.abs() < 1e-15); // inside, F = 0
        assert!(fb_box(-1.0, -3.0, l, u).0.abs() > 0.1);
        assert!(fb_box(2.0, 3.0, l, u).0.abs() > 0.1);
        assert!(fb_box(0.5, 1.0, l, u).0.abs() > 0.1);
    }

    #[test]
    fn box_derivatives_match_differences() {
        // d/dz Φ(z, F(z)) with F(z) = c z + e equals d_a + d_b c
        let (l, u, c, e) = (-1.0, 2.0, 0.7, -0.3);
        for (l, u) in [(l, u), (l, f64::INFINITY), (f64::NEG_INFINITY, u)] {
            for z in [-0.6, 0.1, 1.3, 1.9] {
                let (_, da, db) = fb_box(z, c * z + e, l, u);
                let h = 1e-7;
                let fd = (fb_box(z + h, c * (z + h) + e, l, u).0 - fb_box(z - h, c * (z - h) + e, l, u).0) / (2.0 * h);
                assert!((fd - (da + db * c)).abs() < 1e-6, "z {z}: {fd} vs {}", da + db * c);
            }
        }
    }
}
