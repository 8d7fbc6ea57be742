//! User forces and prescribed velocities of rigid bodies from Python: a callable or a plugin
//! function as the body's force (`f(t, x)`, `x` the 13 numbers of the pose and twist, 6 outputs:
//! force in the world frame, torque in the body frame), and a boundary condition from Siconos's
//! `bc_class` and its values. Only conversions; the physics is `saltus_mechanics`'s.

use crate::errors::ModelError;
use crate::host::{state_vec_fn, time_vec_fn, Raised};
use pyo3::prelude::*;
use saltus_mechanics::BodyState;
use saltus_mechanics::{BoundaryCondition, ForceFn, PrescribedVelocity};
use saltus_runtime::plugin::PluginResolver;
use saltus_runtime::xml::convert_mech_loads::{force_fn, prescribed_fn};
use std::path::PathBuf;
use std::sync::Arc;

fn err(what: &str, reason: impl std::fmt::Display) -> PyErr {
    ModelError::new_err(format!("invalid {what}: {reason}"))
}

/// The force of a Python callable `f(t, x) -> 6 values` (called with the GIL, about a
/// microsecond per call: slower than a plugin).
pub fn python_force(f: Py<PyAny>, name: &str) -> ForceFn {
    force_fn(state_vec_fn(f, name.to_string(), Raised::default()))
}

/// The force of the plugin function `symbol` of `library` (a `saltus_vector_field_fn`), found
/// in `dirs` (then as a path), checked once on the identity pose at `t0`.
pub fn plugin_force(library: &str, symbol: &str, params: Vec<f64>, dirs: Vec<PathBuf>, t0: f64) -> PyResult<ForceFn> {
    let what = format!("external force {library}:{symbol}");
    let mut r = PluginResolver::new(".", dirs);
    let f = r.vector_field_fn(library, symbol, &what, params).map_err(|e| err(&what, e))?;
    let mut out = [0.0; 6];
    f.call(t0, &BodyState::default().to_array(), &mut out).map_err(|e| err(&what, e))?;
    Ok(force_fn(Arc::new(move |t, x: &[f64], out: &mut [f64]| {
        f.call(t, x, out).map_err(|e| saltus_kernel::UserFnError::new(e.to_string()))
    })))
}

/// Values for `n` indices: one for all, or one per index.
fn per_index(what: &str, name: &str, v: Option<Vec<f64>>, n: usize) -> PyResult<Vec<f64>> {
    let v = v.ok_or_else(|| err(what, format!("`{name}` is required")))?;
    match v.len() {
        1 => Ok(vec![v[0]; n]),
        k if k == n => Ok(v),
        k => Err(err(what, format!("`{name}` has {k} values: give one, or one per index ({n})"))),
    }
}

/// Siconos `add_boundary_condition(..., indices, bc_class, v, a, b, omega, phi)` (plus a Python
/// callable `function(t) -> values` for a user prescribed velocity).
#[allow(clippy::too_many_arguments)]
pub fn boundary_condition(
    body: &str,
    indices: Vec<usize>,
    bc_class: &str,
    v: Option<Vec<f64>>,
    harmonic: [Option<Vec<f64>>; 4],
    function: Option<Py<PyAny>>,
) -> PyResult<BoundaryCondition> {
    let what = format!("boundary condition of `{body}`");
    let n = indices.len();
    let [a, b, omega, phi] = harmonic;
    let law = match (bc_class, function) {
        (_, Some(f)) => PrescribedVelocity::Function(prescribed_fn(time_vec_fn(f, what.clone(), Raised::default()))),
        ("FixedBC", None) => PrescribedVelocity::Fixed,
        ("BoundaryCondition", None) => PrescribedVelocity::Constant(per_index(&what, "v", v, n)?),
        ("HarmonicBC", None) => PrescribedVelocity::Harmonic {
            a: per_index(&what, "a", a, n)?,
            b: per_index(&what, "b", b, n)?,
            omega: per_index(&what, "omega", omega, n)?,
            phi: per_index(&what, "phi", phi, n)?,
        },
        (other, None) => {
            return Err(err(
                &what,
                format!(
                    "bc_class must be FixedBC, BoundaryCondition or HarmonicBC (or give a function), got `{other}`"
                ),
            ))
        }
    };
    BoundaryCondition::new(&indices, law).map_err(|e| err(&what, e))
}

/// The contact hook of a Python callable `f(t, contact)`: `contact` a dict with the two bodies'
/// names (`body1`, `body2`), the contact points (`point1`, `point2`) and `normal` (world frame,
/// from body 1 to body 2), `gap`, the contact's `key` (colliders, sub-shapes and features: the
/// same tuple while the contact persists) and the bodies' states `x1`, `x2` (13 numbers each,
/// as a force function's); it returns a new normal (3 numbers) or `None` to keep it.
pub fn python_contact_hook(f: Py<PyAny>) -> saltus_mechanics::ContactHookFn {
    use pyo3::types::PyDict;
    Arc::new(move |t, c, b1, b2| {
        Python::attach(|py| {
            let fail = |e: PyErr| {
                format!(
                    "Python contact hook raised {}: {}",
                    e.get_type(py).name().map_or("?".into(), |n| n.to_string()),
                    e.value(py)
                )
            };
            let arr = |v: &[f64]| numpy::PyArray1::from_slice(py, v);
            let d = PyDict::new(py);
            let k = c.key;
            let key = (k.collider1, k.collider2, k.subshape1, k.subshape2, k.feature1, k.feature2);
            (|| -> PyResult<()> {
                d.set_item("body1", &b1.name)?;
                d.set_item("body2", &b2.name)?;
                d.set_item("point1", arr(c.point1.as_slice()))?;
                d.set_item("point2", arr(c.point2.as_slice()))?;
                d.set_item("normal", arr(c.normal.as_slice()))?;
                d.set_item("gap", c.gap)?;
                d.set_item("key", key)?;
                d.set_item("x1", arr(&b1.state.to_array()))?;
                d.set_item("x2", arr(&b2.state.to_array()))
            })()
            .map_err(fail)?;
            let r = f.bind(py).call1((t, d)).map_err(fail)?;
            if r.is_none() {
                return Ok(None);
            }
            let n: Vec<f64> =
                r.extract().map_err(|_| "the Python contact hook must return 3 numbers or None".to_string())?;
            match n[..] {
                [x, y, z] => Ok(Some(nalgebra::Vector3::new(x, y, z))),
                _ => {
                    Err(format!("the Python contact hook returned {} numbers, expected 3 (a normal) or None", n.len()))
                }
            }
        })
    })
}
