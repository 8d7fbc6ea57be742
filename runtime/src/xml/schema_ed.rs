//! DTOs of `<EventDriven>` (the event-driven simulation, Siconos `EventDriven` with
//! `LsodarOSI`) mirroring `schemas/saltus-model.xsd`; re-exported by [`super::schema`].
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use super::schema::is_none;
use super::schema_sim::{LcpSolverSpec, TimeDiscretisationSpec};
use serde::{Deserialize, Serialize};

/// `<EventDriven>`: TD events every `h`, the integrator, the impact and acceleration LCPs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventDrivenSpec {
    /// A contact with gap `y ≤ event_tol` counts as closed at an event (Siconos `TOL_ED`).
    #[serde(rename = "@event_tol", default, skip_serializing_if = "is_none")]
    pub event_tol: Option<f64>,
    /// A closed contact with `|ẏ| ≤ velocity_tol` is a candidate for index set 2.
    #[serde(rename = "@velocity_tol", default, skip_serializing_if = "is_none")]
    pub velocity_tol: Option<f64>,
    /// Approach speed below which an impact uses `e = 0` (accumulation of impacts).
    #[serde(rename = "@zeno_velocity", default, skip_serializing_if = "is_none")]
    pub zeno_velocity: Option<f64>,
    /// Relative tolerance for merging a nonsmooth event with the next TD event.
    #[serde(rename = "@merge_tol", default, skip_serializing_if = "is_none")]
    pub merge_tol: Option<f64>,
    /// Cap on consecutive nonsmooth events between two TD events.
    #[serde(rename = "@max_events_between_td", default, skip_serializing_if = "is_none")]
    pub max_events_between_td: Option<u64>,
    /// First-order models: the mode at a switch comes from an implicit step `mode_probe · h`.
    #[serde(rename = "@mode_probe", default, skip_serializing_if = "is_none")]
    pub mode_probe: Option<f64>,
    #[serde(rename = "TimeDiscretisation")]
    pub time_discretisation: TimeDiscretisationSpec,
    #[serde(rename = "OneStepIntegrator")]
    pub osi: EdOsiWrapper,
    /// The accuracy knob α with weights or units, instead of rtol/atol.
    #[serde(rename = "Accuracy", default, skip_serializing_if = "is_none")]
    pub accuracy: Option<AccuracySpec>,
    /// LCP solved at impacts (velocity level, Newton impact law); default Lemke.
    #[serde(rename = "ImpactProblem", default, skip_serializing_if = "is_none")]
    pub impact: Option<EdLcpSpec>,
    /// LCP solved for the contact forces of closed contacts (acceleration level); default Lemke.
    #[serde(rename = "AccelerationProblem", default, skip_serializing_if = "is_none")]
    pub acceleration: Option<EdLcpSpec>,
    /// Sensors, controllers and observers acting on a Lagrangian plant at the time-discretisation
    /// events (Siconos `ControlLsodarSimulation`).
    #[serde(rename = "ControlManager", default, skip_serializing_if = "is_none")]
    pub control: Option<super::schema_control::ControlManagerSpec>,
}

/// `<Accuracy alpha time_scale weights units norm>` (`events-accuracy-projection.md` §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccuracySpec {
    #[serde(rename = "@alpha")]
    pub alpha: f64,
    #[serde(rename = "@time_scale", default, skip_serializing_if = "is_none")]
    pub time_scale: Option<f64>,
    #[serde(rename = "@weights", default, skip_serializing_if = "is_none")]
    pub weights: Option<String>,
    #[serde(rename = "@units", default, skip_serializing_if = "is_none")]
    pub units: Option<String>,
    #[serde(rename = "@norm", default, skip_serializing_if = "is_none")]
    pub norm: Option<ErrorNormSpec>,
    /// Tolerances `t_i` of the bilateral constraints (projection stops at `‖T h(q)‖ ≤ α`).
    #[serde(rename = "@constraint_tol", default, skip_serializing_if = "is_none")]
    pub constraint_tol: Option<String>,
}

/// `<OneStepIntegrator>` of an event-driven simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdOsiWrapper {
    #[serde(rename = "$value")]
    pub kind: EdOsiSpec,
}

/// The integrators of an event-driven simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EdOsiSpec {
    LsodarOSI(LsodarSpec),
}

/// `<LsodarOSI>`: the LSODAR-class integrator of `numerics::ode` with root finding.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LsodarSpec {
    #[serde(rename = "@rtol", default, skip_serializing_if = "is_none")]
    pub rtol: Option<f64>,
    #[serde(rename = "@atol", default, skip_serializing_if = "is_none")]
    pub atol: Option<f64>,
    #[serde(rename = "@method", default, skip_serializing_if = "is_none")]
    pub method: Option<OdeMethodSpec>,
    #[serde(rename = "@hmax", default, skip_serializing_if = "is_none")]
    pub hmax: Option<f64>,
    #[serde(rename = "@max_steps", default, skip_serializing_if = "is_none")]
    pub max_steps: Option<u64>,
    #[serde(rename = "@root_sampling", default, skip_serializing_if = "is_none")]
    pub root_sampling: Option<bool>,
    #[serde(rename = "@h0", default, skip_serializing_if = "is_none")]
    pub h0: Option<f64>,
    #[serde(rename = "@hmin", default, skip_serializing_if = "is_none")]
    pub hmin: Option<f64>,
    #[serde(rename = "@max_order_adams", default, skip_serializing_if = "is_none")]
    pub max_order_adams: Option<usize>,
    #[serde(rename = "@max_order_bdf", default, skip_serializing_if = "is_none")]
    pub max_order_bdf: Option<usize>,
    #[serde(rename = "@norm", default, skip_serializing_if = "is_none")]
    pub norm: Option<ErrorNormSpec>,
}

/// Norm of the local error test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorNormSpec {
    Max,
    Rms,
}

/// Integration method between events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OdeMethodSpec {
    Lsoda,
    Adams,
    Bdf,
    Dopri5,
}

/// `<ImpactProblem>` / `<AccelerationProblem>`: one LCP solver element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdLcpSpec {
    #[serde(rename = "$value")]
    pub solver: LcpSolverSpec,
}
