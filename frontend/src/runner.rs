//! Running a built model and recording its trajectory (the `saltus run` command).
//!
//! [`execute`] opens the planned [`Target`], runs the time loop ([`run_ts`] here, event-driven
//! runs in [`crate::runner_ed`]) feeding rows to an [`Output`] (which knows the file format),
//! then renames the partial file onto the output on success. A failed, interrupted or (with
//! `strict`) non-converged run keeps its complete rows in the partial file and leaves an earlier
//! output untouched.
//!
//! Columns: `t`, then per system `NAME.q[i]`, `NAME.v[i]` (Lagrangian) or `NAME.x[i]`
//! (first order), then per interaction `NAME.y[i]` (the output `y` at level 0: the gap for a
//! Lagrangian relation), `NAME.ydot[i]` (Lagrangian relations only: `y` at level 1, the relative
//! velocity) and `NAME.lambda[i]` (`λ` at the level the one-step problem solves: the impulse
//! over the step for Moreau–Jean, `λ` itself for Euler–Moreau).

use crate::interrupt::{StopFlags, StopSignal};
use crate::output::{Output, RowSink, Target, TargetError, TargetKind};
use crate::simulation::{Advance, Built, Simulation};
use crate::step_time::StepClock;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use saltus_kernel::{KernelError, Nsds, ProximityManager};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use crate::output::csv::fmt_num;
pub use crate::output::target::partial_path;

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Time steps done (event driven: time-discretisation events processed, alone or merged
    /// with a nonsmooth event).
    pub steps: u64,
    /// Steps whose one-step problem was solved (some interaction active).
    pub nonsmooth_steps: u64,
    /// Time stepping: steps where the set of active interactions grew (impacts, contact/diode
    /// switches). Event driven: nonsmooth events (impacts, detachments) processed.
    pub events: u64,
    /// Event driven: nonsmooth events that solved an impact problem.
    pub impacts: u64,
    /// Event driven: accepted steps of the ODE integrator.
    pub ode_steps: u64,
    /// Event driven: right-hand-side evaluations of the ODE integrator.
    pub rhs_evals: u64,
    /// Total iterations of the one-step solver (event driven: of the impact and acceleration LCPs).
    pub solver_iterations: u64,
    /// Largest residual reported by the one-step solver.
    pub max_residual: f64,
    /// Steps (event driven: LCP solves) accepted although their one-step solver or Newton loop
    /// did not converge (the `accept` policy; `--strict` makes the first one an error).
    pub not_converged: u64,
    /// Total Newton iterations.
    pub newton_iterations: u64,
    /// User events found (`<Events>`; one per event in a window).
    pub user_events: u64,
    /// Time at which a user event with `action="stop"` ended the run, if one did.
    pub stopped_at: Option<f64>,
    /// Rows written (including row 0).
    pub rows: u64,
    /// Wall time of the time (event) loop.
    pub wall: Duration,
}

/// How the time loop ended before its final time.
#[derive(Debug)]
pub enum Stopped {
    /// A step failed.
    Failed(Box<KernelError>),
    /// A step of a `<Mechanics>` scene failed ([`crate::runner_mech`]).
    Mechanics(Box<saltus_mechanics::MechanicsError>),
    /// A signal asked the run to stop (at a step boundary).
    Signal(StopSignal, f64),
    /// `strict`: a step did not converge.
    NotConverged {
        /// Time at the end of the step.
        t: f64,
        /// Its residual.
        residual: f64,
        /// What did not converge.
        what: &'static str,
    },
    /// Writing the output failed.
    Output(TargetError),
}

impl From<TargetError> for Stopped {
    fn from(e: TargetError) -> Stopped {
        Stopped::Output(e)
    }
}

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
    /// A failed step's error with systems and interactions named as in the model file
    /// ([`crate::names::kernel_error`]).
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

/// Column names: `t`, then per system `NAME.q[i]`, `NAME.v[i]` (Lagrangian) or `NAME.x[i]`,
/// then per interaction `NAME.y[i]`, `NAME.ydot[i]` (Lagrangian relations), `NAME.lambda[i]`:
/// first those linked from the start, then those declared with an activation distance (`prox`),
/// each in model order.
pub fn header(nsds: &Nsds, prox: Option<&ProximityManager>) -> Vec<String> {
    let mut h = vec!["t".to_string()];
    for (i, ds) in nsds.systems().iter().enumerate() {
        let name = nsds.ds_name(saltus_kernel::DsId(i as u32)).unwrap_or("ds");
        let (s, n) = if ds.is_lagrangian() { ("q", ds.dim()) } else { ("x", ds.dim()) };
        h.extend((0..n).map(|j| format!("{name}.{s}[{j}]")));
        if ds.is_lagrangian() {
            h.extend((0..n).map(|j| format!("{name}.v[{j}]")));
        }
    }
    let declared = prox.into_iter().flat_map(|p| p.declared());
    for inter in nsds.interactions().iter().take(n_static(nsds, prox)).chain(declared) {
        h.extend((0..inter.size()).map(|j| format!("{}.y[{j}]", inter.name)));
        if inter.relation.is_lagrangian() {
            h.extend((0..inter.size()).map(|j| format!("{}.ydot[{j}]", inter.name)));
        }
        h.extend((0..inter.size()).map(|j| format!("{}.lambda[{j}]", inter.name)));
    }
    h
}

