//! `<Simulation>` -> kernel time stepping: integrator, one-step problem with its typed solver
//! options, Newton and projection options (with `<Accuracy>`'s constraint tolerances).

use super::convert::{kernel_msg, Simulation};
use super::schema::*;
use super::{LoadedModel, ModelError};
use saltus_kernel::solvers::{avi, lcp, mlcp, relay};
use saltus_kernel::{
    ConstraintAccuracy, DsId, KernelError, NewtonOptions, Nsds, OnNonConvergence, Osi, Osnsp, OsnspOptions,
    ProjectionOptions, Storage, TimeStepping, TimeSteppingDirectProjection, VelocityUpdate,
};
use saltus_numerics::ode::ErrorNorm;

/// The solver of a family declared in `numerics` (`from_element`, `decl().options`,
/// `set_by_name`), its attributes set in declaration order.
macro_rules! declared_solver {
    ($vis:vis $name:ident: $spec:ty => $solver:ty, $what:literal) => {
        $vis fn $name(s: &$spec) -> Result<$solver, String> {
            let mut solver =
                <$solver>::from_element(s.element).ok_or_else(|| format!(concat!("no ", $what, " solver <{}>"), s.element))?;
            let names = solver.decl().options;
            super::convert_fc::apply_to(s, |k, v| solver.set_by_name(k, v), names)?;
            Ok(solver)
        }
    };
}

declared_solver!(pub(super) lcp_solver: LcpSolverSpec => lcp::LcpSolver, "LCP");
declared_solver!(relay_solver: RelaySolverSpec => relay::RelaySolver, "relay");
declared_solver!(avi_solver: AviSolverSpec => avi::AviSolver, "AVI");
declared_solver!(mlcp_solver: MlcpSolverSpec => mlcp::MlcpSolver, "MLCP");

fn options(
    storage: Option<StorageSpec>,
    sparse_threshold: Option<usize>,
    warm: Option<bool>,
    policy: Option<PolicySpec>,
) -> OsnspOptions {
    let mut o = OsnspOptions::default();
    if let Some(n) = sparse_threshold {
        o.sparse_threshold = n;
    }
    if let Some(s) = storage {
        o.storage = match s {
            StorageSpec::Auto => Storage::Auto,
            StorageSpec::Dense => Storage::Dense,
            StorageSpec::Sparse => Storage::SparseBlock,
        };
    }
    if let Some(w) = warm {
        o.warm_start = w;
    }
    if let Some(p) = policy {
        o.on_non_convergence = match p {
            PolicySpec::Accept => OnNonConvergence::Accept,
            PolicySpec::Fail => OnNonConvergence::Fail,
        };
    }
    o
}

/// Where in the XML a kernel error from building the simulation belongs.
pub(super) fn sim_error(m: &LoadedModel, nsds: &Nsds, e: &KernelError, osi_kind: &str) -> ModelError {
    match e {
        KernelError::InvalidCombination { name, .. } => m.error_at(
            &format!("NSDS/Interaction[{name}]"),
            format!("{} (with the simulation's integrator and one-step problem)", kernel_reason(e)),
        ),
        KernelError::UnsupportedSystem { ds, reason } => {
            let name = nsds.ds_name(*ds).unwrap_or("?");
            let kind = nsds.ds(*ds).map_or("DS", |d| d.kind_name());
            m.error_at(&format!("NSDS/{}[{name}]", xml_ds_kind(kind)), format!("{reason} (integrator {osi_kind})"))
        }
        KernelError::SingularW { ds, .. } => {
            let name = nsds.ds_name(*ds).unwrap_or("?");
            let kind = nsds.ds(*ds).map_or("DS", |d| d.kind_name());
            let what = if osi_kind == "LsodarOSI" {
                "the mass matrix is singular (the event-driven integrator needs M⁻¹)"
            } else {
                "the iteration matrix W of the integrator is singular (check the mass matrix)"
            };
            m.error_at(&format!("NSDS/{kind}[{name}]/Mass"), what)
        }
        // the integrator / one-step problem pairing (MoreauJeanGOSI with GlobalFrictionContact)
        KernelError::InvalidOption { option: "osnsp", reason } => m.error_at("Simulation/OneStepNSProblem", reason),
        KernelError::InvalidOption { option: "osi", reason } => {
            m.error_at(&format!("Simulation/OneStepIntegrator/{osi_kind}"), reason)
        }
        KernelError::InvalidOption { option, reason } => {
            m.error_at("Simulation", format!("option `{option}`: {reason}"))
        }
        other => m.error_at("Simulation", kernel_msg(other)),
    }
}

