//! Typed options of the LCP solvers. Every struct has `Default` and `validate()`.

use crate::error::{NumericsError, Result};
use crate::report::IterOptions;

fn invalid(option: &'static str, reason: impl Into<String>) -> NumericsError {
    NumericsError::InvalidOption { option, reason: reason.into() }
}

/// Options of Lemke's complementary pivoting method.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct LemkeOptions {
    /// `tol` decides the reported status (residual `<= tol`); `max_iter` caps the pivots.
    pub iter: IterOptions,
    /// Try the basis suggested by the entry `z` (`z_i > 0` ⇒ `z_i` basic) before pivoting.
    pub warm_start: bool,
    /// Pivot entries of magnitude `<= pivot_tol` are treated as zero in the ratio test.
    pub pivot_tol: f64,
    /// Tie-breaking rule of the ratio test (lexicographic by default).
    pub tie_break: super::lemke::TieBreak,
}

impl Default for LemkeOptions {
    fn default() -> Self {
        LemkeOptions {
            iter: IterOptions::new(1e-8, 10_000),
            warm_start: false,
            pivot_tol: 1e-12,
            tie_break: super::lemke::TieBreak::Lexicographic,
        }
    }
}

impl LemkeOptions {
    /// Checks `iter` and `pivot_tol >= 0`.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.pivot_tol >= 0.0 && self.pivot_tol.is_finite()) {
            return Err(invalid("pivot_tol", format!("must be finite and >= 0, got {}", self.pivot_tol)));
        }
        Ok(())
    }
}

/// Options of projected Gauss–Seidel.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PgsOptions {
    /// Tolerance on the canonical residual and the sweep cap.
    pub iter: IterOptions,
    /// Start from the entry `z` instead of `z = 0`.
    pub warm_start: bool,
}

impl Default for PgsOptions {
    fn default() -> Self {
        PgsOptions { iter: IterOptions::new(1e-8, 10_000), warm_start: false }
    }
}

impl PgsOptions {
    /// Checks `iter`.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()
    }
}

/// Options of projected successive over-relaxation.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PsorOptions {
    /// Tolerance on the canonical residual and the sweep cap.
    pub iter: IterOptions,
    /// Start from the entry `z` instead of `z = 0`.
    pub warm_start: bool,
    /// Relaxation `ω ∈ (0, 2)`: `z_i ← max(0, (1−ω) z_i + ω ẑ_i)` with `ẑ_i` the Gauss–Seidel value.
    pub omega: f64,
}

impl Default for PsorOptions {
    fn default() -> Self {
        PsorOptions { iter: IterOptions::new(1e-8, 10_000), warm_start: false, omega: 1.2 }
    }
}

impl PsorOptions {
    /// Checks `iter` and `0 < ω < 2`.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.omega > 0.0 && self.omega < 2.0) {
            return Err(invalid("omega", format!("must lie in (0, 2), got {}", self.omega)));
        }
        Ok(())
    }
}

/// Options of the semismooth Newton methods (Fischer–Burmeister and min-map).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct NewtonOptions {
    /// Tolerance on the canonical residual and the Newton-step cap.
    pub iter: IterOptions,
    /// Start from the entry `z` instead of `z = 0`.
    pub warm_start: bool,
    /// Armijo constant `σ ∈ (0, 1)` of the line search on `θ = ½‖Φ‖²`.
    pub armijo: f64,
    /// Step reduction factor `β ∈ (0, 1)` of the backtracking.
    pub backtrack: f64,
    /// Maximum number of backtracking steps per iteration.
    pub max_line_search: usize,
}

impl Default for NewtonOptions {
    fn default() -> Self {
        NewtonOptions {
            iter: IterOptions::new(1e-8, 100),
            warm_start: false,
            armijo: 1e-4,
            backtrack: 0.5,
            max_line_search: 40,
        }
    }
}

impl NewtonOptions {
    /// Checks `iter`, `σ, β ∈ (0, 1)` and `max_line_search > 0`.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.armijo > 0.0 && self.armijo < 1.0) {
            return Err(invalid("armijo", format!("must lie in (0, 1), got {}", self.armijo)));
        }
        if !(self.backtrack > 0.0 && self.backtrack < 1.0) {
            return Err(invalid("backtrack", format!("must lie in (0, 1), got {}", self.backtrack)));
        }
        if self.max_line_search == 0 {
            return Err(invalid("max_line_search", "must be > 0"));
        }
        Ok(())
    }
}

/// Options of the enumerative solver.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct EnumOptions {
    /// `tol` decides acceptance of a candidate; `max_iter` is not used (the count is `2^n`).
    pub iter: IterOptions,
    /// Try the active set of the entry `z` first.
    pub warm_start: bool,
    /// Largest size accepted (`2^n` linear solves); larger problems are a typed error.
    pub max_size: usize,
}

impl Default for EnumOptions {
    fn default() -> Self {
        EnumOptions { iter: IterOptions::new(1e-8, 1), warm_start: false, max_size: 20 }
    }
}

impl EnumOptions {
    /// Checks `iter` and `1 <= max_size <= 30`.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if self.max_size == 0 || self.max_size > 30 {
            return Err(invalid("max_size", format!("must lie in 1..=30, got {}", self.max_size)));
        }
        Ok(())
    }
}

/// Options of the QP reformulation (symmetric positive semidefinite `M` only).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct QpLcpOptions {
    /// Tolerance on the canonical LCP residual and the cap on QP iterations.
    pub iter: IterOptions,
    /// Start the QP from the entry `z` (projected on `z >= 0`).
    pub warm_start: bool,
    /// `M` is accepted as symmetric when `|M_ij − M_ji| <= sym_tol · max|M|`.
    pub sym_tol: f64,
}

impl Default for QpLcpOptions {
    fn default() -> Self {
        QpLcpOptions { iter: IterOptions::new(1e-8, 1000), warm_start: false, sym_tol: 1e-12 }
    }
}

impl QpLcpOptions {
    /// Checks `iter` and `sym_tol >= 0`.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.sym_tol >= 0.0 && self.sym_tol.is_finite()) {
            return Err(invalid("sym_tol", format!("must be finite and >= 0, got {}", self.sym_tol)));
        }
        Ok(())
    }
}

/// `lexicographic` or `smallest_index`.
impl crate::by_name::FromText for super::lemke::TieBreak {
    fn from_text(s: &str) -> std::result::Result<Self, String> {
        match s.trim() {
            "lexicographic" => Ok(super::lemke::TieBreak::Lexicographic),
            "smallest_index" => Ok(super::lemke::TieBreak::SmallestIndex),
            _ => Err(format!("`{s}` is not lexicographic or smallest_index")),
        }
    }
}

// The options a model file sets by name (`<Lemke tol=".." …/>`): declared once here.
crate::set_by_name!(LemkeOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "pivot_tol" => pivot_tol,
    "tie_break" => tie_break,
});

crate::set_by_name!(PgsOptions { "tol" => iter.tol, "max_iter" => iter.max_iter, "warm_start" => warm_start });

crate::set_by_name!(PsorOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "omega" => omega,
});

crate::set_by_name!(NewtonOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "armijo" => armijo,
    "backtrack" => backtrack,
    "max_line_search" => max_line_search,
});

crate::set_by_name!(EnumOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "max_size" => max_size,
});

crate::set_by_name!(QpLcpOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "sym_tol" => sym_tol,
});
