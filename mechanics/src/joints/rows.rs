//! Constraint primitives shared by the joints: each writes rows of `h(q)` and of its Jacobian
//! in twist coordinates into a [`JointRows`] (columns `(v, Ω)`: `v` world frame, `Ω` body
//! frame, as the contact relation [`crate::relation`]). Side `a` is body 1 and side `b` body 2
//! (or the world, whose pose is the identity and whose Jacobian columns are ignored).
//!
//! With `ω = R Ω` the world angular velocity and `[u]×` the cross-product matrix, each
//! Jacobian below is the exact derivative `ḣ = J_a (v_a, Ω_a) + J_b (v_b, Ω_b)` along
//! `ẋ = v`, `q̇ = ½ q ⊗ (0, Ω)` (checked against finite differences in the tests of
//! [`crate::joints`]).

use super::JointRows;
use crate::body::BodyState;
use nalgebra::{Matrix3, UnitQuaternion, Vector3};

/// Two unit vectors `c₁, c₂` with `(a, c₁, c₂)` orthonormal and right-handed (`a` unit).
pub fn orthonormal_pair(a: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let f = crate::relation::contact_frame(a);
    (f.column(1).into_owned(), f.column(2).into_owned())
}

impl JointRows {
    fn set_row(&mut self, i: usize, h: f64, a: [Vector3<f64>; 2], b: [Vector3<f64>; 2]) {
        self.h[i] = h;
        for k in 0..3 {
            self.j[0][(i, k)] = a[0][k];
            self.j[0][(i, k + 3)] = a[1][k];
            self.j[1][(i, k)] = b[0][k];
            self.j[1][(i, k + 3)] = b[1][k];
        }
    }

    /// Coincident points (3 rows from `row`): `h = (x_a + R_a p_a) − (x_b + R_b p_b)`, with
    /// `J_a = [1 | −R_a [p_a]×]`, `J_b = [−1 | R_b [p_b]×]`.
    pub fn point(&mut self, row: usize, a: &BodyState, pa: &Vector3<f64>, b: &BodyState, pb: &Vector3<f64>) {
        let h = a.position + a.orientation * pa - b.position - b.orientation * pb;
        let ra = a.orientation.to_rotation_matrix().into_inner() * (-pa.cross_matrix());
        let rb = b.orientation.to_rotation_matrix().into_inner() * pb.cross_matrix();
        for i in 0..3 {
            let e = Vector3::ith(i, 1.0);
            self.set_row(row + i, h[i], [e, ra.row(i).transpose()], [-e, rb.row(i).transpose()]);
        }
    }

    /// Fixed relative orientation (3 rows): with `e = (w, u) = (q_a q₀)⁻¹ q_b` (sign chosen so
    /// that `w ≥ 0`), `h = 2u`, `J_a = [0 | −(w 1 − [u]×) R₀ᵀ]`, `J_b = [0 | w 1 + [u]×]`
    /// (from `ė = ½ (e ⊗ Ω_b − R₀ᵀ Ω_a ⊗ e)`). `q₀` is the relative orientation `q_a⁻¹ q_b` at
    /// assembly.
    pub fn orientation(&mut self, row: usize, a: &BodyState, b: &BodyState, q0: &UnitQuaternion<f64>) {
        let mut e = ((a.orientation * q0).inverse() * b.orientation).into_inner();
        if e.w < 0.0 {
            e = -e;
        }
        let (w, u) = (e.w, e.imag());
        let ux = u.cross_matrix();
        let ja = -(Matrix3::from_diagonal_element(w) - ux) * q0.to_rotation_matrix().into_inner().transpose();
        let jb = Matrix3::from_diagonal_element(w) + ux;
        let z = Vector3::zeros();
        for i in 0..3 {
            self.set_row(row + i, 2.0 * u[i], [z, ja.row(i).transpose()], [z, jb.row(i).transpose()]);
        }
    }

    /// Parallel axes (2 rows): `h_i = (R_a α_a)·(R_b β_i)` with `β₁, β₂ ⟂ α_b` in body 2's
    /// frame; `ḣ_i = ω_a·(α × β_i) − ω_b·(α × β_i)` (world vectors).
    pub fn parallel_axes(
        &mut self,
        row: usize,
        a: &BodyState,
        axis_a: &Vector3<f64>,
        b: &BodyState,
        perp_b: &[Vector3<f64>; 2],
    ) {
        let aw = a.orientation * axis_a;
        let z = Vector3::zeros();
        for (i, p) in perp_b.iter().enumerate() {
            let bw = b.orientation * p;
            let c = aw.cross(&bw);
            let ra = a.orientation.inverse_transform_vector(&c);
            let rb = -b.orientation.inverse_transform_vector(&c);
            self.set_row(row + i, aw.dot(&bw), [z, ra], [z, rb]);
        }
    }

    /// Body 2's anchor on the line of body 1 through `p_a` along `α_a` (2 rows):
    /// `h_i = (R_a γ_i)·d`, `d = (x_b + R_b p_b) − (x_a + R_a p_a)`, `γ₁, γ₂ ⟂ α_a` (body 1
    /// frame); `ḣ_i = c_i·(v_b − v_a) + ω_a·(c_i × (x_b + R_b p_b − x_a)) + ω_b·(R_b p_b × c_i)`.
    pub fn on_line(
        &mut self,
        row: usize,
        a: &BodyState,
        pa: &Vector3<f64>,
        perp_a: &[Vector3<f64>; 2],
        b: &BodyState,
        pb: &Vector3<f64>,
    ) {
        let rb = b.orientation * pb;
        let anchor_b = b.position + rb;
        let d = anchor_b - a.position - a.orientation * pa;
        for (i, g) in perp_a.iter().enumerate() {
            let c = a.orientation * g;
            let ra = a.orientation.inverse_transform_vector(&c.cross(&(anchor_b - a.position)));
            let rbv = b.orientation.inverse_transform_vector(&rb.cross(&c));
            self.set_row(row + i, c.dot(&d), [-c, ra], [c, rbv]);
        }
    }
}
