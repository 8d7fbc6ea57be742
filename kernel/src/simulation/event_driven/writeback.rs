//! Event processing (Siconos `EventDriven::updateIndexSet`, impact and acceleration problems)
//! and the transfer of the state back into the [`Nsds`].

use super::contact_lcp::{acceleration_lcp, Entry};
use super::friction::TangentMode;
use super::impact::impact;
use super::{EventKind, EventReport, LagrangianEd};
use crate::model::nsds::{InterId, Nsds};
use crate::KernelError;
use nalgebra::DVector;

fn ufe(t: f64, what: &str, e: saltus_numerics::ode::UserFnError) -> KernelError {
    KernelError::UserFn { t, owner: None, what: what.into(), source: crate::UserFnError::new(e.to_string()) }
}

impl LagrangianEd {
    pub(super) fn split_velocities(&self, x: &[f64]) -> Vec<DVector<f64>> {
        let d = self.ode.system();
        d.ds.iter().map(|m| DVector::from_column_slice(&x[d.nq + m.off..d.nq + m.off + m.n])).collect()
    }

    /// `ẏ_i = J_i v` (row 0: the normal relative velocity; row 1: the sliding velocity).
    fn relative_velocity(&self, t: f64, x: &[f64], i: usize, row: usize) -> Result<f64, KernelError> {
        let d = self.ode.system();
        let mut w = d.work.borrow_mut();
        d.row_rate(i, row, t, x.split_at(d.nq), &mut w).map_err(|e| ufe(t, "relative velocity", e))
    }

    /// Processes a nonsmooth event at `t` with the state `x` (updated in place to the
    /// post-impact state), the contacts whose gap/force root fired (`which`) and those whose
    /// stick/slip root fired (`which_t`); updates index set 2 and the tangential modes.
    pub(super) fn process_nonsmooth(
        &mut self,
        t: f64,
        x: &mut [f64],
        which: &[usize],
        which_t: &[usize],
    ) -> Result<EventReport, KernelError> {
        let nc = self.ode.system().contacts.len();
        let n = self.ode.system().nq;
        // bilateral constraints: the state back on them first; they stay in I1 and I2, as
        // equations of every impact and acceleration problem
        let bilateral: Vec<bool> = self.ode.system().contacts.iter().map(|c| c.bilateral).collect();
        if self.has_bilateral() {
            self.project(t, x)?;
        }
        // tangential forces at the event, in the modes before it (a sticking force at the cone's
        // edge gives the direction of the slip that follows)
        let lambda_t_event = if which_t.is_empty() {
            vec![0.0; nc]
        } else {
            let d = self.ode.system();
            let (q, v) = x.split_at(n);
            let mut w = d.work.borrow_mut();
            d.accelerations(t, q, v, &mut w).map_err(|e| ufe(t, "contact forces", e))?;
            w.accel.lambda_t.clone()
        };
        // updateIndexSet(1): closed contacts
        let mut i1 = Vec::new();
        {
            let d = self.ode.system();
            let mut w = d.work.borrow_mut();
            for i in 0..nc {
                let y = d.gap(i, t, &x[..n], &mut w).map_err(|e| ufe(t, "gap", e))?;
                if d.in_i2[i] || which.contains(&i) || y <= self.opts.gap_tol {
                    i1.push(i);
                }
            }
        }
        let mut ydot = Vec::with_capacity(i1.len());
        for &i in &i1 {
            ydot.push(self.relative_velocity(t, x, i, 0)?);
        }
        self.p.fill(0.0);
        self.impulse.fill(0.0);
        self.impulse_t.fill(0.0);
        let mut rep = EventReport::bare(t, EventKind::NonSmooth, None);
        // impact problem when a closed contact approaches
        if i1.iter().zip(&ydot).any(|(&i, &yd)| !bilateral[i] && yd < -self.opts.velocity_tol) {
            let (q, v) = x.split_at_mut(n);
            let imp = impact(self.ode.system(), t, q, v, &i1, self.opts.zeno_velocity, &self.opts.impact)?;
            if v.iter().any(|x| !x.is_finite()) {
                return Err(KernelError::NonFinite { t, what: "post-impact velocity", interaction: None });
            }
            // p = M (v⁺ − v⁻) = Jᵀ P, recorded per coordinate through the contact Jacobians
            for (k, &i) in i1.iter().enumerate() {
                self.impulse[i] = imp.p[k];
                self.impulse_t[i] = imp.p_t[k];
                rep.impulses.push((InterId::new(i as u32, 0), imp.p[k]));
                if imp.zeno[k] && imp.ydot_pre[k] < -self.opts.velocity_tol {
                    rep.zeno.push(InterId::new(i as u32, 0));
                }
            }
            self.p.copy_from_slice(&imp.generalized);
            rep.impact = Some(imp.report);
            for (k, &i) in i1.iter().enumerate() {
                ydot[k] = self.relative_velocity(t, x, i, 0)?;
            }
        }
        // updateIndexSet(2): closed with zero relative velocity, kept if the acceleration LCP
        // gives them a positive force
        let cands: Vec<usize> = i1
            .iter()
            .zip(&ydot)
            .filter(|(&i, yd)| bilateral[i] || yd.abs() <= self.opts.velocity_tol)
            .map(|(&i, _)| i)
            .collect();
        let mut in_i2 = vec![false; nc];
        let mut mode = vec![TangentMode::Stick; nc];
        if !cands.is_empty() {
            let d = self.ode.system();
            let mut entries = Vec::with_capacity(cands.len());
            for &i in &cands {
                if bilateral[i] {
                    entries.push(Entry::Bilateral(i));
                    continue;
                }
                let v_t = if d.contacts[i].friction.is_some() { self.relative_velocity(t, x, i, 1)? } else { 0.0 };
                entries.push(d.entry(i, which_t.contains(&i), v_t, lambda_t_event[i], self.opts.velocity_tol));
            }
            let (q, v) = x.split_at(n);
            let sol = acceleration_lcp(d, t, q, v, &entries, &self.opts.acceleration)?;
            let eps = 1e-12 * sol.b_scale.max(1.0);
            for (k, e) in entries.iter().enumerate() {
                let i = e.contact();
                in_i2[i] = bilateral[i] || sol.lambda_n[k] > 0.0;
                mode[i] = match *e {
                    Entry::Normal(_) | Entry::Bilateral(_) => TangentMode::Stick,
                    Entry::Slip(_, s) => TangentMode::slip(s),
                    Entry::Cone(_) if sol.w_t[k].abs() <= eps => TangentMode::Stick,
                    Entry::Cone(_) => TangentMode::slip(sol.w_t[k]),
                };
            }
            rep.acceleration = Some(sol.report);
        }
        rep.closed = in_i2.iter().filter(|&&b| b).count();
        let stick: Vec<usize> = (0..nc)
            .filter(|&i| in_i2[i] && mode[i] == TangentMode::Stick && self.ode.system().contacts[i].friction.is_some())
            .collect();
        self.ode.system().stop_sliding(t, x, &stick)?;
        let d = self.ode.system_mut();
        d.in_i2 = in_i2;
        d.mode = mode;
        Ok(rep)
    }

