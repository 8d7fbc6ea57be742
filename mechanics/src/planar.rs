//! 2D rigid bodies (Siconos `RigidBody2dDS`, `Disk`, `Box2d`, `ConvexHull2d`, `FrictionContact(2)`):
//! a family of bodies inside the one mechanics simulation.
//!
//! A 2D scene is a [`crate::MechanicsModel`] whose shapes are planar ([`crate::shape::Disk`],
//! [`crate::shape::Box2d`], [`crate::ShapeDesc::ConvexPolygon`]); a scene is 2D or 3D as a whole (as in
//! Siconos, which infers the dimension from the shapes). A 2D body has the coordinates
//! `q = (x, y, θ)` and the velocity `v = (vₓ, v_y, ω)`; it is stored as a rigid body confined to
//! the plane `z = 0`: position `(x, y, 0)`, orientation the rotation by `θ` about `z`
//! (quaternion `(cos θ/2, 0, 0, sin θ/2)`), twist `(vₓ, v_y, 0, 0, 0, ω)`, inertia `I` about
//! `z`. On that subspace the Newton–Euler step is exactly the 2D one: gravity in the plane, no
//! gyroscopic term (`Ω × IΩ = 0` for `Ω ∥ z` a principal axis), contact normals and points in
//! the plane, so the impulses `λ_N n + λ_T t` stay in the plane and their torque along `z`; the
//! exponential map of a rotation about `z` adds the angles. Why not a second set of 3-vectors:
//! then every part of the simulation (lifetimes, kinematic bodies, forces, output, the Siconos
//! `mechanics_hdf5` layout, which writes 2D scenes as 3D poses anyway) would need a twin.
//!
//! What is 2D: the contacts come from parry2d-f64 (`collision.rs`), each contact has the frame
//! `(n, t, z)` with `t = z × n` ([`planar_frame`]), and the step solves the 2D friction-contact
//! problem (`u = (u_N, u_T)`, `|λ_T| ≤ μ λ_N`, numerics' `FrictionContact` of dimension 2), or
//! with rolling friction the 2D rolling problem (`(u_N, u_T, u_R)`, `u_R = ω₂ − ω₁`,
//! `|λ_R| ≤ μ_r λ_N`) (`simulation/planar.rs`).

use crate::body::{BodyKind, BodyState};
use crate::shape::Collider;
use nalgebra::{Isometry3, Matrix3, Quaternion, UnitQuaternion, Vector3};

/// The state of a 2D body at `(x, y)`, angle `θ`, velocity `(vₓ, v_y)` and angular velocity `ω`.
pub fn planar_state(x: f64, y: f64, theta: f64, vx: f64, vy: f64, omega: f64) -> BodyState {
    let (s, c) = (0.5 * theta).sin_cos();
    BodyState {
        position: Vector3::new(x, y, 0.0),
        orientation: UnitQuaternion::new_unchecked(Quaternion::new(c, 0.0, 0.0, s)),
        v: Vector3::new(vx, vy, 0.0),
        omega: Vector3::new(0.0, 0.0, omega),
    }
}

/// `(x, y, θ, vₓ, v_y, ω)` of a 2D body, the angle in `(−π, π]` (the orientation keeps no
/// count of whole turns): `θ = atan2(2 q_w q_z, q_w² − q_z²)`.
pub fn planar_coordinates(s: &BodyState) -> [f64; 6] {
    let q = s.orientation.quaternion();
    let th = (2.0 * q.w * q.k).atan2(q.w * q.w - q.k * q.k);
    [s.position.x, s.position.y, th, s.v.x, s.v.y, s.omega.z]
}

/// The inertia tensor of a 2D body of moment of inertia `i` about `z`: `i·1₃` (isotropic, so
/// the 3D step takes its shortcut; only `I_zz` acts in the plane).
pub fn planar_inertia(i: f64) -> Matrix3<f64> {
    Matrix3::from_diagonal_element(i)
}

/// `true` when `iso` maps the plane `z = 0` onto itself: no `z` translation, a rotation about `z`.
pub fn is_planar_pose(iso: &Isometry3<f64>) -> bool {
    let q = iso.rotation.quaternion();
    iso.translation.vector.z == 0.0 && q.i == 0.0 && q.j == 0.0
}

