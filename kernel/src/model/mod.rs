//! The model: dynamical systems, relations, nonsmooth laws, interactions, and the
//! nonsmooth dynamical system that owns them.

pub mod ds;
pub mod event;
pub mod interaction;
pub mod mass_check;
pub mod nsds;
pub mod nslaw;
pub mod relation;
mod relation_compliant;
pub mod userfn;
