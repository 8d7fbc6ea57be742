//! Event processing (Siconos `EventDriven::updateIndexSet`, impact and acceleration problems)
//! and the transfer of the state back into the [`Nsds`].

use super::acceleration::acceleration_lcp;
use super::impact::impact;
use super::{EventKind, EventReport, LagrangianEd};
use crate::model::nsds::{InterId, Nsds};
use crate::KernelError;
use nalgebra::DVector;

fn ufe(t: f64, what: &str, e: saltus_numerics::ode::UserFnError) -> KernelError {
    KernelError::UserFn { t, what: what.into(), source: crate::UserFnError::new(e.to_string()) }
}

impl LagrangianEd {
    pub(super) fn split_velocities(&self, x: &[f64]) -> Vec<DVector<f64>> {
        let d = self.ode.system();
        d.ds.iter().map(|m| DVector::from_column_slice(&x[d.n + m.off..d.n + m.off + m.n])).collect()
    }

    /// `ẏ_i = J_i v` for every contact.
    fn relative_velocity(&self, t: f64, x: &[f64], i: usize) -> Result<f64, KernelError> {
        let d = self.ode.system();
        let (q, v) = x.split_at(d.n);
        let c = &d.contacts[i];
        let mut jl = vec![0.0; c.idx.len()];
        let mut w = d.work.borrow_mut();
        d.jac(i, t, q, &mut w, &mut jl).map_err(|e| ufe(t, "relative velocity", e))?;
        Ok(c.idx.iter().zip(&jl).map(|(&j, a)| a * v[j]).sum())
    }

