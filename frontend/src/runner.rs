//! Running a built model and writing its trajectory as CSV (the `saltus run` command).
//!
//! Rows are written while the simulation runs into `OUT.partial.csv`; the file is renamed to
//! `OUT.csv` only when the run completes. On failure the partial file stays (with every row
//! computed so far) and no `OUT.csv` exists. Event-driven runs: [`crate::runner_ed`].

use crate::xml::convert::{Advance, Built, Simulation};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use saltus_kernel::{KernelError, Nsds};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
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
    /// One-step solves that did not converge (accepted by the policy).
    pub not_converged: u64,
    /// Total Newton iterations.
    pub newton_iterations: u64,
    /// Rows written (including row 0).
    pub rows: u64,
    /// Wall time of the time (event) loop.
    pub wall: Duration,
}

/// Failure of a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Writing the output failed.
    #[error("cannot write {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A step failed; the rows computed so far are in `partial`.
    #[error("the simulation failed after {steps} {unit}: {error}\nthe {rows} rows computed so far are in {} (no {} was written)", .partial.display(), .out.display())]
    Step {
        /// The kernel error.
        error: Box<KernelError>,
        /// Steps done (event driven: time-discretisation events done).
        steps: u64,
        /// What `steps` counts: `"steps"` or `"time-discretisation events"`.
        unit: &'static str,
        /// Rows in the partial file.
        rows: u64,
        /// The partial file.
        partial: PathBuf,
        /// The file that would have been written.
        out: PathBuf,
    },
}

/// `OUT.csv` -> `OUT.partial.csv`.
pub fn partial_path(out: &Path) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    out.with_file_name(format!("{stem}.partial.csv"))
}

/// Column names: `t`, then per system `NAME.q[i]`, `NAME.v[i]` (Lagrangian) or `NAME.x[i]`,
/// then per interaction `NAME.y[i]`, `NAME.lambda[i]`.
pub fn header(nsds: &Nsds) -> Vec<String> {
    let mut h = vec!["t".to_string()];
    for (i, ds) in nsds.systems().iter().enumerate() {
        let name = nsds.ds_name(saltus_kernel::DsId(i as u32)).unwrap_or("ds");
        let (s, n) = if ds.is_lagrangian() { ("q", ds.dim()) } else { ("x", ds.dim()) };
        h.extend((0..n).map(|j| format!("{name}.{s}[{j}]")));
        if ds.is_lagrangian() {
            h.extend((0..n).map(|j| format!("{name}.v[{j}]")));
        }
    }
    for inter in nsds.interactions() {
        h.extend((0..inter.size()).map(|j| format!("{}.y[{j}]", inter.name)));
        h.extend((0..inter.size()).map(|j| format!("{}.lambda[{j}]", inter.name)));
    }
    h
}

/// The current row (`y`, `λ` at `level`; zeros where the kernel has not computed them yet).
pub fn row(nsds: &Nsds, level: usize, out: &mut Vec<f64>) {
    out.clear();
    out.push(nsds.t());
    for ds in nsds.systems() {
        out.extend_from_slice(ds.state().as_slice());
        if let Some(v) = ds.velocity() {
            out.extend_from_slice(v.as_slice());
        }
    }
    for inter in nsds.interactions() {
        let m = inter.size();
        for vec in [inter.y(level), inter.lambda(level)] {
            match vec {
                Some(v) if v.len() == m => out.extend_from_slice(v.as_slice()),
                _ => out.extend(std::iter::repeat_n(0.0, m)),
            }
        }
    }
}

/// Formats a number so that it reads back to the same double (shortest round-trip form).
pub fn fmt_num(v: f64, s: &mut String) {
    use std::fmt::Write as _;
    let a = v.abs();
    if v == 0.0 {
        s.push('0');
    } else if (1e-4..1e15).contains(&a) {
        let _ = write!(s, "{v}");
    } else {
        let _ = write!(s, "{v:e}");
    }
}

pub(crate) struct CsvOut {
    pub(crate) w: BufWriter<File>,
    line: String,
    path: PathBuf,
}

