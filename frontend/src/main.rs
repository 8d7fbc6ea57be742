//! `saltus`: run, check and plot nonsmooth dynamical system models; solve numerics problem files.
//!
//! Exit codes: 0 success, 1 model/input error or failed run, 2 usage error, 3 a non-converged
//! step with `--strict`, 130/143 interrupted by SIGINT/SIGTERM.
//!
//! Messages go through [`say`] and [`warn`], which ignore write errors: a closed pipe on
//! stdout or stderr (`saltus check m.xml | head -0`) never panics.

use clap::{Args, Parser, Subcommand};
use saltus_frontend::progress::Bar;
use saltus_frontend::{mech_cmd, plot, solve_cmd, view_cmd};
use saltus_runtime::drive::{RunOptions, Stepper, Summary};
use saltus_runtime::execute::execute;
use saltus_runtime::interrupt::StopFlags;
use saltus_runtime::output::{inputs, Format, Target};
use saltus_runtime::problem;
use saltus_runtime::run::kernel::{self as runner, ModelRun};
use saltus_runtime::run::nullspace::NullSpaceRun;
use saltus_runtime::xml;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs longer than this many steps need `--force`.
const MAX_STEPS: u64 = 100_000_000;
/// Outputs estimated larger than this need `--force`.
const MAX_OUTPUT_BYTES: u64 = 10_000_000_000;

