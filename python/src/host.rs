//! Python callables as the kernel's user functions (`library=":host"` in the generated model).
//!
//! Each call takes the GIL, calls the Python function and copies its result into the kernel's
//! buffer: about a microsecond per call, so a model with Python forces is much slower than one
//! with constant forces or a plugin library. A Python exception becomes the step's error (a
//! `UserFnError` naming the function); the exception itself is kept in the model's [`Raised`]
//! slot so that the `SimulationError` raised in Python has it as its `__cause__`.

use nalgebra::DMatrix;
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_kernel::model::userfn::{PairMatFn, PairVecFn, StateMatFn, StateVecFn, TimeMatFn, TimeVecFn};
use saltus_kernel::UserFnError;
use saltus_runtime::xml::HostFns;
use std::sync::{Arc, Mutex};

/// The first Python exception raised by a callable of one model since the slot was last
/// emptied (the kernel only carries the message; this keeps the exception and its traceback).
#[derive(Clone, Default)]
pub struct Raised(Arc<Mutex<Option<PyErr>>>);

impl Raised {
    fn keep(&self, py: Python<'_>, e: &PyErr) {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e.clone_ref(py));
        }
    }

    /// Forgets a kept exception (before a new step or run).
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
    }

    /// `err` with the kept exception as its `__cause__`; a `KeyboardInterrupt` raised in a
    /// callable (Ctrl-C while Python code ran) is returned itself.
    pub fn chain(&self, py: Python<'_>, err: PyErr) -> PyErr {
        let Some(cause) = self.0.lock().unwrap_or_else(|p| p.into_inner()).take() else { return err };
        if cause.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
            return cause;
        }
        err.set_cause(py, Some(cause));
        err
    }
}

/// Calls `f(args)`; an exception is kept in `raised` and becomes a [`UserFnError`] naming `name`.
fn call<'py>(
    py: Python<'py>,
    f: &Py<PyAny>,
    args: impl pyo3::call::PyCallArgs<'py>,
    name: &str,
    raised: &Raised,
) -> Result<Bound<'py, PyAny>, UserFnError> {
    f.bind(py).call1(args).map_err(|e| {
        raised.keep(py, &e);
        call_err(py, name, e)
    })
}

fn call_err(py: Python<'_>, name: &str, e: PyErr) -> UserFnError {
    let text = e.value(py).to_string();
    UserFnError::new(format!(
        "Python function `{name}` raised {}: {text}",
        e.get_type(py).name().map_or("?".into(), |n| n.to_string())
    ))
}

/// Copies a 1-D result (numpy array, sequence or float) into `out`.
fn copy_vec(r: &Bound<'_, PyAny>, out: &mut [f64], name: &str) -> Result<(), UserFnError> {
    let bad =
        |n: usize| UserFnError::new(format!("Python function `{name}` returned {n} values, expected {}", out.len()));
    if let Ok(a) = r.extract::<PyReadonlyArray1<'_, f64>>() {
        let a = a.as_array();
        if a.len() != out.len() {
            return Err(bad(a.len()));
        }
        out.iter_mut().zip(a.iter()).for_each(|(o, v)| *o = *v);
        return Ok(());
    }
    if let Ok(x) = r.extract::<f64>() {
        if out.len() != 1 {
            return Err(bad(1));
        }
        out[0] = x;
        return Ok(());
    }
    let v: Vec<f64> = r
        .extract()
        .map_err(|_| UserFnError::new(format!("Python function `{name}` must return a sequence of floats")))?;
    if v.len() != out.len() {
        return Err(bad(v.len()));
    }
    out.copy_from_slice(&v);
    Ok(())
}

/// Copies a 2-D result into the column-major `out` (same shape).
fn copy_mat(r: &Bound<'_, PyAny>, out: &mut DMatrix<f64>, name: &str) -> Result<(), UserFnError> {
    let a: PyReadonlyArray2<'_, f64> = match r.extract() {
        Ok(a) => a,
        Err(_) => {
            let np = r.py().import("numpy").map_err(|e| call_err(r.py(), name, e))?;
            let arr = np.call_method1("asarray", (r, "float64")).map_err(|e| call_err(r.py(), name, e))?;
            arr.extract()
                .map_err(|_| UserFnError::new(format!("Python function `{name}` must return a 2-D array of floats")))?
        }
    };
    let a = a.as_array();
    if a.dim() != out.shape() {
        return Err(UserFnError::new(format!(
            "Python function `{name}` returned a {}×{} matrix, expected {}×{}",
            a.dim().0,
            a.dim().1,
            out.nrows(),
            out.ncols()
        )));
    }
    for ((i, j), v) in a.indexed_iter() {
        out[(i, j)] = *v;
    }
    Ok(())
}

