//! Typed options of the QP solvers.

use crate::error::{NumericsError, Result};
use crate::report::IterOptions;

/// Options of the dual active-set solver `qp`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct DualActiveSetOptions {
    /// Tolerance on the KKT residual ([`super::Qp::kkt_residual`]) and cap on active-set changes
    /// (per proximal step).
    pub iter: IterOptions,
    /// Proximal weight relative to `max(1, max|Q_ij|)` used when `Q` is singular (> 0).
    pub prox_rho: f64,
    /// Cap on proximal-point steps for a singular `Q` (>= 1).
    pub max_prox: usize,
    /// Iterates with `‖x‖∞` beyond this mean an unbounded QP (> 0).
    pub unbounded_norm: f64,
}

impl Default for DualActiveSetOptions {
    fn default() -> Self {
        DualActiveSetOptions {
            iter: IterOptions::new(1e-10, 1000),
            prox_rho: 1e-6,
            max_prox: 500,
            unbounded_norm: 1e12,
        }
    }
}

impl DualActiveSetOptions {
    /// Options with the given iteration settings, other fields default.
    pub fn new(iter: IterOptions) -> Self {
        DualActiveSetOptions { iter, ..Default::default() }
    }
    /// Checks every field.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.prox_rho > 0.0 && self.prox_rho.is_finite()) {
            return Err(NumericsError::InvalidOption {
                option: "prox_rho",
                reason: format!("must be finite and > 0, got {}", self.prox_rho),
            });
        }
        if self.max_prox == 0 {
            return Err(NumericsError::InvalidOption { option: "max_prox", reason: "must be >= 1".into() });
        }
        if !(self.unbounded_norm > 0.0) {
            return Err(NumericsError::InvalidOption { option: "unbounded_norm", reason: "must be > 0".into() });
        }
        Ok(())
    }
}

/// Options of the accelerated projected-gradient solver `pg` (ConvexQP over Coulomb cones).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PgOptions {
    /// Tolerance on `‖z − P_C(z − (Mz + q))‖/‖q‖` and cap on gradient steps.
    pub iter: IterOptions,
    /// Start from the `z` given on entry instead of 0.
    pub warm_start: bool,
    /// Initial step size `1/L`; `None` estimates `L` by a few power iterations on `M`.
    pub step: Option<f64>,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions { iter: IterOptions::new(1e-8, 10_000), warm_start: false, step: None }
    }
}

impl PgOptions {
    /// Options with the given iteration settings, other fields default.
    pub fn new(iter: IterOptions) -> Self {
        PgOptions { iter, ..Default::default() }
    }
    /// Checks every field.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if let Some(s) = self.step {
            if !(s > 0.0 && s.is_finite()) {
                return Err(NumericsError::InvalidOption {
                    option: "step",
                    reason: format!("must be finite and > 0, got {s}"),
                });
            }
        }
        Ok(())
    }
}
