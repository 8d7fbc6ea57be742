//! `saltus.ode.integrate`: the LSODAR-class integrator of `saltus-numerics` on a Python
//! right-hand side, with root functions (Python callables).

use crate::errors::{guard, NumericsError};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_numerics::ode::{
    Integrator, OdeMethod, OdeOptions, OdeStop, OdeSystem, RootDirection, RootKind, UserFnError,
};

struct PySystem {
    f: Py<PyAny>,
    g: Option<Py<PyAny>>,
    n: usize,
    n_roots: usize,
    directions: Vec<RootDirection>,
}

fn call_into(f: &Py<PyAny>, what: &str, t: f64, y: &[f64], out: &mut [f64]) -> Result<(), UserFnError> {
    Python::attach(|py| {
        let ya = PyArray1::from_slice(py, y);
        let r = f.call1(py, (t, ya)).map_err(|e| UserFnError::Fatal(format!("{what} raised: {}", e.value(py))))?;
        let r = r.bind(py);
        let v: Vec<f64> = match r.extract::<PyReadonlyArray1<'_, f64>>() {
            Ok(a) => a.as_array().iter().copied().collect(),
            Err(_) => {
                r.extract().map_err(|_| UserFnError::Fatal(format!("{what} must return a sequence of floats")))?
            }
        };
        if v.len() != out.len() {
            return Err(UserFnError::Fatal(format!("{what} returned {} values, expected {}", v.len(), out.len())));
        }
        out.copy_from_slice(&v);
        Ok(())
    })
}

impl OdeSystem for PySystem {
    fn dim(&self) -> usize {
        self.n
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        call_into(&self.f, "f(t, y)", t, y, dy)
    }
    fn n_roots(&self) -> usize {
        self.n_roots
    }
    fn roots(&self, t: f64, y: &[f64], g: &mut [f64]) -> Result<(), UserFnError> {
        match &self.g {
            Some(f) => call_into(f, "roots(t, y)", t, y, g),
            None => Ok(()),
        }
    }
    fn root_kind(&self, i: usize) -> RootKind {
        RootKind { direction: self.directions.get(i).copied().unwrap_or_default(), ..RootKind::default() }
    }
}

/// Integrates `y' = f(t, y)` from `t_eval[0]` through the times of `t_eval` (LSODA by default:
/// Adams/BDF with stiffness switching). `roots(t, y)` returns `n_roots` values whose sign
/// changes are located (`directions`: +1 rising, -1 falling, 0 both); with `terminal` the
/// integration stops at the first one. Returns `{"t", "y" (rows), "t_events", "events" (indices
/// of the roots that fired), "status" ("done" or "root"), "steps", "rhs_evals"}`.
#[pyfunction]
#[pyo3(signature = (f, y0, t_eval, roots=None, n_roots=0, directions=None, rtol=1e-6, atol=1e-12, method="lsoda", terminal=true))]
#[allow(clippy::too_many_arguments)]
pub fn integrate<'py>(
    py: Python<'py>,
    f: Py<PyAny>,
    y0: Vec<f64>,
    t_eval: Vec<f64>,
    roots: Option<Py<PyAny>>,
    n_roots: usize,
    directions: Option<Vec<i32>>,
    rtol: f64,
    atol: f64,
    method: &str,
    terminal: bool,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        if t_eval.len() < 2 {
            return Err(NumericsError::new_err("t_eval needs at least two times (the start and one output)"));
        }
        if roots.is_none() && n_roots > 0 {
            return Err(NumericsError::new_err("n_roots > 0 needs a roots function"));
        }
        let method = match method {
            "lsoda" => OdeMethod::Lsoda,
            "adams" => OdeMethod::Adams,
            "bdf" => OdeMethod::Bdf,
            "dopri5" => OdeMethod::Dopri5,
            m => {
                return Err(NumericsError::new_err(format!("unknown method `{m}` (lsoda, adams, bdf, dopri5)")));
            }
        };
        let directions: Vec<RootDirection> = directions
            .unwrap_or_default()
            .into_iter()
            .map(|d| match d.signum() {
                1 => RootDirection::Rising,
                -1 => RootDirection::Falling,
                _ => RootDirection::Both,
            })
            .collect();
        let n = y0.len();
        let sys = PySystem { f, g: roots, n, n_roots, directions };
        let opts = OdeOptions { method, ..OdeOptions::with_tol(rtol, atol) };
        let err = |e: saltus_numerics::ode::OdeError| NumericsError::new_err(e.to_string());
        let mut ode = Integrator::new(sys, t_eval[0], &y0, opts).map_err(err)?;
        let (mut ts, mut ys) = (vec![t_eval[0]], y0.clone());
        let (mut t_events, mut events) = (Vec::new(), Vec::new());
        let mut status = "done";
        let mut next = 1;
        while next < t_eval.len() {
            match ode.step_until(t_eval[next]).map_err(err)? {
                OdeStop::Reached(t) => {
                    ts.push(t);
                    ys.extend_from_slice(ode.y());
                    next += 1;
                }
                OdeStop::Root { t, which, .. } => {
                    t_events.push(t);
                    events.push(which);
                    if terminal {
                        ts.push(t);
                        ys.extend_from_slice(ode.y());
                        status = "root";
                        break;
                    }
                }
            }
        }
        let d = PyDict::new(py);
        let rows = ts.len();
        d.set_item("t", PyArray1::from_vec(py, ts))?;
        let y = PyArray1::from_vec(py, ys).reshape([rows, n])?;
        let y: Bound<'py, PyArray2<f64>> = y;
        d.set_item("y", y)?;
        d.set_item("t_events", PyArray1::from_vec(py, t_events))?;
        d.set_item("events", events)?;
        d.set_item("status", status)?;
        let st = ode.stats();
        d.set_item("steps", st.steps)?;
        d.set_item("rhs_evals", st.rhs_evals)?;
        Ok(d)
    })
}
