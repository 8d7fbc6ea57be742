//! The [`Stepper`] of a `<NullSpace>` model ([`NullSpaceRun`], the projection method of Blajer,
//! issue 32): one row per output time `t0 + k h` (`t`, `q`, `v`, the multipliers λ of each
//! interaction row, `violation = max_i |C_i|`). The integrator chooses its own steps between two
//! output times; the summary counts the output steps, the integrator's steps and right-hand-side
//! evaluations (`ode_steps`, `rhs_evals`), the drift projections (`events`), the new charts
//! (`charts`) and the largest violation at the output times (`max_violation`).
//!
//! With `<Events>` the last column is `event` ([`super::events`]): a user event gives a row at its
//! time with the state `(q, v)` before its handler (located on the integrator's dense output; the
//! λ and violation columns there are of the state after it), before the output row of its step;
//! a stop ends the run at the event.

use crate::drive::{Advanced, Flow, Sinks, Stepper, Stopped, Summary};
use crate::output::TargetError;
use crate::step_time::StepClock;
use crate::xml::convert_nullspace::NullSpaceBuilt;
use saltus_kernel::UserEventHit;

/// A `<NullSpace>` model being run.
pub struct NullSpaceRun {
    /// The model and its simulation.
    pub built: NullSpaceBuilt,
    clock: StepClock,
    k: u64,
    row: Vec<f64>,
    hits: Vec<UserEventHit>,
}

impl NullSpaceRun {
    /// A run of `built` from its initial state.
    pub fn new(built: NullSpaceBuilt) -> NullSpaceRun {
        let clock = StepClock::new(built.t0, built.h);
        NullSpaceRun { built, clock, k: 0, row: Vec::new(), hits: Vec::new() }
    }
    fn write_row(&mut self, out: &mut Sinks<'_>) -> Result<(), Stopped> {
        self.built.row(&mut self.row).map_err(|e| Stopped::NullSpace(Box::new(e)))?;
        out.main.row(&self.row)?;
        Ok(())
    }
}

impl Stepper for NullSpaceRun {
    fn total(&self) -> u64 {
        self.built.steps
    }
    fn steps_done(&self) -> u64 {
        self.k
    }
    fn done(&self) -> bool {
        self.k >= self.built.steps
    }
    fn time(&self) -> f64 {
        self.clock.time(self.k)
    }
    fn columns(&self) -> Vec<String> {
        self.built.columns.clone()
    }
    fn write_start(&mut self, out: &mut Sinks<'_>) -> Result<(), TargetError> {
        match self.write_row(out) {
            Err(Stopped::Output(e)) => Err(e),
            // a state whose row cannot be evaluated fails at the first advance
            _ => Ok(()),
        }
    }
    fn advance(&mut self, _: &mut Summary) -> Result<Advanced, Stopped> {
        let k = self.k + 1;
        let b = &mut self.built;
        let t = if k == b.steps { b.t_end } else { b.t0 + k as f64 * b.h };
        self.hits = b.sim.advance_to(t).map_err(|e| Stopped::NullSpace(Box::new(e)))?;
        match self.hits.iter().find(|h| h.stop) {
            Some(h) => Ok(Advanced { t: h.t, step: None, not_converged: None }),
            None => Ok(Advanced { t, step: Some(k), not_converged: None }),
        }
    }
    fn complete(&mut self, _: &Advanced, keep: bool, out: &mut Sinks<'_>, sum: &mut Summary) -> Result<Flow, Stopped> {
        if !self.hits.is_empty() {
            self.built.row(&mut self.row).map_err(|e| Stopped::NullSpace(Box::new(e)))?;
            self.row.pop(); // the `event` column
            for hit in &self.hits {
                super::events::write_hit_rows(hit, &self.row, |_| true, out.main)?;
                sum.user_events += hit.transitions.len() as u64;
                if hit.stop {
                    return Ok(Flow::Stop(hit.t));
                }
            }
        }
        self.k += 1;
        sum.steps += 1;
        let c = self.built.sim.violation().map_err(|e| Stopped::NullSpace(Box::new(e)))?;
        sum.max_violation = sum.max_violation.max(c);
        if keep {
            self.write_row(out)?;
        }
        Ok(Flow::Continue)
    }
    fn finish(&mut self, sum: &mut Summary) {
        let st = self.built.sim.stats();
        (sum.ode_steps, sum.rhs_evals, sum.events) = (st.ode.steps, st.ode.rhs_evals, st.projections);
        sum.charts = st.new_charts;
    }
    fn describe_failure(&self, _: &Stopped) -> Option<String> {
        None
    }
}
