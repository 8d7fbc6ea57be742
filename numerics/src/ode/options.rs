//! Typed options of the integrators, with defaults and validation.

use std::sync::Arc;

use super::sparse::SparsityPattern;
use crate::{NumericsError, Result};

/// Which integration method runs behind the stepping API.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum OdeMethod {
    /// Nordsieck Adams (orders 1–12, functional iteration) and BDF (orders 1–5, modified
    /// Newton) with LSODA's automatic stiffness switching.
    #[default]
    Lsoda,
    /// Nordsieck Adams only (functional iteration, stability-capped steps).
    Adams,
    /// Nordsieck BDF only (modified Newton).
    Bdf,
    /// Explicit Dormand–Prince 5(4) with FSAL, PI-free standard control and quartic dense output.
    Dopri5,
    /// Fixed-step semi-explicit (symplectic) Euler for `q' = N(q) u`, `u' = f(q, u)`, with the
    /// state ordered `y = (q, u)`: `u1 = u0 + h f(q0, u0)`, then `q1 = q0 + h N(q0) u1`.
    SymplecticEuler {
        /// Fixed step size.
        h: f64,
        /// Number of position coordinates `q` (the first `n_q` entries of `y`).
        n_q: usize,
    },
    /// Fixed-step symplectic Euler implicit in `u` (correct when `f` depends on `u`, e.g.
    /// damping), state `y = (q, u)`: solve `u1 = u0 + h f(t0, q0, u1)` by Newton on
    /// `G(u1) = u1 − u0 − h f(t0, q0, u1) = 0` with `∂G/∂u = I − h ∂f/∂u` (the `u` block of
    /// the system's dense Jacobian if provided, else forward differences), then
    /// `q1 = q0 + h N(q0) u1`. Newton stops when the weighted max norm of the correction
    /// `max_i |δ_i| / (1 + |u_i|)` is `≤ tol`; failing after a Jacobian refresh is
    /// [`crate::ode::OdeError::ConvergenceFailures`].
    SymplecticEulerImplicit {
        /// Fixed step size.
        h: f64,
        /// Number of position coordinates `q` (the first `n_q` entries of `y`).
        n_q: usize,
        /// Newton tolerance on the correction (e.g. 1e-12).
        tol: f64,
        /// Newton iterations per attempt (e.g. 10).
        max_iter: usize,
    },
}

/// Absolute tolerance: one value or one per component.
#[derive(Debug, Clone, PartialEq)]
pub enum Atol {
    /// Same for all components.
    Scalar(f64),
    /// One per component.
    Vector(Vec<f64>),
}

/// How the local error is measured.
#[derive(Debug, Clone, PartialEq)]
pub enum Tolerance {
    /// Classic `ewt_i = rtol |y_i| + atol_i`; the error test is `‖e / ewt‖ ≤ 1`.
    RelAbs {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: Atol,
    },
    /// The single accuracy knob α of `events-accuracy-projection.md` §5: `‖W e‖ ≤ α` with
    /// `W = diag(w_i)`. With `units`, `w_i = 1 / max(|y_i|, u_i)` refreshed at every step start
    /// (rtol = α, atol_i = α u_i, max instead of sum); otherwise `w_i = weights[i]` (default 1).
    /// A zero weight excludes the component from the test.
    Accuracy {
        /// The accuracy α in (0, 1].
        alpha: f64,
        /// Fixed per-state weights (ignored when `units` is given).
        weights: Option<Vec<f64>>,
        /// Per-state units `u_i > 0`.
        units: Option<Vec<f64>>,
    },
}

/// Vector norm used by the error test (and the projection tolerance test).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorNorm {
    /// Weighted max norm (LSODA's choice; its test constants are calibrated for it).
    #[default]
    Max,
    /// Weighted root-mean-square norm.
    Rms,
}

