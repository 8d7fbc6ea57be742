//! A captured friction-contact problem of a mechanics step as a Python dict (for FCLib dumps
//! written with h5py by `saltus.siconos`'s `FrictionContactTrace`).

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_mechanics::{Captured, CapturedProblem};
use saltus_numerics::fc::global::Triplets;

/// `name` → `{"shape": (m, n), "rows", "cols", "values"}` (nonzero entries, row by row).
fn put_matrix<'py>(
    py: Python<'py>,
    d: &Bound<'py, PyDict>,
    name: &str,
    shape: (usize, usize),
    entries: impl Iterator<Item = (usize, usize, f64)>,
) -> PyResult<()> {
    let (mut r, mut c, mut x) = (Vec::new(), Vec::new(), Vec::new());
    for (i, j, v) in entries {
        r.push(i as i64);
        c.push(j as i64);
        x.push(v);
    }
    let m = PyDict::new(py);
    m.set_item("shape", shape)?;
    m.set_item("rows", PyArray1::from_vec(py, r))?;
    m.set_item("cols", PyArray1::from_vec(py, c))?;
    m.set_item("values", PyArray1::from_vec(py, x))?;
    d.set_item(name, m)
}

fn triplets(t: &Triplets) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
    t.entries.iter().copied()
}

/// `{"t", "kind": "local" | "global", "dim", "iterations", "mu", "r0", "r", "u"}` and, local:
/// `W`, `q` (`u = W r + q`); global: `M`, `H`, `q`, `b`, `v` (`M v = H r + q`, `u = Hᵀ v + b`).
pub fn captured_dict<'py>(py: Python<'py>, c: &Captured) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("t", c.t)?;
    d.set_item("iterations", c.iterations)?;
    for (k, v) in [("r0", &c.r0), ("r", &c.r), ("u", &c.u)] {
        d.set_item(k, PyArray1::from_slice(py, v))?;
    }
    match &c.problem {
        CapturedProblem::Local(p) => {
            d.set_item("kind", "local")?;
            d.set_item("dim", p.dim())?;
            let mut entries = Vec::new();
            p.w().for_each_nonzero(|i, j, v| entries.push((i, j, v)));
            put_matrix(py, &d, "W", (p.size(), p.size()), entries.into_iter())?;
            d.set_item("q", PyArray1::from_slice(py, p.q()))?;
            d.set_item("mu", PyArray1::from_slice(py, p.mu()))?;
        }
        CapturedProblem::Global(p) => {
            d.set_item("kind", "global")?;
            d.set_item("dim", p.dim())?;
            put_matrix(py, &d, "M", (p.m().nrows, p.m().ncols), triplets(p.m()))?;
            put_matrix(py, &d, "H", (p.h().nrows, p.h().ncols), triplets(p.h()))?;
            d.set_item("q", PyArray1::from_slice(py, p.q()))?;
            d.set_item("b", PyArray1::from_slice(py, p.b()))?;
            d.set_item("mu", PyArray1::from_slice(py, p.mu()))?;
            d.set_item("v", PyArray1::from_slice(py, &c.v))?;
        }
    }
    Ok(d)
}
