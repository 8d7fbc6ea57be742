//! User loads and prescribed velocities of rigid bodies: `<RigidBody><ExternalForce>` and
//! `<RigidBody><BoundaryCondition>` (Siconos `setComputeFExtFunction`/`setComputeMExtFunction`,
//! `add_boundary_condition`), and the adapters the Python bindings share.
//!
//! A body force is a vector-field function `f(t, x)` of the plugin ABI (or a host function) with
//! `x = (x, y, z, qw, qx, qy, qz, vx, vy, vz, Ωx, Ωy, Ωz)` (13 values: the Siconos `q` and twist)
//! and 6 outputs: the force (world frame) and the torque (body frame, Siconos's default for
//! `mExt`). A prescribed velocity function is a time function with one output per index.

use super::bind::Binder;
use super::schema::{BodyForceSpec, BoundaryConditionSpec};
use super::values::parse_numbers;
use super::ModelError;
use nalgebra::Vector3;
use saltus_kernel::model::userfn::{StateVecFn, TimeVecFn};
use saltus_mechanics::{BodyState, BoundaryCondition, ForceFn, PrescribedVelocity, PrescribedVelocityFn};
use std::sync::Arc;

/// A [`ForceFn`] from `out = f(t, x)` (13 inputs, 6 outputs: force, torque).
pub fn force_fn(f: StateVecFn) -> ForceFn {
    Arc::new(move |t, s: &BodyState| {
        let mut out = [0.0; 6];
        f(t, &s.to_array(), &mut out).map_err(|e| e.message)?;
        Ok((Vector3::new(out[0], out[1], out[2]), Vector3::new(out[3], out[4], out[5])))
    })
}

/// A [`PrescribedVelocityFn`] from `out = f(t)` (one output per prescribed index).
pub fn prescribed_fn(f: TimeVecFn) -> PrescribedVelocityFn {
    Arc::new(move |t, out: &mut [f64]| f(t, out).map_err(|e| e.message))
}

/// `<ExternalForce>` of a body.
pub(super) fn external_force(b: &mut Binder, spec: &BodyForceSpec, path: &str) -> Result<ForceFn, ModelError> {
    let params = b.params(&spec.params, path)?;
    let f = b.state_vec(&spec.library, &spec.function, &params, path)?;
    // evaluated once at the initial pose of the identity: a failing plugin stops the model now
    let mut out = [0.0; 6];
    f(b.t0, &BodyState::default().to_array(), &mut out)
        .map_err(|e| b.model.error_at(path, format!("at t0: {}", e.message)))?;
    Ok(force_fn(f))
}

/// The inputs of a `<ContactHook>` plugin function: the normal (from body 1 to body 2), the
/// points on body 1 and body 2, the gap, then the two bodies' 13 numbers (36 values).
pub const CONTACT_HOOK_INPUTS: usize = 3 + 3 + 3 + 1 + 2 * saltus_mechanics::BODY_STATE_LEN;

/// `<ContactHook>`: the scene's contact hook from a plugin vector field, `out = f(t, x)` with `x`
/// the [`CONTACT_HOOK_INPUTS`] numbers of a contact and `out` its new normal (3 values; the
/// given normal to keep it). Evaluated once at `t0` on a resting contact.
pub(super) fn contact_hook(
    b: &mut Binder,
    spec: &BodyForceSpec,
    path: &str,
) -> Result<saltus_mechanics::ContactHookFn, ModelError> {
    let params = b.params(&spec.params, path)?;
    let f = b.state_vec(&spec.library, &spec.function, &params, path)?;
    let mut x = [0.0; CONTACT_HOOK_INPUTS];
    x[2] = 1.0;
    let mut out = [0.0; 3];
    f(b.t0, &x, &mut out).map_err(|e| b.model.error_at(path, format!("at t0: {}", e.message)))?;
    if out.iter().any(|v| !v.is_finite()) {
        return Err(b.model.error_at(path, "at t0: the plugin gave a non-finite normal"));
    }
    Ok(Arc::new(move |t, c, b1, b2| {
        let mut x = [0.0; CONTACT_HOOK_INPUTS];
        x[..3].copy_from_slice(c.normal.as_slice());
        x[3..6].copy_from_slice(c.point1.as_slice());
        x[6..9].copy_from_slice(c.point2.as_slice());
        x[9] = c.gap;
        x[10..23].copy_from_slice(&b1.state.to_array());
        x[23..].copy_from_slice(&b2.state.to_array());
        let mut out = [0.0; 3];
        f(t, &x, &mut out).map_err(|e| e.message)?;
        Ok(Some(Vector3::new(out[0], out[1], out[2])))
    }))
}

