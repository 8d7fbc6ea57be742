//! `saltus run` and `saltus check` on a `<Mechanics>` model (the CLI glue of
//! [`saltus_runtime::xml::convert_mech`] and [`saltus_runtime::run::mechanics`]); `main.rs`
//! prints what these return.

use saltus_mechanics::Formulation;
use saltus_numerics::fc::GfcSolver;
use saltus_runtime::drive::{RunOptions, Stepper, Summary};
use saltus_runtime::execute::execute;
use saltus_runtime::interrupt::StopFlags;
use saltus_runtime::output::{inputs, Format, Target};
use saltus_runtime::run::mechanics::{self as runner_mech, MechRun};
use saltus_runtime::xml::convert_mech::{build_mechanics_with, MechanicsBuilt};
use saltus_runtime::xml::{plain, LoadedModel};
use std::path::{Path, PathBuf};

/// Why a mechanics command failed: the message and the exit code (1 input or failed run,
/// 3 `--strict`, 130/143 signals).
#[derive(Debug)]
pub struct MechFailure {
    /// What went wrong.
    pub message: String,
    /// Process exit code.
    pub code: u8,
}

fn input(message: String) -> MechFailure {
    MechFailure { message, code: 1 }
}

/// Options of `saltus run` for a mechanics model.
#[derive(Debug, Clone)]
pub struct MechRunArgs {
    /// The model file.
    pub model: PathBuf,
    /// The output (`.csv`, `.npy`, or `.hdf5`/`.h5`: the Siconos `mechanics_hdf5` layout).
    pub out: PathBuf,
    /// `--every` (else the model's `<Output every>`, else 1).
    pub every: Option<u64>,
    /// `--quiet`.
    pub quiet: bool,
    /// `--strict`.
    pub strict: bool,
    /// `--force`.
    pub force: bool,
    /// `--contacts`: also write `OUT.contacts.EXT`.
    pub contacts: bool,
    /// `--plugin-dir` (only for the inputs check).
    pub plugin_dirs: Vec<PathBuf>,
}

/// `true` when `out` asks for HDF5 (`.hdf5`, `.h5`).
pub fn is_hdf5(out: &Path) -> bool {
    matches!(out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref(), Some("hdf5" | "h5"))
}

/// `OUT.contacts.EXT` beside `OUT.EXT`.
pub fn contacts_path(out: &Path) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let ext = out.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_else(|| "csv".into());
    out.with_file_name(format!("{stem}.contacts.{ext}"))
}

/// The summary line of a mechanics run.
pub fn summary_line(model: &Path, built: &MechanicsBuilt, s: &Summary, out: &Path) -> String {
    let events = user_events_note(model, s).map(|l| format!("\n{l}")).unwrap_or_default();
    format!(
        "{}: {} steps (h = {}), {} bodies, {} steps with {}, {} contact events, {} solver iterations, max residual {:.3e}, {} steps not converged, wall time {:.3} s; {} rows written to {}{events}",
        model.display(),
        s.steps,
        plain(built.h),
        built.model.n_bodies(),
        s.nonsmooth_steps,
        if built.model.joints().is_empty() { "contacts" } else { "joints or contacts" },
        s.events,
        s.solver_iterations,
        s.max_residual,
        s.not_converged,
        s.wall.as_secs_f64(),
        s.rows,
        out.display()
    )
}

/// `MODEL: N user events[; stopped by an event at t = …]`, if the run had user events (the CLI
/// prints it after the summary of every kind of run).
pub fn user_events_note(model: &Path, sum: &Summary) -> Option<String> {
    (sum.user_events > 0).then(|| {
        let stop = sum.stopped_at.map(|t| format!("; stopped by an event at t = {}", plain(t))).unwrap_or_default();
        format!("{}: {} user events{stop}", model.display(), sum.user_events)
    })
}

