//! `CoreSimulation`: a built model and its simulation (the runtime's [`ModelRun`]), stepped one
//! step at a time from Python or run to the end in Rust with the GIL released, both through the
//! runtime's driver ([`step_once`], [`drive`]): a Python step is a `saltus run` step.

use crate::errors::{guard, ModelError, OutputError, SimulationError};
use crate::host::{host_fns, Raised};
use crate::views::{ViewOf, Views};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_kernel::{DsId, InterId};
use saltus_runtime::drive::{drive, step_once, Discard, NoProgress, RunOptions, Sinks, Stepper, Stopped, Summary};
use saltus_runtime::execute::execute;
use saltus_runtime::interrupt::StopFlags;
use saltus_runtime::output::memory::ColumnTable;
use saltus_runtime::output::Target;
use saltus_runtime::run::kernel::ModelRun;
use saltus_runtime::simulation::{Built, Simulation};
use saltus_runtime::xml;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

struct Inner {
    /// The model, its simulation and its step counter.
    run: ModelRun,
    /// The model file (for `run_to_file`'s check that the output is not an input).
    file: PathBuf,
    last: Option<Summary>,
    /// The exception of a Python callable that failed (the `__cause__` of the error raised).
    raised: Raised,
    /// Live numpy views of the state (`ds.q()`, `inter.lambda_(1)`, ...), refreshed after each step.
    views: Views,
}

/// A model built from a model file (or from the Python classes) with its simulation.
/// Use `saltus.load` or `saltus.TimeStepping`/`saltus.EventDriven` rather than this class.
#[pyclass(module = "saltus._saltus")]
pub struct CoreSimulation {
    inner: Mutex<Inner>,
}

fn model_err(e: xml::ModelError, hide_positions: bool) -> PyErr {
    let mut e = e;
    if hide_positions {
        e.pos = None;
    }
    ModelError::new_err(e.to_string())
}

fn dirs(plugin_dirs: Option<Vec<PathBuf>>) -> Vec<PathBuf> {
    plugin_dirs.unwrap_or_default()
}

impl CoreSimulation {
    fn new(built: Built, file: PathBuf, raised: Raised) -> CoreSimulation {
        CoreSimulation {
            inner: Mutex::new(Inner { run: ModelRun::new(built), file, last: None, raised, views: Views::default() }),
        }
    }
    fn from_loaded(m: xml::LoadedModel, path: PathBuf, dirs: Vec<PathBuf>) -> PyResult<CoreSimulation> {
        let built = xml::convert::build(&m, dirs).map_err(|e| model_err(e, false))?;
        Ok(CoreSimulation::new(built, path, Raised::default()))
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A poisoned lock only means a panic was caught earlier; the data is still consistent
        // at step boundaries (the kernel rolls a failed step back).
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn ds_id(i: &Inner, ds: usize) -> PyResult<DsId> {
    if ds < i.run.built.nsds.n_ds() {
        Ok(DsId(ds as u32))
    } else {
        Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "no dynamical system {ds} (the model has {})",
            i.run.built.nsds.n_ds()
        )))
    }
}

fn inter_id(i: &Inner, k: usize) -> PyResult<InterId> {
    if k < i.run.built.nsds.n_interactions() {
        Ok(i.run.built.nsds.handle(k))
    } else {
        Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "no interaction {k} (the model has {})",
            i.run.built.nsds.n_interactions()
        )))
    }
}

pub(crate) fn summary_dict<'py>(py: Python<'py>, s: &Summary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("steps", s.steps)?;
    d.set_item("nonsmooth_steps", s.nonsmooth_steps)?;
    d.set_item("events", s.events)?;
    d.set_item("impacts", s.impacts)?;
    d.set_item("solver_iterations", s.solver_iterations)?;
    d.set_item("max_residual", s.max_residual)?;
    d.set_item("not_converged", s.not_converged)?;
    d.set_item("newton_iterations", s.newton_iterations)?;
    d.set_item("actuations", s.actuations)?;
    d.set_item("seconds", s.wall.as_secs_f64())?;
    Ok(d)
}

