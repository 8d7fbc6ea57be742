//! Joint stops and friction in the one-step problem of [`super::step`] and in the projection.
//!
//! Rows after the joints' equality block, evaluated at the same mid-step poses (so the stop
//! and friction impulses are applied as the joint impulses, with the torque carried to the end
//! frame):
//!
//! * an active stop row `y` is a complementarity row `0 ≤ w = J v_{k+1} + e J v_k ⊥ λ ≥ 0`
//!   (one `Complementarity` block for all of them). Index set 1: the rows with
//!   `y_k + γ h min(ẏ, 0) ≤ δ` (`δ` the contacts' activation threshold), `ẏ` at the start of the
//!   step (Siconos's rule) and also with the velocities of each solve of the step's fixed point
//!   (a row that the solved motion would close is added, and the step solved again; the set only
//!   grows within a step). Siconos applies `e` at every active step; here `e` applies to a row
//!   entering the index set (an impact), and a row already active in the previous step is a
//!   persistent contact with `e = 0`. With both, a stop touched (`y_k ≈ 0`, `ẏ_k ≈ 0`) by a
//!   body that the forces press on it stays in the index set (the rate that only the joints
//!   give, e.g. the fall of a pendulum, is not in the free velocities). A real bounce (`ẏ ≫ a h`, `a` the acceleration pressing on the stop) leaves
//!   unhindered (`ẏ_{k+1} = ẏ_k − a h > 0`), while a bounce slower than `a h` ends at rest.
//!   Without this a body resting on a stop with `e > 0` micro-bounces for ever: the bounce
//!   `ẏ = e·a h` deactivates the stop, the free step brings it back past the stop, the
//!   projection puts it back at `y = 0` (discarding the penetration that keeps the row active in
//!   Moreau–Jean without projection), and the cycle repeats with `|ẏ| ≈ a h / (1 − e²)`;
//! * a friction row is a `Relay` block `w = J v_{k+1}`, `−w ∈ N_[−hT, hT](λ)`.
//!
//! Angles are unwrapped continuously: each stop keeps its coordinate at the start of the step,
//! and every evaluation during the step is taken nearest to it.
//!
//! The projection after the step ([`super::projection`]) adds the stop rows that the new
//! positions violate (`y < −tol`) as equalities `y = 0` to the Gauss–Newton iteration, as the
//! kernel's projection does with violated unilateral constraints; a stop row entered in one
//! iteration stays in for the rest of that projection. The velocities are projected on the
//! joints only (a stop leaves at `ẏ ≥ 0` after the impact law).

use super::coordinate::{unwrap_near, DofKind, DofRow};
use super::step::{scalar_row, two_sides, ScalarRow, Sides};
use super::{Joint, JointFrictionR, JointStopR};
use crate::body::{BodyId, BodyState, RigidBody};
use nalgebra::Vector3;
use saltus_kernel::simulation::index_sets::moreau_jean_active;

/// One stop row: stop index and bound (0 lower, 1 upper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StopRow {
    pub stop: u32,
    pub side: u8,
}

/// State of the stops and frictions kept between steps.
#[derive(Debug, Default)]
pub(crate) struct LimitWorkspace {
    /// Each stop's coordinate at the start of the step (unwrapped).
    pub coords: Vec<f64>,
    /// Stop rows in the one-step problem of this step.
    pub active: Vec<StopRow>,
    /// Stop rows of the previous step (their restitution is 0: persistent contact).
    previous: Vec<StopRow>,
    /// Each stop's coordinate and Jacobian at the start poses.
    start: Vec<Option<(DofRow, [Option<BodyId>; 2])>>,
    /// Stop impulses of the last step, `[lower, upper]` per stop.
    pub stop_impulse: Vec<[f64; 2]>,
    /// Friction impulses of the last step.
    pub friction_impulse: Vec<f64>,
    /// Stop rows added by the running projection.
    pub projected: Vec<StopRow>,
}

/// Coordinate `dof` of `joint` at `states` with the sides' body ids, unwrapped near `near` for
/// a rotation.
fn coordinate(
    joint: &Joint,
    dof: usize,
    states: &[BodyState],
    near: Option<f64>,
) -> Option<(DofRow, [Option<BodyId>; 2])> {
    let world = BodyState::default();
    let b = joint.body2.map_or(&world, |b| &states[b.index()]);
    let mut row = joint.dof(dof, &states[joint.body1.index()], b)?;
    if let (Some(near), Some(DofKind::Rotation)) = (near, joint.kind.relation().dofs().get(dof)) {
        row.value = unwrap_near(row.value, near);
    }
    Some((row, [Some(joint.body1), joint.body2]))
}

/// `+1` for a lower stop (`y = s − lower`), `−1` for an upper one.
fn sign(side: u8) -> f64 {
    if side == 0 {
        1.0
    } else {
        -1.0
    }
}

impl LimitWorkspace {
    /// Unwrapped coordinates of every stop at `states`, near the stored ones (first call: the
    /// principal values).
    fn refresh(&mut self, stops: &[JointStopR], joints: &[Joint], states: &[BodyState]) {
        if self.coords.len() != stops.len() {
            self.coords = vec![f64::NAN; stops.len()];
            self.stop_impulse = vec![[0.0; 2]; stops.len()];
        }
        for (k, st) in stops.iter().enumerate() {
            let near = Some(self.coords[k]).filter(|c| c.is_finite());
            if let Some((row, _)) = coordinate(&joints[st.joint.0 as usize], st.dof, states, near) {
                self.coords[k] = row.value;
            }
        }
    }

