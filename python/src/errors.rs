//! Python exceptions of `saltus` and the panic guard of every entry point.
//!
//! `SaltusError` is the base; `ModelError` (a model that cannot be built, with the element path
//! of the model file), `SimulationError` (a step failed, with its time), `NumericsError` (bad
//! problem data or solver options) and `OutputError` (a file could not be written) derive from
//! it. The messages are the ones `saltus` prints.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

create_exception!(_saltus, SaltusError, PyException, "Base class of the errors raised by saltus.");
create_exception!(
    _saltus,
    ModelError,
    SaltusError,
    "A model that cannot be built (names the element and what is wrong)."
);
create_exception!(_saltus, SimulationError, SaltusError, "A step or event failed (says when and why).");
create_exception!(_saltus, NumericsError, SaltusError, "Bad problem data or solver options.");
create_exception!(_saltus, OutputError, SaltusError, "A result file could not be written.");

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SaltusError", py.get_type::<SaltusError>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("NumericsError", py.get_type::<NumericsError>())?;
    m.add("OutputError", py.get_type::<OutputError>())?;
    Ok(())
}

/// Runs `f`, turning a panic into a `SaltusError` (a panic never unwinds into Python).
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(SaltusError::new_err(format!("internal error (please report): {what}")))
        }
    }
}
