//! The projection (null-space) method of Blajer for Lagrangian systems with bilateral holonomic
//! constraints (issue 32; Pham & Giesbrecht, "A Symbolic Approach to the Projection Method").
//!
//! For `M q̈ = F + C_Jᵀ λ` (Siconos's sign) with `C(t, q) = 0` (`m` equations, `n` coordinates)
//! and a basis `D(q)` of the null space of `C_J` (n×r, `r = n − m`), the motion is the ODE in
//! `y = (q, u)` (no DAE, no multiplier in the state):
//!
//! ```text
//! q̇ = D u (+ η),        DᵀM D u̇ = Dᵀ (F − M Ḋ u)
//! λ = −(C_J M⁻¹ C_Jᵀ)⁻¹ C_J (M⁻¹ F − Ḋ u)          (recovered on demand)
//! ```
//!
//! integrated by the LSODAR-class [`saltus_numerics::ode::Integrator`] (the issue writes
//! `M ẍ + C_Jᵀ λ = F`: its λ is the negative of the one returned here). The basis is numeric
//! (QR charts, [`basis`]) or the user's ([`UserBasis`], e.g. generated code); the drift of
//! `C(q)` is controlled by a mass-weighted projection ([`DriftControl`]). Rheonomous constraints
//! (`C_t ≠ 0`) are handled with the numeric basis: `q̇ = D u + η`, `C_J η = −C_t`.
//! Design: `docs/design/nullspace.md`.

pub mod basis;
mod drift;
pub mod error;
pub mod model;
mod ode;

pub use basis::{Basis, ChartOptions, UserBasis};
pub use error::NullSpaceError;
pub use model::{ConstrainedLagrangian, HolonomicConstraints};

use super::projection::gauss_newton::GaussNewton;
use crate::model::ds::Mass;
use crate::model::event::{EventStates, UserEvent, UserEventHit};
use crate::simulation::event_driven::user_hit;
use nalgebra::DMatrix;
use ode::{BasisState, NullSpaceOde};
use saltus_numerics::ode::{Integrator, OdeError, OdeOptions, OdeStats, OdeStop, ProjectionOptions};

/// How the drift of `C(t, q)` away from 0 is controlled.
#[derive(Debug, Clone, PartialEq)]
pub enum DriftControl {
    /// None (the integration error accumulates in `C`).
    None,
    /// At the end of every [`NullSpaceSimulation::advance_to`]: when `max_i |C_i| > tol`, `q` is
    /// projected mass weighted onto `C = 0` (Gauss–Newton until `max_i |C_i| ≤ 1e-3 tol`, at
    /// most `max_iter` corrections), `q̇` onto the tangent space, and the integrator restarts.
    Projection {
        /// Trigger tolerance on `max_i |C_i|`.
        tol: f64,
        /// Gauss–Newton corrections allowed.
        max_iter: usize,
    },
    /// The integrator's own coordinate projection after every step (CPODES: error-weighted
    /// metric, the local error estimate projected too).
    EveryStep(ProjectionOptions),
}

impl Default for DriftControl {
    fn default() -> Self {
        DriftControl::Projection { tol: 1e-10, max_iter: 10 }
    }
}

/// Options of [`NullSpaceSimulation`].
#[derive(Debug, Clone)]
pub struct NullSpaceOptions {
    /// Integrator options (default: LSODA, `rtol = 1e-10`, `atol = 1e-12`).
    pub ode: OdeOptions,
    /// The basis (default: numeric QR charts).
    pub basis: Basis,
    /// Drift control (default: projection at `|C|∞ > 1e-10`).
    pub drift: DriftControl,
    /// Largest number of new charts within one `advance_to` (default 10 000).
    pub max_charts_per_advance: u64,
}

impl Default for NullSpaceOptions {
    fn default() -> Self {
        NullSpaceOptions {
            ode: OdeOptions::with_tol(1e-10, 1e-12),
            basis: Basis::default(),
            drift: DriftControl::default(),
            max_charts_per_advance: 10_000,
        }
    }
}

/// Counters of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NullSpaceStats {
    /// Charts taken after the first (numeric basis).
    pub new_charts: u64,
    /// Drift projections applied.
    pub projections: u64,
    /// Gauss–Newton corrections of those projections.
    pub projection_iterations: u64,
    /// The integrator's counters (kept across restarts).
    pub ode: OdeStats,
}

/// A null-space simulation of a [`ConstrainedLagrangian`].
#[derive(Debug)]
pub struct NullSpaceSimulation {
    ode: Integrator<NullSpaceOde>,
    chart: Option<ChartOptions>,
    drift: DriftControl,
    max_charts: u64,
    stats: NullSpaceStats,
    ws: GaussNewton,
}

