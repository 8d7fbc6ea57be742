//! Cylindrical joint (Siconos `CylindricalJointR`): the axes of the two bodies stay parallel and
//! body 2's point of the axis stays on body 1's axis (4 rows): rotation about and translation
//! along the axis are free. Two coordinates, as Siconos's: 0 the translation along the axis,
//! 1 the angle about it ([`super::coordinate`]).

use super::coordinate::{reference_vector, rotation_about_axis, translation_along_axis, DofKind, DofRow};
use super::rows::orthonormal_pair;
use super::{local_point_axis, unit_axis, JointRelation, JointRows};
use crate::body::BodyState;
use nalgebra::Vector3;

/// Cylindrical joint through a world point along a world axis (at assembly).
#[derive(Debug, Clone, PartialEq)]
pub struct CylindricalJointR {
    /// A point of the axis, world frame at assembly.
    pub point: Vector3<f64>,
    /// Axis direction, world frame at assembly (any non-zero length).
    pub axis: Vector3<f64>,
    p1: Vector3<f64>,
    p2: Vector3<f64>,
    axis1: Vector3<f64>,
    perp1: [Vector3<f64>; 2],
    perp2: [Vector3<f64>; 2],
    refs: [Vector3<f64>; 2],
}

impl CylindricalJointR {
    /// Cylindrical joint through `point` along `axis` (world frame, at the initial poses).
    pub fn new(point: Vector3<f64>, axis: Vector3<f64>) -> Self {
        let z = Vector3::zeros();
        CylindricalJointR { point, axis, p1: z, p2: z, axis1: z, perp1: [z, z], perp2: [z, z], refs: [z, z] }
    }
}

impl JointRelation for CylindricalJointR {
    fn type_name(&self) -> &'static str {
        "CylindricalJointR"
    }
    fn n_rows(&self) -> usize {
        4
    }
    fn bind(&mut self, a: &BodyState, b: &BodyState) -> Result<(), String> {
        let axis2;
        [self.p1, self.p2, self.axis1, axis2] = local_point_axis(&self.point, &self.axis, a, b)?;
        let (c1, c2) = orthonormal_pair(&self.axis1);
        self.perp1 = [c1, c2];
        let (d1, d2) = orthonormal_pair(&axis2);
        self.perp2 = [d1, d2];
        let c = reference_vector(&unit_axis(&self.axis)?);
        self.refs = [a.orientation.inverse_transform_vector(&c), b.orientation.inverse_transform_vector(&c)];
        Ok(())
    }
    fn eval(&self, a: &BodyState, b: &BodyState, out: &mut JointRows) {
        out.n = 4;
        out.parallel_axes(0, a, &self.axis1, b, &self.perp2);
        out.on_line(2, a, &self.p1, &self.perp1, b, &self.p2);
    }
    fn dofs(&self) -> &'static [DofKind] {
        &[DofKind::Translation, DofKind::Rotation]
    }
    fn dof(&self, k: usize, a: &BodyState, b: &BodyState) -> Option<DofRow> {
        match k {
            0 => Some(translation_along_axis(a, &self.p1, &self.axis1, b, &self.p2)),
            1 => Some(rotation_about_axis(a, &self.axis1, &self.refs[0], b, &self.refs[1])),
            _ => None,
        }
    }
}

impl super::RegisteredJoint for CylindricalJointR {
    const NAME: &'static str = "CylindricalJointR";
    const TAKES: super::JointData = super::JointData { point: true, axis: true };
    fn from_data(point: Vector3<f64>, axis: Vector3<f64>) -> Self {
        CylindricalJointR::new(point, axis)
    }
}
