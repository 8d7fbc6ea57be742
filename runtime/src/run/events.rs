//! Rows of user events (`<Events>`) in `saltus run` output.
//!
//! A model with events gets a last column `event`: 0 on every other row, `k + 1` on the row of
//! event `k` (in `<Events>` order). An event row holds the located time `t` (the right end of
//! the window) and the systems' state there before any handler: on the integrator's dense
//! output (event driven, `kind = 3`) or on the step's linear interpolant (time stepping). Its
//! interaction columns hold the values of the current state (event driven: at the event; time
//! stepping: at the end of the step that holds the event). Event driven, a reset adds a row
//! `kind = 4` with the state after the reset. Events found together give one row each.

use crate::output::RowSink;
use crate::simulation::{Built, Simulation};
use saltus_kernel::UserEventHit;

/// Whether the run of `built` has user events (and so the `event` column).
pub fn has_events(built: &Built) -> bool {
    match &built.sim {
        Simulation::EventDriven(s) => !s.user_events().is_empty(),
        _ => built.events.is_some(),
    }
}

/// Writes one row per transition of `hit`: `base` (a row of the current state, without the
/// `event` column) with `t` and the system columns replaced by the hit's: the states of the
/// systems `i` with `in_row(i)`, one after the other from column 1 (a mechanics row leaves out
/// static bodies).
pub fn write_hit_rows(
    hit: &UserEventHit,
    base: &[f64],
    in_row: impl Fn(usize) -> bool,
    out: &mut dyn RowSink,
) -> Result<(), crate::output::TargetError> {
    let mut r = base.to_vec();
    r[0] = hit.t;
    let mut i = 1;
    for s in hit.states.iter().enumerate().filter(|(k, _)| in_row(*k)).map(|(_, s)| s) {
        r[i..i + s.len()].copy_from_slice(s);
        i += s.len();
    }
    r.push(0.0);
    for tr in &hit.transitions {
        *r.last_mut().expect("event column") = (tr.index + 1) as f64;
        out.row(&r)?;
    }
    Ok(())
}
