//! Bilateral constraints `h_i(q) = 0` (`EqualityConditionNSL`) in event-driven runs.
//!
//! Between events they are index-reduced to the acceleration level, `ḧ = J v̇ + J̇ v = 0`, and
//! held with the contacts of index set 2 ([`super::acceleration::Accel::bilateral`]: a linear
//! system for λ of any sign). The reduction lets `h` and `J v` drift with the integration error;
//! at every event (time-discretisation events included) the state is projected back, mass
//! weighted (the CPODES-style projection):
//! * positions by Gauss–Newton, `q ← q − M⁻¹ Jᵀ (J M⁻¹ Jᵀ)⁻¹ h(q)` until the stopping test
//!   holds (round-off by default, or Simmath's `‖T h‖ ≤ α` from
//!   [`crate::EventDrivenOptions::constraint_accuracy`]);
//! * velocities onto the tangent space, `v ← v − M⁻¹ Jᵀ (J M⁻¹ Jᵀ)⁻¹ J v` (exact, one step).

use super::acceleration::assemble;
use super::dynamics::Dynamics;
use crate::KernelError;
use nalgebra::DVector;

/// Largest number of Gauss–Newton iterations of the position projection.
const MAX_ITER: usize = 20;

fn ufe(t: f64, e: saltus_numerics::ode::UserFnError) -> KernelError {
    KernelError::UserFn {
        t,
        owner: None,
        what: "bilateral projection".into(),
        source: crate::UserFnError::new(e.to_string()),
    }
}

impl Dynamics {
    /// Projects `x = (q, v)` onto `h(q) = 0` (until `done(h)`), then `J v = 0`, for the
    /// bilateral constraints (no-op without). Returns the largest `|h_i|` before the projection.
    pub(crate) fn project_bilateral(
        &self,
        t: f64,
        x: &mut [f64],
        done: &dyn Fn(&[f64]) -> bool,
    ) -> Result<f64, KernelError> {
        let set: Vec<usize> = (0..self.contacts.len()).filter(|&i| self.contacts[i].bilateral).collect();
        if set.is_empty() {
            return Ok(0.0);
        }
        // (bilateral constraints act on systems with q̇ = v only: nq = n on their coordinates)
        let n = self.nq;
        let mut w = self.work.borrow_mut();
        let mut first = None;
        for it in 0..=MAX_ITER {
            let (q, v) = x.split_at(n);
            let h: Vec<f64> =
                set.iter().map(|&i| self.gap(i, t, q, &mut w)).collect::<Result<_, _>>().map_err(|e| ufe(t, e))?;
            let worst = h.iter().fold(0.0f64, |a, b| a.max(b.abs()));
            first.get_or_insert(worst);
            if done(&h) {
                break;
            }
            if it == MAX_ITER {
                return Err(KernelError::NewtonNotConverged { t, iterations: MAX_ITER, residual: worst });
            }
            let p = assemble(self, t, q, v, v, &set, false, &mut w).map_err(|e| ufe(t, e))?;
            let mu = p.w.lu().solve(&DVector::from_vec(h)).ok_or(KernelError::NonFinite {
                t,
                what: "bilateral projection (J M⁻¹ Jᵀ singular: redundant constraints)",
                interaction: None,
            })?;
            for (k, mj) in p.mj.iter().enumerate() {
                x[..n].iter_mut().zip(mj).for_each(|(o, m)| *o -= m * mu[k]);
            }
        }
        let (q, v) = x.split_at(n);
        let p = assemble(self, t, q, v, v, &set, false, &mut w).map_err(|e| ufe(t, e))?;
        let mu = p.w.lu().solve(&DVector::from_vec(p.b.clone())).ok_or(KernelError::NonFinite {
            t,
            what: "bilateral projection (J M⁻¹ Jᵀ singular: redundant constraints)",
            interaction: None,
        })?;
        for (k, mj) in p.mj.iter().enumerate() {
            x[n..].iter_mut().zip(mj).for_each(|(o, m)| *o -= m * mu[k]);
        }
        if x.iter().any(|v| !v.is_finite()) {
            return Err(KernelError::NonFinite { t, what: "projected state", interaction: None });
        }
        Ok(first.unwrap_or(0.0))
    }
}
