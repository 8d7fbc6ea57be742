//! `saltus view`: run a mechanics scene and write a self-contained HTML page that plays it in 3D
//! ([`saltus_mechanics::view`]).
//!
//! The scene comes from a model file with a `<Mechanics>` section (`saltus view MODEL.xml -o
//! OUT.html [--t T]`, built by [`build_mechanics_with`]) or from `--scene spheres_in_a_box --n N [--t T]
//! [--seed S]`.

use clap::Args;
use saltus_mechanics::body::BodyKind;
use saltus_mechanics::scenes::{self, Scene};
use saltus_mechanics::view::Recording;
use saltus_mechanics::MechanicsSimulation;
use saltus_runtime::drive::{drive, on_pool, NoProgress, RunOptions, Sinks, Stepper};
use saltus_runtime::output::{RowSink, TargetError};
use saltus_runtime::run::mechanics::{self as runner_mech, MechRun};
use saltus_runtime::xml::convert_mech::build_mechanics_with;
use std::path::{Path, PathBuf};

/// Arguments of `saltus view`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// An XML model with a `<Mechanics>` section.
    #[arg(value_name = "MODEL.xml", conflicts_with = "scene")]
    pub model: Option<PathBuf>,
    /// A built-in scene: spheres_in_a_box.
    #[arg(long, value_name = "NAME")]
    pub scene: Option<String>,
    /// Number of bodies of the built-in scene.
    #[arg(long, default_value_t = 125, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub n: u64,
    /// Final time (default: the scene's, 0.5 s for N ≤ 125, else 1 s).
    #[arg(long, value_name = "T")]
    pub t: Option<f64>,
    /// Seed of the scene's random offsets.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Record every N-th step (default: one frame per 1/100 s of simulated time).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub every: Option<u64>,
    /// The HTML page to write.
    #[arg(short, long, value_name = "OUT.html")]
    pub output: PathBuf,
}

/// Why `saltus view` failed.
#[derive(Debug)]
pub enum ViewFailure {
    /// Bad command line (exit code 2).
    Usage(String),
    /// Bad model or failed run (exit code 1).
    Input(String),
}

/// What [`write_view`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewSummary {
    /// Bodies in the scene.
    pub bodies: usize,
    /// Steps taken.
    pub steps: usize,
    /// Frames in the page.
    pub frames: usize,
    /// Size of the page in bytes.
    pub bytes: usize,
}

/// Runs `scene` from 0 to `scene.t_end`, records the initial state and every `every`-th step
/// (and the last one), and writes the page to `out`. The hook for XML `<Mechanics>` models.
pub fn write_view(scene: Scene, every: Option<usize>, out: &Path) -> Result<ViewSummary, String> {
    let steps = scene.n_steps();
    let sim = scene.into_simulation().map_err(|e| e.to_string())?;
    write_view_of(sim, Vec::new(), None, 0.0, steps, every, out)
}

/// The page's frames, filled from the rows of the body table (`t`, then
/// [`runner_mech::BODY_COLUMNS`] per moving body, the pose first). A body outside its lifetime
/// (`NAME.alive` = 0) gets a NaN pose, which the page does not draw.
struct Frames {
    rec: Recording,
    /// Per moving body, the column of its `NAME.alive`, if it has one.
    alive: Vec<Option<usize>>,
    buf: Vec<f64>,
}

impl Frames {
    /// The frames of `run`'s moving bodies, starting with `rec`'s scene.
    fn new(rec: Recording, run: &MechRun) -> Frames {
        let columns = run.columns();
        let alive = (run.sim.model.bodies.iter().filter(|b| b.kind != BodyKind::Static))
            .map(|b| columns.iter().position(|c| *c == format!("{}.alive", b.name)))
            .collect();
        Frames { rec, alive, buf: Vec::new() }
    }
}

impl RowSink for Frames {
    fn row(&mut self, values: &[f64]) -> Result<(), TargetError> {
        let stride = runner_mech::BODY_COLUMNS.len();
        self.buf.clear();
        self.buf.extend_from_slice(&values[1..]);
        for (m, col) in self.alive.iter().enumerate() {
            if col.is_some_and(|c| values[c] == 0.0) {
                self.buf[m * stride..m * stride + 7].fill(f64::NAN);
            }
        }
        self.rec.push_frame(values[0], &self.buf, stride);
        Ok(())
    }
}

