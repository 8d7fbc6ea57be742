//! Collision shapes (built on parry3d-f64) and colliders (a shape fixed to a body at an offset).
//!
//! The primitive shapes (a few numbers each: [`Sphere`], [`Cuboid`], [`Capsule`], [`Cylinder`],
//! [`Cone`], [`RoundBox`], and the planar [`Disk`], [`Box2d`]) are registered below, one file each (see
//! [`primitive`]); the shapes given by data — points, triangles, heights, a normal — are the
//! other variants of [`ShapeDesc`].
//!
//! The planar shapes ([`Disk`], [`Box2d`], [`ShapeDesc::ConvexPolygon`], Siconos `Disk`, `Box2d`,
//! `ConvexHull2d`) live in the plane `z = 0` of a 2D scene ([`crate::planar`]): their contacts
//! come from parry2d-f64 ([`ShapeDesc::build_2d`]), and [`ShapeDesc::build`] gives a prism of
//! half depth [`ShapeDesc::planar_radius`] around the plane for what only needs a 3D outline (the
//! 3D view, the broad phase's cells).

pub mod primitive;

use crate::convert::to_pv;
use nalgebra::{DMatrix, Isometry3, UnitQuaternion, Vector2, Vector3};
use parry3d_f64::mass_properties::MassProperties;
use parry3d_f64::shape::{HeightFieldFlags, SharedShape};
use parry3d_f64::utils::Array2;
pub use primitive::{ParamDecl, PrimitiveDecl, PrimitiveShape, ViewGeom};

/// The registration of the primitive shapes: `module::Type` per line, the module a file of this
/// folder whose type implements [`PrimitiveShape`]. It declares the module, re-exports the type
/// and makes it a variant of [`Primitive`], listed in [`Primitive::DECLS`].
macro_rules! primitive_shapes {
    ($($module:ident :: $ty:ident),* $(,)?) => {
        $(mod $module;
        pub use $module::$ty;)*

        /// A primitive shape: one variant per registered type.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Primitive {
            $(#[doc = concat!("[`", stringify!($ty), "`].")] $ty($ty),)*
        }

        impl Primitive {
            /// The declarations of the registered primitives, in registration order.
            pub const DECLS: &'static [&'static PrimitiveDecl] = &[$(&<$ty as PrimitiveShape>::DECL),*];

            /// Its declaration.
            pub fn decl(&self) -> &'static PrimitiveDecl {
                match self {
                    $(Primitive::$ty(_) => &<$ty as PrimitiveShape>::DECL,)*
                }
            }

            /// The primitive whose element is `element` made of the numbers `p` (unchecked: see
            /// [`PrimitiveDecl::check`]); `None` for an unknown element or a wrong count.
            pub fn from_params(element: &str, p: &[f64]) -> Option<Primitive> {
                $(if element == <$ty as PrimitiveShape>::DECL.element {
                    return (p.len() == <$ty as PrimitiveShape>::DECL.len())
                        .then(|| Primitive::$ty(<$ty as PrimitiveShape>::from_params(p)));
                })*
                None
            }

            /// The primitive called `element` made of Siconos's numbers `d` (`None` for an unknown
            /// element, one Siconos does not have, or a wrong count).
            pub fn from_siconos_dims(element: &str, d: &[f64]) -> Option<Primitive> {
                $(if element == <$ty as PrimitiveShape>::DECL.element {
                    let decl = &<$ty as PrimitiveShape>::DECL;
                    return (decl.siconos && d.len() == decl.len())
                        .then(|| Primitive::$ty(<$ty as PrimitiveShape>::from_siconos_dims(d)));
                })*
                None
            }

            /// The numbers of its parameters ([`PrimitiveShape::params`]).
            pub fn params(&self) -> Vec<f64> {
                match self {
                    $(Primitive::$ty(s) => s.params(),)*
                }
            }

            /// Siconos's numbers ([`PrimitiveShape::siconos_dims`]).
            pub fn siconos_dims(&self) -> Vec<f64> {
                match self {
                    $(Primitive::$ty(s) => s.siconos_dims(),)*
                }
            }

            fn validate(&self) -> Result<(), String> {
                match self {
                    $(Primitive::$ty(s) => s.validate(),)*
                }
            }

            fn mass_properties(&self, density: f64) -> Option<MassProperties> {
                match self {
                    $(Primitive::$ty(s) => s.mass_properties(density),)*
                }
            }

            fn build(&self) -> Option<SharedShape> {
                match self {
                    $(Primitive::$ty(s) => s.build(),)*
                }
            }

            fn build_2d(&self) -> Option<parry2d_f64::shape::SharedShape> {
                match self {
                    $(Primitive::$ty(s) => s.build_2d(),)*
                }
            }

            fn planar_radius(&self) -> f64 {
                match self {
                    $(Primitive::$ty(s) => s.planar_radius(),)*
                }
            }

            /// How the viewer draws it ([`PrimitiveShape::view`]).
            pub fn view(&self, shape: &SharedShape) -> Option<ViewGeom> {
                match self {
                    $(Primitive::$ty(s) => s.view(shape),)*
                }
            }
        }

        $(impl From<$ty> for ShapeDesc {
            fn from(s: $ty) -> ShapeDesc {
                ShapeDesc::Primitive(Primitive::$ty(s))
            }
        })*
    };
}