/// Prints a line on stdout, ignoring errors (closed pipe).
fn say(line: std::fmt::Arguments) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// Prints a line on stderr, ignoring errors (closed pipe).
fn warn(line: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

const PLUGIN_NOTE: &str = "Plugins: libraries named in the model resolve relative to the model file, then to each --plugin-dir, then to the directory of the saltus executable (where `cargo build --release --workspace` puts the example plugins). Loading a plugin runs its code: only use trusted plugins.";

#[derive(Parser)]
#[command(name = "saltus", version, about = "Nonsmooth dynamical systems: run XML models, plot trajectories, solve complementarity problems", long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 model or input error (or failed run), 2 usage error, 3 non-converged step with --strict, 130/143 interrupted (SIGINT/SIGTERM).\n\nExample:\n  saltus run samples/bouncing_ball/bouncing_ball_ts.xml -o ball.csv\n  saltus plot ball.csv -o ball.png --columns 'ball.q[0],ball.v[0]'"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Args)]
struct PluginArgs {
    /// Directory searched for plugin libraries after the model's directory (repeatable).
    #[arg(long = "plugin-dir", value_name = "DIR")]
    plugin_dirs: Vec<PathBuf>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a simulation and write its trajectory as CSV.
    #[command(after_help = format!("Columns: t (the exact step time t0 + k h, shortest form), then NAME.q[i], NAME.v[i] (Lagrangian systems) or NAME.x[i] (first-order systems), then for each interaction NAME.y[i] (y at level 0: the gap of a Lagrangian relation), NAME.ydot[i] (Lagrangian relations: the relative velocity, level 1) and NAME.lambda[i] (at the level the one-step problem solves: the impulse over the step for Moreau-Jean, lambda for Euler-Moreau). Row 0 is the initial state.\n\
Event-driven models (<EventDriven>): one row per processed event and a last column `kind`: 0 time-discretisation event t0 + k h, 1 pre-impact state, 2 post-impact state (rows 1 and 2 share t). NAME.lambda is the contact force on kind 0 rows, 0 on kind 1 rows, the impact impulse on kind 2 rows. First-order event-driven models (diodes, relays: mode switches are the events): kind 1 and 2 rows hold the state at the switch with y and lambda of the mode before (1) and after (2) it. The initial state is not written; --every N keeps every N-th kind-0 row.\n\
Output: OUT.csv (text) or OUT.npy (NumPy structured array, one float64 field per column: numpy.load(OUT)['t'], pandas.DataFrame(numpy.load(OUT))). Rows go to OUT.partial.csv (.npy), renamed to OUT only when the run completes; an existing FIFO or character device (e.g. /dev/stdout) is written in place. The output must not be an input (model, data file, plugin) nor a directory.\n\
<Mechanics> models (rigid bodies): columns t, then per moving body NAME.x, .y, .z (centre of mass), NAME.qw, .qx, .qy, .qz (orientation), NAME.vx, .vy, .vz (velocity, world frame), NAME.wx, .wy, .wz (angular velocity, body frame); --contacts also writes one row per contact and written step to OUT.contacts.csv (.npy); -o OUT.hdf5 (or .h5) writes the Siconos mechanics_hdf5 layout.\n\
The summary (unless --quiet) gives the steps or events, solver iterations, max residual, the steps that did not converge (accepted unless --strict) and the wall time of the run.\n\
On failure or SIGINT/SIGTERM (at a step boundary) the complete rows computed so far are kept in OUT.partial.csv (an earlier OUT.csv is left unchanged) and the exit code is 1, or 130/143; with --strict a non-converged step stops the run with exit code 3. Rows are flushed every 0.5 s, so a crash keeps the rows computed before it.\n{PLUGIN_NOTE}\n\nExample:\n  saltus run samples/bouncing_ball/bouncing_ball_ts.xml -o ball.csv --every 10\n  saltus run samples/bouncing_ball/bouncing_ball_ts_plugin.xml --plugin-dir target/release\n  saltus run samples/bouncing_ball/bouncing_ball_ed.xml -o ball_ed.csv\n  saltus plot ball_ed.csv -o ball_ed.png --columns 'ball.q[0],ball.v[0]'"))]
    Run {
        /// The model file.
        model: PathBuf,
        /// Output file, .csv or .npy (default: the model's file name with .csv, in the current directory).
        #[arg(short, long, value_name = "OUT.csv|OUT.npy")]
        output: Option<PathBuf>,
        /// Write every N-th step (row 0 and the last step are always written); event driven: every N-th time-discretisation event (impact rows are always written).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        every: Option<u64>,
        /// No progress bar and no summary.
        #[arg(short, long)]
        quiet: bool,
        /// A step whose one-step solver (or Newton loop) does not converge is an error (exit code 3).
        #[arg(long)]
        strict: bool,
        /// Run even above 10^8 steps or an estimated 10 GB of output.
        #[arg(long)]
        force: bool,
        /// `<Mechanics>` models: also write the contacts of every written step to OUT.contacts.csv (.npy).
        #[arg(long)]
        contacts: bool,
        #[command(flatten)]
        plugins: PluginArgs,
    },
    /// Validate a model (schema, sizes, plugins, simulation setup) without running it.
    #[command(after_help = format!("{PLUGIN_NOTE}\n\nExample:\n  saltus check samples/diode_bridge/diode_bridge.xml\n  saltus check samples/bouncing_ball/bouncing_ball_ed.xml"))]
    Check {
        /// The model file.
        model: PathBuf,
        /// Also take the first step: exit code 3 if its one-step solver (or Newton loop) does not converge.
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        plugins: PluginArgs,
    },
    /// Plot columns of a trajectory CSV against its first column (PNG or SVG).
    #[command(after_help = "Example:\n  saltus plot ball.csv -o ball.svg --columns 'ball.q[0],ball.v[0]'")]
    Plot {
        /// The CSV (one header line).
        csv: PathBuf,
        /// Output image, .png or .svg.
        #[arg(short, long, value_name = "FIG.png|FIG.svg")]
        output: PathBuf,
        /// Columns to plot, comma-separated (default: all but the first).
        #[arg(long, value_delimiter = ',', value_name = "a,b,...")]
        columns: Vec<String>,
        /// Title (default: the CSV file name).
        #[arg(long)]
        title: Option<String>,
    },
    /// Solve numerics problem files (Siconos .dat format; FCLib .hdf5; XML problem files of an NCP, MCP or VI) and print one CSV row per file.
    #[command(after_help = solve_help())]
    Solve {
        /// Problem files or folders.
        #[arg(required = true, value_name = "FILE_OR_DIR")]
        paths: Vec<PathBuf>,
        /// Solver name (see `saltus solvers`).
        #[arg(short, long)]
        solver: String,
        /// Problem type: lcp, mlcp, relay, qp, fc2d, fc3d, gfc3d or rfc3d (rolling friction).
        #[arg(long = "type", value_name = "TYPE")]
        kind: Option<String>,
        /// Tolerance on the problem's residual.
        #[arg(long, default_value_t = 1e-8)]
        tol: f64,
        /// Iteration cap.
        #[arg(long, default_value_t = 10_000)]
        max_iter: usize,
        /// Also write `DIR/<problem file name>.txt` with the solution vectors, one per line.
        #[arg(long, value_name = "DIR")]
        solutions: Option<PathBuf>,
        #[command(flatten)]
        plugins: PluginArgs,
    },
    /// Run a mechanics scene and write a self-contained HTML page playing it in 3D (WebGL, no network).
    #[command(
        after_help = "Drag to orbit, wheel to zoom; play/pause and a time slider.\n\nExample:\n  saltus view samples/spheres_in_a_box/spheres_in_a_box_125.xml -o spheres.html\n  saltus view --scene spheres_in_a_box --n 125 -o spheres.html"
    )]
    View(view_cmd::ViewArgs),
    /// List the numerics solvers: one name per line, then a space and a description.
    #[command(after_help = "Example:\n  saltus solvers --type lcp\n  saltus solvers --elements")]
    Solvers {
        /// Only this problem type (lcp, mlcp, relay, qp, fc2d, fc3d, gfc3d).
        #[arg(long = "type", value_name = "TYPE", conflicts_with = "elements")]
        kind: Option<String>,
        /// The model files' solver elements instead: one per line, `ELEMENT [PROBLEM] attributes…`
        /// (the problem element it is a child of, the attributes it takes), then its description.
        #[arg(long)]
        elements: bool,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            // clap: 0 for --help/--version, 2 for usage errors.
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match dispatch(cli.cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(msg)) => {
            warn(format_args!("error: {msg}"));
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            warn(format_args!("error: {msg}\n\nFor more information, try '--help'."));
            ExitCode::from(2)
        }
        Err(Failure::Code(msg, code)) => {
            warn(format_args!("error: {msg}"));
            ExitCode::from(code)
        }
    }
}

