//! Joints between rigid bodies, or between a body and the world (Siconos
//! `siconos.mechanics.joints`): bilateral constraints `h(q) = 0` on the poses of two bodies.
//!
//! A joint type is one file implementing [`JointRelation`] (its rows of `h` and of the
//! Jacobian `J = ∂h/∂(v, Ω)` in twist coordinates, `v` world and `Ω` body frame) and
//! [`RegisteredJoint`] (its Siconos name and the point / axis it takes), plus one line in the
//! `joint_types!` registration below. Model files (`<Joint type="…">`) and error messages read
//! the registration ([`JointType::NAMES`], [`JointType::from_name`]), so nothing else names
//! the types; the XSD's enumeration of `type` is checked against [`JointType::NAMES`] by a
//! test. The rows are built from the primitives of [`rows`] (coincident points, fixed relative
//! orientation, parallel axes, point on a line), each with its exact Jacobian.
//!
//! | type | rows | free motion |
//! |---|---|---|
//! | [`KneeJointR`] (ball) | 3 | rotations about the point |
//! | [`PivotJointR`] (hinge) | 5 | rotation about the axis |
//! | [`PrismaticJointR`] | 5 | translation along the axis |
//! | [`CylindricalJointR`] | 4 | rotation about and translation along the axis |
//! | [`FixedJointR`] | 6 | none |
//!
//! Joints are given in the world frame at assembly (points, axes), as Siconos's
//! `absoluteRef = true`, and bound to body-frame data by [`JointRelation::bind`] when added to
//! the model. In a step, the joint rows enter the one-step problem as one equality block
//! (`J v_{k+1} = 0`, see `step`); after the step the positions and velocities are projected
//! back onto the constraints (`projection`).
//!
//! The free motions of a joint are its coordinates ([`coordinate`], Siconos's "DoF"): the angle
//! of a hinge, the translation of a slider, both for a cylindrical joint. Stops
//! ([`JointStopR`]: unilateral limits with a Newton impact law) and friction
//! ([`JointFrictionR`]: a bounded force or torque, a relay) act on a coordinate of a joint; they
//! are not joint types but relations on a joint (as in Siconos), added with
//! [`crate::MechanicsModel::add_joint_stop`] and [`crate::MechanicsModel::add_joint_friction`].
//! A [`CouplerJointR`] ties a coordinate of one joint to a coordinate of another (or the same)
//! joint, `θ₂ = r θ₁ + c` (gears, rack and pinion, screw): one more equality row, added with
//! [`crate::MechanicsModel::add_joint_coupler`].

pub mod coordinate;
pub(crate) mod coupler;
mod cylindrical;
mod fixed;
mod knee;
mod limits;
pub(crate) mod limits_step;
mod pivot;
mod prismatic;
pub(crate) mod projection;
pub mod rows;
pub(crate) mod step;

pub use coordinate::{DofKind, DofRow};
pub use coupler::CouplerJointR;
pub use cylindrical::CylindricalJointR;
pub use fixed::FixedJointR;
pub use knee::KneeJointR;
pub use limits::{JointFrictionR, JointStopR};
pub use pivot::PivotJointR;
pub use prismatic::PrismaticJointR;
pub use projection::{JointProjection, ProjectionReport};

use crate::body::{BodyId, BodyState, RigidBody};
use nalgebra::{SMatrix, SVector, Vector3};

/// Most rows a joint has (a fixed joint: 3 translations + 3 rotations).
pub const MAX_ROWS: usize = 6;

/// Index of a joint in a [`crate::MechanicsModel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JointId(pub u32);

/// The rows of one joint at one configuration: `h` (first `n` entries) and the Jacobian of
/// each side (`j[0]` body 1, `j[1]` body 2; row `i` = `(∂ḣ_i/∂v, ∂ḣ_i/∂Ω)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointRows {
    /// Number of rows in use.
    pub n: usize,
    /// `h(q)`.
    pub h: SVector<f64, MAX_ROWS>,
    /// Jacobian of each side.
    pub j: [SMatrix<f64, MAX_ROWS, 6>; 2],
}

impl Default for JointRows {
    fn default() -> Self {
        JointRows { n: 0, h: SVector::zeros(), j: [SMatrix::zeros(); 2] }
    }
}

/// A joint relation (Siconos `NewtonEulerJointR`).
pub trait JointRelation {
    /// Siconos name of the type (`"PivotJointR"`).
    fn type_name(&self) -> &'static str;
    /// Number of constraint rows.
    fn n_rows(&self) -> usize;
    /// Computes the body-frame data from the world-frame description and the poses at assembly
    /// (`b` is the identity pose for the world). Errors say what is wrong (e.g. a zero axis).
    fn bind(&mut self, a: &BodyState, b: &BodyState) -> Result<(), String>;
    /// `h(q)` and its Jacobian at poses `a`, `b` into `out` (sets `out.n`).
    fn eval(&self, a: &BodyState, b: &BodyState, out: &mut JointRows);
    /// The kinds of the joint's coordinates (Siconos `numberOfDoF`/`typeOfDoF`), on which stops
    /// and friction act; none by default.
    fn dofs(&self) -> &'static [DofKind] {
        &[]
    }
    /// Coordinate `k` (`< dofs().len()`) of body 1 relative to body 2 at poses `a`, `b`, zero
    /// at assembly, with its Jacobian (see [`coordinate`]); `None` when `k` is out of range.
    fn dof(&self, k: usize, a: &BodyState, b: &BodyState) -> Option<DofRow> {
        let _ = (k, a, b);
        None
    }
}