impl CsvOut {
    /// Creates `path` and writes the header line.
    pub(crate) fn create(path: &Path, head: &[String]) -> Result<CsvOut, RunError> {
        let io = |source| RunError::Io { path: path.to_path_buf(), source };
        let file = File::create(path).map_err(io)?;
        let mut csv = CsvOut { w: BufWriter::new(file), line: String::new(), path: path.to_path_buf() };
        csv.w.write_all(format!("{}\n", head.join(",")).as_bytes()).map_err(io)?;
        Ok(csv)
    }

    pub(crate) fn write_row(&mut self, r: &[f64]) -> Result<(), RunError> {
        self.line.clear();
        for (i, v) in r.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            fmt_num(*v, &mut self.line);
        }
        self.line.push('\n');
        self.w.write_all(self.line.as_bytes()).map_err(|source| RunError::Io { path: self.path.clone(), source })
    }
}

/// Options of [`run`].
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The CSV to produce.
    pub out: PathBuf,
    /// Write every N-th step (row 0 and the last row are always written).
    pub every: u64,
    /// No progress bar.
    pub quiet: bool,
}

/// Removes a stale `out` (a complete-looking file from an earlier run must not survive a failed
/// run) and returns the partial file's path.
pub(crate) fn prepare(out: &Path) -> Result<PathBuf, RunError> {
    if out.exists() {
        std::fs::remove_file(out).map_err(|source| RunError::Io { path: out.to_path_buf(), source })?;
    }
    Ok(partial_path(out))
}

/// Flushes the CSV and renames the partial file to `out`.
pub(crate) fn finish(mut csv: CsvOut, partial: &Path, out: &Path) -> Result<(), RunError> {
    csv.w.flush().map_err(|source| RunError::Io { path: partial.to_path_buf(), source })?;
    drop(csv);
    std::fs::rename(partial, out).map_err(|source| RunError::Io { path: out.to_path_buf(), source })
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

/// Runs `built` to its final time, writing the CSV as described in the module docs (event-driven
/// simulations: [`crate::runner_ed::run`]).
pub fn run(built: &mut Built, opts: &RunOptions) -> Result<Summary, RunError> {
    if matches!(built.sim, Simulation::EventDriven(_)) {
        return crate::runner_ed::run(built, opts);
    }
    let partial = prepare(&opts.out)?;
    let head = header(&built.nsds);
    let mut csv = CsvOut::create(&partial, &head)?;
    let mut r = Vec::with_capacity(head.len());
    row(&built.nsds, built.level, &mut r);
    csv.write_row(&r)?;
    let mut sum = Summary { rows: 1, ..Default::default() };
    let every = opts.every.max(1);
    let total = built.steps;
    let start = Instant::now();
    let mut bar = Progress::new(total, "steps", opts.quiet);
    let mut prev_active = 0usize;
    let mut k = 0u64;
    while k < total {
        let rep = match built.sim.advance(&mut built.nsds) {
            Ok(Advance::Step(rep)) => rep,
            Ok(Advance::Event(_)) => unreachable!("time-stepping simulations advance by steps"),
            Err(error) => {
                let _ = csv.w.flush();
                bar.finish();
                return Err(RunError::Step {
                    error: Box::new(error),
                    steps: k,
                    unit: "steps",
                    rows: sum.rows,
                    partial,
                    out: opts.out.clone(),
                });
            }
        };
        k += 1;
        sum.steps = k;
        sum.newton_iterations += rep.newton_iterations as u64;
        if let Some(s) = &rep.osnsp {
            sum.nonsmooth_steps += 1;
            sum.solver_iterations += s.iterations as u64;
            if s.residual > sum.max_residual {
                sum.max_residual = s.residual;
            }
            if !s.status.converged() {
                sum.not_converged += 1;
            }
        }
        if rep.active > prev_active {
            sum.events += 1;
        }
        prev_active = rep.active;
        if k.is_multiple_of(every) || k == total {
            row(&built.nsds, built.level, &mut r);
            csv.write_row(&r)?;
            sum.rows += 1;
        }
        if k.is_multiple_of(256) {
            bar.update(k, built.nsds.t());
        }
    }
    bar.finish();
    sum.wall = start.elapsed();
    finish(csv, &partial, &opts.out)?;
    Ok(sum)
}
