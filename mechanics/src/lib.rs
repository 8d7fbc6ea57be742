//! Saltus mechanics: 3D rigid bodies with collision detection.
//!
//! The layer above the kernel that Siconos calls `mechanics`: rigid bodies in the
//! `NewtonEulerDS` form ([`body`]), shapes and colliders on parry3d-f64 ([`shape`]), a
//! deterministic broad phase and parry's contact manifolds ([`collision`]), the
//! `NewtonEuler3DR` contact relation ([`relation`]), and Moreau–Jean time stepping with a sparse
//! FC3D problem per step solved by the numerics crate ([`simulation`]). The kernel stays free of
//! geometry. 2D scenes (Siconos `RigidBody2dDS`, disks, 2D boxes and convex polygons on
//! parry2d-f64, 2D friction contact) are a family of bodies in the same simulation ([`planar`]).

// `!(x > 0.0)` is deliberate: it also rejects NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod assembly;
pub mod body;
pub mod boundary;
mod broad_phase;
pub mod collision;
mod collision2d;
mod contact_hook;
pub mod convert;
pub mod error;
pub mod io_hdf5;
pub mod joints;
pub mod mesh_file;
pub mod model;
pub mod moreau_jean;
mod par;
pub mod planar;
pub mod query;
pub mod relation;
pub mod scene_desc;
pub mod scenes;
pub mod shape;
pub mod simulation;
pub mod view;

pub use body::{BodyId, BodyKind, BodyState, ForceFn, Lifetime, MotionFn, RigidBody, BODY_STATE_LEN};
pub use boundary::{BoundaryCondition, PrescribedVelocity, PrescribedVelocityFn};
pub use collision::{CollisionDetector, ContactKey, ContactPoint};
pub use contact_hook::{ContactHook, ContactHookFn};
pub use error::{MechanicsError, Result};
pub use joints::{Joint, JointId, JointType};
pub use model::{BodyDesc, ContactLaw, ImpactLaw, MassSpec, MechanicsModel};
pub use query::{QueryHit, QueryRegion};
pub use shape::{Collider, ShapeDesc};
pub use simulation::{
    nsgs, Captured, CapturedProblem, ContactOrder, Formulation, MechanicsSimulation, MechanicsStepReport,
    MoreauJeanOptions, StepEnergy, StepPhases, NSGS_ANDERSON_MEMORY,
};
