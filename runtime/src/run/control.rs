//! The [`Stepper`] of a `<Control>` model ([`ControlRun`], a zero-order-hold control
//! simulation): one row per plant step (`t`, the plant state, each actuator's input `u` held on
//! `[t_k, t_{k+1})`, each observer's estimate).

use crate::drive::{Advanced, Flow, NotConverged, Sinks, Stepper, Stopped, Summary};
use crate::output::TargetError;
use crate::xml::convert_control::ControlBuilt;

/// A `<Control>` model being run. The summary counts the plant steps, the actuations (as
/// `events`), the relay problems of the controllers that did not converge and their largest
/// residual.
pub struct ControlRun {
    /// The model and its simulation.
    pub built: ControlBuilt,
    row: Vec<f64>,
}

impl ControlRun {
    /// A run of `built` from its initial state.
    pub fn new(built: ControlBuilt) -> ControlRun {
        ControlRun { built, row: Vec::new() }
    }
}

fn failed(e: saltus_control::ControlError) -> Stopped {
    Stopped::Control(Box::new(e))
}

impl Stepper for ControlRun {
    fn total(&self) -> u64 {
        self.built.steps
    }
    fn steps_done(&self) -> u64 {
        self.built.sim.report().steps
    }
    fn done(&self) -> bool {
        self.built.sim.finished()
    }
    fn time(&self) -> f64 {
        self.built.sim.time()
    }
    fn columns(&self) -> Vec<String> {
        self.built.columns.clone()
    }
    fn write_start(&mut self, out: &mut Sinks<'_>) -> Result<(), TargetError> {
        // the control instants of t0 act before row 0 (a failure there shows at the first advance)
        if self.built.sim.initialize().is_ok() {
            self.built.sim.row(&mut self.row);
            out.main.row(&self.row)?;
        }
        Ok(())
    }
    fn advance(&mut self, sum: &mut Summary) -> Result<Advanced, Stopped> {
        let sim = &mut self.built.sim;
        sim.initialize().map_err(failed)?;
        let before = sim.report().not_converged;
        sim.advance().map_err(failed)?;
        let rep = sim.report();
        sum.max_residual = sum.max_residual.max(rep.max_residual);
        let count = rep.not_converged - before;
        let not_converged = (count > 0).then_some(NotConverged {
            what: "a controller's relay problem",
            residual: rep.max_residual,
            count,
        });
        Ok(Advanced { t: sim.time(), step: Some(rep.steps), not_converged })
    }
    fn complete(&mut self, _: &Advanced, keep: bool, out: &mut Sinks<'_>, sum: &mut Summary) -> Result<Flow, Stopped> {
        sum.steps += 1;
        if keep {
            self.built.sim.row(&mut self.row);
            out.main.row(&self.row)?;
        }
        Ok(Flow::Continue)
    }
    fn finish(&mut self, sum: &mut Summary) {
        sum.events = self.built.sim.report().actuations;
    }
    fn describe_failure(&self, _: &Stopped) -> Option<String> {
        None
    }
}

/// A [`saltus_control::ControlManager`] acting on one first-order system of a time-stepping
/// run (Siconos `ControlManager` on a user's `TimeStepping`): at the instants of step `k` its
/// sensors read the system's state `x_k`, its actuators compute their inputs, and the sum
/// `g = Σ B u` is held by the time stepping over the next step (`ẋ = f(t, x) + g + r`). The plant
/// may have interactions (relays, complementarity): the controller sees only its state.
pub struct KernelControl {
    /// The sensors, controllers and observers.
    pub manager: saltus_control::ControlManager,
    /// The plant.
    pub ds: saltus_kernel::DsId,
    g: nalgebra::DVector<f64>,
    x: nalgebra::DVector<f64>,
}

impl KernelControl {
    /// Control of system `ds` (of `n` states) by `manager`.
    pub fn new(manager: saltus_control::ControlManager, ds: saltus_kernel::DsId) -> KernelControl {
        let n = manager.n();
        KernelControl { manager, ds, g: nalgebra::DVector::zeros(n), x: nalgebra::DVector::zeros(n) }
    }