enum Failure {
    /// Bad model, input file or failed run (exit 1).
    Input(String),
    /// A run stopped with its own exit code (3 strict, 130/143 signals).
    Code(String, u8),
    /// Bad command line (exit 2).
    Usage(String),
}

/// `--plugin-dir` options, then the directory of this executable: `cargo build --workspace` puts the
/// workspace's plugin libraries beside the `saltus` binary, so the samples run without options.
fn search_dirs(mut plugin_dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    if let Some(dir) = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)) {
        plugin_dirs.push(dir);
    }
    plugin_dirs
}

fn dispatch(cmd: Cmd) -> Result<(), Failure> {
    match cmd {
        Cmd::Run { model, output, every, quiet, strict, force, contacts, plugins } => {
            let out = output.unwrap_or_else(|| {
                let stem = model.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
                PathBuf::from(format!("{stem}.csv"))
            });
            if problem::is_problem_file(&model) {
                return Err(Failure::Usage(format!(
                    "{} is a problem file (root <Problem>), not a model: solve it with `saltus solve --solver NAME {}`",
                    model.display(),
                    model.display()
                )));
            }
            // the output path first (cheap), then again against every input once they are known
            Target::plan(&out, std::slice::from_ref(&model)).map_err(|e| Failure::Input(e.to_string()))?;
            let loaded = xml::load_file(&model).map_err(|e| Failure::Input(e.to_string()))?;
            if loaded.model.mechanics.is_some() {
                let plugin_dirs = search_dirs(plugins.plugin_dirs);
                let a = mech_cmd::MechRunArgs { model, out, every, quiet, strict, force, contacts, plugin_dirs };
                let stop = StopFlags::install().unwrap_or_else(|_| StopFlags::none());
                return mech_cmd::run(&loaded, &a, stop, |l| warn(format_args!("{l}"))).map_err(from_mech);
            }
            if contacts {
                return Err(Failure::Usage("--contacts applies to <Mechanics> models only".into()));
            }
            if loaded.model.control.is_some() {
                return run_control(&model, &loaded, &out, every, quiet, force, plugins.plugin_dirs);
            }
            if loaded.model.null_space.is_some() {
                return run_nullspace(&model, &loaded, &out, every, quiet, force, plugins.plugin_dirs);
            }
            let built = xml::convert::build(&loaded, search_dirs(plugins.plugin_dirs.clone()))
                .map_err(|e| Failure::Input(e.to_string()))?;
            let every = every.or(built.every).unwrap_or(1);
            let inputs = inputs::model_inputs(&model, &search_dirs(plugins.plugin_dirs));
            let target = Target::plan(&out, &inputs).map_err(|e| Failure::Input(e.to_string()))?;
            if !force {
                check_size(&built, every, Format::of(&out))?;
            }
            let stop = StopFlags::install().unwrap_or_else(|_| StopFlags::none());
            let opts = RunOptions { every, quiet, strict, stop };
            let mut run = ModelRun::new(built);
            let mut bar = Bar::new(run.total(), run.unit(), quiet);
            match execute(&mut run, &opts, target, None, &mut bar) {
                Ok(sum) => {
                    if !quiet {
                        summary(&model, &run.built, &sum, &out);
                    }
                    Ok(())
                }
                Err(e) => {
                    if let (Some(sum), false) = (e.summary(), quiet) {
                        summary(&model, &run.built, sum, &out);
                    }
                    Err(Failure::Code(e.to_string(), e.exit_code()))
                }
            }
        }
        Cmd::Check { model, strict, plugins } => {
            if problem::is_problem_file(&model) {
                return check_problem(&model, search_dirs(plugins.plugin_dirs));
            }
            let loaded = xml::load_file(&model).map_err(|e| Failure::Input(e.to_string()))?;
            if loaded.model.mechanics.is_some() {
                for l in mech_cmd::check(&loaded, &model, strict, search_dirs(plugins.plugin_dirs.clone()))
                    .map_err(from_mech)?
                {
                    say(format_args!("{l}"));
                }
                return Ok(());
            }
            if loaded.model.control.is_some() {
                let dirs = search_dirs(plugins.plugin_dirs);
                let c =
                    xml::convert_control::build_control(&loaded, dirs).map_err(|e| Failure::Input(e.to_string()))?;
                let b = &c.built;
                say(format_args!(
                    "{}: OK — control simulation (ZOH), {} steps of h = {} from t0 = {} to T = {}, h_c = {}; {}",
                    model.display(),
                    b.steps,
                    xml::plain(b.h),
                    xml::plain(b.t0),
                    xml::plain(b.t_end),
                    xml::plain(c.h_c),
                    c.elements.join(", ")
                ));
                return Ok(());
            }
            if loaded.model.null_space.is_some() {
                let b = xml::convert_nullspace::build_nullspace(&loaded, search_dirs(plugins.plugin_dirs))
                    .map_err(|e| Failure::Input(e.to_string()))?;
                let (h, n) = (xml::plain(b.h), b.sim.q().len());
                say(format_args!("{}: OK — null-space method ({}), {n} coordinates, {} degrees of freedom; {} output steps of h = {h}", model.display(), b.basis, b.sim.dof(), b.steps));
                return Ok(());
            }
            let mut built = xml::convert::build(&loaded, search_dirs(plugins.plugin_dirs))
                .map_err(|e| Failure::Input(e.to_string()))?;
            say(format_args!(
                "{}: OK — {} dynamical system(s), {} interaction(s); {} {} of h = {} from t0 = {} to T = {}; {}",
                model.display(),
                built.nsds.n_ds(),
                built.nsds.n_interactions(),
                built.steps,
                if built.sim.time_stepping().is_some() { "steps" } else { "time-discretisation events" },
                xml::plain(built.h),
                xml::plain(built.t0),
                xml::plain(built.t_end),
                built.sim.describe()
            ));
            if let Some(t) = &loaded.model.title {
                say(format_args!("title: {t}"));
            }
            if strict {
                first_step(&mut built)?;
            }
            Ok(())
        }
        Cmd::Plot { csv, output, columns, title } => {
            let ext = output.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
            if ext != "png" && ext != "svg" {
                return Err(Failure::Usage(format!("the output `{}` must end in .png or .svg", output.display())));
            }
            let table = plot::read_csv(&csv).map_err(Failure::Input)?;
            let title =
                title.unwrap_or_else(|| csv.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default());
            plot::plot(&table, &columns, &output, &title).map_err(Failure::Input)?;
            Ok(())
        }
        Cmd::Solve { paths, solver, kind, tol, max_iter, solutions, plugins } => {
            let it = saltus_numerics::IterOptions::new(tol, max_iter);
            let dirs = search_dirs(plugins.plugin_dirs);
            solve_cmd::solve(&paths, &solver, kind.as_deref(), it, solutions.as_deref(), &dirs).map_err(from_solve)
        }
        Cmd::Solvers { elements: true, .. } => {
            solve_cmd::solver_elements();
            Ok(())
        }
        Cmd::Solvers { kind, .. } => solve_cmd::solvers(kind.as_deref()).map_err(from_solve),
        Cmd::View(args) => match view_cmd::run(&args) {
            Ok(s) => {
                say(format_args!(
                    "{}: {} bodies, {} steps, {} frames, {} bytes",
                    args.output.display(),
                    s.bodies,
                    s.steps,
                    s.frames,
                    s.bytes
                ));
                Ok(())
            }
            Err(view_cmd::ViewFailure::Usage(m)) => Err(Failure::Usage(m)),
            Err(view_cmd::ViewFailure::Input(m)) => Err(Failure::Input(m)),
        },
    }
}

