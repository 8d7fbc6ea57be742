//! DTOs of a problem file (root `<Problem>`): one nonlinear complementarity problem or
//! variational inequality with its user function, mirroring `schemas/saltus-model.xsd`.
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use super::schema::{is_none, VectorSpec};
use serde::{Deserialize, Serialize};

/// `<Problem version="1.0">`: the root of a problem file, holding one problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Problem", deny_unknown_fields)]
pub struct ProblemFile {
    #[serde(rename = "@version")]
    pub version: String,
    #[serde(rename = "@title", default, skip_serializing_if = "is_none")]
    pub title: Option<String>,
    #[serde(rename = "$value")]
    pub problem: CpProblemSpec,
}

/// The problem kinds (`numerics::cp`). `<F>` and the start are required (the XSD says so); they
/// are `Option`s here so that a missing one is reported on its own element by the loader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CpProblemSpec {
    /// `0 ≤ z ⊥ F(z) ≥ 0`.
    #[serde(rename = "NCP")]
    Ncp(NcpSpec),
    /// `F_e(z) = 0` on the first `equations` rows, `0 ≤ z_c ⊥ F_c(z) ≥ 0` on the others.
    #[serde(rename = "MCP")]
    Mcp(McpSpec),
    /// `⟨F(x), y − x⟩ ≥ 0` for all `y ∈ K` (a box `[lb, ub]` or a `<Ball>`).
    #[serde(rename = "VI")]
    Vi(Box<ViSpec>),
}

/// `<F library function jacobian params/>`: `F` (and `∇F`) from a plugin library with the
/// vector-field signature, called with `t = 0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CpFunctionSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@function")]
    pub function: String,
    #[serde(rename = "@jacobian", default, skip_serializing_if = "is_none")]
    pub jacobian: Option<String>,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NcpSpec {
    #[serde(rename = "F", default, skip_serializing_if = "is_none")]
    pub f: Option<CpFunctionSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub z0: Option<VectorSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpSpec {
    #[serde(rename = "@equations")]
    pub equations: usize,
    #[serde(rename = "F", default, skip_serializing_if = "is_none")]
    pub f: Option<CpFunctionSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub z0: Option<VectorSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViSpec {
    #[serde(rename = "F", default, skip_serializing_if = "is_none")]
    pub f: Option<CpFunctionSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub x0: Option<VectorSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub lb: Option<VectorSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub ub: Option<VectorSpec>,
    #[serde(rename = "Ball", default, skip_serializing_if = "is_none")]
    pub ball: Option<BallSpec>,
    /// A set known by its projection `P_K(x)`, a plugin function (vector-field ABI).
    #[serde(rename = "Projection", default, skip_serializing_if = "is_none")]
    pub projection: Option<CpFunctionSpec>,
}

/// `<Ball center="…" radius="…"/>`: the set `‖x − center‖ ≤ radius`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallSpec {
    #[serde(rename = "@center")]
    pub center: String,
    #[serde(rename = "@radius")]
    pub radius: f64,
}
