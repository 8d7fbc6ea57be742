//! `saltus._saltus`: the compiled core of the Python package `saltus`.
//!
//! The bindings only convert types: numpy arrays ↔ `f64` slices, Python callables ↔ the
//! kernel's user-function closures ([`host`]), Rust errors ↔ Python exceptions ([`errors`]).
//! Models are built by the frontend's XML converter (the Python classes emit the model file),
//! runs go through the frontend's runner with an in-memory sink, and solvers through the
//! numerics driver, so a model behaves in Python exactly as under `saltus run`.
//!
//! No panic crosses into Python: every entry point runs inside [`errors::guard`].

mod capture_py;
mod cp_py;
mod errors;
mod file_sim;
mod host;
mod mech_loads;
mod mech_py;
mod numerics_py;
mod ode_py;
mod sim;
mod solvers_py;
mod views;

use pyo3::prelude::*;

/// The compiled core of `saltus` (use the `saltus` package, not this module).
#[pymodule]
fn _saltus(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<sim::CoreSimulation>()?;
    m.add_class::<file_sim::CoreModelRun>()?;
    m.add_function(wrap_pyfunction!(sim::load_model, m)?)?;
    m.add_function(wrap_pyfunction!(sim::write_csv, m)?)?;
    m.add_function(wrap_pyfunction!(sim::check_xml, m)?)?;
    numerics_py::register(m)?;
    m.add_function(wrap_pyfunction!(ode_py::integrate, m)?)?;
    m.add_function(wrap_pyfunction!(cp_py::cp_solve, m)?)?;
    m.add_function(wrap_pyfunction!(cp_py::read_problem_file, m)?)?;
    m.add_class::<cp_py::PyProblemFile>()?;
    m.add_class::<mech_py::CoreMechanicsModel>()?;
    m.add_class::<mech_py::CoreMechanicsSimulation>()?;
    m.add_function(wrap_pyfunction!(mech_py::spheres_in_a_box, m)?)?;
    m.add_function(wrap_pyfunction!(mech_py::read_mesh, m)?)?;
    m.add_function(wrap_pyfunction!(mech_py::primitive_shapes, m)?)?;
    m.add_function(wrap_pyfunction!(mech_py::primitive_from_siconos, m)?)?;
    m.add_function(wrap_pyfunction!(solvers_py::solver_elements, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
