//! `saltus.numerics.ncp / mcp / box_vi / vi`: complementarity problems and variational
//! inequalities whose `F`, `∇F` and projection are Python callables (one Python call per
//! evaluation: convenient, not fast). A callable that raises, or returns the wrong shape or
//! NaN/inf, makes the solve raise `NumericsError` naming the function and the iteration, with
//! the Python exception as its `__cause__`.

use crate::errors::{guard, NumericsError};
use nalgebra::DMatrix;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_numerics::cp::{self, BoxVi, ConvexSet, CpFunction, CpSolver, Mcp, Ncp, Projection, UserFnError, Vi};
use saltus_numerics::IterOptions;
use saltus_runtime::plugin::PluginResolver;
use saltus_runtime::problem::{self, PluginCpFunction};
use std::cell::RefCell;
use std::rc::Rc;

/// `(z, F(z), report)` as returned to Python.
type CpOut<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyDict>);

/// The first Python exception a callable raised during a solve (re-raised as the cause).
type Raised = Rc<RefCell<Option<PyErr>>>;

fn fail(raised: &Raised, what: &str, e: PyErr) -> UserFnError {
    let msg = Python::attach(|py| format!("{what} raised {}", e.value(py)));
    raised.borrow_mut().get_or_insert(e);
    UserFnError::Fatal(msg)
}

/// Copies the callable's result into `out` (a float64 array directly; anything else through
/// `numpy.ascontiguousarray(r, float64).ravel()`).
fn vector_into(r: &Bound<'_, PyAny>, what: &str, out: &mut [f64]) -> Result<(), String> {
    let n = out.len();
    if let Ok(a) = r.extract::<PyReadonlyArray1<'_, f64>>() {
        let a = a.as_array();
        if a.len() != n {
            return Err(format!("{what} returned {} values, expected {n}", a.len()));
        }
        for (o, v) in out.iter_mut().zip(a.iter()) {
            *o = *v;
        }
        return Ok(());
    }
    let v = vector(r, what, n)?;
    out.copy_from_slice(&v);
    Ok(())
}

fn vector(r: &Bound<'_, PyAny>, what: &str, n: usize) -> Result<Vec<f64>, String> {
    let shape_err = || format!("{what} must return a sequence of {n} floats");
    let a = r
        .py()
        .import("numpy")
        .and_then(|np| np.call_method1("ascontiguousarray", (r, "float64")))
        .and_then(|a| a.call_method0("ravel"))
        .map_err(|_| shape_err())?;
    let a: PyReadonlyArray1<'_, f64> = a.extract().map_err(|_| shape_err())?;
    let v = a.as_slice().map_err(|_| shape_err())?.to_vec();
    if v.len() != n {
        return Err(format!("{what} returned {} values, expected {n}", v.len()));
    }
    Ok(v)
}

struct PyF {
    f: Py<PyAny>,
    jac: Option<Py<PyAny>>,
    n: usize,
    raised: Raised,
}

impl CpFunction for PyF {
    fn value(&mut self, z: &[f64], out: &mut [f64]) -> Result<(), UserFnError> {
        Python::attach(|py| {
            let r = self.f.call1(py, (PyArray1::from_slice(py, z),)).map_err(|e| fail(&self.raised, "F(z)", e))?;
            vector_into(r.bind(py), "F(z)", out).map_err(UserFnError::Fatal)
        })
    }
    fn jacobian(&mut self, z: &[f64], jac: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        let Some(j) = &self.jac else { return Err(UserFnError::NotProvided) };
        Python::attach(|py| {
            let r = j.call1(py, (PyArray1::from_slice(py, z),)).map_err(|e| fail(&self.raised, "jacobian(z)", e))?;
            let r = r.bind(py);
            let n = self.n;
            let a: PyReadonlyArray2<'_, f64> = r.extract().map_err(|_| {
                UserFnError::Fatal(format!("jacobian(z) must return a float64 array of shape ({n}, {n})"))
            })?;
            let a = a.as_array();
            if a.shape() != [n, n] {
                return Err(UserFnError::Fatal(format!(
                    "jacobian(z) returned shape {:?}, expected ({n}, {n})",
                    a.shape()
                )));
            }
            for i in 0..n {
                for k in 0..n {
                    jac[(i, k)] = a[[i, k]];
                }
            }
            Ok(())
        })
    }
}

