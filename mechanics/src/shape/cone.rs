//! Cone (Siconos `Cone`, which takes the radius and the height).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use parry3d_f64::shape::SharedShape;

/// Cone along the local `y` axis (parry and Bullet convention): base disk of `radius` at
/// `y = −half_height`, apex at `y = +half_height` (its centre of mass is at `y = −half_height/2`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cone {
    /// Radius of the base.
    pub radius: f64,
    /// Half height.
    pub half_height: f64,
}

impl PrimitiveShape for Cone {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "Cone",
        name: "cone",
        siconos: true,
        planar: false,
        params: &[
            ParamDecl { attr: "radius", what: "radius", scalars: &["radius"] },
            ParamDecl { attr: "half_height", what: "half height", scalars: &["half_height"] },
        ],
        doc: "Cone along the local ``y`` axis: base of ``radius`` at ``y = −half_height``, apex at \
              ``+half_height`` (Bullet's and Siconos's convention; its centre of mass is ``half_height/2`` \
              below the origin).",
    };
    fn from_params(p: &[f64]) -> Self {
        Cone { radius: p[0], half_height: p[1] }
    }
    fn params(&self) -> Vec<f64> {
        vec![self.radius, self.half_height]
    }
    fn build(&self) -> Option<SharedShape> {
        Some(SharedShape::cone(self.half_height, self.radius))
    }
    /// Siconos's `(radius, height)`.
    fn siconos_dims(&self) -> Vec<f64> {
        vec![self.radius, 2.0 * self.half_height]
    }
    fn from_siconos_dims(d: &[f64]) -> Self {
        Cone { radius: d[0], half_height: d[1] / 2.0 }
    }
    fn view(&self, s: &SharedShape) -> Option<ViewGeom> {
        let (v, i) = s.as_cone()?.to_trimesh(32);
        Some(ViewGeom::Mesh(v.iter().flat_map(|p| [p.x, p.y, p.z]).collect(), i.into_iter().flatten().collect()))
    }
}
