//! Projected Gauss–Seidel for the relay problem:
//! `z_i ← P_[lb_i, ub_i](z_i − w_i / M_ii)` with the current `w = M z + q`.

use super::Relay;
use crate::error::{NumericsError, Result};
use crate::report::{FailReason, IterOptions};

/// Runs PGS; returns (sweeps, failure). A non-positive diagonal entry is a typed error.
pub(crate) fn solve(
    p: &Relay,
    z: &mut [f64],
    it: IterOptions,
    inv_diag: &mut Vec<f64>,
    w: &mut Vec<f64>,
) -> Result<(usize, Option<FailReason>)> {
    let m = p.m();
    let n = p.size();
    inv_diag.clear();
    inv_diag.resize(n, 0.0);
    let mut d = [0.0];
    for (i, v) in inv_diag.iter_mut().enumerate() {
        m.diag_block(i, 1, &mut d);
        if !(d[0] > 0.0) {
            return Err(NumericsError::Singular { what: "diagonal of M (relay PGS needs M_ii > 0)", index: i });
        }
        *v = 1.0 / d[0];
    }
    let (q, lb, ub) = (p.q(), p.lb(), p.ub());
    let mut out = [0.0];
    let mut sweeps = 0;
    while sweeps < it.max_iter {
        sweeps += 1;
        for i in 0..n {
            m.block_row_times(i, 1, z, true, &mut out);
            z[i] = (-(out[0] + q[i]) * inv_diag[i]).clamp(lb[i], ub[i]);
        }
        if z.iter().any(|v| !v.is_finite()) {
            return Ok((sweeps, Some(FailReason::NonFinite)));
        }
        w.clear();
        w.extend_from_slice(q);
        m.matvec_add(1.0, z, w);
        if super::relay_error_zw(p, z, w) <= it.tol {
            break;
        }
    }
    Ok((sweeps, None))
}
