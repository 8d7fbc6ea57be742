//! Time stepping with direct projection (Siconos `TimeSteppingDirectProjection`): after the
//! Moreau–Jean step, the positions are projected onto the violated unilateral constraints.
//!
//! Projection problem (position level): with `G = H W⁻¹ Hᵀ` over the constraints whose gap
//! `y₀ < −tol`, find `μ` with `0 ≤ y₀ + G μ ⊥ μ ≥ 0`, then `q ← q + W⁻¹ Hᵀ μ`; repeated
//! (relations re-evaluated) until `max(0, −y₀) ≤ tol` or `max_iter`. Velocities are not changed.

use super::osi::Osi;
use super::osnsp::Osnsp;
use super::report::{ProjectionReport, StepReport};
use super::time_stepping::TimeStepping;
use crate::error::KernelError;
use crate::model::nsds::Nsds;
use crate::solvers::lcp::{self, Lcp, LcpSolver, LcpSolverState};
use nalgebra::{DMatrix, DVector};
use saltus_numerics::Operator;

/// Options of the position projection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectionOptions {
    /// Accepted constraint violation `max(0, −y₀)`.
    pub tol: f64,
    /// Projection iterations per step (1 is exact for linear relations).
    pub max_iter: usize,
}

impl Default for ProjectionOptions {
    fn default() -> Self {
        ProjectionOptions {
            tol: 1e-10,
            max_iter: 10,
        }
    }
}

/// Moreau–Jean time stepping followed by a projection of the positions.
pub struct TimeSteppingDirectProjection {
    inner: TimeStepping,
    options: ProjectionOptions,
    solver: LcpSolver,
    state: LcpSolverState,
}

impl TimeSteppingDirectProjection {
    /// As [`TimeStepping::new`], Moreau–Jean only; the projection uses the LCP solver of `osnsp`
    /// (Lemke for other problems).
    pub fn new(
        nsds: &Nsds,
        h: f64,
        osi: Osi,
        osnsp: Osnsp,
        options: ProjectionOptions,
    ) -> Result<Self, KernelError> {
        if !matches!(osi, Osi::MoreauJean { .. }) {
            return Err(KernelError::InvalidOption {
                option: "osi",
                reason: "direct projection needs MoreauJeanOSI".into(),
            });
        }
        if options.tol.is_nan() || options.tol <= 0.0 || options.max_iter == 0 {
            return Err(KernelError::InvalidOption {
                option: "projection",
                reason: "tol must be > 0 and max_iter > 0".into(),
            });
        }
        let solver = match &osnsp {
            Osnsp::Lcp(s) => *s,
            _ => LcpSolver::Lemke(Default::default()),
        };
        let inner = TimeStepping::new(nsds, h, osi, osnsp)?;
        Ok(TimeSteppingDirectProjection {
            inner,
            options,
            solver,
            state: LcpSolverState::default(),
        })
    }

    /// The underlying time stepping.
    pub fn time_stepping(&self) -> &TimeStepping {
        &self.inner
    }

    /// As [`TimeStepping::run`]: steps until `t_k` reaches `until`, calling `f` after each step.
    pub fn run(
        &mut self,
        nsds: &mut Nsds,
        until: f64,
        f: &mut impl FnMut(&Nsds, &StepReport),
    ) -> Result<u64, KernelError> {
        let (h, k) = (self.inner.h(), self.inner.k());
        let t0 = self.inner.t() - k as f64 * h;
        let total = ((until - t0) / h).round().max(0.0) as u64;
        let mut done = 0;
        while self.inner.k() < total {
            let rep = self.step(nsds)?;
            f(nsds, &rep);
            done += 1;
        }
        Ok(done)
    }

    /// One Moreau–Jean step, then the projection.
    pub fn step(&mut self, nsds: &mut Nsds) -> Result<StepReport, KernelError> {
        let mut rep = self.inner.step(nsds)?;
        rep.projection = Some(self.project(nsds, rep.t)?);
        Ok(rep)
    }

    fn project(&mut self, nsds: &mut Nsds, t: f64) -> Result<ProjectionReport, KernelError> {
        let tol = self.options.tol;
        let ts = &mut self.inner;
        let mut report = ProjectionReport {
            iterations: 0,
            violation: 0.0,
            active: 0,
        };
        for it in 0..self.options.max_iter {
            let viol: Vec<usize> = nsds
                .interactions()
                .iter()
                .enumerate()
                .filter(|(_, i)| i.law.is_unilateral() && i.relation.is_lagrangian())
                .filter(|(k, _)| ts.iws[*k].y[0][0] < -tol)
                .map(|(k, _)| k)
                .collect();
            report.violation = viol.iter().map(|&k| -ts.iws[k].y[0][0]).fold(0.0, f64::max);
            if viol.is_empty() {
                break;
            }
            report.iterations = it + 1;
            report.active = viol.len();
            // G = H W⁻¹ Hᵀ on the normal components
            for &k in &viol {
                ts.iws[k].force_winv_b(&ts.dsw, t)?;
            }
            let n = viol.len();
            let mut g = DMatrix::zeros(n, n);
            for (a, &ka) in viol.iter().enumerate() {
                for (b, &kb) in viol.iter().enumerate() {
                    let (ia, ib) = (&ts.iws[ka], &ts.iws[kb]);
                    for d in std::iter::once(ia.ds.0).chain(ia.ds.1) {
                        if let (Some((ca, na)), Some((cb, _))) = (ia.block_of(d), ib.block_of(d)) {
                            g[(a, b)] += (ia.jac.view((0, ca), (1, na))
                                * ib.winv_b.view((cb, 0), (na, 1)))[(0, 0)];
                        }
                    }
                }
            }
            let q: Vec<f64> = viol.iter().map(|&k| ts.iws[k].y[0][0]).collect();
            let problem = Lcp::new(Operator::Dense(g), q)
                .map_err(|source| KernelError::Numerics { t, source })?;
            let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
            lcp::solve_with(&mut self.state, &problem, &mut z, &mut w, &self.solver)
                .map_err(|source| KernelError::Numerics { t, source })?;
            if z.iter().any(|v: &f64| !v.is_finite()) {
                return Err(KernelError::NonFinite {
                    t,
                    what: "projection multiplier",
                    interaction: None,
                });
            }
            // q += W⁻¹ Hᵀ μ
            let (systems, _) = nsds.parts_mut();
            for (a, &k) in viol.iter().enumerate() {
                let iw = &ts.iws[k];
                for (d, off, nd) in [(Some(iw.ds.0), 0, iw.n1), (iw.ds.1, iw.n1, iw.n2)] {
                    let Some(d) = d else { continue };
                    let (q, _, _) = systems[d.index()].state_mut();
                    let dq: DVector<f64> = iw.winv_b.view((off, 0), (nd, 1)).column(0) * z[a];
                    *q += dq;
                }
            }
            ts.refresh_outputs(nsds, t)?;
        }
        Ok(report)
    }
}
