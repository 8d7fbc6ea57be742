//! Saltus control toolbox: the Siconos `control` component.
//!
//! * [`Sensor`]s (`y = x` or `y = C x`), controllers ([`Controller`]: implicit and explicit
//!   linear sliding-mode control, PID, explicit twisting) and the [`LuenbergerObserver`];
//! * [`ControlManager`]: the sensors, observers and actuators of any plant, each at its own
//!   sampling period (the kernel's time stepping and rigid-body scenes use it);
//!
//! The plant is any kernel simulation: a linear plant integrated exactly is a kernel time stepping
//! with the zero-order hold (`ZeroOrderHoldOSI`: `x_{k+1} = Φ x_k + Ψ (b + g)`,
//! [`saltus_numerics::zoh`]), Siconos's `ControlZOHSimulation`; its owner calls
//! [`ControlManager::instant`] at every step and holds the input term `g` in the simulation
//! (`TimeStepping::set_control_input`).
//!
//! ```
//! use saltus_control::{CommonSmc, ControlManager, Controller, LinearModel, Sensor};
//! use saltus_kernel::solvers::lcp::LcpSolver;
//! use saltus_kernel::{DsId, FirstOrderLinearTiDs, Nsds, Osi, Osnsp, TimeStepping};
//! use nalgebra::{dmatrix, dvector, DVector};
//! // double integrator ẍ = u, sliding surface σ = x + ẋ, implicit SMC every 10 ms
//! let (a, h) = (dmatrix![0.0, 1.0; 0.0, 0.0], 1e-3);
//! let mut nsds = Nsds::new(0.0);
//! let ds = nsds.add_ds("plant", FirstOrderLinearTiDs::new(dvector![1.0, 0.0], a.clone())).unwrap();
//! let lcp = Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
//! let mut ts = TimeStepping::new(&nsds, h, Osi::ZeroOrderHold, lcp).unwrap();
//! let model = LinearModel { a, b: DVector::zeros(2) };
//! let mut m = ControlManager::new(2, h, Some(model)).unwrap();
//! let s = m.add_sensor(Sensor::State, 1e-2).unwrap();
//! let smc = CommonSmc::new(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 2.0);
//! m.add_actuator("smc", Controller::LinearSmc(smc), s, 1e-2).unwrap();
//! let mut g = DVector::zeros(2);
//! for k in 0..3000 {
//!     m.instant(k, k as f64 * h, nsds.systems()[0].state()).unwrap();
//!     m.input_term(&mut g);
//!     ts.set_control_input(ds, g.as_slice()).unwrap();
//!     ts.step(&mut nsds).unwrap();
//! }
//! let x = nsds.systems()[0].state();
//! assert!((x[0] + x[1]).abs() < 1e-3 && x[0].abs() < 0.1);
//! ```
#![warn(missing_docs)]

mod actuate;
pub mod controller;
pub mod error;
pub mod manager;

pub use controller::{CommonSmc, Controller, ExplicitTwisting, LinearSmcOt2, LuenbergerObserver, Pid, Sensor};
pub use error::{ControlError, Result};
pub use manager::{ControlManager, ControlReport, LinearModel, SensorId};