fn kernel_reason(e: &KernelError) -> String {
    match e {
        KernelError::InvalidCombination { reason, .. } => reason.clone(),
        other => other.to_string(),
    }
}

/// Kernel kind names are Siconos class names, which are also our XML element names.
fn xml_ds_kind(kind: &str) -> &str {
    kind
}

impl OsiSpec {
    /// XML element name.
    pub fn kind_name(&self) -> &'static str {
        match self {
            OsiSpec::MoreauJeanOSI(_) => "MoreauJeanOSI",
            OsiSpec::EulerMoreauOSI(_) => "EulerMoreauOSI",
            OsiSpec::MoreauJeanGOSI(_) => "MoreauJeanGOSI",
            OsiSpec::SemiExplicitEuler(_) => "SemiExplicitEuler",
            OsiSpec::MoreauJeanBilbaoOSI(_) => "MoreauJeanBilbaoOSI",
            OsiSpec::ZeroOrderHoldOSI(_) => "ZeroOrderHoldOSI",
        }
    }
}

impl OsiSpec {
    /// The `systems` attribute: the names of the systems this integrator is attached to.
    pub fn systems(&self) -> Option<&str> {
        match self {
            OsiSpec::MoreauJeanOSI(o) | OsiSpec::MoreauJeanGOSI(o) => o.systems.as_deref(),
            OsiSpec::EulerMoreauOSI(o) => o.systems.as_deref(),
            OsiSpec::SemiExplicitEuler(o) => o.systems.as_deref(),
            OsiSpec::MoreauJeanBilbaoOSI(o) | OsiSpec::ZeroOrderHoldOSI(o) => o.systems.as_deref(),
        }
    }
}

impl OsiWrapper {
    /// The simulation's integrator (the first child), if any.
    pub fn kind(&self) -> Option<&OsiSpec> {
        self.kinds.first()
    }

    /// XML element name of the simulation's integrator.
    pub fn kind_name(&self) -> &'static str {
        self.kind().map_or("OneStepIntegrator", OsiSpec::kind_name)
    }
}

/// The kernel integrator of one `<OneStepIntegrator>` child.
fn integrator(m: &LoadedModel, spec: &OsiSpec) -> Result<Osi, ModelError> {
    let path = format!("Simulation/OneStepIntegrator/{}", spec.kind_name());
    let osi = match spec {
        OsiSpec::MoreauJeanOSI(o) => Osi::MoreauJean { theta: o.theta, gamma: o.gamma.unwrap_or(0.5) },
        OsiSpec::EulerMoreauOSI(o) => Osi::EulerMoreau { theta: o.theta, gamma: o.gamma },
        OsiSpec::MoreauJeanGOSI(o) => Osi::MoreauJeanGosi { theta: o.theta, gamma: o.gamma.unwrap_or(0.5) },
        OsiSpec::MoreauJeanBilbaoOSI(_) => Osi::MoreauJeanBilbao,
        OsiSpec::ZeroOrderHoldOSI(_) => Osi::ZeroOrderHold,
        OsiSpec::SemiExplicitEuler(o) => Osi::SemiExplicitEuler {
            gamma: o.gamma.unwrap_or(0.5),
            update: match o.velocity.as_deref() {
                None | Some("explicit") => VelocityUpdate::Explicit,
                Some("implicit") => VelocityUpdate::Implicit,
                Some(other) => {
                    return Err(m.error_at(
                        &path,
                        format!("attribute `velocity` must be `explicit` or `implicit`, got `{other}`"),
                    ))
                }
            },
        },
    };
    osi.validate().map_err(|e| m.error_at(&path, kernel_msg(&e)))?;
    Ok(osi)
}