    /// Whether the model has bilateral constraints.
    pub(super) fn has_bilateral(&self) -> bool {
        self.ode.system().contacts.iter().any(|c| c.bilateral)
    }

    /// Projects `x` onto the bilateral constraints (see `super::bilateral`), until
    /// [`super::EventDrivenOptions::constraint_accuracy`]'s test holds (default: round-off).
    pub(super) fn project(&self, t: f64, x: &mut [f64]) -> Result<(), KernelError> {
        let n = self.ode.system().nq;
        let tol = 1e-13 * x[..n].iter().fold(1.0f64, |a, v| a.max(v.abs()));
        let accuracy = self.opts.constraint_accuracy.as_ref();
        let done = |h: &[f64]| match accuracy {
            Some(a) => a.measure(h.iter().copied().enumerate()) <= a.alpha,
            None => h.iter().all(|v| v.abs() <= tol),
        };
        self.ode.system().project_bilateral(t, x, &done).map(|_| ())
    }

    /// Writes `q, v, p` of the systems, `y, ẏ, λ(1)` of the interactions and `t` into `nsds`,
    /// and refreshes the contact forces `λ(2)`.
    pub(super) fn write_back(&mut self, nsds: &mut Nsds, t: f64) -> Result<(), KernelError> {
        let d = self.ode.system();
        let (q, v) = self.x.split_at(d.nq);
        {
            let mut w = d.work.borrow_mut();
            d.accelerations(t, q, v, &mut w).map_err(|e| ufe(t, "contact forces", e))?;
            self.lambda2.copy_from_slice(&w.accel.lambda);
            self.lambda2_t.copy_from_slice(&w.accel.lambda_t);
        }
        let mut ys = Vec::with_capacity(d.contacts.len());
        for i in 0..d.contacts.len() {
            let mut w = d.work.borrow_mut();
            let y = d.gap(i, t, q, &mut w).map_err(|e| ufe(t, "gap", e))?;
            // the tangent row of a frictional contact: its coordinate and sliding velocity
            let y_t = match d.contacts[i].friction {
                Some(_) => Some(d.output(i, 1, t, q, &mut w).map_err(|e| ufe(t, "tangential output", e))?),
                None => None,
            };
            drop(w);
            let tangent = match y_t {
                Some(y) => Some((y, self.relative_velocity(t, &self.x, i, 1)?)),
                None => None,
            };
            ys.push((y, self.relative_velocity(t, &self.x, i, 0)?, tangent));
        }
        let (systems, inters) = nsds.parts_mut();
        for (ds, m) in systems.iter_mut().zip(&d.ds) {
            let (qs, vs, ps) = ds.state_mut();
            qs.as_mut_slice().copy_from_slice(&q[m.qoff..m.qoff + m.nq]);
            if let Some(vs) = vs {
                vs.as_mut_slice().copy_from_slice(&v[m.off..m.off + m.n]);
            }
            ps.as_mut_slice().copy_from_slice(&self.p[m.off..m.off + m.n]);
            // a rigid body's unit quaternion: the integrator keeps its norm to its tolerance only
            ds.normalize_q();
        }
        for (i, inter) in inters.iter_mut().enumerate() {
            inter.y[0][0] = ys[i].0;
            inter.y[1][0] = ys[i].1;
            inter.lambda[0][0] = self.lambda2[i];
            inter.lambda[1][0] = self.impulse[i];
            if let Some((yt, vt)) = ys[i].2 {
                inter.y[0][1] = yt;
                inter.y[1][1] = vt;
                inter.lambda[0][1] = self.lambda2_t[i];
                inter.lambda[1][1] = self.impulse_t[i];
            }
        }
        nsds.set_t(t);
        Ok(())
    }
}
