//! DTOs of `<NullSpace>` (the projection / null-space method of Blajer, issue 32) mirroring
//! `schemas/saltus-model.xsd`; re-exported by [`super::schema`].
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use super::schema::{is_none, FunctionSpec};
use super::schema_sim::TimeDiscretisationSpec;
use serde::{Deserialize, Serialize};

/// `<NullSpace>`: outputs every `h`, the integrator's tolerances, the drift projection, the basis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NullSpaceSpec {
    #[serde(rename = "@rtol", default, skip_serializing_if = "is_none")]
    pub rtol: Option<f64>,
    #[serde(rename = "@atol", default, skip_serializing_if = "is_none")]
    pub atol: Option<f64>,
    /// The drift projection triggers when `max_i |C_i| > drift_tol` (0: no drift control).
    #[serde(rename = "@drift_tol", default, skip_serializing_if = "is_none")]
    pub drift_tol: Option<f64>,
    /// A new QR chart when the distortion reaches this (numeric basis).
    #[serde(rename = "@max_distortion", default, skip_serializing_if = "is_none")]
    pub max_distortion: Option<f64>,
    #[serde(rename = "TimeDiscretisation")]
    pub time_discretisation: TimeDiscretisationSpec,
    /// A generated basis `D(q)` and its derivative `Ḋ(q, v)` (numeric QR charts when absent).
    #[serde(rename = "Basis", default, skip_serializing_if = "is_none")]
    pub basis: Option<BasisSpec>,
    /// `γ(q, v) = (d C_J/dt) v` (central differences when absent).
    #[serde(rename = "Gamma", default, skip_serializing_if = "is_none")]
    pub gamma: Option<FunctionSpec>,
}

/// `<Basis library function derivative params>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BasisSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@function")]
    pub function: String,
    #[serde(rename = "@derivative")]
    pub derivative: String,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}
