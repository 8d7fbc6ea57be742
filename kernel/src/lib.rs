//! Saltus kernel: nonsmooth dynamical systems and their time-stepping simulation, in the
//! vocabulary of Siconos.
//!
//! * Model ([`model`]): [`DynamicalSystem`]s, [`Relation`]s, [`NonSmoothLaw`]s, [`Interaction`]s
//!   between one or two systems, all owned by the [`Nsds`] and addressed by [`DsId`] / [`InterId`].
//!   User physics enters as closures ([`model::userfn`]).
//! * Simulation ([`simulation`]): [`TimeStepping`] with [`Osi::MoreauJean`] (Lagrangian systems,
//!   velocity-level Newton impact law) or [`Osi::EulerMoreau`] (first-order systems), a Newton loop
//!   for nonlinear models, and a one-step problem [`Osnsp`] solved by `saltus-numerics`.
//!   [`TimeSteppingDirectProjection`] adds a projection of positions onto the active constraints.
//! * [`presets`]: builders for common systems; [`Recorder`] to collect trajectories.
//!
//! ```
//! use saltus_kernel::{presets, Osi, Osnsp, TimeStepping, solvers::lcp::LcpSolver};
//! use nalgebra::{dmatrix, dvector};
//! // a ball of mass 1 falling on the ground z = 0 with restitution 0.9
//! let (mut nsds, _ball, _contact) = presets::lagrangian_contact(
//!     dmatrix![1.0], dvector![1.0], dvector![0.0], dmatrix![1.0], None, 0.9, Some(dvector![-9.81])).unwrap();
//! let mut sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default()))).unwrap();
//! for _ in 0..1000 { sim.step(&mut nsds).unwrap(); }
//! assert!(nsds.systems()[0].state()[0] > -0.01);
//! ```
#![warn(missing_docs)]

pub mod error;
pub mod model;
pub mod presets;
pub mod simulation;

/// The numerics solvers the kernel calls (re-exported so users name them from one place).
pub mod solvers {
    pub use saltus_numerics::{avi, fc, gmp, lcp, mlcp, relay};
}

pub use error::{ErrorNames, KernelError, KernelIds};
pub use model::ds::{
    DynamicalSystem, FirstOrderLinearDs, FirstOrderLinearTiDs, FirstOrderNonLinearDs, ForceFn, LagrangianDs,
    LagrangianLinearTiDs, Mass, RigidBodyInertia,
};
pub use model::event::{EventAction, EventFunction, EventStates, UserEvent, UserEventHit};
pub use model::interaction::Interaction;
pub use model::mass_check::{check_mass, MassError, MassRequirement};
pub use model::nsds::{DsId, InterId, Nsds, TopologyChange};
pub use model::nslaw::NonSmoothLaw;
pub use model::relation::{
    FirstOrderLinearR, FirstOrderLinearTiR, FirstOrderNonLinearR, FirstOrderType1R, FirstOrderType2R,
    LagrangianCompliantLinearTiR, LagrangianCompliantR, LagrangianLinearTiR, LagrangianRheonomousR,
    LagrangianScleronomousR, Relation,
};
pub use model::userfn::{MatOp, UserFnError, VecOp};
pub use saltus_numerics::ode::OdeOptions;
pub use saltus_numerics::{SolveReport, SolveStatus};
pub use simulation::assembly::Storage;
pub use simulation::constraint_accuracy::ConstraintAccuracy;
pub use simulation::event_driven::{
    EventDriven, EventDrivenOptions, EventKind, EventReport, EventsManager, TangentMode,
};
pub use simulation::osi::{NewtonOptions, Osi, VelocityUpdate};
pub use simulation::osnsp::{OnNonConvergence, Osnsp, OsnspOptions};
pub use simulation::projection::{ProjectionOptions, TimeSteppingDirectProjection};
pub use simulation::proximity::{
    InteractionManager, ProximityChanges, ProximityInteraction, ProximityManager, ProximityOutputs,
};
pub use simulation::recorder::{run, Recorder};
pub use simulation::report::{ProjectionReport, StepReport};
pub use simulation::time_stepping::TimeStepping;
pub use simulation::user_events::EventMonitor;
