//! The zero-order-hold control simulation (Siconos `ControlZOHSimulation` with its
//! `ControlManager`).
//!
//! The plant `ẋ = A x + b + Σᵢ Bᵢ uᵢ` (a Siconos `FirstOrderLinearTIDS`) is integrated exactly
//! over each step `h` with every input held: `x_{k+1} = Φ x_k + Ψ b + Σᵢ Ψ Bᵢ uᵢ`
//! (`Φ = exp(A h)`, `Ψ = ∫₀ʰ exp(A s) ds`, see [`crate::zoh`]). Sensors, observers and
//! actuators run at their own periods, multiples of `h`; at an instant `t_k` where several are
//! due, the sensors capture `y = C x_k`, then the observers process, then the actuators compute
//! `u` (the order of Siconos's sensor, observer and actuator events). A row is `t_k`, `x_k`, the
//! inputs held on `[t_k, t_{k+1})`, and the estimates `x̂_k`.

use crate::actuate::{actuate, converged, init_state, ActuatorState};
use crate::controller::{Controller, LuenbergerObserver, Sensor};
use crate::error::{invalid, ControlError, Result};
use crate::zoh::zoh_matrices;
use nalgebra::{DMatrix, DVector};
use saltus_kernel::FirstOrderLinearTiDs;

/// Index of a sensor in its simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SensorId(pub usize);

struct SensorSlot {
    sensor: Sensor,
    every: usize,
    y: DVector<f64>,
}

struct ActuatorSlot {
    name: String,
    ctrl: Controller,
    sensor: SensorId,
    every: usize,
    /// `Ψ(h) B`: the input's effect over one plant step.
    gamma: DMatrix<f64>,
    /// `B`.
    b: DMatrix<f64>,
    u: DVector<f64>,
    state: Option<ActuatorState>,
}

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

/// A zero-order-hold control simulation of a linear plant.
pub struct ControlZohSimulation {
    t0: f64,
    h: f64,
    n_steps: usize,
    k: usize,
    a: DMatrix<f64>,
    phi: DMatrix<f64>,
    psi_b: DVector<f64>,
    b_drift: DVector<f64>,
    x: DVector<f64>,
    sensors: Vec<SensorSlot>,
    actuators: Vec<ActuatorSlot>,
    observers: Vec<ObserverSlot>,
    initialized: bool,
    report: ControlReport,
}

impl ControlZohSimulation {
    /// The plant `ẋ = A x + b` (identity mass) from `t0` to `t_end` with plant step `h`.
    pub fn new(plant: &FirstOrderLinearTiDs, t0: f64, t_end: f64, h: f64) -> Result<Self> {
        let what = "plant";
        if plant.mass.is_some() {
            return Err(invalid(what, "a mass matrix is not supported by the ZOH control simulation (use M⁻¹A)"));
        }
        let n = plant.x0.len();
        if plant.a.nrows() != n || plant.a.ncols() != n {
            return Err(invalid(what, format!("A is {}x{}, x0 has {n} entries", plant.a.nrows(), plant.a.ncols())));
        }
        let b_drift = plant.b.clone().unwrap_or_else(|| DVector::zeros(n));
        if b_drift.len() != n {
            return Err(invalid(what, format!("b has {} entries, x0 has {n}", b_drift.len())));
        }
        if plant.x0.iter().chain(b_drift.iter()).any(|v| !v.is_finite()) {
            return Err(invalid(what, "x0 and b must be finite"));
        }
        if !(h.is_finite() && h > 0.0 && t0.is_finite() && t_end.is_finite() && t_end >= t0) {
            return Err(invalid(
                "time discretisation",
                format!("need h > 0 and t0 <= T (h = {h}, t0 = {t0}, T = {t_end})"),
            ));
        }
        let n_steps = ((t_end - t0) / h).round() as usize;
        let (phi, psi) = zoh_matrices(&plant.a, h).ok_or_else(|| invalid(what, "exp(A h) is not finite"))?;
        let psi_b = &psi * &b_drift;
        Ok(ControlZohSimulation {
            t0,
            h,
            n_steps,
            k: 0,
            a: plant.a.clone(),
            phi,
            psi_b,
            b_drift,
            x: plant.x0.clone(),
            sensors: Vec::new(),
            actuators: Vec::new(),
            observers: Vec::new(),
            initialized: false,
            report: ControlReport::default(),
        })
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
        if self.initialized {
            return Err(invalid(what, "cannot be added after the simulation started"));
        }
        Ok(())
    }

    /// Adds a sensor sampled every `period`.
    pub fn add_sensor(&mut self, sensor: Sensor, period: f64) -> Result<SensorId> {
        let what = format!("sensor {}", self.sensors.len());
        self.check_open(&what)?;
        let n = self.x.len();
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
        let state = init_state(&what, &ctrl, &self.a, p, hc)?;
        let b = ctrl.input_matrix();
        let (_, psi) = zoh_matrices(&self.a, self.h).ok_or_else(|| invalid(&what, "exp(A h) is not finite"))?;
        let gamma = psi * &b;
        let u = DVector::zeros(b.ncols());
        self.actuators.push(ActuatorSlot {
            name: name.to_string(),
            ctrl,
            sensor,
            every,
            gamma,
            b,
            u,
            state: Some(state),
        });
        Ok(())
    }