/// The simulation's integrator and the `(system, integrator)` pairs of the children that name
/// `systems` (each system at most once; the first child names none).
fn integrators(m: &LoadedModel, s: &SimulationSpec, nsds: &Nsds) -> Result<(Osi, Vec<(DsId, Osi)>), ModelError> {
    let Some((first, rest)) = s.osi.kinds.split_first() else {
        return Err(m.error_at("Simulation/OneStepIntegrator", "<OneStepIntegrator> holds no integrator"));
    };
    let path = |spec: &OsiSpec| format!("Simulation/OneStepIntegrator/{}", spec.kind_name());
    if first.systems().is_some() {
        return Err(m.error_at(
            &path(first),
            "the first integrator is the simulation's, for every system: `systems` goes on the integrators after it",
        ));
    }
    let mut attached: Vec<(DsId, Osi)> = Vec::new();
    for spec in rest {
        let Some(names) = spec.systems() else {
            return Err(m.error_at(
                &path(spec),
                "an integrator after the first is attached to the systems named by its `systems` attribute",
            ));
        };
        let osi = integrator(m, spec)?;
        for name in names.split_whitespace() {
            let Some(id) = (0..nsds.n_ds()).map(|i| DsId(i as u32)).find(|&d| nsds.ds_name(d) == Some(name)) else {
                return Err(m.error_at(&path(spec), format!("`systems`: no system named `{name}` in <NSDS>")));
            };
            if attached.iter().any(|(d, _)| *d == id) {
                return Err(m.error_at(&path(spec), format!("`systems`: `{name}` already has an integrator")));
            }
            attached.push((id, osi));
        }
    }
    Ok((integrator(m, first)?, attached))
}

/// The element path of a one-step problem's solver element.
fn solver_path(problem: &str, s: &SolverSpec) -> String {
    format!("Simulation/OneStepNSProblem/{problem}/{}", s.element)
}