fn time_fn(f: Py<PyAny>, name: String, raised: Raised) -> TimeVecFn {
    Arc::new(move |t, out: &mut [f64]| {
        Python::attach(|py| {
            let r = call(py, &f, (t,), &name, &raised)?;
            copy_vec(&r, out, &name)
        })
    })
}

fn time_mat(f: Py<PyAny>, name: String, raised: Raised) -> TimeMatFn {
    Arc::new(move |t, out: &mut DMatrix<f64>| {
        Python::attach(|py| {
            let r = call(py, &f, (t,), &name, &raised)?;
            copy_mat(&r, out, &name)
        })
    })
}

fn arrays<'py>(py: Python<'py>, a: &[f64], b: &[f64]) -> (Bound<'py, PyAny>, Bound<'py, PyAny>) {
    (numpy::PyArray1::from_slice(py, a).into_any(), numpy::PyArray1::from_slice(py, b).into_any())
}

fn pair_vec(f: Py<PyAny>, name: String, raised: Raised) -> PairVecFn {
    Arc::new(move |t, a: &[f64], b: &[f64], out: &mut [f64]| {
        Python::attach(|py| {
            let (a, b) = arrays(py, a, b);
            let r = call(py, &f, (t, a, b), &name, &raised)?;
            copy_vec(&r, out, &name)
        })
    })
}

fn pair_mat(f: Py<PyAny>, name: String, raised: Raised) -> PairMatFn {
    Arc::new(move |t, a: &[f64], b: &[f64], out: &mut DMatrix<f64>| {
        Python::attach(|py| {
            let (a, b) = arrays(py, a, b);
            let r = call(py, &f, (t, a, b), &name, &raised)?;
            copy_mat(&r, out, &name)
        })
    })
}

fn state_vec(f: Py<PyAny>, name: String, raised: Raised) -> StateVecFn {
    Arc::new(move |t, x: &[f64], out: &mut [f64]| {
        Python::attach(|py| {
            let x = numpy::PyArray1::from_slice(py, x);
            let r = call(py, &f, (t, x), &name, &raised)?;
            copy_vec(&r, out, &name)
        })
    })
}

fn state_mat(f: Py<PyAny>, name: String, raised: Raised) -> StateMatFn {
    Arc::new(move |t, x: &[f64], out: &mut DMatrix<f64>| {
        Python::attach(|py| {
            let x = numpy::PyArray1::from_slice(py, x);
            let r = call(py, &f, (t, x), &name, &raised)?;
            copy_mat(&r, out, &name)
        })
    })
}

/// The host functions from a dict `{"time": {name: f}, "time_mat": {..}, "pair_vec": {..},
/// "pair_mat": {..}, "state_vec": {..}, "state_mat": {..}}` (the kinds of
/// [`saltus_runtime::xml::HostFns`]: `f(t)`, `A(t)`, `f(t, a, b)`, `J(t, a, b)`, `f(t, x)`,
/// `J(t, x)`), and the slot where their exceptions are kept.
pub fn host_fns(d: Option<&Bound<'_, PyDict>>) -> PyResult<(HostFns, Raised)> {
    let mut h = HostFns::default();
    let raised = Raised::default();
    let Some(d) = d else { return Ok((h, raised)) };
    let table = |key: &str| -> PyResult<Vec<(String, Py<PyAny>)>> {
        match d.get_item(key)? {
            None => Ok(Vec::new()),
            Some(t) => {
                let t = t.cast_into::<PyDict>().map_err(PyErr::from)?;
                t.iter().map(|(k, v)| Ok((k.extract::<String>()?, v.unbind()))).collect()
            }
        }
    };
    let r = &raised;
    for (k, f) in table("time")? {
        h.time.insert(k.clone(), time_fn(f, k, r.clone()));
    }
    for (k, f) in table("time_mat")? {
        h.time_mat.insert(k.clone(), time_mat(f, k, r.clone()));
    }
    for (k, f) in table("pair_vec")? {
        h.pair_vec.insert(k.clone(), pair_vec(f, k, r.clone()));
    }
    for (k, f) in table("pair_mat")? {
        h.pair_mat.insert(k.clone(), pair_mat(f, k, r.clone()));
    }
    for (k, f) in table("state_vec")? {
        h.state_vec.insert(k.clone(), state_vec(f, k, r.clone()));
    }
    for (k, f) in table("state_mat")? {
        h.state_mat.insert(k.clone(), state_mat(f, k, r.clone()));
    }
    Ok((h, raised))
}

/// A Python callable `f(t) -> values` as a kernel time function (see [`host_fns`]).
pub(crate) fn time_vec_fn(f: Py<PyAny>, name: String, raised: Raised) -> TimeVecFn {
    time_fn(f, name, raised)
}

/// A Python callable `f(t, x) -> values` as a kernel state function (see [`host_fns`]).
pub(crate) fn state_vec_fn(f: Py<PyAny>, name: String, raised: Raised) -> StateVecFn {
    state_vec(f, name, raised)
}
