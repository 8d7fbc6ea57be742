//! The slider–crank mechanism in pure Rust (no ABI): the functions the C exports of this crate
//! call, usable directly from Rust tests.
//!
//! Geometry (planar, y up, crank pivot O at the origin, the guide along the x axis):
//! crank OA of length l1 at angle θ1, connecting rod AB of length l2 at angle θ2, slider centred
//! at the rod–slider joint B = (l1 cos θ1 + l2 cos θ2, l1 sin θ1 + l2 sin θ2) with tilt θ3.
//! The crank and the rod have their centres of mass at their midpoints; `J1`, `J2`, `J3` are the
//! moments of inertia about the centres of mass. The two revolute joints are eliminated by this
//! choice of coordinates: q = (θ1, θ2, θ3) has 3 degrees of freedom (the slider's vertical
//! position y_B and its tilt θ3 are free within the clearance).
//!
//! Kinetic energy `T = ½ vᵀ M(q) v` with
//! `M11 = J1 + (m1/4 + m2 + m3) l1²`, `M22 = J2 + (m2/4 + m3) l2²`, `M33 = J3`,
//! `M12 = M21 = k cos(θ1 − θ2)`, `k = (m2/2 + m3) l1 l2`, other entries 0.
//! Gyroscopic forces (Christoffel terms, `M q̈ + F_gyr = …`):
//! `F_gyr = k sin(θ1 − θ2) (ω2², −ω1², 0)`.
//! Gravity (−g along y) as the internal force `F_int = ∇V`, with the potential
//! `V = g [(m1/2 + m2 + m3) l1 sin θ1 + (m2/2 + m3) l2 sin θ2]`.

/// Inertial and geometric parameters of the mechanism (`params` of the dynamical-system
/// functions, in this order): `[l1, l2, m1, m2, m3, J1, J2, J3, g]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mechanism {
    /// Crank length.
    pub l1: f64,
    /// Connecting-rod length.
    pub l2: f64,
    /// Crank mass.
    pub m1: f64,
    /// Rod mass.
    pub m2: f64,
    /// Slider mass.
    pub m3: f64,
    /// Crank moment of inertia about its centre of mass.
    pub j1: f64,
    /// Rod moment of inertia about its centre of mass.
    pub j2: f64,
    /// Slider moment of inertia about its centre of mass.
    pub j3: f64,
    /// Gravity (acts along −y).
    pub g: f64,
}

/// Number of values of [`Mechanism`] in a `params` attribute.
pub const MECHANISM_PARAMS: usize = 9;

impl Mechanism {
    /// Parses `[l1, l2, m1, m2, m3, J1, J2, J3, g]`; `None` when the length differs or a value is
    /// not finite, a length/mass/inertia is not positive or g is negative.
    pub fn from_params(p: &[f64]) -> Option<Self> {
        let [l1, l2, m1, m2, m3, j1, j2, j3, g] = *p else { return None };
        let positive = [l1, l2, m1, m2, m3, j1, j2, j3].iter().all(|x| x.is_finite() && *x > 0.0);
        (positive && g.is_finite() && g >= 0.0).then_some(Mechanism { l1, l2, m1, m2, m3, j1, j2, j3, g })
    }

    /// `k = (m2/2 + m3) l1 l2`, the coupling coefficient of the crank and the rod.
    pub fn coupling(&self) -> f64 {
        (0.5 * self.m2 + self.m3) * self.l1 * self.l2
    }

    /// The mass matrix M(q) (row-major; it is symmetric).
    pub fn mass(&self, q: &[f64; 3]) -> [[f64; 3]; 3] {
        let m11 = self.j1 + (0.25 * self.m1 + self.m2 + self.m3) * self.l1 * self.l1;
        let m22 = self.j2 + (0.25 * self.m2 + self.m3) * self.l2 * self.l2;
        let m12 = self.coupling() * (q[0] - q[1]).cos();
        [[m11, m12, 0.0], [m12, m22, 0.0], [0.0, 0.0, self.j3]]
    }

    /// `F_gyr(q, v) = k sin(θ1 − θ2) (ω2², −ω1², 0)`.
    pub fn gyroscopic(&self, q: &[f64; 3], v: &[f64; 3]) -> [f64; 3] {
        let ks = self.coupling() * (q[0] - q[1]).sin();
        [ks * v[1] * v[1], -ks * v[0] * v[0], 0.0]
    }

    /// `∂F_gyr/∂q` (row-major).
    pub fn gyroscopic_jac_q(&self, q: &[f64; 3], v: &[f64; 3]) -> [[f64; 3]; 3] {
        let kc = self.coupling() * (q[0] - q[1]).cos();
        let (a, b) = (kc * v[1] * v[1], kc * v[0] * v[0]);
        [[a, -a, 0.0], [-b, b, 0.0], [0.0; 3]]
    }

