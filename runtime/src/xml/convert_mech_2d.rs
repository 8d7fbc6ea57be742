//! The 2D side of `<Mechanics>` (saltus_mechanics::planar): the planar shape
//! `<ConvexPolygon>x y …</ConvexPolygon>` (the planar primitives `<Disk>`, `<Box2d>` are read as
//! every registered primitive), and in a scene that
//! has them the 2D numbers of bodies and contactors: `translation="x y"`, `orientation="θ"`,
//! `velocity="vx vy ω"`, `inertia="I"`, `gravity="gx gy"` (default `0 -9.81`).

use super::convert_mech::{data, numbers};
use super::schema::*;
use super::{LoadedModel, ModelError};
use nalgebra::{Isometry3, Vector2, Vector3};
use saltus_mechanics::planar::planar_state;
use saltus_mechanics::{BodyState, ShapeDesc};

/// The shape of a `<ConvexPolygon>`.
pub(super) fn polygon(m: &LoadedModel, s: &PointListSpec, path: &str) -> Result<ShapeDesc, ModelError> {
    if s.scale.is_some() {
        return Err(m.error_at(path, "`scale` applies to mesh files, not to a polygon's points"));
    }
    let d = DataMatrixSpec { file: s.file.clone(), text: s.text.clone(), ..Default::default() };
    let pts = data(m, &d, path, 2)?;
    Ok(ShapeDesc::ConvexPolygon { points: pts.row_iter().map(|r| Vector2::new(r[0], r[1])).collect() })
}

/// `numbers(text)` with `n` numbers, or `default` when absent.
fn some_numbers(text: &Option<String>, what: &str, n: usize, default: &[f64]) -> Result<Vec<f64>, String> {
    match text {
        None => Ok(default.to_vec()),
        Some(t) => numbers(t, what, &[n]),
    }
}

/// The gravity of a 2D scene, `gx gy`.
pub(super) fn gravity(text: &Option<String>) -> Result<Vector3<f64>, String> {
    let g = some_numbers(text, "gravity", 2, &[0.0, -9.81])?;
    Ok(Vector3::new(g[0], g[1], 0.0))
}

/// The state of a body of a 2D scene.
pub(super) fn state(b: &RigidBodySpec) -> Result<BodyState, String> {
    let x = some_numbers(&b.translation, "translation", 2, &[0.0; 2])?;
    let th = some_numbers(&b.orientation, "orientation", 1, &[0.0])?;
    let v = some_numbers(&b.velocity, "velocity", 3, &[0.0; 3])?;
    Ok(planar_state(x[0], x[1], th[0], v[0], v[1], v[2]))
}

/// The offset of a contactor in a 2D scene.
pub(super) fn offset(c: &ContactorSpec) -> Result<Isometry3<f64>, String> {
    let x = some_numbers(&c.translation, "translation", 2, &[0.0; 2])?;
    let th = some_numbers(&c.orientation, "orientation", 1, &[0.0])?;
    let s = planar_state(x[0], x[1], th[0], 0.0, 0.0, 0.0);
    Ok(Isometry3::from_parts(s.position.into(), s.orientation))
}
