//! Fixed-step semi-explicit (symplectic) Euler for `q' = N(q) u`, `u' = f(q, u)` with the state
//! `y = (q, u)` (`events-accuracy-projection.md` §7):
//! * explicit in u (first form): `u1 = u0 + h f(t0, q0, u0)`, then `q1 = q0 + h N(q0) u1`;
//! * implicit in u (second form, symplectic also when f depends on u):
//!   `u1 = u0 + h f(t0, q0, u1)` solved by Newton, then `q1 = q0 + h N(q0) u1`.
//!
//! Both halves come from the system's RHS: the `u` rows of `f(t0, (q0, ·))` and the `q` rows of
//! `f(t0, (q0, u1))` (valid because `q' = N(q) u` depends on `(q, u)` only). Dense output is
//! linear. Time is `t0 + k h` (no accumulated drift).

use nalgebra::{DMatrix, DVector};

use super::dense::{DenseKind, DenseOutput};
use super::error::OdeError;
use super::stats::OdeStats;
use super::system::{OdeSystem, UserFnError};
use super::weights::UROUND;

/// Newton settings and workspace of the implicit-in-u variant.
#[derive(Debug)]
struct ImplicitU {
    tol: f64,
    max_iter: usize,
    /// `∂G/∂u = I − h ∂f/∂u` (n_u × n_u).
    jac: DMatrix<f64>,
    full_jac: DMatrix<f64>,
    f_pert: Vec<f64>,
    y_pert: Vec<f64>,
}

/// Symplectic Euler state.
#[derive(Debug)]
pub struct SymplecticEuler {
    n_q: usize,
    h: f64,
    t0: f64,
    k: u64,
    pub(crate) t: f64,
    pub(crate) y: Vec<f64>,
    f: Vec<f64>,
    y1: Vec<f64>,
    pub(crate) dense: DenseOutput,
    implicit: Option<ImplicitU>,
}

impl SymplecticEuler {
    /// Fixed step `h`, `n_q` position coordinates, `n` states.
    pub fn new(n: usize, h: f64, n_q: usize) -> Self {
        SymplecticEuler {
            n_q,
            h,
            t0: 0.0,
            k: 0,
            t: 0.0,
            y: vec![0.0; n],
            f: vec![0.0; n],
            y1: vec![0.0; n],
            dense: DenseOutput::default(),
            implicit: None,
        }
    }

    /// The implicit-in-u variant: Newton tolerance `tol` on the correction, `max_iter`
    /// iterations per attempt.
    pub fn new_implicit(n: usize, h: f64, n_q: usize, tol: f64, max_iter: usize) -> Self {
        let nu = n - n_q;
        let mut s = Self::new(n, h, n_q);
        s.implicit = Some(ImplicitU {
            tol,
            max_iter,
            jac: DMatrix::zeros(nu, nu),
            full_jac: DMatrix::zeros(0, 0),
            f_pert: vec![0.0; n],
            y_pert: vec![0.0; n],
        });
        s
    }

    /// Starts at `(t0, y0)`.
    pub fn init(&mut self, t0: f64, y0: &[f64]) {
        self.t0 = t0;
        self.k = 0;
        self.t = t0;
        self.y.copy_from_slice(y0);
        self.dense = DenseOutput { t: t0, h: 0.0, kind: DenseKind::Linear(y0.to_vec(), y0.to_vec()) };
    }

    fn rhs<S: OdeSystem + ?Sized>(
        sys: &S,
        t: f64,
        y: &[f64],
        f: &mut [f64],
        stats: &mut OdeStats,
    ) -> Result<(), OdeError> {
        stats.rhs_evals += 1;
        sys.rhs(t, y, f).map_err(|e| OdeError::UserFn { what: "rhs", t, source: e, stats: Box::new(*stats) })?;
        if f.iter().any(|x| !x.is_finite()) {
            return Err(OdeError::NonFinite { what: "rhs", t, stats: Box::new(*stats) });
        }
        Ok(())
    }

    /// One step of size h (shortened to land on `tstop`).
    pub fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        tstop: Option<f64>,
        stats: &mut OdeStats,
    ) -> Result<(), OdeError> {
        let t = self.t;
        let mut t1 = self.t0 + (self.k + 1) as f64 * self.h;
        let mut shortened = false;
        if let Some(ts) = tstop {
            if t1 > ts && ts > t {
                t1 = ts;
                shortened = true;
            }
        }
        let h = t1 - t;
        let nq = self.n_q;
        Self::rhs(sys, t, &self.y, &mut self.f, stats)?;
        self.y1.copy_from_slice(&self.y);
        if self.implicit.is_some() {
            // Newton from u1 = u0 (where f is already evaluated)
            self.solve_u(sys, t, h, stats)?;
        } else {
            for i in nq..self.y.len() {
                self.y1[i] = self.y[i] + h * self.f[i];
            }
            Self::rhs(sys, t, &self.y1, &mut self.f, stats)?;
        }
        for i in 0..nq {
            self.y1[i] = self.y[i] + h * self.f[i];
        }
        let y0 = std::mem::replace(&mut self.y, self.y1.clone());
        stats.steps += 1;
        if shortened {
            // restart the grid at the stop time
            self.t0 = t1;
            self.k = 0;
        } else {
            self.k += 1;
        }
        self.t = t1;
        self.dense = DenseOutput { t: t1, h, kind: DenseKind::Linear(y0, self.y.clone()) };
        Ok(())
    }
}

