//! User events on rigid bodies: a scene is a set of systems for the kernel's time-stepping
//! [`saltus_kernel::EventMonitor`] (the same monitor, root finder and transition rules as a
//! kernel model's `<Events>`). System `i` is body `i` (a `DsId(i)` of a [`UserEvent`]
//! addresses `BodyId(i)`); its state is the 13 numbers of [`BodyState::to_array`] (position,
//! quaternion `(w, x, y, z)`, velocity in the world frame, angular velocity in the body frame),
//! as the Siconos `q` and twist of a `NewtonEulerDS`.
//!
//! A reset writes a new pose and twist into a dynamic body at the end of the step holding the
//! event (the quaternion is normalised); the contact history and warm start carry on.
//!
//! [`UserEvent`]: saltus_kernel::UserEvent

use super::MechanicsSimulation;
use crate::body::{BodyKind, BodyState, BODY_STATE_LEN};
use saltus_kernel::{EventStates, KernelError};

impl EventStates for MechanicsSimulation {
    fn event_time(&self) -> f64 {
        self.time()
    }
    fn n_event_systems(&self) -> usize {
        self.model.bodies.len()
    }
    fn event_state_len(&self, _: usize) -> usize {
        BODY_STATE_LEN
    }
    fn event_state_layout(&self, _: usize) -> &'static str {
        " (x y z, qw qx qy qz, vx vy vz world, wx wy wz body)"
    }
    fn gather_event_state(&self, i: usize, out: &mut Vec<f64>) {
        out.clear();
        out.extend_from_slice(&self.model.bodies[i].state.to_array());
    }
    fn write_event_state(&mut self, i: usize, s: &[f64], t: f64) -> Result<(), KernelError> {
        let b = &mut self.model.bodies[i];
        if b.kind != BodyKind::Dynamic {
            return Err(KernelError::InvalidOption {
                option: "event",
                reason: format!("a reset at t = {t} acts on body `{}`, which is not dynamic", b.name),
            });
        }
        b.state = BodyState::from_array(s).ok_or(KernelError::NonFinite {
            t,
            what: "body state after an event reset (13 finite numbers, a non-zero quaternion)",
            interaction: None,
        })?;
        Ok(())
    }
}
