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
use crate::lcp::{Lcp, LcpSolver, LemkeOptions};
use crate::matrix::Operator;
use crate::report::{FailReason, SolveStatus};
use nalgebra::DMatrix;

/// Builds the `2n` LCP of the module documentation.
pub fn relay_to_lcp(p: &Relay) -> Result<Lcp> {
    let m = p.m().dense("relay lemke")?;
    let n = p.size();
    let mut big = DMatrix::zeros(2 * n, 2 * n);
    big.view_mut((0, 0), (n, n)).copy_from(m);
    for i in 0..n {
        big[(i, n + i)] = 1.0;
        big[(n + i, i)] = -1.0;
    }
    let mut ql = vec![0.0; 2 * n];
    ql[..n].copy_from_slice(p.q());
    p.m().matvec_add(1.0, p.lb(), &mut ql[..n]);
    for i in 0..n {
        ql[n + i] = p.ub()[i] - p.lb()[i];
    }
    Lcp::new(Operator::Dense(big), ql)
}

/// Solves through [`relay_to_lcp`]; returns (pivots, failure).
pub(crate) fn solve(state: &mut super::RelaySolverState, p: &Relay, z: &mut [f64], o: &LemkeOptions) -> Result<(usize, Option<FailReason>)> {
    let lcp = relay_to_lcp(p)?;
    let n = p.size();
    state.zl.clear();
    state.zl.resize(2 * n, 0.0);
    state.wl.clear();
    state.wl.resize(2 * n, 0.0);
    let opts = LemkeOptions { warm_start: false, ..*o };
    let rep = crate::lcp::solve_with(&mut state.lcp, &lcp, &mut state.zl, &mut state.wl, &LcpSolver::Lemke(opts))?;
    for i in 0..n {
        z[i] = (p.lb()[i] + state.zl[i]).clamp(p.lb()[i], p.ub()[i]);
    }
    let failure = match rep.status {
        SolveStatus::Failed(r) => Some(r),
        _ => None,
    };
    Ok((rep.iterations, failure))
}
