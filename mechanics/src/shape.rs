//! Collision shapes (built on parry3d-f64) and colliders (a shape fixed to a body at an offset).
//!
//! A new shape is one [`ShapeDesc`] variant plus its arm in [`ShapeDesc::build`] (and in
//! [`ShapeDesc::validate`] and [`ShapeDesc::static_only`] if it has parameters or cannot move).
//!
//! The planar shapes ([`ShapeDesc::Disk`], [`ShapeDesc::Box2d`], [`ShapeDesc::ConvexPolygon`],
//! Siconos `Disk`, `Box2d`, `ConvexHull2d`) live in the plane `z = 0` of a 2D scene
//! ([`crate::planar`]): their contacts come from parry2d-f64 ([`ShapeDesc::build_2d`]), and
//! [`ShapeDesc::build`] gives a prism of half depth [`ShapeDesc::planar_radius`] around the
//! plane for what only needs a 3D outline (the 3D view, the broad phase's cells).

use crate::convert::to_pv;
use nalgebra::{DMatrix, Isometry3, UnitQuaternion, Vector2, Vector3};
use parry3d_f64::shape::{HeightFieldFlags, SharedShape};
use parry3d_f64::utils::Array2;

/// A shape description: the parameters, in the collider's local frame.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeDesc {
    /// Ball of the given radius centred at the origin.
    Sphere {
        /// Radius.
        radius: f64,
    },
    /// Box `[−a, a] × [−b, b] × [−c, c]`.
    Cuboid {
        /// Half extents `(a, b, c)`.
        half_extents: Vector3<f64>,
    },
    /// Capsule along the local `y` axis (parry and Bullet convention): segment `±half_height·ŷ`
    /// swept by a ball of radius `radius`.
    Capsule {
        /// Half length of the axis segment.
        half_height: f64,
        /// Radius.
        radius: f64,
    },
    /// Cylinder along the local `y` axis (parry and Bullet convention).
    Cylinder {
        /// Half height.
        half_height: f64,
        /// Radius.
        radius: f64,
    },
    /// Cone along the local `y` axis (parry and Bullet convention): base disk of `radius` at
    /// `y = −half_height`, apex at `y = +half_height` (its centre of mass is at `y = −half_height/2`).
    Cone {
        /// Half height.
        half_height: f64,
        /// Radius of the base.
        radius: f64,
    },
    /// Convex hull of points.
    ConvexHull {
        /// The points (at least 4, not coplanar).
        points: Vec<Vector3<f64>>,
    },
    /// Triangle mesh (static or kinematic bodies only).
    TriMesh {
        /// Vertices.
        vertices: Vec<Vector3<f64>>,
        /// Triangles as vertex indices.
        indices: Vec<[u32; 3]>,
    },
    /// Half-space `{p : n·p ≤ 0}` with outward unit normal `n` (static or kinematic only).
    HalfSpace {
        /// Outward normal (normalised on build).
        normal: Vector3<f64>,
    },
    /// Disk of the given radius in the plane `z = 0` centred at the origin (planar scenes).
    Disk {
        /// Radius.
        radius: f64,
    },
    /// Rectangle `[−a, a] × [−b, b]` in the plane `z = 0` (planar scenes; Siconos `Box2d`
    /// takes the full sides `(2a, 2b)`).
    Box2d {
        /// Half sides `(a, b)`.
        half_extents: Vector2<f64>,
    },
    /// Convex hull of points of the plane `z = 0` (planar scenes; Siconos `ConvexHull2d`).
    ConvexPolygon {
        /// The points `(x, y)` (at least 3, not collinear).
        points: Vec<Vector2<f64>>,
    },
    /// Height field `z = h(x, y)` over `[−Lx/2, Lx/2] × [−Ly/2, Ly/2]` (static or kinematic only):
    /// `heights[(i, j)]` is the height at `x_i = −Lx/2 + i·Lx/(nx−1)`, `y_j = −Ly/2 + j·Ly/(ny−1)`.
    HeightField {
        /// Heights, `nx × ny` (at least 2 × 2).
        heights: DMatrix<f64>,
        /// `(Lx, Ly)`.
        size: Vector2<f64>,
    },
}

