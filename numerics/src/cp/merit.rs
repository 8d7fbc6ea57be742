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

/// `d − √(d² + F²)` and its partial derivatives; 0 when `d = +∞` (an absent lower bound).
fn g_low(d: f64, f: f64) -> (f64, f64, f64) {
    if d.is_infinite() {
        return (0.0, 0.0, 0.0);
    }
    let r = d.hypot(f);
    if r == 0.0 {
        (0.0, 1.0, 0.0)
    } else {
        (d - r, 1.0 - d / r, -f / r)
    }
}

/// `d + √(d² + F²)` and its partial derivatives; 0 when `d = −∞` (an absent upper bound).
fn g_up(d: f64, f: f64) -> (f64, f64, f64) {
    if d.is_infinite() {
        return (0.0, 0.0, 0.0);
    }
    let r = d.hypot(f);
    if r == 0.0 {
        (0.0, 1.0, 0.0)
    } else {
        (d + r, 1.0 + d / r, f / r)
    }
}

/// Qi's box function of row `i` (L. Qi 1999; Facchinei–Pang (2003) p. 873), the one Siconos's
/// `VI_BOX_QI` uses, and its Jacobian row coefficients `(Φ_i, d_a, d_b)`:
///
/// * `F ≥ 0`: `x − l` if `x < l`; `(x − l) − √((x − l)² + F²) + F` if `l ≤ x ≤ u`;
///   `(x − l) − √((x − l)² + F²) + √((x − u)² + F²)` if `x > u`;
/// * `F < 0`: `x − u` if `x > u`; `(x − u) + √((x − u)² + F²) + F` if `l ≤ x ≤ u`;
///   `(x − u) + √((x − u)² + F²) − √((x − l)² + F²)` if `x < l`;
///
/// the terms of an infinite bound vanish (their limit). Where `F = 0` at a bound (to ε) the
/// Jacobian element is `(1 − √2/2, 1 − √2/2)`.
pub fn qi_box(x: f64, f: f64, l: f64, u: f64) -> (f64, f64, f64) {
    let eps = f64::EPSILON;
    let degenerate = f.abs() < eps && ((x - l).abs() < eps || (x - u).abs() < eps);
    let (v, a, b) = if f >= 0.0 {
        if x < l {
            (x - l, 1.0, 0.0)
        } else {
            let (g, ga, gb) = g_low(x - l, f);
            if x <= u {
                (g + f, ga, gb + 1.0)
            } else {
                let r2 = (x - u).hypot(f);
                (g + r2, ga + (x - u) / r2, gb + f / r2)
            }
        }
    } else if x > u {
        (x - u, 1.0, 0.0)
    } else {
        let (g, ga, gb) = g_up(x - u, f);
        if x >= l {
            (g + f, ga, gb + 1.0)
        } else {
            let r1 = (x - l).hypot(f);
            (g - r1, ga - (x - l) / r1, gb - f / r1)
        }
    };
    if degenerate {
        let d = 1.0 - std::f64::consts::FRAC_1_SQRT_2;
        (v, d, d)
    } else {
        (v, a, b)
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
    fn qi_rows_vanish_exactly_at_solutions_and_match_differences() {
        for (l, u) in [(-1.0, 2.0), (-1.0, f64::INFINITY), (f64::NEG_INFINITY, 2.0), (f64::NEG_INFINITY, f64::INFINITY)]
        {
            if l.is_finite() {
                assert_eq!(qi_box(l, 3.0, l, u).0, 0.0);
                assert!(qi_box(l, -3.0, l, u).0.abs() > 0.1);
            }
            if u.is_finite() {
                assert_eq!(qi_box(u, -3.0, l, u).0, 0.0);
                assert!(qi_box(u, 3.0, l, u).0.abs() > 0.1);
            }
            assert!(qi_box(0.5, 0.0, l, u).0.abs() < 1e-15);
            assert!(qi_box(0.5, 1.0, l, u).0.abs() > 0.1);
            let (c, e) = (0.7, -0.3);
            for z in [-1.6, -0.6, 0.1, 1.3, 2.9] {
                let (_, da, db) = qi_box(z, c * z + e, l, u);
                let h = 1e-7;
                let fd = (qi_box(z + h, c * (z + h) + e, l, u).0 - qi_box(z - h, c * (z - h) + e, l, u).0) / (2.0 * h);
                assert!((fd - (da + db * c)).abs() < 1e-6, "{l} {u} z {z}: {fd} vs {}", da + db * c);
            }
        }
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
