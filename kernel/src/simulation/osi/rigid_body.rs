//! The rigid-body family of Moreau–Jean (Siconos `MoreauJeanOSI` on a `NewtonEulerDS`), shared by
//! the kernel's rigid bodies ([`LagrangianDs::rigid_body`]) and the bodies of `mechanics`' scenes:
//! the θ-scheme is written once here, and each engine calls it on its own storage.
//!
//! Over a step `[t_k, t_{k+1}]`, `h = t_{k+1} − t_k`, with `Ω_θ = (1−θ) Ω_k + θ Ω_{k+1}`:
//!
//! * translation: `m (v_{k+1} − v_k) = h (θ f(t_{k+1}) + (1−θ) f(t_k)) + (Hᵀ λ)_v`;
//! * rotation, in the momentum form that keeps the gyroscopic term exact under rotation:
//!   `I Ω_{k+1} = exp(−h Ω̂_θ) I Ω_k + h (θ τ(t_{k+1}) + (1−θ) τ(t_k)) + (Hᵀ λ)_Ω`,
//!   i.e. the body-frame momentum `Π = I Ω` is carried by the rotation of the frame over the
//!   step; to first order this is `I Ω̇ = −Ω × I Ω + τ`;
//! * pose: `x_{k+1} = x_k + h v_θ`, `q_{k+1} = q_k ⊗ exp(h Ω_θ / 2)` (exponential map of the
//!   body-frame rotation vector `h Ω_θ`), then renormalised (which only removes round-off).
//!
//! The free velocity `(v_free, Ω_free)` is the step without impulses; the gyroscopic equation
//! is solved by fixed-point iteration on `Ω_θ` (a contraction of ratio ≈ θ h |Ω| for
//! moderately anisotropic bodies). With θ = ½ and no torque, the free step of a torque-free
//! body conserves exactly (to round-off and the fixed-point tolerance) the kinetic energy
//! `½ Ωᵀ I Ω` (the rotation about `Ω_θ` keeps `Π·Ω_θ`, and `Ω_θ = (Ω_k + Ω_{k+1})/2`) and the
//! world angular momentum `R I Ω` (`R_{k+1} = R_k exp(hΩ̂_θ)` undoes the rotation of `Π`). The
//! contact impulses are computed with the free gyroscopic rotation frozen (one linearisation,
//! as Siconos does without its Newton loop): `W = diag(m, m, m, I)`.
//!
//! [`LagrangianDs::rigid_body`]: crate::LagrangianDs::rigid_body

use super::DsWork;
use crate::error::KernelError;
use crate::model::ds::{LagrangianDs, RigidBodyInertia};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};

/// The gyroscopic fixed point's relative tolerance on `Ω_θ` and its cap (as `mechanics`'
/// default `MoreauJeanOptions`).
pub const GYRO_TOL: f64 = 1e-15;
/// See [`GYRO_TOL`].
pub const GYRO_MAX_ITER: usize = 50;

/// Free translational velocity `v_k + (h/m)(θ f₁ + (1−θ) f₀)`.
#[inline]
pub fn free_velocity(
    v: &Vector3<f64>,
    inv_mass: f64,
    f0: &Vector3<f64>,
    f1: &Vector3<f64>,
    h: f64,
    theta: f64,
) -> Vector3<f64> {
    v + (theta * f1 + (1.0 - theta) * f0) * (h * inv_mass)
}

/// Free angular velocity (body frame): solves
/// `I Ω_f = exp(−h Ω̂_θ) I Ω_k + h τ_θ`, `Ω_θ = (1−θ) Ω_k + θ Ω_f`, by fixed-point iteration on
/// `Ω_θ` until two iterates differ by at most `tol · |Ω_θ|`. Returns `(Ω_f, converged)`.
/// Isotropic bodies (`I = i·1`) have no gyroscopic term: `Ω_f = Ω_k + h I⁻¹ τ_θ` at once.
/// `(inertia, inv_inertia, isotropic)`: `I`, `I⁻¹` and whether `I = i·1`; `step` is `(h, θ)`,
/// `fixed_point` the tolerance and cap.
#[inline]
pub fn free_angular_velocity(
    (inertia, inv_inertia, isotropic): (&Matrix3<f64>, &Matrix3<f64>, bool),
    omega: &Vector3<f64>,
    tau_theta: &Vector3<f64>,
    step: (f64, f64),
    fixed_point: (f64, usize),
) -> (Vector3<f64>, bool) {
    if isotropic {
        return (omega + inv_inertia * tau_theta * step.0, true);
    }
    gyroscopic_fixed_point(inertia, omega, tau_theta, step, fixed_point, |b| inv_inertia * b)
}

/// The fixed point of [`free_angular_velocity`] with `I Ω_f = b` solved by `solve(b)` (a body
/// with prescribed angular velocity components solves its free rows only). `step` is `(h, θ)`,
/// `fixed_point` the tolerance and cap. Returns `(Ω_f, converged)`.
pub fn gyroscopic_fixed_point(
    inertia: &Matrix3<f64>,
    omega: &Vector3<f64>,
    tau_theta: &Vector3<f64>,
    step: (f64, f64),
    fixed_point: (f64, usize),
    solve: impl Fn(&Vector3<f64>) -> Vector3<f64>,
) -> (Vector3<f64>, bool) {
    let ((h, theta), (tol, max_iter)) = (step, fixed_point);
    let pi = inertia * omega;
    let kick = tau_theta * h;
    let mut om_theta = *omega;
    let mut om_f = *omega;
    for _ in 0..max_iter {
        let rot = UnitQuaternion::from_scaled_axis(om_theta * h);
        om_f = solve(&(rot.inverse_transform_vector(&pi) + kick));
        let next = omega * (1.0 - theta) + om_f * theta;
        let diff = (next - om_theta).norm();
        om_theta = next;
        if diff <= tol * om_theta.norm() {
            return (om_f, true);
        }
    }
    (om_f, false)
}

