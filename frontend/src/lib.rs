//! # saltus-frontend
//!
//! The `saltus` command-line tool: argument parsing, progress bars, plots, `saltus view`,
//! `saltus solve`. Everything a run needs (models, plugins, the stepping façade, the run
//! driver and the output sinks) is in `saltus-runtime`, which the Python package shares.
#![warn(missing_docs)]

pub mod mech_cmd;
pub mod plot;
mod plot_text;
pub mod progress;
pub mod runner_mech_hdf5;
pub mod solve_cmd;
pub mod view_cmd;
