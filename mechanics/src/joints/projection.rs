//! Drift and penetration correction after a step (the rigid-body counterpart of the kernel's
//! direct projection, `saltus_kernel` `projection.rs`, Siconos `TimeSteppingDirectProjection` /
//! `TimeSteppingCombinedProjection`): the positions are projected back onto the joint manifold
//! `h(q) = 0` (and, with the contacts, onto `g(q) ≥ 0`) in the metric of the mass matrix, then
//! the velocities onto the joints' tangent space.
//!
//! Gauss–Newton on the positions, with `J` and `h` re-evaluated at each iterate, until
//! `max_i |h_i(q)| ≤ tol` or `max_iter` iterations:
//!
//! ```text
//! G = J M⁻¹ Jᵀ,   G μ = −h(q),   (x, q) ← (x + δv, q ⊗ exp(δΩ)),   (δv, δΩ) = M⁻¹ Jᵀ μ
//! ```
//!
//! (the update moves along the twist coordinates of the Jacobian, so the iteration is Newton's
//! on the manifold and converges quadratically). Then `v ← v + M⁻¹ Jᵀ ν` with `G ν = −J v`,
//! the mass-weighted orthogonal projection onto `J v = 0`, which never increases the kinetic
//! energy. The iteration and the Cholesky solve are the kernel's
//! ([`saltus_kernel::simulation::projection::gauss_newton`], the core of its direct
//! projection); a tiny diagonal shift (`1e-12 · max G_ii`) keeps redundant constraints (closed
//! loops, and the coplanar corners of a box on a face) solvable, giving the least-norm correction.
//! The rows are the joint rows, the rows of the joint stops that the positions violate (see
//! [`super::limits_step`]: they are projected onto the stop, `y = 0`), and, with
//! [`JointProjection::contacts`], the contacts closer than the margin as unilateral rows
//! `g(q) ≥ 0` ([`contacts`]: the gaps re-evaluated by the narrow phase at every iterate) until every
//! gap is `≥ −contact_tol`, as Siconos `TimeSteppingDirectProjection` projects its unilateral
//! interactions. The mixed problem `G μ + h = w` then has `w_e = 0` on the joints and stops and
//! `0 ≤ w_c ⊥ μ_c ≥ 0` on the contacts (exact principal pivoting), and each body moves by one
//! retraction with its summed twist. The velocity projection covers the joints only: as
//! Siconos's direct projection and the kernel's, the contacts' velocities are left to the impact
//! law of the next step (a corrected position only).

mod contacts;

pub(crate) use contacts::ContactProjection;

use super::step::{apply_impulses, dense_w, joint_rows, joint_sides, row_velocity, EqualityRows, JointWorkspace};
use super::{CouplerJointR, Joint};
use crate::body::RigidBody;
use crate::error::{MechanicsError, Result};
use crate::model::MechanicsModel;
use nalgebra::{DMatrix, UnitQuaternion, Vector3};
use saltus_kernel::simulation::projection::gauss_newton::{
    project_positions, project_velocities, ConstraintSet, Evaluation, Level, ProjectionFailure,
};

/// Options of the projection after each step (Siconos `TimeSteppingDirectProjection`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointProjection {
    /// Project at all (default `true`).
    pub enabled: bool,
    /// Accepted violation `max_i |h_i(q)|` of the joints and stops (lengths for point rows,
    /// dimensionless for orientation rows); default 1e-12.
    pub tol: f64,
    /// Gauss–Newton iterations per step (default 10).
    pub max_iter: usize,
    /// Also project the velocities onto `J v = 0` (default `true`).
    pub project_velocity: bool,
    /// Also project the positions onto the contacts, `g(q) ≥ −contact_tol` (default `false`:
    /// the joints only).
    pub contacts: bool,
    /// Accepted penetration `max(0, −g)` of a contact (Siconos's `constraintTolUnilateral`,
    /// the runner's `projection_tolerance_unilateral`); default 1e-10, the kernel's projection
    /// tolerance.
    pub contact_tol: f64,
}

impl Default for JointProjection {
    fn default() -> Self {
        JointProjection {
            enabled: true,
            tol: 1e-12,
            max_iter: 10,
            project_velocity: true,
            contacts: false,
            contact_tol: 1e-10,
        }
    }
}

impl JointProjection {
    /// Tolerances finite and > 0, `max_iter` > 0.
    pub fn validate(&self) -> Result<()> {
        if !(self.tol > 0.0 && self.tol.is_finite() && self.contact_tol > 0.0 && self.contact_tol.is_finite())
            || self.max_iter == 0
        {
            return Err(MechanicsError::InvalidOption {
                option: "joint_projection",
                reason: format!(
                    "tol and contact_tol must be finite and > 0 and max_iter > 0, got {}, {}, {}",
                    self.tol, self.contact_tol, self.max_iter
                ),
            });
        }
        Ok(())
    }
}