/// Refuses (unless `force`) a run of more than [`MAX_STEPS`] steps or about [`MAX_OUTPUT_BYTES`]
/// of output (`cols` columns, every `every`-th step).
fn refuse_large(steps: u64, cols: usize, every: u64, out: &Path, force: bool) -> Result<(), Failure> {
    let rows = steps / every.max(1) + 2;
    let bytes = Format::of(out).bytes_per_row(cols).saturating_mul(rows);
    if !force && (steps > MAX_STEPS || bytes > MAX_OUTPUT_BYTES) {
        return Err(Failure::Input(format!(
            "this run has {steps} steps and about {bytes} bytes of output: check h and T, or pass --force"
        )));
    }
    Ok(())
}

/// `run` of a `<Control>` model (zero-order-hold control simulation).
fn run_control(
    model: &Path,
    loaded: &xml::LoadedModel,
    out: &Path,
    every: Option<u64>,
    quiet: bool,
    force: bool,
    plugin_dirs: Vec<PathBuf>,
) -> Result<(), Failure> {
    let dirs = search_dirs(plugin_dirs);
    let built =
        xml::convert_control::build_control(loaded, dirs.clone()).map_err(|e| Failure::Input(e.to_string()))?.built;
    let every = every.or(built.every).unwrap_or(1);
    let target = Target::plan(out, &inputs::model_inputs(model, &dirs)).map_err(|e| Failure::Input(e.to_string()))?;
    refuse_large(built.steps, runner::columns(&built).len(), every, out, force)?;
    let stop = StopFlags::install().unwrap_or_else(|_| StopFlags::none());
    // relay problems of the controllers that do not converge are counted, never fatal
    let opts = RunOptions { every, quiet, strict: false, stop };
    let h = built.h;
    let mut run = ModelRun::new(built);
    let mut bar = Bar::new(run.total(), run.unit(), quiet);
    match execute(&mut run, &opts, target, None, &mut bar) {
        Ok(sum) => {
            if !quiet {
                warn(format_args!(
                    "{}: control simulation, {} steps (h = {}), {} actuations, {} relay problems not converged, max residual {:.3e}, wall time {:.3} s; {} rows written to {}",
                    model.display(), sum.steps, xml::plain(h), sum.actuations, sum.not_converged, sum.max_residual,
                    sum.wall.as_secs_f64(), sum.rows, out.display()
                ));
            }
            Ok(())
        }
        Err(e) => Err(Failure::Code(e.to_string(), e.exit_code())),
    }
}