/// Where the Jacobian `∂f/∂y` for the BDF Newton iteration comes from, and how it is stored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum JacobianKind {
    /// The system's analytic Jacobian when it provides one, else dense finite differences
    /// (`n` extra RHS evaluations per Jacobian).
    #[default]
    Auto,
    /// Dense finite differences even if an analytic Jacobian exists.
    FiniteDifference,
    /// Sparse (banded) Jacobian for large systems with local coupling: finite differences with
    /// column grouping (`ml + mu + 1` RHS evaluations per Jacobian instead of `n`), band storage
    /// and a banded LU with partial pivoting (`O(n (ml + mu)²)` work, `O(n (ml + mu))` memory).
    Banded {
        /// Lower bandwidth.
        ml: usize,
        /// Upper bandwidth.
        mu: usize,
    },
    /// General sparse Jacobian with the given pattern (its dimension must be the system's):
    /// the system's [`crate::ode::OdeSystem::sparse_jacobian`] when it provides one, else
    /// finite differences with Curtis–Powell–Reid column grouping (one RHS evaluation per
    /// colour). `P = I − h l0 J` is factored by faer's sparse LU: the symbolic analysis once,
    /// only the numeric factorization on each refactorization, always sequential.
    Sparse(Arc<SparsityPattern>),
}

/// Options of [`crate::ode::Integrator`].
#[derive(Debug, Clone, PartialEq)]
pub struct OdeOptions {
    /// Method.
    pub method: OdeMethod,
    /// Error tolerance.
    pub tolerance: Tolerance,
    /// Error norm (default: `Max` for rtol/atol, as LSODA; choose `Rms` for the α knob).
    pub norm: ErrorNorm,
    /// Jacobian source.
    pub jacobian: JacobianKind,
    /// Initial step (None: estimated).
    pub h0: Option<f64>,
    /// Smallest step magnitude allowed (0: none beyond roundoff).
    pub hmin: f64,
    /// Largest step magnitude (infinite by default).
    pub hmax: f64,
    /// Maximum accepted steps per `step_until` call.
    pub max_steps: u64,
    /// Maximum Adams order (1..=12).
    pub max_order_adams: usize,
    /// Maximum BDF order (1..=5).
    pub max_order_bdf: usize,
    /// A time the integrator must not step past (like LSODA's `tcrit`).
    pub tcrit: Option<f64>,
    /// Projection onto `c(t, y) = 0` after each accepted step (requires constraints).
    pub projection: Option<ProjectionOptions>,
    /// Extra sampling of root functions inside each step to catch pairs of roots (grazing):
    /// a quadratic through `g` at the ends and middle of the step is checked for a hidden zero.
    pub root_sampling: bool,
}

/// Options of the coordinate projection (`events-accuracy-projection.md` §6).
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectionOptions {
    /// Per-constraint tolerances `t_i` (`‖T c‖ ≤ α` with `T = diag(1/t_i)`); empty: 0.1 each.
    pub constraint_tol: Vec<f64>,
    /// Accuracy α multiplying the constraint tolerances (default 1e-10).
    pub alpha: f64,
    /// Maximum Gauss–Newton iterations per projection.
    pub max_iter: usize,
    /// Also project the local error estimate before the error test.
    pub project_error: bool,
}

impl Default for ProjectionOptions {
    fn default() -> Self {
        ProjectionOptions { constraint_tol: Vec::new(), alpha: 1e-10, max_iter: 4, project_error: true }
    }
}

impl Default for OdeOptions {
    fn default() -> Self {
        OdeOptions {
            method: OdeMethod::Lsoda,
            tolerance: Tolerance::RelAbs { rtol: 1e-6, atol: Atol::Scalar(1e-6) },
            norm: ErrorNorm::Max,
            jacobian: JacobianKind::Auto,
            h0: None,
            hmin: 0.0,
            hmax: f64::INFINITY,
            max_steps: 500_000,
            max_order_adams: 12,
            max_order_bdf: 5,
            tcrit: None,
            projection: None,
            root_sampling: true,
        }
    }
}

fn bad(option: &'static str, reason: impl Into<String>) -> NumericsError {
    NumericsError::InvalidOption { option, reason: reason.into() }
}

impl OdeOptions {
    /// Shorthand: rtol/atol with scalar atol, everything else default.
    pub fn with_tol(rtol: f64, atol: f64) -> Self {
        OdeOptions { tolerance: Tolerance::RelAbs { rtol, atol: Atol::Scalar(atol) }, ..Default::default() }
    }

