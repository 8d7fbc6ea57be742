//! Coupled joint coordinates (Siconos `CouplerJointR`): one bilateral row tying coordinate
//! `dof2` of joint `joint2` to coordinate `dof1` of joint `joint1` (see [`super::coordinate`]),
//!
//! ```text
//! h(q) = θ₂(q) − r θ₁(q) − c = 0,    J = J_θ₂ − r J_θ₁,
//! ```
//!
//! with `r` the ratio and `c` the offset `θ₂ − r θ₁` at the poses where the coupler is added
//! (Siconos `setBasePositions`; `0` at the joints' assembly, where every coordinate is zero).
//! Two hinges coupled this way are a gear pair (`θ₂ = r θ₁`); a hinge coupled to a slider a
//! rack and pinion; the two coordinates of one cylindrical joint a screw (`joint1 = joint2`,
//! the angle `r` times the translation).
//!
//! The row touches the bodies of both joints: up to four sides (three for a gear pair on a
//! common frame), merged when a body appears in both joints. Siconos links its coupler to two
//! bodies only and reads the common frame's pose without its velocity (exact when that frame
//! is fixed); here every moving body of both joints receives its share of the coupling impulse,
//! so the row is the exact derivative of `h` whatever moves. It enters the one-step problem and
//! the projection as one more equality row after the joints' own (see [`super::step`]). Angles
//! are unwrapped continuously from step to step, so `θ₂ = r θ₁` holds over many turns.

use super::coordinate::{unwrap_near, DofKind};
use super::{Joint, JointId};
use crate::body::{BodyId, BodyState};
use crate::error::{MechanicsError, Result};
use crate::model::MechanicsModel;
use nalgebra::SVector;

/// Most sides of a row: a coupler between two joints touches up to four bodies.
pub(crate) const MAX_SIDES: usize = 4;

/// A coupling `θ₂ = r θ₁ + c` between coordinate `dof1` of `joint1` and coordinate `dof2` of
/// `joint2` (the same joint for a screw).
#[derive(Debug, Clone, PartialEq)]
pub struct CouplerJointR {
    /// The joint of the first coordinate `θ₁`.
    pub joint1: JointId,
    /// The coordinate of `joint1` (`0` for a hinge or a slider; a cylindrical joint has `0` the
    /// translation and `1` the angle).
    pub dof1: usize,
    /// The joint of the second coordinate `θ₂`.
    pub joint2: JointId,
    /// The coordinate of `joint2`.
    pub dof2: usize,
    /// The ratio `r` of `θ₂ = r θ₁ + c` (finite; a gear ratio, or radians per length for a
    /// screw).
    pub ratio: f64,
    /// The offset `c`, measured when the coupler is added (see the module documentation).
    pub offset: f64,
}

impl CouplerJointR {
    /// `θ₂ = ratio θ₁ + c` between coordinate `dof1` of `joint1` and `dof2` of `joint2`; the
    /// offset `c` is set by [`MechanicsModel::add_joint_coupler`].
    pub fn new(joint1: JointId, dof1: usize, joint2: JointId, dof2: usize, ratio: f64) -> Self {
        CouplerJointR { joint1, dof1, joint2, dof2, ratio, offset: 0.0 }
    }
}

/// A coupler row at one configuration: `h`, the sides (bodies, `None` the world) and the
/// Jacobian of each side, and the two coordinates `[θ₁, θ₂]` (unwrapped).
pub(crate) struct CouplerRow {
    pub h: f64,
    pub ids: [Option<BodyId>; MAX_SIDES],
    pub jac: [SVector<f64, 6>; MAX_SIDES],
    pub coords: [f64; 2],
}

/// Coordinate `dof` of `joint` at `states`, unwrapped near `near` (if finite) for a rotation.
fn coordinate(joint: &Joint, dof: usize, states: &[BodyState], near: f64) -> Option<super::DofRow> {
    let world = BodyState::default();
    let b = joint.body2.map_or(&world, |b| &states[b.index()]);
    let mut row = joint.dof(dof, &states[joint.body1.index()], b)?;
    if near.is_finite() && joint.kind.relation().dofs().get(dof) == Some(&DofKind::Rotation) {
        row.value = unwrap_near(row.value, near);
    }
    Some(row)
}