/// What a projection did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ProjectionReport {
    /// Gauss–Newton iterations taken.
    pub iterations: usize,
    /// `max_i |h_i(q)|` at the end, over the joint rows and the rows of the violated stops.
    pub violation: f64,
    /// `max_i |(J v)_i|` at the end.
    pub velocity_violation: f64,
    /// The deepest penetration `max(0, −g)` over the contacts at the end (0 when the contacts
    /// are not projected).
    pub contact_violation: f64,
    /// Contacts (unilateral rows: those closer than the margin) at the last evaluation.
    pub contact_rows: usize,
    /// Both tolerances were met within `max_iter` iterations (otherwise the last iterate is
    /// kept: a status, not an error; with the contacts, also when the pivoting of the mixed
    /// problem cycles, which happens on gaps at round-off).
    pub converged: bool,
}

/// Relative diagonal shift of `G`
/// ([`saltus_kernel::simulation::projection::gauss_newton::GaussNewton::shift`]): closed loops of
/// joints, and the corners of a face resting on a face, have redundant rows.
const REDUNDANCY_SHIFT: f64 = 1e-12;

/// `max_i |x_i|`.
fn max_abs(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// `J v` over the joint rows of `ws` at the bodies' velocities.
fn joint_velocities(ws: &JointWorkspace, bodies: &[RigidBody]) -> Vec<f64> {
    let vel = |b: usize| (bodies[b].state.v, bodies[b].state.omega);
    ws.rows.iter().zip(&ws.sides).map(|(r, s)| row_velocity(r, *s, vel)).collect()
}

/// Joint and coupler violation `max_i |h_i(q)|` at the bodies' states.
pub(crate) fn violation(
    ws: &mut JointWorkspace,
    (joints, couplers): (&[Joint], &[CouplerJointR]),
    bodies: &[RigidBody],
) -> f64 {
    ws.rows.clear();
    ws.h.clear();
    ws.states.clear();
    ws.states.extend(bodies.iter().map(|b| b.state));
    let eq = EqualityRows { joints, couplers, near: &ws.couplers };
    joint_rows(eq, bodies, &ws.states, &mut ws.rows, &mut ws.h, &mut ws.jr);
    max_abs(&ws.h)
}

/// The joint rows and the rows of the violated stops (equalities), then the contact rows
/// (unilateral) as the kernel's [`ConstraintSet`]; a correction moves each body along its twist,
/// `(x, q) ← (x + δv, q ⊗ exp(δΩ))`.
struct ProjectionSet<'a> {
    ws: &'a mut JointWorkspace,
    model: &'a mut MechanicsModel,
    opts: &'a JointProjection,
    /// Project the contacts too (their detection is `ws.contacts`).
    contacts: bool,
    t: f64,
    /// Joint rows of the last evaluation (the stop rows, then the contact rows follow).
    ne: usize,
    /// Violation of the joints and stops, contact rows and penetration of the last evaluation.
    joint_violation: f64,
    nc: usize,
    contact_violation: f64,
    /// Position corrections applied.
    corrections: usize,
}

