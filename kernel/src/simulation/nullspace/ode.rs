//! The null-space equations as an [`OdeSystem`] in `y = (q, u)`:
//!
//! ```text
//! q̇ = D(q) u + η,        DᵀM D u̇ = Dᵀ (F − M a_p)
//! ```
//!
//! with `a_p = q̈ − D u̇` the part of the acceleration the constraints impose (`Ḋ u` for
//! scleronomous constraints, Blajer's term) and `η` the particular velocity of rheonomous
//! constraints (`C_J η = −C_t`). With the chart basis both solve the chart's square system
//! `A = [C_J; D_refᵀ]`: `η = A⁻¹[−C_t; 0]`, `a_p = A⁻¹[−γ; 0]`, `γ = C̈ − C_J q̈`.
//! The multipliers (Siconos's sign, `M q̈ = F + C_Jᵀ λ`) are the issue's formula with that sign:
//! `λ = −(C_J M⁻¹ C_Jᵀ)⁻¹ C_J (M⁻¹ F − a_p)`.

use super::basis::UserBasis;
use super::error::NullSpaceError;
use super::model::ConstrainedLagrangian;
use crate::model::ds::Mass;
use crate::model::event::UserEvent;
use nalgebra::{DMatrix, DVector};
use saltus_numerics::ode::{OdeSystem, RootDirection, RootKind, UserFnError};
use std::cell::RefCell;

/// The basis in use.
#[derive(Debug, Clone)]
pub(crate) enum BasisState {
    /// A QR chart: `D_ref` and the distortion that ends it.
    Chart { d_ref: DMatrix<f64>, max_distortion: f64 },
    /// The user's.
    User(UserBasis),
}

/// Buffers of one evaluation.
#[derive(Debug)]
pub(crate) struct Work {
    pub jac: DMatrix<f64>,
    pub d: DMatrix<f64>,
    pub eta: Vec<f64>,
    pub v: Vec<f64>,
    pub ap: Vec<f64>,
    pub gamma: Vec<f64>,
    pub mass: DMatrix<f64>,
    pub f: Vec<f64>,
    jtmp: DMatrix<f64>,
    qtmp: Vec<f64>,
    ctmp: Vec<f64>,
    /// The event state `(q, q̇)` of the user events' root functions.
    event_state: Vec<f64>,
    a_lu: Option<nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>>,
}

/// The system seen by the integrator.
pub(crate) struct NullSpaceOde {
    pub model: ConstrainedLagrangian,
    pub n: usize,
    pub m: usize,
    pub r: usize,
    pub basis: BasisState,
    /// Whether the integrator projects onto `C = 0` after each step (its constraints are `C`).
    pub every_step: bool,
    pub work: RefCell<Work>,
    /// The last failure inside an evaluation, reported when the integrator gives up.
    pub last_failure: RefCell<Option<NullSpaceError>>,
    /// User events on the state `s = (q, q̇)`: root functions after the chart's.
    pub user: Vec<UserEvent>,
}

fn uerr(t: f64, what: &'static str, e: impl std::fmt::Display) -> NullSpaceError {
    NullSpaceError::UserFn { t, what, message: e.to_string() }
}

fn finite(t: f64, what: &'static str, x: &[f64]) -> Result<(), NullSpaceError> {
    match x.iter().position(|v| !v.is_finite()) {
        Some(i) => Err(uerr(t, what, format!("non-finite output at index {i}"))),
        None => Ok(()),
    }
}

impl NullSpaceOde {
    pub fn new(model: ConstrainedLagrangian, basis: BasisState, every_step: bool, user: Vec<UserEvent>) -> Self {
        let (n, m) = (model.n, model.constraints.size);
        let r = n - m;
        let work = Work {
            jac: DMatrix::zeros(m, n),
            d: DMatrix::zeros(n, r),
            eta: vec![0.0; n],
            v: vec![0.0; n],
            ap: vec![0.0; n],
            gamma: vec![0.0; m],
            mass: DMatrix::zeros(n, n),
            f: vec![0.0; n],
            jtmp: DMatrix::zeros(m, n),
            qtmp: vec![0.0; n],
            ctmp: vec![0.0; m],
            event_state: Vec::with_capacity(2 * n),
            a_lu: None,
        };
        let (work, last_failure) = (RefCell::new(work), RefCell::new(None));
        NullSpaceOde { model, n, m, r, basis, every_step, work, last_failure, user }
    }

    /// Root functions of the chart basis (the distortion: 1, or 0 for a user basis); the user
    /// events' follow.
    pub fn n_chart_roots(&self) -> usize {
        usize::from(matches!(self.basis, BasisState::Chart { .. }))
    }

