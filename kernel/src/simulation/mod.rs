//! Simulations: time stepping with Moreau–Jean / Euler–Moreau / semi-explicit Euler, the one-step problems, and
//! helpers to run and record.

pub mod assembly;
mod compliant;
pub mod constraint_accuracy;
mod dynamic_topology;
pub mod event_driven;
mod gosi;
pub mod index_sets;
pub(crate) mod interaction_work;
pub mod nullspace;
pub mod osi;
pub mod osnsp;
mod phases;
pub mod projection;
pub mod proximity;
pub mod recorder;
mod relation_residuals;
pub mod report;
pub mod time_stepping;
pub mod user_events;
