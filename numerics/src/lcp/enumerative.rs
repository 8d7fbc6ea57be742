//! Enumeration of the complementary active sets.
//!
//! For every subset `F ⊆ {0..n}` (bit `i` of a counter ⇔ `z_i` basic) solve
//! `M_FF z_F = −q_F`, `z_i = 0` off `F`, and accept the first candidate with `z ≥ 0`,
//! `w = M z + q ≥ 0` whose canonical residual is `<= tol`. At most `2ⁿ` reduced solves, so the
//! size is capped by [`super::EnumOptions::max_size`].

use super::active_set::{feasible, solve_on_set};
use super::lu::DenseLu;
use super::{lcp_error_zw, EnumOptions, Lcp, Outcome};
use crate::error::{NumericsError, Result};
use crate::report::FailReason;

/// Runs the enumeration.
pub(crate) fn solve(lu: &mut DenseLu, lcp: &Lcp, z: &mut [f64], o: &EnumOptions) -> Result<Outcome> {
    let m = lcp.m().dense("enum")?;
    let q = lcp.q();
    let n = q.len();
    if n > o.max_size {
        return Err(NumericsError::Unsupported {
            solver: "enum",
            what: format!("size n = {n} above max_size = {} (2^n active sets)", o.max_size),
        });
    }
    let q_norm = super::error::norm(q);
    let mut basic = vec![false; n];
    let mut idx = Vec::with_capacity(n);
    let mut zc = vec![0.0; n];
    let mut wc = vec![0.0; n];
    let mut tried = 0;
    let mut try_set = |basic: &[bool], z: &mut [f64], tried: &mut usize| -> bool {
        *tried += 1;
        if !solve_on_set(lu, m, q, basic, &mut idx, &mut zc) || !feasible(m, q, &zc, &mut wc, 1e-10) {
            return false;
        }
        zc.iter_mut().for_each(|v| *v = v.max(0.0));
        wc.copy_from_slice(q);
        lcp.m().matvec_add(1.0, &zc, &mut wc);
        if lcp_error_zw(&zc, &wc, q_norm) <= o.iter.tol {
            z.copy_from_slice(&zc);
            return true;
        }
        false
    };
    if o.warm_start {
        for i in 0..n {
            basic[i] = z[i] > 0.0;
        }
        if try_set(&basic, z, &mut tried) {
            return Ok(Outcome { iterations: tried, failure: None });
        }
    }
    for mask in 0u64..(1u64 << n) {
        for (i, b) in basic.iter_mut().enumerate() {
            *b = mask >> i & 1 == 1;
        }
        if try_set(&basic, z, &mut tried) {
            return Ok(Outcome { iterations: tried, failure: None });
        }
    }
    z.iter_mut().for_each(|v| *v = 0.0);
    Ok(Outcome { iterations: tried, failure: Some(FailReason::NoSolution) })
}