impl ShapeDesc {
    /// The shape's name in messages and XML.
    pub fn kind_name(&self) -> &'static str {
        match self {
            ShapeDesc::Sphere { .. } => "sphere",
            ShapeDesc::Cuboid { .. } => "box",
            ShapeDesc::Capsule { .. } => "capsule",
            ShapeDesc::Cylinder { .. } => "cylinder",
            ShapeDesc::Cone { .. } => "cone",
            ShapeDesc::ConvexHull { .. } => "convex hull",
            ShapeDesc::TriMesh { .. } => "triangle mesh",
            ShapeDesc::HalfSpace { .. } => "half-space",
            ShapeDesc::HeightField { .. } => "height field",
            ShapeDesc::Disk { .. } => "disk",
            ShapeDesc::Box2d { .. } => "2D box",
            ShapeDesc::ConvexPolygon { .. } => "convex polygon",
        }
    }

    /// The shape's name in Siconos's `mechanics_hdf5` files (`data/ref`): the primitive names
    /// `Sphere`, `Box`, `Capsule`, `Cylinder`, and `Convex`, `Mesh`, `HalfSpace`, `HeightMap`.
    pub fn siconos_name(&self) -> &'static str {
        match self {
            ShapeDesc::Sphere { .. } => "Sphere",
            ShapeDesc::Cuboid { .. } => "Box",
            ShapeDesc::Capsule { .. } => "Capsule",
            ShapeDesc::Cylinder { .. } => "Cylinder",
            ShapeDesc::Cone { .. } => "Cone",
            ShapeDesc::ConvexHull { .. } => "Convex",
            ShapeDesc::TriMesh { .. } => "Mesh",
            ShapeDesc::HalfSpace { .. } => "HalfSpace",
            ShapeDesc::HeightField { .. } => "HeightMap",
            ShapeDesc::Disk { .. } => "Disk",
            ShapeDesc::Box2d { .. } => "Box2d",
            ShapeDesc::ConvexPolygon { .. } => "Convex",
        }
    }

    /// `true` for shapes without finite mass properties (only static or kinematic bodies).
    pub fn static_only(&self) -> bool {
        matches!(self, ShapeDesc::TriMesh { .. } | ShapeDesc::HalfSpace { .. } | ShapeDesc::HeightField { .. })
    }

    /// `true` for the shapes of the plane `z = 0` (2D scenes).
    pub fn is_planar(&self) -> bool {
        matches!(self, ShapeDesc::Disk { .. } | ShapeDesc::Box2d { .. } | ShapeDesc::ConvexPolygon { .. })
    }

    /// Distance from the origin to the farthest point of a planar shape (0 for 3D shapes): the
    /// half depth of its 3D prism.
    pub fn planar_radius(&self) -> f64 {
        match self {
            ShapeDesc::Disk { radius } => *radius,
            ShapeDesc::Box2d { half_extents } => half_extents.norm(),
            ShapeDesc::ConvexPolygon { points } => points.iter().map(|p| p.norm()).fold(0.0, f64::max),
            _ => 0.0,
        }
    }

    /// The parry2d shape of a planar shape (`None` for 3D shapes); parameters checked.
    pub fn build_2d(&self) -> Result<Option<parry2d_f64::shape::SharedShape>, String> {
        use parry2d_f64::math::Vector as V2;
        use parry2d_f64::shape::SharedShape as S2;
        if !self.is_planar() {
            return Ok(None);
        }
        self.validate()?;
        Ok(Some(match self {
            ShapeDesc::Disk { radius } => S2::ball(*radius),
            ShapeDesc::Box2d { half_extents: h } => S2::cuboid(h.x, h.y),
            ShapeDesc::ConvexPolygon { points } => {
                let pts: Vec<V2> = points.iter().map(|p| V2::new(p.x, p.y)).collect();
                S2::convex_hull(&pts).ok_or("the points have no 2D convex hull (collinear?)")?
            }
            _ => unreachable!("planar shapes only"),
        }))
    }

    /// Checks the parameters (positive finite sizes, indices in range); the reason otherwise.
    pub fn validate(&self) -> Result<(), String> {
        let pos = |name: &str, x: f64| {
            if x > 0.0 && x.is_finite() {
                Ok(())
            } else {
                Err(format!("{name} must be finite and > 0, got {x}"))
            }
        };
        let finite = |name: &str, v: &[f64]| {
            if v.iter().all(|x| x.is_finite()) {
                Ok(())
            } else {
                Err(format!("{name} has a non-finite value"))
            }
        };
        match self {
            ShapeDesc::Sphere { radius } => pos("radius", *radius),
            ShapeDesc::Cuboid { half_extents } => half_extents.iter().try_for_each(|&x| pos("half extent", x)),
            ShapeDesc::Capsule { half_height, radius }
            | ShapeDesc::Cylinder { half_height, radius }
            | ShapeDesc::Cone { half_height, radius } => {
                pos("half height", *half_height)?;
                pos("radius", *radius)
            }
            ShapeDesc::ConvexHull { points } => {
                points.iter().try_for_each(|p| finite("point", p.as_slice()))?;
                if points.len() < 4 {
                    return Err(format!("a convex hull needs at least 4 points, got {}", points.len()));
                }
                Ok(())
            }
            ShapeDesc::TriMesh { vertices, indices } => {
                vertices.iter().try_for_each(|p| finite("vertex", p.as_slice()))?;
                if indices.is_empty() {
                    return Err("a triangle mesh needs at least one triangle".into());
                }
                if let Some((t, _)) =
                    indices.iter().enumerate().find(|(_, tri)| tri.iter().any(|&i| i as usize >= vertices.len()))
                {
                    return Err(format!("triangle {t} refers to a vertex beyond the {} given", vertices.len()));
                }
                Ok(())
            }
            ShapeDesc::HalfSpace { normal } => {
                finite("normal", normal.as_slice())?;
                pos("normal length", normal.norm())
            }
            ShapeDesc::Disk { radius } => pos("radius", *radius),
            ShapeDesc::Box2d { half_extents } => half_extents.iter().try_for_each(|&x| pos("half side", x)),
            ShapeDesc::ConvexPolygon { points } => {
                points.iter().try_for_each(|p| finite("point", p.as_slice()))?;
                if points.len() < 3 {
                    return Err(format!("a convex polygon needs at least 3 points, got {}", points.len()));
                }
                Ok(())
            }
            ShapeDesc::HeightField { heights, size } => {
                finite("heights", heights.as_slice())?;
                pos("size x", size.x)?;
                pos("size y", size.y)?;
                if heights.nrows() < 2 || heights.ncols() < 2 {
                    return Err(format!("a height field needs at least 2 × 2 heights, got {:?}", heights.shape()));
                }
                Ok(())
            }
        }
    }

    /// The parry shape and the fixed pose of the parry shape in the collider frame (identity
    /// except for the height field, which parry defines with `y` up).
    pub fn build(&self) -> Result<(SharedShape, Isometry3<f64>), String> {
        self.validate()?;
        let id = Isometry3::identity();
        Ok(match self {
            ShapeDesc::Sphere { radius } => (SharedShape::ball(*radius), id),
            ShapeDesc::Cuboid { half_extents: h } => (SharedShape::cuboid(h.x, h.y, h.z), id),
            ShapeDesc::Capsule { half_height, radius } => (SharedShape::capsule_y(*half_height, *radius), id),
            ShapeDesc::Cylinder { half_height, radius } => (SharedShape::cylinder(*half_height, *radius), id),
            ShapeDesc::Cone { half_height, radius } => (SharedShape::cone(*half_height, *radius), id),
            ShapeDesc::ConvexHull { points } => {
                let pts: Vec<_> = points.iter().map(to_pv).collect();
                let s = SharedShape::convex_hull(&pts).ok_or("the points have no 3D convex hull (coplanar?)")?;
                (s, id)
            }
            ShapeDesc::TriMesh { vertices, indices } => {
                let s = SharedShape::trimesh(vertices.iter().map(to_pv).collect(), indices.clone())
                    .map_err(|e| format!("triangle mesh: {e:?}"))?;
                (s, id)
            }
            ShapeDesc::HalfSpace { normal } => (SharedShape::halfspace(to_pv(&normal.normalize())), id),
            ShapeDesc::Disk { .. } | ShapeDesc::Box2d { .. } | ShapeDesc::ConvexPolygon { .. } => {
                (planar_prism(self).ok_or("the points have no 2D convex hull (collinear?)")?, id)
            }
            ShapeDesc::HeightField { heights, size } => {
                // parry: rows advance along its z, columns along its x, heights along its y; the
                // rotation by +90° about x maps its (x, y, z) to our (x, −z, y): parry row i is at
                // our y = +Ly/2 − i·Ly/(ny−1), hence the reversed j.
                let (nx, ny) = heights.shape();
                let data: Vec<f64> =
                    (0..nx).flat_map(|i| (0..ny).rev().map(move |j| (i, j))).map(|ij| heights[ij]).collect();
                let arr = Array2::new(ny, nx, data);
                // FIX_INTERNAL_EDGES: a contact with an edge or vertex inside the field takes a normal
                // within the adjacent faces' cone (Siconos asks Bullet for the same adjustment,
                // btAdjustInternalEdgeContacts): a ball rolling over coplanar triangles otherwise
                // meets the next one's edge with a tilted normal and hops off the surface.
                let s = SharedShape::heightfield_with_flags(
                    arr,
                    to_pv(&Vector3::new(size.x, 1.0, size.y)),
                    HeightFieldFlags::FIX_INTERNAL_EDGES,
                );
                let rot = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2);
                (s, Isometry3::from_parts(Vector3::zeros().into(), rot))
            }
        })
    }
}