impl std::fmt::Debug for NullSpaceOde {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NullSpaceOde {{ n: {}, m: {} }}", self.n, self.m)
    }
}

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), NullSpaceError> {
    if expected == got {
        Ok(())
    } else {
        Err(NullSpaceError::Dimension { what, expected, got })
    }
}

/// The one system of a null-space model as user events see it (for their validation).
struct OneSystem {
    t: f64,
    n: usize,
}

impl EventStates for OneSystem {
    fn event_time(&self) -> f64 {
        self.t
    }
    fn n_event_systems(&self) -> usize {
        1
    }
    fn event_state_len(&self, _: usize) -> usize {
        2 * self.n
    }
    fn event_state_layout(&self, _: usize) -> &'static str {
        " (q then v)"
    }
    fn gather_event_state(&self, _: usize, _: &mut Vec<f64>) {}
    fn write_event_state(&mut self, _: usize, _: &[f64], _: f64) -> Result<(), crate::KernelError> {
        Ok(())
    }
}

/// Target of the projections: `1e-3 tol`, not below round-off.
fn target(tol: f64, q: &[f64]) -> f64 {
    let scale = q.iter().fold(1.0f64, |a, x| a.max(x.abs()));
    (1e-3 * tol).max(64.0 * f64::EPSILON * scale)
}

impl NullSpaceSimulation {
    /// A simulation from `(t0, q0, v0)`. `(q0, v0)` is first projected onto the constraints
    /// (mass weighted, to round-off), so it need only be close to consistent.
    pub fn new(
        model: ConstrainedLagrangian,
        t0: f64,
        q0: &[f64],
        v0: &[f64],
        opts: NullSpaceOptions,
    ) -> Result<Self, NullSpaceError> {
        Self::with_events(model, (t0, q0, v0), opts, Vec::new())
    }

    /// [`NullSpaceSimulation::new`] with user events on the system's state `s = (q, q̇)`
    /// (`2 n` entries; every event's `ds` is `DsId(0)`): their triggers are root functions of the
    /// integrator after the chart's, located on its dense output; see
    /// [`NullSpaceSimulation::advance_to`] for what a hit does.
    pub fn with_events(
        model: ConstrainedLagrangian,
        (t0, q0, v0): (f64, &[f64], &[f64]),
        opts: NullSpaceOptions,
        events: Vec<UserEvent>,
    ) -> Result<Self, NullSpaceError> {
        let (n, m) = (model.n, model.constraints.size);
        check_len("q0", n, q0.len())?;
        check_len("v0", n, v0.len())?;
        for e in &events {
            e.validate(&OneSystem { t: t0, n })
                .map_err(|err| NullSpaceError::InvalidOption { option: "event", reason: err.to_string() })?;
        }
        if m == 0 || m >= n {
            return Err(NullSpaceError::Unsupported(format!("{m} constraints on {n} coordinates (need 0 < m < n)")));
        }
        if let Mass::Constant(mm) = &model.mass {
            if mm.shape() != (n, n) {
                return Err(NullSpaceError::Dimension { what: "mass rows and columns", expected: n, got: mm.nrows() });
            }
        }
        if !t0.is_finite() || q0.iter().chain(v0).any(|x| !x.is_finite()) {
            return Err(NullSpaceError::InvalidOption { option: "initial state", reason: "must be finite".into() });
        }
        let mut ode_opts = opts.ode.clone();
        let every_step = match &opts.drift {
            DriftControl::None => false,
            DriftControl::Projection { tol, max_iter } => {
                if !(tol.is_finite() && *tol > 0.0) || *max_iter == 0 {
                    return Err(NullSpaceError::InvalidOption {
                        option: "drift",
                        reason: format!("tol must be finite and > 0 and max_iter > 0, got {tol}, {max_iter}"),
                    });
                }
                false
            }
            DriftControl::EveryStep(p) => {
                ode_opts.projection = Some(p.clone());
                true
            }
        };
        let (basis, chart) = match &opts.basis {
            Basis::Numeric(c) => {
                if !(c.max_distortion.is_finite() && c.max_distortion > 1.0) {
                    return Err(NullSpaceError::InvalidOption {
                        option: "max_distortion",
                        reason: format!("must be finite and > 1, got {}", c.max_distortion),
                    });
                }
                (
                    BasisState::Chart { d_ref: DMatrix::zeros(n, n - m), max_distortion: c.max_distortion },
                    Some(c.clone()),
                )
            }
            Basis::User(u) => {
                check_len("user basis dof (n − m)", n - m, u.dof)?;
                if model.constraints.dot_h.is_some() {
                    return Err(NullSpaceError::Unsupported(
                        "a user basis takes scleronomous constraints only (use the numeric basis)".into(),
                    ));
                }
                (BasisState::User(u.clone()), None)
            }
        };
        let sys = NullSpaceOde::new(model, basis, every_step, events);
        let (mut q, mut v) = (q0.to_vec(), v0.to_vec());
        let mut ws = GaussNewton::new(m, 0.0);
        let tg = target(0.0, &q);
        let its = drift::project(&sys, t0, &mut q, &mut v, tg, 50, &mut ws)?;
        let mut sys = sys;
        if let Some(c) = &chart {
            Self::new_chart(&mut sys, t0, &q, c)?;
        }
        let u = Self::coordinates(&sys, t0, &q, &v)?;
        let y: Vec<f64> = q.iter().chain(&u).copied().collect();
        let ode = Integrator::new(sys, t0, &y, ode_opts)?;
        let stats = NullSpaceStats { projection_iterations: its as u64, ..Default::default() };
        Ok(NullSpaceSimulation { ode, chart, drift: opts.drift, max_charts: opts.max_charts_per_advance, stats, ws })
    }