/// `run` of a `<NullSpace>` model (the projection method of Blajer).
fn run_nullspace(
    model: &Path,
    loaded: &xml::LoadedModel,
    out: &Path,
    every: Option<u64>,
    quiet: bool,
    force: bool,
    plugin_dirs: Vec<PathBuf>,
) -> Result<(), Failure> {
    let dirs = search_dirs(plugin_dirs);
    let built =
        xml::convert_nullspace::build_nullspace(loaded, dirs.clone()).map_err(|e| Failure::Input(e.to_string()))?;
    let every = every.or(built.every).unwrap_or(1);
    let target = Target::plan(out, &inputs::model_inputs(model, &dirs)).map_err(|e| Failure::Input(e.to_string()))?;
    refuse_large(built.steps, built.columns.len(), every, out, force)?;
    let stop = StopFlags::install().unwrap_or_else(|_| StopFlags::none());
    let opts = RunOptions { every, quiet, strict: false, stop };
    let mut run = NullSpaceRun::new(built);
    let mut bar = Bar::new(run.total(), run.unit(), quiet);
    let sum =
        execute(&mut run, &opts, target, None, &mut bar).map_err(|e| Failure::Code(e.to_string(), e.exit_code()))?;
    if !quiet {
        let st = run.built.sim.stats();
        warn(format_args!(
            "{}: null-space method ({}), {} output steps (h = {}), {} integrator steps, {} new charts, {} drift projections, wall time {:.3} s; {} rows written to {}",
            model.display(), run.built.basis, sum.steps, xml::plain(run.built.h), st.ode.steps, st.new_charts,
            st.projections, sum.wall.as_secs_f64(), sum.rows, out.display()
        ));
        user_events_line(model, &sum);
    }
    Ok(())
}