/// `F` (and `∇F`) named by `f` and `jacobian`, functions of the plugin `library` with the
/// vector-field signature (the runtime's [`PluginCpFunction`]).
fn plugin_fn(
    library: &str,
    f: &Bound<'_, PyAny>,
    jacobian: Option<&Bound<'_, PyAny>>,
    params: Vec<f64>,
    dirs: Vec<std::path::PathBuf>,
) -> PyResult<PluginCpFunction> {
    let sym = |o: &Bound<'_, PyAny>| -> PyResult<String> {
        o.extract::<String>().map_err(|_| {
            NumericsError::new_err("with `library`, F (and jacobian) are the names of the plugin's functions")
        })
    };
    let base = std::env::current_dir().map_err(|e| NumericsError::new_err(e.to_string()))?;
    let mut res = PluginResolver::new(base, dirs);
    let j = jacobian.map(sym).transpose()?;
    PluginCpFunction::load(&mut res, library, &sym(f)?, j.as_deref(), params, "F")
        .map_err(|e| NumericsError::new_err(e.to_string()))
}

struct PyProjection {
    p: Py<PyAny>,
    n: usize,
    raised: Raised,
}

impl Projection for PyProjection {
    fn size(&self) -> usize {
        self.n
    }
    fn project(&mut self, x: &[f64], out: &mut [f64]) -> Result<(), UserFnError> {
        Python::attach(|py| {
            let r =
                self.p.call1(py, (PyArray1::from_slice(py, x),)).map_err(|e| fail(&self.raised, "projection(x)", e))?;
            vector_into(r.bind(py), "projection(x)", out).map_err(UserFnError::Fatal)
        })
    }
}

fn solver_of(name: &str, tol: Option<f64>, max_iter: Option<usize>) -> PyResult<CpSolver> {
    let newton = name.starts_with("newton");
    let it = IterOptions::new(
        tol.unwrap_or(if newton { 1e-10 } else { 1e-3 }),
        max_iter.unwrap_or(if newton { 1000 } else { 20_000 }),
    );
    cp::solver_by_name(name, it).ok_or_else(|| {
        let known: Vec<&str> = cp::SOLVERS.iter().map(|s| s.0).collect();
        NumericsError::new_err(format!("unknown solver `{name}` (known: {})", known.join(", ")))
    })
}

/// Solves `kind` (`ncp`, `mcp`, `box_vi`, `vi`) from `z0` with the solver called `solver`;
/// returns `(z, F(z), report)`. `mcp`: `n1` equations first; `box_vi`: `lb`, `ub` (±inf allowed);
/// `vi`: `projection(x)` the projection onto K, or a ball `center`, `radius`. With `library`, `f`
/// and `jacobian` are the names of vector-field functions of that plugin library (`params` passed
/// to them; searched in the working directory, then `plugin_dirs`).
#[pyfunction]
#[pyo3(signature = (kind, f, z0, jacobian=None, n1=0, lb=None, ub=None, projection=None, center=None, radius=None, solver="newton-fb", tol=None, max_iter=None, library=None, params=None, plugin_dirs=None))]
#[allow(clippy::too_many_arguments)]
pub fn cp_solve<'py>(
    py: Python<'py>,
    kind: &str,
    f: Py<PyAny>,
    z0: Vec<f64>,
    jacobian: Option<Py<PyAny>>,
    n1: usize,
    lb: Option<Vec<f64>>,
    ub: Option<Vec<f64>>,
    projection: Option<Py<PyAny>>,
    center: Option<Vec<f64>>,
    radius: Option<f64>,
    solver: &str,
    tol: Option<f64>,
    max_iter: Option<usize>,
    library: Option<String>,
    params: Option<Vec<f64>>,
    plugin_dirs: Option<Vec<std::path::PathBuf>>,
) -> PyResult<CpOut<'py>> {
    guard(|| {
        let s = solver_of(solver, tol, max_iter)?;
        let n = z0.len();
        let raised: Raised = Rc::new(RefCell::new(None));
        let mut plugin;
        let mut pyf;
        let fun: &mut dyn CpFunction = match &library {
            Some(lib) => {
                let j = jacobian.as_ref().map(|j| j.bind(py));
                plugin = plugin_fn(lib, f.bind(py), j, params.unwrap_or_default(), plugin_dirs.unwrap_or_default())?;
                &mut plugin
            }
            None => {
                pyf = PyF { f, jac: jacobian, n, raised: raised.clone() };
                &mut pyf
            }
        };
        let (mut z, mut w) = (z0, vec![0.0; n]);
        let bad = |m: String| NumericsError::new_err(m);
        let res = match kind {
            "ncp" => Ncp::new(n).and_then(|p| cp::solve_ncp(&p, fun, &mut z, &mut w, &s)),
            "mcp" => {
                if n1 > n {
                    return Err(bad(format!("n1 = {n1} is larger than the size {n}")));
                }
                Mcp::new(n1, n - n1).and_then(|p| cp::solve_mcp(&p, fun, &mut z, &mut w, &s))
            }
            "box_vi" => {
                let (Some(lb), Some(ub)) = (lb, ub) else { return Err(bad("box_vi needs lb and ub".into())) };
                BoxVi::new(lb, ub).and_then(|p| cp::solve_box_vi(&p, fun, &mut z, &mut w, &s))
            }
            "vi" => {
                let set = match (projection, center, radius) {
                    (Some(p), None, None) => ConvexSet::User(Box::new(PyProjection { p, n, raised: raised.clone() })),
                    (None, Some(c), Some(r)) => ConvexSet::Ball { center: c, radius: r },
                    _ => return Err(bad("vi needs either projection or center and radius".into())),
                };
                cp::solve_vi(&mut Vi::new(set), fun, &mut z, &mut w, &s)
            }
            k => return Err(bad(format!("unknown problem kind `{k}` (ncp, mcp, box_vi, vi)"))),
        };
        let rep = match res {
            Ok(r) => r,
            Err(e) => {
                let err = NumericsError::new_err(e.to_string());
                if let Some(cause) = raised.borrow_mut().take() {
                    err.set_cause(py, Some(cause));
                }
                return Err(err);
            }
        };
        Ok((PyArray1::from_vec(py, z), PyArray1::from_vec(py, w), report(py, &rep)?))
    })
}