    /// `∂F_gyr/∂v` (row-major).
    pub fn gyroscopic_jac_v(&self, q: &[f64; 3], v: &[f64; 3]) -> [[f64; 3]; 3] {
        let ks = self.coupling() * (q[0] - q[1]).sin();
        [[0.0, 2.0 * ks * v[1], 0.0], [-2.0 * ks * v[0], 0.0, 0.0], [0.0; 3]]
    }

    /// Coefficients `(g (m1/2 + m2 + m3) l1, g (m2/2 + m3) l2)` of the potential.
    fn weights(&self) -> (f64, f64) {
        (self.g * (0.5 * self.m1 + self.m2 + self.m3) * self.l1, self.g * (0.5 * self.m2 + self.m3) * self.l2)
    }

    /// Gravity potential `V(q) = g [(m1/2 + m2 + m3) l1 sin θ1 + (m2/2 + m3) l2 sin θ2]`.
    pub fn potential(&self, q: &[f64; 3]) -> f64 {
        let (w1, w2) = self.weights();
        w1 * q[0].sin() + w2 * q[1].sin()
    }

    /// `F_int(q) = ∇V(q)` (gravity, on the left-hand side of `M q̈ + F_gyr + F_int = p`).
    pub fn gravity(&self, q: &[f64; 3]) -> [f64; 3] {
        let (w1, w2) = self.weights();
        [w1 * q[0].cos(), w2 * q[1].cos(), 0.0]
    }

    /// `∂F_int/∂q` (diagonal).
    pub fn gravity_jac_q(&self, q: &[f64; 3]) -> [[f64; 3]; 3] {
        let (w1, w2) = self.weights();
        [[-w1 * q[0].sin(), 0.0, 0.0], [0.0, -w2 * q[1].sin(), 0.0], [0.0; 3]]
    }

    /// Kinetic energy `½ vᵀ M(q) v`.
    pub fn kinetic(&self, q: &[f64; 3], v: &[f64; 3]) -> f64 {
        let m = self.mass(q);
        let mut e = 0.0;
        for i in 0..3 {
            for j in 0..3 {
                e += 0.5 * v[i] * m[i][j] * v[j];
            }
        }
        e
    }

    /// Position of the rod–slider joint B (the slider's centre).
    pub fn slider_centre(&self, q: &[f64; 3]) -> [f64; 2] {
        [self.l1 * q[0].cos() + self.l2 * q[1].cos(), self.l1 * q[0].sin() + self.l2 * q[1].sin()]
    }
}

/// One corner of the slider against one wall of the guide (`params` of the relation functions,
/// in this order): `[l1, l2, a, b, c, sx, sy]`. The slider is a `2a × 2b` rectangle, the guide
/// is `2(b + c)` wide (clearance c on each side when centred); the corner is at body coordinates
/// `(sx a, sy b)` with `sx, sy ∈ {−1, +1}`, and an upper corner (`sy = +1`) meets the upper wall
/// `y = b + c`, a lower corner the lower wall `y = −(b + c)`.
///
/// Gap: `g(q) = (b + c) − sy Y(q)`, with the corner height
/// `Y = l1 sin θ1 + l2 sin θ2 + sx a sin θ3 + sy b cos θ3`;
/// Jacobian `∇g = −sy (l1 cos θ1, l2 cos θ2, sx a cos θ3 − sy b sin θ3)`.
///
/// Tangential coordinate (for friction): the corner's abscissa
/// `X = l1 cos θ1 + l2 cos θ2 + sx a cos θ3 − sy b sin θ3`, with
/// `∇X = (−l1 sin θ1, −l2 sin θ2, −sx a sin θ3 − sy b cos θ3)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    /// Crank length.
    pub l1: f64,
    /// Rod length.
    pub l2: f64,
    /// Half-length of the slider.
    pub a: f64,
    /// Half-height of the slider.
    pub b: f64,
    /// Clearance (per side) between the slider and the guide.
    pub c: f64,
    /// −1 (rear) or +1 (front) corner along the slider's axis.
    pub sx: f64,
    /// −1 (lower) or +1 (upper) corner.
    pub sy: f64,
}

/// Number of values of [`Corner`] in a `params` attribute.
pub const CORNER_PARAMS: usize = 7;

