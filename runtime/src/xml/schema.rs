//! DTOs mirroring `schemas/saltus-model.xsd` one-to-one (quick-xml serde conventions: `@name`
//! for attributes, `$text` for inline number lists, `$value` + enum for an `xs:choice`).
//!
//! These types are dumb on purpose: no validation here. Numbers lists stay text until
//! [`super::convert`] parses them with the element path in every error.
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use serde::{Deserialize, Serialize};

/// Schema version written and accepted by this build.
pub const SCHEMA_VERSION: &str = "1.0";

pub(crate) fn is_none<T>(v: &Option<T>) -> bool {
    v.is_none()
}

/// `<Model version="1.0">`: the root.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Model", deny_unknown_fields)]
pub struct ModelFile {
    #[serde(rename = "@version")]
    pub version: String,
    #[serde(rename = "@title", default, skip_serializing_if = "is_none")]
    pub title: Option<String>,
    #[serde(rename = "Time")]
    pub time: TimeSpec,
    /// Dynamical systems and interactions (absent, i.e. empty, in a `<Mechanics>` model).
    #[serde(rename = "NSDS", default, skip_serializing_if = "NsdsSpec::is_empty")]
    pub nsds: NsdsSpec,
    /// A rigid-body scene with collision detection (instead of `<NSDS>`).
    #[serde(rename = "Mechanics", default, skip_serializing_if = "is_none")]
    pub mechanics: Option<MechanicsSpec>,
    /// Time stepping (exactly one of `Simulation` and `EventDriven` is given).
    #[serde(rename = "Simulation", default, skip_serializing_if = "is_none")]
    pub simulation: Option<SimulationSpec>,
    /// Event-driven simulation.
    #[serde(rename = "EventDriven", default, skip_serializing_if = "is_none")]
    pub event_driven: Option<EventDrivenSpec>,
    /// Zero-order-hold control simulation (Siconos `ControlZOHSimulation`).
    #[serde(rename = "Control", default, skip_serializing_if = "is_none")]
    pub control: Option<ControlSpec>,
    /// The null-space (projection) method of Blajer (issue 32).
    #[serde(rename = "NullSpace", default, skip_serializing_if = "is_none")]
    pub null_space: Option<NullSpaceSpec>,
    /// User events of a `Simulation` or `EventDriven` run.
    #[serde(rename = "Events", default, skip_serializing_if = "is_none")]
    pub events: Option<EventsSpec>,
    #[serde(rename = "Output", default, skip_serializing_if = "is_none")]
    pub output: Option<OutputSpec>,
}

/// `<Time t0=".." T=".."/>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSpec {
    #[serde(rename = "@t0")]
    pub t0: f64,
    #[serde(rename = "@T")]
    pub t_end: f64,
}

/// `<NSDS>`: dynamical systems and interactions, in any order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NsdsSpec {
    #[serde(rename = "$value", default)]
    pub items: Vec<NsdsItem>,
}

impl NsdsSpec {
    /// No system and no interaction (an absent `<NSDS>`).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// One child of `<NSDS>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum NsdsItem {
    FirstOrderNonLinearDS(FirstOrderNonLinearDsSpec),
    FirstOrderLinearDS(FirstOrderLinearDsSpec),
    FirstOrderLinearTIDS(FirstOrderLinearDsSpec),
    LagrangianDS(LagrangianDsSpec),
    LagrangianLinearTIDS(LagrangianLinearTiDsSpec),
    NewtonEulerDS(NewtonEulerDsSpec),
    Interaction(InteractionSpec),
}

/// A vector: inline text, `file="…"`, or `library="…" function="…" params="…"`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorSpec {
    #[serde(rename = "@size", default, skip_serializing_if = "is_none")]
    pub size: Option<usize>,
    #[serde(rename = "@file", default, skip_serializing_if = "is_none")]
    pub file: Option<String>,
    #[serde(rename = "@library", default, skip_serializing_if = "is_none")]
    pub library: Option<String>,
    #[serde(rename = "@function", default, skip_serializing_if = "is_none")]
    pub function: Option<String>,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
    #[serde(rename = "$text", default, skip_serializing_if = "is_none")]
    pub text: Option<String>,
}