/// `check --strict`: takes the first step (or event) and fails (exit 3) if it did not converge.
fn first_step(built: &mut xml::convert::Built) -> Result<(), Failure> {
    use xml::convert::Advance;
    let adv = built.sim.advance(&mut built.nsds).map_err(|e| Failure::Input(format!("the first step failed: {e}")))?;
    let bad = match &adv {
        Advance::Step(rep) => match &rep.osnsp {
            Some(s) if !s.status.converged() => Some(("the one-step problem", s.residual)),
            _ if !rep.newton_converged => Some(("the Newton loop", rep.newton_residual)),
            _ => None,
        },
        Advance::Event(rep) => rep
            .impact
            .iter()
            .chain(rep.acceleration.iter())
            .find(|s| !s.status.converged())
            .map(|s| ("an LCP of the first event", s.residual)),
    };
    match bad {
        Some((what, r)) => {
            Err(Failure::Code(format!("--strict: {what} did not converge in the first step (residual {r:.3e})"), 3))
        }
        None => {
            say(format_args!("first step: converged"));
            Ok(())
        }
    }
}

/// Refuses runs above [`MAX_STEPS`] steps or an estimated [`MAX_OUTPUT_BYTES`] of output.
fn check_size(built: &xml::convert::Built, every: u64, format: Format) -> Result<(), Failure> {
    if built.steps > MAX_STEPS {
        return Err(Failure::Input(format!(
            "this run has {} steps (more than 1e8): check h and T, or pass --force to run it anyway",
            built.steps
        )));
    }
    let cols = runner::columns(built).len() + 1;
    let rows = built.steps / every.max(1) + 2;
    let bytes = rows.saturating_mul(format.bytes_per_row(cols));
    if bytes > MAX_OUTPUT_BYTES {
        return Err(Failure::Input(format!(
            "this run would write about {:.0} GB ({rows} rows of {cols} columns; more than 10 GB): use --every N, or pass --force to write it anyway",
            bytes as f64 / 1e9
        )));
    }
    Ok(())
}