pub(crate) fn stopped_err(s: Stopped, steps: u64) -> PyErr {
    match s {
        Stopped::Failed(e) => SimulationError::new_err(format!("the simulation failed after {steps} steps: {e}")),
        Stopped::Mechanics(e) => SimulationError::new_err(format!("the simulation failed after {steps} steps: {e}")),
        Stopped::Control(e) => {
            SimulationError::new_err(format!("the control simulation failed after {steps} steps: {e}"))
        }
        Stopped::NullSpace(e) => {
            SimulationError::new_err(format!("the null-space run failed after {steps} steps: {e}"))
        }
        Stopped::NotConverged { t, residual, what } => SimulationError::new_err(format!(
            "strict: {what} did not converge at t = {t} (residual {residual:.3e}) after {steps} steps"
        )),
        Stopped::Signal(sig, t) => {
            SimulationError::new_err(format!("interrupted by {} at t = {t} after {steps} steps", sig.name()))
        }
        Stopped::Output(e) => OutputError::new_err(e.to_string()),
    }
}

#[pymethods]
impl CoreSimulation {
    /// Loads and builds a model file (`saltus.load`).
    #[staticmethod]
    #[pyo3(signature = (path, plugin_dirs=None))]
    fn load(path: PathBuf, plugin_dirs: Option<Vec<PathBuf>>) -> PyResult<CoreSimulation> {
        guard(|| {
            let m = xml::load_file(&path).map_err(|e| model_err(e, false))?;
            CoreSimulation::from_loaded(m, path, dirs(plugin_dirs))
        })
    }

    /// Builds a model from model-file text. `file` names it in messages and resolves relative
    /// paths; `host` holds Python callables for `library=":host"` by kind (`{"time": {name: f},
    /// "time_mat": .., "pair_vec": .., "pair_mat": .., "state_vec": .., "state_mat": ..}`: `f(t)`,
    /// `A(t)`, `f(t, a, b)`, `J(t, a, b)`, `f(t, x)`, `J(t, x)`); `hide_positions` drops
    /// line:column (text generated by `saltus`). An exception raised by a callable is the
    /// `__cause__` of the `ModelError`/`SimulationError` it leads to.
    #[staticmethod]
    #[pyo3(signature = (text, file, plugin_dirs=None, host=None, hide_positions=false))]
    fn from_xml(
        py: Python<'_>,
        text: &str,
        file: PathBuf,
        plugin_dirs: Option<Vec<PathBuf>>,
        host: Option<&Bound<'_, PyDict>>,
        hide_positions: bool,
    ) -> PyResult<CoreSimulation> {
        guard(|| {
            let (host, raised) = host_fns(host)?;
            let m = xml::load_str(text, &file).map_err(|e| model_err(e, hide_positions))?;
            let built = xml::convert::build_with_host(&m, dirs(plugin_dirs), host)
                .map_err(|e| raised.chain(py, model_err(e, hide_positions)))?;
            Ok(CoreSimulation::new(built, file, raised))
        })
    }

