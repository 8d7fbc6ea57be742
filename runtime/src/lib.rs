//! # saltus-runtime
//!
//! The layer between the engines (`saltus-kernel`, `saltus-mechanics`, `saltus-control`) and
//! the faces (the `saltus` command-line tool, the Python package): everything a run needs and
//! nothing of a user interface (no command-line parsing, plots or progress bars).
//!
//! * [`xml`]: model files (schema `schemas/saltus-model.xsd`), loading with positions in every
//!   error, and the conversion into runnable simulations.
//! * [`plugin`]: the plugin loader (the only `unsafe` code of Saltus).
//! * [`drive`]: the stepping façade ([`drive::Stepper`], implemented by every simulation in
//!   [`run`]) and the one run loop ([`drive::drive`]) with its policy (stop flags, `--strict`,
//!   `--every`) and summary.
//! * [`output`]: the sinks (CSV, NumPy, in-memory columns) and the safe output target.
//! * [`execute`]: a run into files (partial files renamed on success).
#![warn(missing_docs)]

pub mod drive;
pub mod execute;
pub mod interrupt;
pub mod names;
pub mod output;
pub mod plugin;
pub mod problem;
pub mod run;
pub mod simulation;
pub mod step_time;
pub mod xml;