    /// `C(t, q)` into `out`.
    pub fn constraint_values(&self, t: f64, q: &[f64], out: &mut [f64]) -> Result<(), NullSpaceError> {
        (self.model.constraints.h)(t, q, out).map_err(|e| uerr(t, "h", e))?;
        finite(t, "h", out)
    }

    /// `C_J(t, q)` into `out` (m×n).
    pub fn jacobian(&self, t: f64, q: &[f64], out: &mut DMatrix<f64>) -> Result<(), NullSpaceError> {
        out.fill(0.0);
        (self.model.constraints.jac_q)(t, q, out).map_err(|e| uerr(t, "jac_q", e))?;
        finite(t, "jac_q", out.as_slice())
    }

    /// `C_t(t, q)` into `out` (zero for scleronomous constraints).
    fn dot_h(&self, t: f64, q: &[f64], out: &mut [f64]) -> Result<(), NullSpaceError> {
        match &self.model.constraints.dot_h {
            Some(f) => {
                f(t, q, out).map_err(|e| uerr(t, "dot_h", e))?;
                finite(t, "dot_h", out)
            }
            None => {
                out.fill(0.0);
                Ok(())
            }
        }
    }

    /// `M(q)` into `out`.
    pub fn mass(&self, t: f64, q: &[f64], out: &mut DMatrix<f64>) -> Result<(), NullSpaceError> {
        match &self.model.mass {
            Mass::Constant(m) => out.copy_from(m),
            Mass::Function(f) => {
                out.fill(0.0);
                f(t, q, out).map_err(|e| uerr(t, "mass", e))?;
                finite(t, "mass", out.as_slice())?;
            }
        }
        Ok(())
    }

    /// `F(t, q, v)` into `out`.
    pub fn forces(&self, t: f64, q: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), NullSpaceError> {
        out.fill(0.0);
        if let Some(f) = &self.model.forces {
            f(t, q, v, out).map_err(|e| uerr(t, "forces", e))?;
            finite(t, "forces", out)?;
        }
        Ok(())
    }

    /// `γ(t, q, v)`: the user's, or the fourth-order central difference of `g(s) = C_J(q + s v,
    /// t + s) v + C_t(q + s v, t + s)` at 0, `γ ≈ [8(g(s) − g(−s)) − (g(2s) − g(−2s))]/(12 s)` with
    /// `s ∝ ε^{1/5}` (truncation `O(s⁴)` and round-off `O(ε/s)` both `O(ε^{4/5})` ≈ 3e-13 relative;
    /// the second-order difference at `ε^{1/3}` left `O(ε^{2/3})` ≈ 4e-11, which drifted the
    /// spatial slider–crank 7.9e-9 away over 1 s).
    fn gamma(&self, t: f64, q: &[f64], v: &[f64], w: &mut Work) -> Result<(), NullSpaceError> {
        if let Some(g) = &self.model.constraints.gamma {
            g(t, q, v, &mut w.gamma).map_err(|e| uerr(t, "gamma", e))?;
            return finite(t, "gamma", &w.gamma);
        }
        let rheo = self.model.constraints.dot_h.is_some();
        let vn = v.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        if vn == 0.0 && !rheo {
            w.gamma.fill(0.0);
            return Ok(());
        }
        let qs = q.iter().fold(1.0f64, |a, x| a.max(x.abs()));
        let base = f64::EPSILON.powf(0.2);
        let mut s = if vn > 0.0 { base * qs / vn } else { base };
        if rheo {
            s = s.min(base * t.abs().max(1.0));
        }
        w.gamma.fill(0.0);
        for (k, weight) in [(1.0, 8.0), (-1.0, -8.0), (2.0, -1.0), (-2.0, 1.0)] {
            let h = k * s;
            for ((o, qi), vi) in w.qtmp.iter_mut().zip(q).zip(v) {
                *o = qi + h * vi;
            }
            let mut j = std::mem::replace(&mut w.jtmp, DMatrix::zeros(0, 0));
            let res = self.jacobian(t + h, &w.qtmp, &mut j);
            let mut ct = std::mem::take(&mut w.ctmp);
            let res = res.and_then(|_| self.dot_h(t + h, &w.qtmp, &mut ct));
            if res.is_ok() {
                for i in 0..self.m {
                    let g = (0..self.n).map(|c| j[(i, c)] * v[c]).sum::<f64>() + ct[i];
                    w.gamma[i] += weight * g;
                }
            }
            w.jtmp = j;
            w.ctmp = ct;
            res?;
        }
        w.gamma.iter_mut().for_each(|g| *g /= 12.0 * s);
        Ok(())
    }