/// A matrix: inline text in row-major order with `rows`/`cols`, `file="…"` (one row per line),
/// or a plugin function (column-major output).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixSpec {
    #[serde(rename = "@rows", default, skip_serializing_if = "is_none")]
    pub rows: Option<usize>,
    #[serde(rename = "@cols", default, skip_serializing_if = "is_none")]
    pub cols: Option<usize>,
    #[serde(rename = "@file", default, skip_serializing_if = "is_none")]
    pub file: Option<String>,
    #[serde(rename = "@library", default, skip_serializing_if = "is_none")]
    pub library: Option<String>,
    #[serde(rename = "@function", default, skip_serializing_if = "is_none")]
    pub function: Option<String>,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
    #[serde(rename = "$text", default, skip_serializing_if = "is_none")]
    pub text: Option<String>,
}

/// A plugin function with optional Jacobians (names of symbols in `library`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@function")]
    pub function: String,
    #[serde(rename = "@jacobian", default, skip_serializing_if = "is_none")]
    pub jacobian: Option<String>,
    #[serde(rename = "@jacobian_q", default, skip_serializing_if = "is_none")]
    pub jacobian_q: Option<String>,
    #[serde(rename = "@jacobian_v", default, skip_serializing_if = "is_none")]
    pub jacobian_v: Option<String>,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

/// `<FirstOrderNonLinearDS>`: `M ẋ = f(t, x) + r`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstOrderNonLinearDsSpec {
    #[serde(rename = "@name")]
    pub name: String,
    pub x0: VectorSpec,
    #[serde(rename = "Mass", default, skip_serializing_if = "is_none")]
    pub mass: Option<MatrixSpec>,
    /// `f` with `jacobian` = ∇ₓf (both [`saltus_plugin_abi::VectorFieldFn`]).
    #[serde(rename = "F")]
    pub f: FunctionSpec,
    #[serde(default, skip_serializing_if = "is_none")]
    pub z: Option<VectorSpec>,
}

/// `<FirstOrderLinearDS>` (`A(t)`, `b(t)`) and `<FirstOrderLinearTIDS>` (constant `A`, `b`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstOrderLinearDsSpec {
    #[serde(rename = "@name")]
    pub name: String,
    pub x0: VectorSpec,
    #[serde(rename = "Mass", default, skip_serializing_if = "is_none")]
    pub mass: Option<MatrixSpec>,
    #[serde(rename = "A")]
    pub a: MatrixSpec,
    #[serde(default, skip_serializing_if = "is_none")]
    pub b: Option<VectorSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub z: Option<VectorSpec>,
}

/// `<LagrangianDS>`: `M(q) v̇ + F_gyr(q, v) + F_int(t, q, v) = F_ext(t) + p`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LagrangianDsSpec {
    #[serde(rename = "@name")]
    pub name: String,
    pub q0: VectorSpec,
    pub v0: VectorSpec,
    /// Constant, or `M(q)` from a plugin ([`saltus_plugin_abi::VectorFieldFn`] of q, n×n output).
    #[serde(rename = "Mass")]
    pub mass: MatrixSpec,
    #[serde(rename = "FInt", default, skip_serializing_if = "is_none")]
    pub f_int: Option<FunctionSpec>,
    #[serde(rename = "FGyr", default, skip_serializing_if = "is_none")]
    pub f_gyr: Option<FunctionSpec>,
    #[serde(rename = "FExt", default, skip_serializing_if = "is_none")]
    pub f_ext: Option<VectorSpec>,
}

/// `<LagrangianLinearTIDS>`: `M v̇ + C v + K q = F_ext(t) + p`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LagrangianLinearTiDsSpec {
    #[serde(rename = "@name")]
    pub name: String,
    pub q0: VectorSpec,
    pub v0: VectorSpec,
    #[serde(rename = "Mass")]
    pub mass: MatrixSpec,
    #[serde(rename = "K", default, skip_serializing_if = "is_none")]
    pub k: Option<MatrixSpec>,
    #[serde(rename = "C", default, skip_serializing_if = "is_none")]
    pub c: Option<MatrixSpec>,
    #[serde(rename = "FExt", default, skip_serializing_if = "is_none")]
    pub f_ext: Option<VectorSpec>,
}

