//! The control manager (Siconos `ControlManager`): sensors, observers and actuators, each at its
//! own sampling period, acting on any plant that reads out a state `x` and takes an input term.
//!
//! The manager never integrates the plant. Its owner — a kernel simulation (time stepping, with
//! the zero-order hold `ZeroOrderHoldOSI` or another integrator, or event driven), a rigid-body
//! scene — calls
//! [`ControlManager::instant`] at every plant step `k` with the plant's state `x_k`; at an
//! instant where several are due, the sensors capture `y = C x_k`, then the observers process,
//! then the actuators compute their new `u` (the order of Siconos's sensor, observer and
//! actuator events). The owner then holds the input term `g = Σᵢ Bᵢ uᵢ` (or each `Bᵢ uᵢ`)
//! over `[t_k, t_{k+1})`: `ẋ = f(t, x) + g`.
//!
//! Sliding-mode controllers and observers are model based: they need the plant's linear model
//! `ẋ = A x + b + Σ B u` ([`LinearModel`]); the PID and the explicit twisting need only `y`.

use crate::actuate::{actuate, converged, init_state, ActuatorState};
use crate::controller::{Controller, LuenbergerObserver, Sensor};
use crate::error::{invalid, ControlError, Result};
use nalgebra::{DMatrix, DVector};
use saltus_numerics::zoh::zoh_matrices;

/// Index of a sensor in its manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SensorId(pub usize);

/// The linear model `ẋ = A x + b + Σ Bᵢ uᵢ` of a plant, used by the sliding-mode controllers
/// (equivalent control) and the observers (prediction).
#[derive(Debug, Clone, PartialEq)]
pub struct LinearModel {
    /// `A` (`n × n`).
    pub a: DMatrix<f64>,
    /// The drift `b` (`n`).
    pub b: DVector<f64>,
}

/// Counts of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ControlReport {
    /// Plant steps taken.
    pub steps: u64,
    /// Actuator instants processed (all actuators).
    pub actuations: u64,
    /// Relay problems (implicit SMC) whose solver did not converge (their iterate was used).
    pub not_converged: u64,
    /// Largest relay residual seen.
    pub max_residual: f64,
}

#[derive(Debug, Clone)]
struct SensorSlot {
    sensor: Sensor,
    every: usize,
    y: DVector<f64>,
}

#[derive(Debug, Clone)]
struct ActuatorSlot {
    name: String,
    ctrl: Controller,
    sensor: SensorId,
    every: usize,
    /// `B`.
    b: DMatrix<f64>,
    u: DVector<f64>,
    state: Option<ActuatorState>,
}

#[derive(Debug, Clone)]
struct ObserverSlot {
    name: String,
    obs: LuenbergerObserver,
    sensor: SensorId,
    every: usize,
    /// `exp(A h_o)`, `Ψ(h_o)` at the observer period.
    phi: DMatrix<f64>,
    psi: DMatrix<f64>,
    xhat: DVector<f64>,
    y_prev: DVector<f64>,
    pass: bool,
}

/// Sensors, observers and actuators of one plant of `n` states stepped by `h`.
#[derive(Debug, Clone)]
pub struct ControlManager {
    n: usize,
    h: f64,
    model: Option<LinearModel>,
    sensors: Vec<SensorSlot>,
    actuators: Vec<ActuatorSlot>,
    observers: Vec<ObserverSlot>,
    started: bool,
    report: ControlReport,
}

impl ControlManager {
    /// A manager for a plant of `n` states stepped by `h`, with its linear model if it has one
    /// (`A` must be `n × n` and `b` of `n` entries, all finite).
    pub fn new(n: usize, h: f64, model: Option<LinearModel>) -> Result<Self> {
        if !(h.is_finite() && h > 0.0) {
            return Err(invalid("time discretisation", format!("need h > 0 (h = {h})")));
        }
        if let Some(m) = &model {
            if m.a.nrows() != n || m.a.ncols() != n || m.b.len() != n {
                return Err(invalid(
                    "plant model",
                    format!(
                        "A is {}x{} and b has {} entries, the plant has {n} states",
                        m.a.nrows(),
                        m.a.ncols(),
                        m.b.len()
                    ),
                ));
            }
            if m.a.iter().chain(m.b.iter()).any(|v| !v.is_finite()) {
                return Err(invalid("plant model", "A and b must be finite"));
            }
        }
        Ok(ControlManager {
            n,
            h,
            model,
            sensors: Vec::new(),
            actuators: Vec::new(),
            observers: Vec::new(),
            started: false,
            report: ControlReport::default(),
        })
    }

