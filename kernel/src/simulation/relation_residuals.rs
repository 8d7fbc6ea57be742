//! The relation residuals of the Newton loop (Siconos `setComputeResiduY` / `setComputeResiduR`)
//! for the nonlinear first-order relations.
//!
//! Each Newton iteration solves the one-step problem with the relations linearized at the
//! iterate `(x_i, λ_i)`: `ŷ = h_i + C (x − x_i) + D (λ − λ_i)` and
//! `r̂ = g_i + K (x − x_i) + B (λ − λ_i)`. At the new iterate `(x_{i+1}, λ_{i+1})` the residuals
//! `‖h(x_{i+1}, λ_{i+1}) − ŷ‖₂` and `‖g(x_{i+1}, λ_{i+1}) − r̂‖₂` vanish exactly when the
//! linearization no longer changes anything, i.e. at a solution of the nonlinear step.

use super::interaction_work::{gather, params, state, InterWork};
use super::osi::user_err;
use super::time_stepping::TimeStepping;
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::interaction::Interaction;
use crate::model::nsds::Nsds;
use crate::model::relation::Relation;
use crate::model::userfn::check_finite_out;

impl InterWork {
    /// `(‖h(x_{i+1}, λ_{i+1}) − ŷ‖₂, ‖g(x_{i+1}, λ_{i+1}) − r̂‖₂)` of a nonlinear first-order
    /// relation (`(0, 0)` for the others), after `update_output` put `h(x_{i+1}, ·)` in `y[0]`;
    /// `g` is evaluated only when `want_r`.
    pub fn newton_residuals(
        &mut self,
        inter: &Interaction,
        systems: &[DynamicalSystem],
        t: f64,
        want_r: bool,
    ) -> Result<(f64, f64), KernelError> {
        let nonlinear_fo = matches!(
            inter.relation,
            Relation::FirstOrderType1(_) | Relation::FirstOrderType2(_) | Relation::FirstOrderNonLinear(_)
        );
        if !nonlinear_fo {
            return Ok((0.0, 0.0));
        }
        let id = self.id.index() as u32;
        let x = gather(&mut self.xbuf, systems, self.ds, state);
        self.dx.as_mut_slice().copy_from_slice(x);
        self.dx -= &self.x_lin;
        self.dl.copy_from(&self.lambda);
        self.dl -= &self.lambda_i;
        // y[0] − ŷ = h(x_{i+1}, λ_{i+1}) − h_i − C Δx − D Δλ
        self.dy.copy_from(&self.y[0]);
        self.dy -= &self.y_lin;
        self.dy.gemv(-1.0, &self.jac, &self.dx, 1.0);
        if self.has_d {
            self.dy.gemv(-1.0, &self.d, &self.dl, 1.0);
        }
        let ry = self.dy.norm();
        if !want_r {
            return Ok((ry, 0.0));
        }
        let l = self.lambda.as_slice();
        let out = self.g_chk.as_mut_slice();
        match &inter.relation {
            Relation::FirstOrderNonLinear(r) => (r.g)(t, x, l, out).map_err(user_err(t, "g(x, λ)", id))?,
            Relation::FirstOrderType2(r) => (r.g)(t, l, out).map_err(user_err(t, "g(λ)", id))?,
            Relation::FirstOrderType1(r) => {
                let z = gather(&mut self.vbuf, systems, self.ds, params);
                (r.g)(t, l, z, out).map_err(user_err(t, "g(λ, z)", id))?
            }
            _ => {}
        }
        check_finite_out(self.g_chk.as_slice()).map_err(user_err(t, "relation function", id))?;
        // g(x_{i+1}, λ_{i+1}) − r̂, with r_lin = g_i − B λ_i
        self.g_chk -= &self.r_lin;
        self.g_chk.gemv(-1.0, &self.bmat, &self.lambda, 1.0);
        if matches!(inter.relation, Relation::FirstOrderNonLinear(_)) {
            self.g_chk.gemv(-1.0, &self.k, &self.dx, 1.0);
        }
        Ok((ry, self.g_chk.norm()))
    }
}

impl TimeStepping {
    /// The largest output and input residuals over the linked interactions (see
    /// [`InterWork::newton_residuals`]).
    pub(super) fn relation_residuals(&mut self, nsds: &Nsds, t1: f64, want_r: bool) -> Result<(f64, f64), KernelError> {
        let (mut ry, mut rr) = (0.0f64, 0.0f64);
        let (iws, systems) = (&mut self.iws, nsds.systems());
        for iw in iws.iter_mut() {
            let Some(inter) = nsds.interaction(iw.id).filter(|_| nsds.is_linked(iw.id)) else {
                continue;
            };
            let (y, r) = iw.newton_residuals(inter, systems, t1, want_r)?;
            ry = ry.max(y);
            rr = rr.max(r);
        }
        Ok((ry, rr))
    }
}