/// Builds the simulation; returns it with the level of `(y, λ)` its one-step problem solves.
pub fn build_simulation(
    m: &LoadedModel,
    s: &SimulationSpec,
    nsds: &Nsds,
    h: f64,
) -> Result<(Simulation, usize), ModelError> {
    let (osi, attached) = integrators(m, s, nsds)?;
    let (osnsp, opts) = match &s.osnsp.kind {
        OsnspSpec::LCP(l) => (
            Osnsp::Lcp(
                lcp_solver(&l.solver)
                    .map_err(|e| m.error_at(&format!("Simulation/OneStepNSProblem/LCP/{}", l.solver.kind_name()), e))?,
            ),
            options(l.storage, l.sparse_threshold, l.warm_start, l.on_non_convergence),
        ),
        OsnspSpec::Equality(_) => (Osnsp::Equality, OsnspOptions::default()),
        OsnspSpec::AVI(a) => (
            Osnsp::Avi(avi_solver(&a.solver).map_err(|e| m.error_at(&solver_path("AVI", &a.solver), e))?),
            options(None, None, None, a.on_non_convergence),
        ),
        OsnspSpec::Relay(r) => (
            Osnsp::Relay(relay_solver(&r.solver).map_err(|e| m.error_at(&solver_path("Relay", &r.solver), e))?),
            options(r.storage, r.sparse_threshold, r.warm_start, r.on_non_convergence),
        ),
        OsnspSpec::MLCP(r) => (
            Osnsp::Mlcp(mlcp_solver(&r.solver).map_err(|e| m.error_at(&solver_path("MLCP", &r.solver), e))?),
            options(None, None, r.warm_start, r.on_non_convergence),
        ),
        OsnspSpec::FrictionContact(f) => {
            if f.dim != 2 && f.dim != 3 {
                return Err(m.error_at(
                    "Simulation/OneStepNSProblem/FrictionContact",
                    format!("dim = {}: a friction-contact problem has dimension 2 or 3", f.dim),
                ));
            }
            let solver = super::convert_fc::fc_solver(f).map_err(|e| {
                m.error_at(&format!("Simulation/OneStepNSProblem/FrictionContact/{}", f.solver.kind_name()), e)
            })?;
            (
                Osnsp::FrictionContact { dim: f.dim, solver },
                options(f.storage, f.sparse_threshold, f.warm_start, f.on_non_convergence),
            )
        }
        OsnspSpec::GenericMechanical(g) => {
            let o = super::convert_fc::gmp_solver(g)
                .map_err(|e| m.error_at("Simulation/OneStepNSProblem/GenericMechanical/GaussSeidel", e))?;
            (Osnsp::GenericMechanical(o), options(g.storage, g.sparse_threshold, g.warm_start, g.on_non_convergence))
        }
        OsnspSpec::GlobalFrictionContact(f) => {
            let solver = super::convert_fc::gfc_solver(f, None).map_err(|e| {
                m.error_at(&format!("Simulation/OneStepNSProblem/GlobalFrictionContact/{}", f.solver.kind_name()), e)
            })?;
            (
                Osnsp::GlobalFrictionContact { dim: f.dim, solver },
                options(None, None, f.warm_start, f.on_non_convergence),
            )
        }
    };
    let osnsp_path = "Simulation/OneStepNSProblem";
    osnsp.validate().map_err(|e| m.error_at(osnsp_path, kernel_msg(&e)))?;
    let level = osi.level();
    let mut newton = NewtonOptions::default();
    if let Some(n) = &s.newton {
        if let Some(t) = n.tol {
            newton.tol = t;
        }
        if let Some(k) = n.max_iter {
            newton.max_iter = k;
        }
        newton.residu_y = n.residu_y.unwrap_or(false);
        newton.residu_r = n.residu_r.unwrap_or(false);
        newton.validate().map_err(|e| m.error_at("Simulation/Newton", kernel_msg(&e)))?;
    }
    if s.trace.is_some() {
        return Err(m.error_at(
            "Simulation/FrictionContactTrace",
            "<FrictionContactTrace> dumps the friction-contact problems of <Mechanics> scenes only",
        ));
    }
    let ts = TimeStepping::new(nsds, h, osi, osnsp.clone()).map_err(|e| sim_error(m, nsds, &e, s.osi.kind_name()))?;
    let ts = attached.into_iter().try_fold(ts, |ts, (ds, osi)| {
        ts.with_integrator(nsds, ds, osi).map_err(|e| sim_error(m, nsds, &e, osi.kind_name()))
    })?;
    let ts = ts.with_options(opts).map_err(|e| m.error_at(osnsp_path, kernel_msg(&e)))?;
    let ts = ts.with_newton(newton).map_err(|e| m.error_at("Simulation/Newton", kernel_msg(&e)))?;
    let sim = match &s.projection {
        None => {
            if s.accuracy.is_some() {
                return Err(m.error_at(
                    TS_ACC_PATH,
                    "<Accuracy> in <Simulation> sets the constraint tolerances of the projection: add <Projection>",
                ));
            }
            Simulation::TimeStepping(Box::new(ts))
        }
        Some(p) => {
            if p.contacts == Some(false) {
                return Err(m.error_at(
                    "Simulation/Projection",
                    "`contacts=\"false\"` applies to <Mechanics> scenes: the projection of an <NSDS> model always \
                     includes its violated unilateral interactions",
                ));
            }
            let mut po = ProjectionOptions::default();
            if let Some(t) = p.tol {
                po.tol = t;
            }
            if let Some(k) = p.max_iter {
                po.max_iter = k;
            }
            if let Some(a) = &s.accuracy {
                if p.tol.is_some() {
                    return Err(m.error_at(
                        TS_ACC_PATH,
                        "<Accuracy> replaces the `tol` of <Projection> (the stopping test ‖T c‖ ≤ alpha): give one \
                         or the other",
                    ));
                }
                po.accuracy = Some(constraint_accuracy(m, TS_ACC_PATH, a.alpha, &a.constraint_tol, a.norm)?);
            }
            let dp = TimeSteppingDirectProjection::from_time_stepping(nsds, ts, po).map_err(|e| match &e {
                KernelError::InvalidOption { option: "constraint_accuracy", reason } => {
                    m.error_at(TS_ACC_PATH, format!("{reason} (constraint rows: {})", constraint_rows(nsds, false)))
                }
                _ => sim_error(m, nsds, &e, s.osi.kind_name()),
            })?;
            Simulation::Projection(Box::new(dp))
        }
    };
    Ok((sim, level))
}

