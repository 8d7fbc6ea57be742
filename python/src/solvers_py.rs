//! `solver_elements()`: the solver elements of each one-step problem, as the model files read
//! them (`saltus_runtime::xml::solver_elements`, from the solvers' declarations in
//! `saltus_numerics`), from which `saltus.simulation`'s problem classes take their docstrings
//! and check their solver names and options.

use pyo3::prelude::*;
use std::collections::BTreeMap;

/// (element, one-line description, option names).
type SolverElement = (&'static str, &'static str, Vec<&'static str>);

/// `solver_elements()`: `{problem element: [(solver element, description, options)]}` for every
/// one-step problem of the model files, in declaration order (the first is not necessarily the
/// default).
#[pyfunction]
pub fn solver_elements() -> BTreeMap<&'static str, Vec<SolverElement>> {
    let mut out: BTreeMap<&'static str, Vec<SolverElement>> = BTreeMap::new();
    for e in saltus_runtime::xml::solver_elements() {
        out.entry(e.problem).or_default().push((e.element, e.description, e.options.to_vec()));
    }
    out
}
