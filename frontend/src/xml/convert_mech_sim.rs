//! `<Simulation>` of a `<Mechanics>` model -> [`MoreauJeanOptions`]: `MoreauJeanOSI` (θ, γ) and a
//! `FrictionContact dim="3"` problem with its solver (NSGS with warm start unless the model
//! says otherwise). Everything the mechanics time stepping does not have is refused, located.

use super::schema::*;
use super::{plain, LoadedModel, ModelError};
use saltus_mechanics::MoreauJeanOptions;

/// The solver element with `warm_start` defaulting to true, and false when the problem's
/// `warm_start` (`default`) is false (mechanics warm-starts λ from
/// the previous step's impulses carried by contact identity).
fn with_warm_start(s: &FcSolverSpec, default: bool) -> FcSolverSpec {
    let mut s = s.clone();
    let w = match &mut s {
        FcSolverSpec::NsgsAc(o) | FcSolverSpec::NsgsFb(o) | FcSolverSpec::NsgsProj(o) | FcSolverSpec::Nsgs2d(o) => {
            &mut o.warm_start
        }
        FcSolverSpec::Prox(o) => &mut o.warm_start,
        FcSolverSpec::NewtonAc(o) => &mut o.warm_start,
        FcSolverSpec::ViFp(o) | FcSolverSpec::ViEg(o) => &mut o.warm_start,
        FcSolverSpec::Admm(o) => &mut o.warm_start,
        FcSolverSpec::Lemke2d(_) => return s,
    };
    *w = Some(default && w.unwrap_or(true));
    s
}

/// Moreau–Jean options and the step `h` of a `<Mechanics>` model's `<Simulation>`.
pub(super) fn options(m: &LoadedModel) -> Result<(MoreauJeanOptions, f64), ModelError> {
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
    let OsiSpec::MoreauJeanOSI(osi) = &s.osi.kind else {
        return Err(m.error_at(
            "Simulation/OneStepIntegrator",
            "a <Mechanics> scene is integrated by <MoreauJeanOSI> (Newton–Euler bodies)",
        ));
    };
    let osi_path = "Simulation/OneStepIntegrator/MoreauJeanOSI";
    if !(0.5..=1.0).contains(&osi.theta) {
        return Err(
            m.error_at(osi_path, format!("theta must be in [0.5, 1] for rigid bodies, got {}", plain(osi.theta)))
        );
    }
    let OsnspSpec::FrictionContact(fc) = &s.osnsp.kind else {
        return Err(m.error_at(
            "Simulation/OneStepNSProblem",
            "a <Mechanics> scene solves a <FrictionContact dim=\"3\"> problem per step",
        ));
    };
    let fc_path = "Simulation/OneStepNSProblem/FrictionContact";
    if fc.dim != 3 {
        return Err(
            m.error_at(fc_path, format!("dim = {}: contacts between rigid bodies in 3D need dim=\"3\"", fc.dim))
        );
    }
    if matches!(fc.storage, Some(StorageSpec::Dense)) || fc.sparse_threshold.is_some() {
        return Err(m.error_at(
            fc_path,
            "a <Mechanics> scene assembles W in sparse 3×3 blocks: `storage` may only be auto or sparse, and `sparse_threshold` does not apply",
        ));
    }
    for (what, given) in
        [("Newton", s.newton.is_some()), ("Projection", s.projection.is_some()), ("Accuracy", s.accuracy.is_some())]
    {
        if given {
            return Err(m.error_at(
                &format!("Simulation/{what}"),
                format!("<{what}> does not apply to a <Mechanics> scene (one friction-contact problem per step)"),
            ));
        }
    }
    let spec = FrictionContactSpec { solver: with_warm_start(&fc.solver, fc.warm_start.unwrap_or(true)), ..fc.clone() };
    let solver = super::convert_fc::fc_solver(&spec)
        .map_err(|e| m.error_at(&format!("{fc_path}/{}", fc.solver.kind_name()), e))?;
    let mut o = MoreauJeanOptions { theta: osi.theta, solver, ..Default::default() };
    if let Some(g) = osi.gamma {
        o.gamma = g;
    }
    o.on_non_convergence = super::convert_mech::policy(fc.on_non_convergence);
    Ok((o, h))
}
