//! `CoreModelRun`: a `<Mechanics>` (rigid bodies), `<Control>` (zero-order-hold control) or
//! `<NullSpace>` (projection method, issue 32) model file, run to its final time by the runtime's
//! driver ([`drive`] over a [`MechRun`], a [`ModelRun`] (a control model is a kernel time
//! stepping with the zero-order hold and its controllers) or a [`NullSpaceRun`], as `saltus run`)
//! into an in-memory [`ColumnTable`], with the GIL released.
//! The columns are those of the CSV of `saltus run` on the same file.

use crate::errors::{guard, ModelError, SimulationError};
use crate::host::{host_fns, Raised};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_runtime::drive::{drive, on_pool, NoProgress, RunOptions, Sinks, Stepper, Stopped, Summary};
use saltus_runtime::interrupt::StopFlags;
use saltus_runtime::output::memory::ColumnTable;
use saltus_runtime::run::kernel::{self as runner_kernel, ModelRun};
use saltus_runtime::run::mechanics::{self as runner_mech, named_error, MechRun};
use saltus_runtime::run::nullspace::NullSpaceRun;
use saltus_runtime::xml::convert_control::{build_control_with, ControlBuilt};
use saltus_runtime::xml::convert_mech::{build_mechanics_with, MechanicsBuilt};
use saltus_runtime::xml::convert_nullspace::{build_nullspace_with, NullSpaceBuilt};
use saltus_runtime::xml::{self, HostFns, LoadedModel};
use std::path::PathBuf;
use std::sync::Mutex;

/// The built model: a mechanics scene (its simulation is made afresh from it by every run), or
/// a control simulation (rebuilt from the model file after a run: a ZOH simulation runs once).
enum Model {
    Mechanics(Box<MechanicsBuilt>),
    Control {
        loaded: Box<LoadedModel>,
        dirs: Vec<PathBuf>,
        /// The Python callables of the model (a plant's `b(t)`), `raised` their exception slot.
        host: Box<HostFns>,
        raised: Raised,
        built: Option<Box<ControlBuilt>>,
        meta: Meta,
    },
    /// A null-space model (rebuilt from the model file after a run, like a control one; `host`:
    /// the Python callables of a model built from Python, `raised` their exception slot).
    NullSpace {
        loaded: Box<LoadedModel>,
        dirs: Vec<PathBuf>,
        host: Box<HostFns>,
        raised: Raised,
        built: Option<Box<NullSpaceBuilt>>,
        meta: Meta,
    },
}

/// What a control model's getters show (its [`ControlBuilt`] is consumed by a run).
struct Meta {
    columns: Vec<String>,
    /// `(t0, T, h)`.
    span: (f64, f64, f64),
    steps: u64,
    every: Option<u64>,
}

struct Inner {
    model: Model,
    last: Option<Summary>,
}

/// A `<Mechanics>`, `<Control>` or `<NullSpace>` model file and its simulation (`saltus.load`). Use
/// `saltus.load` rather than this class.
#[pyclass(module = "saltus._saltus")]
pub struct CoreModelRun {
    inner: Mutex<Inner>,
}

