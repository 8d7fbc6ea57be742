//! The contacts of the projection after a step (Siconos `TimeSteppingDirectProjection` with
//! `MoreauJeanDirectProjectionOSI`): the unilateral rows `g(q) ≥ 0` of the contacts closer than
//! the margin at the current poses.
//!
//! Every contact within the margin is a candidate, not only those below the tolerance (the
//! kernel's rule): the mixed problem gives `μ = 0` to those the correction leaves open, and the
//! others keep a correction from pushing a body into a neighbour it was about to touch (found
//! otherwise only at the next evaluation, one more iteration).
//!
//! Gaps are the true geometric ones: every evaluation of the Gauss–Newton loop runs the broad and
//! narrow phase on the corrected poses, every manifold computed afresh
//! ([`CollisionDetector::forget_manifolds`]: no coherence shortcut), with a collision detector of
//! the projection's own (the step's contacts and the warm start are left as they are); a
//! correction that pushes a body into a third one is seen at the next evaluation. The row of a
//! contact is the normal row of its `NewtonEuler3DR` Jacobian,
//!
//! ```text
//! ∂g/∂(v, Ω)_s = s (n, Rᵀ (a_s × n)),   s = −1 on body 1, +1 on body 2,   a_s = p_s − x_s,
//! ```
//!
//! the first-order change of `g = (p₂ − p₁)·n` along the retraction `(x + δv, q ⊗ exp(δΩ))`.

use super::super::step::{scalar_row, ScalarRow};
use crate::assembly::NO_BODY;
use crate::collision::{CollisionDetector, ContactPoint};
use crate::error::Result;
use crate::model::MechanicsModel;
use nalgebra::{SVector, Vector3};

/// Relative size of `G_ii = H_i M⁻¹ H_iᵀ` below which a contact row moves no body along its
/// normal (two kinematic or prescribed sides) and is left out: the projection cannot correct it.
const NO_RESPONSE: f64 = 1e-12;

/// The projection's collision detection, reused from step to step.
#[derive(Debug, Default)]
pub(crate) struct ContactProjection {
    detector: CollisionDetector,
    contacts: Vec<ContactPoint>,
    /// Per body, the summed correction `(δv, δΩ)` of an iteration (`None`: not moved).
    pub(crate) delta: Vec<Option<(Vector3<f64>, Vector3<f64>)>>,
}

impl ContactProjection {
    /// Detects the contacts at the model's current poses (those closer than the margin) and
    /// appends the row and the gap of every one that an impulse can move to `rows` and `h`.
    /// Returns the smallest gap among them (`+∞` without any). `t` is only used in error
    /// messages.
    pub(crate) fn rows(
        &mut self,
        model: &MechanicsModel,
        t: f64,
        rows: &mut Vec<ScalarRow>,
        h: &mut Vec<f64>,
    ) -> Result<f64> {
        self.detector.forget_manifolds();
        self.detector.detect(model, t, &mut self.contacts)?;
        let bodies = &model.bodies;
        let mut min_gap = f64::INFINITY;
        for c in &self.contacts {
            let ids = [c.body1, c.body2];
            let pts = [c.point1, c.point2];
            let mut jac = [SVector::<f64, 6>::zeros(); 2];
            for s in 0..2 {
                let st = &bodies[ids[s].index()].state;
                let sign = if s == 0 { -1.0 } else { 1.0 };
                let lever = st.orientation.inverse_transform_vector(&(pts[s] - st.position).cross(&c.normal));
                jac[s] = SVector::<f64, 6>::from_iterator(c.normal.iter().chain(lever.iter()).map(|x| sign * x));
            }
            let row = scalar_row([Some(ids[0]), Some(ids[1])], bodies, jac);
            let (mut gii, mut scale) = (0.0, 0.0);
            for s in 0..2 {
                if row.body[s] != NO_BODY {
                    gii += row.jac[s].dot(&row.g[s]);
                    scale += bodies[row.body[s] as usize].inv_mass();
                }
            }
            if !(gii > NO_RESPONSE * scale) {
                continue;
            }
            min_gap = min_gap.min(c.gap);
            rows.push(row);
            h.push(c.gap);
        }
        Ok(min_gap)
    }
}
