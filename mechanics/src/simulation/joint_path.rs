//! The joint path of a step (see [`crate::joints::step`]): the one-step problem with joints and
//! contacts under a fixed point on the mid-step twists and the gyroscopic rotation, then the
//! projection onto the joints.

use super::MechanicsSimulation;
use crate::error::{MechanicsError, Result};
use crate::joints::projection::{project, ProjectionReport};
use crate::joints::step::solve_step;
use nalgebra::Vector3;
use saltus_kernel::OnNonConvergence;
use saltus_numerics::SolveReport;

impl MechanicsSimulation {
    /// The one-step problem with the joints and the active contacts (see
    /// [`crate::joints::step`]): impulses into `self.contacts`, velocities into `self.work`.
    pub(super) fn solve_with_joints(&mut self) -> Result<SolveReport> {
        let t = self.t;
        let num = |source| MechanicsError::Numerics { t, source };
        let (h, theta) = (self.h, self.opts.theta);
        // The joint forces are not impulsive: the gyroscopic rotation exp(−h Ω̂_θ) of the
        // momentum must use the Ω_θ of the constrained step, not of the free one, and the
        // joints are evaluated at the mid-step poses of (v_θ, Ω_θ). Fixed point: solve,
        // recompute the free Ω and the mid-step twists, solve again (warm started) until
        // neither changes by more than `tol` (relative) or gyro_max_iter solves.
        let mut iter = 0;
        // Without contacts the joints are solved exactly; with contacts the impulses are only
        // known to the solver's tolerance, which bounds what the fixed point can reach.
        let tol = if self.asm.rows.is_empty() {
            10.0 * self.opts.gyro_tol
        } else {
            (10.0 * self.opts.gyro_tol).max(self.opts.joint_solver.iter.tol)
        };
        // Index set 1 of the joint stops, at the start poses.
        let ws = &mut self.joint_ws;
        ws.states.clear();
        ws.states.extend(self.model.bodies.iter().map(|b| b.state));
        let delta = self.opts.activation_tol * self.model.margin;
        let limits = (self.model.joint_stops(), self.model.joints());
        ws.limits.activate(limits, &ws.states, (self.opts.gamma, h), delta);
        self.joint_mid.clear();
        self.joint_mid.extend(self.model.bodies.iter().map(|b| (b.state.v, b.state.omega)));
        let rep = loop {
            iter += 1;
            self.joint_vel.clear();
            self.joint_vel.extend(self.work.iter().map(|w| (w.v, w.omega)));
            let sol = solve_step(
                &mut self.joint_ws,
                (self.model.joints(), self.model.joint_couplers()),
                (self.model.joint_stops(), self.model.joint_frictions()),
                &self.model.bodies,
                &mut self.joint_vel,
                &self.joint_mid,
                &self.asm.rows,
                &self.q,
                &self.mu,
                &mut self.r,
                (h, theta),
                &self.opts.joint_solver,
            )
            .map_err(num)?;
            let mut change = 0.0f64;
            // Relative change, with the velocity gravity gives in one step as the floor of the
            // scale (bodies at rest would otherwise compare round-off with round-off).
            let floor = (self.model.gravity.norm() * h).max(f64::MIN_POSITIVE);
            let rel = |a: Vector3<f64>, b: Vector3<f64>| (a - b).norm() / a.norm().max(b.norm()).max(floor);
            let bodies = self.model.bodies.iter().zip(&mut self.work).zip(&self.joint_vel).zip(&mut self.joint_mid);
            for (((b, w), &(v1, om1)), mid) in bodies {
                let om0 = b.state.omega;
                let om_th = om0 * (1.0 - theta) + om1 * theta;
                if b.is_dynamic() {
                    let next = (b.state.v * (1.0 - theta) + v1 * theta, om_th);
                    change = change.max(rel(next.0, mid.0)).max(rel(next.1, mid.1));
                    *mid = next;
                }
                if b.is_dynamic() && !b.isotropic {
                    let rot = nalgebra::UnitQuaternion::from_scaled_axis(om_th * h);
                    let rhs = rot.inverse_transform_vector(&(b.inertia * om0)) + w.tau * h;
                    let free = match &b.boundary {
                        None => b.inv_inertia * rhs,
                        Some(bc) => bc.solve_rotation(&b.inertia, &rhs, &bc.omega_b().unwrap_or_else(Vector3::zeros)),
                    };
                    change = change.max(rel(free, w.omega));
                    w.omega = free;
                }
            }
            // Stops that the solved velocities would close join index set 1 (solve again).
            let vel = |b: usize| self.joint_vel[b];
            let grown = self.joint_ws.limits.extend_active(self.model.joint_stops(), vel, (self.opts.gamma, h), delta);
            if !grown && (change <= tol || iter >= self.opts.gyro_max_iter) {
                break sol.report;
            }
        };
        if !rep.status.converged() && self.opts.on_non_convergence == OnNonConvergence::Fail {
            return Err(num(saltus_numerics::NumericsError::InvalidOption {
                option: "on_non_convergence",
                reason: format!("joint solver did not converge: {:?}, residual {:e}", rep.status, rep.residual),
            }));
        }
        for (w, &(v, om)) in self.work.iter_mut().zip(&self.joint_vel) {
            (w.v, w.omega) = (v, om);
        }
        for (a, &k) in self.active.iter().enumerate() {
            self.contacts[k as usize].impulse = Vector3::new(self.r[3 * a], self.r[3 * a + 1], self.r[3 * a + 2]);
        }
        Ok(rep)
    }