    /// Start time.
    #[getter]
    fn t0(&self) -> f64 {
        self.lock().run.built.t0
    }
    /// Final time.
    #[getter]
    fn t_end(&self) -> f64 {
        self.lock().run.built.t_end
    }
    /// Time step (event driven: the spacing of the time-discretisation events).
    #[getter]
    fn h(&self) -> f64 {
        self.lock().run.built.h
    }
    /// Number of steps (event driven: of time-discretisation events) from t0 to T.
    #[getter]
    fn steps(&self) -> u64 {
        self.lock().run.built.steps
    }
    /// `<Output every>` of the model file, if any.
    #[getter]
    fn every(&self) -> Option<u64> {
        self.lock().run.built.every
    }
    /// `True` for an event-driven simulation.
    #[getter]
    fn event_driven(&self) -> bool {
        matches!(self.lock().run.built.sim, Simulation::EventDriven(_))
    }
    /// Steps done (event driven: time-discretisation events passed).
    #[getter]
    fn k(&self) -> u64 {
        self.lock().run.steps_done()
    }
    /// Current time: `t0 + k h` as the CSV writes it (event driven: the time of the state).
    #[getter]
    fn t(&self) -> f64 {
        self.lock().run.time()
    }
    /// Integrator and one-step problem, in words.
    fn describe(&self) -> String {
        self.lock().run.built.sim.describe()
    }
    /// The column names of `run()` (exactly those of the CSV of `saltus run`).
    fn columns(&self) -> Vec<String> {
        self.lock().run.columns()
    }
    /// Names of the dynamical systems, in model order.
    fn ds_names(&self) -> Vec<String> {
        let i = self.lock();
        (0..i.run.built.nsds.n_ds())
            .map(|d| i.run.built.nsds.ds_name(DsId(d as u32)).unwrap_or("").to_string())
            .collect()
    }
    /// Names of the interactions, in model order.
    fn interaction_names(&self) -> Vec<String> {
        self.lock().run.built.nsds.interactions().iter().map(|x| x.name.clone()).collect()
    }

    /// `True` while the final time is not reached (Siconos `hasNextEvent`).
    fn has_next_event(&self) -> bool {
        !self.lock().run.done()
    }

    /// One time step (event driven: the next event), with every Siconos phase: the runtime
    /// driver's step, exactly one step of `saltus run` (user events included). Raises
    /// `SimulationError` if the step fails (the state stays at the last good step).
    fn compute_one_step(&self, py: Python<'_>) -> PyResult<()> {
        guard(|| {
            let mut i = self.lock();
            let inner = &mut *i;
            inner.raised.clear();
            let mut sum = Summary::default();
            let res = step_once(&mut inner.run, &RunOptions::default(), &mut Sinks::main(&mut Discard), &mut sum);
            if let Err(e) = res {
                return Err(inner.raised.chain(py, SimulationError::new_err(e.to_string())));
            }
            inner.views.refresh(py, &inner.run.built.nsds);
            Ok(())
        })
    }

    /// Holds the input term `g` of system `index` over the next steps, until set again: added to
    /// its vector field (`M ẋ = f(t, x) + g + r`, first order) or to its forces
    /// (`M v̇ = F + g + p`, Lagrangian) — what a Siconos script does when it writes `b` or
    /// `F_ext` between steps, and what a `<ControlManager>`'s actuators write at their instants
    /// (the last writer wins); an event-driven simulation holds it from its last event on.
    /// Raises `ValueError` for a wrong size or a non-finite entry.
    fn set_control_input(&self, index: usize, values: Vec<f64>) -> PyResult<()> {
        guard(|| {
            let mut i = self.lock();
            let built = &mut i.run.built;
            built.sim.set_control_input(DsId(index as u32), &values).map_err(|e| {
                let msg = saltus_runtime::names::kernel_error(&e, &built.nsds);
                pyo3::exceptions::PyValueError::new_err(msg)
            })
        })
    }

