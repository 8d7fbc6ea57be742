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
