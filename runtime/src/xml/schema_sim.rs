//! DTOs of `<Simulation>` (time stepping and event driven) mirroring `schemas/saltus-model.xsd`;
//! re-exported by [`super::schema`].
#![allow(missing_docs)] // the fields are the XML vocabulary, documented in the XSD.

use super::schema::is_none;
pub use super::schema_solver::{
    AviSolverSpec, FcSolverSpec, GfcSolverSpec, GmpSolverSpec, LcpSolverSpec, MlcpSolverSpec, RelaySolverSpec,
    SolverSpec,
};
use serde::{Deserialize, Serialize};

/// `<Simulation>`: time stepping.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSpec {
    #[serde(rename = "TimeDiscretisation")]
    pub time_discretisation: TimeDiscretisationSpec,
    #[serde(rename = "OneStepIntegrator")]
    pub osi: OsiWrapper,
    #[serde(rename = "OneStepNSProblem")]
    pub osnsp: OsnspWrapper,
    #[serde(rename = "Newton", default, skip_serializing_if = "is_none")]
    pub newton: Option<NewtonSpec>,
    #[serde(rename = "Projection", default, skip_serializing_if = "is_none")]
    pub projection: Option<ProjectionSpec>,
    /// Simmath's constraint tolerances as the projection's stopping test (needs `<Projection>`).
    #[serde(rename = "Accuracy", default, skip_serializing_if = "is_none")]
    pub accuracy: Option<TsAccuracySpec>,
    /// `<Mechanics>` scenes: FCLib dumps of chosen steps' friction-contact problems.
    #[serde(rename = "FrictionContactTrace", default, skip_serializing_if = "is_none")]
    pub trace: Option<FcTraceSpec>,
    /// Sensors, controllers and observers acting on one system or body of the run.
    #[serde(rename = "ControlManager", default, skip_serializing_if = "is_none")]
    pub control: Option<super::schema_control::ControlManagerSpec>,
}

/// `<FrictionContactTrace file itermax probability seed title description math_info>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FcTraceSpec {
    #[serde(rename = "@file")]
    pub file: String,
    #[serde(rename = "@itermax", default, skip_serializing_if = "is_none")]
    pub itermax: Option<usize>,
    #[serde(rename = "@probability", default, skip_serializing_if = "is_none")]
    pub probability: Option<f64>,
    #[serde(rename = "@seed", default, skip_serializing_if = "is_none")]
    pub seed: Option<u64>,
    #[serde(rename = "@title", default, skip_serializing_if = "is_none")]
    pub title: Option<String>,
    #[serde(rename = "@description", default, skip_serializing_if = "is_none")]
    pub description: Option<String>,
    #[serde(rename = "@math_info", default, skip_serializing_if = "is_none")]
    pub math_info: Option<String>,
}

/// `<Accuracy alpha constraint_tol norm>` of a time-stepping `<Simulation>`: the projection
/// stops when `‖T c‖ ≤ α`, `T = diag(1/t_i)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TsAccuracySpec {
    #[serde(rename = "@alpha")]
    pub alpha: f64,
    #[serde(rename = "@constraint_tol", default, skip_serializing_if = "is_none")]
    pub constraint_tol: Option<String>,
    #[serde(rename = "@norm", default, skip_serializing_if = "is_none")]
    pub norm: Option<super::schema_ed::ErrorNormSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeDiscretisationSpec {
    #[serde(rename = "@h")]
    pub h: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OsiWrapper {
    /// The simulation's integrator first, then those attached to named systems (`systems`).
    #[serde(rename = "$value")]
    pub kinds: Vec<OsiSpec>,
}

/// The one-step integrators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum OsiSpec {
    MoreauJeanOSI(MoreauJeanSpec),
    EulerMoreauOSI(EulerMoreauSpec),
    MoreauJeanGOSI(MoreauJeanSpec),
    SemiExplicitEuler(SemiExplicitEulerSpec),
    MoreauJeanBilbaoOSI(SystemsSpec),
    ZeroOrderHoldOSI(SystemsSpec),
}

/// `<MoreauJeanBilbaoOSI systems>` and `<ZeroOrderHoldOSI systems>`: integrators without a
/// parameter (Bilbao's coefficients come from the system's diagonal `M`, `C`, `K` and `h`; the
/// zero-order hold's `Φ`, `Ψ` from `A` and `h`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemsSpec {
    /// Systems this integrator is attached to (see [`SemiExplicitEulerSpec::systems`]).
    #[serde(rename = "@systems", default, skip_serializing_if = "is_none")]
    pub systems: Option<String>,
}

