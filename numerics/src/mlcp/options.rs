//! Typed options of the MLCP solvers.

use crate::error::{NumericsError, Result};
use crate::report::IterOptions;

/// Options of the enumeration (direct) solver.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct EnumOptions {
    /// Accept a candidate when the Siconos MLCP error is `<= tol` (> 0).
    pub tol: f64,
    /// Refuse problems with more complementarity rows than this (the method visits up to
    /// `2^m` active sets). At most 40.
    pub max_comp: usize,
    /// Start the search from the active set `{i : z_i > 0}` of the `z` given on entry.
    pub warm_start: bool,
}

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions { tol: 1e-8, max_comp: 20, warm_start: false }
    }
}

impl EnumOptions {
    /// Options with tolerance `tol`, other fields default.
    pub fn with_tol(tol: f64) -> Self {
        EnumOptions { tol, ..Default::default() }
    }
    /// Checks `tol > 0` and `1 <= max_comp <= 40`.
    pub fn validate(&self) -> Result<()> {
        IterOptions::new(self.tol, 1).validate()?;
        if self.max_comp == 0 || self.max_comp > 40 {
            return Err(NumericsError::InvalidOption {
                option: "max_comp",
                reason: format!("must be in 1..=40, got {}", self.max_comp),
            });
        }
        Ok(())
    }
}

/// Options of projected Gauss–Seidel.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct PgsOptions {
    /// Tolerance on the Siconos MLCP error and cap on sweeps.
    pub iter: IterOptions,
    /// Start from the `z` given on entry instead of 0.
    pub warm_start: bool,
}

impl PgsOptions {
    /// Options with the given iteration settings.
    pub fn new(iter: IterOptions) -> Self {
        PgsOptions { iter, warm_start: false }
    }
    /// Checks the iteration options.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()
    }
}

/// Options of the semismooth Newton method on the Fischer–Burmeister reformulation.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct NewtonFbOptions {
    /// Tolerance on the Siconos MLCP error and cap on Newton steps.
    pub iter: IterOptions,
    /// Start from the `z` given on entry instead of 0.
    pub warm_start: bool,
    /// Armijo sufficient-decrease constant `σ ∈ (0, 1/2)`.
    pub armijo: f64,
    /// Maximum step halvings per line search (>= 1).
    pub max_backtracks: usize,
}

impl Default for NewtonFbOptions {
    fn default() -> Self {
        NewtonFbOptions { iter: IterOptions::new(1e-8, 100), warm_start: false, armijo: 1e-4, max_backtracks: 40 }
    }
}

impl NewtonFbOptions {
    /// Options with the given iteration settings, other fields default.
    pub fn new(iter: IterOptions) -> Self {
        NewtonFbOptions { iter, ..Default::default() }
    }
    /// Checks the iteration options, `0 < armijo < 0.5` and `max_backtracks >= 1`.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.armijo > 0.0 && self.armijo < 0.5) {
            return Err(NumericsError::InvalidOption {
                option: "armijo",
                reason: format!("must be in (0, 0.5), got {}", self.armijo),
            });
        }
        if self.max_backtracks == 0 {
            return Err(NumericsError::InvalidOption { option: "max_backtracks", reason: "must be >= 1".into() });
        }
        Ok(())
    }
}

/// Options of Lemke's method on the Schur-complement LCP.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct LemkeOptions {
    /// The answer is `Converged` when its Siconos MLCP error is `<= tol` (> 0).
    pub tol: f64,
    /// Cap on complementary pivots (>= 1).
    pub max_pivots: usize,
}

impl Default for LemkeOptions {
    fn default() -> Self {
        LemkeOptions { tol: 1e-8, max_pivots: 10_000 }
    }
}

impl LemkeOptions {
    /// Options with tolerance `tol`, other fields default.
    pub fn with_tol(tol: f64) -> Self {
        LemkeOptions { tol, ..Default::default() }
    }
    /// Checks `tol > 0` and `max_pivots >= 1`.
    pub fn validate(&self) -> Result<()> {
        IterOptions::new(self.tol, self.max_pivots).validate()
    }
}

crate::set_by_name!(EnumOptions {
    "tol" => tol,
    "warm_start" => warm_start,
    "max_comp" => max_comp,
} extra ["max_iter"] => enum_max_iter);

/// `max_iter` of the enumeration: read (an integer, as Siconos's `iparam[0]`, which the Siconos
/// scripts set on every solver) but without effect: the enumeration visits at most `2^max_comp`
/// active sets, its only cap.
fn enum_max_iter(_: &mut EnumOptions, _: &str, value: &str) -> std::result::Result<bool, String> {
    <usize as crate::by_name::FromText>::from_text(value).map(|_| true)
}

crate::set_by_name!(PgsOptions { "tol" => iter.tol, "max_iter" => iter.max_iter, "warm_start" => warm_start });

crate::set_by_name!(NewtonFbOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "armijo" => armijo,
    "max_backtracks" => max_backtracks,
});

crate::set_by_name!(LemkeOptions { "tol" => tol, "max_iter" => max_pivots });
