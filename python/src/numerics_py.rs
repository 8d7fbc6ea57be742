//! `saltus.numerics`: problems built from numpy arrays (dense, or sparse triplets from
//! scipy.sparse), or read from Siconos `.dat` files, solved by name through the numerics driver
//! (the same catalogue as `saltus solve`), with the GIL released during the solve.

use crate::errors::{guard, NumericsError};
use nalgebra::DMatrix;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_numerics::driver::{self, Problem, ProblemKind};
use saltus_numerics::fc::global::Triplets;
use saltus_numerics::matrix::{BlockCsr, BlockTriplet};
use saltus_numerics::{fc, lcp, mlcp, qp, relay, IterOptions, Operator, SolveReport};
use std::path::PathBuf;

fn nerr(e: saltus_numerics::NumericsError) -> PyErr {
    NumericsError::new_err(e.to_string())
}

fn dense(a: &PyReadonlyArray2<'_, f64>) -> DMatrix<f64> {
    let a = a.as_array();
    DMatrix::from_fn(a.nrows(), a.ncols(), |i, j| a[[i, j]])
}

fn vec1(a: &PyReadonlyArray1<'_, f64>) -> Vec<f64> {
    a.as_array().iter().copied().collect()
}

fn report_dict<'py>(py: Python<'py>, r: &SolveReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("status", r.status.as_str())?;
    d.set_item("converged", r.status.converged())?;
    d.set_item("iterations", r.iterations)?;
    d.set_item("error", r.residual)?;
    d.set_item("seconds", r.elapsed.as_secs_f64())?;
    Ok(d)
}

/// A problem of any family (LCP, MLCP, Relay, ConvexQP, FC2D/FC3D, global FC).
#[pyclass(module = "saltus._saltus", name = "Problem")]
pub struct PyProblem {
    p: Problem,
}

#[pymethods]
impl PyProblem {
    /// Its family: `lcp`, `mlcp`, `relay`, `qp`, `fc2d`, `fc3d` or `gfc3d`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.p.kind().as_str()
    }
    /// Number of unknowns.
    #[getter]
    fn size(&self) -> usize {
        self.p.size()
    }
    /// The solver names of this family (`saltus solvers`).
    fn solvers(&self) -> Vec<&'static str> {
        self.p.kind().solvers().iter().map(|s| s.0).collect()
    }
    /// Solves from zero with the solver called `solver`; returns `({name: array}, report)` with
    /// the solution vectors (`z`, `w`; `x`; `r`, `u` (, `v`)) and the report (`status`,
    /// `converged`, `iterations`, `error`: the Siconos error measure, `seconds`).
    #[pyo3(signature = (solver, tol=1e-8, max_iter=1000))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        solver: &str,
        tol: f64,
        max_iter: usize,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        guard(|| {
            let p = &self.p;
            let out = py.detach(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    driver::solve(p, solver, IterOptions::new(tol, max_iter), 1)
                }))
            });
            let out = out
                .map_err(|_| crate::errors::SaltusError::new_err("internal error in the solver (please report)"))?
                .map_err(nerr)?;
            let v = PyDict::new(py);
            for (name, x) in out.vectors {
                v.set_item(name, PyArray1::from_vec(py, x))?;
            }
            Ok((v, report_dict(py, &out.report)?))
        })
    }
}

/// `w = M z + q, 0 <= z ⟂ w >= 0`.
#[pyfunction]
fn lcp_problem(m: PyReadonlyArray2<'_, f64>, q: PyReadonlyArray1<'_, f64>) -> PyResult<PyProblem> {
    guard(|| Ok(PyProblem { p: Problem::Lcp(lcp::Lcp::new(dense(&m).into(), vec1(&q)).map_err(nerr)?) }))
}

/// MLCP in Saltus form: `w = M z + q`, `w = 0` on the first `n_eq` rows, `0 <= z ⟂ w >= 0` on the others.
#[pyfunction]
fn mlcp_problem(m: PyReadonlyArray2<'_, f64>, q: PyReadonlyArray1<'_, f64>, n_eq: usize) -> PyResult<PyProblem> {
    guard(|| Ok(PyProblem { p: Problem::Mlcp(mlcp::Mlcp::new(dense(&m), vec1(&q), n_eq).map_err(nerr)?) }))
}

