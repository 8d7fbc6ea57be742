//! The contact relation of Siconos `NewtonEuler3DR`: contact frame and the 3×6 Jacobian of each
//! body mapping its twist `(v, Ω)` (v world, Ω body frame) to the local velocity
//! `u = (u_N, u_T1, u_T2)` of the contact.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};

/// Orthonormal contact frame with the normal first: the columns are `(n, t₁, t₂)`, `t₁ × t₂ = n`.
///
/// The tangents come from the branch-free construction of Duff et al. (JCGT 2017), a smooth
/// function of `n` except across `n_z = 0`, where it switches branch. Warm starts are carried
/// in the world frame, so the choice of tangents does not affect them.
#[inline]
pub fn contact_frame(n: &Vector3<f64>) -> Matrix3<f64> {
    let sign = 1.0f64.copysign(n.z);
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    let t1 = Vector3::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
    let t2 = Vector3::new(b, sign + n.y * n.y * a, -n.y);
    Matrix3::from_columns(&[*n, t1, t2])
}

/// One body's block `H = s [Fᵀ | Jᵣ]` of the contact Jacobian, with `s = −1` for body 1 and `+1`
/// for body 2, `F` the contact frame and row `i` of `Jᵣ` equal to `(Rᵀ (a × fᵢ))ᵀ`, `a = p − x`
/// the lever arm from the centre of mass to the body's contact point (world frame):
/// `H (v, Ω) = s Fᵀ (v + (R Ω) × a)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SideJacobian {
    /// Translational part `s Fᵀ` (3×3).
    pub ht: Matrix3<f64>,
    /// Rotational part `s Jᵣ` (3×3, acting on the body-frame Ω).
    pub hr: Matrix3<f64>,
}

impl SideJacobian {
    /// The block for a body at `x` with orientation `q`, contact point `p`, frame `f`, sign `s`.
    #[inline]
    pub fn new(frame: &Matrix3<f64>, p: &Vector3<f64>, x: &Vector3<f64>, q: &UnitQuaternion<f64>, s: f64) -> Self {
        let a = p - x;
        let ht = frame.transpose() * s;
        let mut hr = Matrix3::zeros();
        for i in 0..3 {
            let c = q.inverse_transform_vector(&a.cross(&frame.column(i).into_owned())) * s;
            hr.set_row(i, &c.transpose());
        }
        SideJacobian { ht, hr }
    }
    /// `H (v, Ω)`.
    #[inline]
    pub fn apply(&self, v: &Vector3<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
        self.ht * v + self.hr * omega
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_is_orthonormal_right_handed() {
        for n in [
            Vector3::new(0.0, 0.0, 1.0),
            Vector3::new(0.0, 0.0, -1.0),
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.3, -0.4, 0.1).normalize(),
            Vector3::new(-0.2, 0.1, -0.9).normalize(),
        ] {
            let f = contact_frame(&n);
            assert!((f.transpose() * f - Matrix3::identity()).abs().max() < 1e-15);
            assert_eq!(f.column(0), n);
            assert!((f.column(1).cross(&f.column(2)) - n).norm() < 1e-15);
        }
    }

    /// `H (v, Ω)` equals the frame components of the material point velocity `v + (RΩ) × a`.
    #[test]
    fn jacobian_gives_point_velocity() {
        let q = UnitQuaternion::from_euler_angles(0.4, -0.7, 1.3);
        let x = Vector3::new(0.1, 0.2, 0.3);
        let p = Vector3::new(-0.5, 0.4, 0.0);
        let f = contact_frame(&Vector3::new(0.2, 0.3, 0.9).normalize());
        let (v, om) = (Vector3::new(1.0, -2.0, 0.5), Vector3::new(0.3, 0.8, -1.1));
        let j = SideJacobian::new(&f, &p, &x, &q, -1.0);
        let direct = -(f.transpose() * (v + (q * om).cross(&(p - x))));
        assert!((j.apply(&v, &om) - direct).norm() < 1e-14);
    }
}
