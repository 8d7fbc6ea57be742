//! The LCP of a symmetric positive semidefinite `M` as a bound-constrained QP:
//! `min ½ zᵀ M z + qᵀ z` subject to `z ≥ 0`. Its KKT conditions are exactly
//! `w = M z + q ≥ 0`, `z ≥ 0`, `zᵀ w = 0`, and its projected-gradient residual
//! `‖z − max(0, z − w)‖` is the numerator of [`super::lcp_error`], so the QP is stopped at
//! `tol · ‖q‖` (or `tol` when `‖q‖ ≤ DBL_EPSILON`).

use super::{Lcp, Outcome, QpLcpOptions, DBL_EPSILON};
use crate::error::{NumericsError, Result};
use crate::qp::bounded::{solve_bounded_qp, BoundedQpOptions, BoundedQpWorkspace};
use crate::report::SolveStatus;

/// Runs the QP reformulation; a non-symmetric `M` is an `Unsupported` error.
pub(crate) fn solve(ws: &mut BoundedQpWorkspace, lcp: &Lcp, z: &mut [f64], o: &QpLcpOptions) -> Result<Outcome> {
    let m = lcp.m().dense("qp")?;
    let n = lcp.size();
    let scale = m.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    for j in 0..n {
        for i in 0..j {
            if (m[(i, j)] - m[(j, i)]).abs() > o.sym_tol * scale {
                return Err(NumericsError::Unsupported {
                    solver: "qp",
                    what: format!("non-symmetric M (M[{i},{j}] != M[{j},{i}]); use lemke or newton-fb"),
                });
            }
        }
    }
    let q_norm = super::error::norm(lcp.q());
    let tol_abs = if q_norm > DBL_EPSILON { o.iter.tol * q_norm } else { o.iter.tol };
    // a slightly tighter target so that the residual recomputed by the driver passes
    let qo = BoundedQpOptions::new(0.5 * tol_abs, o.iter.max_iter);
    let lb = vec![0.0; n];
    let ub = vec![f64::INFINITY; n];
    let rep = solve_bounded_qp(ws, m, lcp.q(), &lb, &ub, z, &qo)?;
    let failure = match rep.status {
        SolveStatus::Failed(r) => Some(r),
        _ => None,
    };
    Ok(Outcome { iterations: rep.iterations, failure })
}
