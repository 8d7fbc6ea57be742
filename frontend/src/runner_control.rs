//! Running a `<Control>` model (a zero-order-hold control simulation) into an [`Output`]: one
//! row per plant step (`t`, the plant state, each actuator's input `u` held on `[t_k, t_{k+1})`,
//! each observer's estimate), every `every`-th step plus row 0 and the last.

use crate::interrupt::StopSignal;
use crate::output::{Output, RowSink, Target, TargetError, TargetKind};
use crate::runner::{RunOptions, Summary};
use crate::xml::convert_control::ControlBuilt;
use std::time::Instant;

/// Why a control run failed.
#[derive(Debug, thiserror::Error)]
pub enum ControlRunError {
    /// The output could not be opened or written.
    #[error("{0}")]
    Output(#[from] TargetError),
    /// The run stopped early; the complete rows are kept.
    #[error("{message}; the {rows} rows computed so far are in {kept}")]
    Stopped {
        /// What happened.
        message: String,
        /// Rows kept.
        rows: u64,
        /// Where.
        kept: String,
        /// The signal, if one stopped the run.
        signal: Option<StopSignal>,
    },
}

impl ControlRunError {
    /// 130/143 for a signal, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            ControlRunError::Stopped { signal: Some(s), .. } => s.exit_code(),
            _ => 1,
        }
    }
}

/// Runs `built` to its final time into `target`.
pub fn execute(built: &mut ControlBuilt, opts: &RunOptions, target: Target) -> Result<Summary, ControlRunError> {
    let in_place = *target.kind() == TargetKind::InPlace;
    let mut out = Output::open(target, &built.columns)?;
    let mut sum = Summary::default();
    let start = Instant::now();
    let res = run_to_sink(built, opts, &mut out, &mut sum);
    sum.wall = start.elapsed();
    sum.rows = out.rows();
    match res {
        Ok(()) => {
            out.commit()?;
            Ok(sum)
        }
        Err((message, signal)) => {
            let rows = out.rows();
            let kept = out.abandon();
            let message = if in_place { message } else { format!("{message} (the output was not written)") };
            Err(ControlRunError::Stopped { message, rows, kept: kept.display().to_string(), signal })
        }
    }
}

/// The time loop into any [`RowSink`]; counts go to `sum`.
pub fn run_to_sink(
    built: &mut ControlBuilt,
    opts: &RunOptions,
    out: &mut impl RowSink,
    sum: &mut Summary,
) -> Result<(), (String, Option<StopSignal>)> {
    let fail = |e: &dyn std::fmt::Display, steps: u64| {
        (format!("the control simulation failed after {steps} steps: {e}"), None)
    };
    let sim = &mut built.sim;
    sim.initialize().map_err(|e| fail(&e, 0))?;
    let mut row = Vec::new();
    sim.row(&mut row);
    out.row(&row).map_err(|e| (e.to_string(), None))?;
    let every = opts.every.max(1);
    let mut k = 0u64;
    while !sim.finished() {
        if let Some(sig) = opts.stop.pending() {
            return Err((format!("interrupted by {} after {k} steps", sig.name()), Some(sig)));
        }
        sim.advance().map_err(|e| fail(&e, k))?;
        k += 1;
        sum.steps = k;
        if k.is_multiple_of(every) || sim.finished() {
            sim.row(&mut row);
            out.row(&row).map_err(|e| (e.to_string(), None))?;
        }
    }
    let rep = sim.report();
    sum.not_converged = rep.not_converged;
    sum.max_residual = rep.max_residual;
    sum.events = rep.actuations;
    Ok(())
}
