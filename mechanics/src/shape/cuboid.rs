//! Box (Siconos `Box`, which takes the full side lengths).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use nalgebra::Vector3;
use parry3d_f64::shape::SharedShape;

/// Box `[−a, a] × [−b, b] × [−c, c]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid {
    /// Half extents `(a, b, c)`.
    pub half_extents: Vector3<f64>,
}

impl PrimitiveShape for Cuboid {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "Box",
        name: "box",
        siconos: true,
        planar: false,
        params: &[ParamDecl { attr: "half_extents", what: "half extent", scalars: &["hx", "hy", "hz"] }],
        doc: "Box ``[-hx, hx] × [-hy, hy] × [-hz, hz]`` (half extents).",
    };
    fn from_params(p: &[f64]) -> Self {
        Cuboid { half_extents: Vector3::new(p[0], p[1], p[2]) }
    }
    fn params(&self) -> Vec<f64> {
        self.half_extents.as_slice().to_vec()
    }
    fn build(&self) -> Option<SharedShape> {
        let h = &self.half_extents;
        Some(SharedShape::cuboid(h.x, h.y, h.z))
    }
    /// Siconos's full lengths `(2a, 2b, 2c)`.
    fn siconos_dims(&self) -> Vec<f64> {
        (self.half_extents * 2.0).as_slice().to_vec()
    }
    fn from_siconos_dims(d: &[f64]) -> Self {
        Cuboid { half_extents: Vector3::new(d[0] / 2.0, d[1] / 2.0, d[2] / 2.0) }
    }
    fn view(&self, _: &SharedShape) -> Option<ViewGeom> {
        Some(ViewGeom::Box(self.half_extents.into()))
    }
}
