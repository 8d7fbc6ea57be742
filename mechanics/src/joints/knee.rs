//! Ball joint (Siconos `KneeJointR`): a point of body 1 and a point of body 2 (or of the world)
//! coincide, `h = (x₁ + R₁ p₁) − (x₂ + R₂ p₂) = 0` (3 rows).

use super::{finite_point, JointRelation, JointRows};
use crate::body::BodyState;
use nalgebra::Vector3;

/// Ball joint at a world point (at assembly).
#[derive(Debug, Clone, PartialEq)]
pub struct KneeJointR {
    /// The joint point, world frame at assembly.
    pub point: Vector3<f64>,
    p1: Vector3<f64>,
    p2: Vector3<f64>,
}

impl KneeJointR {
    /// Ball joint at `point` (world frame, at the initial poses).
    pub fn new(point: Vector3<f64>) -> Self {
        KneeJointR { point, p1: Vector3::zeros(), p2: Vector3::zeros() }
    }
}

impl JointRelation for KneeJointR {
    fn type_name(&self) -> &'static str {
        "KneeJointR"
    }
    fn n_rows(&self) -> usize {
        3
    }
    fn bind(&mut self, a: &BodyState, b: &BodyState) -> Result<(), String> {
        let p = finite_point(&self.point)?;
        self.p1 = a.orientation.inverse_transform_vector(&(p - a.position));
        self.p2 = b.orientation.inverse_transform_vector(&(p - b.position));
        Ok(())
    }
    fn eval(&self, a: &BodyState, b: &BodyState, out: &mut JointRows) {
        out.n = 3;
        out.point(0, a, &self.p1, b, &self.p2);
    }
}

impl super::RegisteredJoint for KneeJointR {
    const NAME: &'static str = "KneeJointR";
    const TAKES: super::JointData = super::JointData { point: true, axis: false };
    fn from_data(point: Vector3<f64>, _axis: Vector3<f64>) -> Self {
        KneeJointR::new(point)
    }
}
