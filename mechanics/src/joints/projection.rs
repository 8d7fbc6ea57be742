//! Drift correction after a step (the joint counterpart of the kernel's direct projection,
//! `saltus_kernel` `projection.rs`, Siconos `TimeSteppingDirectProjection` /
//! `TimeSteppingCombinedProjection`): the positions are projected back onto the joint manifold
//! `h(q) = 0` in the metric of the mass matrix, then the velocities onto its tangent space.
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
//! loops) solvable, giving the least-norm correction. Contacts are not part of the projection (as in Siconos's
//! projection of bilateral constraints): only joint rows are corrected, and the rows of the joint
//! stops that the positions violate (see [`super::limits_step`]: they are projected onto the
//! stop, `y = 0`).

use super::step::{apply_impulses, dense_w, joint_rows, joint_sides, row_velocity, JointWorkspace};
use super::{Joint, JointStopR};
use crate::body::RigidBody;
use nalgebra::{DMatrix, UnitQuaternion};
use saltus_kernel::simulation::projection::gauss_newton::{
    project_positions, project_velocities, ConstraintSet, Evaluation, Level,
};

/// Options of the projection after each step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointProjection {
    /// Project at all (default `true`).
    pub enabled: bool,
    /// Accepted violation `max_i |h_i(q)|` (lengths for point rows, dimensionless for
    /// orientation rows); default 1e-12.
    pub tol: f64,
    /// Gauss–Newton iterations per step (default 10).
    pub max_iter: usize,
    /// Also project the velocities onto `J v = 0` (default `true`).
    pub project_velocity: bool,
}

impl Default for JointProjection {
    fn default() -> Self {
        JointProjection { enabled: true, tol: 1e-12, max_iter: 10, project_velocity: true }
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
}

/// Relative diagonal shift of `G`
/// ([`saltus_kernel::simulation::projection::gauss_newton::GaussNewton::shift`]): closed loops of joints have
/// redundant rows.
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

/// Joint violation `max_i |h_i(q)|` at the bodies' states.
pub(crate) fn violation(ws: &mut JointWorkspace, joints: &[Joint], bodies: &[RigidBody]) -> f64 {
    ws.rows.clear();
    ws.h.clear();
    ws.states.clear();
    ws.states.extend(bodies.iter().map(|b| b.state));
    joint_rows(joints, bodies, &ws.states, &mut ws.rows, &mut ws.h, &mut ws.jr);
    max_abs(&ws.h)
}

/// The joint rows and the rows of the violated stops as the kernel's [`ConstraintSet`]: every
/// row is an equality, and a correction moves each body along its twist,
/// `(x, q) ← (x + δv, q ⊗ exp(δΩ))`. The error `()` is a non-finite correction.
struct JointSet<'a> {
    ws: &'a mut JointWorkspace,
    joints: &'a [Joint],
    stops: &'a [JointStopR],
    bodies: &'a mut [RigidBody],
    tol: f64,
    /// Joint rows of the last evaluation (the stop rows follow).
    ne: usize,
}

impl ConstraintSet for JointSet<'_> {
    type Error = ();

    fn evaluate(&mut self) -> Result<Evaluation, ()> {
        let ws = &mut *self.ws;
        violation(ws, self.joints, self.bodies);
        self.ne = ws.rows.len();
        ws.limits.violated_rows(self.stops, self.joints, self.bodies, &ws.states, self.tol, &mut ws.rows, &mut ws.h);
        let violation = max_abs(&ws.h);
        let n = ws.rows.len();
        Ok(Evaluation { rows: n, n_eq: n, violation, converged: violation <= self.tol })
    }

    fn velocity_rows(&mut self) -> usize {
        self.ws.rows.truncate(self.ne);
        self.ws.sides.clear();
        joint_sides(self.joints, &mut self.ws.sides);
        self.ne
    }

    fn gram(&mut self, level: Level, g: &mut DMatrix<f64>, y: &mut [f64]) -> Result<(), ()> {
        dense_w(&self.ws.rows, &mut self.ws.graph, self.bodies.len(), g).map_err(|_| ())?;
        let n = self.ws.rows.len();
        match level {
            Level::Position => y[..n].copy_from_slice(&self.ws.h),
            Level::Velocity => y[..n].copy_from_slice(&joint_velocities(self.ws, self.bodies)),
        }
        Ok(())
    }

    fn correct(&mut self, level: Level, mu: &[f64]) -> Result<(), ()> {
        if mu.iter().any(|x| !x.is_finite()) {
            return Err(());
        }
        let bodies = &mut *self.bodies;
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

/// Projects the bodies' positions, then velocities (see the module documentation) with the
/// kernel's Gauss–Newton core. The states change only by finite corrections; returns `None` if
/// `G` could not be factorized (the state is then left as it was at the failing iteration,
/// which is finite).
pub(crate) fn project(
    ws: &mut JointWorkspace,
    joints: &[Joint],
    stops: &[JointStopR],
    bodies: &mut [RigidBody],
    opts: &JointProjection,
) -> Option<ProjectionReport> {
    ws.limits.projected.clear();
    let mut gn = std::mem::take(&mut ws.gn);
    gn.shift = REDUNDANCY_SHIFT;
    let mut set = JointSet { ws, joints, stops, bodies, tol: opts.tol, ne: 0 };
    let result = project_positions(&mut set, &mut gn, opts.max_iter).and_then(|out| {
        if opts.project_velocity {
            project_velocities(&mut set, &mut gn)?;
        }
        Ok(out)
    });
    set.ws.gn = gn;
    let out = result.ok()?;
    let mut rep = ProjectionReport { iterations: out.iterations, violation: out.violation, velocity_violation: 0.0 };
    if opts.project_velocity {
        rep.velocity_violation = max_abs(&joint_velocities(set.ws, set.bodies));
    }
    Some(rep)
}
