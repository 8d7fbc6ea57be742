//! Ball (Siconos `Sphere`).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use parry3d_f64::shape::SharedShape;

/// Ball of radius `radius` centred at the origin: `{p : |p| ≤ r}`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    /// Radius.
    pub radius: f64,
}

impl PrimitiveShape for Sphere {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "Sphere",
        name: "sphere",
        siconos: true,
        planar: false,
        params: &[ParamDecl { attr: "radius", what: "radius", scalars: &["radius"] }],
        doc: "Ball of radius ``radius`` centred at the body origin.",
    };
    fn from_params(p: &[f64]) -> Self {
        Sphere { radius: p[0] }
    }
    fn params(&self) -> Vec<f64> {
        vec![self.radius]
    }
    fn build(&self) -> Option<SharedShape> {
        Some(SharedShape::ball(self.radius))
    }
    fn view(&self, _: &SharedShape) -> Option<ViewGeom> {
        Some(ViewGeom::Sphere(self.radius))
    }
}
