//! Relay through the LCP reformulation, solved exactly by Lemke's method.
//!
//! With `z = lb + z₁` and `w = w₁ − z₂`:
//! ```text
//!   w₁ =  M z₁ + z₂ + (q + M lb)  ≥ 0  ⊥  z₁ ≥ 0
//!   w₂ = −z₁        + (ub − lb)   ≥ 0  ⊥  z₂ ≥ 0
//! ```
//! `z₁` interior ⇒ `w₁ = 0` and `z₂ = 0` (as `w₂ > 0`), so `w = 0`; `z = ub` ⇒ `w = −z₂ ≤ 0`;
//! `z = lb` ⇒ `z₂ = 0` and `w = w₁ ≥ 0`. The LCP matrix `[[M, I], [−I, 0]]` is
//! positive semidefinite whenever `M` is, so Lemke's method processes it.

use super::Relay;
use crate::error::Result;
use crate::lcp::{Lcp, LcpSolver, LcpSolverState, LemkeOptions};
use crate::matrix::Operator;
use crate::report::{FailReason, SolveStatus};
use nalgebra::DMatrix;

/// Builds the `2n` LCP of the module documentation into the buffers `big` and `ql` (reused when
/// of the right size).
pub(super) fn relay_to_lcp_in(p: &Relay, mut big: DMatrix<f64>, mut ql: Vec<f64>) -> Result<Lcp> {
    let m = p.m().dense("relay lemke")?;
    let n = p.size();
    if big.shape() == (2 * n, 2 * n) {
        big.fill(0.0);
    } else {
        big = DMatrix::zeros(2 * n, 2 * n);
    }
    big.view_mut((0, 0), (n, n)).copy_from(m);
    for i in 0..n {
        big[(i, n + i)] = 1.0;
        big[(n + i, i)] = -1.0;
    }
    ql.clear();
    ql.resize(2 * n, 0.0);
    ql[..n].copy_from_slice(p.q());
    p.m().matvec_add(1.0, p.lb(), &mut ql[..n]);
    for i in 0..n {
        ql[n + i] = p.ub()[i] - p.lb()[i];
    }
    Lcp::new(Operator::Dense(big), ql)
}

/// Builds the `2n` LCP of `p` in the buffers of `state`, runs `pivot` on it (with the LCP
/// workspace, the `2n` iterate and a `2n` scratch vector) and maps the answer back to `z`;
/// returns (pivots, failure).
pub(super) fn via_lcp(
    state: &mut super::RelaySolverState,
    p: &Relay,
    z: &mut [f64],
    pivot: impl FnOnce(&mut LcpSolverState, &Lcp, &mut [f64], &mut [f64]) -> Result<(usize, Option<FailReason>)>,
) -> Result<(usize, Option<FailReason>)> {
    let lcp = relay_to_lcp_in(p, std::mem::take(&mut state.big), std::mem::take(&mut state.ql))?;
    let n = p.size();
    state.zl.clear();
    state.zl.resize(2 * n, 0.0);
    state.wl.clear();
    state.wl.resize(2 * n, 0.0);
    let out = pivot(&mut state.lcp, &lcp, &mut state.zl, &mut state.wl);
    if let (Operator::Dense(big), ql) = lcp.into_parts() {
        state.big = big;
        state.ql = ql;
    }
    let out = out?;
    for (i, zi) in z[..n].iter_mut().enumerate() {
        *zi = (p.lb()[i] + state.zl[i]).clamp(p.lb()[i], p.ub()[i]);
    }
    Ok(out)
}

/// Solves through [`relay_to_lcp_in`] by Lemke's method; returns (pivots, failure).
pub(crate) fn solve(
    state: &mut super::RelaySolverState,
    p: &Relay,
    z: &mut [f64],
    o: &LemkeOptions,
) -> Result<(usize, Option<FailReason>)> {
    let opts = LemkeOptions { warm_start: false, ..*o };
    via_lcp(state, p, z, |ws, lcp, zl, wl| {
        let rep = crate::lcp::solve_with(ws, lcp, zl, wl, &LcpSolver::Lemke(opts))?;
        let failure = match rep.status {
            SolveStatus::Failed(r) => Some(r),
            _ => None,
        };
        Ok((rep.iterations, failure))
    })
}
