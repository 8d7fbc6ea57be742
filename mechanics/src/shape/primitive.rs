//! The registry of primitive shapes: shapes given by a few numbers (a radius, half extents…).
//!
//! A primitive shape is one file of this folder — a type implementing [`PrimitiveShape`]: its
//! declaration (element name, parameters, Siconos name), its parry shape and how it is drawn —
//! plus one line in the `primitive_shapes!` registration of [`super`], plus its element in
//! `schemas/saltus-model.xsd` (a test checks the schema against `Primitive::DECLS`). Every
//! face derives the rest from the declaration: model files read and write the element with its
//! attributes, `saltus.mechanics` gets a constructor of the same name, `Scene.add_primitive_shape`
//! and the `mechanics_hdf5` files use the Siconos numbers, the viewer draws it, and the messages
//! name it.

use parry3d_f64::mass_properties::MassProperties;
use parry3d_f64::shape::SharedShape;

/// One parameter of a primitive: an XML attribute holding `scalars.len()` numbers, each finite
/// and `> 0`.
#[derive(Debug)]
pub struct ParamDecl {
    /// XML attribute name (`radius`, `half_extents`).
    pub attr: &'static str,
    /// Name in messages (`radius`, `half extent`).
    pub what: &'static str,
    /// Its numbers' names, the positional arguments of the Python constructor (`hx`, `hy`, `hz`).
    pub scalars: &'static [&'static str],
}

/// What a primitive shape declares once.
#[derive(Debug)]
pub struct PrimitiveDecl {
    /// Element name in model files and name of the Python constructor; also Siconos's name of
    /// the primitive when [`PrimitiveDecl::siconos`] holds.
    pub element: &'static str,
    /// Name in messages (`sphere`, `2D box`).
    pub name: &'static str,
    /// Siconos has it under [`PrimitiveDecl::element`] (`add_primitive_shape`, `data/ref`).
    pub siconos: bool,
    /// A shape of the plane `z = 0` (2D scenes).
    pub planar: bool,
    /// The parameters, in order.
    pub params: &'static [ParamDecl],
    /// One sentence on the shape (Python docstring).
    pub doc: &'static str,
}

impl PrimitiveDecl {
    /// How many numbers the parameters hold.
    pub fn len(&self) -> usize {
        self.params.iter().map(|p| p.scalars.len()).sum()
    }

    /// Whether the shape has no parameter (none has).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The Python shape kind: the element name in lower case.
    pub fn kind(&self) -> String {
        self.element.to_ascii_lowercase()
    }

    /// Checks `p` (the numbers of the parameters, in order): the count, each finite and `> 0`.
    pub fn check(&self, p: &[f64]) -> Result<(), String> {
        if p.len() != self.len() {
            return Err(format!("a {} takes {} numbers, got {}", self.name, self.len(), p.len()));
        }
        let mut k = 0;
        for d in self.params {
            for &x in &p[k..k + d.scalars.len()] {
                if !(x > 0.0 && x.is_finite()) {
                    return Err(format!("{} must be finite and > 0, got {x}", d.what));
                }
            }
            k += d.scalars.len();
        }
        Ok(())
    }
}

/// How the viewer draws a shape: a primitive of the page, or triangles (flat `x y z`
/// coordinates, vertex indices) in the collider frame.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewGeom {
    /// Ball of radius `r`.
    Sphere(f64),
    /// Box of half extents.
    Box([f64; 3]),
    /// Capsule along `y`: radius, half height.
    Capsule(f64, f64),
    /// Cylinder along `y`: radius, half height.
    Cylinder(f64, f64),
    /// Triangles.
    Mesh(Vec<f64>, Vec<u32>),
}

impl ViewGeom {
    /// The triangles of a parry convex polyhedron (`None` if `s` is not one).
    pub fn polyhedron(s: &SharedShape) -> Option<ViewGeom> {
        let (v, i) = s.as_convex_polyhedron()?.to_trimesh();
        Some(ViewGeom::Mesh(v.iter().flat_map(|p| [p.x, p.y, p.z]).collect(), i.into_iter().flatten().collect()))
    }
}

/// A primitive shape: its declaration and what only it knows. The parameters given to
/// [`PrimitiveShape::from_params`] and returned by [`PrimitiveShape::params`] are the numbers of
/// [`PrimitiveShape::DECL`]'s parameters in order, checked by [`PrimitiveDecl::check`] before
/// [`PrimitiveShape::build`] is called.
pub trait PrimitiveShape: Sized {
    /// The declaration.
    const DECL: PrimitiveDecl;
    /// The shape of the numbers `p` (`DECL.len()` of them).
    fn from_params(p: &[f64]) -> Self;
    /// The numbers of the parameters.
    fn params(&self) -> Vec<f64>;
    /// Checks what the parameters' positivity ([`PrimitiveDecl::check`]) does not: by default
    /// nothing.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    /// The mass properties at `density` when parry's are not the shape's (`None`: parry's).
    fn mass_properties(&self, _density: f64) -> Option<MassProperties> {
        None
    }
    /// The parry shape, in the collider frame (for a planar shape, its prism around `z = 0` of
    /// half depth [`PrimitiveShape::planar_radius`]).
    fn build(&self) -> Option<SharedShape>;
    /// The parry2d shape of a planar shape (`None` for 3D shapes).
    fn build_2d(&self) -> Option<parry2d_f64::shape::SharedShape> {
        None
    }
    /// Distance from the origin to the farthest point of a planar shape (0 for 3D shapes).
    fn planar_radius(&self) -> f64 {
        0.0
    }
    /// Siconos's numbers of the primitive (`add_primitive_shape`, `data/ref`): full lengths
    /// where Siconos takes them. By default the parameters.
    fn siconos_dims(&self) -> Vec<f64> {
        self.params()
    }
    /// The shape of Siconos's numbers (as many as the parameters). By default the parameters.
    fn from_siconos_dims(d: &[f64]) -> Self {
        Self::from_params(d)
    }
    /// How the viewer draws it; `shape` is what [`PrimitiveShape::build`] returned.
    fn view(&self, shape: &SharedShape) -> Option<ViewGeom>;
}

/// `Err` naming the primitive when a built shape is `None`.
pub(crate) fn built(s: Option<SharedShape>, d: &PrimitiveDecl) -> Result<SharedShape, String> {
    s.ok_or_else(|| format!("the {} has no parry shape (degenerate parameters?)", d.name))
}
