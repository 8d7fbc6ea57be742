//! The one-step problems of a running simulation, kept for dumps (Siconos's
//! `FrictionContactTrace`: FCLib files of chosen steps) and solver studies.
//!
//! With [`MechanicsSimulation::set_capture_problem`] on, each step that solves a friction-contact
//! problem keeps a copy of it (local `u = W r + q`, or global `M v = H r + q`, `u = Hᵀ v + b`),
//! the warm start it was solved from and its solution; a step without contacts keeps nothing.

use super::MechanicsSimulation;
use saltus_numerics::fc::{FrictionContact, GlobalFrictionContact};

/// The problem of a captured step.
#[derive(Debug, Clone)]
pub enum CapturedProblem {
    /// `MoreauJeanOSI`: the local problem (Siconos `FrictionContact`).
    Local(FrictionContact),
    /// `MoreauJeanGOSI`: the global problem (Siconos `GlobalFrictionContact`).
    Global(GlobalFrictionContact),
}

/// A step's friction-contact problem, its warm start and its solution.
#[derive(Debug, Clone)]
pub struct Captured {
    /// End time of the step.
    pub t: f64,
    /// The problem.
    pub problem: CapturedProblem,
    /// Reactions the solver started from (3 per contact, contact frame).
    pub r0: Vec<f64>,
    /// Reactions found.
    pub r: Vec<f64>,
    /// Local velocities `u` at the solution.
    pub u: Vec<f64>,
    /// Global velocities `v` at the solution (global problems; empty otherwise).
    pub v: Vec<f64>,
    /// Solver iterations.
    pub iterations: usize,
}

impl MechanicsSimulation {
    /// Keep a copy of each step's friction-contact problem, warm start and solution (for solver
    /// studies and dumps; costs a copy of the problem per step).
    pub fn set_capture_problem(&mut self, on: bool) {
        self.capture = on;
        self.captured = None;
    }
    /// The last step's local friction-contact problem and its warm start, when captured.
    pub fn captured_problem(&self) -> Option<(FrictionContact, Vec<f64>)> {
        match self.captured.as_ref()? {
            Captured { problem: CapturedProblem::Local(p), r0, .. } => Some((p.clone(), r0.clone())),
            _ => None,
        }
    }
    /// The last step's problem with its warm start and solution (`None` when the step solved no
    /// friction-contact problem or capture is off).
    pub fn captured(&self) -> Option<&Captured> {
        self.captured.as_ref()
    }
}