/// `<NewtonEulerDS name mass>`: a rigid body (Siconos `NewtonEulerDS(q, twist, m, I)`),
/// `q0 = (x, y, z, qw, qx, qy, qz)`, `v0 = (v, Ω)` (`v` in the world frame, `Ω` in the body
/// frame), the body-frame inertia, `F_ext = (f, τ)` (force in the world frame, torque in the body
/// frame; constant or a plugin of t).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewtonEulerDsSpec {
    #[serde(rename = "@name")]
    pub name: String,
    #[serde(rename = "@mass")]
    pub mass: f64,
    pub q0: VectorSpec,
    pub v0: VectorSpec,
    #[serde(rename = "Inertia")]
    pub inertia: MatrixSpec,
    #[serde(rename = "FExt", default, skip_serializing_if = "is_none")]
    pub f_ext: Option<VectorSpec>,
}

/// `<Interaction name=".." ds="ds1 [ds2]">`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InteractionSpec {
    #[serde(rename = "@name")]
    pub name: String,
    /// One or two dynamical system names, whitespace-separated.
    #[serde(rename = "@ds")]
    pub ds: String,
    /// Linked only while its gap is at most this distance (kernel `ProximityManager`).
    #[serde(rename = "@activation_distance", default, skip_serializing_if = "Option::is_none")]
    pub activation_distance: Option<f64>,
    #[serde(rename = "Relation")]
    pub relation: RelationWrapper,
    #[serde(rename = "NonSmoothLaw")]
    pub law: LawWrapper,
}

/// `<Relation>` holding one relation element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelationWrapper {
    #[serde(rename = "$value")]
    pub kind: RelationSpec,
}

/// The relation kinds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RelationSpec {
    /// `y = C x + D λ + F z + e`, `r = B λ`.
    FirstOrderLinearTIR(FirstOrderLinearRSpec),
    /// Same with time-dependent `C(t)`, `D(t)`, `B(t)`, `e(t)` (plugins allowed).
    FirstOrderLinearR(FirstOrderLinearRSpec),
    /// `y = h(x, z)`, `r = g(λ, z)`.
    FirstOrderType1R(FirstOrderType1RSpec),
    /// `y = h(x, λ)`, `r = g(λ)`.
    FirstOrderType2R(FirstOrderType2RSpec),
    /// `y = h(t, x, λ)`, `r = g(t, x, λ)`.
    FirstOrderNonLinearR(FirstOrderNonLinearRSpec),
    /// `y = H q + b`.
    LagrangianLinearTIR(LagrangianLinearTiRSpec),
    /// `y = C q + e + D λ` (compliant contact).
    LagrangianCompliantLinearTIR(LagrangianCompliantLinearTiRSpec),
    /// `y = h(t, q, λ)` (nonlinear compliant contact, plugins).
    LagrangianCompliantR(LagrangianCompliantRSpec),
    /// `y = h(q)`.
    LagrangianScleronomousR(LagrangianNonLinearRSpec),
    /// `y = h(t, q)`.
    LagrangianRheonomousR(LagrangianNonLinearRSpec),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstOrderLinearRSpec {
    #[serde(rename = "C")]
    pub c: MatrixSpec,
    #[serde(rename = "D", default, skip_serializing_if = "is_none")]
    pub d: Option<MatrixSpec>,
    #[serde(rename = "F", default, skip_serializing_if = "is_none")]
    pub f: Option<MatrixSpec>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub e: Option<VectorSpec>,
    #[serde(rename = "B")]
    pub b: MatrixSpec,
}

/// Plugin symbols of `FirstOrderType1R`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstOrderType1RSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@h")]
    pub h: String,
    #[serde(rename = "@jacobian_h")]
    pub jacobian_h: String,
    #[serde(rename = "@g")]
    pub g: String,
    #[serde(rename = "@jacobian_g")]
    pub jacobian_g: String,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

/// Plugin symbols of `FirstOrderType2R`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstOrderType2RSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@h")]
    pub h: String,
    #[serde(rename = "@jacobian_h_x")]
    pub jacobian_h_x: String,
    #[serde(rename = "@jacobian_h_lambda")]
    pub jacobian_h_lambda: String,
    #[serde(rename = "@g")]
    pub g: String,
    #[serde(rename = "@jacobian_g")]
    pub jacobian_g: String,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