    /// A new chart at `q`: `D_ref` the orthonormal complement of `C_J(q)ᵀ`.
    fn new_chart(sys: &mut NullSpaceOde, t: f64, q: &[f64], c: &ChartOptions) -> Result<(), NullSpaceError> {
        let mut j = DMatrix::zeros(sys.m, sys.n);
        sys.jacobian(t, q, &mut j)?;
        let d = basis::orthonormal_complement(&j, c.rank_tol).ok_or(NullSpaceError::RankDeficient { t, m: sys.m })?;
        if let BasisState::Chart { d_ref, .. } = &mut sys.basis {
            *d_ref = d;
        }
        Ok(())
    }

    /// The coordinates `u` of a consistent velocity `v`: `(DᵀMD)⁻¹ DᵀM (v − η)`.
    fn coordinates(sys: &NullSpaceOde, t: f64, q: &[f64], v: &[f64]) -> Result<Vec<f64>, NullSpaceError> {
        let mut w = sys.work.borrow_mut();
        let zero = vec![0.0; sys.r];
        sys.kinematics(t, q, &zero, &mut w)?;
        let mut mass = DMatrix::zeros(sys.n, sys.n);
        sys.mass(t, q, &mut mass)?;
        let dv = nalgebra::DVector::from_iterator(sys.n, v.iter().zip(&w.eta).map(|(a, b)| a - b));
        let md = &mass * &w.d;
        let k = w.d.transpose() * &md;
        let b = md.transpose() * dv;
        let chol = k.cholesky().ok_or(NullSpaceError::Singular { t, what: "DᵀMD" })?;
        Ok(chol.solve(&b).as_slice().to_vec())
    }

    fn ode_error(&self, e: OdeError) -> NullSpaceError {
        match self.ode.system().last_failure.borrow_mut().take() {
            Some(cause) => cause,
            None => NullSpaceError::Integrator(e),
        }
    }

    /// Integrates to `t_out` (new charts on the way when the basis degenerates), then applies
    /// the drift control. On error the last good state stays readable.
    ///
    /// User events found on the way are returned in time order, each with the state `(q, q̇)`
    /// before its handler: a record goes on; a reset replaces the state by the event's `R(t, s)`,
    /// projects it onto `C = 0` and its tangent space (mass weighted, as at the start) and restarts
    /// the integrator there; a stop returns at the event's time, before `t_out` (the next call
    /// goes on from there).
    pub fn advance_to(&mut self, t_out: f64) -> Result<Vec<UserEventHit>, NullSpaceError> {
        let mut charts = 0u64;
        let mut hits = Vec::new();
        loop {
            let stop = self.ode.step_until(t_out);
            match stop.map_err(|e| self.ode_error(e))? {
                OdeStop::Reached(_) => break,
                OdeStop::Root { t, t_low, transitions, .. } => {
                    let sys = self.ode.system();
                    let first = sys.n_chart_roots();
                    let new_chart = transitions.iter().any(|r| r.index < first);
                    let mut s: Vec<f64> = self.q().to_vec();
                    s.extend(self.velocity()?);
                    let same = |_: usize, x: &[f64], out: &mut Vec<f64>| {
                        out.clear();
                        out.extend_from_slice(x);
                    };
                    let write = |_: usize, x: &[f64], out: &mut [f64]| out.copy_from_slice(x);
                    let hit = user_hit(&sys.user, (first, 1), (t, t_low), &transitions, &mut s, (same, write))
                        .map_err(|e| NullSpaceError::UserFn { t, what: "user event", message: e.to_string() })?;
                    let (stopped, reset) = hit.as_ref().map_or((false, false), |h| (h.stop, h.reset));
                    hits.extend(hit);
                    if !(new_chart || reset) {
                        if stopped {
                            return Ok(hits);
                        }
                        continue;
                    }
                    let (mut q, mut v) = (s[..sys.n].to_vec(), s[sys.n..].to_vec());
                    if reset {
                        let tg = target(0.0, &q);
                        let its = drift::project(sys, t, &mut q, &mut v, tg, 50, &mut self.ws)?;
                        self.stats.projection_iterations += its as u64;
                    }
                    if let Some(c) = self.chart.clone() {
                        charts += 1;
                        if charts > self.max_charts {
                            return Err(NullSpaceError::TooManyCharts { t, max: self.max_charts });
                        }
                        Self::new_chart(self.ode.system_mut(), t, &q, &c)?;
                        self.stats.new_charts += 1;
                    }
                    self.restart(t, &q, &v)?;
                    if stopped {
                        return Ok(hits);
                    }
                }
            }
        }
        if let DriftControl::Projection { tol, max_iter } = self.drift {
            let t = self.t();
            let mut q = self.q().to_vec();
            if self.violation()? > tol {
                let mut v = self.velocity()?;
                let tg = target(tol, &q);
                let its = drift::project(self.ode.system(), t, &mut q, &mut v, tg, max_iter, &mut self.ws)?;
                self.stats.projections += 1;
                self.stats.projection_iterations += its as u64;
                self.restart(t, &q, &v)?;
            }
        }
        Ok(hits)
    }

