//! Controllers on a plant of a run (Siconos `ControlManager` on a simulation): a kernel system
//! ([`KernelControl`], the plant of `<Simulation><ControlManager>` and of `<Control>` models, whose
//! zero-order hold is the kernel's `ZeroOrderHoldOSI`) or a rigid body of a scene ([`BodyControl`]).

use crate::drive::Stopped;

fn failed(e: saltus_control::ControlError) -> Stopped {
    Stopped::Control(Box::new(e))
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

/// Control of a system of a time stepping. First order: the plant state is `x`, and `g` is added
/// to its vector field (`ẋ = f(t, x) + g + r`). Lagrangian (with a constant mass `M`, a rigid
/// body too): the plant state is `x = (q, v)`, whose model is `q̇ = v`, `v̇ = M⁻¹ F + B u`; `g`
/// is the acceleration of the velocity rows (its position rows are zero), applied as the force
/// `M g_v` held over the next step with the system's other forces and its contacts.
pub type KernelControl = PlantControl<KernelPlant>;

/// The plant of a [`KernelControl`]: a system of the model and, for a Lagrangian one, its
/// constant mass matrix (the input term acts through `M g_v`).
#[derive(Debug, Clone)]
pub struct KernelPlant {
    /// The system.
    pub ds: saltus_kernel::DsId,
    /// `M` of a Lagrangian system (`None` for a first-order one).
    pub mass: Option<nalgebra::DMatrix<f64>>,
    force: nalgebra::DVector<f64>,
}

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

impl PlantControl<KernelPlant> {
    /// Control of the first-order system `ds` (of `manager.n()` states) by `manager`.
    pub fn new(manager: saltus_control::ControlManager, ds: saltus_kernel::DsId) -> KernelControl {
        PlantControl::with(manager, KernelPlant { ds, mass: None, force: nalgebra::DVector::zeros(0) })
    }

    /// Control of the Lagrangian system `ds` of constant mass `mass` (`manager.n() = dim_q +
    /// dim_v`); refused when an actuator's `B` drives a position row.
    pub fn lagrangian(
        manager: saltus_control::ControlManager,
        ds: saltus_kernel::DsId,
        mass: nalgebra::DMatrix<f64>,
    ) -> Result<KernelControl, String> {
        let nv = mass.nrows();
        let nq = manager.n().checked_sub(nv).ok_or("the manager has fewer states than the system's velocity")?;
        if manager.inputs().any(|(b, _)| b.rows(0, nq).iter().any(|v| *v != 0.0)) {
            let rows = |a: usize, b: usize| if a == b { format!("row {a}") } else { format!("rows {a}–{b}") };
            return Err(format!(
                "an actuator's B drives a position ({} of B must be zero: a Lagrangian plant is pushed by a force, \
                 B u is the acceleration of its velocity, {})",
                rows(0, nq - 1),
                rows(nq, nq + nv - 1)
            ));
        }
        let force = nalgebra::DVector::zeros(nv);
        Ok(PlantControl::with(manager, KernelPlant { ds, mass: Some(mass), force }))
    }

    /// The control instants of step `k` at time `t`, then the new input held by `sim`.
    pub fn instant(
        &mut self,
        k: u64,
        t: f64,
        nsds: &saltus_kernel::Nsds,
        sim: &mut crate::simulation::Simulation,
    ) -> Result<(), Stopped> {
        let ds = self.plant.ds;
        let system = nsds.systems().get(ds.index());
        let (q, v) = (system.map(|d| d.state()), system.and_then(|d| d.velocity()));
        let nq = q.map_or(0, |q| q.len());
        let n = nq + v.map_or(0, |v| v.len());
        let (Some(q), true) = (q, n == self.x.len()) else {
            let e = saltus_control::ControlError::Invalid {
                what: "plant".into(),
                reason: "state missing (internal)".into(),
            };
            return Err(failed(e));
        };
        self.x.rows_mut(0, nq).copy_from(q);
        if let Some(v) = v {
            self.x.rows_mut(nq, n - nq).copy_from(v);
        }
        if self.process(k, t)?.is_none() {
            return Ok(());
        }
        let g = &self.g;
        let input = match &self.plant.mass {
            Some(m) => {
                // F = M g_v
                self.plant.force.gemv(1.0, m, &g.rows(nq, n - nq), 0.0);
                &self.plant.force
            }
            None => g,
        };
        sim.set_control_input(ds, input.as_slice()).map_err(|e| Stopped::Failed(Box::new(e)))
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
