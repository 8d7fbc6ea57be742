pub mod ode_problems;
