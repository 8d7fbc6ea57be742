//! `<Simulation>` of a `<Mechanics>` model -> [`MoreauJeanOptions`]: `MoreauJeanOSI` (θ, γ) and a
//! `FrictionContact dim="3"` problem with its solver (NSGS with warm start unless the model
//! says otherwise), or `MoreauJeanGOSI` and a `GlobalFrictionContact dim="3"` problem (the global
//! formulation, [`Formulation::Global`]). Everything the mechanics time stepping does not have is
//! refused, located.

use super::schema::*;
use super::{plain, LoadedModel, ModelError};
use saltus_kernel::solvers::fc::{FcSolver, GfcSolver};
use saltus_mechanics::joints::JointProjection;
use saltus_mechanics::{Formulation, MoreauJeanOptions};
use saltus_numerics::by_name::FromText;

/// The context's defaults of a scene's solver: `warm_start` true (mechanics warm-starts λ from
/// the previous step's impulses carried by contact identity), and the 3D NSGS solvers' `anderson`
/// [`saltus_mechanics::NSGS_ANDERSON_MEMORY`].
fn mechanics_defaults(s: &mut FcSolver) {
    if let Some(w) = s.warm_start_mut() {
        *w = true;
    }
    if let FcSolver::NsgsAc(o) | FcSolver::NsgsFb(o) | FcSolver::NsgsProj(o) = s {
        o.anderson = saltus_mechanics::NSGS_ANDERSON_MEMORY;
    }
}

/// Moreau–Jean options and the step `h` of a `<Mechanics>` model's `<Simulation>`.
///
/// With joints (`has_joints`), see [`joint_options`].
pub(super) fn options(m: &LoadedModel, has_joints: bool, planar: bool) -> Result<(MoreauJeanOptions, f64), ModelError> {
    let mf = &m.model;
    let s = match (&mf.simulation, &mf.event_driven) {
        (Some(s), None) => s,
        (_, Some(_)) => {
            return Err(m.error_at(
                "EventDriven",
                "a <Mechanics> scene runs with <Simulation> (Moreau–Jean time stepping), not <EventDriven>",
            ))
        }
        (None, None) => return Err(m.error_at("Mechanics", "missing element `Simulation` after <Mechanics>")),
    };
    let h = s.time_discretisation.h;
    if !(h > 0.0 && h.is_finite()) {
        return Err(m.error_at("Simulation/TimeDiscretisation", format!("h must be finite and > 0, got {}", plain(h))));
    }
    if s.osi.kinds.len() > 1 || s.osi.kind().and_then(OsiSpec::systems).is_some() {
        return Err(m.error_at(
            "Simulation/OneStepIntegrator",
            "a <Mechanics> scene has one integrator for every body (no `systems`, no second integrator)",
        ));
    }
    let (osi, osi_path, is_global) = match s.osi.kind() {
        Some(OsiSpec::MoreauJeanOSI(o)) => (o, "Simulation/OneStepIntegrator/MoreauJeanOSI", false),
        Some(OsiSpec::MoreauJeanGOSI(o)) => (o, "Simulation/OneStepIntegrator/MoreauJeanGOSI", true),
        _ => {
            return Err(m.error_at(
                "Simulation/OneStepIntegrator",
                "a <Mechanics> scene is integrated by <MoreauJeanOSI> or <MoreauJeanGOSI> (Newton–Euler bodies)",
            ))
        }
    };
    if !(0.5..=1.0).contains(&osi.theta) {
        return Err(
            m.error_at(osi_path, format!("theta must be in [0.5, 1] for rigid bodies, got {}", plain(osi.theta)))
        );
    }
    if s.accuracy.is_some() {
        return Err(m.error_at(
            "Simulation/Accuracy",
            "<Accuracy> (constraint tolerances of the projection) does not apply to a <Mechanics> scene; \
             <Projection tol> sets the projection's tolerance",
        ));
    }
    if has_joints && is_global {
        return Err(m.error_at(
            osi_path,
            "a <Mechanics> scene with <Joint>s solves a <GenericMechanical> problem, which has no global form: \
             use <MoreauJeanOSI>",
        ));
    }
    if has_joints {
        return joint_options(m, s, osi.theta, osi.gamma).map(|o| (o, h));
    }
    if is_global {
        return global_options(m, s, osi, planar).map(|o| (o, h));
    }
    let OsnspSpec::FrictionContact(fc) = &s.osnsp.kind else {
        let hint = match &s.osnsp.kind {
            OsnspSpec::GenericMechanical(_) => " (<GenericMechanical> is for scenes with <Joint>s)",
            OsnspSpec::GlobalFrictionContact(_) => {
                " (<GlobalFrictionContact> is the problem of <MoreauJeanGOSI>, the global formulation)"
            }
            _ => "",
        };
        return Err(m.error_at(
            "Simulation/OneStepNSProblem",
            format!("a <Mechanics> scene solves a <FrictionContact dim=\"3\"> problem per step{hint}"),
        ));
    };
    let fc_path = "Simulation/OneStepNSProblem/FrictionContact";
    contact_dim(m, fc_path, planar, fc.dim)?;
    if matches!(fc.storage, Some(StorageSpec::Dense)) || fc.sparse_threshold.is_some() {
        return Err(m.error_at(
            fc_path,
            "a <Mechanics> scene assembles W in sparse 3×3 blocks: `storage` may only be auto or sparse, and `sparse_threshold` does not apply",
        ));
    }
    no_newton(m, s)?;
    let joint_projection = projection(m, s, false)?;
    let mut solver = super::convert_fc::fc_solver_with(fc, mechanics_defaults)
        .map_err(|e| m.error_at(&format!("{fc_path}/{}", fc.solver.kind_name()), e))?;
    if fc.warm_start == Some(false) {
        if let Some(w) = solver.warm_start_mut() {
            *w = false;
        }
    }
    let mut o = MoreauJeanOptions { theta: osi.theta, solver, joint_projection, ..Default::default() };
    if let Some(g) = osi.gamma {
        o.gamma = g;
    }
    o.on_non_convergence = super::convert_mech::policy(fc.on_non_convergence);
    Ok((o, h))
}

