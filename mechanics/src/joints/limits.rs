//! Joint stops and joint friction (Siconos `JointStopR` and `JointFrictionR`): relations on one
//! coordinate `s` of a joint (see [`super::coordinate`]), entering the one-step problem next to
//! the joint's equality rows (see [`super::limits_step`]).
//!
//! * [`JointStopR`]: `y = s − lower ≥ 0` and/or `y = upper − s ≥ 0`, each a unilateral
//!   constraint with a Newton impact law of restitution `e` (Moreau–Jean: active when
//!   `y_k + γ h min(ẏ, 0) ≤ δ` with the rate at the start of the step or solved without the
//!   stop, see [`super::limits_step`]; then `0 ≤ ẏ_{k+1} + e ẏ_k ⊥ λ ≥ 0`).
//! * [`JointFrictionR`]: Coulomb friction of the coordinate with a given bound `T` on the force
//!   (translation) or torque (rotation): `−ṡ_{k+1} ∈ N_[−hT, hT](λ)` for the impulse `λ` of the
//!   step (a relay: `|λ| < hT` sticks, `λ = ∓hT` slides against the motion). Siconos bounds
//!   the impulse of its `RelayNSL` directly, so its bounds are `hT` here.
//!
//! Siconos asks for one `JointStopR` per bound (only the first row of a relation decides its
//! activation there); here both bounds of a stop are activated row by row.

use super::{DofKind, JointId};
use crate::error::{MechanicsError, Result};
use crate::model::MechanicsModel;
use crate::BodyState;

/// Unilateral limits on coordinate `dof` of joint `joint`: `lower ≤ s ≤ upper` (either may be
/// absent), with Newton impacts of restitution `e ∈ [0, 1]` on the stops.
#[derive(Debug, Clone, PartialEq)]
pub struct JointStopR {
    /// The joint.
    pub joint: JointId,
    /// The coordinate of the joint (`0` for a hinge or a slider; a cylindrical joint has `0`
    /// the translation and `1` the angle).
    pub dof: usize,
    /// Lower stop (length or radians), if any.
    pub lower: Option<f64>,
    /// Upper stop, if any.
    pub upper: Option<f64>,
    /// Restitution coefficient of the impacts on the stops.
    pub e: f64,
}

impl JointStopR {
    /// Stops `lower ≤ s ≤ upper` on coordinate `dof` of `joint`, restitution `e`.
    pub fn new(joint: JointId, dof: usize, lower: Option<f64>, upper: Option<f64>, e: f64) -> Self {
        JointStopR { joint, dof, lower, upper, e }
    }
    /// The gaps `(s − lower, upper − s)` at coordinate `s` (`None` for an absent bound).
    pub fn gaps(&self, s: f64) -> [Option<f64>; 2] {
        [self.lower.map(|l| s - l), self.upper.map(|u| u - s)]
    }
}

/// Coulomb friction on coordinate `dof` of joint `joint`: a force (translation) or torque
/// (rotation) of magnitude at most `max` opposing the motion.
#[derive(Debug, Clone, PartialEq)]
pub struct JointFrictionR {
    /// The joint.
    pub joint: JointId,
    /// The coordinate of the joint.
    pub dof: usize,
    /// Bound `T ≥ 0` of the friction force (N) or torque (N·m).
    pub max: f64,
}

impl JointFrictionR {
    /// Friction bounded by `max` on coordinate `dof` of `joint`.
    pub fn new(joint: JointId, dof: usize, max: f64) -> Self {
        JointFrictionR { joint, dof, max }
    }
}