impl Corner {
    /// Parses `[l1, l2, a, b, c, sx, sy]`; `None` when the length differs, a value is not
    /// finite, a dimension is not positive (c may be 0) or a sign is not ±1.
    pub fn from_params(p: &[f64]) -> Option<Self> {
        let [l1, l2, a, b, c, sx, sy] = *p else { return None };
        let positive = [l1, l2, a, b].iter().all(|x| x.is_finite() && *x > 0.0);
        let sign = |s: f64| s == 1.0 || s == -1.0;
        (positive && c.is_finite() && c >= 0.0 && sign(sx) && sign(sy)).then_some(Corner { l1, l2, a, b, c, sx, sy })
    }

    /// Height `Y(q)` of the corner.
    pub fn height(&self, q: &[f64; 3]) -> f64 {
        self.l1 * q[0].sin() + self.l2 * q[1].sin() + self.sx * self.a * q[2].sin() + self.sy * self.b * q[2].cos()
    }

    /// Gap `g(q) = (b + c) − sy Y(q)` to the wall (≥ 0 when the corner is inside the guide).
    pub fn gap(&self, q: &[f64; 3]) -> f64 {
        (self.b + self.c) - self.sy * self.height(q)
    }

    /// Abscissa `X(q)` of the corner (the tangential coordinate along the wall).
    pub fn abscissa(&self, q: &[f64; 3]) -> f64 {
        self.l1 * q[0].cos() + self.l2 * q[1].cos() + self.sx * self.a * q[2].cos() - self.sy * self.b * q[2].sin()
    }

    /// `∇X(q)` (a 1×3 row).
    pub fn abscissa_jacobian(&self, q: &[f64; 3]) -> [f64; 3] {
        [-self.l1 * q[0].sin(), -self.l2 * q[1].sin(), -self.sx * self.a * q[2].sin() - self.sy * self.b * q[2].cos()]
    }

