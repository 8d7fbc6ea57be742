//! The impact problem at velocity level (Siconos `SICONOS_OSNSP_ED_IMPACT`).
//!
//! Over the closed contacts I1, with `J_i = ∇h_i(q)`, `W = J M⁻¹ Jᵀ`, pre-impact relative
//! velocities `ẏ⁻ = J v⁻` and the impulse `P`:
//! `v⁺ = v⁻ + M⁻¹ Jᵀ P`, `ẏ⁺ = ẏ⁻ + W P`, and the Newton impact law
//! `0 ≤ ẏ⁺ + e ẏ⁻ ⊥ P ≥ 0`, i.e. the LCP `w = W P + (1 + e) ẏ⁻`.
//!
//! Accumulation of impacts (Zeno): a contact whose approach speed `−ẏ⁻_i` is below the
//! threshold `zeno_velocity` uses `e = 0`; it leaves the impact with `ẏ⁺_i = 0` and joins
//! index set 2 (persistent contact) instead of producing infinitely many ever shorter flights.

use super::acceleration::{assemble, solve_lcp};
use super::dynamics::Dynamics;
use crate::KernelError;
use saltus_numerics::lcp::LcpSolver;
use saltus_numerics::SolveReport;

/// Result of one impact.
pub(crate) struct Impact {
    /// Impulse `P_i` per contact of the set.
    pub p: Vec<f64>,
    /// Pre-impact relative velocities.
    pub ydot_pre: Vec<f64>,
    /// Whether the Zeno rule (`e = 0`) was applied, per contact of the set.
    pub zeno: Vec<bool>,
    /// Solver report.
    pub report: SolveReport,
}

/// Solves the impact LCP over `set` at `(q, v)` and updates `v` to the post-impact velocities.
pub(crate) fn impact(
    d: &Dynamics,
    t: f64,
    q: &[f64],
    v: &mut [f64],
    set: &[usize],
    zeno_velocity: f64,
    solver: &LcpSolver,
) -> Result<Impact, KernelError> {
    let p = {
        let mut w = d.work.borrow_mut();
        assemble(d, t, q, v, v, set, false, &mut w).map_err(|e| KernelError::UserFn {
            t,
            what: "impact problem".into(),
            source: crate::UserFnError::new(e.to_string()),
        })?
    };
    let ydot_pre = p.b.clone();
    let zeno: Vec<bool> = ydot_pre.iter().map(|&yd| -yd < zeno_velocity).collect();
    let qv: Vec<f64> = set
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let e = if zeno[k] { 0.0 } else { d.contacts[i].e };
            (1.0 + e) * ydot_pre[k]
        })
        .collect();
    let (imp, _, report) = solve_lcp(t, p.w, qv, solver)?;
    for (k, mj) in p.mj.iter().enumerate() {
        for (o, m) in v.iter_mut().zip(mj) {
            *o += m * imp[k];
        }
    }
    Ok(Impact { p: imp, ydot_pre, zeno, report })
}
