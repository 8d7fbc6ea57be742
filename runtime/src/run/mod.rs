//! The [`crate::drive::Stepper`]s of Saltus, one per kind of simulation, with the rows they
//! write (column names are documented in each module, and once for all in
//! `docs/model-format.md#output-columns`).
//!
//! * [`kernel::ModelRun`]: kernel models (time stepping, with projection, event driven; rows of
//!   event-driven runs in [`event_driven`], user-event rows in [`events`]), `<Control>` models
//!   among them (a zero-order-hold time stepping under the controllers of [`control`]);
//! * [`mechanics::MechRun`]: `<Mechanics>` scenes (bodies, joints; contacts table);
//! * [`nullspace::NullSpaceRun`]: `<NullSpace>` models (the projection method of Blajer).

pub mod control;
pub mod event_driven;
pub mod events;
pub mod kernel;
pub mod mechanics;
pub mod nullspace;
pub mod trace;
