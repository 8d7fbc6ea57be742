//! Quadratic programs.

pub mod bounded;
