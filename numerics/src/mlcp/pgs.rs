//! Projected Gauss–Seidel for the MLCP (Siconos `MLCP_PGS`).
//!
//! One sweep updates, for `i = 0..n`, `z_i ← −(q_i + Σ_{j≠i} M_ij z_j) / M_ii`, projected on
//! `z_i >= 0` for the complementarity rows and left free for the equality rows. Stops when the
//! Siconos MLCP error is `<= tol`.

use super::error::mlcp_compute_error;
use super::options::PgsOptions;
use super::problem::Mlcp;
use crate::error::{NumericsError, Result};
use crate::report::{FailReason, SolveReport, SolveStatus};

/// Solves `p` by projected Gauss–Seidel. `Err(Singular)` when a diagonal entry of `M` is zero.
pub fn solve_pgs(p: &Mlcp, z: &mut [f64], w: &mut [f64], opts: &PgsOptions) -> Result<SolveReport> {
    let (ne, n) = (p.n_eq(), p.size());
    let m = p.m();
    let ms = m.as_slice();
    let scale = ms.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let mut inv_diag = vec![0.0; n];
    for (i, d) in inv_diag.iter_mut().enumerate() {
        let mii = m[(i, i)];
        if mii.abs() <= f64::EPSILON * scale || mii == 0.0 {
            return Err(NumericsError::Singular { what: "diagonal of M (pgs needs M_ii != 0)", index: i });
        }
        *d = 1.0 / mii;
    }
    // Row-major copy for the row products of the sweep.
    let mt = m.transpose();
    let rows = mt.as_slice();
    let mut last_good = z.to_vec();
    let mut err = mlcp_compute_error(p, z, w);
    if err <= opts.iter.tol {
        return Ok(SolveReport {
            status: SolveStatus::Converged,
            iterations: 0,
            residual: err,
            elapsed: Default::default(),
        });
    }
    for it in 1..=opts.iter.max_iter {
        for i in 0..n {
            let row = &rows[i * n..(i + 1) * n];
            let mut s = p.q()[i];
            for (mij, zj) in row.iter().zip(z.iter()) {
                s += mij * zj;
            }
            let zi = z[i] - s * inv_diag[i];
            z[i] = if i < ne { zi } else { zi.max(0.0) };
        }
        if !z.iter().all(|x| x.is_finite()) {
            z.copy_from_slice(&last_good);
            let e = mlcp_compute_error(p, z, w);
            return Ok(SolveReport {
                status: SolveStatus::Failed(FailReason::NonFinite),
                iterations: it,
                residual: e,
                elapsed: Default::default(),
            });
        }
        err = mlcp_compute_error(p, z, w);
        last_good.copy_from_slice(z);
        if err <= opts.iter.tol {
            return Ok(SolveReport {
                status: SolveStatus::Converged,
                iterations: it,
                residual: err,
                elapsed: Default::default(),
            });
        }
    }
    Ok(SolveReport {
        status: SolveStatus::MaxIterations,
        iterations: opts.iter.max_iter,
        residual: err,
        elapsed: Default::default(),
    })
}