    /// Fills `w.jac`, `w.d`, `w.eta`, `w.v = D u + η` and `w.ap` at `(t, q, u)`.
    pub fn kinematics(&self, t: f64, q: &[f64], u: &[f64], w: &mut Work) -> Result<(), NullSpaceError> {
        self.basis_at(t, q, w)?;
        self.velocity_terms(t, q, u, w)
    }

    /// Fills `w.jac`, `w.d` and `w.eta` at `(t, q)`.
    pub fn basis_at(&self, t: f64, q: &[f64], w: &mut Work) -> Result<(), NullSpaceError> {
        let mut jac = std::mem::replace(&mut w.jac, DMatrix::zeros(0, 0));
        let res = self.jacobian(t, q, &mut jac);
        w.jac = jac;
        res?;
        let (n, m, r) = (self.n, self.m, self.r);
        match &self.basis {
            BasisState::Chart { d_ref, .. } => {
                let mut a = DMatrix::zeros(n, n);
                a.view_mut((0, 0), (m, n)).copy_from(&w.jac);
                a.view_mut((m, 0), (r, n)).copy_from(&d_ref.transpose());
                let lu = a.lu();
                let mut rhs = DMatrix::zeros(n, r);
                rhs.view_mut((m, 0), (r, r)).fill_with_identity();
                if !lu.solve_mut(&mut rhs) {
                    return Err(NullSpaceError::Singular { t, what: "the chart matrix [C_J; D_refᵀ]" });
                }
                w.d.copy_from(&rhs);
                let mut ct = std::mem::take(&mut w.ctmp);
                let res = self.dot_h(t, q, &mut ct);
                let mut b = DVector::zeros(n);
                for i in 0..m {
                    b[i] = -ct[i];
                }
                w.ctmp = ct;
                res?;
                lu.solve_mut(&mut b);
                w.eta.copy_from_slice(b.as_slice());
                w.a_lu = Some(lu);
            }
            BasisState::User(ub) => {
                w.d.fill(0.0);
                (ub.d)(t, q, &mut w.d).map_err(|e| uerr(t, "basis D", e))?;
                finite(t, "basis D", w.d.as_slice())?;
                w.eta.fill(0.0);
            }
        }
        Ok(())
    }

    /// Fills `w.v = D u + η` and `w.ap` after [`Self::basis_at`].
    fn velocity_terms(&self, t: f64, q: &[f64], u: &[f64], w: &mut Work) -> Result<(), NullSpaceError> {
        let (n, m, r) = (self.n, self.m, self.r);
        for i in 0..n {
            w.v[i] = w.eta[i] + (0..r).map(|k| w.d[(i, k)] * u[k]).sum::<f64>();
        }
        match &self.basis {
            BasisState::Chart { .. } => {
                let v = w.v.clone();
                self.gamma(t, q, &v, w)?;
                let mut b = DVector::zeros(n);
                for i in 0..m {
                    b[i] = -w.gamma[i];
                }
                if let Some(lu) = &w.a_lu {
                    lu.solve_mut(&mut b);
                }
                w.ap.copy_from_slice(b.as_slice());
            }
            BasisState::User(ub) => {
                (ub.d_dot_u)(t, q, u, &mut w.ap).map_err(|e| uerr(t, "basis Ḋu", e))?;
                finite(t, "basis Ḋu", &w.ap)?;
            }
        }
        Ok(())
    }

    /// `u̇ = (DᵀMD)⁻¹ Dᵀ (F − M a_p)` after [`Self::kinematics`]; also fills `w.mass`, `w.f`.
    pub fn udot(&self, t: f64, q: &[f64], w: &mut Work, out: &mut [f64]) -> Result<(), NullSpaceError> {
        let mut mass = std::mem::replace(&mut w.mass, DMatrix::zeros(0, 0));
        let res = self.mass(t, q, &mut mass);
        w.mass = mass;
        res?;
        let mut f = std::mem::take(&mut w.f);
        let res = self.forces(t, q, &w.v, &mut f);
        w.f = f;
        res?;
        let ap = DVector::from_column_slice(&w.ap);
        let rhs_full = DVector::from_column_slice(&w.f) - &w.mass * ap;
        let md = &w.mass * &w.d;
        let k = w.d.transpose() * md;
        let mut rhs = w.d.transpose() * rhs_full;
        let chol = k.cholesky().ok_or(NullSpaceError::Singular { t, what: "DᵀMD" })?;
        chol.solve_mut(&mut rhs);
        out.copy_from_slice(rhs.as_slice());
        finite(t, "u̇", out)
    }