    /// The user events (`<Events>`) found by the last `compute_one_step`, in time order: one
    /// dict per located window, `{"t", "t_low", "events": [names], "stop", "reset"}` (`t` is
    /// the window's right end, where the handlers acted). After an event with `action="stop"`,
    /// `has_next_event()` is `False`.
    fn user_events<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let i = self.lock();
        let names: Vec<String> = match &i.run.built.sim {
            Simulation::EventDriven(s) => s.user_events().iter().map(|e| e.name.clone()).collect(),
            _ => i.run.built.events.iter().flat_map(|m| m.events().iter().map(|e| e.name.clone())).collect(),
        };
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        hit_dicts(py, i.run.hits(), &names)
    }

    /// Positions `q` (Lagrangian) or state `x` (first order) of system `ds` (a copy).
    fn state<'py>(&self, py: Python<'py>, ds: usize) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let i = self.lock();
        let id = ds_id(&i, ds)?;
        let s = i.run.built.nsds.ds(id).map(|d| d.state().as_slice().to_vec()).unwrap_or_default();
        Ok(PyArray1::from_vec(py, s))
    }
    /// Velocities `v` of a Lagrangian system (`None` for a first-order one).
    fn velocity<'py>(&self, py: Python<'py>, ds: usize) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        let i = self.lock();
        let id = ds_id(&i, ds)?;
        Ok(i.run.built.nsds.ds(id).and_then(|d| d.velocity()).map(|v| PyArray1::from_slice(py, v.as_slice())))
    }
    /// Output `y` at `level` of interaction `inter` (`None` where the kernel has not computed it).
    fn y<'py>(&self, py: Python<'py>, inter: usize, level: usize) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        let i = self.lock();
        let id = inter_id(&i, inter)?;
        Ok(i.run.built.nsds.interaction(id).and_then(|x| x.y(level)).map(|v| PyArray1::from_slice(py, v.as_slice())))
    }
    /// Multiplier `λ` at `level` of interaction `inter`.
    fn lambda_<'py>(&self, py: Python<'py>, inter: usize, level: usize) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        let i = self.lock();
        let id = inter_id(&i, inter)?;
        Ok(i.run
            .built
            .nsds
            .interaction(id)
            .and_then(|x| x.lambda(level))
            .map(|v| PyArray1::from_slice(py, v.as_slice())))
    }

    /// A live view of a vector of the model (see `views.rs`): `what` is `"q"` (or `"x"`: the
    /// state of system `index`), `"v"` (its velocities), `"y"` or `"lambda"` (of interaction
    /// `index` at `level`). The same read-only numpy array on every call, refreshed after each
    /// step; `None` where the model has no such vector.
    #[pyo3(signature = (what, index, level=0))]
    fn view<'py>(
        &self,
        py: Python<'py>,
        what: &str,
        index: usize,
        level: usize,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut i = self.lock();
        let of = match what {
            "q" | "x" => ViewOf::State(ds_id(&i, index)?),
            "v" => ViewOf::Velocity(ds_id(&i, index)?),
            "y" => ViewOf::Y(inter_id(&i, index)?, level),
            "lambda" => ViewOf::Lambda(inter_id(&i, index)?, level),
            _ => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "view of `{what}`: expected \"q\", \"x\", \"v\", \"y\" or \"lambda\""
                )))
            }
        };
        let inner = &mut *i;
        inner.views.get(py, &inner.run.built.nsds, of)
    }

    /// Runs to the final time in Rust with the GIL released, recording the columns named in
    /// `record` (all of `columns()` when `None`) every `every` steps (default: the model's
    /// `<Output every>`, else 1; row 0 and the last row always). Returns `{name: numpy array}`. A time-stepping run continues from the current
    /// step. `strict`: a step whose solver did not converge raises `SimulationError`.
    /// `interruptible` (the main thread only): Ctrl-C stops the run at the next step boundary and
    /// raises `KeyboardInterrupt`; the simulation stays at that step.
    #[pyo3(signature = (record=None, every=None, strict=false, interruptible=false))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        record: Option<Vec<String>>,
        every: Option<u64>,
        strict: bool,
        interruptible: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            let mut i = self.lock();
            let mut table =
                ColumnTable::new(&i.run.columns(), record.as_deref()).map_err(pyo3::exceptions::PyKeyError::new_err)?;
            let every = every.or(i.run.built.every).unwrap_or(1);
            let sigint = if interruptible { Some(SigInt::register()?) } else { None };
            let stop = sigint.as_ref().map_or_else(StopFlags::none, |s| s.flags.clone());
            let opts = RunOptions { every: every.max(1), quiet: true, strict, stop };
            let inner = &mut *i;
            inner.raised.clear();
            if !inner.run.is_event_driven() {
                let left = inner.run.total().saturating_sub(inner.run.steps_done());
                table.reserve((left / opts.every + 2) as usize);
            }
            let run = &mut inner.run;
            let (sum, res) =
                py.detach(|| no_panic(|| drive(run, &mut Sinks::main(&mut table), &opts, &mut NoProgress)))?;
            inner.last = Some(sum.clone());
            inner.views.refresh(py, &inner.run.built.nsds);
            drop(sigint);
            if let Err(Stopped::Signal(_, t)) = &res {
                // Python's own handler saw the signal too (chained): raise KeyboardInterrupt
                py.check_signals()?;
                // ... unless it has not run yet (a loaded machine): the same exception
                return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(format!(
                    "interrupted at t = {t} after {} steps",
                    sum.steps
                )));
            }
            res.map_err(|s| inner.raised.chain(py, stopped_err(s, sum.steps)))?;
            let d = PyDict::new(py);
            for (name, col) in table.into_columns() {
                d.set_item(name, PyArray1::from_vec(py, col))?;
            }
            Ok(d)
        })
    }

    /// Runs to the final time writing `out` exactly as `saltus run MODEL -o out` does (CSV, or
    /// `.npy`; written beside as `OUT.partial.EXT` and renamed on success). Returns the summary.
    #[pyo3(signature = (out, every=None, strict=false))]
    fn run_to_file<'py>(
        &self,
        py: Python<'py>,
        out: PathBuf,
        every: Option<u64>,
        strict: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            let mut i = self.lock();
            if i.run.steps_done() != 0 {
                return Err(SimulationError::new_err("run_to_file starts at t0: this simulation has already stepped"));
            }
            let inputs = vec![i.file.clone()];
            let target = Target::plan(&out, &inputs).map_err(|e| OutputError::new_err(e.to_string()))?;
            let every = every.or(i.run.built.every).unwrap_or(1);
            let opts = RunOptions { every: every.max(1), quiet: true, strict, stop: StopFlags::none() };
            let inner = &mut *i;
            inner.raised.clear();
            let run = &mut inner.run;
            let res = py.detach(|| no_panic(|| execute(run, &opts, target, None, &mut NoProgress)))?;
            inner.views.refresh(py, &inner.run.built.nsds);
            match res {
                Ok(sum) => {
                    let d = summary_dict(py, &sum)?;
                    inner.last = Some(sum);
                    Ok(d)
                }
                Err(e) => Err(inner.raised.chain(py, SimulationError::new_err(e.to_string()))),
            }
        })
    }

    /// Counters of the last `run` (steps, events, solver iterations, largest residual, ...).
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let i = self.lock();
        i.last.as_ref().map(|s| summary_dict(py, s)).transpose()
    }
}

