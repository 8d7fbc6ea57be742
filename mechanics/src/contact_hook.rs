//! Contact modification by a user function (rapier's `PhysicsHooks::modify_solver_contacts`,
//! Siconos's `BulletR` subclass overriding `updateContactPointsFromManifoldPoint`): after the
//! collision detection of each step, a [`ContactHookFn`] sees every contact with the two bodies
//! and may give it another normal, e.g. noise on the normals to model rough ground without
//! its geometry (Siconos's `modify_normals.py`).

use crate::body::RigidBody;
use crate::collision::ContactPoint;
use crate::error::{MechanicsError, Result};
use nalgebra::Vector3;
use std::sync::Arc;

/// `(t, contact, body1, body2) ↦ new normal`: called at every step, after the collision detection
/// and before the contact frames are built, for every contact (active or not) of a 3D scene, with
/// the bodies' states at the step's start. `Ok(Some(n))` replaces the contact's normal by `n`
/// (world frame, from body 1 to body 2; normalized here, finite and non-zero), `Ok(None)` keeps it,
/// and `Err` stops the step with its message. The normal sets the contact frame and so the
/// Jacobian of the contact; the gap stays the detected one (the distance of the two surfaces).
pub type ContactHookFn = Arc<
    dyn Fn(f64, &ContactPoint, &RigidBody, &RigidBody) -> std::result::Result<Option<Vector3<f64>>, String>
        + Send
        + Sync,
>;

/// A model's contact hook (a [`ContactHookFn`] that prints as its name in `Debug`).
#[derive(Clone)]
pub struct ContactHook(pub ContactHookFn);

impl std::fmt::Debug for ContactHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ContactHook")
    }
}

/// Calls `hook` on every contact of `contacts` at time `t` and sets the normals it gives.
pub(crate) fn apply(hook: &ContactHook, t: f64, bodies: &[RigidBody], contacts: &mut [ContactPoint]) -> Result<()> {
    for c in contacts.iter_mut() {
        let (b1, b2) = (&bodies[c.body1.index()], &bodies[c.body2.index()]);
        let given = (hook.0)(t, c, b1, b2).map_err(|message| MechanicsError::UserFunction {
            t,
            what: "contact hook",
            body: c.body2,
            message,
        })?;
        if let Some(n) = given {
            let norm = n.norm();
            if !norm.is_finite() {
                return Err(MechanicsError::NonFiniteUserValue { t, what: "contact hook's normal", body: c.body2 });
            }
            if norm == 0.0 {
                let message = "it gave the zero vector as a contact normal".to_string();
                return Err(MechanicsError::UserFunction { t, what: "contact hook", body: c.body2, message });
            }
            c.normal = n / norm;
        }
    }
    Ok(())
}
