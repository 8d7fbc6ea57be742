//! Weld (Siconos `FixedJointR`): the relative pose of the two bodies is frozen (6 rows: the
//! relative orientation and the coincidence of body 2's centre with its point of body 1).

use super::{JointRelation, JointRows};
use crate::body::BodyState;
use nalgebra::{UnitQuaternion, Vector3};

/// Weld of two bodies (or a body and the world) in their relative pose at assembly.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedJointR {
    q0: UnitQuaternion<f64>,
    p1: Vector3<f64>,
}

impl FixedJointR {
    /// Weld in the initial relative pose.
    pub fn new() -> Self {
        FixedJointR { q0: UnitQuaternion::identity(), p1: Vector3::zeros() }
    }
}

impl Default for FixedJointR {
    fn default() -> Self {
        Self::new()
    }
}

impl JointRelation for FixedJointR {
    fn type_name(&self) -> &'static str {
        "FixedJointR"
    }
    fn n_rows(&self) -> usize {
        6
    }
    fn bind(&mut self, a: &BodyState, b: &BodyState) -> Result<(), String> {
        self.q0 = a.orientation.inverse() * b.orientation;
        self.p1 = a.orientation.inverse_transform_vector(&(b.position - a.position));
        Ok(())
    }
    fn eval(&self, a: &BodyState, b: &BodyState, out: &mut JointRows) {
        out.n = 6;
        out.orientation(0, a, b, &self.q0);
        out.point(3, a, &self.p1, b, &Vector3::zeros());
    }
}

impl super::RegisteredJoint for FixedJointR {
    const NAME: &'static str = "FixedJointR";
    const TAKES: super::JointData = super::JointData { point: false, axis: false };
    fn from_data(_point: Vector3<f64>, _axis: Vector3<f64>) -> Self {
        FixedJointR::new()
    }
}
