//! Error weights `ewt_i` and the weighted norms `‖v‖ = max_i |v_i| / ewt_i` or
//! `sqrt(mean (v_i / ewt_i)²)`.

use super::options::{Atol, ErrorNorm, Tolerance};

/// Machine epsilon (unit roundoff of f64 arithmetic, ODEPACK's `uround`).
pub const UROUND: f64 = f64::EPSILON;

/// Fills `ewt` for the state `y` (see [`Tolerance`]). Returns false if a weight is not positive
/// (the error test would be meaningless).
pub fn fill_ewt(tol: &Tolerance, y: &[f64], ewt: &mut [f64]) -> bool {
    match tol {
        Tolerance::RelAbs { rtol, atol } => match atol {
            Atol::Scalar(a) => {
                for (e, yi) in ewt.iter_mut().zip(y) {
                    *e = rtol * yi.abs() + a;
                }
            }
            Atol::Vector(v) => {
                for ((e, yi), a) in ewt.iter_mut().zip(y).zip(v) {
                    *e = rtol * yi.abs() + a;
                }
            }
        },
        Tolerance::Accuracy { alpha, weights, units } => {
            for (i, (e, yi)) in ewt.iter_mut().zip(y).enumerate() {
                *e = if let Some(u) = units {
                    alpha * yi.abs().max(u[i])
                } else {
                    let w = weights.as_ref().map_or(1.0, |w| w[i]);
                    if w == 0.0 {
                        f64::INFINITY
                    } else {
                        alpha / w
                    }
                };
            }
        }
    }
    ewt.iter().all(|e| *e > 0.0 && !e.is_nan())
}

/// The representative relative tolerance (rtol or α), used for the initial step.
pub fn rel_tol(tol: &Tolerance) -> f64 {
    match tol {
        Tolerance::RelAbs { rtol, .. } => *rtol,
        Tolerance::Accuracy { alpha, .. } => *alpha,
    }
}

/// Weighted norm of `v`.
pub fn wnorm(norm: ErrorNorm, v: &[f64], ewt: &[f64]) -> f64 {
    match norm {
        ErrorNorm::Max => v.iter().zip(ewt).fold(0.0, |m, (x, w)| m.max((x / w).abs())),
        ErrorNorm::Rms => {
            if v.is_empty() {
                return 0.0;
            }
            let s: f64 = v.iter().zip(ewt).map(|(x, w)| (x / w) * (x / w)).sum();
            (s / v.len() as f64).sqrt()
        }
    }
}

/// Weighted norm of the difference `a − b`.
pub fn wnorm_diff(norm: ErrorNorm, a: &[f64], b: &[f64], ewt: &[f64]) -> f64 {
    match norm {
        ErrorNorm::Max => a.iter().zip(b).zip(ewt).fold(0.0, |m, ((x, y), w)| m.max(((x - y) / w).abs())),
        ErrorNorm::Rms => {
            if a.is_empty() {
                return 0.0;
            }
            let s: f64 = a.iter().zip(b).zip(ewt).map(|((x, y), w)| ((x - y) / w).powi(2)).sum();
            (s / a.len() as f64).sqrt()
        }
    }
}
