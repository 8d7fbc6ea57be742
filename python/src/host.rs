//! Python callables as the kernel's user functions (`library=":host"` in the generated model).
//!
//! Each call takes the GIL, calls the Python function and copies its result into the kernel's
//! buffer: about a microsecond per call, so a model with Python forces is much slower than one
//! with constant forces or a plugin library. A Python exception becomes the step's error.

use nalgebra::DMatrix;
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_frontend::xml::HostFns;
use saltus_kernel::model::userfn::{PairMatFn, PairVecFn, StateMatFn, StateVecFn, TimeVecFn};
use saltus_kernel::UserFnError;
use std::sync::Arc;

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

fn time_fn(f: Py<PyAny>, name: String) -> TimeVecFn {
    Arc::new(move |t, out: &mut [f64]| {
        Python::attach(|py| {
            let r = f.call1(py, (t,)).map_err(|e| call_err(py, &name, e))?;
            copy_vec(r.bind(py), out, &name)
        })
    })
}

fn arrays<'py>(py: Python<'py>, a: &[f64], b: &[f64]) -> (Bound<'py, PyAny>, Bound<'py, PyAny>) {
    (numpy::PyArray1::from_slice(py, a).into_any(), numpy::PyArray1::from_slice(py, b).into_any())
}

fn pair_vec(f: Py<PyAny>, name: String) -> PairVecFn {
    Arc::new(move |t, a: &[f64], b: &[f64], out: &mut [f64]| {
        Python::attach(|py| {
            let (a, b) = arrays(py, a, b);
            let r = f.call1(py, (t, a, b)).map_err(|e| call_err(py, &name, e))?;
            copy_vec(r.bind(py), out, &name)
        })
    })
}

fn pair_mat(f: Py<PyAny>, name: String) -> PairMatFn {
    Arc::new(move |t, a: &[f64], b: &[f64], out: &mut DMatrix<f64>| {
        Python::attach(|py| {
            let (a, b) = arrays(py, a, b);
            let r = f.call1(py, (t, a, b)).map_err(|e| call_err(py, &name, e))?;
            copy_mat(r.bind(py), out, &name)
        })
    })
}

fn state_vec(f: Py<PyAny>, name: String) -> StateVecFn {
    Arc::new(move |t, x: &[f64], out: &mut [f64]| {
        Python::attach(|py| {
            let x = numpy::PyArray1::from_slice(py, x);
            let r = f.call1(py, (t, x)).map_err(|e| call_err(py, &name, e))?;
            copy_vec(r.bind(py), out, &name)
        })
    })
}

fn state_mat(f: Py<PyAny>, name: String) -> StateMatFn {
    Arc::new(move |t, x: &[f64], out: &mut DMatrix<f64>| {
        Python::attach(|py| {
            let x = numpy::PyArray1::from_slice(py, x);
            let r = f.call1(py, (t, x)).map_err(|e| call_err(py, &name, e))?;
            copy_mat(r.bind(py), out, &name)
        })
    })
}

/// The host functions from a dict `{"time": {name: f}, "pair_vec": {..}, "pair_mat": {..},
/// "state_vec": {..}, "state_mat": {..}}`.
pub fn host_fns(d: Option<&Bound<'_, PyDict>>) -> PyResult<HostFns> {
    let mut h = HostFns::default();
    let Some(d) = d else { return Ok(h) };
    let table = |key: &str| -> PyResult<Vec<(String, Py<PyAny>)>> {
        match d.get_item(key)? {
            None => Ok(Vec::new()),
            Some(t) => {
                let t = t.cast_into::<PyDict>().map_err(PyErr::from)?;
                t.iter().map(|(k, v)| Ok((k.extract::<String>()?, v.unbind()))).collect()
            }
        }
    };
    for (k, f) in table("time")? {
        h.time.insert(k.clone(), time_fn(f, k));
    }
    for (k, f) in table("pair_vec")? {
        h.pair_vec.insert(k.clone(), pair_vec(f, k));
    }
    for (k, f) in table("pair_mat")? {
        h.pair_mat.insert(k.clone(), pair_mat(f, k));
    }
    for (k, f) in table("state_vec")? {
        h.state_vec.insert(k.clone(), state_vec(f, k));
    }
    for (k, f) in table("state_mat")? {
        h.state_mat.insert(k.clone(), state_mat(f, k));
    }
    Ok(h)
}