/// `<SemiExplicitEuler gamma velocity>`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SemiExplicitEulerSpec {
    /// Systems this integrator is attached to (names, blank-separated); absent on the first,
    /// the simulation's integrator for every other system.
    #[serde(rename = "@systems", default, skip_serializing_if = "is_none")]
    pub systems: Option<String>,
    #[serde(rename = "@gamma", default, skip_serializing_if = "is_none")]
    pub gamma: Option<f64>,
    /// `explicit` or `implicit` (a string checked by the converter: inside the integrator
    /// choice a serde enum's error would name the value as an element).
    #[serde(rename = "@velocity", default, skip_serializing_if = "is_none")]
    pub velocity: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoreauJeanSpec {
    /// Systems this integrator is attached to (names, blank-separated); absent on the first,
    /// the simulation's integrator for every other system.
    #[serde(rename = "@systems", default, skip_serializing_if = "is_none")]
    pub systems: Option<String>,
    #[serde(rename = "@theta")]
    pub theta: f64,
    #[serde(rename = "@gamma", default, skip_serializing_if = "is_none")]
    pub gamma: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EulerMoreauSpec {
    /// Systems this integrator is attached to (names, blank-separated); absent on the first,
    /// the simulation's integrator for every other system.
    #[serde(rename = "@systems", default, skip_serializing_if = "is_none")]
    pub systems: Option<String>,
    #[serde(rename = "@theta")]
    pub theta: f64,
    /// γ of the θ-γ scheme: the relations at `x_(k+γ)` (Siconos `EulerMoreauOSI(θ, γ)` with
    /// `setUseGammaForRelation(true)`).
    #[serde(rename = "@gamma", default, skip_serializing_if = "is_none")]
    pub gamma: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewtonSpec {
    #[serde(rename = "@tol", default, skip_serializing_if = "is_none")]
    pub tol: Option<f64>,
    #[serde(rename = "@max_iter", default, skip_serializing_if = "is_none")]
    pub max_iter: Option<usize>,
    /// Also test the output residuals of the nonlinear first-order relations (Siconos
    /// `setComputeResiduY`).
    #[serde(rename = "@residu_y", default, skip_serializing_if = "is_none")]
    pub residu_y: Option<bool>,
    /// Also test their input residuals (Siconos `setComputeResiduR`).
    #[serde(rename = "@residu_r", default, skip_serializing_if = "is_none")]
    pub residu_r: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectionSpec {
    #[serde(rename = "@tol", default, skip_serializing_if = "is_none")]
    pub tol: Option<f64>,
    #[serde(rename = "@max_iter", default, skip_serializing_if = "is_none")]
    pub max_iter: Option<usize>,
    /// `<Mechanics>` scenes: also project onto the contacts (default: without joints).
    #[serde(rename = "@contacts", default, skip_serializing_if = "is_none")]
    pub contacts: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OsnspWrapper {
    #[serde(rename = "$value")]
    pub kind: OsnspSpec,
}

/// The one-step nonsmooth problems.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum OsnspSpec {
    LCP(LcpSpec),
    Equality(EqualitySpec),
    Relay(RelayProblemSpec),
    AVI(AviProblemSpec),
    MLCP(MlcpProblemSpec),
    FrictionContact(FrictionContactSpec),
    GlobalFrictionContact(GlobalFrictionContactSpec),
    GenericMechanical(GenericMechanicalSpec),
}

/// `<GenericMechanical>`: mixed problem (equality, complementarity, friction blocks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenericMechanicalSpec {
    #[serde(rename = "@storage", default, skip_serializing_if = "is_none")]
    pub storage: Option<StorageSpec>,
    #[serde(rename = "@sparse_threshold", default, skip_serializing_if = "is_none")]
    pub sparse_threshold: Option<usize>,
    #[serde(rename = "@warm_start", default, skip_serializing_if = "is_none")]
    pub warm_start: Option<bool>,
    #[serde(rename = "@on_non_convergence", default, skip_serializing_if = "is_none")]
    pub on_non_convergence: Option<PolicySpec>,
    #[serde(rename = "$value")]
    pub solver: GmpSolverSpec,
}

/// `<GlobalFrictionContact dim="2|3">`: global friction-contact problem and one solver element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlobalFrictionContactSpec {
    #[serde(rename = "@dim")]
    pub dim: usize,
    #[serde(rename = "@warm_start", default, skip_serializing_if = "is_none")]
    pub warm_start: Option<bool>,
    #[serde(rename = "@on_non_convergence", default, skip_serializing_if = "is_none")]
    pub on_non_convergence: Option<PolicySpec>,
    #[serde(rename = "$value")]
    pub solver: GfcSolverSpec,
}

/// `<FrictionContact dim="2|3">`: local friction-contact problem and one solver element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrictionContactSpec {
    #[serde(rename = "@dim")]
    pub dim: usize,
    #[serde(rename = "@storage", default, skip_serializing_if = "is_none")]
    pub storage: Option<StorageSpec>,
    #[serde(rename = "@sparse_threshold", default, skip_serializing_if = "is_none")]
    pub sparse_threshold: Option<usize>,
    #[serde(rename = "@warm_start", default, skip_serializing_if = "is_none")]
    pub warm_start: Option<bool>,
    #[serde(rename = "@on_non_convergence", default, skip_serializing_if = "is_none")]
    pub on_non_convergence: Option<PolicySpec>,
    #[serde(rename = "$value")]
    pub solver: FcSolverSpec,
}