    /// The user events watched.
    pub fn user_events(&self) -> &[UserEvent] {
        &self.ode.system().user
    }

    fn restart(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), NullSpaceError> {
        let u = Self::coordinates(self.ode.system(), t, q, v)?;
        let y: Vec<f64> = q.iter().chain(&u).copied().collect();
        self.ode.reinit(t, &y)?;
        Ok(())
    }

    /// Time of the state.
    pub fn t(&self) -> f64 {
        self.ode.t()
    }

    /// Coordinates `q`.
    pub fn q(&self) -> &[f64] {
        &self.ode.y()[..self.ode.system().n]
    }

    /// Independent velocities `u` (coordinates in the current basis).
    pub fn u(&self) -> &[f64] {
        &self.ode.y()[self.ode.system().n..]
    }

    /// Number of independent velocities `r = n − m`.
    pub fn dof(&self) -> usize {
        self.ode.system().r
    }

    /// `q̇ = D u + η`.
    pub fn velocity(&self) -> Result<Vec<f64>, NullSpaceError> {
        let sys = self.ode.system();
        let mut w = sys.work.borrow_mut();
        sys.kinematics(self.t(), self.q(), self.u(), &mut w)?;
        Ok(w.v.clone())
    }

    /// The basis `D(q)` in use (n×r).
    pub fn basis(&self) -> Result<DMatrix<f64>, NullSpaceError> {
        let sys = self.ode.system();
        let mut w = sys.work.borrow_mut();
        sys.kinematics(self.t(), self.q(), self.u(), &mut w)?;
        Ok(w.d.clone())
    }

    /// `(q̈, λ)` at the current state (Siconos's sign: `M q̈ = F + C_Jᵀ λ`).
    pub fn acceleration_and_lambda(&self) -> Result<(Vec<f64>, Vec<f64>), NullSpaceError> {
        let sys = self.ode.system();
        let (t, q) = (self.t(), self.q());
        let mut w = sys.work.borrow_mut();
        sys.kinematics(t, q, self.u(), &mut w)?;
        let mut du = vec![0.0; sys.r];
        sys.udot(t, q, &mut w, &mut du)?;
        let lambda = sys.lambda(t, &w)?;
        let a = (0..sys.n).map(|i| w.ap[i] + (0..sys.r).map(|k| w.d[(i, k)] * du[k]).sum::<f64>()).collect();
        Ok((a, lambda))
    }

    /// `λ` at the current state (Siconos's sign).
    pub fn lambda(&self) -> Result<Vec<f64>, NullSpaceError> {
        Ok(self.acceleration_and_lambda()?.1)
    }

    /// `max_i |C_i(t, q)|` at the current state.
    pub fn violation(&self) -> Result<f64, NullSpaceError> {
        let sys = self.ode.system();
        let mut c = vec![0.0; sys.m];
        sys.constraint_values(self.t(), self.q(), &mut c)?;
        Ok(c.iter().fold(0.0f64, |a, x| a.max(x.abs())))
    }

    /// Counters.
    pub fn stats(&self) -> NullSpaceStats {
        NullSpaceStats { ode: self.ode.stats(), ..self.stats }
    }
}