/// The interactions linked from the start: the first slots of `nsds` (the simulation links the
/// declared proximity interactions after them and never removes a static one).
fn n_static(nsds: &Nsds, prox: Option<&ProximityManager>) -> usize {
    nsds.n_linked() - prox.map_or(0, |p| p.n_linked())
}

/// The interactions declared with an activation distance of `built`'s simulation, if any.
pub fn proximity(built: &Built) -> Option<&ProximityManager> {
    built.sim.time_stepping().and_then(|ts| ts.proximity())
}

/// Appends `v` (or `m` zeros where the kernel has not computed it).
fn push_or_zeros(out: &mut Vec<f64>, v: Option<&nalgebra::DVector<f64>>, m: usize) {
    match v {
        Some(v) if v.len() == m => out.extend_from_slice(v.as_slice()),
        _ => out.extend(std::iter::repeat_n(0.0, m)),
    }
}

/// The current row at time `t`: states, then `y` (level 0), `ẏ` (level 1, Lagrangian
/// relations) and `λ` at `level`, in the order of [`header`].
pub fn row(nsds: &Nsds, prox: Option<&ProximityManager>, t: f64, level: usize, out: &mut Vec<f64>) {
    out.clear();
    out.push(t);
    for ds in nsds.systems() {
        out.extend_from_slice(ds.state().as_slice());
        if let Some(v) = ds.velocity() {
            out.extend_from_slice(v.as_slice());
        }
    }
    for inter in nsds.interactions().iter().take(n_static(nsds, prox)) {
        let m = inter.size();
        push_or_zeros(out, inter.y(0), m);
        if inter.relation.is_lagrangian() {
            push_or_zeros(out, inter.y(1), m);
        }
        push_or_zeros(out, inter.lambda(level), m);
    }
    if let Some(p) = prox {
        for (i, inter) in p.declared().enumerate() {
            let m = inter.size();
            match p.outputs(i, nsds, level) {
                Some(o) => {
                    push_or_zeros(out, Some(o.y[0]), m);
                    push_or_zeros(out, Some(o.y[1]), m);
                    push_or_zeros(out, Some(o.lambda), m);
                }
                None => out.extend(std::iter::repeat_n(0.0, 3 * m)),
            }
        }
    }
}

/// Options of [`execute`].
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Write every N-th step (row 0 and the last row are always written).
    pub every: u64,
    /// No progress bar.
    pub quiet: bool,
    /// A step whose one-step solver (or Newton loop) did not converge stops the run.
    pub strict: bool,
    /// Signals that stop the run at the next step boundary.
    pub stop: StopFlags,
}

