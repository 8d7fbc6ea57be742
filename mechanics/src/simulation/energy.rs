//! The energy and the work of a step (Siconos `output_energy_work`, its `energy_work` table):
//! the kinetic energy at the step's end, the work of the smooth forces and the work of the
//! contact impulses, each contact's relative velocity at both ends of the step kept on it.
//!
//! With the step's Jacobian `H` (built at `q_k`) and the Moreau–Jean velocity update
//! `M (v_{k+1} − v_free) = Hᵀ p`, `M (v_free − v_k) = h f` (the smooth forces' impulse, the
//! gyroscopic term of the rotations included), the kinetic energy changes by
//!
//! `K_{k+1} − K_k = ½ (v_k + v_{k+1}) · M (v_{k+1} − v_k) = W_f + Σ_c ½ (u⁻ + u⁺) · p_c`
//!
//! with `W_f = (M (v_free − v_k)) · v_θ` at `θ = ½` and `u⁻ = H v_k`, `u⁺ = H v_{k+1}`: the
//! balance holds to round-off at `θ = ½` for contacts between free bodies. Joint reactions,
//! rolling resistance and prescribed velocities add work of their own (in `W_f` for a
//! prescription, absent otherwise); a projection after the step changes `K` without work.

use super::MechanicsSimulation;
use nalgebra::Vector3;

/// Kinetic energy and work of one step: Siconos's `energy_work` row without its time.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepEnergy {
    /// `Σ ½ m |v|² + ½ Ωᵀ I Ω` over the dynamic bodies of the step, at its end.
    pub kinetic: f64,
    /// Work of the smooth forces (weight, user forces, the scheme's gyroscopic term):
    /// `Σ_b (M_b (v_free − v_k)) · v_θ`, `v_θ = (1 − θ) v_k + θ v_{k+1}` (Siconos's
    /// `h f_θ · v_θ` for a constant `f`).
    pub work_forces: f64,
    /// `Σ_c ½ (u⁻_N + u⁺_N) p_N` over the active contacts.
    pub work_normal: f64,
    /// `Σ_c ½ (u⁻_T + u⁺_T) · p_T`.
    pub work_tangent: f64,
    /// `Σ_c ((1 − θ) u⁻_N + θ u⁺_N) p_N`.
    pub work_normal_theta: f64,
    /// `Σ_c ((1 − θ) u⁻_T + θ u⁺_T) · p_T`.
    pub work_tangent_theta: f64,
    /// The negative part of the normal work: `Σ_c min(½ (u⁻_N + u⁺_N) p_N, 0)`.
    pub work_normal_negative: f64,
    /// The negative part of the tangent work.
    pub work_tangent_negative: f64,
}

impl StepEnergy {
    /// The eight numbers in Siconos's column order (`energy_work` columns 1–8).
    pub fn to_array(&self) -> [f64; 8] {
        [
            self.kinetic,
            self.work_forces,
            self.work_normal,
            self.work_tangent,
            self.work_normal_theta,
            self.work_tangent_theta,
            self.work_normal_negative,
            self.work_tangent_negative,
        ]
    }
}

impl MechanicsSimulation {
    /// The step's work, between the solve (`self.work` holds `v_{k+1}`) and the pose update
    /// (the bodies still hold `v_k`); each active contact's `velocities` set. The kinetic
    /// energy is filled in at the step's end.
    pub(super) fn step_work(&mut self) -> StepEnergy {
        let theta = self.opts.theta;
        let mut e = StepEnergy::default();
        for (b, w) in self.model.bodies.iter().zip(&self.work) {
            if b.is_dynamic() && b.alive {
                let s = &b.state;
                let v_th = s.v * (1.0 - theta) + w.v * theta;
                let om_th = s.omega * (1.0 - theta) + w.omega * theta;
                e.work_forces += w.smooth[0].dot(&v_th) + w.smooth[1].dot(&om_th);
            }
        }
        for (a, &k) in self.active.iter().enumerate() {
            let row = &self.asm.rows[a];
            let c = &mut self.contacts[k as usize];
            let (mut u0, mut u1) = (Vector3::zeros(), Vector3::zeros());
            for (s, id) in [c.body1, c.body2].into_iter().enumerate() {
                let (b, w) = (&self.model.bodies[id.index()], &self.work[id.index()]);
                // a static side's Jacobian is zero
                u0 += row.jac[s].apply(&b.state.v, &b.state.omega);
                u1 += row.jac[s].apply(&w.v, &w.omega);
            }
            c.velocities = Some([u0, u1]);
            let p = c.impulse;
            let (half, th) = ((u0 + u1) * 0.5, u0 * (1.0 - theta) + u1 * theta);
            let (wn, wt) = (half.x * p.x, half.y * p.y + half.z * p.z);
            e.work_normal += wn;
            e.work_tangent += wt;
            e.work_normal_theta += th.x * p.x;
            e.work_tangent_theta += th.y * p.y + th.z * p.z;
            e.work_normal_negative += wn.min(0.0);
            e.work_tangent_negative += wt.min(0.0);
        }
        e
    }

    /// `Σ ½ m |v|² + ½ Ωᵀ I Ω` over the dynamic bodies alive in the last step.
    pub(super) fn kinetic_of_the_step(&self) -> f64 {
        self.model.bodies.iter().filter(|b| b.alive).map(|b| b.kinetic_energy()).sum()
    }
}