/// Relay: `w = M z + q`, `-w ∈ N_[lb, ub](z)`.
#[pyfunction]
fn relay_problem(
    m: PyReadonlyArray2<'_, f64>,
    q: PyReadonlyArray1<'_, f64>,
    lb: PyReadonlyArray1<'_, f64>,
    ub: PyReadonlyArray1<'_, f64>,
) -> PyResult<PyProblem> {
    guard(|| {
        let p = relay::Relay::new(dense(&m).into(), vec1(&q), vec1(&lb), vec1(&ub)).map_err(nerr)?;
        Ok(PyProblem { p: Problem::Relay(p) })
    })
}

/// Local friction contact `u = W r + q` (dense `W`).
#[pyfunction]
fn fc_problem(
    dim: usize,
    w: PyReadonlyArray2<'_, f64>,
    q: PyReadonlyArray1<'_, f64>,
    mu: PyReadonlyArray1<'_, f64>,
) -> PyResult<PyProblem> {
    guard(|| {
        let p = fc::FrictionContact::new(dim, dense(&w).into(), vec1(&q), vec1(&mu)).map_err(nerr)?;
        Ok(PyProblem { p: Problem::Fc(p) })
    })
}

/// Local friction contact with a sparse `W` given as (row, col, value) triplets of an `n×n`
/// matrix, stored as `dim×dim` blocks (duplicates summed).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn fc_problem_sparse(
    dim: usize,
    n: usize,
    rows: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f64>,
    q: PyReadonlyArray1<'_, f64>,
    mu: PyReadonlyArray1<'_, f64>,
) -> PyResult<PyProblem> {
    guard(|| {
        if dim == 0 || !n.is_multiple_of(dim) || rows.len() != vals.len() || cols.len() != vals.len() {
            return Err(NumericsError::new_err(format!(
                "W: need n = {n} a multiple of dim = {dim} and as many rows, cols and values"
            )));
        }
        let nb = n / dim;
        let mut blocks: std::collections::BTreeMap<(usize, usize), Vec<f64>> = Default::default();
        for ((&i, &j), &v) in rows.iter().zip(&cols).zip(&vals) {
            if i >= n || j >= n {
                return Err(NumericsError::new_err(format!("W: entry ({i}, {j}) outside the {n}×{n} matrix")));
            }
            let b = blocks.entry((i / dim, j / dim)).or_insert_with(|| vec![0.0; dim * dim]);
            // block values column-major, as BlockCsr stores them
            b[(j % dim) * dim + i % dim] += v;
        }
        let trip = blocks.into_iter().map(|((row, col), values)| BlockTriplet { row, col, values }).collect();
        let sizes = vec![dim; nb];
        let w = BlockCsr::from_triplets(&sizes, &sizes, trip).map_err(nerr)?;
        let p = fc::FrictionContact::new(dim, Operator::BlockCsr(w), vec1(&q), vec1(&mu)).map_err(nerr)?;
        Ok(PyProblem { p: Problem::Fc(p) })
    })
}

fn triplets(shape: (usize, usize), rows: Vec<usize>, cols: Vec<usize>, vals: Vec<f64>) -> Triplets {
    Triplets {
        nrows: shape.0,
        ncols: shape.1,
        entries: rows.into_iter().zip(cols).zip(vals).map(|((i, j), v)| (i, j, v)).collect(),
    }
}

