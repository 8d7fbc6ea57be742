//! The [`Stepper`] of a `<Control>` model ([`ControlRun`], a zero-order-hold control
//! simulation): one row per plant step (`t`, the plant state, each actuator's input `u` held on
//! `[t_k, t_{k+1})`, each observer's estimate).

use crate::drive::{Advanced, Flow, NotConverged, Sinks, Stepper, Stopped, Summary};
use crate::output::TargetError;
use crate::xml::convert_control::ControlBuilt;

/// A `<Control>` model being run. The summary counts the plant steps, the actuations (as
/// `events`), the relay problems of the controllers that did not converge and their largest
/// residual.
pub struct ControlRun {
    /// The model and its simulation.
    pub built: ControlBuilt,
    row: Vec<f64>,
}

impl ControlRun {
    /// A run of `built` from its initial state.
    pub fn new(built: ControlBuilt) -> ControlRun {
        ControlRun { built, row: Vec::new() }
    }
}

fn failed(e: saltus_control::ControlError) -> Stopped {
    Stopped::Control(Box::new(e))
}

impl Stepper for ControlRun {
    fn total(&self) -> u64 {
        self.built.steps
    }
    fn steps_done(&self) -> u64 {
        self.built.sim.report().steps
    }
    fn done(&self) -> bool {
        self.built.sim.finished()
    }
    fn time(&self) -> f64 {
        self.built.sim.time()
    }
    fn columns(&self) -> Vec<String> {
        self.built.columns.clone()
    }
    fn write_start(&mut self, out: &mut Sinks<'_>) -> Result<(), TargetError> {
        // the control instants of t0 act before row 0 (a failure there shows at the first advance)
        if self.built.sim.initialize().is_ok() {
            self.built.sim.row(&mut self.row);
            out.main.row(&self.row)?;
        }
        Ok(())
    }
    fn advance(&mut self, sum: &mut Summary) -> Result<Advanced, Stopped> {
        let sim = &mut self.built.sim;
        sim.initialize().map_err(failed)?;
        let before = sim.report().not_converged;
        sim.advance().map_err(failed)?;
        let rep = sim.report();
        sum.max_residual = sum.max_residual.max(rep.max_residual);
        let count = rep.not_converged - before;
        let not_converged = (count > 0).then_some(NotConverged {
            what: "a controller's relay problem",
            residual: rep.max_residual,
            count,
        });
        Ok(Advanced { t: sim.time(), step: Some(rep.steps), not_converged })
    }
    fn complete(&mut self, _: &Advanced, keep: bool, out: &mut Sinks<'_>, sum: &mut Summary) -> Result<Flow, Stopped> {
        sum.steps += 1;
        if keep {
            self.built.sim.row(&mut self.row);
            out.main.row(&self.row)?;
        }
        Ok(Flow::Continue)
    }
    fn finish(&mut self, sum: &mut Summary) {
        sum.events = self.built.sim.report().actuations;
    }
    fn describe_failure(&self, _: &Stopped) -> Option<String> {
        None
    }
}
