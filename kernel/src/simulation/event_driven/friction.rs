//! Planar Coulomb friction of closed contacts in event-driven runs (`NewtonImpactFrictionNSL`
//! of dimension 2: row 0 of the relation is the gap, row 1 the tangential coordinate, whose rate
//! `v_T = J_T v` is the sliding velocity). The classical formulation of Pfeiffer and Glocker:
//!
//! * Between events a frictional contact of index set 2 is in one tangential mode
//!   ([`TangentMode`]): **stick**, held at `ÿ_T = 0` with its tangential force `λ_T` as an
//!   unknown of the acceleration problem; or **slip** in direction `s = sign(v_T)`, with
//!   `λ_T = −μ s λ_N` (its normal force acts along `(J_N − μ s J_T)ᵀ`).
//! * Mode changes are root functions of the integrator, one per frictional contact after the
//!   contacts' gap/force functions: sticking, `μ λ_N − |λ_T|` falling through 0 (the force
//!   leaves Coulomb's cone); slipping, `s v_T` falling through 0 (the sliding stops).
//! * At an event (`process_nonsmooth`) the contact's next mode comes from the acceleration-level
//!   LCP ([`super::contact_lcp`]): a contact whose sliding stopped, or with `|v_T| ≤
//!   velocity_tol`, enters it with Coulomb's cone, and sticks if the solution has `ÿ_T = 0`, or
//!   slips in the direction of `ÿ_T` (a reversal). A contact whose sticking force reached the
//!   cone's edge slips in the direction its tangential force pushed (`s = −sign λ_T`): at that
//!   instant the cone problem is degenerate (`|λ_T| = μ λ_N` with `ÿ_T = 0`), and the root's
//!   direction (the force leaving the cone) says what it cannot.
//! * A contact that starts to stick has its sliding velocity set to exactly 0 (a mass-weighted
//!   projection of `v` onto `J_T v = 0`, of the size of the root finder's tolerance), so that the
//!   stuck coordinate does not drift.
//! * Impacts at frictional contacts solve the velocity-level problem with Coulomb's cone (module
//!   [`super::impact`]).

use super::acceleration::{assemble_rc, ColSpec, RowSpec};
use super::contact_lcp::Entry;
use super::dynamics::{Dynamics, Work};
use crate::KernelError;
use nalgebra::DVector;
use saltus_numerics::ode::UserFnError;

/// Tangential mode of a closed frictional contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TangentMode {
    /// `v_T = 0`, `ÿ_T = 0`, `|λ_T| ≤ μ λ_N`.
    Stick,
    /// `v_T > 0`, `λ_T = −μ λ_N`.
    SlipPositive,
    /// `v_T < 0`, `λ_T = μ λ_N`.
    SlipNegative,
}

impl TangentMode {
    /// The slip of direction `sign(s)`.
    pub fn slip(s: f64) -> Self {
        if s >= 0.0 {
            TangentMode::SlipPositive
        } else {
            TangentMode::SlipNegative
        }
    }
    /// `s = ±1` of a slip (`None` when sticking).
    pub fn direction(self) -> Option<f64> {
        match self {
            TangentMode::Stick => None,
            TangentMode::SlipPositive => Some(1.0),
            TangentMode::SlipNegative => Some(-1.0),
        }
    }
}

impl Dynamics {
    /// Rows and force columns of the problem that holds I2 between events: the normal row and
    /// force of every contact of I2 (slipping: along `J_N − μ s J_T`), then the tangent row and
    /// force of every sticking one.
    pub(crate) fn held_problem(&self) -> (Vec<RowSpec>, Vec<ColSpec>) {
        let set: Vec<usize> = (0..self.contacts.len()).filter(|&i| self.in_i2[i]).collect();
        let mut rows: Vec<RowSpec> = set.iter().map(|&i| RowSpec::normal(i)).collect();
        let mut cols: Vec<ColSpec> = set
            .iter()
            .map(|&i| match (self.contacts[i].friction, self.mode[i].direction()) {
                (Some(f), Some(s)) => ColSpec { contact: i, n: 1.0, t: -f.mu * s },
                _ => ColSpec::normal(i),
            })
            .collect();
        for &i in &set {
            if self.contacts[i].friction.is_some() && self.mode[i] == TangentMode::Stick {
                rows.push(RowSpec::tangent(i));
                cols.push(ColSpec::tangent(i));
            }
        }
        (rows, cols)
    }

