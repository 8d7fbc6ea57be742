//! `saltus run MODEL.xml -o OUT.hdf5`: the Siconos `mechanics_hdf5` layout
//! written by [`saltus_mechanics::io_hdf5`] as the scene sink of a [`MechRun`], driven by the
//! runtime's one loop (signals, `--every`, `--strict` and the summary as every run), into
//! `OUT.partial.hdf5` renamed on success.

use crate::mech_cmd::{summary_line, MechFailure, MechRunArgs};
use crate::progress::Bar;
use saltus_mechanics::io_hdf5::{Hdf5Options, MechanicsHdf5Writer};
use saltus_mechanics::{MechanicsSimulation, MechanicsStepReport};
use saltus_runtime::drive::{drive, on_pool, Discard, RunOptions, Sinks, Stepper};
use saltus_runtime::execute::{RunError, StoppedRun};
use saltus_runtime::interrupt::StopFlags;
use saltus_runtime::output::{Target, TargetError, TargetKind};
use saltus_runtime::run::mechanics::{MechRun, SceneSink};
use saltus_runtime::xml::convert_mech::MechanicsBuilt;
use std::path::PathBuf;

fn fail(message: String, code: u8) -> MechFailure {
    MechFailure { message, code }
}

/// The HDF5 writer as a [`SceneSink`]: it reads the poses, twists and contacts from the scene.
struct Hdf5Sink {
    writer: Option<MechanicsHdf5Writer>,
    path: PathBuf,
}

impl Hdf5Sink {
    fn io(&self, e: impl std::fmt::Display) -> TargetError {
        TargetError::Io { path: self.path.clone(), source: std::io::Error::other(e.to_string()) }
    }
}

impl SceneSink for Hdf5Sink {
    fn record(&mut self, sim: &MechanicsSimulation, rep: &MechanicsStepReport) -> Result<(), TargetError> {
        match self.writer.as_mut() {
            Some(w) => w.record(sim, rep).map_err(|e| self.io(e)),
            None => Ok(()),
        }
    }
    fn finish(&mut self) -> Result<(), TargetError> {
        match self.writer.take() {
            Some(w) => w.close().map_err(|e| self.io(e)),
            None => Ok(()),
        }
    }
}

/// Runs `built` into the HDF5 file `a.out` (see the module docs).
pub fn run(
    built: &MechanicsBuilt,
    a: &MechRunArgs,
    every: u64,
    inputs: &[PathBuf],
    stop: StopFlags,
    say: impl Fn(&str),
) -> Result<(), MechFailure> {
    if a.contacts {
        return Err(fail("--contacts: an HDF5 output already holds the contacts (data/cf)".into(), 1));
    }
    let target = Target::plan(&a.out, inputs).map_err(|e| fail(e.to_string(), 1))?;
    if *target.kind() == TargetKind::InPlace {
        return Err(fail(format!("`{}`: an HDF5 output must be a regular file", a.out.display()), 1));
    }
    let path = target.write_path().to_path_buf();
    let sim = built.simulation().map_err(|e| fail(e.to_string(), 1))?;
    let opts = Hdf5Options { output_frequency: every as usize, ..Default::default() };
    let writer = MechanicsHdf5Writer::create(&path, &sim, opts).map_err(|e| fail(e.to_string(), 1))?;
    let sink = Hdf5Sink { writer: Some(writer), path: path.clone() };
    let mut run = MechRun::new(sim, built.t0, built.h, built.steps)
        .with_events(built.events.clone())
        .map_err(|e| fail(e.to_string(), 1))?
        .with_trace(built.trace.clone())
        .with_scene_sink(Box::new(sink));
    let opts = RunOptions { every, quiet: a.quiet, strict: a.strict, stop };
    let mut bar = Bar::new(run.total(), run.unit(), a.quiet);
    let (mut sum, res) = on_pool(|| drive(&mut run, &mut Sinks::main(&mut Discard), &opts, &mut bar));
    sum.rows = sum.steps / every.max(1) + 1;
    let closed = run.finish_scene_sink();
    if !a.quiet {
        say(&summary_line(&a.model, built, &sum, &a.out));
    }
    if let Err(stopped) = res {
        let failure = run.describe_failure(&stopped);
        let (unit, out) = (run.unit(), a.out.clone());
        let e = RunError::Stopped(Box::new(StoppedRun {
            stopped,
            summary: sum,
            unit,
            kept: path,
            out,
            in_place: false,
            failure,
        }));
        return Err(fail(e.to_string(), e.exit_code()));
    }
    closed.map_err(|e| fail(e.to_string(), 1))?;
    target.commit().map_err(|e| fail(e.to_string(), 1))
}
