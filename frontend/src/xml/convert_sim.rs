//! `<Simulation>` -> kernel time stepping: integrator, one-step problem with its typed solver
//! options, Newton and projection options.

use super::convert::{kernel_msg, Simulation};
use super::schema::*;
use super::{LoadedModel, ModelError};
use saltus_kernel::solvers::{avi, lcp, mlcp, relay};
use saltus_kernel::{
    KernelError, NewtonOptions, Nsds, OnNonConvergence, Osi, Osnsp, OsnspOptions, ProjectionOptions, Storage,
    TimeStepping, TimeSteppingDirectProjection,
};

fn set_iter(it: &mut saltus_numerics::IterOptions, tol: Option<f64>, max_iter: Option<usize>) {
    if let Some(t) = tol {
        it.tol = t;
    }
    if let Some(n) = max_iter {
        it.max_iter = n;
    }
}

pub(super) fn lcp_solver(s: &LcpSolverSpec) -> lcp::LcpSolver {
    use lcp::LcpSolver as L;
    match s {
        LcpSolverSpec::Lemke(o) => {
            let mut x = lcp::LemkeOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            if let Some(p) = o.pivot_tol {
                x.pivot_tol = p;
            }
            if let Some(t) = o.tie_break {
                x.tie_break = match t {
                    TieBreakSpec::Lexicographic => lcp::TieBreak::Lexicographic,
                    TieBreakSpec::SmallestIndex => lcp::TieBreak::SmallestIndex,
                };
            }
            L::Lemke(x)
        }
        LcpSolverSpec::Pgs(o) => {
            let mut x = lcp::PgsOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            L::Pgs(x)
        }
        LcpSolverSpec::Psor(o) => {
            let mut x = lcp::PsorOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            if let Some(w) = o.omega {
                x.omega = w;
            }
            L::Psor(x)
        }
        LcpSolverSpec::NewtonFB(o) | LcpSolverSpec::NewtonMin(o) => {
            let mut x = lcp::NewtonOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            if let Some(a) = o.armijo {
                x.armijo = a;
            }
            if let Some(b) = o.backtrack {
                x.backtrack = b;
            }
            if let Some(m) = o.max_line_search {
                x.max_line_search = m;
            }
            if matches!(s, LcpSolverSpec::NewtonFB(_)) {
                L::NewtonFb(x)
            } else {
                L::NewtonMin(x)
            }
        }
        LcpSolverSpec::Enum(o) => {
            let mut x = lcp::EnumOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            if let Some(m) = o.max_size {
                x.max_size = m;
            }
            L::Enumerative(x)
        }
        LcpSolverSpec::Qp(o) => {
            let mut x = lcp::QpLcpOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            if let Some(t) = o.sym_tol {
                x.sym_tol = t;
            }
            L::Qp(x)
        }
    }
}

fn relay_solver(s: &RelaySolverSpec) -> relay::RelaySolver {
    match s {
        RelaySolverSpec::Pgs(o) => {
            let mut x = lcp::PgsOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            relay::RelaySolver::Pgs(x)
        }
        RelaySolverSpec::Lemke(o) => {
            let mut x = lcp::LemkeOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            relay::RelaySolver::Lemke(x)
        }
        RelaySolverSpec::AviCaoFerris(o) => {
            let mut x = lcp::LemkeOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            relay::RelaySolver::AviCaoFerris(x)
        }
    }
}

fn avi_solver(s: &AviSolverSpec) -> avi::AviSolver {
    match s {
        AviSolverSpec::CaoFerris(o) => {
            let mut x = lcp::LemkeOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            avi::AviSolver::CaoFerris(x)
        }
    }
}

