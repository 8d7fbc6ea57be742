//! The phases of a time step, named after Siconos (`TimeStepping::computeOneStep` and the
//! `OneStepIntegrator` methods): `begin_step` (memories), `compute_free_state`, `update_input`,
//! `update_state`, `update_output`, `commit` (Siconos `nextStep`'s memory swap).

use super::time_stepping::TimeStepping;
use crate::error::KernelError;
use crate::model::nsds::Nsds;

impl TimeStepping {
    /// Saves the state at `t_k` and evaluates the forces / vector fields at `t_k`.
    pub(super) fn begin_step(&mut self, nsds: &Nsds, t_k: f64) -> Result<(), KernelError> {
        for (ds, w) in nsds.systems().iter().zip(self.dsw.iter_mut()) {
            w.input_k.copy_from(ds.input());
            let osi = w.osi;
            osi.begin_step(ds, w, t_k, self.h)?;
        }
        for iw in self.iws.iter_mut() {
            if let Some(inter) = nsds.linked(iw.id) {
                iw.begin_step(inter, nsds.systems(), t_k)?;
            }
        }
        Ok(())
    }

    /// The free state of every system at the current Newton iterate (and `W` if not constant).
    pub(super) fn compute_free_state(&mut self, nsds: &Nsds, t1: f64) -> Result<(), KernelError> {
        let (h, t_k) = (self.h, self.t());
        for (ds, w) in nsds.systems().iter().zip(self.dsw.iter_mut()) {
            let osi = w.osi;
            osi.compute_free_state(ds, w, t_k, t1, h)?;
            w.free_osnsp.copy_from(&w.free);
            if let Some(g) = osi.relation_gamma() {
                // θ-γ: the relations see x_(k+γ) = γ x_free + (1−γ) x_k before the input
                w.free_osnsp.axpy(1.0 - g, &w.x_k, g);
            }
        }
        Ok(())
    }

    /// Accumulates every system's input (`p = Σ Hᵀ λ` or `r = Σ B λ`) from the multipliers.
    pub(super) fn update_input(&mut self, nsds: &Nsds, nonlinear_fo: bool) {
        for id in self.sets.set(self.level_set) {
            self.iws[id.index()].add_input(&mut self.dsw, nonlinear_fo);
        }
        if nonlinear_fo {
            for iw in &self.iws {
                let nonlinear = nsds.linked(iw.id).is_some_and(|inter| !inter.relation.is_linear());
                if nonlinear && self.sets.position(iw.id).is_none() {
                    iw.add_input(&mut self.dsw, true);
                }
            }
        }
    }

    /// New state from the free state and the input; returns the Newton increment and the state
    /// scale. A non-finite state is an error (the caller rolls back).
    pub(super) fn update_state(&mut self, nsds: &mut Nsds, t1: f64) -> Result<(f64, f64), KernelError> {
        let (h, t_k) = (self.h, self.t());
        let mut delta: f64 = 0.0;
        let mut scale_x: f64 = 0.0;
        let (systems, _) = nsds.parts_mut();
        // MoreauJeanGOSI: the global problem's velocity when it was solved (else the free one)
        let global = self.gosi.as_ref().filter(|g| g.solved);
        for (ds, w) in systems.iter_mut().zip(self.dsw.iter_mut()) {
            let v = global.map(|g| g.velocity(w.id.index(), w.free.len()));
            let osi = w.osi;
            let d = osi.update_state(ds, w, h, (t_k, t1), v)?;
            let bad_v = ds.velocity().is_some_and(|v| v.iter().any(|x| !x.is_finite()));
            if !d.is_finite() || bad_v || ds.state().iter().any(|v| !v.is_finite()) {
                return Err(KernelError::NonFinite { t: t1, what: "state after update_state", interaction: None });
            }
            delta = delta.max(d);
            scale_x = scale_x.max(ds.state().amax()).max(ds.velocity().map_or(0.0, |v| v.amax()));
        }
        Ok((delta, scale_x))
    }

    /// Outputs `y` of every interaction at `t1` (Jacobians refreshed for nonlinear Lagrangian
    /// relations).
    pub(super) fn update_output(&mut self, nsds: &Nsds, t1: f64) -> Result<(), KernelError> {
        for iw in self.iws.iter_mut() {
            let Some(inter) = nsds.linked(iw.id) else { continue };
            if !iw.constant && inter.relation.is_lagrangian() {
                iw.compute_jacobians(inter, nsds.systems(), t1)?;
            }
            iw.update_output(inter, nsds.systems(), t1)?;
        }
        Ok(())
    }

    /// Writes time, `y` and `λ` into the model (inactive interactions get `λ = 0`) and keeps
    /// them as the memories of the next step.
    pub(super) fn commit(&mut self, nsds: &mut Nsds, t1: f64) {
        let level = self.level_set;
        nsds.set_t(t1);
        for iw in self.iws.iter_mut() {
            let Some(inter) = nsds.linked_mut(iw.id) else { continue };
            inter.y[0].copy_from(&iw.y[0]);
            inter.y[1].copy_from(&iw.y[1]);
            if self.sets.position(iw.id).is_none() {
                iw.lambda.fill(0.0);
            }
            inter.lambda[level].copy_from(&iw.lambda);
            iw.lambda_i.copy_from(&iw.lambda);
            iw.lambda_k.copy_from(&iw.lambda);
            iw.y_old[0].copy_from(&iw.y[0]);
            iw.y_old[1].copy_from(&iw.y[1]);
        }
    }
}
