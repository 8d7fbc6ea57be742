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
//! energy. As in the kernel, `G` is factorized by Cholesky; a tiny diagonal shift
//! (`1e-12 · max G_ii`) keeps redundant constraints (closed loops) solvable, giving the
//! least-norm correction. Contacts are not part of the projection (as in Siconos's
//! projection of bilateral constraints): only joint rows are corrected, and the rows of the joint
//! stops that the positions violate (see [`super::limits_step`]: they are projected onto the
//! stop, `y = 0`).

use super::step::{apply_impulses, dense_w, joint_rows, joint_sides, row_velocity, JointWorkspace};
use super::{Joint, JointStopR};
use crate::body::RigidBody;
use nalgebra::{DVector, UnitQuaternion};

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

/// Solves `(G + εI) x = b` with `G` in `ws.w`; `None` if `G` is not positive semi-definite.
fn solve_g(ws: &JointWorkspace, b: DVector<f64>) -> Option<DVector<f64>> {
    let n = b.len();
    let scale = (0..n).map(|i| ws.w[(i, i)]).fold(0.0f64, f64::max);
    let mut g = ws.w.clone();
    for i in 0..n {
        g[(i, i)] += 1e-12 * scale;
    }
    g.cholesky().map(|c| c.solve(&b))
}

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

/// Projects the bodies' positions, then velocities (see the module documentation). The states
/// change only by finite corrections; returns `None` if `G` could not be factorized (the state
/// is then left as it was at the failing iteration, which is finite).
pub(crate) fn project(
    ws: &mut JointWorkspace,
    joints: &[Joint],
    stops: &[JointStopR],
    bodies: &mut [RigidBody],
    opts: &JointProjection,
) -> Option<ProjectionReport> {
    let mut rep = ProjectionReport::default();
    ws.limits.projected.clear();
    let mut ne;
    loop {
        violation(ws, joints, bodies);
        ne = ws.rows.len();
        ws.limits.violated_rows(stops, joints, bodies, &ws.states, opts.tol, &mut ws.rows, &mut ws.h);
        rep.violation = max_abs(&ws.h);
        if rep.violation <= opts.tol || rep.iterations >= opts.max_iter {
            break;
        }
        rep.iterations += 1;
        dense_w(&ws.rows, &mut ws.w);
        let mu = solve_g(ws, -DVector::from_column_slice(&ws.h))?;
        if mu.iter().any(|x| !x.is_finite()) {
            return None;
        }
        apply_impulses(&ws.rows, mu.as_slice(), |b, dx, dth| {
            let s = &mut bodies[b].state;
            s.position += dx;
            s.orientation *= UnitQuaternion::from_scaled_axis(dth);
            s.orientation.renormalize();
        });
    }
    if opts.project_velocity {
        ws.rows.truncate(ne);
        ws.sides.clear();
        joint_sides(joints, &mut ws.sides);
        let jv = joint_velocities(ws, bodies);
        dense_w(&ws.rows, &mut ws.w);
        let nu = solve_g(ws, -DVector::from_vec(jv))?;
        if nu.iter().any(|x| !x.is_finite()) {
            return None;
        }
        apply_impulses(&ws.rows, nu.as_slice(), |b, dv, dom| {
            bodies[b].state.v += dv;
            bodies[b].state.omega += dom;
        });
        let jv = joint_velocities(ws, bodies);
        rep.velocity_violation = max_abs(&jv);
    }
    Some(rep)
}
