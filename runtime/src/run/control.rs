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

/// A [`saltus_control::ControlManager`] acting on one plant of a run (Siconos `ControlManager`
/// on a user's simulation): at the instants of step `k` its sensors read the plant's state `x_k`,
/// its actuators compute their inputs, and the sum `g = Σ B u` is held by the simulation over
/// the next step. The plant `P` is a kernel system ([`KernelControl`]) or a rigid body
/// ([`BodyControl`]); it may have interactions or contacts: the controller sees only its state.
#[derive(Debug, Clone)]
pub struct PlantControl<P> {
    /// The sensors, controllers and observers.
    pub manager: saltus_control::ControlManager,
    /// The plant.
    pub plant: P,
    g: nalgebra::DVector<f64>,
    x: nalgebra::DVector<f64>,
}

/// Control of a first-order system of a time stepping: `g` is added to its vector field
/// (`ẋ = f(t, x) + g + r`).
pub type KernelControl = PlantControl<saltus_kernel::DsId>;

/// Control of a rigid body of a `<Mechanics>` scene: the plant state is `x = (position,
/// velocity)` of its centre of mass (6 values, world frame), whose linear model is the free
/// particle `ẋ = [[0, I], [0, 0]] x + B u`; `g` is the acceleration of the velocity rows (its
/// position rows are zero), applied as the force `m g[3..6]` held over the next step, with
/// gravity, the contacts and the body's other loads.
pub type BodyControl = PlantControl<saltus_mechanics::BodyId>;

impl<P> PlantControl<P> {
    fn with(manager: saltus_control::ControlManager, plant: P) -> PlantControl<P> {
        let n = manager.n();
        PlantControl { manager, plant, g: nalgebra::DVector::zeros(n), x: nalgebra::DVector::zeros(n) }
    }

    /// The instants of step `k` at time `t` on the state in `self.x`; the new input term when
    /// an actuator acts on the plant.
    fn process(&mut self, k: u64, t: f64) -> Result<Option<&nalgebra::DVector<f64>>, Stopped> {
        self.manager.instant(k as usize, t, &self.x).map_err(failed)?;
        if !self.manager.has_actuators() {
            return Ok(None);
        }
        self.manager.input_term(&mut self.g);
        Ok(Some(&self.g))
    }
}

impl PlantControl<saltus_kernel::DsId> {
    /// Control of system `ds` (of `manager.n()` states) by `manager`.
    pub fn new(manager: saltus_control::ControlManager, ds: saltus_kernel::DsId) -> KernelControl {
        PlantControl::with(manager, ds)
    }

    /// The control instants of step `k` at time `t`, then the new input held by `sim`.
    pub fn instant(
        &mut self,
        k: u64,
        t: f64,
        nsds: &saltus_kernel::Nsds,
        sim: &mut crate::simulation::Simulation,
    ) -> Result<(), Stopped> {
        let state = nsds.systems().get(self.plant.index()).map(|d| d.state());
        let Some(state) = state.filter(|s| s.len() == self.x.len()) else {
            let e = saltus_control::ControlError::Invalid {
                what: "plant".into(),
                reason: "state missing (internal)".into(),
            };
            return Err(failed(e));
        };
        self.x.copy_from(state);
        let ds = self.plant;
        if let Some(g) = self.process(k, t)? {
            sim.set_control_input(ds, g.as_slice()).map_err(|e| Stopped::Failed(Box::new(e)))?;
        }
        Ok(())
    }
}

impl PlantControl<saltus_mechanics::BodyId> {
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
        Ok(PlantControl::with(manager, body))
    }

    /// The control instants of step `k` at time `t`, then the new force held by `sim`.
    pub fn instant(&mut self, k: u64, t: f64, sim: &mut saltus_mechanics::MechanicsSimulation) -> Result<(), Stopped> {
        let body = self.plant;
        let b = sim.model.body(body);
        self.x.rows_mut(0, 3).copy_from(&b.state.position);
        self.x.rows_mut(3, 3).copy_from(&b.state.v);
        let mass = b.mass();
        if let Some(g) = self.process(k, t)? {
            let f = nalgebra::Vector3::new(g[3], g[4], g[5]) * mass;
            sim.model.body_mut(body).control_force = Some(f);
        }
        Ok(())
    }
}