/// The summary line of a run (stderr).
fn summary(model: &Path, built: &xml::convert::Built, sum: &Summary, out: &Path) {
    if built.sim.time_stepping().is_some() {
        warn(format_args!(
            "{}: {} steps (h = {}), {} events, {} nonsmooth steps, {} solver iterations, max residual {:.3e}, {} steps not converged, {} Newton iterations, wall time {:.3} s; {} rows written to {}",
            model.display(), sum.steps, xml::plain(built.h), sum.events, sum.nonsmooth_steps, sum.solver_iterations, sum.max_residual, sum.not_converged,
            sum.newton_iterations, sum.wall.as_secs_f64(), sum.rows, out.display()
        ));
    } else {
        warn(format_args!(
            "{}: event driven, {} events ({} time-discretisation events of h = {}, {} nonsmooth events of which {} impacts), {} LCP iterations, max residual {:.3e}, {} LCP solves not converged, {} ODE steps ({} RHS evaluations), wall time {:.3} s; {} rows written to {}",
            model.display(), sum.steps + sum.events, sum.steps, xml::plain(built.h), sum.events, sum.impacts, sum.solver_iterations, sum.max_residual, sum.not_converged,
            sum.ode_steps, sum.rhs_evals, sum.wall.as_secs_f64(), sum.rows, out.display()
        ));
    }
    user_events_line(model, sum);
}

/// `MODEL: N user events[; stopped by an event at t = …]` after a run that had some.
fn user_events_line(model: &Path, sum: &Summary) {
    if let Some(line) = mech_cmd::user_events_note(model, sum) {
        warn(format_args!("{line}"));
    }
}

fn from_mech(f: mech_cmd::MechFailure) -> Failure {
    match f.code {
        1 => Failure::Input(f.message),
        c => Failure::Code(f.message, c),
    }
}

/// `saltus check` on a problem file: read, plugin bound, `F` (and `∇F`) evaluated at the start.
fn check_problem(file: &Path, dirs: Vec<PathBuf>) -> Result<(), Failure> {
    let mut p = problem::load_problem(file, &dirs).map_err(|e| Failure::Input(e.to_string()))?;
    p.check().map_err(|e| Failure::Input(format!("{}: {e}", file.display())))?;
    say(format_args!(
        "{}: OK — problem file: {}, {} unknowns; F evaluated at the starting point (solve it with `saltus solve`)",
        file.display(),
        p.kind().as_str(),
        p.size()
    ));
    Ok(())
}

fn from_solve(f: solve_cmd::SolveFailure) -> Failure {
    match f {
        solve_cmd::SolveFailure::Usage(m) => Failure::Usage(m),
        solve_cmd::SolveFailure::Input(m) => Failure::Input(m),
    }
}

/// `saltus solve --help`'s text after the options, with the solver names of every problem type
/// read from numerics' catalogues.
fn solve_help() -> String {
    use saltus_numerics::driver::ProblemKind;
    let names: Vec<String> = ProblemKind::ALL
        .iter()
        .map(|k| {
            let s: Vec<&str> = k.solvers().iter().map(|(n, _)| *n).collect();
            format!("{}: {}", k.as_str(), s.join(", "))
        })
        .collect();
    format!(
        "CSV on stdout: problem,type,n,solver,tolerance,status,iterations,error,seconds \
(status: converged, max_iterations, failed or error; seconds: median of 3 solves). `error` is the residual \
Siconos reports for the problem type. The type is guessed from the folder (lcp/, mlcp/, relay/, qp/, fc2d/, \
fc3d/, fc3d-global/) or the file name (RFC3D* files: rfc3d); give it with --type otherwise. An .xml file is a problem file \
(root <Problem>: an NCP, MCP or VI whose F comes from a plugin, found beside the file, then in each --plugin-dir, then beside \
saltus; solved from its <z0>/<x0>; docs/model-format.md). The solver names (`saltus solvers` describes them): {}\n\n\
Example:\n  saltus solve --solver lemke --tol 1e-8 ../shared/data/numerics/lcp --solutions sol/\n  \
saltus solve --solver newton-fb --tol 1e-12 samples/cable_on_obstacle/problems/cable.xml",
        names.join("; ")
    )
}