/// Runs `built` to its final time into `target` (see the module docs).
pub fn execute(built: &mut Built, opts: &RunOptions, target: Target) -> Result<Summary, RunError> {
    let event_driven = matches!(built.sim, Simulation::EventDriven(_));
    let head = columns(built);
    let in_place = *target.kind() == TargetKind::InPlace;
    let out_path = target.out().to_path_buf();
    let mut out = Output::open(target, &head)?;
    let mut sum = Summary::default();
    let start = Instant::now();
    let res = if event_driven {
        crate::runner_ed::run_ed(built, opts, &mut out, &mut sum)
    } else {
        run_ts(built, opts, &mut out, &mut sum)
    };
    sum.wall = start.elapsed();
    sum.rows = out.rows();
    match res {
        Ok(()) => {
            out.commit()?;
            Ok(sum)
        }
        Err(stopped) => {
            let kept = out.abandon();
            let unit = if event_driven { "time-discretisation events" } else { "steps" };
            let failure = match &stopped {
                Stopped::Failed(e) => Some(crate::names::kernel_error(e, &built.nsds)),
                _ => None,
            };
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

/// The columns of a run of `built`: [`header`], or [`crate::runner_ed::header_ed`] for an
/// event-driven simulation, then `event` if the model has user events
/// ([`crate::runner_events`]).
pub fn columns(built: &Built) -> Vec<String> {
    let mut h = match built.sim {
        Simulation::EventDriven(_) => crate::runner_ed::header_ed(&built.nsds),
        _ => header(&built.nsds, proximity(built)),
    };
    if crate::runner_events::has_events(built) {
        h.push("event".into());
    }
    h
}

/// Runs `built` to its final time into `sink` (no file, no commit): [`run_ts`] or
/// [`crate::runner_ed::run_ed`], with the rows of [`columns`]. The summary counts what was done
/// even when the run stopped early.
pub fn run_to_sink(built: &mut Built, opts: &RunOptions, sink: &mut impl RowSink) -> (Summary, Result<(), Stopped>) {
    let mut sum = Summary::default();
    let start = Instant::now();
    let res = match built.sim {
        Simulation::EventDriven(_) => crate::runner_ed::run_ed(built, opts, sink, &mut sum),
        _ => run_ts(built, opts, sink, &mut sum),
    };
    sum.wall = start.elapsed();
    (sum, res)
}

/// The time-stepping loop: row 0, then every `every`-th step and the last.
pub fn run_ts(built: &mut Built, opts: &RunOptions, out: &mut impl RowSink, sum: &mut Summary) -> Result<(), Stopped> {
    let clock = StepClock::new(built.t0, built.h);
    let mut r = Vec::new();
    let with_events = built.events.is_some();
    row(&built.nsds, proximity(built), clock.time(0), built.level, &mut r);
    if with_events {
        r.push(0.0);
    }
    out.row(&r)?;
    let every = opts.every.max(1);
    let total = built.steps;
    let mut bar = Progress::new(total, "steps", opts.quiet);
    let mut prev_active = 0usize;
    let mut k = 0u64;
    let result = loop {
        if k >= total {
            break Ok(());
        }
        if let Some(sig) = opts.stop.pending() {
            break Err(Stopped::Signal(sig, clock.time(k)));
        }
        let rep = match built.sim.advance(&mut built.nsds) {
            Ok(Advance::Step(rep)) => rep,
            Ok(Advance::Event(_)) => unreachable!("time-stepping simulations advance by steps"),
            Err(error) => break Err(Stopped::Failed(Box::new(error))),
        };
        sum.newton_iterations += rep.newton_iterations as u64;
        let mut converged = rep.newton_converged;
        let mut residual = rep.newton_residual;
        let mut what = "the Newton loop";
        if let Some(s) = &rep.osnsp {
            sum.nonsmooth_steps += 1;
            sum.solver_iterations += s.iterations as u64;
            sum.max_residual = sum.max_residual.max(s.residual);
            if !s.status.converged() {
                converged = false;
                residual = s.residual;
                what = "the one-step problem";
            }
        }
        if !converged {
            if opts.strict {
                break Err(Stopped::NotConverged { t: rep.t, residual, what });
            }
            sum.not_converged += 1;
        }
        k += 1;
        sum.steps = k;
        if rep.active > prev_active {
            sum.events += 1;
        }
        prev_active = rep.active;
        let mut stop = false;
        if let Some(mon) = &mut built.events {
            let hits = match mon.after_step(&mut built.nsds) {
                Ok(h) => h,
                Err(error) => break Err(Stopped::Failed(Box::new(error))),
            };
            for hit in &hits {
                row(&built.nsds, proximity(built), hit.t, built.level, &mut r);
                crate::runner_events::write_hit_rows(hit, &r, out)?;
                sum.user_events += hit.transitions.len() as u64;
                if hit.stop {
                    stop = true;
                    sum.stopped_at = Some(hit.t);
                }
            }
        }
        if stop {
            break Ok(());
        }
        if k.is_multiple_of(every) || k == total {
            row(&built.nsds, proximity(built), clock.time(k), built.level, &mut r);
            if with_events {
                r.push(0.0);
            }
            out.row(&r)?;
        }
        if k.is_multiple_of(256) {
            bar.update(k, rep.t);
        }
    };
    bar.finish();
    result
}

/// A progress bar drawn only once the run has lasted more than a second (and not `quiet`).
pub(crate) struct Progress {
    bar: ProgressBar,
    shown: bool,
    quiet: bool,
    start: Instant,
}

impl Progress {
    pub(crate) fn new(total: u64, unit: &str, quiet: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let tpl = format!("{{bar:40}} {{pos}}/{{len}} {unit}, t = {{msg}} ({{elapsed}}, ETA {{eta}})");
        bar.set_style(ProgressStyle::with_template(&tpl).unwrap_or_else(|_| ProgressStyle::default_bar()));
        Progress { bar, shown: false, quiet, start: Instant::now() }
    }
    pub(crate) fn update(&mut self, pos: u64, t: f64) {
        if !self.shown && !self.quiet && self.start.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(pos);
        self.bar.set_message(format!("{t:.6e}"));
    }
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