    /// Start of a step at `states` (the bodies' poses and twists): the coordinates, and the
    /// stop rows of index set 1 with `y_k + γ h min(ẏ_k, 0) ≤ δ`
    /// ([`moreau_jean_active`] on the closing rate).
    pub fn activate(
        &mut self,
        (stops, joints): (&[JointStopR], &[Joint]),
        states: &[BodyState],
        (gamma, h): (f64, f64),
        delta: f64,
    ) {
        self.refresh(stops, joints, states);
        std::mem::swap(&mut self.active, &mut self.previous);
        self.active.clear();
        self.start.clear();
        for (k, st) in stops.iter().enumerate() {
            let start = coordinate(&joints[st.joint.0 as usize], st.dof, states, Some(self.coords[k]));
            self.start.push(start);
        }
        let vel = |b: usize| (states[b].v, states[b].omega);
        self.extend_active(stops, vel, (gamma, h), delta);
    }

    /// Adds to index set 1 the stop rows with `y_k + γ h min(ẏ, 0) ≤ δ`, `ẏ` the coordinate
    /// rate at the start poses with the velocities `vel(body)`; `true` if any was added.
    pub fn extend_active(
        &mut self,
        stops: &[JointStopR],
        vel: impl Fn(usize) -> (Vector3<f64>, Vector3<f64>),
        (gamma, h): (f64, f64),
        delta: f64,
    ) -> bool {
        let n = self.active.len();
        for (k, st) in stops.iter().enumerate() {
            let Some((row, ids)) = &self.start[k] else { continue };
            let mut u = 0.0;
            for (j, id) in row.j.iter().zip(ids) {
                if let Some(id) = id {
                    let (v, om) = vel(id.index());
                    u += (0..3).map(|i| j[i] * v[i] + j[i + 3] * om[i]).sum::<f64>();
                }
            }
            for (side, y) in st.gaps(row.value).into_iter().enumerate() {
                let Some(y) = y else { continue };
                let key = StopRow { stop: k as u32, side: side as u8 };
                // the kernel's rule on the closing part of the rate only
                let closing = (sign(side as u8) * u).min(0.0);
                if moreau_jean_active(y, closing, gamma, h, delta) && !self.active.contains(&key) {
                    self.active.push(key);
                }
            }
        }
        self.active.len() > n
    }

    /// End of a step: the coordinates at the new poses.
    pub fn end_step(&mut self, stops: &[JointStopR], joints: &[Joint], states: &[BodyState]) {
        self.refresh(stops, joints, states);
    }

    /// Appends the active stop rows, then one row per friction, at the poses `states`; returns
    /// `e` of each stop row (for `q`).
    #[allow(clippy::too_many_arguments)]
    pub fn append_rows(
        &self,
        (stops, frictions): (&[JointStopR], &[JointFrictionR]),
        joints: &[Joint],
        bodies: &[RigidBody],
        states: &[BodyState],
        rows: &mut Vec<ScalarRow>,
        sides: &mut Vec<Sides>,
        e: &mut Vec<f64>,
    ) {
        let mut push = |joint: &Joint, dof: usize, near: Option<f64>, sgn: f64| {
            if let Some((row, ids)) = coordinate(joint, dof, states, near) {
                rows.push(scalar_row(ids, bodies, [row.j[0] * sgn, row.j[1] * sgn]));
                sides.push(two_sides(ids));
            }
        };
        e.clear();
        for r in &self.active {
            let st = &stops[r.stop as usize];
            push(&joints[st.joint.0 as usize], st.dof, Some(self.coords[r.stop as usize]), sign(r.side));
            e.push(if self.previous.contains(r) { 0.0 } else { st.e });
        }
        for f in frictions {
            push(&joints[f.joint.0 as usize], f.dof, None, 1.0);
        }
    }

    /// Warm start of the stop and friction rows (the impulses of the last step).
    pub fn warm_start(&self, n_frictions: usize, z: &mut [f64]) {
        for (i, r) in self.active.iter().enumerate() {
            z[i] = self.stop_impulse.get(r.stop as usize).map_or(0.0, |s| s[r.side as usize]);
        }
        if self.friction_impulse.len() == n_frictions {
            z[self.active.len()..].copy_from_slice(&self.friction_impulse);
        }
    }

    /// Keeps the stop and friction impulses `z` of the step.
    pub fn store(&mut self, z: &[f64]) {
        self.stop_impulse.iter_mut().for_each(|s| *s = [0.0; 2]);
        for (r, &zi) in self.active.iter().zip(z) {
            self.stop_impulse[r.stop as usize][r.side as usize] = zi;
        }
        self.friction_impulse.clear();
        self.friction_impulse.extend_from_slice(&z[self.active.len()..]);
    }

    /// Projection: appends the rows of the stops violated by more than `tol` at `states` (and
    /// those already added in this projection) with `h = y`.
    #[allow(clippy::too_many_arguments)]
    pub fn violated_rows(
        &mut self,
        stops: &[JointStopR],
        joints: &[Joint],
        bodies: &[RigidBody],
        states: &[BodyState],
        tol: f64,
        rows: &mut Vec<ScalarRow>,
        h: &mut Vec<f64>,
    ) {
        for (k, st) in stops.iter().enumerate() {
            let near = self.coords.get(k).copied().filter(|c| c.is_finite());
            let Some((row, ids)) = coordinate(&joints[st.joint.0 as usize], st.dof, states, near) else {
                continue;
            };
            for (side, y) in st.gaps(row.value).into_iter().enumerate() {
                let Some(y) = y else { continue };
                let key = StopRow { stop: k as u32, side: side as u8 };
                let seen = self.projected.contains(&key);
                if y < -tol || seen {
                    if !seen {
                        self.projected.push(key);
                    }
                    let sgn = sign(side as u8);
                    rows.push(scalar_row(ids, bodies, [row.j[0] * sgn, row.j[1] * sgn]));
                    h.push(y);
                }
            }
        }
    }
}
