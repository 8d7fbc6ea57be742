//! The impact problem at velocity level (Siconos `SICONOS_OSNSP_ED_IMPACT`).
//!
//! Over the closed contacts I1, with `J_i = ∇h_i(q)`, `W = J M⁻¹ Jᵀ`, pre-impact relative
//! velocities `ẏ⁻ = J v⁻` and the impulse `P`:
//! `v⁺ = v⁻ + M⁻¹ Jᵀ P`, `ẏ⁺ = ẏ⁻ + W P`, and the Newton impact law
//! `0 ≤ ẏ⁺ + e ẏ⁻ ⊥ P ≥ 0`, i.e. the LCP `w = W P + (1 + e) ẏ⁻`.
//! Bilateral constraints of the model are equations of the same problem, `J_b v⁺ = 0` (their
//! impulse of any sign), so the impact keeps the velocity on them.
//! Frictional contacts add Coulomb's law on the tangential impulse, `|P_T| ≤ μ P_N` with
//! `P_T = −μ P_N sign(v_T⁺ + e_t v_T⁻)` when it slides (the cone entries of
//! [`super::contact_lcp`]; `e_t` as in Moreau–Jean's `NewtonImpactFrictionNSL`).
//!
//! Accumulation of impacts (Zeno): a contact whose approach speed `−ẏ⁻_i` is below the
//! threshold `zeno_velocity` uses `e = 0` (and `e_t = 0`); it leaves the impact with `ẏ⁺_i = 0`
//! and joins index set 2 (persistent contact) instead of producing infinitely many ever shorter
//! flights.

use super::contact_lcp::{impact_lcp, Entry};
use super::dynamics::Dynamics;
use crate::KernelError;
use saltus_numerics::lcp::LcpSolver;
use saltus_numerics::SolveReport;

/// Result of one impact.
pub(crate) struct Impact {
    /// Normal impulse `P_i` per contact of the set.
    pub p: Vec<f64>,
    /// Tangential impulse `P_T,i` per contact of the set (0 without friction).
    pub p_t: Vec<f64>,
    /// The impulse on all coordinates, `Σ Jᵀ P`.
    pub generalized: Vec<f64>,
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
    let entries: Vec<Entry> = set
        .iter()
        .map(|&i| match &d.contacts[i] {
            c if c.bilateral => Entry::Bilateral(i),
            c if c.friction.is_some() => Entry::Cone(i),
            _ => Entry::Normal(i),
        })
        .collect();
    let restitution = |k: usize, tangent: bool, ydot: f64| {
        if -ydot < zeno_velocity {
            0.0
        } else {
            let c = &d.contacts[set[k]];
            if tangent {
                c.friction.map_or(0.0, |f| f.et)
            } else {
                c.e
            }
        }
    };
    let (sol, ydot_pre) = impact_lcp(d, t, q, v, &entries, &restitution, solver)?;
    for (o, dv) in v.iter_mut().zip(&sol.delta) {
        *o += dv;
    }
    let zeno: Vec<bool> = ydot_pre.iter().map(|&yd| -yd < zeno_velocity).collect();
    Ok(Impact { p: sol.lambda_n, p_t: sol.lambda_t, generalized: sol.generalized, ydot_pre, zeno, report: sol.report })
}
