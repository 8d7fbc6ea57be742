//! The constraint tolerances of the Simmath accuracy (`events-accuracy-projection.md` §5):
//! a projection onto the constraints `c(q) = 0` stops when `‖T c‖ ≤ α`, `T = diag(1/t_i)`,
//! in the RMS norm (default) or the max norm. Used as the stopping test of the time-stepping
//! projection ([`crate::ProjectionOptions::accuracy`]) and of the event-driven projection of
//! bilateral constraints ([`crate::EventDrivenOptions::constraint_accuracy`]).

use crate::error::KernelError;
use saltus_numerics::ode::ErrorNorm;

/// The Simmath default tolerance `t_i` of a constraint.
pub const DEFAULT_CONSTRAINT_TOL: f64 = 0.1;

/// Constraint accuracy: `‖T c‖ ≤ α` with `T = diag(1/t_i)`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintAccuracy {
    /// The accuracy α in (0, 1].
    pub alpha: f64,
    /// Tolerance `t_i > 0` per constraint row (in the order the simulation documents): empty
    /// for [`DEFAULT_CONSTRAINT_TOL`] on every row, one value for every row, or one per row.
    pub tol: Vec<f64>,
    /// RMS (Simmath's default) or max norm.
    pub norm: ErrorNorm,
}

impl ConstraintAccuracy {
    /// `t_i` of row `i`.
    pub fn tol_of(&self, i: usize) -> f64 {
        match self.tol.len() {
            0 => DEFAULT_CONSTRAINT_TOL,
            1 => self.tol[0],
            _ => self.tol[i],
        }
    }

    /// `‖T c‖` over the rows `(i, c_i)`.
    pub fn measure(&self, rows: impl Iterator<Item = (usize, f64)>) -> f64 {
        let (mut acc, mut n) = (0.0f64, 0usize);
        for (i, c) in rows {
            let s = c / self.tol_of(i);
            n += 1;
            match self.norm {
                ErrorNorm::Max => acc = acc.max(s.abs()),
                ErrorNorm::Rms => acc += s * s,
            }
        }
        match self.norm {
            ErrorNorm::Max => acc,
            ErrorNorm::Rms if n == 0 => 0.0,
            ErrorNorm::Rms => (acc / n as f64).sqrt(),
        }
    }

    /// α in (0, 1], every `t_i` finite and > 0, and 0, 1 or `n_rows` of them.
    pub fn validate(&self, n_rows: usize) -> Result<(), KernelError> {
        let bad = |reason: String| KernelError::InvalidOption { option: "constraint_accuracy", reason };
        if !(self.alpha > 0.0 && self.alpha <= 1.0) {
            return Err(bad(format!("alpha must be in (0, 1], got {}", self.alpha)));
        }
        if let Some(t) = self.tol.iter().find(|t| !(t.is_finite() && **t > 0.0)) {
            return Err(bad(format!("constraint tolerances must be finite and > 0, got {t}")));
        }
        if self.tol.len() > 1 && self.tol.len() != n_rows {
            return Err(bad(format!(
                "{} constraint tolerances for {n_rows} constraint rows (give one value, or one per row)",
                self.tol.len()
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measure_and_validate() {
        let a = ConstraintAccuracy { alpha: 1e-3, tol: vec![0.5, 2.0], norm: ErrorNorm::Rms };
        let m = a.measure([(0, 1.0), (1, -4.0)].into_iter());
        assert!((m - ((4.0 + 4.0) / 2.0f64).sqrt()).abs() < 1e-15);
        let a = ConstraintAccuracy { norm: ErrorNorm::Max, ..a };
        assert_eq!(a.measure([(0, 0.25), (1, -1.0)].into_iter()), 0.5);
        assert!(a.validate(2).is_ok() && a.validate(3).is_err());
        let d = ConstraintAccuracy { alpha: 1e-3, tol: vec![], norm: ErrorNorm::Max };
        assert!((d.measure([(7, 0.01)].into_iter()) - 0.1).abs() < 1e-15);
        assert!(ConstraintAccuracy { alpha: 0.0, ..d.clone() }.validate(1).is_err());
        assert!(ConstraintAccuracy { tol: vec![-1.0], ..d }.validate(1).is_err());
    }
}