    /// Number of plant states.
    pub fn n(&self) -> usize {
        self.n
    }

    fn every(&self, what: &str, period: f64) -> Result<usize> {
        let r = period / self.h;
        let every = r.round();
        if !(period.is_finite() && every >= 1.0 && (r - every).abs() <= 1e-9 * r) {
            return Err(invalid(
                what,
                format!("the period {period} must be a positive multiple of the plant step h = {}", self.h),
            ));
        }
        Ok(every as usize)
    }

    fn check_open(&self, what: &str) -> Result<()> {
        if self.started {
            return Err(invalid(what, "cannot be added after the simulation started"));
        }
        Ok(())
    }

    fn model(&self, what: &str, needs: &str) -> Result<&LinearModel> {
        self.model.as_ref().ok_or_else(|| {
            invalid(what, format!("{needs} needs a linear model of the plant (A, b), and this plant has none"))
        })
    }

    /// Adds a sensor sampled every `period`.
    pub fn add_sensor(&mut self, sensor: Sensor, period: f64) -> Result<SensorId> {
        let what = format!("sensor {}", self.sensors.len());
        self.check_open(&what)?;
        let n = self.n;
        let p = match &sensor {
            Sensor::State => n,
            Sensor::Linear(c) => {
                if c.ncols() != n || c.iter().any(|v| !v.is_finite()) {
                    return Err(invalid(
                        what,
                        format!("C is {}x{} (must have {n} finite columns)", c.nrows(), c.ncols()),
                    ));
                }
                c.nrows()
            }
        };
        let every = self.every(&what, period)?;
        self.sensors.push(SensorSlot { sensor, every, y: DVector::zeros(p) });
        Ok(SensorId(self.sensors.len() - 1))
    }

    fn sensor_len(&self, what: &str, id: SensorId) -> Result<usize> {
        self.sensors.get(id.0).map(|s| s.y.len()).ok_or_else(|| invalid(what, format!("no sensor {}", id.0)))
    }

    /// Adds an actuator named `name` fed by `sensor`, acting every `period`.
    pub fn add_actuator(&mut self, name: &str, ctrl: Controller, sensor: SensorId, period: f64) -> Result<()> {
        let what = format!("actuator `{name}` ({})", ctrl.siconos_name());
        self.check_open(&what)?;
        let p = self.sensor_len(&what, sensor)?;
        let every = self.every(&what, period)?;
        let hc = every as f64 * self.h;
        let state = init_state(&what, &ctrl, self.n, self.model.as_ref(), p, hc)?;
        let b = ctrl.input_matrix();
        if b.nrows() != self.n {
            return Err(invalid(&what, format!("B has {} rows, the plant has {} states", b.nrows(), self.n)));
        }
        let u = DVector::zeros(b.ncols());
        self.actuators.push(ActuatorSlot { name: name.to_string(), ctrl, sensor, every, b, u, state: Some(state) });
        Ok(())
    }

    /// Adds a Luenberger observer named `name` fed by `sensor`, processing every `period`.
    pub fn add_observer(&mut self, name: &str, obs: LuenbergerObserver, sensor: SensorId, period: f64) -> Result<()> {
        let what = format!("observer `{name}`");
        self.check_open(&what)?;
        let n = self.n;
        let p = self.sensor_len(&what, sensor)?;
        let bad = |m: &DMatrix<f64>, r, c| m.nrows() != r || m.ncols() != c || m.iter().any(|v| !v.is_finite());
        if bad(&obs.c, p, n) || bad(&obs.l, n, p) || obs.xhat0.len() != n || obs.xhat0.iter().any(|v| !v.is_finite()) {
            return Err(invalid(what, format!("need finite C {p}x{n}, L {n}x{p} and xhat0 of {n} entries")));
        }
        let every = self.every(&what, period)?;
        let a = &self.model(&what, "an observer (its prediction)")?.a;
        let (phi, psi) =
            zoh_matrices(a, every as f64 * self.h).ok_or_else(|| invalid(&what, "exp(A h) is not finite"))?;
        let xhat = obs.xhat0.clone();
        self.observers.push(ObserverSlot {
            name: name.to_string(),
            obs,
            sensor,
            every,
            phi,
            psi,
            xhat,
            y_prev: DVector::zeros(p),
            pass: false,
        });
        Ok(())
    }