/// Plugin symbols of `FirstOrderNonLinearR`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstOrderNonLinearRSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@h")]
    pub h: String,
    #[serde(rename = "@jacobian_h_x")]
    pub jacobian_h_x: String,
    #[serde(rename = "@jacobian_h_lambda")]
    pub jacobian_h_lambda: String,
    #[serde(rename = "@g")]
    pub g: String,
    #[serde(rename = "@jacobian_g_x")]
    pub jacobian_g_x: String,
    #[serde(rename = "@jacobian_g_lambda")]
    pub jacobian_g_lambda: String,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LagrangianLinearTiRSpec {
    #[serde(rename = "H")]
    pub h: MatrixSpec,
    #[serde(default, skip_serializing_if = "is_none")]
    pub b: Option<VectorSpec>,
}

/// `y = C q + e + D λ` (Siconos `LagrangianCompliantLinearTIR`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LagrangianCompliantLinearTiRSpec {
    #[serde(rename = "C")]
    pub c: MatrixSpec,
    #[serde(rename = "D")]
    pub d: MatrixSpec,
    #[serde(default, skip_serializing_if = "is_none")]
    pub e: Option<VectorSpec>,
}

/// Plugin symbols of `LagrangianCompliantR`: `h(t, q, λ)`, `∇_q h`, `∇_λ h`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LagrangianCompliantRSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@h")]
    pub h: String,
    #[serde(rename = "@jacobian_q")]
    pub jacobian_q: String,
    #[serde(rename = "@jacobian_lambda")]
    pub jacobian_lambda: String,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

/// Plugin symbols of the nonlinear Lagrangian relations (`dot_h` only for rheonomous).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LagrangianNonLinearRSpec {
    #[serde(rename = "@library")]
    pub library: String,
    #[serde(rename = "@h")]
    pub h: String,
    #[serde(rename = "@jacobian_q")]
    pub jacobian_q: String,
    #[serde(rename = "@dot_h", default, skip_serializing_if = "is_none")]
    pub dot_h: Option<String>,
    /// `J̇(q, q̇)` (Siconos `dotJachq`), LagrangianScleronomousR only.
    #[serde(rename = "@dot_jacobian_q", default, skip_serializing_if = "is_none")]
    pub dot_jacobian_q: Option<String>,
    #[serde(rename = "@params", default, skip_serializing_if = "is_none")]
    pub params: Option<String>,
}

/// `<NonSmoothLaw>` holding one law element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LawWrapper {
    #[serde(rename = "$value")]
    pub kind: LawSpec,
}

/// The nonsmooth laws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LawSpec {
    ComplementarityConditionNSL(SizeSpec),
    EqualityConditionNSL(SizeSpec),
    MixedComplementarityConditionNSL(MixedSpec),
    NewtonImpactNSL(NewtonImpactSpec),
    NewtonImpactFrictionNSL(NewtonImpactFrictionSpec),
    RelayNSL(Box<RelaySpec>),
    NormalConeNSL(Box<NormalConeSpec>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeSpec {
    #[serde(rename = "@size")]
    pub size: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixedSpec {
    #[serde(rename = "@n_eq")]
    pub n_eq: usize,
    #[serde(rename = "@n_comp")]
    pub n_comp: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewtonImpactSpec {
    #[serde(rename = "@e")]
    pub e: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewtonImpactFrictionSpec {
    #[serde(rename = "@en")]
    pub en: f64,
    #[serde(rename = "@et", default)]
    pub et: f64,
    #[serde(rename = "@mu")]
    pub mu: f64,
    #[serde(rename = "@dim")]
    pub dim: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelaySpec {
    pub lb: VectorSpec,
    pub ub: VectorSpec,
}

/// `<NormalConeNSL size="m"><H/><K/></NormalConeNSL>`: `−y ∈ N_P(λ)`, `P = {λ : H λ ≥ K}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NormalConeSpec {
    #[serde(rename = "@size")]
    pub size: usize,
    #[serde(rename = "H")]
    pub h: MatrixSpec,
    #[serde(rename = "K")]
    pub k: VectorSpec,
}

pub use super::schema_control::*;
pub use super::schema_ed::*;
pub use super::schema_events::*;
pub use super::schema_mech::*;
pub use super::schema_nullspace::*;
pub use super::schema_sim::*;