    /// The multipliers `λ = −(C_J M⁻¹ C_Jᵀ)⁻¹ C_J (M⁻¹ F − a_p)` after [`Self::udot`].
    pub fn lambda(&self, t: f64, w: &Work) -> Result<Vec<f64>, NullSpaceError> {
        let chol = w.mass.clone().cholesky().ok_or(NullSpaceError::Singular { t, what: "M" })?;
        let minv_f = chol.solve(&DVector::from_column_slice(&w.f));
        let minv_jt = chol.solve(&w.jac.transpose());
        let g = &w.jac * &minv_jt;
        let mut b = -(&w.jac * (minv_f - DVector::from_column_slice(&w.ap)));
        let lu = g.lu();
        if !lu.solve_mut(&mut b) {
            return Err(NullSpaceError::Singular { t, what: "C_J M⁻¹ C_Jᵀ" });
        }
        Ok(b.as_slice().to_vec())
    }

    /// The chart's distortion `‖D‖_F / √r` after [`Self::kinematics`] (1 for a user basis).
    pub fn distortion(&self, w: &Work) -> f64 {
        match self.basis {
            BasisState::Chart { .. } => (w.d.norm_squared() / self.r as f64).sqrt(),
            BasisState::User(_) => 1.0,
        }
    }

    fn record(&self, e: NullSpaceError) -> UserFnError {
        let recoverable = matches!(e, NullSpaceError::UserFn { .. } | NullSpaceError::Singular { .. });
        let msg = e.to_string();
        *self.last_failure.borrow_mut() = Some(e);
        if recoverable {
            UserFnError::Recoverable(msg)
        } else {
            UserFnError::Fatal(msg)
        }
    }
}

impl OdeSystem for NullSpaceOde {
    fn dim(&self) -> usize {
        self.n + self.r
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        let (q, u) = y.split_at(self.n);
        let mut w = self.work.borrow_mut();
        let (dq, du) = dy.split_at_mut(self.n);
        self.kinematics(t, q, u, &mut w)
            .and_then(|_| {
                dq.copy_from_slice(&w.v);
                self.udot(t, q, &mut w, du)
            })
            .map_err(|e| self.record(e))
    }

    fn n_roots(&self) -> usize {
        self.n_chart_roots() + self.user.len()
    }

    /// The chart's distortion margin `max_distortion − |D|/√r`, then `g_k(t, (q, D u + η))` of
    /// every user event.
    fn roots(&self, t: f64, y: &[f64], g: &mut [f64]) -> Result<(), UserFnError> {
        let (q, u) = y.split_at(self.n);
        let mut w = self.work.borrow_mut();
        let chart = match self.basis {
            BasisState::Chart { max_distortion, .. } => Some(max_distortion),
            BasisState::User(_) => None,
        };
        // the user events read q̇ = D u + η; `kinematics` fills the basis on the way
        if !self.user.is_empty() {
            self.kinematics(t, q, u, &mut w).map_err(|e| self.record(e))?;
        } else if chart.is_some() {
            self.basis_at(t, q, &mut w).map_err(|e| self.record(e))?;
        }
        if let Some(max_distortion) = chart {
            g[0] = max_distortion - self.distortion(&w);
        }
        if !self.user.is_empty() {
            let mut s = std::mem::take(&mut w.event_state);
            s.clear();
            s.extend(q.iter().chain(&w.v));
            let values = g[self.n_chart_roots()..].iter_mut().zip(&self.user).try_for_each(|(gk, e)| {
                *gk =
                    e.value(t, &s).map_err(|err| self.record(uerr(t, "user event", format!("`{}`: {err}", e.name))))?;
                Ok(())
            });
            w.event_state = s;
            values?;
        }
        Ok(())
    }

    fn root_kind(&self, i: usize) -> RootKind {
        match i.checked_sub(self.n_chart_roots()) {
            Some(k) => self.user[k].kind,
            None => RootKind { direction: RootDirection::Falling, ..Default::default() },
        }
    }

    fn n_constraints(&self) -> usize {
        if self.every_step {
            self.m
        } else {
            0
        }
    }

    fn constraints(&self, t: f64, y: &[f64], c: &mut [f64]) -> Result<(), UserFnError> {
        self.constraint_values(t, &y[..self.n], c).map_err(|e| self.record(e))
    }

    fn constraint_jacobian(&self, t: f64, y: &[f64], g: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        let mut j = DMatrix::zeros(self.m, self.n);
        self.jacobian(t, &y[..self.n], &mut j).map_err(|e| self.record(e))?;
        g.view_mut((0, 0), (self.m, self.n)).copy_from(&j);
        Ok(())
    }
}
