//! Saltus control toolbox: the Siconos `control` component.
//!
//! * [`Sensor`]s (`y = x` or `y = C x`), controllers ([`Controller`]: implicit and explicit
//!   linear sliding-mode control, PID, explicit twisting) and the [`LuenbergerObserver`];
//! * [`ControlManager`]: the sensors, observers and actuators of any plant, each at its own
//!   sampling period (the kernel's time stepping and rigid-body scenes use it);
//! * [`ControlZohSimulation`]: a linear plant integrated exactly by zero-order hold
//!   ([`zoh`]: `Φ = exp(A h)`, `Ψ = ∫₀ʰ exp(A s) ds` by scaling and squaring), with every
//!   sensor, observer and actuator at its own sampling period.
//!
//! ```
//! use saltus_control::{CommonSmc, ControlZohSimulation, Controller, Sensor};
//! use saltus_kernel::FirstOrderLinearTiDs;
//! use nalgebra::{dmatrix, dvector};
//! // double integrator ẍ = u, sliding surface σ = x + ẋ, implicit SMC every 10 ms
//! let plant = FirstOrderLinearTiDs::new(dvector![1.0, 0.0], dmatrix![0.0, 1.0; 0.0, 0.0]);
//! let mut sim = ControlZohSimulation::new(&plant, 0.0, 3.0, 1e-3).unwrap();
//! let s = sim.manager_mut().add_sensor(Sensor::State, 1e-2).unwrap();
//! let smc = CommonSmc::new(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 2.0);
//! sim.manager_mut().add_actuator("smc", Controller::LinearSmc(smc), s, 1e-2).unwrap();
//! sim.run(|_row| {}).unwrap();
//! let x = sim.state();
//! assert!((x[0] + x[1]).abs() < 1e-3 && x[0].abs() < 0.1);
//! ```
#![warn(missing_docs)]

mod actuate;
pub mod controller;
pub mod error;
pub mod manager;
pub mod simulation;
pub mod zoh;

pub use controller::{CommonSmc, Controller, ExplicitTwisting, LinearSmcOt2, LuenbergerObserver, Pid, Sensor};
pub use error::{ControlError, Result};
pub use manager::{ControlManager, ControlReport, LinearModel, SensorId};
pub use simulation::ControlZohSimulation;