    /// `∇g(q)` (a 1×3 row).
    pub fn gap_jacobian(&self, q: &[f64; 3]) -> [f64; 3] {
        let s = -self.sy;
        [
            s * self.l1 * q[0].cos(),
            s * self.l2 * q[1].cos(),
            s * (self.sx * self.a * q[2].cos() - self.sy * self.b * q[2].sin()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 1 of Flores, Leine & Glocker (2010).
    const MECH: [f64; MECHANISM_PARAMS] = [0.153, 0.306, 0.038, 0.038, 0.076, 7.4e-5, 5.9e-4, 2.7e-6, 9.81];

    fn mech() -> Mechanism {
        Mechanism::from_params(&MECH).unwrap()
    }

    /// Central finite difference of `f: R³ → Rᵐ` at `x`: column j is `(f(x + ε e_j) − f(x − ε e_j)) / 2ε`.
    fn fd_jacobian<const M: usize>(f: impl Fn(&[f64; 3]) -> [f64; M], x: &[f64; 3]) -> [[f64; 3]; M] {
        let eps = 1e-6;
        let mut j = [[0.0; 3]; M];
        for c in 0..3 {
            let (mut xp, mut xm) = (*x, *x);
            xp[c] += eps;
            xm[c] -= eps;
            let (fp, fm) = (f(&xp), f(&xm));
            for r in 0..M {
                j[r][c] = (fp[r] - fm[r]) / (2.0 * eps);
            }
        }
        j
    }

    fn assert_close<const M: usize>(a: &[[f64; 3]; M], b: &[[f64; 3]; M], tol: f64, what: &str) {
        for r in 0..M {
            for c in 0..3 {
                assert!(
                    (a[r][c] - b[r][c]).abs() <= tol,
                    "{what}[{r}][{c}]: analytic {} vs finite difference {}",
                    a[r][c],
                    b[r][c]
                );
            }
        }
    }

    /// A deterministic grid of states covering all quadrants.
    fn states() -> Vec<([f64; 3], [f64; 3])> {
        let mut out = Vec::new();
        for i in 0..8 {
            for j in 0..5 {
                let q = [i as f64 * 0.8 - 3.0, j as f64 * 0.7 - 1.4, 0.3 * (i as f64 - 4.0) * 0.1];
                let v = [150.0 - 40.0 * j as f64, -75.0 + 20.0 * i as f64, 3.0 - i as f64];
                out.push((q, v));
            }
        }
        out
    }

    #[test]
    fn mass_is_symmetric_positive_definite_on_a_grid() {
        let m = mech();
        for i in 0..=36 {
            for j in 0..=36 {
                let q =
                    [i as f64 * std::f64::consts::PI / 18.0, j as f64 * std::f64::consts::PI / 18.0, 0.1 * i as f64];
                let mm = m.mass(&q);
                for (r, row) in mm.iter().enumerate() {
                    for (c, x) in row.iter().enumerate() {
                        assert_eq!(*x, mm[c][r]);
                    }
                }
                // Sylvester: leading principal minors positive
                let d1 = mm[0][0];
                let d2 = mm[0][0] * mm[1][1] - mm[0][1] * mm[1][0];
                let d3 = d2 * mm[2][2];
                assert!(d1 > 0.0 && d2 > 0.0 && d3 > 0.0, "M not SPD at {q:?}: minors {d1}, {d2}, {d3}");
            }
        }
    }

    #[test]
    fn gyroscopic_forces_are_the_christoffel_terms_of_the_mass_matrix() {
        // c_i = Σ_jk (∂M_ij/∂q_k − ½ ∂M_jk/∂q_i) v_j v_k with ∂M/∂q by finite differences.
        let m = mech();
        let eps = 1e-6;
        for (q, v) in states() {
            let mut dm = [[[0.0; 3]; 3]; 3]; // dm[k][i][j] = ∂M_ij/∂q_k
            for k in 0..3 {
                let (mut qp, mut qm) = (q, q);
                qp[k] += eps;
                qm[k] -= eps;
                let (a, b) = (m.mass(&qp), m.mass(&qm));
                for i in 0..3 {
                    for j in 0..3 {
                        dm[k][i][j] = (a[i][j] - b[i][j]) / (2.0 * eps);
                    }
                }
            }
            let f = m.gyroscopic(&q, &v);
            for i in 0..3 {
                let mut c = 0.0;
                for j in 0..3 {
                    for k in 0..3 {
                        c += (dm[k][i][j] - 0.5 * dm[i][j][k]) * v[j] * v[k];
                    }
                }
                assert!(
                    (c - f[i]).abs() <= 1e-6 * (1.0 + c.abs()),
                    "F_gyr[{i}] = {} vs Christoffel {c} at {q:?}, {v:?}",
                    f[i]
                );
            }
        }
    }

    #[test]
    fn force_jacobians_match_finite_differences() {
        let m = mech();
        for (q, v) in states() {
            let scale = 1e-6 * (1.0 + v[0] * v[0] + v[1] * v[1]) * m.coupling();
            assert_close(&m.gyroscopic_jac_q(&q, &v), &fd_jacobian(|x| m.gyroscopic(x, &v), &q), scale, "dF_gyr/dq");
            assert_close(&m.gyroscopic_jac_v(&q, &v), &fd_jacobian(|x| m.gyroscopic(&q, x), &v), scale, "dF_gyr/dv");
            assert_close(&m.gravity_jac_q(&q), &fd_jacobian(|x| m.gravity(x), &q), 1e-8, "dF_int/dq");
            assert_close(&[m.gravity(&q)], &fd_jacobian(|x| [m.potential(x)], &q), 1e-8, "grad V");
        }
    }

    #[test]
    fn gap_jacobians_match_finite_differences_and_gaps_bound_the_clearance() {
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                let c = Corner::from_params(&[0.153, 0.306, 0.05, 0.025, 0.001, sx, sy]).unwrap();
                for (q, _) in states() {
                    assert_close(&[c.gap_jacobian(&q)], &fd_jacobian(|x| [c.gap(x)], &q), 1e-8, "grad g");
                    assert_close(&[c.abscissa_jacobian(&q)], &fd_jacobian(|x| [c.abscissa(x)], &q), 1e-8, "grad X");
                    // the corner is at distance √(a² + b²) from the slider's centre B
                    let bxy = Mechanism::from_params(&MECH).unwrap().slider_centre(&q);
                    let (dx, dy) = (c.abscissa(&q) - bxy[0], c.height(&q) - bxy[1]);
                    assert!(((dx * dx + dy * dy).sqrt() - (0.05f64.hypot(0.025))).abs() < 1e-12);
                }
                // Slider centred in the guide and level: every corner has the clearance c as gap.
                let q = [0.0, 0.0, 0.0];
                assert!((c.gap(&q) - 0.001).abs() < 1e-15);
                // Lifted by c: upper corners touch (gap 0), lower corners have 2c.
                let lift = (0.001f64 / 0.153).asin();
                let g = c.gap(&[lift, 0.0, 0.0]);
                let want = if sy > 0.0 { 0.0 } else { 0.002 };
                assert!((g - want).abs() < 1e-12, "corner ({sx}, {sy}) gap {g}");
            }
        }
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(Mechanism::from_params(&MECH[..8]).is_none());
        let mut p = MECH;
        p[2] = -1.0;
        assert!(Mechanism::from_params(&p).is_none());
        p[2] = f64::NAN;
        assert!(Mechanism::from_params(&p).is_none());
        assert!(Corner::from_params(&[0.153, 0.306, 0.05, 0.025, 0.001, 0.5, 1.0]).is_none());
        assert!(Corner::from_params(&[0.153, 0.306, 0.05, 0.025, -0.001, 1.0, 1.0]).is_none());
    }
}