/// The report dict of a solve (`status`, `converged`, `iterations`, `error`, `seconds`).
fn report<'py>(py: Python<'py>, rep: &saltus_numerics::SolveReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("status", rep.status.as_str())?;
    d.set_item("converged", rep.status.converged())?;
    d.set_item("iterations", rep.iterations)?;
    d.set_item("error", rep.residual)?;
    d.set_item("seconds", rep.elapsed.as_secs_f64())?;
    Ok(d)
}

/// A problem file (root `<Problem>`: an NCP, MCP or VI whose `F` comes from a plugin), read by
/// [`read_problem_file`]; the same reading and solving as `saltus solve FILE.xml`.
#[pyclass(module = "saltus._saltus", name = "ProblemFile", unsendable)]
pub struct PyProblemFile {
    p: problem::CpProblemFile,
}

#[pymethods]
impl PyProblemFile {
    /// `ncp`, `mcp` or `vi`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.p.kind().as_str()
    }
    /// Number of unknowns.
    #[getter]
    fn size(&self) -> usize {
        self.p.size()
    }
    /// The file's `title`.
    #[getter]
    fn title(&self) -> Option<String> {
        self.p.title.clone()
    }
    /// The solver names (`saltus solvers --type ncp`).
    fn solvers(&self) -> Vec<&'static str> {
        self.p.kind().solvers().iter().map(|s| s.0).collect()
    }
    /// Solves from the file's starting point; returns `({"z": z, "w": F(z)}, report)`.
    #[pyo3(signature = (solver, tol=None, max_iter=None))]
    fn solve<'py>(
        &mut self,
        py: Python<'py>,
        solver: &str,
        tol: Option<f64>,
        max_iter: Option<usize>,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        guard(|| {
            let s = solver_of(solver, tol, max_iter)?;
            let sol = self.p.solve(&s).map_err(|e| NumericsError::new_err(e.to_string()))?;
            let v = PyDict::new(py);
            v.set_item("z", PyArray1::from_vec(py, sol.z))?;
            v.set_item("w", PyArray1::from_vec(py, sol.w))?;
            Ok((v, report(py, &sol.report)?))
        })
    }
}

/// Reads a problem file; its plugin is searched beside the file, then in `plugin_dirs`.
#[pyfunction]
#[pyo3(signature = (path, plugin_dirs=None))]
pub fn read_problem_file(
    path: std::path::PathBuf,
    plugin_dirs: Option<Vec<std::path::PathBuf>>,
) -> PyResult<PyProblemFile> {
    guard(|| {
        let p = problem::load_problem(&path, &plugin_dirs.unwrap_or_default())
            .map_err(|e| NumericsError::new_err(e.to_string()))?;
        Ok(PyProblemFile { p })
    })
}