/// The 3D outline of a planar shape: the prism of half depth [`ShapeDesc::planar_radius`] over
/// it (a disk as the 32-gon circumscribed to it, so the outline contains the disk).
fn planar_prism(d: &ShapeDesc) -> Option<SharedShape> {
    let hz = d.planar_radius();
    let outline: Vec<Vector2<f64>> = match d {
        ShapeDesc::Disk { radius } => {
            let n = 32;
            let rc = radius / (std::f64::consts::PI / n as f64).cos();
            (0..n)
                .map(|k| {
                    let a = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
                    Vector2::new(rc * a.cos(), rc * a.sin())
                })
                .collect()
        }
        ShapeDesc::Box2d { half_extents: h } => return Some(SharedShape::cuboid(h.x, h.y, hz)),
        ShapeDesc::ConvexPolygon { points } => points.clone(),
        _ => return None,
    };
    let pts: Vec<_> = outline.iter().flat_map(|p| [-hz, hz].map(|z| to_pv(&Vector3::new(p.x, p.y, z)))).collect();
    SharedShape::convex_hull(&pts)
}

/// A shape fixed to a body.
#[derive(Clone)]
pub struct Collider {
    /// The body.
    pub body: crate::BodyId,
    /// Shape number inside the body (0, 1, …).
    pub index_in_body: u32,
    /// The description it was built from.
    pub desc: ShapeDesc,
    /// Pose of the shape in the body frame (`offset · inner` maps parry's frame to the body's).
    pub offset: Isometry3<f64>,
    /// Collision group (Siconos's contactor `collision_group`; by default the body's): the law
    /// of a pair of colliders is the law of their two groups, and colliders whose groups have
    /// no law do not collide.
    pub group: u32,
    pub(crate) shape: SharedShape,
    /// The parry2d shape of a planar shape (contacts of 2D scenes).
    pub(crate) shape2d: Option<parry2d_f64::shape::SharedShape>,
    /// Pose of parry's shape frame in the body frame: `offset · (build's fixed pose)`.
    pub(crate) local_pose: Isometry3<f64>,
}

impl std::fmt::Debug for Collider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collider")
            .field("body", &self.body)
            .field("index_in_body", &self.index_in_body)
            .field("desc", &self.desc)
            .field("offset", &self.offset)
            .field("group", &self.group)
            .finish_non_exhaustive()
    }
}

impl Collider {
    /// The parry shape.
    pub fn shape(&self) -> &SharedShape {
        &self.shape
    }
}