    /// Adds a Luenberger observer named `name` fed by `sensor`, processing every `period`.
    pub fn add_observer(&mut self, name: &str, obs: LuenbergerObserver, sensor: SensorId, period: f64) -> Result<()> {
        let what = format!("observer `{name}`");
        self.check_open(&what)?;
        let n = self.x.len();
        let p = self.sensor_len(&what, sensor)?;
        let bad = |m: &DMatrix<f64>, r, c| m.nrows() != r || m.ncols() != c || m.iter().any(|v| !v.is_finite());
        if bad(&obs.c, p, n) || bad(&obs.l, n, p) || obs.xhat0.len() != n || obs.xhat0.iter().any(|v| !v.is_finite()) {
            return Err(invalid(what, format!("need finite C {p}x{n}, L {n}x{p} and xhat0 of {n} entries")));
        }
        let every = self.every(&what, period)?;
        let (phi, psi) =
            zoh_matrices(&self.a, every as f64 * self.h).ok_or_else(|| invalid(&what, "exp(A h) is not finite"))?;
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

    /// Column names of a row: `t`, `x[i]`, `NAME.u[j]` per actuator, `NAME.xhat[i]` per observer.
    pub fn columns(&self) -> Vec<String> {
        let mut c = vec!["t".to_string()];
        c.extend((0..self.x.len()).map(|i| format!("x[{i}]")));
        for a in &self.actuators {
            c.extend((0..a.u.len()).map(|j| format!("{}.u[{j}]", a.name)));
        }
        for o in &self.observers {
            c.extend((0..o.xhat.len()).map(|i| format!("{}.xhat[{i}]", o.name)));
        }
        c
    }

    /// The current row (see [`Self::columns`]).
    pub fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.push(self.time());
        out.extend(self.x.iter());
        for a in &self.actuators {
            out.extend(a.u.iter());
        }
        for o in &self.observers {
            out.extend(o.xhat.iter());
        }
    }

    /// `t_k = t0 + k h`.
    pub fn time(&self) -> f64 {
        self.t0 + self.k as f64 * self.h
    }
    /// The plant state `x_k`.
    pub fn state(&self) -> &DVector<f64> {
        &self.x
    }
    /// The input of actuator `i` (in the order they were added).
    pub fn input(&self, i: usize) -> Option<&DVector<f64>> {
        self.actuators.get(i).map(|a| &a.u)
    }
    /// The estimate of observer `i`.
    pub fn estimate(&self, i: usize) -> Option<&DVector<f64>> {
        self.observers.get(i).map(|o| &o.xhat)
    }
    /// Number of plant steps from `t0` to `T`.
    pub fn n_steps(&self) -> usize {
        self.n_steps
    }
    /// Whether the final time is reached.
    pub fn finished(&self) -> bool {
        self.k >= self.n_steps
    }
    /// Counts so far.
    pub fn report(&self) -> &ControlReport {
        &self.report
    }

    /// Processes the control instants of `t0` (done by the first [`Self::advance`] if not called).
    pub fn initialize(&mut self) -> Result<()> {
        if !self.initialized {
            self.initialized = true;
            self.control_events()?;
        }
        Ok(())
    }

    /// Sensors, then observers, then actuators due at `t_k`.
    fn control_events(&mut self) -> Result<()> {
        let k = self.k;
        let t = self.time();
        for s in self.sensors.iter_mut().filter(|s| k.is_multiple_of(s.every)) {
            match &s.sensor {
                Sensor::State => s.y.copy_from(&self.x),
                Sensor::Linear(c) => s.y.copy_from(&(c * &self.x)),
            }
        }
        for o in self.observers.iter_mut().filter(|o| k.is_multiple_of(o.every)) {
            let y = &self.sensors[o.sensor.0].y;
            if !o.pass {
                o.pass = true;
            } else {
                // x̂_{k+1} = Φ x̂_k + Ψ (b + Σ B u + L (C x̂_k − y_k))
                let e = &o.obs.c * &o.xhat - &o.y_prev;
                let mut drive = &self.b_drift + &o.obs.l * e;
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
        Ok(())
    }

    /// One plant step `x_{k+1} = Φ x_k + Ψ b + Σ Γᵢ uᵢ`, then the control instants of `t_{k+1}`.
    /// Returns `false` (and does nothing) once the final time is reached.
    pub fn advance(&mut self) -> Result<bool> {
        self.initialize()?;
        if self.finished() {
            return Ok(false);
        }
        let mut next = &self.phi * &self.x + &self.psi_b;
        for a in &self.actuators {
            next += &a.gamma * &a.u;
        }
        if next.iter().any(|v| !v.is_finite()) {
            return Err(ControlError::NonFinite { t: self.time() + self.h, what: "plant state".into() });
        }
        self.x = next;
        self.k += 1;
        self.report.steps += 1;
        self.control_events()?;
        Ok(true)
    }

    /// Runs to the final time, handing every row (row 0 included) to `sink`.
    pub fn run(&mut self, mut sink: impl FnMut(&[f64])) -> Result<ControlReport> {
        self.initialize()?;
        let mut row = Vec::new();
        self.row(&mut row);
        sink(&row);
        while self.advance()? {
            self.row(&mut row);
            sink(&row);
        }
        Ok(self.report.clone())
    }
}
