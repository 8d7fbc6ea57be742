//! Cylinder (Siconos `Cylinder`, which takes the radius and the length).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use parry3d_f64::shape::SharedShape;

/// Cylinder along the local `y` axis (parry and Bullet convention): the disk of radius `radius`
/// swept from `y = −half_height` to `y = +half_height`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder {
    /// Radius.
    pub radius: f64,
    /// Half height.
    pub half_height: f64,
}

impl PrimitiveShape for Cylinder {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "Cylinder",
        name: "cylinder",
        siconos: true,
        planar: false,
        params: &[
            ParamDecl { attr: "radius", what: "radius", scalars: &["radius"] },
            ParamDecl { attr: "half_height", what: "half height", scalars: &["half_height"] },
        ],
        doc: "Cylinder along the local ``y`` axis.",
    };
    fn from_params(p: &[f64]) -> Self {
        Cylinder { radius: p[0], half_height: p[1] }
    }
    fn params(&self) -> Vec<f64> {
        vec![self.radius, self.half_height]
    }
    fn build(&self) -> Option<SharedShape> {
        Some(SharedShape::cylinder(self.half_height, self.radius))
    }
    /// Siconos's `(radius, length)`.
    fn siconos_dims(&self) -> Vec<f64> {
        vec![self.radius, 2.0 * self.half_height]
    }
    fn from_siconos_dims(d: &[f64]) -> Self {
        Cylinder { radius: d[0], half_height: d[1] / 2.0 }
    }
    fn view(&self, _: &SharedShape) -> Option<ViewGeom> {
        Some(ViewGeom::Cylinder(self.radius, self.half_height))
    }
}