impl SymplecticEuler {
    /// `∂G/∂u = I − h ∂f/∂u` at `(t, y1)` into the workspace, and its LU.
    fn newton_matrix<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        h: f64,
        stats: &mut OdeStats,
    ) -> Result<nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>, OdeError> {
        let (n, nq) = (self.y.len(), self.n_q);
        let Some(im) = self.implicit.as_mut() else {
            return Err(OdeError::Invalid(crate::NumericsError::InvalidOption {
                option: "method",
                reason: "not the implicit variant".into(),
            }));
        };
        stats.jac_evals += 1;
        let user_err =
            |e, stats: &OdeStats| OdeError::UserFn { what: "jacobian", t, source: e, stats: Box::new(*stats) };
        let mut analytic = false;
        if sys.has_jacobian() {
            if im.full_jac.nrows() != n {
                im.full_jac = DMatrix::zeros(n, n);
            }
            im.full_jac.fill(0.0);
            match sys.jacobian(t, &self.y1, &mut im.full_jac) {
                Ok(()) => analytic = true,
                Err(UserFnError::NotProvided) => {}
                Err(e) => return Err(user_err(e, stats)),
            }
        }
        if analytic {
            for i in 0..n - nq {
                for j in 0..n - nq {
                    im.jac[(i, j)] = im.full_jac[(nq + i, nq + j)];
                }
            }
        } else {
            // forward differences of the u rows in each u column (f = self.f at y1)
            let srur = UROUND.sqrt();
            im.y_pert.copy_from_slice(&self.y1);
            for j in nq..n {
                let d = srur * self.y1[j].abs().max(1.0);
                im.y_pert[j] = self.y1[j] + d;
                let dj = im.y_pert[j] - self.y1[j];
                stats.jac_rhs_evals += 1;
                Self::rhs(sys, t, &im.y_pert, &mut im.f_pert, stats)?;
                im.y_pert[j] = self.y1[j];
                for i in nq..n {
                    im.jac[(i - nq, j - nq)] = (im.f_pert[i] - self.f[i]) / dj;
                }
            }
        }
        if im.jac.iter().any(|x| !x.is_finite()) {
            return Err(OdeError::NonFinite { what: "jacobian", t, stats: Box::new(*stats) });
        }
        let mut m = &im.jac * (-h);
        for i in 0..n - nq {
            m[(i, i)] += 1.0;
        }
        stats.lu_decomps += 1;
        Ok(m.lu())
    }

    /// Newton for `G(u1) = u1 − u0 − h f(t, q0, u1) = 0`, starting from `y1 = y0` (with `f`
    /// evaluated there on entry; the first correction is the explicit step when f does not
    /// depend on u). On success `y1 = (q0, u1)` and `f = f(t, y1)`.
    fn solve_u<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        h: f64,
        stats: &mut OdeStats,
    ) -> Result<(), OdeError> {
        let (n, nq) = (self.y.len(), self.n_q);
        let (tol, max_iter) = match &self.implicit {
            Some(im) => (im.tol, im.max_iter),
            None => return Ok(()),
        };
        let mut rhs = DVector::zeros(n - nq);
        let mut total = 0u32;
        // one attempt with the Jacobian at the explicit predictor, one after a refresh
        for _attempt in 0..2 {
            let lu = self.newton_matrix(sys, t, h, stats)?;
            let mut prev = f64::INFINITY;
            for _ in 0..max_iter {
                total += 1;
                for i in nq..n {
                    rhs[i - nq] = -(self.y1[i] - self.y[i] - h * self.f[i]);
                }
                if !lu.solve_mut(&mut rhs) {
                    break;
                }
                let mut dnorm = 0.0f64;
                for i in nq..n {
                    self.y1[i] += rhs[i - nq];
                    dnorm = dnorm.max(rhs[i - nq].abs() / (1.0 + self.y1[i].abs()));
                }
                if !dnorm.is_finite() {
                    break;
                }
                Self::rhs(sys, t, &self.y1, &mut self.f, stats)?;
                if dnorm <= tol {
                    return Ok(());
                }
                if dnorm > 0.9 * prev && total > 1 {
                    break; // diverging or stalled: refresh the Jacobian at the current iterate
                }
                prev = dnorm;
            }
            if self.y1.iter().any(|x| !x.is_finite()) {
                break;
            }
        }
        stats.convergence_failures += 1;
        Err(OdeError::ConvergenceFailures { t, h, count: total, stats: Box::new(*stats) })
    }
}
