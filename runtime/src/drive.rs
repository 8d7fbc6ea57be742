//! The one run loop of Saltus: [`drive`] advances any [`Stepper`] (time stepping, event driven,
//! rigid-body scenes, control) to its final time, feeding its rows to [`Sinks`].
//!
//! The driver owns what every run shares: the stop flag (signals at step boundaries), the
//! `--strict` policy (a solve that did not converge stops the run), the [`Summary`], `--every`
//! (the time row of step `k` is written when `k` is a multiple of `every`, and for the last step)
//! and the progress display. A stepper owns its simulation, its step counter and its columns;
//! it knows nothing of files. The CLI ([`crate::execute`]), the Python package (`run`,
//! `compute_one_step`) and the view writer all go through [`drive`] or [`step_once`], so one
//! step does the same thing whichever face asked for it.

use crate::interrupt::{StopFlags, StopSignal};
use crate::output::{RowSink, TargetError};
use std::time::{Duration, Instant};

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
    /// Actuator instants processed by the run's controllers (`<ControlManager>`, `<Control>`).
    pub actuations: u64,
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
    /// Null space: new QR charts of the numeric basis (the drift projections are `events`).
    pub charts: u64,
    /// Null space: largest constraint violation `max_i |C_i|` at the output times.
    pub max_violation: f64,
    /// Rows written to the main table (including row 0).
    pub rows: u64,
    /// Wall time of the time (event) loop.
    pub wall: Duration,
}

/// How the time loop ended before its final time.
#[derive(Debug)]
pub enum Stopped {
    /// A step of a kernel simulation failed.
    Failed(Box<saltus_kernel::KernelError>),
    /// A step of a `<Mechanics>` scene failed.
    Mechanics(Box<saltus_mechanics::MechanicsError>),
    /// A step of a `<Control>` simulation failed.
    Control(Box<saltus_control::ControlError>),
    /// An output step of a `<NullSpace>` model failed.
    NullSpace(Box<saltus_kernel::simulation::nullspace::NullSpaceError>),
    /// A signal asked the run to stop (at a step boundary), at this time.
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

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Failed(e) => write!(f, "{e}"),
            Stopped::Mechanics(e) => write!(f, "{e}"),
            Stopped::Control(e) => write!(f, "{e}"),
            Stopped::NullSpace(e) => write!(f, "{e}"),
            Stopped::Signal(sig, t) => write!(f, "interrupted by {} at t = {}", sig.name(), crate::xml::plain(*t)),
            Stopped::NotConverged { t, residual, what } => {
                write!(f, "{what} did not converge at t = {} (residual {residual:.3e})", crate::xml::plain(*t))
            }
            Stopped::Output(e) => write!(f, "{e}"),
        }
    }
}

impl From<TargetError> for Stopped {
    fn from(e: TargetError) -> Stopped {
        Stopped::Output(e)
    }
}

/// A solve of one advance that did not reach its tolerance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NotConverged {
    /// What did not converge ("the one-step problem", "the Newton loop", ...).
    pub what: &'static str,
    /// Its residual.
    pub residual: f64,
    /// How many solves of this advance did not converge (event driven: impact and acceleration
    /// LCPs are counted apart; 1 otherwise).
    pub count: u64,
}

/// What one [`Stepper::advance`] did, as the driver sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Advanced {
    /// Time reached.
    pub t: f64,
    /// The index `k ≥ 1` of the time step (event driven: time-discretisation event) that this
    /// advance completed, if it completed one: its time row is subject to `--every`.
    pub step: Option<u64>,
    /// A solve that did not converge, if any.
    pub not_converged: Option<NotConverged>,
}

/// The rows a stepper writes, table by table. Every face has the main table; a rigid-body scene
/// has a contacts table too (CSV: `OUT.contacts.csv`; Python: a second dict).
pub struct Sinks<'a> {
    /// The main table (the columns of [`Stepper::columns`]).
    pub main: &'a mut dyn RowSink,
    /// The contacts table ([`Stepper::contact_columns`]); `None`: not recorded.
    pub contacts: Option<&'a mut dyn RowSink>,
}

impl<'a> Sinks<'a> {
    /// The main table only.
    pub fn main(main: &'a mut dyn RowSink) -> Sinks<'a> {
        Sinks { main, contacts: None }
    }
}

/// A sink that drops every row (a step taken without recording, as Python's
/// `compute_one_step`).
#[derive(Debug, Default, Clone, Copy)]
pub struct Discard;

impl RowSink for Discard {
    fn row(&mut self, _values: &[f64]) -> Result<(), TargetError> {
        Ok(())
    }
}

/// Whether the run goes on after an advance's rows were written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Flow {
    /// Next step.
    Continue,
    /// A user event with `action="stop"` ended the run at this time.
    Stop(f64),
}

