//! Disk of a 2D scene (Siconos `Disk`).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use nalgebra::Vector2;
use parry3d_f64::shape::SharedShape;

/// Disk of radius `radius` in the plane `z = 0` centred at the origin (planar scenes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Disk {
    /// Radius.
    pub radius: f64,
}

impl PrimitiveShape for Disk {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "Disk",
        name: "disk",
        siconos: true,
        planar: true,
        params: &[ParamDecl { attr: "radius", what: "radius", scalars: &["radius"] }],
        doc: "2D scenes: disk of radius ``radius`` centred at the body origin (Siconos ``Disk``).",
    };
    fn from_params(p: &[f64]) -> Self {
        Disk { radius: p[0] }
    }
    fn params(&self) -> Vec<f64> {
        vec![self.radius]
    }
    /// The prism over the 32-gon circumscribed to the disk (so the outline contains it).
    fn build(&self) -> Option<SharedShape> {
        let n = 32;
        let rc = self.radius / (std::f64::consts::PI / n as f64).cos();
        let outline: Vec<Vector2<f64>> = (0..n)
            .map(|k| {
                let a = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
                Vector2::new(rc * a.cos(), rc * a.sin())
            })
            .collect();
        super::prism(&outline, self.planar_radius())
    }
    fn build_2d(&self) -> Option<parry2d_f64::shape::SharedShape> {
        Some(parry2d_f64::shape::SharedShape::ball(self.radius))
    }
    fn planar_radius(&self) -> f64 {
        self.radius
    }
    fn view(&self, s: &SharedShape) -> Option<ViewGeom> {
        ViewGeom::polyhedron(s)
    }
}
