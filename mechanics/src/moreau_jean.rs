//! Moreau–Jean θ-scheme for the bodies of a scene (Siconos `MoreauJeanOSI` on a `NewtonEulerDS`):
//! the rigid-body family written once in the kernel (`saltus_kernel::simulation::osi::rigid_body`:
//! free velocity, gyroscopic fixed point in the momentum form, exponential-map pose), plus what
//! only a scene's bodies have: boundary conditions on the angular velocity and user forces
//! evaluated on a predicted state.

use crate::body::BodyState;
use crate::boundary::BoundaryCondition;
use nalgebra::{Matrix3, Vector3};
use saltus_kernel::simulation::osi::rigid_body::gyroscopic_fixed_point;
pub use saltus_kernel::simulation::osi::rigid_body::{free_angular_velocity, free_velocity, update_pose};

/// Free angular velocity of a body with a [`BoundaryCondition`] (evaluated at `t_{k+1}`): the
/// fixed point of [`free_angular_velocity`] where each iterate solves only the free rows,
/// `I_FF Ω_F = (exp(−hΩ̂_θ) I Ω_k + h τ_θ)_F − I_FB û_B`, and `Ω_B = û_B`.
/// `step` is `(h, θ)`, `fixed_point` the tolerance and cap. Returns `(Ω_f, converged)`.
pub fn free_angular_velocity_bc(
    inertia: &Matrix3<f64>,
    isotropic: bool,
    bc: &BoundaryCondition,
    omega: &Vector3<f64>,
    tau_theta: &Vector3<f64>,
    step: (f64, f64),
    fixed_point: (f64, usize),
) -> (Vector3<f64>, bool) {
    let om_b = bc.omega_b().unwrap_or_else(Vector3::zeros);
    if isotropic {
        // no gyroscopic term: I Ω_f = I Ω_k + h τ_θ row by row
        let kick = tau_theta * step.0;
        return (bc.solve_rotation(inertia, &(inertia * omega + kick), &om_b), true);
    }
    gyroscopic_fixed_point(inertia, omega, tau_theta, step, fixed_point, |b| bc.solve_rotation(inertia, b, &om_b))
}

/// The state a user force is evaluated on at `t_{k+1}`: the pose advanced by `h` with the twist
/// of `t_k` (`x_k + h v_k`, `q_k ⊗ exp(h Ω_k)`), the twist unchanged — the first Newton iterate
/// of Siconos's Moreau–Jean. With θ = ½ a linear spring `f = −k x` then gives a step map of
/// determinant 1 (no energy drift); θ > ½ damps it.
pub fn predicted(s: &BodyState, h: f64) -> BodyState {
    let (position, orientation) = update_pose(&s.position, &s.orientation, &s.v, &s.omega, h);
    BodyState { position, orientation, ..*s }
}
