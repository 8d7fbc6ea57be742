//! Slider (Siconos `PrismaticJointR`): fixed relative orientation and body 2's centre on the
//! line of body 1 along the axis through body 2's centre at assembly (5 rows). One coordinate:
//! the translation of body 1 relative to body 2 along the axis
//! ([`super::coordinate::translation_along_axis`]).

use super::coordinate::{translation_along_axis, DofKind, DofRow};
use super::rows::orthonormal_pair;
use super::{unit_axis, JointRelation, JointRows};
use crate::body::BodyState;
use nalgebra::{UnitQuaternion, Vector3};

/// Slider along a world axis (at assembly).
#[derive(Debug, Clone, PartialEq)]
pub struct PrismaticJointR {
    /// Axis direction, world frame at assembly (any non-zero length).
    pub axis: Vector3<f64>,
    q0: UnitQuaternion<f64>,
    p1: Vector3<f64>,
    perp1: [Vector3<f64>; 2],
    axis1: Vector3<f64>,
}

impl PrismaticJointR {
    /// Slider along `axis` (world frame, at the initial poses).
    pub fn new(axis: Vector3<f64>) -> Self {
        let z = Vector3::zeros();
        PrismaticJointR { axis, q0: UnitQuaternion::identity(), p1: z, perp1: [z, z], axis1: z }
    }
}

impl JointRelation for PrismaticJointR {
    fn type_name(&self) -> &'static str {
        "PrismaticJointR"
    }
    fn n_rows(&self) -> usize {
        5
    }
    fn bind(&mut self, a: &BodyState, b: &BodyState) -> Result<(), String> {
        let axis = unit_axis(&self.axis)?;
        self.q0 = a.orientation.inverse() * b.orientation;
        self.p1 = a.orientation.inverse_transform_vector(&(b.position - a.position));
        self.axis1 = a.orientation.inverse_transform_vector(&axis);
        let (c1, c2) = orthonormal_pair(&self.axis1);
        self.perp1 = [c1, c2];
        Ok(())
    }
    fn eval(&self, a: &BodyState, b: &BodyState, out: &mut JointRows) {
        out.n = 5;
        out.orientation(0, a, b, &self.q0);
        out.on_line(3, a, &self.p1, &self.perp1, b, &Vector3::zeros());
    }
    fn dofs(&self) -> &'static [DofKind] {
        &[DofKind::Translation]
    }
    fn dof(&self, k: usize, a: &BodyState, b: &BodyState) -> Option<DofRow> {
        (k == 0).then(|| translation_along_axis(a, &self.p1, &self.axis1, b, &Vector3::zeros()))
    }
}

impl super::RegisteredJoint for PrismaticJointR {
    const NAME: &'static str = "PrismaticJointR";
    const TAKES: super::JointData = super::JointData { point: false, axis: true };
    fn from_data(_point: Vector3<f64>, axis: Vector3<f64>) -> Self {
        PrismaticJointR::new(axis)
    }
}
