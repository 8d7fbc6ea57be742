//! Running a built model and writing its trajectory as CSV (the `saltus run` command).
//!
//! Rows are written while the simulation runs into `OUT.partial.csv`; the file is renamed to
//! `OUT.csv` only when the run completes. On failure the partial file stays (with every row
//! computed so far) and no `OUT.csv` exists.

use crate::xml::convert::Built;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use saltus_kernel::{KernelError, Nsds};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Time steps done.
    pub steps: u64,
    /// Steps whose one-step problem was solved (some interaction active).
    pub nonsmooth_steps: u64,
    /// Steps where the set of active interactions grew (impacts, contact/diode switches).
    pub events: u64,
    /// Total iterations of the one-step solver.
    pub solver_iterations: u64,
    /// Largest residual reported by the one-step solver.
    pub max_residual: f64,
    /// One-step solves that did not converge (accepted by the policy).
    pub not_converged: u64,
    /// Total Newton iterations.
    pub newton_iterations: u64,
    /// Rows written (including row 0).
    pub rows: u64,
    /// Wall time of the time loop.
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
    #[error("the simulation failed after {steps} steps: {error}\nthe {rows} rows computed so far are in {} (no {} was written)", .partial.display(), .out.display())]
    Step {
        /// The kernel error.
        error: KernelError,
        /// Steps done.
        steps: u64,
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

struct CsvOut {
    w: BufWriter<File>,
    line: String,
    path: PathBuf,
}

impl CsvOut {
    fn write_row(&mut self, r: &[f64]) -> Result<(), RunError> {
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

/// Runs `built` to its final time, writing the CSV as described in the module docs.
pub fn run(built: &mut Built, opts: &RunOptions) -> Result<Summary, RunError> {
    let partial = partial_path(&opts.out);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| RunError::Io { path: path.clone(), source }
    };
    // A stale complete-looking file from an earlier run must not survive a failed run.
    if opts.out.exists() {
        std::fs::remove_file(&opts.out).map_err(io(&opts.out))?;
    }
    let file = File::create(&partial).map_err(io(&partial))?;
    let mut csv = CsvOut { w: BufWriter::new(file), line: String::new(), path: partial.clone() };
    let head = header(&built.nsds);
    csv.w.write_all(format!("{}\n", head.join(",")).as_bytes()).map_err(io(&partial))?;
    let mut r = Vec::with_capacity(head.len());
    row(&built.nsds, built.level, &mut r);
    csv.write_row(&r)?;
    let mut sum = Summary { rows: 1, ..Default::default() };
    let every = opts.every.max(1);
    let total = built.steps;
    let start = Instant::now();
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} steps, t = {msg} ({elapsed}, ETA {eta})").unwrap_or_else(|_| ProgressStyle::default_bar()));
    let mut shown = false;
    let mut prev_active = 0usize;
    let mut k = 0u64;
    while k < total {
        let rep = match built.sim.step(&mut built.nsds) {
            Ok(rep) => rep,
            Err(error) => {
                let _ = csv.w.flush();
                bar.finish_and_clear();
                return Err(RunError::Step { error, steps: k, rows: sum.rows, partial, out: opts.out.clone() });
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
        if k % every == 0 || k == total {
            row(&built.nsds, built.level, &mut r);
            csv.write_row(&r)?;
            sum.rows += 1;
        }
        if k % 256 == 0 {
            if !shown && !opts.quiet && start.elapsed() > Duration::from_secs(1) {
                bar.set_draw_target(ProgressDrawTarget::stderr());
                shown = true;
            }
            bar.set_position(k);
            bar.set_message(format!("{:.6e}", built.nsds.t()));
        }
    }
    bar.finish_and_clear();
    sum.wall = start.elapsed();
    csv.w.flush().map_err(io(&partial))?;
    drop(csv);
    std::fs::rename(&partial, &opts.out).map_err(io(&opts.out))?;
    Ok(sum)
}
