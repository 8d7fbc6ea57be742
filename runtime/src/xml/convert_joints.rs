//! `<Joint>` elements of a `<Mechanics>` model -> joints of the [`MechanicsModel`] (Siconos
//! `mechanics.joints`: the types registered in `saltus_mechanics::joints`, by their Siconos
//! names, [`JointType::NAMES`]). Joints are bound at the bodies' initial poses, so they are
//! added after every body, whatever the order of the elements. Every error names `Mechanics/Joint[NAME]`, or
//! `Mechanics/Joint[NAME]/JointStopR` (`JointFrictionR`) for the stops and frictions of a joint
//! (Siconos `JointStopR`, `JointFrictionR`), which are added right after their joint.
//! `<CouplerJointR>` children (Siconos `CouplerJointR`) are added after every joint, since they
//! may name a joint declared later (`Mechanics/Joint[NAME]/CouplerJointR`).

use super::convert_mech::vec3;
use super::schema::*;
use super::{LoadedModel, ModelError};
use nalgebra::Vector3;
use saltus_mechanics::body::{BodyId, BodyKind};
use saltus_mechanics::joints::{CouplerJointR, JointFrictionR, JointStopR};
use saltus_mechanics::{JointId, JointType, MechanicsModel};
use std::collections::HashSet;

/// The body named `name`, or the reason (naming the declared bodies).
fn body_id(model: &MechanicsModel, name: &str, what: &str) -> Result<BodyId, String> {
    match model.body_by_name(name) {
        Some(id) => Ok(id),
        None => {
            let known: Vec<&str> = model.bodies.iter().map(|b| b.name.as_str()).collect();
            Err(format!("`{what}`: unknown body `{name}` (declared: {})", known.join(", ")))
        }
    }
}

/// A point or an axis of the joint: required when the type takes it, refused otherwise.
fn attr(text: &Option<String>, what: &str, takes: bool, ty: &str) -> Result<Option<Vector3<f64>>, String> {
    match (text, takes) {
        (None, false) => Ok(None),
        (Some(_), false) => Err(format!("a {ty} takes no `{what}`")),
        (None, true) => Err(format!("a {ty} needs `{what}` (3 numbers, world frame)")),
        (Some(_), true) => {
            let v = vec3(text, what, Vector3::zeros())?;
            if !v.iter().all(|x| x.is_finite()) {
                return Err(format!("`{what}` must be finite"));
            }
            if what == "axis" && v.norm() <= 1e-12 {
                return Err("`axis` must be a non-zero vector".into());
            }
            Ok(Some(v))
        }
    }
}

/// The joint type with its point and axis (a registered type: [`JointType::NAMES`]).
fn joint_type(j: &JointSpec) -> Result<JointType, String> {
    let ty = j.kind.as_str();
    let unknown = || format!("`type` must be one of {}, got `{ty}`", JointType::NAMES.join(", "));
    let takes = JointType::data_of(ty).ok_or_else(unknown)?;
    let p = attr(&j.point, "point", takes.point, ty)?.unwrap_or_default();
    let a = attr(&j.axis, "axis", takes.axis, ty)?.unwrap_or_default();
    JointType::from_name(ty, p, a).ok_or_else(unknown)
}

/// Adds the `<Joint>`s of `mech` to `model` (whose bodies are all added); returns how many.
pub(super) fn add_joints(
    m: &LoadedModel,
    mech: &MechanicsSpec,
    model: &mut MechanicsModel,
) -> Result<usize, ModelError> {
    let mut names = HashSet::new();
    let mut couplers = Vec::new();
    for item in &mech.items {
        let MechItem::Joint(j) = item else { continue };
        let path = format!("Mechanics/Joint[{}]", j.name);
        let at = |e: String| m.error_at(&path, e);
        if !names.insert(j.name.as_str()) {
            return Err(at(format!("a joint named `{}` is already declared", j.name)));
        }
        let kind = joint_type(j).map_err(at)?;
        let b1 = body_id(model, &j.body1, "body1").map_err(at)?;
        let b2 = match &j.body2 {
            None => None,
            Some(n) => Some(body_id(model, n, "body2").map_err(at)?),
        };
        if b2 == Some(b1) {
            return Err(at(format!("body1 and body2 are the same body `{}`: a joint links two bodies", j.body1)));
        }
        let kind_of = |b: BodyId| model.bodies[b.index()].kind;
        if kind_of(b1) != BodyKind::Dynamic && b2.is_none_or(|b| kind_of(b) != BodyKind::Dynamic) {
            let other = j.body2.as_ref().map_or("the world".to_string(), |n| format!("`{n}`"));
            return Err(at(format!(
                "neither `{}` nor {other} is a dynamic body: the joint could never move anything",
                j.body1
            )));
        }
        let id = model.add_joint(&j.name, b1, b2, kind).map_err(|e| at(e.to_string()))?;
        if j.allow_self_collide == Some(true) {
            model.allow_self_collide(id).map_err(|e| at(e.to_string()))?;
        }
        let mut count = [0usize; 3];
        for item in &j.limits {
            let (tag, k) = match item {
                JointLimitSpec::JointStopR(_) => ("JointStopR", 0),
                JointLimitSpec::JointFrictionR(_) => ("JointFrictionR", 1),
                JointLimitSpec::CouplerJointR(_) => ("CouplerJointR", 2),
            };
            count[k] += 1;
            let lpath = format!("{path}/{tag}");
            let ordinal = if count[k] > 1 { format!(" (the {} one)", nth(count[k])) } else { String::new() };
            let at = |e: String| m.error_at(&lpath, format!("{e}{ordinal}"));
            match item {
                JointLimitSpec::JointStopR(s) => {
                    let stop = JointStopR::new(id, s.dof.unwrap_or(0), s.lower, s.upper, s.e.unwrap_or(0.0));
                    model.add_joint_stop(stop).map_err(|e| at(e.to_string()))?;
                }
                JointLimitSpec::JointFrictionR(f) => {
                    model
                        .add_joint_friction(JointFrictionR::new(id, f.dof.unwrap_or(0), f.max))
                        .map_err(|e| at(e.to_string()))?;
                }
                JointLimitSpec::CouplerJointR(c) => couplers.push((id, lpath, ordinal, c)),
            }
        }
    }
    for (id, lpath, ordinal, c) in couplers {
        let at = |e: String| m.error_at(&lpath, format!("{e}{ordinal}"));
        let joint1 = match &c.joint1 {
            None => id,
            Some(name) => {
                model.joints().iter().position(|j| &j.name == name).map(|k| JointId(k as u32)).ok_or_else(|| {
                    let known: Vec<&str> = model.joints().iter().map(|j| j.name.as_str()).collect();
                    at(format!("`joint1`: unknown joint `{name}` (declared: {})", known.join(", ")))
                })?
            }
        };
        let coupler = CouplerJointR::new(joint1, c.dof1.unwrap_or(0), id, c.dof2.unwrap_or(0), c.ratio);
        model.couple_joints(coupler, c.allow_self_collide.unwrap_or(false)).map_err(|e| at(e.to_string()))?;
    }
    Ok(names.len())
}

/// `2nd`, `3rd`, `4th`, … (`n ≥ 2`).
fn nth(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