/// [`write_view`] of a simulation already set up (an XML `<Mechanics>` model's, with its user
/// events and its controllers), for `steps` steps from `t0`: driven by the runtime's run loop,
/// recording every `every`-th step (and the rows of located events).
pub fn write_view_of(
    sim: MechanicsSimulation,
    events: Vec<saltus_kernel::UserEvent>,
    control: Option<saltus_runtime::run::control::BodyControl>,
    t0: f64,
    steps: usize,
    every: Option<usize>,
    out: &Path,
) -> Result<ViewSummary, String> {
    let every = every.unwrap_or_else(|| ((0.01 / sim.step_size()).round() as usize).max(1)).max(1);
    let h = sim.step_size();
    let rec = Recording::new(&sim.model);
    let mut run =
        MechRun::new(sim, t0, h, steps as u64).with_events(events).map_err(|e| e.to_string())?.with_control(control);
    let mut frames = Frames::new(rec, &run);
    let opts = RunOptions { every: every as u64, ..RunOptions::default() };
    let (_, res) = on_pool(|| drive(&mut run, &mut Sinks::main(&mut frames), &opts, &mut NoProgress));
    if let Err(e) = res {
        return Err(run.describe_failure(&e).unwrap_or_else(|| e.to_string()));
    }
    let rec = frames.rec;
    let html = rec.html();
    std::fs::write(out, &html).map_err(|e| format!("cannot write `{}`: {e}", out.display()))?;
    Ok(ViewSummary { bodies: run.sim.model.n_bodies(), steps, frames: rec.n_frames(), bytes: html.len() })
}

/// `saltus view`.
pub fn run(a: &ViewArgs) -> Result<ViewSummary, ViewFailure> {
    if a.output.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() != Some("html") {
        return Err(ViewFailure::Usage(format!("the output `{}` must end in .html", a.output.display())));
    }
    if let Some(t) = a.t {
        if !(t > 0.0 && t.is_finite()) {
            return Err(ViewFailure::Usage(format!("--t must be a finite time > 0, got {t}")));
        }
    }
    let scene = match (&a.model, a.scene.as_deref()) {
        (Some(m), _) => {
            let input = |e: String| ViewFailure::Input(e);
            let loaded = saltus_runtime::xml::load_file(m).map_err(|e| input(e.to_string()))?;
            if loaded.model.mechanics.is_none() {
                return Err(input(format!(
                    "{}: `saltus view` plays <Mechanics> scenes; this model has none (plot its run with `saltus plot`)",
                    m.display()
                )));
            }
            // plugin libraries (a body's <ExternalForce>) beside the model, then beside this executable
            let exe_dir = std::env::current_exe().ok().and_then(|e| e.parent().map(std::path::Path::to_path_buf));
            let built = build_mechanics_with(&loaded, exe_dir.into_iter().collect(), Default::default())
                .map_err(|e| input(e.to_string()))?;
            let t_end = a.t.unwrap_or(built.t_end);
            if t_end <= built.t0 {
                return Err(ViewFailure::Usage(format!(
                    "--t must be after t0 = {}",
                    saltus_runtime::xml::plain(built.t0)
                )));
            }
            let steps = ((t_end - built.t0) / built.h).round() as usize;
            let sim = built.simulation().map_err(|e| input(e.to_string()))?;
            return write_view_of(
                sim,
                built.events,
                built.control,
                built.t0,
                steps,
                a.every.map(|e| e as usize),
                &a.output,
            )
            .map_err(ViewFailure::Input);
        }
        (None, Some("spheres_in_a_box")) => {
            scenes::spheres_in_a_box(a.n as usize, a.seed).map_err(|e| ViewFailure::Input(e.to_string()))?
        }
        (None, Some(other)) => {
            return Err(ViewFailure::Usage(format!("unknown scene `{other}` (known: spheres_in_a_box)")))
        }
        (None, None) => return Err(ViewFailure::Usage("give a MODEL.xml or --scene NAME".into())),
    };
    let scene = Scene { t_end: a.t.unwrap_or(scene.t_end), ..scene };
    write_view(scene, a.every.map(|e| e as usize), &a.output).map_err(ViewFailure::Input)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hopper's frames: a sphere has a NaN pose (not drawn) before its birth and after its
    /// death, a finite one while it exists.
    #[test]
    fn bodies_outside_their_lifetime_are_not_drawn() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/hopper/hopper.xml");
        let loaded = saltus_runtime::xml::load_file(&root).unwrap();
        let built = saltus_runtime::xml::convert_mech::build_mechanics(&loaded).unwrap();
        let sim = built.simulation().unwrap();
        let rec = Recording::new(&sim.model);
        let mut run = MechRun::new(sim, built.t0, built.h, 1600);
        let mut frames = Frames::new(rec, &run);
        let opts = RunOptions { every: 100, ..RunOptions::default() };
        drive(&mut run, &mut Sinks::main(&mut frames), &opts, &mut NoProgress).1.unwrap();
        // frames at t = 0, 0.1, ..., 1.6; the moving bodies are s0..s7 in file order
        let shown = |k: usize, m: usize| frames.rec.frame_pose(k, m).unwrap().iter().all(|x| x.is_finite());
        assert!(shown(0, 0) && !shown(0, 7), "t = 0: s0 exists, s7 (birth 0.7) not yet");
        assert!(shown(7, 7) && shown(14, 1) && !shown(15, 1), "s7 from 0.7; s1 until its death at 1.5");
        assert!(frames.rec.frame_pose(16, 6).unwrap().iter().all(|x| x.is_nan()), "s6 removed at 1.5");
    }
}
