//! `solver_elements()`: the solver elements of each one-step problem, read from the solvers'
//! declarations in `saltus_numerics` (the same tables the model files are read against), from
//! which `saltus.simulation`'s problem classes take their docstrings and check their solver
//! names and options.

use pyo3::prelude::*;
use saltus_numerics::by_name::SolverDecl;
use saltus_numerics::{avi, fc, lcp, mlcp, relay};
use std::collections::BTreeMap;

/// (element, one-line description, option names).
type SolverElement = (&'static str, &'static str, Vec<&'static str>);

fn of(decls: &[SolverDecl]) -> Vec<SolverElement> {
    decls.iter().map(|d| (d.element, d.description, d.options.to_vec())).collect()
}

/// `solver_elements()`: `{problem element: [(solver element, description, options)]}` for
/// `LCP`, `MLCP`, `Relay`, `AVI` and `FrictionContact`, in declaration order (the first is not
/// necessarily the default).
#[pyfunction]
pub fn solver_elements() -> BTreeMap<&'static str, Vec<SolverElement>> {
    let fc = fc::FC_SOLVERS.iter().map(|d| (d.element, d.description, d.options.to_vec())).collect();
    BTreeMap::from([
        ("LCP", of(lcp::LCP_SOLVERS)),
        ("MLCP", of(mlcp::MLCP_SOLVERS)),
        ("Relay", of(relay::RELAY_SOLVERS)),
        ("AVI", of(avi::AVI_SOLVERS)),
        ("FrictionContact", fc),
    ])
}