    /// Initial velocities that violate the joints' velocity constraints `J v = 0` are projected
    /// onto them (mass-weighted, as the projection after a step: the kinetic energy never
    /// increases), as Siconos's first step does (its joints hold at the end velocity,
    /// `J v_{k+1} = 0`): the joint rows of a Moreau–Jean step hold at the mid-step velocity
    /// (`J v_θ = 0`, energy-conserving for a mechanism), which would reflect an inconsistent
    /// component from step to step instead of removing it. Velocities that already satisfy
    /// `J v = 0` to 1e-12 of their magnitude are left bit for bit.
    pub(super) fn project_initial_velocities(&mut self) -> Result<()> {
        if self.model.joints().is_empty() {
            return Ok(());
        }
        let before: Vec<_> = self.model.bodies.iter().map(|b| b.state).collect();
        let p = crate::joints::JointProjection { project_velocity: true, ..Default::default() };
        let rep = project(&mut self.joint_ws, &mut self.model, &p, false, self.t);
        self.joint_ws.limits.projected.clear();
        let scale = before.iter().map(|s| s.v.norm().max(s.omega.norm())).fold(0.0f64, f64::max);
        let moved = self.model.bodies.iter().zip(&before).any(|(b, s)| {
            (b.state.v - s.v).norm().max((b.state.omega - s.omega).norm()) > 1e-12 * scale.max(f64::MIN_POSITIVE)
        });
        // keep the velocity correction only: the positions are on the joints at t0 already
        for (b, s) in self.model.bodies.iter_mut().zip(&before) {
            let (v, omega) = (b.state.v, b.state.omega);
            b.state = *s;
            if moved && rep.is_ok() {
                (b.state.v, b.state.omega) = (v, omega);
            }
        }
        rep.map(|_| ())
    }

    /// Projection onto the joints, and with [`crate::joints::JointProjection::contacts`] onto the
    /// contacts, after the step (the state is already the new one).
    pub(super) fn project_joints(&mut self, t1: f64) -> Result<Option<ProjectionReport>> {
        let p = self.opts.joint_projection;
        let contacts = p.enabled && p.contacts;
        if self.model.joints().is_empty() && !contacts {
            return Ok(None);
        }
        let rep = if p.enabled { Some(project(&mut self.joint_ws, &mut self.model, &p, contacts, t1)?) } else { None };
        if contacts {
            // the next step's contacts at the projected poses, computed afresh: their gaps are
            // the ones the projection saw (not parry's coherent update of older points)
            self.detector.forget_manifolds();
        }
        let ws = &mut self.joint_ws;
        ws.states.clear();
        ws.states.extend(self.model.bodies.iter().map(|b| b.state));
        ws.limits.end_step(self.model.joint_stops(), self.model.joints(), &ws.states);
        ws.couplers.refresh(self.model.joint_couplers(), self.model.joints(), &ws.states);
        Ok(rep)
    }
}

impl MechanicsSimulation {
    /// Impulses `[lower, upper]` of joint stop `k` (index of
    /// [`crate::MechanicsModel::add_joint_stop`]) over the last step; divided by `h` they are the
    /// mean reaction force or torque of the stop. `None` if there is no such stop.
    pub fn joint_stop_impulse(&self, k: usize) -> Option<[f64; 2]> {
        let st = &self.joint_ws.limits.stop_impulse;
        if k < self.model.joint_stops().len() {
            Some(st.get(k).copied().unwrap_or([0.0; 2]))
        } else {
            None
        }
    }
    /// The coordinate of joint stop `k` at the current time, unwrapped continuously since the
    /// start for an angle.
    pub fn joint_stop_coordinate(&self, k: usize) -> Option<f64> {
        let st = self.model.joint_stops().get(k)?;
        match self.joint_ws.limits.coords.get(k) {
            Some(&c) if c.is_finite() => Some(c),
            _ => self.model.joint_coordinate(st.joint, st.dof),
        }
    }
    /// The coordinates `[θ₁, θ₂]` of joint coupler `k` (index of
    /// [`crate::MechanicsModel::add_joint_coupler`]) at the current time, unwrapped continuously
    /// since the start for angles: `θ₂ − r θ₁ − c` is the coupler's residual.
    pub fn joint_coupler_coordinates(&self, k: usize) -> Option<[f64; 2]> {
        let c = self.model.joint_couplers().get(k)?;
        match self.joint_ws.couplers.coords.get(k) {
            Some(&x) if x.iter().all(|v| v.is_finite()) => Some(x),
            _ => Some([self.model.joint_coordinate(c.joint1, c.dof1)?, self.model.joint_coordinate(c.joint2, c.dof2)?]),
        }
    }
    /// Impulse of joint friction `k` over the last step (`|λ| ≤ h T`).
    pub fn joint_friction_impulse(&self, k: usize) -> Option<f64> {
        if k < self.model.joint_frictions().len() {
            Some(self.joint_ws.limits.friction_impulse.get(k).copied().unwrap_or(0.0))
        } else {
            None
        }
    }
}
