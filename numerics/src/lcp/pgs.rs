//! Projected Gauss–Seidel and projected SOR, on dense and sparse block storage.
//!
//! Sweep over rows `i`: `ẑ_i = max(0, z_i − w_i / M_ii)` with `w_i = (M z)_i + q_i` using the
//! already updated entries, then `z_i ← max(0, (1 − ω) z_i + ω ẑ_i)` (`ω = 1`: PGS).
//! The canonical residual [`super::lcp_error`] is the stopping test after every sweep (on sparse
//! storage first on the sweep's Gauss–Seidel estimate of `w`, then confirmed on the exact `w`).

use super::{lcp_error_zw, Lcp, Outcome};
use crate::error::{NumericsError, Result};
use crate::report::{FailReason, IterOptions};

/// Runs PGS (`omega = 1`) or PSOR. A zero (or negative) diagonal entry is a typed error
/// (`Singular` at that row), since the row update divides by it.
pub(crate) fn solve(lcp: &Lcp, z: &mut [f64], omega: f64, it: IterOptions, w: &mut Vec<f64>) -> Result<Outcome> {
    let m = lcp.m();
    let q = lcp.q();
    let n = q.len();
    // inverse diagonal, stored at the end of the scratch vector
    w.clear();
    w.resize(2 * n, 0.0);
    let (wv, inv_diag) = w.split_at_mut(n);
    let mut d = [0.0];
    for (i, v) in inv_diag.iter_mut().enumerate() {
        m.diag_block(i, 1, &mut d);
        if !(d[0] > 0.0) {
            return Err(NumericsError::Singular { what: "diagonal of M (PGS needs M_ii > 0)", index: i });
        }
        *v = 1.0 / d[0];
    }
    let q_norm = super::error::norm(q);
    let mut sweeps = 0;
    if let crate::matrix::Operator::Dense(a) = m {
        // Dense: keep w = M z + q current by column updates (contiguous in column-major).
        wv.copy_from_slice(q);
        m.matvec_add(1.0, z, wv);
        while sweeps < it.max_iter {
            sweeps += 1;
            for i in 0..n {
                let zi_gs = (z[i] - wv[i] * inv_diag[i]).max(0.0);
                let zi = if omega == 1.0 { zi_gs } else { ((1.0 - omega) * z[i] + omega * zi_gs).max(0.0) };
                let delta = zi - z[i];
                if delta != 0.0 {
                    z[i] = zi;
                    for (wk, mk) in wv.iter_mut().zip(a.column(i).iter()) {
                        *wk += delta * mk;
                    }
                }
            }
            if z.iter().any(|v| !v.is_finite()) {
                return Ok(Outcome { iterations: sweeps, failure: Some(FailReason::NonFinite) });
            }
            if lcp_error_zw(z, wv, q_norm) <= it.tol {
                // confirm on a freshly computed w (no accumulated round-off)
                wv.copy_from_slice(q);
                m.matvec_add(1.0, z, wv);
                if lcp_error_zw(z, wv, q_norm) <= it.tol {
                    break;
                }
            }
        }
        return Ok(Outcome { iterations: sweeps, failure: None });
    }
    // Sparse (1 × 1 blocks, as `Lcp::new` guarantees): row sweeps on the scalar CSR arrays. The
    // sweep leaves the Gauss–Seidel estimate `w_i = Σ_{j<i} M_ij z_j⁺ + M_ii z_i⁺ + Σ_{j>i} M_ij z_j + q_i`
    // in `wv`; the exact `w = M z + q` (one more product) is formed only when that estimate passes
    // the tolerance. At a fixed point both agree, so the test stops at the same sweeps.
    let Some((row_ptr, col_idx, vals)) = (match m {
        crate::matrix::Operator::BlockCsr(b) => b.scalar_csr(),
        crate::matrix::Operator::Dense(_) => None,
    }) else {
        return Err(NumericsError::Unsupported {
            solver: "PGS",
            what: "block storage with blocks larger than 1 x 1".into(),
        });
    };
    while sweeps < it.max_iter {
        sweeps += 1;
        for i in 0..n {
            let mut s = q[i];
            let mut d = 0.0;
            for k in row_ptr[i]..row_ptr[i + 1] {
                let c = col_idx[k];
                if c == i {
                    d = vals[k];
                } else {
                    s += vals[k] * z[c];
                }
            }
            let zi_gs = (-s * inv_diag[i]).max(0.0);
            let zi = if omega == 1.0 { zi_gs } else { ((1.0 - omega) * z[i] + omega * zi_gs).max(0.0) };
            z[i] = zi;
            wv[i] = s + d * zi;
        }
        if z.iter().any(|v| !v.is_finite()) {
            return Ok(Outcome { iterations: sweeps, failure: Some(FailReason::NonFinite) });
        }
        if lcp_error_zw(z, wv, q_norm) <= it.tol {
            // w = q + M z, summed in the order of `BlockCsr::matvec_add` (the report recomputes
            // it so: the same bits, so a converged sweep is also converged there)
            for (i, wi) in wv.iter_mut().enumerate() {
                *wi = q[i];
                for k in row_ptr[i]..row_ptr[i + 1] {
                    *wi += vals[k] * z[col_idx[k]];
                }
            }
            if lcp_error_zw(z, wv, q_norm) <= it.tol {
                break;
            }
        }
    }
    Ok(Outcome { iterations: sweeps, failure: None })
}