    /// Processes a nonsmooth event at `t` with the state `x` (updated in place to the
    /// post-impact state) and the reported roots `which`; updates index set 2.
    pub(super) fn process_nonsmooth(
        &mut self,
        t: f64,
        x: &mut [f64],
        which: &[usize],
    ) -> Result<EventReport, KernelError> {
        let nc = self.ode.system().contacts.len();
        let n = self.ode.system().n;
        if self.has_bilateral() {
            // bilateral-only model (checked in `Dynamics::new`): no impacts, all held in I2
            self.project(t, x)?;
            let mut rep = EventReport::bare(t, EventKind::NonSmooth, None);
            rep.closed = nc;
            return Ok(rep);
        }
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
            ydot.push(self.relative_velocity(t, x, i)?);
        }
        self.p.fill(0.0);
        self.impulse.fill(0.0);
        let mut rep = EventReport::bare(t, EventKind::NonSmooth, None);
        // impact problem when a closed contact approaches
        if ydot.iter().any(|&yd| yd < -self.opts.velocity_tol) {
            let (q, v) = x.split_at_mut(n);
            let imp = impact(self.ode.system(), t, q, v, &i1, self.opts.zeno_velocity, &self.opts.impact)?;
            if v.iter().any(|x| !x.is_finite()) {
                return Err(KernelError::NonFinite { t, what: "post-impact velocity", interaction: None });
            }
            // p = M (v⁺ − v⁻) = Jᵀ P, recorded per coordinate through the contact Jacobians
            for (k, &i) in i1.iter().enumerate() {
                self.impulse[i] = imp.p[k];
                rep.impulses.push((InterId(i as u32), imp.p[k]));
                if imp.zeno[k] && imp.ydot_pre[k] < -self.opts.velocity_tol {
                    rep.zeno.push(InterId(i as u32));
                }
            }
            self.accumulate_p(t, q, &i1, &imp.p)?;
            rep.impact = Some(imp.report);
            for (k, &i) in i1.iter().enumerate() {
                ydot[k] = self.relative_velocity(t, x, i)?;
            }
        }
        // updateIndexSet(2): closed with zero relative velocity, kept if the acceleration LCP
        // gives them a positive force
        let cands: Vec<usize> =
            i1.iter().zip(&ydot).filter(|(_, yd)| yd.abs() <= self.opts.velocity_tol).map(|(&i, _)| i).collect();
        let mut in_i2 = vec![false; nc];
        if !cands.is_empty() {
            let (q, v) = x.split_at(n);
            let (lam, _acc, report) = acceleration_lcp(self.ode.system(), t, q, v, &cands, &self.opts.acceleration)?;
            for (k, &i) in cands.iter().enumerate() {
                in_i2[i] = lam[k] > 0.0;
            }
            rep.acceleration = Some(report);
        }
        rep.closed = in_i2.iter().filter(|&&b| b).count();
        self.ode.system_mut().in_i2 = in_i2;
        Ok(rep)
    }

    /// Whether the model has bilateral constraints (then it has only those).
    pub(super) fn has_bilateral(&self) -> bool {
        self.ode.system().contacts.iter().any(|c| c.bilateral)
    }

    /// Projects `x` onto the bilateral constraints (see `super::bilateral`), until
    /// [`super::EventDrivenOptions::constraint_accuracy`]'s test holds (default: round-off).
    pub(super) fn project(&self, t: f64, x: &mut [f64]) -> Result<(), KernelError> {
        let n = self.ode.system().n;
        let tol = 1e-13 * x[..n].iter().fold(1.0f64, |a, v| a.max(v.abs()));
        let accuracy = self.opts.constraint_accuracy.as_ref();
        let done = |h: &[f64]| match accuracy {
            Some(a) => a.measure(h.iter().copied().enumerate()) <= a.alpha,
            None => h.iter().all(|v| v.abs() <= tol),
        };
        self.ode.system().project_bilateral(t, x, &done).map(|_| ())
    }

    fn accumulate_p(&mut self, t: f64, q: &[f64], set: &[usize], p: &[f64]) -> Result<(), KernelError> {
        let d = self.ode.system();
        let mut w = d.work.borrow_mut();
        for (k, &i) in set.iter().enumerate() {
            let c = &d.contacts[i];
            let mut jl = vec![0.0; c.idx.len()];
            d.jac(i, t, q, &mut w, &mut jl).map_err(|e| ufe(t, "impulse", e))?;
            for (a, &j) in jl.iter().zip(&c.idx) {
                self.p[j] += a * p[k];
            }
        }
        Ok(())
    }

    /// Writes `q, v, p` of the systems, `y, ẏ, λ(1)` of the interactions and `t` into `nsds`,
    /// and refreshes the contact forces `λ(2)`.
    pub(super) fn write_back(&mut self, nsds: &mut Nsds, t: f64) -> Result<(), KernelError> {
        let d = self.ode.system();
        let n = d.n;
        let (q, v) = self.x.split_at(n);
        {
            let mut w = d.work.borrow_mut();
            d.accelerations(t, q, v, &mut w).map_err(|e| ufe(t, "contact forces", e))?;
            for (l, a) in self.lambda2.iter_mut().zip(&w.accel.lambda) {
                *l = *a;
            }
        }
        let mut ys = Vec::with_capacity(d.contacts.len());
        for i in 0..d.contacts.len() {
            let y = {
                let mut w = d.work.borrow_mut();
                d.gap(i, t, q, &mut w).map_err(|e| ufe(t, "gap", e))?
            };
            ys.push((y, self.relative_velocity(t, &self.x, i)?));
        }
        let (systems, inters) = nsds.parts_mut();
        for (ds, m) in systems.iter_mut().zip(&d.ds) {
            let (qs, vs, ps) = ds.state_mut();
            qs.as_mut_slice().copy_from_slice(&q[m.off..m.off + m.n]);
            if let Some(vs) = vs {
                vs.as_mut_slice().copy_from_slice(&v[m.off..m.off + m.n]);
            }
            ps.as_mut_slice().copy_from_slice(&self.p[m.off..m.off + m.n]);
        }
        for (i, inter) in inters.iter_mut().enumerate() {
            inter.y[0][0] = ys[i].0;
            inter.y[1][0] = ys[i].1;
            inter.lambda[0][0] = self.lambda2[i];
            inter.lambda[1][0] = self.impulse[i];
        }
        nsds.set_t(t);
        Ok(())
    }
}