/// `<Newton>` is refused in a scene without joints.
fn no_newton(m: &LoadedModel, s: &SimulationSpec) -> Result<(), ModelError> {
    if s.newton.is_some() {
        return Err(m.error_at(
            "Simulation/Newton",
            "<Newton> does not apply to a <Mechanics> scene (one friction-contact problem per step)",
        ));
    }
    Ok(())
}

/// The options of `<MoreauJeanGOSI>` with `<GlobalFrictionContact dim="3">`: the global
/// formulation, solved by the element's solver (`NsgsWr`: condensed, then NSGS; `Nsgs`: NSGS on
/// the global problem), warm-started from the previous step's impulses unless `warm_start` is
/// false on the problem or the solver.
/// The problem's `dim` (at `path`) must be the scene's: 3 for rigid bodies in 3D, 2 in a 2D scene.
fn contact_dim(m: &LoadedModel, path: &str, planar: bool, dim: usize) -> Result<(), ModelError> {
    match (planar, dim) {
        (false, 3) | (true, 2) => Ok(()),
        (false, d) => Err(m.error_at(path, format!("dim = {d}: contacts between rigid bodies in 3D need dim=\"3\""))),
        (true, d) => Err(m.error_at(
            path,
            format!("dim = {d}: contacts between 2D bodies (Disk, Box2d, ConvexPolygon) need dim=\"2\""),
        )),
    }
}

fn global_options(
    m: &LoadedModel,
    s: &SimulationSpec,
    osi: &MoreauJeanSpec,
    planar: bool,
) -> Result<MoreauJeanOptions, ModelError> {
    let OsnspSpec::GlobalFrictionContact(g) = &s.osnsp.kind else {
        return Err(m.error_at(
            "Simulation/OneStepNSProblem",
            "<MoreauJeanGOSI> solves a <GlobalFrictionContact dim=\"3\"> problem per step (M and H kept apart), \
             e.g. <GlobalFrictionContact dim=\"3\"><NsgsWr tol=\"1e-8\"/></GlobalFrictionContact>",
        ));
    };
    let path = "Simulation/OneStepNSProblem/GlobalFrictionContact";
    contact_dim(m, path, planar, g.dim)?;
    no_newton(m, s)?;
    let joint_projection = projection(m, s, false)?;
    let mut solver = super::convert_fc::gfc_solver(g, Some(true))
        .map_err(|e| m.error_at(&format!("{path}/{}", g.solver.kind_name()), e))?;
    if g.warm_start == Some(false) {
        match &mut solver {
            GfcSolver::Nsgs(o) => o.warm_start = false,
            GfcSolver::Condensed(f) => {
                if let Some(w) = f.warm_start_mut() {
                    *w = false;
                }
            }
        }
    }
    let mut o = MoreauJeanOptions {
        theta: osi.theta,
        formulation: Formulation::Global(solver),
        joint_projection,
        ..Default::default()
    };
    if let Some(gamma) = osi.gamma {
        o.gamma = gamma;
    }
    o.on_non_convergence = super::convert_mech::policy(g.on_non_convergence);
    Ok(o)
}