fn mlcp_solver(s: &MlcpSolverSpec) -> mlcp::MlcpSolver {
    match s {
        MlcpSolverSpec::Enum(o) => {
            let mut x = mlcp::EnumOptions::default();
            if let Some(t) = o.tol {
                x.tol = t;
            }
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            if let Some(c) = o.max_comp {
                x.max_comp = c;
            }
            mlcp::MlcpSolver::Enumerative(x)
        }
        MlcpSolverSpec::Pgs(o) => {
            let mut x = mlcp::PgsOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            mlcp::MlcpSolver::Pgs(x)
        }
        MlcpSolverSpec::NewtonFB(o) => {
            let mut x = mlcp::NewtonFbOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(w) = o.warm_start {
                x.warm_start = w;
            }
            if let Some(a) = o.armijo {
                x.armijo = a;
            }
            if let Some(b) = o.max_backtracks {
                x.max_backtracks = b;
            }
            mlcp::MlcpSolver::NewtonFb(x)
        }
        MlcpSolverSpec::Lemke(o) => {
            let mut x = mlcp::LemkeOptions::default();
            if let Some(t) = o.tol {
                x.tol = t;
            }
            if let Some(m) = o.max_iter {
                x.max_pivots = m;
            }
            mlcp::MlcpSolver::Lemke(x)
        }
    }
}

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
        }
    }
}

impl OsiWrapper {
    /// XML element name of the integrator.
    pub fn kind_name(&self) -> &'static str {
        self.kind.kind_name()
    }
}

/// Builds the simulation; returns it with the level of `(y, λ)` its one-step problem solves.
pub fn build_simulation(
    m: &LoadedModel,
    s: &SimulationSpec,
    nsds: &Nsds,
    h: f64,
) -> Result<(Simulation, usize), ModelError> {
    let osi = match &s.osi.kind {
        OsiSpec::MoreauJeanOSI(o) => Osi::MoreauJean { theta: o.theta, gamma: o.gamma.unwrap_or(0.5) },
        OsiSpec::EulerMoreauOSI(o) => Osi::EulerMoreau { theta: o.theta },
        OsiSpec::MoreauJeanGOSI(o) => Osi::MoreauJeanGosi { theta: o.theta, gamma: o.gamma.unwrap_or(0.5) },
    };
    osi.validate()
        .map_err(|e| m.error_at(&format!("Simulation/OneStepIntegrator/{}", s.osi.kind_name()), kernel_msg(&e)))?;
    let (osnsp, opts) = match &s.osnsp.kind {
        OsnspSpec::LCP(l) => (
            Osnsp::Lcp(lcp_solver(&l.solver)),
            options(l.storage, l.sparse_threshold, l.warm_start, l.on_non_convergence),
        ),
        OsnspSpec::Equality(_) => (Osnsp::Equality, OsnspOptions::default()),
        OsnspSpec::AVI(a) => (Osnsp::Avi(avi_solver(&a.solver)), options(None, None, None, a.on_non_convergence)),
        OsnspSpec::Relay(r) => (
            Osnsp::Relay(relay_solver(&r.solver)),
            options(r.storage, r.sparse_threshold, r.warm_start, r.on_non_convergence),
        ),
        OsnspSpec::MLCP(r) => {
            (Osnsp::Mlcp(mlcp_solver(&r.solver)), options(None, None, r.warm_start, r.on_non_convergence))
        }
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
            let solver = super::convert_fc::gfc_solver(f).map_err(|e| {
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
        newton.validate().map_err(|e| m.error_at("Simulation/Newton", kernel_msg(&e)))?;
    }
    let ts = TimeStepping::new(nsds, h, osi, osnsp.clone()).map_err(|e| sim_error(m, nsds, &e, s.osi.kind_name()))?;
    let ts = ts.with_options(opts).map_err(|e| m.error_at(osnsp_path, kernel_msg(&e)))?;
    let ts = ts.with_newton(newton).map_err(|e| m.error_at("Simulation/Newton", kernel_msg(&e)))?;
    let sim = match &s.projection {
        None => Simulation::TimeStepping(Box::new(ts)),
        Some(p) => {
            let mut po = ProjectionOptions::default();
            if let Some(t) = p.tol {
                po.tol = t;
            }
            if let Some(k) = p.max_iter {
                po.max_iter = k;
            }
            let dp = TimeSteppingDirectProjection::from_time_stepping(nsds, ts, po)
                .map_err(|e| sim_error(m, nsds, &e, s.osi.kind_name()))?;
            Simulation::Projection(Box::new(dp))
        }
    };
    Ok((sim, level))
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