impl CoreModelRun {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // a poisoned lock only means a caught panic; every run starts from the built model
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Builds the model of `loaded` if it is a `<Mechanics>`, `<Control>` or `<NullSpace>` model
/// (`None` for a kernel model), with the located messages of `saltus check`.
/// `host`: the functions (Python callables) that a `<Control>` or `<NullSpace>` model names with
/// `library=":host"`.
pub fn build_file_model(
    loaded: LoadedModel,
    plugin_dirs: Vec<PathBuf>,
    host: HostFns,
    raised: Raised,
) -> PyResult<Result<CoreModelRun, LoadedModel>> {
    let err = |e: xml::ModelError| ModelError::new_err(e.to_string());
    let model = if loaded.model.mechanics.is_some() {
        Model::Mechanics(Box::new(build_mechanics_with(&loaded, plugin_dirs.clone(), Default::default()).map_err(err)?))
    } else if loaded.model.control.is_some() {
        let built = build_control_with(&loaded, plugin_dirs.clone(), host.clone())
            .map_err(|e| Python::attach(|py| raised.chain(py, ModelError::new_err(e.to_string()))))?;
        let every = loaded.model.output.as_ref().and_then(|o| o.every);
        let k = &built.built;
        let meta = Meta { columns: runner_kernel::columns(k), span: (k.t0, k.t_end, k.h), steps: k.steps, every };
        Model::Control {
            loaded: Box::new(loaded),
            dirs: plugin_dirs,
            host: Box::new(host),
            raised,
            built: Some(Box::new(built)),
            meta,
        }
    } else if loaded.model.null_space.is_some() {
        return nullspace_model(loaded, plugin_dirs, host, raised).map(Ok);
    } else {
        return Ok(Err(loaded));
    };
    Ok(Ok(CoreModelRun { inner: Mutex::new(Inner { model, last: None }) }))
}

/// A `<NullSpace>` model with the host functions `host` (Python callables).
fn nullspace_model(loaded: LoadedModel, dirs: Vec<PathBuf>, host: HostFns, raised: Raised) -> PyResult<CoreModelRun> {
    let built = build_nullspace_with(&loaded, dirs.clone(), host.clone())
        .map_err(|e| Python::attach(|py| raised.chain(py, ModelError::new_err(e.to_string()))))?;
    let span = (built.t0, built.t_end, built.h);
    let meta = Meta { columns: built.columns.clone(), span, steps: built.steps, every: built.every };
    let host = Box::new(host);
    let model = Model::NullSpace { loaded: Box::new(loaded), dirs, host, raised, built: Some(Box::new(built)), meta };
    Ok(CoreModelRun { inner: Mutex::new(Inner { model, last: None }) })
}

fn columns_of(m: &Model) -> Vec<String> {
    match m {
        Model::Mechanics(b) => runner_mech::columns(b),
        Model::Control { meta, .. } | Model::NullSpace { meta, .. } => meta.columns.clone(),
    }
}

#[pymethods]
impl CoreModelRun {
    /// Builds a `<NullSpace>` model from model-file text (`saltus.NullSpace`), with the Python
    /// callables of `host` (the tables of `CoreSimulation.from_xml`) for `library=":host"`.
    #[staticmethod]
    #[pyo3(signature = (text, file, plugin_dirs=None, host=None))]
    fn from_xml(
        text: &str,
        file: PathBuf,
        plugin_dirs: Option<Vec<PathBuf>>,
        host: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<CoreModelRun> {
        guard(|| {
            let (host, raised) = host_fns(host)?;
            let m = xml::load_str(text, &file).map_err(|e| ModelError::new_err(e.to_string()))?;
            if m.model.null_space.is_none() {
                return Err(ModelError::new_err("CoreModelRun.from_xml builds <NullSpace> models only"));
            }
            let dirs = plugin_dirs.unwrap_or_default();
            nullspace_model(m, dirs, host, raised)
        })
    }

    /// `"mechanics"`, `"control"` or `"nullspace"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.lock().model {
            Model::Mechanics(_) => "mechanics",
            Model::Control { .. } => "control",
            Model::NullSpace { .. } => "nullspace",
        }
    }
    /// Start time.
    #[getter]
    fn t0(&self) -> f64 {
        match &self.lock().model {
            Model::Mechanics(b) => b.t0,
            Model::Control { meta, .. } | Model::NullSpace { meta, .. } => meta.span.0,
        }
    }
    /// Final time.
    #[getter]
    fn t_end(&self) -> f64 {
        match &self.lock().model {
            Model::Mechanics(b) => b.t_end,
            Model::Control { meta, .. } | Model::NullSpace { meta, .. } => meta.span.1,
        }
    }
    /// Time step (control: the plant step `h`).
    #[getter]
    fn h(&self) -> f64 {
        match &self.lock().model {
            Model::Mechanics(b) => b.h,
            Model::Control { meta, .. } | Model::NullSpace { meta, .. } => meta.span.2,
        }
    }
    /// Number of steps from t0 to T.
    #[getter]
    fn steps(&self) -> u64 {
        match &self.lock().model {
            Model::Mechanics(b) => b.steps,
            Model::Control { meta, .. } | Model::NullSpace { meta, .. } => meta.steps,
        }
    }
    /// `<Output every>` of the model file, if any.
    #[getter]
    fn every(&self) -> Option<u64> {
        self_every(&self.lock().model)
    }
    /// The column names of `run()` (exactly those of the CSV of `saltus run`).
    fn columns(&self) -> Vec<String> {
        columns_of(&self.lock().model)
    }