/// The options of a scene with joints: one `<GenericMechanical>` problem per step (all joint
/// rows in one equality block, one friction block per contact: `W` dense, impulses always
/// warm-started from the previous step), and the projection onto the joints after each step when
/// `<Projection>` is present (see [`projection`]).
fn joint_options(
    m: &LoadedModel,
    s: &SimulationSpec,
    theta: f64,
    gamma: Option<f64>,
) -> Result<MoreauJeanOptions, ModelError> {
    let OsnspSpec::GenericMechanical(g) = &s.osnsp.kind else {
        return Err(m.error_at(
            "Simulation/OneStepNSProblem",
            "a <Mechanics> scene with <Joint>s solves a <GenericMechanical> problem per step (joint rows and contacts), e.g. <GenericMechanical><GaussSeidel tol=\"1e-10\"/></GenericMechanical>",
        ));
    };
    let path = "Simulation/OneStepNSProblem/GenericMechanical";
    if matches!(g.storage, Some(StorageSpec::Sparse)) || g.sparse_threshold.is_some() {
        return Err(m.error_at(
            path,
            "the joint rows and contacts of a <Mechanics> scene form a dense W: `storage` may only be auto or dense, and `sparse_threshold` does not apply",
        ));
    }
    let solver_warm: Option<bool> = g.solver.attribute("warm_start").and_then(|v| FromText::from_text(v).ok());
    if g.warm_start == Some(false) || solver_warm == Some(false) {
        return Err(m.error_at(
            path,
            "the joint impulses are always warm-started from the previous step: `warm_start` cannot be false",
        ));
    }
    let solver = super::convert_fc::gmp_solver(g).map_err(|e| m.error_at(&format!("{path}/GaussSeidel"), e))?;
    if s.newton.is_some() {
        return Err(m.error_at("Simulation/Newton", "<Newton> does not apply to a <Mechanics> scene"));
    }
    let joint_projection = projection(m, s, true)?;
    let mut o = MoreauJeanOptions { theta, joint_solver: solver, joint_projection, ..Default::default() };
    if let Some(gamma) = gamma {
        o.gamma = gamma;
    }
    o.on_non_convergence = super::convert_mech::policy(g.on_non_convergence);
    Ok(o)
}

/// `<Projection tol max_iter contacts>` of a `<Mechanics>` scene (Siconos
/// `TimeSteppingDirectProjection`): absent, no projection; present, the joints (`tol` on
/// `max_i |h_i(q)|`, default 1e-12) and, with `contacts` (default: the scene has no joints), the
/// contacts (`tol` on the deepest penetration, default 1e-10), `max_iter` Gauss–Newton iterations
/// (default 10). A scene without joints must project its contacts.
fn projection(m: &LoadedModel, s: &SimulationSpec, has_joints: bool) -> Result<JointProjection, ModelError> {
    let path = "Simulation/Projection";
    let Some(p) = &s.projection else {
        // without joints the default options project nothing (no contacts): those of the Rust
        // scenes, so that an XML scene's options equal its Rust twin's
        return Ok(JointProjection { enabled: !has_joints, ..Default::default() });
    };
    let mut o = JointProjection { contacts: p.contacts.unwrap_or(!has_joints), ..Default::default() };
    if !has_joints && !o.contacts {
        return Err(m.error_at(
            path,
            "<Projection contacts=\"false\"> projects onto the joints, and this <Mechanics> scene has no <Joint>",
        ));
    }
    if let Some(tol) = p.tol {
        if !(tol > 0.0 && tol.is_finite()) {
            return Err(m.error_at(path, format!("`tol` must be finite and > 0, got {}", plain(tol))));
        }
        (o.tol, o.contact_tol) = (tol, tol);
    }
    if let Some(n) = p.max_iter {
        if n == 0 {
            return Err(m.error_at(path, "`max_iter` must be at least 1"));
        }
        o.max_iter = n;
    }
    Ok(o)
}

/// `<FrictionContactTrace>` of the `<Simulation>` (see [`crate::run::trace`]).
pub(super) fn trace(m: &LoadedModel) -> Result<Option<crate::run::trace::FcTrace>, ModelError> {
    let Some(t) = m.model.simulation.as_ref().and_then(|s| s.trace.as_ref()) else { return Ok(None) };
    let path = "Simulation/FrictionContactTrace";
    if t.file.trim().is_empty() {
        return Err(m.error_at(path, "`file` (the dumps' path prefix) is empty"));
    }
    if let Some(p) = t.probability.filter(|p| !(*p > 0.0 && *p <= 1.0)) {
        return Err(m.error_at(path, format!("probability must be in (0, 1], got {}", plain(p))));
    }
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    let info = [text(&t.title), text(&t.description), text(&t.math_info)];
    Ok(Some(crate::run::trace::FcTrace::new(t.file.clone(), t.itermax, t.probability, t.seed.unwrap_or(0), info)))
}
