//! A run into files: [`execute`] opens the planned [`Target`]s (the main table and, for a
//! rigid-body scene, the contacts table), [`drive`]s the stepper into them, then renames the
//! partial files onto the outputs on success. A failed, interrupted or (with `strict`)
//! non-converged run keeps its complete rows in the partial files and leaves earlier outputs
//! untouched.

use crate::drive::{drive, Progress, RunOptions, Sinks, Stepper, Stopped, Summary};
use crate::output::{Output, RowSink, Target, TargetError, TargetKind};
use std::path::PathBuf;

/// Failure of a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The output could not be opened or written.
    #[error("{0}")]
    Output(#[from] TargetError),
    /// The run stopped early; the complete rows are kept.
    #[error("{0}")]
    Stopped(Box<StoppedRun>),
}

/// A run that stopped before its final time.
#[derive(Debug)]
pub struct StoppedRun {
    /// Why.
    pub stopped: Stopped,
    /// The summary up to the stop.
    pub summary: Summary,
    /// `"steps"` or `"time-discretisation events"` (what `summary.steps` counts).
    pub unit: &'static str,
    /// Where the complete rows are.
    pub kept: PathBuf,
    /// The output asked for.
    pub out: PathBuf,
    /// The rows went straight to `out` (a FIFO or device).
    pub in_place: bool,
    /// A failed step's error with its objects named as in the model file
    /// ([`Stepper::describe_failure`]).
    pub failure: Option<String>,
}

impl std::fmt::Display for StoppedRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (steps, unit, rows) = (self.summary.steps, self.unit, self.summary.rows);
        match &self.stopped {
            Stopped::Failed(e) => {
                let named = self.failure.clone().unwrap_or_else(|| e.to_string());
                write!(f, "the simulation failed after {steps} {unit}: {named}")?
            }
            Stopped::Mechanics(e) => {
                let named = self.failure.clone().unwrap_or_else(|| e.to_string());
                write!(f, "the simulation failed after {steps} {unit}: {named}")?
            }
            Stopped::Control(e) => write!(f, "the control simulation failed after {steps} {unit}: {e}")?,
            Stopped::NullSpace(e) => write!(f, "the null-space run failed after {steps} {unit}: {e}")?,
            Stopped::Signal(sig, t) => {
                write!(f, "interrupted by {} after {steps} {unit} (t = {})", sig.name(), crate::xml::plain(*t))?
            }
            Stopped::NotConverged { t, residual, what } => write!(
                f,
                "--strict: {what} did not converge at t = {} (residual {residual:.3e}) after {steps} {unit}; exit code 3",
                crate::xml::plain(*t)
            )?,
            Stopped::Output(e) => write!(f, "{e} (after {steps} {unit})")?,
        }
        if self.in_place {
            write!(f, "; the {rows} rows computed so far were written to {}", self.kept.display())
        } else {
            write!(
                f,
                "; the {rows} rows computed so far are in {} ({} was not written; an earlier one is unchanged)",
                self.kept.display(),
                self.out.display()
            )
        }
    }
}

impl RunError {
    /// The process exit code: 130 (SIGINT), 143 (SIGTERM), 3 (`--strict` non-convergence), 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::Stopped(s) => match s.stopped {
                Stopped::Signal(sig, _) => sig.exit_code(),
                Stopped::NotConverged { .. } => 3,
                _ => 1,
            },
            RunError::Output(_) => 1,
        }
    }
    /// The summary of the steps done, if the run started.
    pub fn summary(&self) -> Option<&Summary> {
        match self {
            RunError::Stopped(s) => Some(&s.summary),
            RunError::Output(_) => None,
        }
    }
}

/// Runs `s` to its final time into `target` (and its contacts table into `contacts`, when
/// given); see the module docs.
pub fn execute<S: Stepper + Send>(
    s: &mut S,
    opts: &RunOptions,
    target: Target,
    contacts: Option<Target>,
    progress: &mut (dyn Progress + Send),
) -> Result<Summary, RunError> {
    let in_place = *target.kind() == TargetKind::InPlace;
    let out_path = target.out().to_path_buf();
    let mut out = Output::open(target, &s.columns())?;
    let mut cout = match (contacts, s.contact_columns()) {
        (Some(t), Some(head)) => Some(Output::open(t, &head)?),
        _ => None,
    };
    let (mut sum, res) = crate::drive::on_pool(|| {
        let contacts = cout.as_mut().map(|c| c as &mut dyn RowSink);
        drive(s, &mut Sinks { main: &mut out, contacts }, opts, progress)
    });
    sum.rows = out.rows();
    match res {
        Ok(()) => {
            out.commit()?;
            if let Some(c) = cout {
                c.commit()?;
            }
            Ok(sum)
        }
        Err(stopped) => {
            let kept = out.abandon();
            if let Some(c) = cout {
                c.abandon();
            }
            let failure = s.describe_failure(&stopped);
            let unit = s.unit();
            Err(RunError::Stopped(Box::new(StoppedRun {
                stopped,
                summary: sum,
                unit,
                kept,
                out: out_path,
                in_place,
                failure,
            })))
        }
    }
}
