//! Capsule (Siconos `Capsule`, which takes the radius and the axis length).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use parry3d_f64::shape::SharedShape;

/// Capsule along the local `y` axis (parry and Bullet convention): the segment
/// `±half_height·ŷ` swept by a ball of radius `radius`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    /// Radius.
    pub radius: f64,
    /// Half length of the axis segment.
    pub half_height: f64,
}

impl PrimitiveShape for Capsule {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "Capsule",
        name: "capsule",
        siconos: true,
        planar: false,
        params: &[
            ParamDecl { attr: "radius", what: "radius", scalars: &["radius"] },
            ParamDecl { attr: "half_height", what: "half height", scalars: &["half_height"] },
        ],
        doc: "Capsule along the local ``y`` axis: segment ``±half_height·ŷ`` swept by a ball.",
    };
    fn from_params(p: &[f64]) -> Self {
        Capsule { radius: p[0], half_height: p[1] }
    }
    fn params(&self) -> Vec<f64> {
        vec![self.radius, self.half_height]
    }
    fn build(&self) -> Option<SharedShape> {
        Some(SharedShape::capsule_y(self.half_height, self.radius))
    }
    /// Siconos's `(radius, length)`.
    fn siconos_dims(&self) -> Vec<f64> {
        vec![self.radius, 2.0 * self.half_height]
    }
    fn from_siconos_dims(d: &[f64]) -> Self {
        Capsule { radius: d[0], half_height: d[1] / 2.0 }
    }
    fn view(&self, _: &SharedShape) -> Option<ViewGeom> {
        Some(ViewGeom::Capsule(self.radius, self.half_height))
    }
}