/// `<Relay>`: problem options and one solver element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelayProblemSpec {
    #[serde(rename = "@storage", default, skip_serializing_if = "is_none")]
    pub storage: Option<StorageSpec>,
    #[serde(rename = "@sparse_threshold", default, skip_serializing_if = "is_none")]
    pub sparse_threshold: Option<usize>,
    #[serde(rename = "@warm_start", default, skip_serializing_if = "is_none")]
    pub warm_start: Option<bool>,
    #[serde(rename = "@on_non_convergence", default, skip_serializing_if = "is_none")]
    pub on_non_convergence: Option<PolicySpec>,
    #[serde(rename = "$value")]
    pub solver: RelaySolverSpec,
}

/// `<AVI>`: the affine variational inequality of `NormalConeNSL` / `RelayNSL` (always dense,
/// no warm start: the pivoting starts at a vertex of the polyhedron).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AviProblemSpec {
    #[serde(rename = "@on_non_convergence", default, skip_serializing_if = "is_none")]
    pub on_non_convergence: Option<PolicySpec>,
    #[serde(rename = "$value")]
    pub solver: AviSolverSpec,
}

/// `<MLCP>`: problem options and one solver element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MlcpProblemSpec {
    #[serde(rename = "@warm_start", default, skip_serializing_if = "is_none")]
    pub warm_start: Option<bool>,
    #[serde(rename = "@on_non_convergence", default, skip_serializing_if = "is_none")]
    pub on_non_convergence: Option<PolicySpec>,
    #[serde(rename = "$value")]
    pub solver: MlcpSolverSpec,
}

/// `<LCP>`: problem options and one solver element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LcpSpec {
    #[serde(rename = "@storage", default, skip_serializing_if = "is_none")]
    pub storage: Option<StorageSpec>,
    #[serde(rename = "@sparse_threshold", default, skip_serializing_if = "is_none")]
    pub sparse_threshold: Option<usize>,
    #[serde(rename = "@warm_start", default, skip_serializing_if = "is_none")]
    pub warm_start: Option<bool>,
    #[serde(rename = "@on_non_convergence", default, skip_serializing_if = "is_none")]
    pub on_non_convergence: Option<PolicySpec>,
    #[serde(rename = "$value")]
    pub solver: LcpSolverSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EqualitySpec {}

/// Matrix storage of the one-step problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StorageSpec {
    Auto,
    Dense,
    Sparse,
}

/// Non-convergence policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicySpec {
    Accept,
    Fail,
}

/// `<Output every="N" energy="true"/>`: defaults of the `run` command; `energy` adds the step's
/// energy and work columns to a `<Mechanics>` scene's rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    #[serde(rename = "@every", default, skip_serializing_if = "is_none")]
    pub every: Option<u64>,
    #[serde(rename = "@energy", default, skip_serializing_if = "is_none")]
    pub energy: Option<bool>,
}

impl OutputSpec {
    /// `every` (checked ≥ 1) and `energy` of a model's `<Output>` (none: defaults); `energy` is
    /// refused outside `<Mechanics>` scenes (`mechanics = false`).
    pub(crate) fn of(
        m: &super::LoadedModel,
        output: Option<&OutputSpec>,
        mechanics: bool,
    ) -> Result<(Option<u64>, bool), super::ModelError> {
        let every = output.and_then(|o| o.every);
        if every == Some(0) {
            return Err(m.error_at("Output", "`every` must be at least 1 (write every N-th step), got 0"));
        }
        let energy = output.and_then(|o| o.energy).unwrap_or(false);
        if energy && !mechanics {
            return Err(m.error_at("Output", "`energy` writes the energy and work of <Mechanics> scenes only"));
        }
        Ok((every, energy))
    }
}