/// The row of coupler `c` at `states`, its angles unwrapped near `near` (`NaN`: principal
/// values); `None` if a joint or coordinate does not exist (checked when the coupler is added).
pub(crate) fn coupler_row(
    c: &CouplerJointR,
    joints: &[Joint],
    states: &[BodyState],
    near: [f64; 2],
) -> Option<CouplerRow> {
    let (j1, j2) = (joints.get(c.joint1.0 as usize)?, joints.get(c.joint2.0 as usize)?);
    let r1 = coordinate(j1, c.dof1, states, near[0])?;
    let r2 = coordinate(j2, c.dof2, states, near[1])?;
    let mut out = CouplerRow {
        h: r2.value - c.ratio * r1.value - c.offset,
        ids: [None; MAX_SIDES],
        jac: [SVector::zeros(); MAX_SIDES],
        coords: [r1.value, r2.value],
    };
    // Merge the sides by body (the world has no side).
    let parts = [(j2.body1, r2.j[0]), (j2.body2.unwrap_or(NO), r2.j[1])];
    let parts1 = [(j1.body1, r1.j[0] * -c.ratio), (j1.body2.unwrap_or(NO), r1.j[1] * -c.ratio)];
    for (id, jac) in parts.into_iter().chain(parts1) {
        if id == NO {
            continue;
        }
        let slot = out.ids.iter().position(|s| *s == Some(id) || s.is_none()).unwrap_or(MAX_SIDES - 1);
        out.ids[slot] = Some(id);
        out.jac[slot] += jac;
    }
    Some(out)
}

/// Marker of an absent side while merging.
const NO: BodyId = BodyId(u32::MAX);

/// Each coupler's coordinates `[θ₁, θ₂]` at the start of the step (unwrapped): every
/// evaluation in the step is unwrapped near them.
#[derive(Debug, Default)]
pub(crate) struct CouplerWorkspace {
    pub coords: Vec<[f64; 2]>,
}

impl CouplerWorkspace {
    /// The coordinates of the couplers at `states`, near the stored ones.
    pub fn refresh(&mut self, couplers: &[CouplerJointR], joints: &[Joint], states: &[BodyState]) {
        if self.coords.len() != couplers.len() {
            self.coords = vec![[f64::NAN; 2]; couplers.len()];
        }
        for (c, near) in couplers.iter().zip(&mut self.coords) {
            if let Some(row) = coupler_row(c, joints, states, *near) {
                *near = row.coords;
            }
        }
    }
    /// Where to unwrap coupler `k` (`NaN`: no reference yet).
    pub fn near(&self, k: usize) -> [f64; 2] {
        self.coords.get(k).copied().unwrap_or([f64::NAN; 2])
    }
}

impl MechanicsModel {
    /// Adds a coupler `θ₂ = r θ₁ + c` (see [`CouplerJointR`]; its offset `c` is measured at the
    /// bodies' current poses). Checks both joints and coordinates and that the ratio is finite;
    /// a coupler of a coordinate with itself is refused. Returns its index.
    pub fn add_joint_coupler(&mut self, mut coupler: CouplerJointR) -> Result<usize> {
        let what = format!("coupler of joint {}", self.joint_label(coupler.joint2));
        let invalid = |reason: String| MechanicsError::InvalidModel { what: what.clone(), reason };
        self.joint_dof(&what, coupler.joint1, coupler.dof1)?;
        self.joint_dof(&what, coupler.joint2, coupler.dof2)?;
        if !coupler.ratio.is_finite() {
            return Err(invalid(format!("the ratio must be finite, got {}", coupler.ratio)));
        }
        if coupler.joint1 == coupler.joint2 && coupler.dof1 == coupler.dof2 {
            return Err(invalid(format!("couples coordinate {} with itself", coupler.dof1)));
        }
        coupler.offset = 0.0;
        let states: Vec<BodyState> = self.bodies.iter().map(|b| b.state).collect();
        let row = coupler_row(&coupler, self.joints(), &states, [f64::NAN; 2])
            .ok_or_else(|| invalid("the coordinates cannot be evaluated".into()))?;
        coupler.offset = row.h;
        self.joint_couplers.push(coupler);
        Ok(self.joint_couplers.len() - 1)
    }

    /// [`Self::add_joint_coupler`] as Siconos's `CouplerJointR` between two joints: the first
    /// bodies of the two joints no longer collide (a joint between them), unless
    /// `allow_self_collide` (Siconos's keyword); a coupler within one joint excludes nothing.
    pub fn couple_joints(&mut self, coupler: CouplerJointR, allow_self_collide: bool) -> Result<usize> {
        let (j1, j2) = (coupler.joint1, coupler.joint2);
        let k = self.add_joint_coupler(coupler)?;
        let (a, b) = (self.joints()[j1.0 as usize].body1, self.joints()[j2.0 as usize].body1);
        if a != b && !allow_self_collide {
            self.exclude_collision(a, b)?;
        }
        Ok(k)
    }

    /// The couplers of joint coordinates.
    pub fn joint_couplers(&self) -> &[CouplerJointR] {
        &self.joint_couplers
    }
}