    /// Appends the names of the manager's columns: `NAME.u[j]` per actuator, then
    /// `NAME.xhat[i]` per observer.
    pub fn columns_into(&self, c: &mut Vec<String>) {
        for a in &self.actuators {
            c.extend((0..a.u.len()).map(|j| format!("{}.u[{j}]", a.name)));
        }
        for o in &self.observers {
            c.extend((0..o.xhat.len()).map(|i| format!("{}.xhat[{i}]", o.name)));
        }
    }

    /// Appends the values of [`Self::columns_into`]'s columns.
    pub fn row_into(&self, out: &mut Vec<f64>) {
        for a in &self.actuators {
            out.extend(a.u.iter());
        }
        for o in &self.observers {
            out.extend(o.xhat.iter());
        }
    }

    /// The actuators' `(Bᵢ, uᵢ)`, in the order they were added.
    pub fn inputs(&self) -> impl Iterator<Item = (&DMatrix<f64>, &DVector<f64>)> {
        self.actuators.iter().map(|a| (&a.b, &a.u))
    }

    /// The input term `g = Σᵢ Bᵢ uᵢ` held over the next plant step.
    pub fn input_term(&self, g: &mut DVector<f64>) {
        g.fill(0.0);
        for a in &self.actuators {
            g.gemv(1.0, &a.b, &a.u, 1.0);
        }
    }

    /// Whether any actuator was added.
    pub fn has_actuators(&self) -> bool {
        !self.actuators.is_empty()
    }

    /// The input of actuator `i` (in the order they were added).
    pub fn input(&self, i: usize) -> Option<&DVector<f64>> {
        self.actuators.get(i).map(|a| &a.u)
    }

    /// The estimate of observer `i`.
    pub fn estimate(&self, i: usize) -> Option<&DVector<f64>> {
        self.observers.get(i).map(|o| &o.xhat)
    }

    /// Whether a first instant was processed without error (nothing can be added any more).
    pub fn started(&self) -> bool {
        self.started
    }

    /// Counts so far (`steps` is the owner's: see [`Self::count_step`]).
    pub fn report(&self) -> &ControlReport {
        &self.report
    }

    /// Counts one plant step in the report.
    pub fn count_step(&mut self) {
        self.report.steps += 1;
    }

    /// The control instants of plant step `k` (time `t`, plant state `x`): sensors, then
    /// observers, then actuators due at `k`.
    pub fn instant(&mut self, k: usize, t: f64, x: &DVector<f64>) -> Result<()> {
        if x.len() != self.n {
            return Err(invalid("plant state", format!("{} values, the manager expects {}", x.len(), self.n)));
        }
        for s in self.sensors.iter_mut().filter(|s| k.is_multiple_of(s.every)) {
            match &s.sensor {
                Sensor::State => s.y.copy_from(x),
                Sensor::Linear(c) => s.y.copy_from(&(c * x)),
            }
        }
        for o in self.observers.iter_mut().filter(|o| k.is_multiple_of(o.every)) {
            let y = &self.sensors[o.sensor.0].y;
            if !o.pass {
                o.pass = true;
            } else {
                // x̂_{k+1} = Φ x̂_k + Ψ (b + Σ B u + L (C x̂_k − y_k))
                let model = self.model.as_ref().ok_or_else(|| invalid(&o.name, "model missing (internal)"))?;
                let e = &o.obs.c * &o.xhat - &o.y_prev;
                let mut drive = &model.b + &o.obs.l * e;
                for a in &self.actuators {
                    drive += &a.b * &a.u;
                }
                let next = &o.phi * &o.xhat + &o.psi * drive;
                if next.iter().any(|v| !v.is_finite()) {
                    return Err(ControlError::NonFinite { t, what: format!("estimate of observer `{}`", o.name) });
                }
                o.xhat = next;
            }
            o.y_prev.copy_from(y);
        }
        for a in self.actuators.iter_mut().filter(|a| k.is_multiple_of(a.every)) {
            let what = format!("actuator `{}`", a.name);
            let y = &self.sensors[a.sensor.0].y;
            let mut state = a.state.take().ok_or_else(|| invalid(&what, "state missing (internal)"))?;
            let mut u = a.u.clone();
            let r = actuate(&what, t, &a.ctrl, &mut state, y, &mut u);
            a.state = Some(state);
            if let Some(rep) = r? {
                if !converged(&rep) {
                    self.report.not_converged += 1;
                }
                self.report.max_residual = self.report.max_residual.max(rep.residual);
            }
            if u.iter().any(|v| !v.is_finite()) {
                return Err(ControlError::NonFinite { t, what: format!("input of {what}") });
            }
            a.u = u;
            self.report.actuations += 1;
        }
        self.started = true;
        Ok(())
    }
}
