//! # saltus-frontend
//!
//! The user-facing layer of Saltus: XML model files (schema `schemas/saltus-model.xsd`),
//! C-ABI plugins loaded from shared libraries, and the `saltus` command-line tool.
//!
//! * [`xml`]: DTOs mirroring the schema one-to-one, loading with positions in every error.
//! * [`plugin`]: the plugin loader (the only `unsafe` code of Saltus).
#![warn(missing_docs)]

pub mod interrupt;
pub mod mech_cmd;
pub mod names;
pub mod output;
pub mod plot;
mod plot_text;
pub mod plugin;
pub mod runner;
pub mod runner_control;
pub mod runner_ed;
pub mod runner_events;
pub mod runner_mech;
#[cfg(feature = "hdf5")]
pub mod runner_mech_hdf5;
pub mod runner_nullspace;
pub mod simulation;
pub mod solve_cmd;
pub mod step_time;
pub mod view_cmd;
pub mod xml;
