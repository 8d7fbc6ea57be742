//! The zero-order-hold control simulation (Siconos `ControlZOHSimulation`): a linear plant
//! integrated exactly, under the sensors and controllers of a [`ControlManager`].
//!
//! The plant `ẋ = A x + b + Σᵢ Bᵢ uᵢ` (a Siconos `FirstOrderLinearTIDS`) is integrated exactly
//! over each step `h` with every input held: `x_{k+1} = Φ x_k + Ψ b + Σᵢ Ψ Bᵢ uᵢ`
//! (`Φ = exp(A h)`, `Ψ = ∫₀ʰ exp(A s) ds`, see [`crate::zoh`]). Sensors, observers and
//! actuators run at their own periods, multiples of `h`; at an instant `t_k` where several are
//! due, the sensors capture `y = C x_k`, then the observers process, then the actuators compute
//! `u` (the order of Siconos's sensor, observer and actuator events). A row is `t_k`, `x_k`, the
//! inputs held on `[t_k, t_{k+1})`, and the estimates `x̂_k`.

use crate::error::{invalid, ControlError, Result};
use crate::manager::{ControlManager, ControlReport, LinearModel};
use crate::zoh::zoh_matrices;
use nalgebra::{DMatrix, DVector};
use saltus_kernel::FirstOrderLinearTiDs;

/// A zero-order-hold control simulation of a linear plant: the plant integrated exactly, its
/// sensors, observers and actuators run by a [`ControlManager`].
pub struct ControlZohSimulation {
    t0: f64,
    h: f64,
    n_steps: usize,
    k: usize,
    phi: DMatrix<f64>,
    psi: DMatrix<f64>,
    psi_b: DVector<f64>,
    x: DVector<f64>,
    /// `Ψ(h) Bᵢ` per actuator: its input's effect over one plant step.
    gammas: Vec<DMatrix<f64>>,
    manager: ControlManager,
    /// A drift `b(t)` that depends on time (instead of the constant `b`), held over each step at
    /// its value at the step's end `t_{k+1}`, as Siconos's `ZeroOrderHoldOSI` evaluates it.
    drift: Option<(saltus_kernel::model::userfn::TimeVecFn, DVector<f64>)>,
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
        let manager = ControlManager::new(n, h, Some(LinearModel { a: plant.a.clone(), b: b_drift }))?;
        Ok(ControlZohSimulation {
            t0,
            h,
            n_steps,
            k: 0,
            phi,
            psi,
            psi_b,
            x: plant.x0.clone(),
            gammas: Vec::new(),
            manager,
            drift: None,
        })
    }

    /// The plant's drift is `b(t)` (a function of time; the plant has no constant `b`), held over each
    /// step at `b(t_{k+1})`: `x_{k+1} = Φ x_k + Ψ b(t_{k+1}) + Σ Γᵢ uᵢ`. The controllers' linear model
    /// has no drift.
    pub fn with_drift_fn(mut self, b: saltus_kernel::model::userfn::TimeVecFn) -> Result<Self> {
        if self.psi_b.iter().any(|v| *v != 0.0) {
            return Err(invalid("plant", "b is either a constant or a function of time, not both"));
        }
        let n = self.x.len();
        self.drift = Some((b, DVector::zeros(n)));
        Ok(self)
    }

    /// The sensors, actuators and observers (add them before the first step).
    pub fn manager_mut(&mut self) -> &mut ControlManager {
        &mut self.manager
    }

    /// The sensors, actuators and observers.
    pub fn manager(&self) -> &ControlManager {
        &self.manager
    }

    /// Column names of a row: `t`, `x[i]`, `NAME.u[j]` per actuator, `NAME.xhat[i]` per observer.
    pub fn columns(&self) -> Vec<String> {
        let mut c = vec!["t".to_string()];
        c.extend((0..self.x.len()).map(|i| format!("x[{i}]")));
        self.manager.columns_into(&mut c);
        c
    }

    /// The current row (see [`Self::columns`]).
    pub fn row(&self, out: &mut Vec<f64>) {
        out.clear();
        out.push(self.time());
        out.extend(self.x.iter());
        self.manager.row_into(out);
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
        self.manager.input(i)
    }
    /// The estimate of observer `i`.
    pub fn estimate(&self, i: usize) -> Option<&DVector<f64>> {
        self.manager.estimate(i)
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
        self.manager.report()
    }

    /// Processes the control instants of `t0` (done by the first [`Self::advance`] if not called).
    pub fn initialize(&mut self) -> Result<()> {
        if !self.manager.started() {
            // Γᵢ = Ψ(h) Bᵢ: each actuator's input over one plant step
            self.gammas = self.manager.inputs().map(|(b, _)| &self.psi * b).collect();
            self.manager.instant(0, self.t0, &self.x)?;
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
        if let Some((f, buf)) = &mut self.drift {
            let t1 = self.t0 + (self.k + 1) as f64 * self.h;
            f(t1, buf.as_mut_slice()).map_err(|e| ControlError::UserFunction {
                t: t1,
                what: "plant drift b(t)",
                message: e.to_string(),
            })?;
            next += &self.psi * &*buf;
        }
        for (gamma, (_, u)) in self.gammas.iter().zip(self.manager.inputs()) {
            next += gamma * u;
        }
        if next.iter().any(|v| !v.is_finite()) {
            return Err(ControlError::NonFinite { t: self.time() + self.h, what: "plant state".into() });
        }
        self.x = next;
        self.k += 1;
        self.manager.count_step();
        let t = self.time();
        self.manager.instant(self.k, t, &self.x)?;
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
        Ok(self.manager.report().clone())
    }
}
