//! Coordinate projection onto the invariants `c(t, y) = 0` (CPODES / `events-accuracy-
//! projection.md` §6): the weighted least-squares correction
//! `Δ = −D Gᵀ (G D Gᵀ)⁻¹ c`, `D = diag(ewt²)`, `G = ∂c/∂y`, iterated (Gauss–Newton) until
//! `‖T c‖ ≤ α` with `T = diag(1 / t_i)`; and the projection of an error vector
//! `e ← e − D Gᵀ (G D Gᵀ)⁻¹ G e`.

use nalgebra::{DMatrix, DVector};

use super::options::{ErrorNorm, ProjectionOptions};
use super::stats::OdeStats;
use super::system::{OdeSystem, UserFnError};
use super::weights::wnorm;

/// Projection workspace.
#[derive(Debug)]
pub struct Projector {
    m: usize,
    n: usize,
    opts: ProjectionOptions,
    norm: ErrorNorm,
    tol: Vec<f64>,
    c: Vec<f64>,
    g: DMatrix<f64>,
    ytmp: Vec<f64>,
    ctmp: Vec<f64>,
    /// Last factorized `G D Gᵀ` and `G`, for projecting error vectors.
    a_lu: Option<nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>>,
}

type UserErr = (&'static str, f64, UserFnError);

impl Projector {
    /// Workspace for `m` constraints on `n` states.
    pub fn new(m: usize, n: usize, opts: ProjectionOptions, norm: ErrorNorm) -> Self {
        let tol = if opts.constraint_tol.len() == m { opts.constraint_tol.clone() } else { vec![0.1; m] };
        Projector {
            m,
            n,
            opts,
            norm,
            tol,
            c: vec![0.0; m],
            g: DMatrix::zeros(m, n),
            ytmp: vec![0.0; n],
            ctmp: vec![0.0; m],
            a_lu: None,
        }
    }

    /// Whether error estimates are projected too.
    pub fn project_error(&self) -> bool {
        self.opts.project_error
    }

    fn eval_c<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, y: &[f64]) -> Result<bool, UserErr> {
        match sys.constraints(t, y, &mut self.c) {
            Ok(()) => Ok(self.c.iter().all(|x| x.is_finite())),
            Err(UserFnError::Fatal(m)) => Err(("constraints", t, UserFnError::Fatal(m))),
            Err(_) => Ok(false),
        }
    }

    /// `‖T c‖` in the configured norm.
    fn cnorm(&self) -> f64 {
        wnorm(self.norm, &self.c, &self.tol)
    }

    fn eval_g<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, y: &[f64]) -> Result<bool, UserErr> {
        self.g.fill(0.0);
        match sys.constraint_jacobian(t, y, &mut self.g) {
            Ok(()) => {}
            Err(UserFnError::NotProvided) => {
                // forward differences
                self.ytmp.copy_from_slice(y);
                let c0 = self.c.clone();
                for j in 0..self.n {
                    let d = f64::EPSILON.sqrt() * y[j].abs().max(1.0);
                    self.ytmp[j] = y[j] + d;
                    match sys.constraints(t, &self.ytmp, &mut self.ctmp) {
                        Ok(()) => {}
                        Err(UserFnError::Fatal(m)) => return Err(("constraints", t, UserFnError::Fatal(m))),
                        Err(_) => return Ok(false),
                    }
                    self.ytmp[j] = y[j];
                    for i in 0..self.m {
                        self.g[(i, j)] = (self.ctmp[i] - c0[i]) / d;
                    }
                }
            }
            Err(UserFnError::Fatal(m)) => return Err(("constraint_jacobian", t, UserFnError::Fatal(m))),
            Err(UserFnError::Recoverable(_)) => return Ok(false),
        }
        Ok(self.g.iter().all(|x| x.is_finite()))
    }

    /// Projects `y` in place. Returns Ok(false) for a (recoverable) projection failure.
    pub fn project<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &mut [f64],
        ewt: &[f64],
        stats: &mut OdeStats,
    ) -> Result<bool, UserErr> {
        self.a_lu = None;
        if !self.eval_c(sys, t, y)? {
            stats.projection_failures += 1;
            return Ok(false);
        }
        let target = self.opts.alpha;
        let mut it = 0;
        loop {
            if !self.eval_g(sys, t, y)? {
                stats.projection_failures += 1;
                return Ok(false);
            }
            // A = G D Gᵀ
            let mut gd = self.g.clone();
            for j in 0..self.n {
                let d = ewt[j] * ewt[j];
                let d = if d.is_finite() { d } else { 0.0 };
                for i in 0..self.m {
                    gd[(i, j)] *= d;
                }
            }
            let a = &gd * self.g.transpose();
            let lu = a.lu();
            if self.cnorm() <= target && it > 0 {
                self.a_lu = Some(lu);
                break;
            }
            if it >= self.opts.max_iter {
                stats.projection_failures += 1;
                return Ok(false);
            }
            let mut lam = DVector::from_column_slice(&self.c);
            if !lu.solve_mut(&mut lam) {
                stats.projection_failures += 1;
                return Ok(false);
            }
            let dy = gd.transpose() * lam;
            for (yi, d) in y.iter_mut().zip(dy.iter()) {
                *yi -= d;
            }
            it += 1;
            if !self.eval_c(sys, t, y)? {
                stats.projection_failures += 1;
                return Ok(false);
            }
            self.a_lu = Some(lu);
            if self.cnorm() <= target {
                break;
            }
        }
        stats.projections += 1;
        Ok(true)
    }

    /// `e ← e − D Gᵀ (G D Gᵀ)⁻¹ G e` with the last `G` of [`Self::project`].
    pub fn project_vector(&self, e: &mut [f64], ewt: &[f64]) {
        let Some(lu) = &self.a_lu else { return };
        let ge = &self.g * DVector::from_column_slice(e);
        let Some(lam) = lu.solve(&ge) else { return };
        let gtl = self.g.transpose() * lam;
        for j in 0..self.n {
            let d = ewt[j] * ewt[j];
            if d.is_finite() {
                e[j] -= d * gtl[j];
            }
        }
    }
}