/// `saltus run` on a loaded `<Mechanics>` model; `say` receives the summary line (unless quiet).
pub fn run(loaded: &LoadedModel, a: &MechRunArgs, stop: StopFlags, say: impl Fn(&str)) -> Result<(), MechFailure> {
    let built =
        build_mechanics_with(loaded, a.plugin_dirs.clone(), Default::default()).map_err(|e| input(e.to_string()))?;
    let every = a.every.or(built.every).unwrap_or(1);
    let inputs = inputs::model_inputs(&a.model, &a.plugin_dirs);
    if is_hdf5(&a.out) {
        return crate::runner_mech_hdf5::run(&built, a, every, &inputs, stop, say);
    }
    let target = Target::plan(&a.out, &inputs).map_err(|e| input(e.to_string()))?;
    let contacts = if a.contacts {
        let p = contacts_path(&a.out);
        if *target.kind() == saltus_runtime::output::TargetKind::InPlace {
            return Err(input(format!(
                "--contacts needs a regular output file (the contacts go to OUT.contacts.EXT beside it), not `{}`",
                a.out.display()
            )));
        }
        Some(Target::plan(&p, &inputs).map_err(|e| input(e.to_string()))?)
    } else {
        None
    };
    if !a.force {
        let cols = runner_mech::header(&built.model).len() as u64;
        let rows = built.steps / every + 2;
        let bytes = rows.saturating_mul(Format::of(&a.out).bytes_per_row(cols as usize));
        if built.steps > 100_000_000 || bytes > 10_000_000_000 {
            return Err(input(format!(
                "this run has {} steps and would write about {:.0} GB: use --every N, or pass --force",
                built.steps,
                bytes as f64 / 1e9
            )));
        }
    }
    let mut run = MechRun::from_built(&built).map_err(|e| input(e.to_string()))?;
    let opts = RunOptions { every, quiet: a.quiet, strict: a.strict, stop };
    let mut bar = crate::progress::Bar::new(run.total(), run.unit(), a.quiet);
    match execute(&mut run, &opts, target, contacts, &mut bar) {
        Ok(sum) => {
            if !a.quiet {
                say(&summary_line(&a.model, &built, &sum, &a.out));
            }
            Ok(())
        }
        Err(e) => {
            if let (Some(sum), false) = (e.summary(), a.quiet) {
                say(&summary_line(&a.model, &built, sum, &a.out));
            }
            Err(MechFailure { message: e.to_string(), code: e.exit_code() })
        }
    }
}

/// `saltus check` on a `<Mechanics>` model: the lines to print, after building the scene (and,
/// with `strict`, taking its first step: exit code 3 if its solver did not converge).
pub fn check(
    loaded: &LoadedModel,
    model: &Path,
    strict: bool,
    plugin_dirs: Vec<PathBuf>,
) -> Result<Vec<String>, MechFailure> {
    let built = build_mechanics_with(loaded, plugin_dirs, Default::default()).map_err(|e| input(e.to_string()))?;
    let moving = built.model.bodies.iter().filter(|b| b.is_dynamic()).count();
    let n_joints = built.model.joints().len();
    let (osi, osnsp) = built.options.formulation.siconos_names();
    let p = &built.options.joint_projection;
    let contacts =
        if p.enabled && p.contacts { format!(", contacts tol = {:e}", p.contact_tol) } else { String::new() };
    let problem = if n_joints == 0 {
        let solver = match &built.options.formulation {
            Formulation::Local => built.options.solver.name().to_string(),
            Formulation::Global(GfcSolver::Condensed(s)) => format!("condensed, {}", s.name()),
            Formulation::Global(GfcSolver::Nsgs(_)) => "nsgs (global)".into(),
        };
        let projection = if contacts.is_empty() { String::new() } else { format!("; projection{contacts}") };
        format!("{osnsp}(3) {solver}{projection}")
    } else {
        let projection =
            if p.enabled { format!("projection tol = {:e}{contacts}", p.tol) } else { "no projection".into() };
        format!("{n_joints} joints; GenericMechanical GaussSeidel, {projection}")
    };
    let mut lines = vec![format!(
        "{}: OK — mechanics: {} bodies ({} dynamic), {} contactors; {} steps of h = {} from t0 = {} to T = {}; {osi} (theta = {}) + {problem}",
        model.display(),
        built.model.n_bodies(),
        moving,
        built.model.colliders.len(),
        built.steps,
        plain(built.h),
        plain(built.t0),
        plain(built.t_end),
        plain(built.options.theta),
    )];
    if let Some(t) = &loaded.model.title {
        lines.push(format!("title: {t}"));
    }
    if strict {
        // the run's own first step: user events, trace and controllers included
        let mut run = MechRun::from_built(&built).map_err(|e| input(e.to_string()))?;
        let adv = run.advance(&mut Summary::default()).map_err(|e| {
            input(format!("the first step failed: {}", run.describe_failure(&e).unwrap_or_else(|| e.to_string())))
        })?;
        match adv.not_converged {
            Some(nc) => {
                return Err(MechFailure {
                    message: format!(
                        "--strict: {} did not converge in the first step (residual {:.3e})",
                        nc.what, nc.residual
                    ),
                    code: 3,
                })
            }
            None => lines.push("first step: converged".into()),
        }
    }
    Ok(lines)
}