impl MechanicsModel {
    /// The kind of coordinate `dof` of joint `joint`, or an error naming the joint.
    pub(crate) fn joint_dof(&self, what: &str, joint: JointId, dof: usize) -> Result<DofKind> {
        let invalid = |reason: String| MechanicsError::InvalidModel { what: what.into(), reason };
        let Some(j) = self.joints().get(joint.0 as usize) else {
            return Err(invalid(format!("no joint {} (the model has {})", joint.0, self.joints().len())));
        };
        let dofs = j.kind.relation().dofs();
        match dofs.get(dof) {
            Some(k) => Ok(*k),
            None => Err(invalid(format!(
                "joint `{}` ({}) has {} coordinate(s), no coordinate {dof}",
                j.name,
                j.kind.relation().type_name(),
                dofs.len()
            ))),
        }
    }

    /// The coordinate `dof` of joint `joint` at the bodies' current poses (a rotation in
    /// `(−π, π]`), or `None` if there is no such coordinate.
    pub fn joint_coordinate(&self, joint: JointId, dof: usize) -> Option<f64> {
        let j = self.joints().get(joint.0 as usize)?;
        let b = j.body2.map_or(BodyState::default(), |b| self.body(b).state);
        j.dof(dof, &self.body(j.body1).state, &b).map(|r| r.value)
    }

    /// Adds stops on a joint coordinate (see [`JointStopR`]). Checks the joint and coordinate,
    /// that at least one bound is given, that the bounds are finite with `lower < upper`,
    /// `e ∈ [0, 1]`, and that the current coordinate lies within the bounds.
    pub fn add_joint_stop(&mut self, stop: JointStopR) -> Result<usize> {
        let what = format!("stop on joint {}", self.joint_label(stop.joint));
        let invalid = |reason: String| MechanicsError::InvalidModel { what: what.clone(), reason };
        self.joint_dof(&what, stop.joint, stop.dof)?;
        if stop.lower.is_none() && stop.upper.is_none() {
            return Err(invalid("give a lower or an upper bound".into()));
        }
        if stop.lower.into_iter().chain(stop.upper).any(|x| !x.is_finite()) {
            return Err(invalid(format!("bounds must be finite (lower {:?}, upper {:?})", stop.lower, stop.upper)));
        }
        if let (Some(l), Some(u)) = (stop.lower, stop.upper) {
            if !(l < u) {
                return Err(invalid(format!("lower bound {l} must be below upper bound {u}")));
            }
        }
        if !(0.0..=1.0).contains(&stop.e) {
            return Err(invalid(format!("restitution e must be in [0, 1], got {}", stop.e)));
        }
        let s = self.joint_coordinate(stop.joint, stop.dof).unwrap_or(0.0);
        if stop.gaps(s).iter().flatten().any(|&y| y < 0.0) {
            return Err(invalid(format!(
                "the coordinate is {s} at the initial poses, outside [{}, {}]",
                stop.lower.unwrap_or(f64::NEG_INFINITY),
                stop.upper.unwrap_or(f64::INFINITY)
            )));
        }
        self.joint_stops.push(stop);
        Ok(self.joint_stops.len() - 1)
    }

    /// Adds friction on a joint coordinate (see [`JointFrictionR`]); `max` must be finite ≥ 0.
    pub fn add_joint_friction(&mut self, friction: JointFrictionR) -> Result<usize> {
        let what = format!("friction on joint {}", self.joint_label(friction.joint));
        self.joint_dof(&what, friction.joint, friction.dof)?;
        if !(friction.max >= 0.0 && friction.max.is_finite()) {
            return Err(MechanicsError::InvalidModel {
                what,
                reason: format!("the bound must be finite and >= 0, got {}", friction.max),
            });
        }
        self.joint_frictions.push(friction);
        Ok(self.joint_frictions.len() - 1)
    }

    /// The joint stops.
    pub fn joint_stops(&self) -> &[JointStopR] {
        &self.joint_stops
    }

    /// The joint frictions.
    pub fn joint_frictions(&self) -> &[JointFrictionR] {
        &self.joint_frictions
    }

    pub(crate) fn joint_label(&self, joint: JointId) -> String {
        self.joints().get(joint.0 as usize).map_or_else(|| joint.0.to_string(), |j| format!("`{}`", j.name))
    }
}