/// Global friction contact `M v = H r + q`, `u = Hᵀ v + b` (sparse `M`, `H` as triplets).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn gfc_problem(
    dim: usize,
    m_shape: (usize, usize),
    m_rows: Vec<usize>,
    m_cols: Vec<usize>,
    m_vals: Vec<f64>,
    h_shape: (usize, usize),
    h_rows: Vec<usize>,
    h_cols: Vec<usize>,
    h_vals: Vec<f64>,
    q: PyReadonlyArray1<'_, f64>,
    b: PyReadonlyArray1<'_, f64>,
    mu: PyReadonlyArray1<'_, f64>,
) -> PyResult<PyProblem> {
    guard(|| {
        let m = triplets(m_shape, m_rows, m_cols, m_vals);
        let h = triplets(h_shape, h_rows, h_cols, h_vals);
        let bad = m.entries.iter().chain(&h.entries).any(|e| !e.2.is_finite());
        if bad
            || m.entries.iter().any(|e| e.0 >= m.nrows || e.1 >= m.ncols)
            || h.entries.iter().any(|e| e.0 >= h.nrows || e.1 >= h.ncols)
        {
            return Err(NumericsError::new_err("M, H: every entry must be finite and inside the matrix"));
        }
        let p = fc::GlobalFrictionContact::new(dim, m, h, vec1(&q), vec1(&b), vec1(&mu)).map_err(nerr)?;
        Ok(PyProblem { p: Problem::Gfc(p) })
    })
}

/// Dense convex QP `min ½ xᵀQx + pᵀx  s.t.  A x >= b,  Aeq x = beq` (Goldfarb–Idnani).
/// Returns `({"x", "lambda", "mu"}, report)`; the report adds `outcome`.
#[pyfunction]
#[pyo3(signature = (q, p, a, b, aeq, beq, tol=1e-8, max_iter=1000))]
#[allow(clippy::too_many_arguments)]
fn qp_solve<'py>(
    py: Python<'py>,
    q: PyReadonlyArray2<'_, f64>,
    p: PyReadonlyArray1<'_, f64>,
    a: PyReadonlyArray2<'_, f64>,
    b: PyReadonlyArray1<'_, f64>,
    aeq: PyReadonlyArray2<'_, f64>,
    beq: PyReadonlyArray1<'_, f64>,
    tol: f64,
    max_iter: usize,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    guard(|| {
        let prob = qp::Qp::new(dense(&q), vec1(&p), dense(&a), vec1(&b), dense(&aeq), vec1(&beq)).map_err(nerr)?;
        let it = IterOptions::new(tol, max_iter);
        it.validate().map_err(nerr)?;
        let solver = qp::solver_by_name("qp", it).ok_or_else(|| NumericsError::new_err("no `qp` solver"))?;
        let mut x = vec![0.0; prob.n()];
        let r = qp::solve(&prob, &mut x, &solver).map_err(nerr)?;
        let v = PyDict::new(py);
        v.set_item("x", PyArray1::from_vec(py, x))?;
        v.set_item("lambda", PyArray1::from_vec(py, r.lambda.clone()))?;
        v.set_item("mu", PyArray1::from_vec(py, r.mu.clone()))?;
        let d = report_dict(py, &r.report)?;
        d.set_item("outcome", format!("{:?}", r.outcome).to_lowercase())?;
        Ok((v, d))
    })
}

/// Reads a Siconos problem file (`.dat`; the family from the folder or file name unless `kind`).
#[pyfunction]
#[pyo3(signature = (path, kind=None))]
fn read(path: PathBuf, kind: Option<&str>) -> PyResult<PyProblem> {
    guard(|| {
        let kind = match kind {
            None => None,
            Some(k) => Some(ProblemKind::from_name(k).ok_or_else(|| {
                let known: Vec<&str> = ProblemKind::ALL.iter().map(|k| k.as_str()).collect();
                NumericsError::new_err(format!("unknown problem kind `{k}` (known: {})", known.join(", ")))
            })?),
        };
        let p = driver::read_problem(&path, kind)
            .map_err(|e| NumericsError::new_err(format!("{}: {e}", path.display())))?;
        Ok(PyProblem { p })
    })
}

/// Adds the numerics functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyProblem>()?;
    m.add_function(wrap_pyfunction!(lcp_problem, m)?)?;
    m.add_function(wrap_pyfunction!(mlcp_problem, m)?)?;
    m.add_function(wrap_pyfunction!(relay_problem, m)?)?;
    m.add_function(wrap_pyfunction!(fc_problem, m)?)?;
    m.add_function(wrap_pyfunction!(fc_problem_sparse, m)?)?;
    m.add_function(wrap_pyfunction!(gfc_problem, m)?)?;
    m.add_function(wrap_pyfunction!(qp_solve, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    Ok(())
}