/// Which world-frame data (at assembly) a joint type takes from a model file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JointData {
    /// A point (`point="x y z"`).
    pub point: bool,
    /// An axis direction (`axis="x y z"`).
    pub axis: bool,
}

/// A joint type as a model file names it: implemented in the type's own file, read by the
/// `joint_types!` registration.
pub trait RegisteredJoint: JointRelation + Sized {
    /// The Siconos name (`PivotJointR`).
    const NAME: &'static str;
    /// The point and axis the type takes.
    const TAKES: JointData;
    /// The joint from its point and axis (world frame at assembly; zero for what it does not
    /// take).
    fn from_data(point: Vector3<f64>, axis: Vector3<f64>) -> Self;
}

macro_rules! joint_types {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        /// The joint types (registration: one variant per file).
        #[derive(Debug, Clone, PartialEq)]
        pub enum JointType {
            $(#[doc = concat!("See [`", stringify!($ty), "`].")] $variant($ty),)*
        }
        impl JointType {
            /// The Siconos names of the registered types, in registration order.
            pub const NAMES: &'static [&'static str] = &[$(<$ty as RegisteredJoint>::NAME,)*];
            /// What the type named `name` takes (`None`: no registered type has that name).
            pub fn data_of(name: &str) -> Option<JointData> {
                $(if name == <$ty as RegisteredJoint>::NAME {
                    return Some(<$ty as RegisteredJoint>::TAKES);
                })*
                None
            }
            /// The type named `name` built from its point and axis (see
            /// [`RegisteredJoint::from_data`]); `None` for an unknown name.
            pub fn from_name(name: &str, point: Vector3<f64>, axis: Vector3<f64>) -> Option<JointType> {
                $(if name == <$ty as RegisteredJoint>::NAME {
                    return Some(JointType::$variant(<$ty as RegisteredJoint>::from_data(point, axis)));
                })*
                None
            }
            /// The relation, for dispatch.
            pub fn relation(&self) -> &dyn JointRelation {
                match self { $(JointType::$variant(j) => j,)* }
            }
            fn relation_mut(&mut self) -> &mut dyn JointRelation {
                match self { $(JointType::$variant(j) => j,)* }
            }
        }
    };
}

joint_types! {
    Knee(KneeJointR),
    Pivot(PivotJointR),
    Prismatic(PrismaticJointR),
    Cylindrical(CylindricalJointR),
    Fixed(FixedJointR),
}

/// A joint of a model: body 1, body 2 or the world (`None`), its type.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Name (unique in a model).
    pub name: String,
    /// First body.
    pub body1: BodyId,
    /// Second body, or the world.
    pub body2: Option<BodyId>,
    /// Type and (bound) data.
    pub kind: JointType,
}

impl Joint {
    /// Binds `kind` at the poses of the bodies (see [`JointRelation::bind`]).
    pub(crate) fn bind(&mut self, a: &BodyState, b: &BodyState) -> Result<(), String> {
        self.kind.relation_mut().bind(a, b)
    }
    /// Rows of `h` and `J` at poses `a`, `b`.
    pub fn eval(&self, a: &BodyState, b: &BodyState, out: &mut JointRows) {
        self.kind.relation().eval(a, b, out)
    }
    /// Coordinate `k` at poses `a`, `b` (see [`JointRelation::dof`]).
    pub fn dof(&self, k: usize, a: &BodyState, b: &BodyState) -> Option<DofRow> {
        self.kind.relation().dof(k, a, b)
    }
    /// Violation `max_i |h_i(q)|` at the current states of `bodies` (the model's bodies):
    /// a length for the point rows, a sine of an angle for the orientation rows.
    pub fn violation(&self, bodies: &[RigidBody]) -> f64 {
        let mut rows = JointRows::default();
        let b = self.body2.map_or_else(BodyState::default, |b| bodies[b.index()].state);
        self.eval(&bodies[self.body1.index()].state, &b, &mut rows);
        rows.h.iter().take(rows.n).fold(0.0f64, |m, x| m.max(x.abs()))
    }
}

/// `axis / |axis|`, or an error when it is not finite or shorter than 1e-12.
pub(crate) fn unit_axis(axis: &Vector3<f64>) -> Result<Vector3<f64>, String> {
    let n = axis.norm();
    if !n.is_finite() {
        return Err(format!("axis {:?} is not finite", axis.as_slice()));
    }
    if n <= 1e-12 {
        return Err(format!("axis {:?} has zero length", axis.as_slice()));
    }
    Ok(axis / n)
}

/// A point and an axis given in the world frame at assembly, in the frames of the two sides:
/// `[p₁, p₂, α₁, α₂]` (`α` of unit length).
pub(crate) fn local_point_axis(
    point: &Vector3<f64>,
    axis: &Vector3<f64>,
    a: &BodyState,
    b: &BodyState,
) -> Result<[Vector3<f64>; 4], String> {
    let p = finite_point(point)?;
    let axis = unit_axis(axis)?;
    Ok([
        a.orientation.inverse_transform_vector(&(p - a.position)),
        b.orientation.inverse_transform_vector(&(p - b.position)),
        a.orientation.inverse_transform_vector(&axis),
        b.orientation.inverse_transform_vector(&axis),
    ])
}

/// `p`, or an error when it is not finite.
pub(crate) fn finite_point(p: &Vector3<f64>) -> Result<Vector3<f64>, String> {
    if p.iter().all(|x| x.is_finite()) {
        Ok(*p)
    } else {
        Err(format!("point {:?} is not finite", p.as_slice()))
    }
}

#[cfg(test)]
mod tests;