impl ConstraintSet for ProjectionSet<'_> {
    type Error = MechanicsError;

    fn evaluate(&mut self) -> Result<Evaluation> {
        let ws = &mut *self.ws;
        let (joints, couplers, stops, bodies) = self.model.joints_and_bodies_mut();
        violation(ws, (joints, couplers), bodies);
        self.ne = ws.rows.len();
        ws.limits.violated_rows(stops, joints, bodies, &ws.states, self.opts.tol, &mut ws.rows, &mut ws.h);
        let violation = max_abs(&ws.h);
        let n_eq = ws.rows.len();
        self.joint_violation = violation;
        let mut converged = violation <= self.opts.tol;
        if self.contacts {
            let min_gap = ws.contacts.rows(&*self.model, self.t, &mut ws.rows, &mut ws.h)?;
            self.contact_violation = (-min_gap).max(0.0);
            converged &= self.contact_violation <= self.opts.contact_tol;
        }
        self.nc = ws.rows.len() - n_eq;
        Ok(Evaluation { rows: ws.rows.len(), n_eq, violation: violation.max(self.contact_violation), converged })
    }

    fn velocity_rows(&mut self) -> usize {
        self.ws.rows.truncate(self.ne);
        self.ws.sides.clear();
        let eq = EqualityRows {
            joints: self.model.joints(),
            couplers: self.model.joint_couplers(),
            near: &self.ws.couplers,
        };
        joint_sides(eq, &self.ws.states, &mut self.ws.sides);
        self.ne
    }

    fn gram(&mut self, level: Level, g: &mut DMatrix<f64>, y: &mut [f64]) -> Result<()> {
        let n_bodies = self.model.bodies.len();
        dense_w(&self.ws.rows, &mut self.ws.graph, n_bodies, g)
            .map_err(|source| MechanicsError::Numerics { t: self.t, source })?;
        let n = self.ws.rows.len();
        match level {
            Level::Position => y[..n].copy_from_slice(&self.ws.h),
            Level::Velocity => y[..n].copy_from_slice(&joint_velocities(self.ws, &self.model.bodies)),
        }
        Ok(())
    }

    fn correct(&mut self, level: Level, mu: &[f64]) -> Result<()> {
        if mu.iter().any(|x| !x.is_finite()) {
            return Err(not_factorized(self.t));
        }
        let bodies = &mut self.model.bodies;
        self.corrections += usize::from(level == Level::Position);
        if self.contacts && level == Level::Position {
            // One retraction per body with the summed twist: the contact rows' corrections are
            // large and cancel between rows (a box pushed down by one neighbour and up by the
            // ground), and composing their exponentials row by row would leave a rotation of
            // their second order (a yaw of 3e-3 rad for a 2 cm correction of a 0.2 m cube).
            let delta = &mut self.ws.contacts.delta;
            delta.clear();
            delta.resize(bodies.len(), None);
            apply_impulses(&self.ws.rows, mu, |b, d, dth| {
                let e = delta[b].get_or_insert((Vector3::zeros(), Vector3::zeros()));
                e.0 += d;
                e.1 += dth;
            });
            for (b, e) in bodies.iter_mut().zip(delta.iter()) {
                if let Some((d, dth)) = e {
                    let s = &mut b.state;
                    s.position += d;
                    s.orientation *= UnitQuaternion::from_scaled_axis(*dth);
                    s.orientation.renormalize();
                }
            }
            return Ok(());
        }
        // The joints alone: row by row (their corrections are small; the joint samples keep
        // their bits).
        apply_impulses(&self.ws.rows, mu, |b, d, dth| {
            let s = &mut bodies[b].state;
            match level {
                Level::Position => {
                    s.position += d;
                    s.orientation *= UnitQuaternion::from_scaled_axis(dth);
                    s.orientation.renormalize();
                }
                Level::Velocity => {
                    s.v += d;
                    s.omega += dth;
                }
            }
        });
        Ok(())
    }
}

/// The error of a projection whose matrix `G` could not be used (singular or a non-finite
/// correction).
fn not_factorized(t: f64) -> MechanicsError {
    MechanicsError::InvalidModel {
        what: format!("projection at t = {t}"),
        reason: "the projection matrix H M⁻¹ Hᵀ could not be factorized".into(),
    }
}

/// Projects the bodies' positions, then velocities (see the module documentation) with the
/// kernel's Gauss–Newton core; the contacts too when `contacts` is set. The states change
/// only by finite corrections; on an error (a singular `G`, a failed detection) the state is left
/// as it was at the failing iteration, which is finite. `t` is only used in error messages.
pub(crate) fn project(
    ws: &mut JointWorkspace,
    model: &mut MechanicsModel,
    opts: &JointProjection,
    contacts: bool,
    t: f64,
) -> Result<ProjectionReport> {
    ws.limits.projected.clear();
    let mut gn = std::mem::take(&mut ws.gn);
    gn.shift = REDUNDANCY_SHIFT;
    let mut set = ProjectionSet {
        ws,
        model,
        opts,
        contacts,
        t,
        ne: 0,
        joint_violation: 0.0,
        nc: 0,
        contact_violation: 0.0,
        corrections: 0,
    };
    let positions = match project_positions(&mut set, &mut gn, opts.max_iter) {
        Ok(out) => Ok((out.iterations, out.converged)),
        // With contacts, a mixed problem that the pivoting cannot solve (cycling on gaps at
        // round-off, far below any useful tolerance) ends the iteration as the cap does: the
        // last iterate is kept and the step reports it.
        Err(ProjectionFailure::Pivot(_)) if contacts => Ok((set.corrections, false)),
        Err(e) => Err(e),
    };
    let result = positions.and_then(|(iterations, converged)| {
        let report = (iterations, converged, set.joint_violation, set.nc, set.contact_violation);
        if opts.project_velocity {
            project_velocities(&mut set, &mut gn)?;
        }
        Ok(report)
    });
    let ProjectionSet { ws, model, .. } = set;
    ws.gn = gn;
    let (iterations, converged, violation, nc, contact_violation) = result.map_err(|e| match e {
        ProjectionFailure::Constraints(e) => e,
        ProjectionFailure::Pivot(_) => not_factorized(t),
    })?;
    let mut rep = ProjectionReport {
        iterations,
        violation,
        velocity_violation: 0.0,
        contact_violation,
        contact_rows: nc,
        converged,
    };
    if opts.project_velocity {
        rep.velocity_violation = max_abs(&joint_velocities(ws, &model.bodies));
    }
    Ok(rep)
}
