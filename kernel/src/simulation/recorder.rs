//! Running a simulation to a final time and recording trajectories.

use super::report::StepReport;
use super::time_stepping::TimeStepping;
use crate::error::KernelError;
use crate::model::nsds::Nsds;
use std::io::Write;

impl TimeStepping {
    /// Steps until `t_k` reaches `until`: `round((until − t0)/h) − k` more steps (Siconos's
    /// `while hasNextEvent()`), calling `f` after each step. Returns the number of steps done.
    pub fn run(
        &mut self,
        nsds: &mut Nsds,
        until: f64,
        f: &mut impl FnMut(&Nsds, &StepReport),
    ) -> Result<u64, KernelError> {
        let t0 = self.t() - self.k() as f64 * self.h();
        let total = ((until - t0) / self.h()).round().max(0.0) as u64;
        let mut done = 0;
        while self.k() < total {
            let rep = self.step(nsds)?;
            f(nsds, &rep);
            done += 1;
        }
        Ok(done)
    }
}

/// Free-function form of [`TimeStepping::run`].
pub fn run(
    sim: &mut TimeStepping,
    nsds: &mut Nsds,
    until: f64,
    f: &mut impl FnMut(&Nsds, &StepReport),
) -> Result<u64, KernelError> {
    sim.run(nsds, until, f)
}

/// Records one row per call: `t`, then per system its state (`x` or `q`), velocity `v`
/// (Lagrangian) and input (`r` or `p`), then per interaction `y₀`, `y₁` (Lagrangian relations)
/// and `λ` at the levels 0 and 1.
#[derive(Debug, Clone, Default)]
pub struct Recorder {
    header: Vec<String>,
    rows: Vec<Vec<f64>>,
}

impl Recorder {
    /// A recorder whose columns fit `nsds`.
    pub fn new(nsds: &Nsds) -> Self {
        let mut header = vec!["t".to_string()];
        for (i, ds) in nsds.systems().iter().enumerate() {
            let name = nsds.ds_name(crate::DsId(i as u32)).unwrap_or("ds");
            let (s, inp) = if ds.is_lagrangian() { ("q", "p") } else { ("x", "r") };
            for j in 0..ds.dim_q() {
                header.push(format!("{name}.{s}{j}"));
            }
            if ds.is_lagrangian() {
                for j in 0..ds.dim_v() {
                    header.push(format!("{name}.v{j}"));
                }
            }
            for j in 0..ds.dim_v() {
                header.push(format!("{name}.{inp}{j}"));
            }
        }
        for inter in nsds.interactions() {
            for level in 0..2 {
                for j in 0..inter.size() {
                    header.push(format!("{}.y{level}_{j}", inter.name));
                }
            }
            for level in 0..2 {
                for j in 0..inter.size() {
                    header.push(format!("{}.lambda{level}_{j}", inter.name));
                }
            }
        }
        Recorder { header, rows: Vec::new() }
    }

    /// Appends the current state of `nsds`.
    pub fn record(&mut self, nsds: &Nsds) {
        let mut row = Vec::with_capacity(self.header.len());
        row.push(nsds.t());
        for ds in nsds.systems() {
            row.extend_from_slice(ds.state().as_slice());
            if let Some(v) = ds.velocity() {
                row.extend_from_slice(v.as_slice());
            }
            row.extend_from_slice(ds.input().as_slice());
        }
        for inter in nsds.interactions() {
            for level in 0..2 {
                row.extend(inter.y(level).into_iter().flat_map(|v| v.iter().copied()));
            }
            for level in 0..2 {
                row.extend(inter.lambda(level).into_iter().flat_map(|v| v.iter().copied()));
            }
        }
        self.rows.push(row);
    }

    /// Column names.
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// Recorded rows.
    pub fn rows(&self) -> &[Vec<f64>] {
        &self.rows
    }

    /// Writes a CSV (one header line, values with 17 significant digits).
    pub fn write_csv(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.header.join(","))?;
        for row in &self.rows {
            let line: Vec<String> = row.iter().map(|v| format!("{v:.17e}")).collect();
            writeln!(out, "{}", line.join(","))?;
        }
        Ok(())
    }
}
