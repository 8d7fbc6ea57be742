//! Quadratic programs.