/// A SIGINT handler for the duration of a run: sets the runner's stop flag, and (signal-hook
/// chains handlers) still calls Python's, so the interpreter sees the Ctrl-C afterwards.
pub(crate) struct SigInt {
    pub(crate) flags: StopFlags,
    id: signal_hook::SigId,
}

impl SigInt {
    pub(crate) fn register() -> PyResult<SigInt> {
        let int = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let term = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let id = signal_hook::flag::register(signal_hook::consts::SIGINT, int.clone())
            .map_err(|e| SimulationError::new_err(format!("cannot watch SIGINT: {e}")))?;
        Ok(SigInt { flags: StopFlags::from_flags(int, term), id })
    }
}

impl Drop for SigInt {
    fn drop(&mut self) {
        signal_hook::low_level::unregister(self.id);
    }
}

/// Runs `f` (without the GIL), catching a panic as its message (it never unwinds into Python).
pub(crate) fn no_panic<T>(f: impl FnOnce() -> T) -> Result<T, PyErr> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        crate::errors::SaltusError::new_err(format!("internal error (please report): {what}"))
    })
}

/// Loads and builds any model file (`saltus.load`): a `CoreSimulation` for a kernel model
/// (`<NSDS>`), a `CoreModelRun` for a `<Mechanics>`, `<Control>` or `<NullSpace>` model. `host`:
/// the Python callables a `<Control>` or `<NullSpace>` model names with `library=":host"`
/// (`{"time": {name: f}, ...}`).
#[pyfunction]
#[pyo3(signature = (path, plugin_dirs=None, host=None))]
pub fn load_model(
    py: Python<'_>,
    path: PathBuf,
    plugin_dirs: Option<Vec<PathBuf>>,
    host: Option<Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    guard(|| {
        let m = xml::load_file(&path).map_err(|e| model_err(e, false))?;
        let dirs = dirs(plugin_dirs);
        let (host, raised) = crate::host::host_fns(host.as_ref())?;
        match crate::file_sim::build_file_model(m, dirs.clone(), host, raised)? {
            Ok(run) => Ok(Py::new(py, run)?.into_any()),
            Err(m) => Ok(Py::new(py, CoreSimulation::from_loaded(m, path, dirs)?)?.into_any()),
        }
    })
}

