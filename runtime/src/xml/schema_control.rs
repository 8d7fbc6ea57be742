//! DTOs of `<Control>` (Siconos `ControlZOHSimulation` with its sensors, actuators and
//! observers) mirroring `schemas/saltus-model.xsd`; re-exported by [`super::schema`].
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use super::schema::{is_none, MatrixSpec, VectorSpec};
use serde::{Deserialize, Serialize};

/// `<Control ds h h_c>`: the plant `ds` (a FirstOrderLinearTIDS) integrated by zero-order hold
/// with step `h`; the children act every `period`, `h_c` when not given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlSpec {
    #[serde(rename = "@ds", default, skip_serializing_if = "is_none")]
    pub ds: Option<String>,
    #[serde(rename = "@h")]
    pub h: f64,
    #[serde(rename = "@h_c")]
    pub h_c: f64,
    #[serde(rename = "$value", default)]
    pub items: Vec<ControlItem>,
}

/// `<ControlManager ds body h_c>` inside a `<Simulation>` (Siconos `ControlManager` on a user's
/// time stepping): the plant is the system `ds` of the NSDS, or the body `body` of a
/// `<Mechanics>` scene, integrated by the simulation; the children act every `period`, `h_c`
/// (default: the simulation's `h`) when not given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlManagerSpec {
    #[serde(rename = "@ds", default, skip_serializing_if = "is_none")]
    pub ds: Option<String>,
    #[serde(rename = "@body", default, skip_serializing_if = "is_none")]
    pub body: Option<String>,
    #[serde(rename = "@h_c", default, skip_serializing_if = "is_none")]
    pub h_c: Option<f64>,
    #[serde(rename = "$value", default)]
    pub items: Vec<ControlItem>,
}

/// One child of `<Control>` or `<ControlManager>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ControlItem {
    LinearSensor(LinearSensorSpec),
    LinearSMC(LinearSmcSpec),
    ExplicitLinearSMC(LinearSmcSpec),
    PID(PidSpec),
    ExplicitTwisting(ExplicitTwistingSpec),
    LinearSMCOT2(LinearSmcOt2Spec),
    LuenbergerObserver(LuenbergerObserverSpec),
}

/// `<LinearSMCOT2 name period sensor>` with `<Csurface>` and `<B>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearSmcOt2Spec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@period", default, skip_serializing_if = "is_none")]
    pub period: Option<f64>,
    #[serde(rename = "@sensor")]
    pub sensor: String,
    #[serde(rename = "Csurface")]
    pub csurface: MatrixSpec,
    #[serde(rename = "B")]
    pub b: MatrixSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearSensorSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@period", default, skip_serializing_if = "is_none")]
    pub period: Option<f64>,
    #[serde(rename = "C", default, skip_serializing_if = "is_none")]
    pub c: Option<MatrixSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearSmcSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@period", default, skip_serializing_if = "is_none")]
    pub period: Option<f64>,
    #[serde(rename = "@sensor")]
    pub sensor: String,
    #[serde(rename = "@alpha", default, skip_serializing_if = "is_none")]
    pub alpha: Option<f64>,
    #[serde(rename = "@theta", default, skip_serializing_if = "is_none")]
    pub theta: Option<f64>,
    #[serde(rename = "@no_ueq", default, skip_serializing_if = "is_none")]
    pub no_ueq: Option<bool>,
    #[serde(rename = "@solver", default, skip_serializing_if = "is_none")]
    pub solver: Option<String>,
    #[serde(rename = "Csurface")]
    pub csurface: MatrixSpec,
    #[serde(rename = "B")]
    pub b: MatrixSpec,
    #[serde(rename = "D", default, skip_serializing_if = "is_none")]
    pub d: Option<MatrixSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PidSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@period", default, skip_serializing_if = "is_none")]
    pub period: Option<f64>,
    #[serde(rename = "@sensor")]
    pub sensor: String,
    #[serde(rename = "@Kp")]
    pub kp: f64,
    #[serde(rename = "@Ki")]
    pub ki: f64,
    #[serde(rename = "@Kd")]
    pub kd: f64,
    #[serde(rename = "@reference", default, skip_serializing_if = "is_none")]
    pub reference: Option<f64>,
    #[serde(rename = "@delta_t", default, skip_serializing_if = "is_none")]
    pub delta_t: Option<f64>,
    #[serde(rename = "B")]
    pub b: MatrixSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplicitTwistingSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@period", default, skip_serializing_if = "is_none")]
    pub period: Option<f64>,
    #[serde(rename = "@sensor")]
    pub sensor: String,
    #[serde(rename = "@gain")]
    pub gain: f64,
    #[serde(rename = "@beta")]
    pub beta: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LuenbergerObserverSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@period", default, skip_serializing_if = "is_none")]
    pub period: Option<f64>,
    #[serde(rename = "@sensor")]
    pub sensor: String,
    #[serde(rename = "C")]
    pub c: MatrixSpec,
    #[serde(rename = "L")]
    pub l: MatrixSpec,
    pub xhat0: VectorSpec,
}