    /// Checks ranges and, for vector options, the length against `n` states.
    pub fn validate(&self, n: usize) -> Result<()> {
        match &self.tolerance {
            Tolerance::RelAbs { rtol, atol } => {
                if !(rtol.is_finite() && *rtol >= 0.0) {
                    return Err(bad("rtol", format!("must be finite and >= 0, got {rtol}")));
                }
                match atol {
                    Atol::Scalar(a) => {
                        if !(a.is_finite() && *a >= 0.0) || (*a == 0.0 && *rtol == 0.0) {
                            return Err(bad("atol", format!("must be >= 0 and rtol, atol not both 0, got {a}")));
                        }
                    }
                    Atol::Vector(v) => {
                        crate::error::check_len("atol", n, v.len())?;
                        if v.iter().any(|a| !(a.is_finite() && *a >= 0.0) || (*a == 0.0 && *rtol == 0.0)) {
                            return Err(bad("atol", "entries must be finite, >= 0, and > 0 where rtol is 0"));
                        }
                    }
                }
            }
            Tolerance::Accuracy { alpha, weights, units } => {
                if !(*alpha > 0.0 && *alpha <= 1.0) {
                    return Err(bad("alpha", format!("must be in (0, 1], got {alpha}")));
                }
                if let Some(w) = weights {
                    crate::error::check_len("weights", n, w.len())?;
                    if w.iter().any(|x| !(x.is_finite() && *x >= 0.0)) {
                        return Err(bad("weights", "must be finite and >= 0"));
                    }
                }
                if let Some(u) = units {
                    crate::error::check_len("units", n, u.len())?;
                    if u.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
                        return Err(bad("units", "must be finite and > 0"));
                    }
                }
            }
        }
        if !(1..=12).contains(&self.max_order_adams) {
            return Err(bad("max_order_adams", "must be in 1..=12"));
        }
        if !(1..=5).contains(&self.max_order_bdf) {
            return Err(bad("max_order_bdf", "must be in 1..=5"));
        }
        if !(self.hmin >= 0.0 && self.hmin.is_finite()) {
            return Err(bad("hmin", "must be finite and >= 0"));
        }
        if self.hmax.partial_cmp(&self.hmin) != Some(std::cmp::Ordering::Greater) {
            return Err(bad("hmax", "must be > hmin"));
        }
        if let Some(h0) = self.h0 {
            if !(h0.is_finite() && h0 != 0.0) {
                return Err(bad("h0", "must be finite and nonzero"));
            }
        }
        if self.max_steps == 0 {
            return Err(bad("max_steps", "must be > 0"));
        }
        if let OdeMethod::SymplecticEuler { h, n_q } | OdeMethod::SymplecticEulerImplicit { h, n_q, .. } = self.method {
            if !(h.is_finite() && h > 0.0) {
                return Err(bad("method.h", "must be finite and > 0"));
            }
            if n_q > n {
                return Err(bad("method.n_q", format!("{n_q} exceeds the state size {n}")));
            }
        }
        if let OdeMethod::SymplecticEulerImplicit { tol, max_iter, .. } = self.method {
            if !(tol.is_finite() && tol > 0.0) || max_iter == 0 {
                return Err(bad("method", "Newton tol must be finite and > 0, max_iter >= 1"));
            }
        }
        match &self.jacobian {
            JacobianKind::Banded { ml, mu } if *ml >= n.max(1) || *mu >= n.max(1) => {
                return Err(bad("jacobian", "bandwidths must be < n"));
            }
            JacobianKind::Sparse(p) => crate::error::check_len("jacobian sparsity pattern dimension", n, p.dim())?,
            _ => {}
        }
        if let Some(p) = &self.projection {
            if !(p.alpha > 0.0 && p.alpha.is_finite()) || p.max_iter == 0 {
                return Err(bad("projection", "alpha must be > 0 and max_iter >= 1"));
            }
            if p.constraint_tol.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
                return Err(bad("projection.constraint_tol", "must be finite and > 0"));
            }
        }
        Ok(())
    }
}