/// Writes columns as `saltus run` writes its CSV (same header, same number format: shortest
/// round-trip decimal, `0` for ±0). `columns` is a list of names, `data` a dict of 1-D arrays.
#[pyfunction]
pub fn write_csv(path: PathBuf, columns: Vec<String>, data: &Bound<'_, PyDict>) -> PyResult<()> {
    guard(|| {
        let mut cols: Vec<Vec<f64>> = Vec::with_capacity(columns.len());
        for c in &columns {
            let item = data.get_item(c)?.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(c.clone()))?;
            cols.push(item.extract::<Vec<f64>>()?);
        }
        let n = cols.first().map_or(0, Vec::len);
        if cols.iter().any(|c| c.len() != n) {
            return Err(pyo3::exceptions::PyValueError::new_err("all columns must have the same length"));
        }
        let file = std::fs::File::create(&path)
            .map_err(|e| OutputError::new_err(format!("{}: cannot create: {e}", path.display())))?;
        let io = |e: std::io::Error| OutputError::new_err(format!("{}: {e}", path.display()));
        use saltus_runtime::output::Recorder;
        let mut rec = saltus_runtime::output::csv::CsvRecorder::new(file, &columns).map_err(io)?;
        let mut row = vec![0.0; cols.len()];
        for r in 0..n {
            row.iter_mut().zip(&cols).for_each(|(v, c)| *v = c[r]);
            rec.row(&row).map_err(io)?;
        }
        rec.finish().map_err(io)
    })
}

/// Checks model-file text (parse and build, no run); returns `None` or raises `ModelError`.
#[pyfunction]
#[pyo3(signature = (text, file=None))]
pub fn check_xml(text: &str, file: Option<PathBuf>) -> PyResult<()> {
    guard(|| {
        let file = file.unwrap_or_else(|| Path::new("model.xml").to_path_buf());
        let m = xml::load_str(text, &file).map_err(|e| model_err(e, false))?;
        xml::convert::build(&m, Vec::new()).map_err(|e| model_err(e, false))?;
        Ok(())
    })
}

/// One dict per located window of user events, `{"t", "t_low", "events": [names], "stop",
/// "reset"}`; `names` are the events' names by index.
pub(crate) fn hit_dicts<'py>(
    py: Python<'py>,
    hits: &[saltus_kernel::UserEventHit],
    names: &[&str],
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    hits.iter()
        .map(|h| {
            let d = PyDict::new(py);
            d.set_item("t", h.t)?;
            d.set_item("t_low", h.t_low)?;
            let ev: Vec<&str> = h.transitions.iter().map(|tr| names.get(tr.index).copied().unwrap_or("?")).collect();
            d.set_item("events", ev)?;
            d.set_item("stop", h.stop)?;
            d.set_item("reset", h.reset)?;
            Ok(d)
        })
        .collect()
}
