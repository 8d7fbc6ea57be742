//! Running a `<NullSpace>` model into an [`Output`]: one row per output time `t0 + k h` (`t`,
//! `q`, `v`, the multipliers λ of each interaction row, `violation = max_i |C_i|`), every
//! `every`-th step plus row 0 and the last.

use crate::interrupt::StopSignal;
use crate::output::{Output, RowSink, Target, TargetError, TargetKind};
use crate::runner::{RunOptions, Summary};
use crate::xml::convert_nullspace::NullSpaceBuilt;
use std::time::Instant;

/// Why a null-space run failed.
#[derive(Debug, thiserror::Error)]
pub enum NullSpaceRunError {
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

impl NullSpaceRunError {
    /// 130/143 for a signal, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            NullSpaceRunError::Stopped { signal: Some(s), .. } => s.exit_code(),
            _ => 1,
        }
    }
}

/// Runs `built` to its final time into `target`.
pub fn execute(built: &mut NullSpaceBuilt, opts: &RunOptions, target: Target) -> Result<Summary, NullSpaceRunError> {
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
            Err(NullSpaceRunError::Stopped { message, rows, kept: kept.display().to_string(), signal })
        }
    }
}

/// The output loop into any [`RowSink`]; counts go to `sum` (`steps`: output steps,
/// `ode_steps`, `rhs_evals`: the integrator's, `events`: drift projections).
pub fn run_to_sink(
    built: &mut NullSpaceBuilt,
    opts: &RunOptions,
    out: &mut impl RowSink,
    sum: &mut Summary,
) -> Result<(), (String, Option<StopSignal>)> {
    let fail =
        |e: &dyn std::fmt::Display, steps: u64| (format!("the null-space run failed after {steps} steps: {e}"), None);
    let mut row = Vec::new();
    built.row(&mut row).map_err(|e| fail(&e, 0))?;
    out.row(&row).map_err(|e| (e.to_string(), None))?;
    let every = opts.every.max(1);
    for k in 1..=built.steps {
        if let Some(sig) = opts.stop.pending() {
            return Err((format!("interrupted by {} after {} steps", sig.name(), k - 1), Some(sig)));
        }
        let t = if k == built.steps { built.t_end } else { built.t0 + k as f64 * built.h };
        built.sim.advance_to(t).map_err(|e| fail(&e, k - 1))?;
        sum.steps = k;
        let st = built.sim.stats();
        (sum.ode_steps, sum.rhs_evals, sum.events) = (st.ode.steps, st.ode.rhs_evals, st.projections);
        if k.is_multiple_of(every) || k == built.steps {
            built.row(&mut row).map_err(|e| fail(&e, k))?;
            out.row(&row).map_err(|e| (e.to_string(), None))?;
        }
    }
    Ok(())
}

/// `saltus run` of a `<NullSpace>` model (the CLI's arm): builds it, checks the output path
/// against the inputs and the size (unless `force`), runs it into `out`. Returns the summary line,
/// or the error message and the exit code.
#[allow(clippy::too_many_arguments)]
pub fn run_cli(
    model: &std::path::Path,
    loaded: &crate::xml::LoadedModel,
    out: &std::path::Path,
    every: Option<u64>,
    quiet: bool,
    force: bool,
    dirs: Vec<std::path::PathBuf>,
    stop: crate::interrupt::StopFlags,
) -> Result<Option<String>, (String, u8)> {
    let input = |e: &dyn std::fmt::Display| (e.to_string(), 1u8);
    let mut built = crate::xml::convert_nullspace::build_nullspace(loaded, dirs.clone()).map_err(|e| input(&e))?;
    let every = every.or(built.every).unwrap_or(1);
    let target = Target::plan(out, &crate::output::inputs::model_inputs(model, &dirs)).map_err(|e| input(&e))?;
    let rows = built.steps / every.max(1) + 2;
    let bytes = crate::output::Format::of(out).bytes_per_row(built.columns.len()).saturating_mul(rows);
    if !force && (built.steps > 100_000_000 || bytes > 10_000_000_000) {
        return Err((
            format!(
                "this run has {} steps and about {bytes} bytes of output: check h and T, or pass --force",
                built.steps
            ),
            1,
        ));
    }
    let opts = RunOptions { every, quiet, strict: false, stop };
    let sum = execute(&mut built, &opts, target).map_err(|e| (e.to_string(), e.exit_code()))?;
    let st = built.sim.stats();
    Ok((!quiet).then(|| {
        format!(
            "{}: null-space method ({}), {} output steps (h = {}), {} integrator steps, {} new charts, {} drift projections, wall time {:.3} s; {} rows written to {}",
            model.display(),
            built.basis,
            sum.steps,
            crate::xml::plain(built.h),
            st.ode.steps,
            st.new_charts,
            st.projections,
            sum.wall.as_secs_f64(),
            sum.rows,
            out.display()
        )
    }))
}
