//! Hinge (Siconos `PivotJointR`): a ball joint at a point of the axis plus the axis of body 1
//! parallel to the axis of body 2 (5 rows): `h = (x₁ + R₁ p₁ − x₂ − R₂ p₂, (R₁ α₁)·(R₂ β₁),
//! (R₁ α₁)·(R₂ β₂))` with `β₁, β₂ ⟂ α₂` in body 2's frame. One coordinate: the angle of body 1
//! relative to body 2 about the axis ([`super::coordinate::rotation_about_axis`]).

use super::coordinate::{reference_vector, rotation_about_axis, DofKind, DofRow};
use super::rows::orthonormal_pair;
use super::{local_point_axis, unit_axis, JointRelation, JointRows};
use crate::body::BodyState;
use nalgebra::Vector3;

/// Hinge through a world point along a world axis (at assembly).
#[derive(Debug, Clone, PartialEq)]
pub struct PivotJointR {
    /// A point of the axis, world frame at assembly.
    pub point: Vector3<f64>,
    /// Axis direction, world frame at assembly (any non-zero length).
    pub axis: Vector3<f64>,
    p1: Vector3<f64>,
    p2: Vector3<f64>,
    axis1: Vector3<f64>,
    perp2: [Vector3<f64>; 2],
    refs: [Vector3<f64>; 2],
}

impl PivotJointR {
    /// Hinge through `point` along `axis` (world frame, at the initial poses).
    pub fn new(point: Vector3<f64>, axis: Vector3<f64>) -> Self {
        let z = Vector3::zeros();
        PivotJointR { point, axis, p1: z, p2: z, axis1: z, perp2: [z, z], refs: [z, z] }
    }
}

impl JointRelation for PivotJointR {
    fn type_name(&self) -> &'static str {
        "PivotJointR"
    }
    fn n_rows(&self) -> usize {
        5
    }
    fn bind(&mut self, a: &BodyState, b: &BodyState) -> Result<(), String> {
        let axis2;
        [self.p1, self.p2, self.axis1, axis2] = local_point_axis(&self.point, &self.axis, a, b)?;
        let (c1, c2) = orthonormal_pair(&axis2);
        self.perp2 = [c1, c2];
        let c = reference_vector(&unit_axis(&self.axis)?);
        self.refs = [a.orientation.inverse_transform_vector(&c), b.orientation.inverse_transform_vector(&c)];
        Ok(())
    }
    fn eval(&self, a: &BodyState, b: &BodyState, out: &mut JointRows) {
        out.n = 5;
        out.point(0, a, &self.p1, b, &self.p2);
        out.parallel_axes(3, a, &self.axis1, b, &self.perp2);
    }
    fn dofs(&self) -> &'static [DofKind] {
        &[DofKind::Rotation]
    }
    fn dof(&self, k: usize, a: &BodyState, b: &BodyState) -> Option<DofRow> {
        (k == 0).then(|| rotation_about_axis(a, &self.axis1, &self.refs[0], b, &self.refs[1]))
    }
}

impl super::RegisteredJoint for PivotJointR {
    const NAME: &'static str = "PivotJointR";
    const TAKES: super::JointData = super::JointData { point: true, axis: true };
    fn from_data(point: Vector3<f64>, axis: Vector3<f64>) -> Self {
        PivotJointR::new(point, axis)
    }
}