/// `<BoundaryCondition>` of a body.
pub(super) fn boundary_condition(
    b: &mut Binder,
    spec: &BoundaryConditionSpec,
    path: &str,
) -> Result<BoundaryCondition, ModelError> {
    let model = b.model;
    let at = |e: String| model.error_at(path, e);
    let indices: Vec<usize> = parse_numbers(&spec.indices)
        .map_err(|e| at(format!("indices: {e}")))?
        .iter()
        .map(|&x| if x >= 0.0 && x.fract() == 0.0 && x < 6.0 { Ok(x as usize) } else { Err(x) })
        .collect::<Result<_, _>>()
        .map_err(|x| at(format!("indices are twist components 0..5 (vx vy vz wx wy wz), got {x}")))?;
    let n = indices.len();
    // one value per index, or one for all
    let values = |name: &str, v: &Option<String>| -> Result<Vec<f64>, ModelError> {
        let text = v.as_deref().ok_or_else(|| at(format!("type {} needs `{name}`", spec.kind)))?;
        let x = parse_numbers(text).map_err(|e| at(format!("{name}: {e}")))?;
        match x.len() {
            1 => Ok(vec![x[0]; n]),
            k if k == n => Ok(x),
            k => Err(at(format!("`{name}` has {k} values: give one, or one per index ({n})"))),
        }
    };
    let unused = |names: &[(&str, bool)]| -> Result<(), ModelError> {
        match names.iter().find(|(_, given)| *given) {
            Some((name, _)) => Err(at(format!("type {} takes no `{name}`", spec.kind))),
            None => Ok(()),
        }
    };
    let harmonic = [
        ("a", spec.a.is_some()),
        ("b", spec.b.is_some()),
        ("omega", spec.omega.is_some()),
        ("phi", spec.phi.is_some()),
    ];
    let plugin = [("library", spec.library.is_some()), ("function", spec.function.is_some())];
    let law = match spec.kind.as_str() {
        "FixedBC" => {
            unused(&harmonic)?;
            unused(&plugin)?;
            unused(&[("velocity", spec.velocity.is_some())])?;
            PrescribedVelocity::Fixed
        }
        "BoundaryCondition" => {
            unused(&harmonic)?;
            unused(&plugin)?;
            PrescribedVelocity::Constant(values("velocity", &spec.velocity)?)
        }
        "HarmonicBC" => {
            unused(&plugin)?;
            unused(&[("velocity", spec.velocity.is_some())])?;
            PrescribedVelocity::Harmonic {
                a: values("a", &spec.a)?,
                b: values("b", &spec.b)?,
                omega: values("omega", &spec.omega)?,
                phi: values("phi", &spec.phi)?,
            }
        }
        "Function" => {
            unused(&harmonic)?;
            unused(&[("velocity", spec.velocity.is_some())])?;
            let (Some(lib), Some(fun)) = (&spec.library, &spec.function) else {
                return Err(at("type Function needs `library` and `function`".into()));
            };
            let params = b.params(&spec.params, path)?;
            let f = b.time_vec(lib, fun, &params, path)?;
            let mut probe = vec![0.0; n];
            f(b.t0, &mut probe).map_err(|e| at(format!("at t0: {}", e.message)))?;
            PrescribedVelocity::Function(prescribed_fn(f))
        }
        other => {
            return Err(at(format!("`type` must be FixedBC, BoundaryCondition, HarmonicBC or Function, got `{other}`")))
        }
    };
    BoundaryCondition::new(&indices, law).map_err(at)
}
