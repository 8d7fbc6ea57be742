//! Conversions between the nalgebra types of Saltus and the glam types of parry3d-f64.
//!
//! parry 0.31 works on glam (`DVec3`, `DQuat`, `DPose3`); Saltus keeps nalgebra fixed-size
//! types everywhere else. These one-line conversions are the only place the two meet.

use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose, Rotation, Vector};

/// nalgebra → parry vector.
#[inline]
pub fn to_pv(v: &Vector3<f64>) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// parry → nalgebra vector.
#[inline]
pub fn from_pv(v: Vector) -> Vector3<f64> {
    Vector3::new(v.x, v.y, v.z)
}

/// nalgebra → parry rotation.
#[inline]
pub fn to_prot(q: &UnitQuaternion<f64>) -> Rotation {
    Rotation::from_xyzw(q.i, q.j, q.k, q.w)
}

/// parry → nalgebra rotation.
#[inline]
pub fn from_prot(q: Rotation) -> UnitQuaternion<f64> {
    UnitQuaternion::new_unchecked(Quaternion::new(q.w, q.x, q.y, q.z))
}

/// The parry pose with translation `x` and rotation `q`.
#[inline]
pub fn to_pose(x: &Vector3<f64>, q: &UnitQuaternion<f64>) -> Pose {
    Pose::from_parts(to_pv(x), to_prot(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_same_action() {
        let q = UnitQuaternion::from_euler_angles(0.3, -1.1, 2.0);
        let x = Vector3::new(1.0, -2.0, 0.5);
        let p = Vector3::new(0.2, 0.7, -0.4);
        let pose = to_pose(&x, &q);
        let a = from_pv(pose.transform_point(to_pv(&p)));
        let b = q * p + x;
        assert!((a - b).norm() < 1e-14);
        let back = from_prot(to_prot(&q));
        assert!(back.angle_to(&q) < 1e-14);
    }
}