primitive_shapes! {
    sphere::Sphere,
    cuboid::Cuboid,
    capsule::Capsule,
    cylinder::Cylinder,
    cone::Cone,
    disk::Disk,
    box2d::Box2d,
    round_box::RoundBox,
}

/// A shape description: the parameters, in the collider's local frame.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeDesc {
    /// A registered primitive ([`Primitive`]).
    Primitive(Primitive),
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
    /// The shape's name in messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            ShapeDesc::Primitive(p) => p.decl().name,
            ShapeDesc::ConvexHull { .. } => "convex hull",
            ShapeDesc::TriMesh { .. } => "triangle mesh",
            ShapeDesc::HalfSpace { .. } => "half-space",
            ShapeDesc::HeightField { .. } => "height field",
            ShapeDesc::ConvexPolygon { .. } => "convex polygon",
        }
    }

    /// The shape's name in Siconos's `mechanics_hdf5` files (`data/ref`): the primitive names
    /// (`Sphere`, `Box`, …), and `Convex`, `Mesh`, `HalfSpace`, `HeightMap`.
    pub fn siconos_name(&self) -> &'static str {
        match self {
            ShapeDesc::Primitive(p) => p.decl().element,
            ShapeDesc::ConvexHull { .. } | ShapeDesc::ConvexPolygon { .. } => "Convex",
            ShapeDesc::TriMesh { .. } => "Mesh",
            ShapeDesc::HalfSpace { .. } => "HalfSpace",
            ShapeDesc::HeightField { .. } => "HeightMap",
        }
    }

    /// The mass properties at `density` where the shape knows better than parry (a rounded box:
    /// parry counts its inner box only); `None`: parry's.
    pub fn mass_properties(&self, density: f64) -> Option<MassProperties> {
        match self {
            ShapeDesc::Primitive(p) => p.mass_properties(density),
            _ => None,
        }
    }

    /// `true` for shapes without finite mass properties (only static or kinematic bodies).
    pub fn static_only(&self) -> bool {
        matches!(self, ShapeDesc::TriMesh { .. } | ShapeDesc::HalfSpace { .. } | ShapeDesc::HeightField { .. })
    }

    /// `true` for the shapes of the plane `z = 0` (2D scenes).
    pub fn is_planar(&self) -> bool {
        match self {
            ShapeDesc::Primitive(p) => p.decl().planar,
            ShapeDesc::ConvexPolygon { .. } => true,
            _ => false,
        }
    }

    /// Distance from the origin to the farthest point of a planar shape (0 for 3D shapes): the
    /// half depth of its 3D prism.
    pub fn planar_radius(&self) -> f64 {
        match self {
            ShapeDesc::Primitive(p) => p.planar_radius(),
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
        Ok(match self {
            ShapeDesc::Primitive(p) => p.build_2d(),
            ShapeDesc::ConvexPolygon { points } => {
                let pts: Vec<V2> = points.iter().map(|p| V2::new(p.x, p.y)).collect();
                Some(S2::convex_hull(&pts).ok_or("the points have no 2D convex hull (collinear?)")?)
            }
            _ => None,
        })
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
            ShapeDesc::Primitive(p) => p.decl().check(&p.params()).and_then(|()| p.validate()),
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
            ShapeDesc::Primitive(p) => (primitive::built(p.build(), p.decl())?, id),
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
            ShapeDesc::ConvexPolygon { points } => {
                (prism(points, self.planar_radius()).ok_or("the points have no 2D convex hull (collinear?)")?, id)
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

/// The prism of half depth `hz` around the plane `z = 0` over the convex hull of `outline`.
pub(crate) fn prism(outline: &[Vector2<f64>], hz: f64) -> Option<SharedShape> {
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