/// A simulation that the driver can run: every simulation of Saltus implements it.
pub trait Stepper {
    /// What [`Summary::steps`] counts: `"steps"` or `"time-discretisation events"`.
    fn unit(&self) -> &'static str {
        "steps"
    }
    /// Steps (time-discretisation events) from `t0` to the final time.
    fn total(&self) -> u64;
    /// Steps taken so far (the index `k` of the last completed step).
    fn steps_done(&self) -> u64;
    /// No step remains (the final time is reached, or a user event stopped the run).
    fn done(&self) -> bool;
    /// The current time.
    fn time(&self) -> f64;
    /// Advances between two progress updates.
    fn progress_stride(&self) -> u64 {
        256
    }
    /// Names of the main table's columns.
    fn columns(&self) -> Vec<String>;
    /// Names of the contacts table's columns (`None`: this simulation has none).
    fn contact_columns(&self) -> Option<Vec<String>> {
        None
    }
    /// Writes the row of the current state before a run's first advance (row 0 of a new run),
    /// if this kind of run writes one.
    fn write_start(&mut self, out: &mut Sinks<'_>) -> Result<(), TargetError>;
    /// One time step (event driven: the next event); adds its solver counts to `sum`
    /// (iterations, residuals; not [`Summary::not_converged`]: the driver counts what it accepts).
    fn advance(&mut self, sum: &mut Summary) -> Result<Advanced, Stopped>;
    /// Completes the advance that the driver accepted: the step counters (`sum.steps`, events),
    /// user events found after the step, and the rows; `keep`: its time row passes `--every`.
    fn complete(&mut self, adv: &Advanced, keep: bool, out: &mut Sinks<'_>, sum: &mut Summary)
        -> Result<Flow, Stopped>;
    /// Counters known only at the end of a run (ODE statistics, controller reports).
    fn finish(&mut self, _sum: &mut Summary) {}
    /// A failed step's error with its objects named as in the model (systems, interactions,
    /// bodies), for the user.
    fn describe_failure(&self, stopped: &Stopped) -> Option<String>;
}

/// Shows how far a run is. The CLI draws a progress bar; embedding layers use [`NoProgress`].
pub trait Progress {
    /// `done` of the run's total steps, at time `t`.
    fn update(&mut self, done: u64, t: f64);
    /// The run ended.
    fn finish(&mut self) {}
}

/// No progress display.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn update(&mut self, _done: u64, _t: f64) {}
}

/// The run policy shared by every face.
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

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions { every: 1, quiet: true, strict: false, stop: StopFlags::none() }
    }
}

/// One advance with the driver's policy: the step, the strict check, the `--every` choice and
/// the rows. Returns whether the run goes on.
pub fn step_once<S: Stepper + ?Sized>(
    s: &mut S,
    opts: &RunOptions,
    out: &mut Sinks<'_>,
    sum: &mut Summary,
) -> Result<Flow, Stopped> {
    step_from(s, opts, out, sum, 0)
}

/// [`step_once`] in a run that started at step `k0` (`--every` counts from there).
fn step_from<S: Stepper + ?Sized>(
    s: &mut S,
    opts: &RunOptions,
    out: &mut Sinks<'_>,
    sum: &mut Summary,
    k0: u64,
) -> Result<Flow, Stopped> {
    let adv = s.advance(sum)?;
    if let Some(nc) = adv.not_converged {
        if opts.strict {
            return Err(Stopped::NotConverged { t: adv.t, residual: nc.residual, what: nc.what });
        }
        sum.not_converged += nc.count;
    }
    let every = opts.every.max(1);
    let keep = adv.step.is_some_and(|k| (k - k0.min(k)).is_multiple_of(every) || k == s.total());
    let flow = s.complete(&adv, keep, out, sum)?;
    if let Flow::Stop(t) = flow {
        sum.stopped_at = Some(t);
    }
    Ok(flow)
}

/// Runs `s` from where it is to its final time (or a stop event): the row of the current state
/// (row 0 of a new run), then [`step_once`] until [`Stepper::done`], checking the stop flags at
/// each step boundary; `--every` counts the steps from where the run starts. The summary counts
/// what was done even when the run stopped early.
pub fn drive<S: Stepper + ?Sized>(
    s: &mut S,
    out: &mut Sinks<'_>,
    opts: &RunOptions,
    progress: &mut dyn Progress,
) -> (Summary, Result<(), Stopped>) {
    let mut sum = Summary::default();
    let start = Instant::now();
    let res = run_loop(s, out, opts, progress, &mut sum);
    progress.finish();
    s.finish(&mut sum);
    sum.wall = start.elapsed();
    (sum, res)
}

/// Runs `f` (a [`drive`] of any stepper) on a worker of rayon's pool (with the `parallel`
/// feature): the NSGS slab sweep
/// (`domains` on `<NsgsAc>`) then opens its `rayon::scope` on the thread it already runs on,
/// instead of handing every step's solve to a pool worker and sleeping until it is done (two
/// thread wake-ups per step, about 0.3 ms per step on the 125-sphere pile). Same results.
pub fn on_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    return rayon::scope(|_| f());
    #[cfg(not(feature = "parallel"))]
    f()
}

fn run_loop<S: Stepper + ?Sized>(
    s: &mut S,
    out: &mut Sinks<'_>,
    opts: &RunOptions,
    progress: &mut dyn Progress,
    sum: &mut Summary,
) -> Result<(), Stopped> {
    s.write_start(out)?;
    let k0 = s.steps_done();
    let stride = s.progress_stride().max(1);
    let mut n = 0u64;
    while !s.done() {
        if let Some(sig) = opts.stop.pending() {
            return Err(Stopped::Signal(sig, s.time()));
        }
        if let Flow::Stop(_) = step_from(s, opts, out, sum, k0)? {
            return Ok(());
        }
        n += 1;
        if n.is_multiple_of(stride) {
            progress.update(s.steps_done(), s.time());
        }
    }
    Ok(())
}
