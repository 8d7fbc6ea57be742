//! Drift control: the mass-weighted projection of `(q, v)` onto `C(t, q) = 0` and its tangent
//! space `C_J v + C_t = 0`, through the kernel's Gauss–Newton iteration
//! ([`crate::simulation::projection::gauss_newton`]):
//! `q ← q − M⁻¹ C_Jᵀ (C_J M⁻¹ C_Jᵀ)⁻¹ C(q)` until `max_i |C_i| ≤ target`, then
//! `v ← v − M⁻¹ C_Jᵀ (C_J M⁻¹ C_Jᵀ)⁻¹ (C_J v + C_t)` (exact, one step).

use super::error::NullSpaceError;
use super::ode::NullSpaceOde;
use crate::simulation::projection::gauss_newton::{
    project_positions, project_velocities, ConstraintSet, Evaluation, GaussNewton, Level, ProjectionFailure,
};
use nalgebra::DMatrix;

/// The constraints of one projection, at the state being corrected.
pub(crate) struct DriftSet<'a> {
    ode: &'a NullSpaceOde,
    t: f64,
    pub q: Vec<f64>,
    pub v: Vec<f64>,
    target: f64,
    c: Vec<f64>,
    jac: DMatrix<f64>,
    mass: DMatrix<f64>,
    minv_jt: DMatrix<f64>,
}

impl<'a> DriftSet<'a> {
    pub fn new(ode: &'a NullSpaceOde, t: f64, q: &[f64], v: &[f64], target: f64) -> Self {
        let (n, m) = (ode.n, ode.m);
        DriftSet {
            ode,
            t,
            q: q.to_vec(),
            v: v.to_vec(),
            target,
            c: vec![0.0; m],
            jac: DMatrix::zeros(m, n),
            mass: DMatrix::zeros(n, n),
            minv_jt: DMatrix::zeros(n, m),
        }
    }
}

impl ConstraintSet for DriftSet<'_> {
    type Error = NullSpaceError;

    fn evaluate(&mut self) -> Result<Evaluation, NullSpaceError> {
        self.ode.constraint_values(self.t, &self.q, &mut self.c)?;
        let violation = self.c.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        let m = self.ode.m;
        Ok(Evaluation { rows: m, n_eq: m, violation, converged: violation <= self.target })
    }

    fn velocity_rows(&mut self) -> usize {
        self.ode.m
    }

    fn gram(&mut self, level: Level, g: &mut DMatrix<f64>, y: &mut [f64]) -> Result<(), NullSpaceError> {
        let (t, m) = (self.t, self.ode.m);
        self.ode.jacobian(t, &self.q, &mut self.jac)?;
        self.ode.mass(t, &self.q, &mut self.mass)?;
        let chol = self.mass.clone().cholesky().ok_or(NullSpaceError::Singular { t, what: "M" })?;
        self.minv_jt = chol.solve(&self.jac.transpose());
        let gram = &self.jac * &self.minv_jt;
        g.view_mut((0, 0), (m, m)).copy_from(&gram);
        match level {
            Level::Position => {
                self.ode.constraint_values(t, &self.q, &mut y[..m])?;
            }
            Level::Velocity => {
                if let Some(f) = &self.ode.model.constraints.dot_h {
                    f(t, &self.q, &mut y[..m]).map_err(|e| NullSpaceError::UserFn {
                        t,
                        what: "dot_h",
                        message: e.to_string(),
                    })?;
                } else {
                    y[..m].fill(0.0);
                }
                for (i, yi) in y[..m].iter_mut().enumerate() {
                    *yi += (0..self.ode.n).map(|c| self.jac[(i, c)] * self.v[c]).sum::<f64>();
                }
            }
        }
        Ok(())
    }

    fn correct(&mut self, level: Level, mu: &[f64]) -> Result<(), NullSpaceError> {
        let x = match level {
            Level::Position => &mut self.q,
            Level::Velocity => &mut self.v,
        };
        for (i, xi) in x.iter_mut().enumerate() {
            *xi += (0..mu.len()).map(|k| self.minv_jt[(i, k)] * mu[k]).sum::<f64>();
        }
        if x.iter().any(|v| !v.is_finite()) {
            return Err(NullSpaceError::Singular { t: self.t, what: "the projection (non-finite correction)" });
        }
        Ok(())
    }
}

/// Projects `(q, v)` in place; returns the Gauss–Newton corrections applied.
pub(crate) fn project(
    ode: &NullSpaceOde,
    t: f64,
    q: &mut [f64],
    v: &mut [f64],
    target: f64,
    max_iter: usize,
    ws: &mut GaussNewton,
) -> Result<usize, NullSpaceError> {
    let mut set = DriftSet::new(ode, t, q, v, target);
    let fail = |e: ProjectionFailure<NullSpaceError>| match e {
        ProjectionFailure::Constraints(e) => e,
        ProjectionFailure::Pivot(_) => NullSpaceError::RankDeficient { t, m: ode.m },
    };
    let out = project_positions(&mut set, ws, max_iter).map_err(fail)?;
    if !out.converged {
        return Err(NullSpaceError::ProjectionFailed { t, violation: out.violation, iterations: out.iterations });
    }
    project_velocities(&mut set, ws).map_err(fail)?;
    q.copy_from_slice(&set.q);
    v.copy_from_slice(&set.v);
    Ok(out.iterations)
}
