//! Box with rounded edges and corners (parry's `RoundCuboid`; Siconos has no such primitive).

use super::primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};
use crate::convert::to_pv;
use nalgebra::Vector3;
use parry3d_f64::mass_properties::MassProperties;
use parry3d_f64::math::{AngVector, Vector};
use parry3d_f64::shape::SharedShape;
use std::f64::consts::PI;

/// Box of outer half extents `(a, b, c)` whose edges and corners are rounded with radius `r`:
/// the Minkowski sum of the box of half extents `(a − r, b − r, c − r)` and the ball of radius
/// `r` (`r < min(a, b, c)`). Its contacts keep one normal across an edge or a corner, so boxes
/// rolling over edges or stacked slightly askew meet smoothly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundBox {
    /// Outer half extents `(a, b, c)`.
    pub half_extents: Vector3<f64>,
    /// Radius of the rounded edges and corners.
    pub border_radius: f64,
}

impl RoundBox {
    /// The inner box's half extents `(a − r, b − r, c − r)`.
    fn inner(&self) -> Vector3<f64> {
        self.half_extents.add_scalar(-self.border_radius)
    }
}

/// `∫ x² dV` over the rounded box of inner half extents `(a, b, c)` and radius `r` (`x` along the
/// side `a`), summed over its pieces: the inner box, the six face slabs of thickness `r`, the
/// twelve quarter cylinders along the edges and the eight ball octants at the corners.
fn second_moment(a: f64, b: f64, c: f64, r: f64) -> f64 {
    let cube = |x: f64| x * x * x;
    let inner = 8.0 * cube(a) * b * c / 3.0;
    let slabs_x = 8.0 * b * c * (cube(a + r) - cube(a)) / 3.0;
    let slabs_yz = 8.0 * cube(a) * r * (b + c) / 3.0;
    let edges_x = 2.0 * PI * cube(a) * r * r / 3.0;
    // a quarter disk at x = a: ∫ (a + u)² dA = a² π r²/4 + 2a r³/3 + π r⁴/16, along 4 edges of length 2b, 4 of 2c
    let quarter = a * a * PI * r * r / 4.0 + 2.0 * a * cube(r) / 3.0 + PI * r.powi(4) / 16.0;
    let edges_yz = 8.0 * (b + c) * quarter;
    // a ball octant at x = a: ∫ (a + u)² dV = a² π r³/6 + 2a π r⁴/16 + π r⁵/30
    let corners = 8.0 * (a * a * PI * cube(r) / 6.0 + a * PI * r.powi(4) / 8.0 + PI * r.powi(5) / 30.0);
    inner + slabs_x + slabs_yz + edges_x + edges_yz + corners
}

impl PrimitiveShape for RoundBox {
    const DECL: PrimitiveDecl = PrimitiveDecl {
        element: "RoundBox",
        name: "rounded box",
        siconos: false,
        planar: false,
        params: &[
            ParamDecl { attr: "half_extents", what: "half extent", scalars: &["hx", "hy", "hz"] },
            ParamDecl { attr: "border_radius", what: "border radius", scalars: &["border_radius"] },
        ],
        doc: "Box ``[-hx, hx] × [-hy, hy] × [-hz, hz]`` (outer half extents) with its edges and corners \
              rounded to ``border_radius`` (less than each half extent).",
    };
    fn from_params(p: &[f64]) -> Self {
        RoundBox { half_extents: Vector3::new(p[0], p[1], p[2]), border_radius: p[3] }
    }
    fn params(&self) -> Vec<f64> {
        vec![self.half_extents.x, self.half_extents.y, self.half_extents.z, self.border_radius]
    }
    /// The border must leave an inner box: `r < min(a, b, c)`.
    fn validate(&self) -> Result<(), String> {
        let m = self.half_extents.min();
        if self.border_radius < m {
            Ok(())
        } else {
            Err(format!("border radius must be less than the smallest half extent {m}, got {}", self.border_radius))
        }
    }
    fn build(&self) -> Option<SharedShape> {
        let h = self.inner();
        Some(SharedShape::round_cuboid(h.x, h.y, h.z, self.border_radius))
    }
    /// Exact: parry gives a round shape the mass of its inner shape only.
    /// `V = 8abc + 8r(ab + bc + ca) + 2πr²(a + b + c) + 4πr³/3` (inner half extents `a, b, c`),
    /// `I_xx = ρ (∫y² + ∫z²)` with `second_moment`.
    fn mass_properties(&self, density: f64) -> Option<MassProperties> {
        let (h, r) = (self.inner(), self.border_radius);
        let (a, b, c) = (h.x, h.y, h.z);
        let volume = 8.0 * a * b * c
            + 8.0 * r * (a * b + b * c + c * a)
            + 2.0 * PI * r * r * (a + b + c)
            + 4.0 * PI * r * r * r / 3.0;
        let (sx, sy, sz) = (second_moment(a, b, c, r), second_moment(b, c, a, r), second_moment(c, a, b, r));
        let inertia = AngVector::new(density * (sy + sz), density * (sx + sz), density * (sx + sy));
        Some(MassProperties::new(Vector::ZERO, density * volume, inertia))
    }
    /// The convex hull of the corner balls (8 × 45 points).
    fn view(&self, _: &SharedShape) -> Option<ViewGeom> {
        ViewGeom::polyhedron(&SharedShape::convex_hull(&self.outline(4))?)
    }
}

impl RoundBox {
    /// Points of the surface: each corner's ball octant sampled on `n × n` latitude–longitude
    /// steps (a convex hull of them is inside the shape, within `r (1 − cos(π/4n))`).
    pub fn outline(&self, n: usize) -> Vec<Vector> {
        let (h, r) = (self.inner(), self.border_radius);
        let mut pts = Vec::new();
        for s in 0..8 {
            let sign = Vector3::new(
                if s & 1 == 0 { 1.0 } else { -1.0 },
                if s & 2 == 0 { 1.0 } else { -1.0 },
                if s & 4 == 0 { 1.0 } else { -1.0 },
            );
            for i in 0..=n {
                let th = 0.5 * PI * i as f64 / n as f64;
                for j in 0..=n {
                    let ph = 0.5 * PI * j as f64 / n as f64;
                    let u = Vector3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos());
                    pts.push(to_pv(&(h + u * r).component_mul(&sign)));
                }
            }
        }
        pts
    }
}