    /// The control instants of step `k` at time `t`, then the new input held by `sim`.
    pub fn instant(
        &mut self,
        k: u64,
        t: f64,
        nsds: &saltus_kernel::Nsds,
        sim: &mut crate::simulation::Simulation,
    ) -> Result<(), Stopped> {
        let state = nsds.systems().get(self.ds.index()).map(|d| d.state());
        let Some(state) = state.filter(|s| s.len() == self.x.len()) else {
            let e = saltus_control::ControlError::Invalid {
                what: "plant".into(),
                reason: "state missing (internal)".into(),
            };
            return Err(failed(e));
        };
        self.x.copy_from(state);
        self.manager.instant(k as usize, t, &self.x).map_err(failed)?;
        if self.manager.has_actuators() {
            self.manager.input_term(&mut self.g);
            sim.set_control_input(self.ds, self.g.as_slice()).map_err(|e| Stopped::Failed(Box::new(e)))?;
        }
        Ok(())
    }
}

/// A [`saltus_control::ControlManager`] acting on one rigid body of a `<Mechanics>` scene: the
/// plant state its sensors read is `x = (position, velocity)` of the body's centre of mass (6
/// values, world frame), whose linear model is the free particle `ẋ = [[0, I], [0, 0]] x + B u`;
/// the actuators' `g = Σ B u` is an acceleration of the velocity rows (its position rows are
/// zero), applied as the force `m g[3..6]` held over the next step, with gravity, the contacts
/// and the body's other loads.
#[derive(Debug, Clone)]
pub struct BodyControl {
    /// The sensors, controllers and observers.
    pub manager: saltus_control::ControlManager,
    /// The plant.
    pub body: saltus_mechanics::BodyId,
    g: nalgebra::DVector<f64>,
    x: nalgebra::DVector<f64>,
}

impl BodyControl {
    /// Number of plant states: position and velocity.
    pub const N: usize = 6;

    /// The free particle's model `A = [[0, I], [0, 0]]`, `b = 0`.
    pub fn model() -> saltus_control::LinearModel {
        let mut a = nalgebra::DMatrix::zeros(Self::N, Self::N);
        for i in 0..3 {
            a[(i, i + 3)] = 1.0;
        }
        saltus_control::LinearModel { a, b: nalgebra::DVector::zeros(Self::N) }
    }

    /// Control of `body` by `manager` (of [`Self::N`] states); refused when an actuator's `B`
    /// drives a position row.
    pub fn new(manager: saltus_control::ControlManager, body: saltus_mechanics::BodyId) -> Result<BodyControl, String> {
        if manager.n() != Self::N {
            return Err(format!("the plant of a body has {} states, the manager {}", Self::N, manager.n()));
        }
        if manager.inputs().any(|(b, _)| b.rows(0, 3).iter().any(|v| *v != 0.0)) {
            return Err("an actuator's B drives a position (rows 0–2 of B must be zero: a body is pushed by a force, \
                        B u is the acceleration of its velocity rows 3–5)"
                .into());
        }
        Ok(BodyControl { manager, body, g: nalgebra::DVector::zeros(Self::N), x: nalgebra::DVector::zeros(Self::N) })
    }

    /// The control instants of step `k` at time `t`, then the new force held by `sim`.
    pub fn instant(&mut self, k: u64, t: f64, sim: &mut saltus_mechanics::MechanicsSimulation) -> Result<(), Stopped> {
        let b = sim.model.body(self.body);
        self.x.rows_mut(0, 3).copy_from(&b.state.position);
        self.x.rows_mut(3, 3).copy_from(&b.state.v);
        let mass = b.mass();
        self.manager.instant(k as usize, t, &self.x).map_err(failed)?;
        if self.manager.has_actuators() {
            self.manager.input_term(&mut self.g);
            let f = nalgebra::Vector3::new(self.g[3], self.g[4], self.g[5]) * mass;
            sim.model.body_mut(self.body).control_force = Some(f);
        }
        Ok(())
    }
}