/// Pose at the end of the step from the θ-weighted velocities:
/// `x + h v_θ`, `q ⊗ exp(h Ω_θ)` renormalised.
#[inline]
pub fn update_pose(
    x: &Vector3<f64>,
    q: &UnitQuaternion<f64>,
    v_theta: &Vector3<f64>,
    omega_theta: &Vector3<f64>,
    h: f64,
) -> (Vector3<f64>, UnitQuaternion<f64>) {
    let mut q1 = q * UnitQuaternion::from_scaled_axis(omega_theta * h);
    q1.renormalize();
    (x + v_theta * h, q1)
}

fn vec3(s: &[f64]) -> Vector3<f64> {
    Vector3::new(s[0], s[1], s[2])
}

/// The unit quaternion `q[3..7] = (w, x, y, z)` of a rigid body's coordinates.
fn orientation(q: &[f64]) -> UnitQuaternion<f64> {
    UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(q[3], q[4], q[5], q[6]))
}

/// The free velocity of a kernel rigid body: `F(t_k)` is in `w.f_k`, `F(t_{k+1})` evaluated
/// into `w.tmp` (force in the world frame, then torque in the body frame; both with the control
/// input term `g` held over the step); `v_free` into `w.free`. A gyroscopic fixed point that does
/// not converge is a typed error at `t1`.
pub(crate) fn free_state(
    d: &LagrangianDs,
    rigid: &RigidBodyInertia,
    w: &mut DsWork,
    t1: f64,
    h: f64,
    theta: f64,
) -> Result<(), KernelError> {
    super::moreau_jean::forces(d, w, t1, d.q.as_slice(), d.v.as_slice(), false)?;
    // (`forces` adds the control input term `g`, held over the step, at both ends)
    let (f0, f1) = (vec3(&w.f_k.as_slice()[..3]), vec3(&w.tmp.as_slice()[..3]));
    let (tau0, tau1) = (vec3(&w.f_k.as_slice()[3..]), vec3(&w.tmp.as_slice()[3..]));
    let v = free_velocity(&vec3(&w.v_k.as_slice()[..3]), 1.0 / rigid.mass, &f0, &f1, h, theta);
    let tau = tau1 * theta + tau0 * (1.0 - theta);
    let omega_k = vec3(&w.v_k.as_slice()[3..]);
    let body = (&rigid.inertia, &rigid.inv_inertia, rigid.isotropic);
    let (omega, ok) = free_angular_velocity(body, &omega_k, &tau, (h, theta), (GYRO_TOL, GYRO_MAX_ITER));
    if !ok {
        return Err(KernelError::NewtonNotConverged { t: t1, iterations: GYRO_MAX_ITER, residual: f64::NAN });
    }
    w.free.as_mut_slice()[..3].copy_from_slice(v.as_slice());
    w.free.as_mut_slice()[3..].copy_from_slice(omega.as_slice());
    Ok(())
}

/// `(x, q)` at the end of the step from `v_k`, the new `v` and `θ` ([`update_pose`]).
pub(crate) fn update_coordinates(q: &mut [f64], x_k: &[f64], v_k: &[f64], v: &[f64], h: f64, theta: f64) {
    let v_th = vec3(&v_k[..3]) * (1.0 - theta) + vec3(&v[..3]) * theta;
    let om_th = vec3(&v_k[3..]) * (1.0 - theta) + vec3(&v[3..]) * theta;
    let (x1, q1) = update_pose(&vec3(x_k), &orientation(x_k), &v_th, &om_th, h);
    q[..3].copy_from_slice(x1.as_slice());
    let c = q1.quaternion();
    q[3..7].copy_from_slice(&[c.w, c.i, c.j, c.k]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Torque-free asymmetric body: one free step keeps energy and world angular momentum.
    #[test]
    fn free_step_conserves_energy_and_momentum() {
        let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
        let inv = i.try_inverse().unwrap();
        let om = Vector3::new(0.1, 5.0, 0.2);
        let q = UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3);
        let h = 0.01;
        let (om1, ok) = free_angular_velocity((&i, &inv, false), &om, &Vector3::zeros(), (h, 0.5), (1e-15, 100));
        assert!(ok);
        let (_, q1) = update_pose(&Vector3::zeros(), &q, &Vector3::zeros(), &((om + om1) * 0.5), h);
        let e0 = 0.5 * om.dot(&(i * om));
        let e1 = 0.5 * om1.dot(&(i * om1));
        assert!((e1 - e0).abs() <= 1e-14 * e0, "{e0} {e1}");
        let l0 = q * (i * om);
        let l1 = q1 * (i * om1);
        assert!((l1 - l0).norm() <= 1e-14 * l0.norm());
        assert!((om1 - om).norm() > 1e-3, "the body does precess");
    }
}
