//! Rectangle of a 2D scene (Siconos `Box2d`, which takes the full sides).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use nalgebra::Vector2;
use parry3d_f64::shape::SharedShape;

/// Rectangle `[−a, a] × [−b, b]` in the plane `z = 0` (planar scenes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Box2d {
    /// Half sides `(a, b)`.
    pub half_extents: Vector2<f64>,
}

impl PrimitiveShape for Box2d {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "Box2d",
        name: "2D box",
        siconos: true,
        planar: true,
        params: &[ParamDecl { attr: "half_extents", what: "half side", scalars: &["hx", "hy"] }],
        doc: "2D scenes: rectangle ``[-hx, hx] × [-hy, hy]`` (half sides; Siconos ``Box2d`` takes the full \
              sides).",
    };
    fn from_params(p: &[f64]) -> Self {
        Box2d { half_extents: Vector2::new(p[0], p[1]) }
    }
    fn params(&self) -> Vec<f64> {
        self.half_extents.as_slice().to_vec()
    }
    /// The box of half depth [`PrimitiveShape::planar_radius`] around the plane.
    fn build(&self) -> Option<SharedShape> {
        let h = &self.half_extents;
        Some(SharedShape::cuboid(h.x, h.y, self.planar_radius()))
    }
    fn build_2d(&self) -> Option<parry2d_f64::shape::SharedShape> {
        Some(parry2d_f64::shape::SharedShape::cuboid(self.half_extents.x, self.half_extents.y))
    }
    fn planar_radius(&self) -> f64 {
        self.half_extents.norm()
    }
    /// Siconos's full sides `(2a, 2b)`.
    fn siconos_dims(&self) -> Vec<f64> {
        (self.half_extents * 2.0).as_slice().to_vec()
    }
    fn from_siconos_dims(d: &[f64]) -> Self {
        Box2d { half_extents: Vector2::new(d[0] / 2.0, d[1] / 2.0) }
    }
    fn view(&self, _: &SharedShape) -> Option<ViewGeom> {
        Some(ViewGeom::Box([self.half_extents.x, self.half_extents.y, self.planar_radius()]))
    }
}