const TS_ACC_PATH: &str = "Simulation/Accuracy";

/// Simmath's constraint accuracy from `alpha`, the `constraint_tol` list and `norm` of an
/// `<Accuracy>` at `path` (RMS unless `norm="max"`; α is checked here, the number of
/// tolerances against the constraint rows by the kernel).
pub(crate) fn constraint_accuracy(
    m: &LoadedModel,
    path: &str,
    alpha: f64,
    tol: &Option<String>,
    norm: Option<ErrorNormSpec>,
) -> Result<ConstraintAccuracy, ModelError> {
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(m.error_at(path, format!("`alpha` must be in (0, 1], got {}", super::plain(alpha))));
    }
    let tol = match tol {
        None => Vec::new(),
        Some(text) => {
            let v =
                super::values::parse_numbers(text).map_err(|e| m.error_at(path, format!("`constraint_tol`: {e}")))?;
            if let Some(t) = v.iter().find(|t| !(t.is_finite() && **t > 0.0)) {
                return Err(m.error_at(
                    path,
                    format!("`constraint_tol` entries must be finite and > 0, got {}", super::plain(*t)),
                ));
            }
            if v.is_empty() {
                return Err(m.error_at(path, "`constraint_tol` is empty (give one value, or one per constraint row)"));
            }
            v
        }
    };
    let norm = match norm {
        Some(ErrorNormSpec::Max) => ErrorNorm::Max,
        _ => ErrorNorm::Rms,
    };
    Ok(ConstraintAccuracy { alpha, tol, norm })
}

/// The constraint rows the tolerances of `<Accuracy constraint_tol>` are for, in declaration
/// order: `name[i]` for each component of the equality laws (and, unless `bilateral_only`,
/// of the unilateral ones).
pub(crate) fn constraint_rows(nsds: &Nsds, bilateral_only: bool) -> String {
    use saltus_kernel::NonSmoothLaw;
    let mut rows = Vec::new();
    for inter in nsds.interactions() {
        if !inter.relation.is_lagrangian() {
            continue;
        }
        let n = match &inter.law {
            NonSmoothLaw::EqualityCondition { size } => *size,
            _ if bilateral_only => 0,
            NonSmoothLaw::ComplementarityCondition { size } => *size,
            NonSmoothLaw::NewtonImpact { .. } | NonSmoothLaw::NewtonImpactFriction { .. } => 1,
            _ => 0,
        };
        rows.extend((0..n).map(|i| format!("{}[{i}]", inter.name)));
    }
    if rows.is_empty() {
        "none".into()
    } else {
        format!("{}: {}", rows.len(), rows.join(" "))
    }
}

/// Installs the interactions declared with `activation_distance` (kernel `ProximityManager`):
/// plain Moreau–Jean time stepping only.
pub(crate) fn with_proximity(
    m: &LoadedModel,
    sim: Simulation,
    list: Vec<saltus_kernel::ProximityInteraction>,
    nsds: &mut Nsds,
) -> Result<Simulation, ModelError> {
    let Some(first) = list.first() else { return Ok(sim) };
    let path = format!("NSDS/Interaction[{}]", first.template.name);
    let manager = saltus_kernel::ProximityManager::new(list, nsds).map_err(|e| m.error_at(&path, kernel_msg(&e)))?;
    match sim {
        Simulation::TimeStepping(ts) => {
            let ts = ts.with_proximity(manager, nsds).map_err(|e| m.error_at(&path, kernel_msg(&e)))?;
            Ok(Simulation::TimeStepping(Box::new(ts)))
        }
        Simulation::Projection(_) => Err(m.error_at(
            &path,
            "`activation_distance` (interactions linked during the run) does not combine with <Projection>",
        )),
        Simulation::EventDriven(_) => Err(m.error_at(
            &path,
            "`activation_distance` (interactions linked during the run) needs <Simulation> with <MoreauJeanOSI>, \
             not <EventDriven>",
        )),
    }
}