/// Checks that a body of a 2D scene is in the plane: position and orientation as
/// [`is_planar_pose`], `v_z = 0`, `Ω = (0, 0, ω)`, and for a dynamic body `z` a principal axis
/// of the inertia (`I_xz = I_yz = 0`).
pub fn check_body(s: &BodyState, kind: BodyKind, inertia: &Matrix3<f64>) -> Result<(), String> {
    let q = s.orientation.quaternion();
    if s.position.z != 0.0 || q.i != 0.0 || q.j != 0.0 {
        return Err("a body of a 2D scene must lie in the plane z = 0, rotated about z only".into());
    }
    if s.v.z != 0.0 || s.omega.x != 0.0 || s.omega.y != 0.0 {
        return Err("a body of a 2D scene must move in the plane: v_z = 0, Ω = (0, 0, ω)".into());
    }
    if kind == BodyKind::Dynamic && (inertia[(0, 2)] != 0.0 || inertia[(1, 2)] != 0.0) {
        return Err("the inertia of a 2D body must have z as a principal axis (use planar_inertia)".into());
    }
    Ok(())
}

/// Contact frame of a 2D scene: the columns are `(n, t, z)` with `t = z × n = (−n_y, n_x, 0)`,
/// right-handed (`n × t = z`); the 2D problem uses the rows `n` and `t`.
#[inline]
pub fn planar_frame(n: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(n.x, -n.y, 0.0, n.y, n.x, 0.0, 0.0, 0.0, 1.0)
}

/// The parry2d pose of a planar pose (the `(x, y)` translation and the rotation about `z`).
pub(crate) fn pose2(iso: &Isometry3<f64>) -> parry2d_f64::math::Pose {
    use parry2d_f64::math::{Pose, Rotation, Vector};
    let q = iso.rotation.quaternion();
    // rotation by θ about z: (cos θ, sin θ) = (w² − z², 2wz) for q = (w, 0, 0, z)
    let (c, s) = (q.w * q.w - q.k * q.k, 2.0 * q.w * q.k);
    let m = parry2d_f64::math::Matrix::from_cols(Vector::new(c, s), Vector::new(-s, c));
    let t = iso.translation.vector;
    Pose::from_parts(Vector::new(t.x, t.y), Rotation::from_mat(m))
}

/// Mass `ρ A` and moment of inertia `ρ ∫ r² dA` about the body origin (per unit depth, as
/// Siconos's 2D bodies) of the planar shapes of a body; their centre of mass must be the origin.
pub(crate) fn mass_from_density(colliders: &[Collider], rho: f64) -> Result<(f64, Matrix3<f64>), String> {
    if !(rho > 0.0 && rho.is_finite()) {
        return Err(format!("density must be finite and > 0, got {rho}"));
    }
    let (mut m, mut mx, mut my, mut i_origin, mut size) = (0.0, 0.0, 0.0, 0.0, 0.0f64);
    for c in colliders {
        let s = c.shape2d.as_ref().ok_or("a 2D body by density needs planar shapes")?;
        let mp = s.mass_properties(rho);
        let pose = pose2(&c.offset);
        let com = pose.transform_point(mp.local_com);
        let mass = mp.mass();
        // parallel axis: I_origin = I_com + m |c|²
        i_origin += mp.principal_inertia() + mass * com.length_squared();
        m += mass;
        mx += mass * com.x;
        my += mass * com.y;
        size = size.max(c.desc.planar_radius() + c.offset.translation.vector.norm());
    }
    if m == 0.0 {
        return Err("a body given by density needs at least one shape".into());
    }
    let com = (mx / m).hypot(my / m);
    if com > 1e-9 * size {
        return Err(format!(
            "the centre of mass of the shapes is at ({}, {}) in the body frame, not at its origin: offset the shapes by its opposite",
            mx / m,
            my / m
        ));
    }
    Ok((m, planar_inertia(i_origin)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trip_and_frame() {
        let s = planar_state(1.0, -2.0, 2.5, 0.3, -0.4, 1.5);
        let [x, y, th, vx, vy, w] = planar_coordinates(&s);
        assert_eq!((x, y, vx, vy, w), (1.0, -2.0, 0.3, -0.4, 1.5));
        assert!((th - 2.5).abs() < 1e-15);
        assert!(check_body(&s, BodyKind::Dynamic, &planar_inertia(2.0)).is_ok());
        let n = Vector3::new(0.6, 0.8, 0.0);
        let f = planar_frame(&n);
        assert!((f.transpose() * f - Matrix3::identity()).abs().max() < 1e-15);
        assert!((f.column(0).cross(&f.column(1)) - Vector3::z()).norm() < 1e-15);
        let iso = Isometry3::from_parts(s.position.into(), s.orientation);
        let p = pose2(&iso);
        let a = p.transform_point(parry2d_f64::math::Vector::new(0.5, 0.25));
        let b = iso * nalgebra::Point3::new(0.5, 0.25, 0.0);
        assert!((a.x - b.x).abs() < 1e-15 && (a.y - b.y).abs() < 1e-15);
    }
}