    /// The rate `J_r v` of row `row` of contact `i` (0: `ẏ_N`, 1: the sliding velocity `v_T`).
    pub(crate) fn row_rate(
        &self,
        i: usize,
        row: usize,
        t: f64,
        (q, v): (&[f64], &[f64]),
        w: &mut Work,
    ) -> Result<f64, UserFnError> {
        let c = &self.contacts[i];
        let mut jl = std::mem::take(&mut w.jrow);
        jl.resize(c.vidx.len(), 0.0);
        let res = self.h_row(i, row, t, q, w, &mut jl);
        let rate = c.vidx.iter().zip(&jl).map(|(&j, a)| a * v[j]).sum();
        w.jrow = jl;
        res.map(|()| rate)
    }

    /// The stick/slip root function of frictional contact `i` (see the module docs), with
    /// `w.accel` holding the multipliers at `(t, q, v)`; 1 when `i` is open.
    pub(crate) fn stick_slip_root(
        &self,
        i: usize,
        t: f64,
        q: &[f64],
        v: &[f64],
        w: &mut Work,
    ) -> Result<f64, UserFnError> {
        let Some(f) = self.contacts[i].friction else { return Ok(1.0) };
        if !self.in_i2[i] {
            return Ok(1.0);
        }
        match self.mode[i].direction() {
            None => Ok(f.mu * w.accel.lambda_of(i) - w.accel.lambda_t.get(i).copied().unwrap_or(0.0).abs()),
            Some(s) => Ok(s * self.row_rate(i, 1, t, (q, v), w)?),
        }
    }

    /// How candidate `i` of index set 2 enters the event's acceleration LCP: frictionless;
    /// slipping on (its sticking force reached the cone's edge: `stick_root`, with `lambda_t` the
    /// force at the event; or `|v_T| > velocity_tol`); or Coulomb's cone (its sliding stopped,
    /// or `v_T ≈ 0`); `root_fired`: its stick/slip root function fired.
    pub(crate) fn entry(&self, i: usize, root_fired: bool, v_t: f64, lambda_t: f64, velocity_tol: f64) -> Entry {
        if self.contacts[i].friction.is_none() {
            return Entry::Normal(i);
        }
        let was_closed = self.in_i2[i];
        match (root_fired, was_closed.then_some(self.mode[i])) {
            (true, Some(TangentMode::Stick)) => Entry::Slip(i, if lambda_t > 0.0 { -1.0 } else { 1.0 }),
            (true, Some(_)) => Entry::Cone(i),
            _ if v_t.abs() <= velocity_tol => Entry::Cone(i),
            _ => Entry::Slip(i, v_t.signum()),
        }
    }

    /// Sets `J_T v = 0` for the frictional contacts `stick` (mass weighted:
    /// `v ← v − M⁻¹ J_Tᵀ (J_T M⁻¹ J_Tᵀ)⁻¹ J_T v`).
    pub(crate) fn stop_sliding(&self, t: f64, x: &mut [f64], stick: &[usize]) -> Result<(), KernelError> {
        if stick.is_empty() {
            return Ok(());
        }
        let n = self.nq;
        let rows: Vec<RowSpec> = stick.iter().map(|&i| RowSpec::tangent(i)).collect();
        let cols: Vec<ColSpec> = stick.iter().map(|&i| ColSpec::tangent(i)).collect();
        let p = {
            let (q, v) = x.split_at(n);
            let mut w = self.work.borrow_mut();
            assemble_rc(self, t, q, v, v, &rows, &cols, false, &mut w).map_err(|e| KernelError::UserFn {
                t,
                what: "sticking contacts".into(),
                owner: None,
                source: crate::UserFnError::new(e.to_string()),
            })?
        };
        let mu = p.w.lu().solve(&DVector::from_vec(p.b)).filter(|m| m.iter().all(|x| x.is_finite())).ok_or(
            KernelError::NonFinite {
                t,
                what: "sticking contacts (J_T M⁻¹ J_Tᵀ singular: redundant contacts)",
                interaction: None,
            },
        )?;
        for (k, mj) in p.mj.iter().enumerate() {
            x[n..].iter_mut().zip(mj).for_each(|(o, m)| *o -= m * mu[k]);
        }
        Ok(())
    }
}