    /// Runs from t0 to the final time in Rust with the GIL released (every call starts again at
    /// t0), recording the columns named in `record` (all of `columns()` when `None`) every
    /// `every` steps (default: the model's `<Output every>`, else 1; row 0 and the last row
    /// always). Returns `{name: numpy array}`. `strict` (mechanics): a step whose
    /// friction-contact problem did not converge raises `SimulationError`. `interruptible` (the
    /// main thread only): Ctrl-C stops the run at the next step and raises `KeyboardInterrupt`.
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
            let mut table = ColumnTable::new(&columns_of(&i.model), record.as_deref())
                .map_err(pyo3::exceptions::PyKeyError::new_err)?;
            let every = every.or_else(|| self_every(&i.model)).unwrap_or(1).max(1);
            let sigint = if interruptible { Some(crate::sim::SigInt::register()?) } else { None };
            let stop = sigint.as_ref().map_or_else(StopFlags::none, |s| s.flags.clone());
            let opts = RunOptions { every, quiet: true, strict, stop };
            let mut stepper: Box<dyn Stepper + Send> = match &mut i.model {
                Model::Mechanics(built) => Box::new(
                    MechRun::from_built(built).map_err(|e| ModelError::new_err(named_error(&e, &built.model)))?,
                ),
                Model::Control { loaded, dirs, host, raised, built, .. } => {
                    raised.clear();
                    Box::new(ModelRun::new(
                        match built.take() {
                            Some(b) => b,
                            None => Box::new(
                                build_control_with(loaded, dirs.clone(), (**host).clone())
                                    .map_err(|e| raised.chain(py, ModelError::new_err(e.to_string())))?,
                            ),
                        }
                        .built,
                    ))
                }
                Model::NullSpace { loaded, dirs, host, raised, built, .. } => {
                    raised.clear();
                    Box::new(NullSpaceRun::new(*match built.take() {
                        Some(b) => b,
                        None => Box::new(
                            build_nullspace_with(loaded, dirs.clone(), (**host).clone())
                                .map_err(|e| raised.chain(py, ModelError::new_err(e.to_string())))?,
                        ),
                    }))
                }
            };
            table.reserve((stepper.total() / every + 2) as usize);
            let (mut sum, res) = py.detach(|| {
                crate::sim::no_panic(|| {
                    on_pool(|| drive(&mut *stepper, &mut Sinks::main(&mut table), &opts, &mut NoProgress))
                })
            })?;
            sum.rows = table.rows() as u64;
            i.last = Some(sum.clone());
            drop(sigint);
            match res {
                Ok(()) => {}
                Err(Stopped::Signal(_, t)) => {
                    py.check_signals()?;
                    return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(format!(
                        "interrupted at t = {t} after {} steps",
                        sum.steps
                    )));
                }
                Err(s) => {
                    let err = match stepper.describe_failure(&s) {
                        Some(named) => SimulationError::new_err(format!(
                            "the simulation failed after {} steps: {named}",
                            sum.steps
                        )),
                        None => crate::sim::stopped_err(s, sum.steps),
                    };
                    return Err(match &i.model {
                        Model::NullSpace { raised, .. } => raised.chain(py, err),
                        _ => err,
                    });
                }
            }
            let d = PyDict::new(py);
            for (name, col) in table.into_columns() {
                d.set_item(name, PyArray1::from_vec(py, col))?;
            }
            Ok(d)
        })
    }

    /// Counters of the last `run` (steps, events, solver iterations, largest residual, ...).
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let i = self.lock();
        let Some(s) = i.last.as_ref() else { return Ok(None) };
        let d = crate::sim::summary_dict(py, s)?;
        if let Model::NullSpace { .. } = i.model {
            // the integrator's counters, the drift projections, the new charts, the largest |C|
            d.set_item("ode_steps", s.ode_steps)?;
            d.set_item("rhs_evals", s.rhs_evals)?;
            d.set_item("projections", s.events)?;
            d.set_item("new_charts", s.charts)?;
            d.set_item("max_violation", s.max_violation)?;
        }
        Ok(Some(d))
    }
}

fn self_every(m: &Model) -> Option<u64> {
    match m {
        Model::Mechanics(b) => b.every,
        Model::Control { meta, .. } | Model::NullSpace { meta, .. } => meta.every,
    }
}
