//! The relay problem as an affine variational inequality, solved by Cao–Ferris pivoting
//! (Siconos `RELAY_AVI_CAOFERRIS`, its default relay solver).
//!
//! The relay problem is the AVI `−(M z + q) ∈ N_K(z)` on the box `K = {z : lb ≤ z ≤ ub}`, i.e.
//! the polyhedron `A z ≥ b` with `A = [I; −I]`, `b = [lb; −ub]`. Cao and Ferris (Math. Oper. Res.
//! 21, 1996) remove the free variables at a vertex of `K` and run Lemke's method on the
//! remaining complementarity system with the artificial variable covering the KKT rows only.
//! At the vertex `lb` (`z = lb + s`, `s ≥ 0`) with `μ` the multipliers of `z ≤ ub`:
//! ```text
//!   λ = M s + μ + (q + M lb) + e z₀ ≥ 0  ⊥  s ≥ 0      (KKT rows, covered)
//!   t = −s + (ub − lb)                ≥ 0  ⊥  μ ≥ 0      (rows of K, not covered)
//! ```
//! The rows of `K` never get the artificial variable, so every point of the path is in `K`;
//! since `K` is bounded, a secondary ray would need `s = 0` and then `μ = 0`, which is the
//! primary ray: the method ends at a solution for every `M` (with the lexicographic rule on
//! degenerate problems), where Lemke's method with covering vector `e` on all `2n` rows (the
//! `lemke` solver) can stop on a ray when `M` is not copositive-plus.

use super::Relay;
use crate::error::Result;
use crate::lcp::LemkeOptions;
use crate::report::FailReason;

/// Solves `p` by Cao–Ferris pivoting; returns (pivots, failure).
pub(crate) fn solve(
    state: &mut super::RelaySolverState,
    p: &Relay,
    z: &mut [f64],
    o: &LemkeOptions,
) -> Result<(usize, Option<FailReason>)> {
    let opts = LemkeOptions { warm_start: false, ..*o };
    let n = p.size();
    super::lemke::via_lcp(state, p, z, |ws, lcp, zl, cover| {
        // covering vector: e on the KKT rows, 0 on the rows of the box
        cover[..n].iter_mut().for_each(|d| *d = 1.0);
        cover[n..].iter_mut().for_each(|d| *d = 0.0);
        let out = crate::lcp::lemke_covering(ws, lcp, cover, zl, &opts)?;
        Ok((out.iterations, out.failure))
    })
}
