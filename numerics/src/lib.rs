//! Saltus numerics: nonsmooth problems and their solvers, knowing nothing of models.
//!
//! Every solver takes a problem, a warm-start iterate and typed options, and returns
//! a [`SolveReport`] (status, iterations, residual, elapsed) or a [`NumericsError`] when the input
//! makes the answer meaningless. Nothing here prints, panics on bad input, or exits.
#![warn(missing_docs)]
// `!(x > 0.0)` is how the solvers reject NaN along with non-positive values; keep it.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod avi;
pub mod by_name;
pub mod cp;
pub mod driver;
pub mod error;
pub mod fc;
pub mod gmp;
pub mod io;
pub mod lcp;
pub mod matrix;
pub mod mlcp;
pub mod ode;
pub mod qp;
pub mod relay;
pub mod report;
pub mod rng;
pub mod zoh;

pub use error::{NumericsError, Result};
pub use matrix::{BlockCsr, Operator};
pub use report::{FailReason, IterOptions, SolveReport, SolveStatus};
