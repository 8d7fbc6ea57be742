//! `<EventDriven>` -> kernel [`EventDriven`]: time-discretisation events every `h`, the
//! LSODAR-class integrator options, the impact and acceleration LCP solvers and the event
//! tolerances, all checked before the run with the element path in every error.

use super::convert::{kernel_msg, Simulation};
use super::convert_events::WindowScale;
use super::convert_sim::{constraint_accuracy, constraint_rows, lcp_solver, sim_error};
use super::schema::*;
use super::{LoadedModel, ModelError};
use saltus_kernel::{EventDriven, EventDrivenOptions, KernelError, Nsds, OdeOptions, UserEvent};
use saltus_numerics::ode::{ErrorNorm, OdeMethod, Tolerance};

const OSI_PATH: &str = "EventDriven/OneStepIntegrator/LsodarOSI";

/// The integrator options of `<LsodarOSI>` (defaults: LSODA, rtol 1e-12, atol 1e-14).
fn ode_options(o: &LsodarSpec) -> OdeOptions {
    let d = EventDrivenOptions::default().ode;
    let (rtol0, atol0) = match &d.tolerance {
        saltus_numerics::ode::Tolerance::RelAbs { rtol, atol: saltus_numerics::ode::Atol::Scalar(a) } => (*rtol, *a),
        _ => (1e-12, 1e-14),
    };
    let mut x = OdeOptions::with_tol(o.rtol.unwrap_or(rtol0), o.atol.unwrap_or(atol0));
    x.method = match o.method {
        None | Some(OdeMethodSpec::Lsoda) => OdeMethod::Lsoda,
        Some(OdeMethodSpec::Adams) => OdeMethod::Adams,
        Some(OdeMethodSpec::Bdf) => OdeMethod::Bdf,
        Some(OdeMethodSpec::Dopri5) => OdeMethod::Dopri5,
    };
    if let Some(h) = o.hmax {
        x.hmax = h;
    }
    if let Some(n) = o.max_steps {
        x.max_steps = n;
    }
    if let Some(b) = o.root_sampling {
        x.root_sampling = b;
    }
    if o.h0.is_some() {
        x.h0 = o.h0;
    }
    if let Some(h) = o.hmin {
        x.hmin = h;
    }
    if let Some(k) = o.max_order_adams {
        x.max_order_adams = k;
    }
    if let Some(k) = o.max_order_bdf {
        x.max_order_bdf = k;
    }
    if let Some(n) = o.norm {
        x.norm = match n {
            ErrorNormSpec::Max => ErrorNorm::Max,
            ErrorNormSpec::Rms => ErrorNorm::Rms,
        };
    }
    x
}

/// Whether the model is event-driven on its first-order engine (every system first order).
fn is_first_order(nsds: &Nsds) -> bool {
    nsds.n_ds() > 0 && nsds.systems().iter().all(|d| d.velocity().is_none())
}

/// Builds the event-driven simulation of `<EventDriven>` (TD events every `h`).
pub fn build_event_driven(
    m: &LoadedModel,
    e: &EventDrivenSpec,
    nsds: &Nsds,
    h: f64,
    events: Vec<UserEvent>,
) -> Result<Simulation, ModelError> {
    let mut o = EventDrivenOptions { h, ..Default::default() };
    let EdOsiSpec::LsodarOSI(ls) = &e.osi.kind;
    o.ode = ode_options(ls);
    // (q, v) per Lagrangian system, x per first-order one
    let n_state: usize =
        nsds.systems().iter().map(|d| if d.velocity().is_some() { d.dim_q() + d.dim_v() } else { d.dim_q() }).sum();
    if let Some(a) = &e.accuracy {
        accuracy(m, a, ls, n_state, &mut o.ode)?;
        o.ode.validate(n_state).map_err(|err| m.error_at(ACC_PATH, err.to_string()))?;
        if a.constraint_tol.is_some() {
            if constraint_rows(nsds, true) == "none" {
                return Err(m.error_at(
                    ACC_PATH,
                    "`constraint_tol`: the model has no bilateral constraint (EqualityConditionNSL) to project",
                ));
            }
            o.constraint_accuracy = Some(constraint_accuracy(m, ACC_PATH, a.alpha, &a.constraint_tol, a.norm)?);
        }
    }
    o.ode.validate(n_state).map_err(|err| m.error_at(OSI_PATH, err.to_string()))?;
    if let Some(s) = &e.impact {
        if is_first_order(nsds) {
            return Err(m.error_at(
                "EventDriven/ImpactProblem",
                "a first-order model has no impacts (its state is continuous); the mode at a switch is chosen by \
                 <AccelerationProblem>'s solver",
            ));
        }
        o.impact = lcp_solver(&s.solver)
            .map_err(|e| m.error_at(&format!("EventDriven/ImpactProblem/{}", s.solver.kind_name()), e))?;
    }
    if let Some(s) = &e.acceleration {
        o.acceleration = lcp_solver(&s.solver)
            .map_err(|e| m.error_at(&format!("EventDriven/AccelerationProblem/{}", s.solver.kind_name()), e))?;
    }
    if let Some(v) = e.event_tol {
        o.gap_tol = v;
    }
    if let Some(v) = e.velocity_tol {
        o.velocity_tol = v;
    }
    if let Some(v) = e.zeno_velocity {
        o.zeno_velocity = v;
    }
    if let Some(v) = e.merge_tol {
        o.merge_tol = v;
    }
    if let Some(v) = e.max_events_between_td {
        o.max_events_between_td = v;
    }
    if let Some(v) = e.mode_probe {
        o.mode_probe = v;
    }
    o.validate().map_err(|err| match &err {
        KernelError::InvalidOption { option: "impact", reason } => {
            m.error_at("EventDriven/ImpactProblem", reason.clone())
        }
        KernelError::InvalidOption { option: "acceleration", reason } => {
            m.error_at("EventDriven/AccelerationProblem", reason.clone())
        }
        KernelError::InvalidOption { option, reason } => {
            let attr = match *option {
                "gap_tol" => "event_tol",
                other => other,
            };
            m.error_at("EventDriven", format!("attribute `{attr}`: {reason}"))
        }
        other => m.error_at("EventDriven", kernel_msg(other)),
    })?;
    let sim = EventDriven::with_events(nsds, o, events).map_err(|err| match &err {
        KernelError::Ode { source, .. } => m.error_at(OSI_PATH, source.to_string()),
        KernelError::InvalidOption { option: "event", reason } => m.error_at("Events", reason.clone()),
        KernelError::InvalidOption { option: "constraint_accuracy", reason } => {
            m.error_at(ACC_PATH, format!("{reason} (bilateral constraint rows: {})", constraint_rows(nsds, true)))
        }
        KernelError::SingularW { .. }
        | KernelError::InvalidCombination { .. }
        | KernelError::UnsupportedSystem { .. } => sim_error(m, nsds, &err, "LsodarOSI"),
        other => m.error_at("EventDriven", kernel_msg(other)),
    })?;
    Ok(Simulation::EventDriven(Box::new(sim)))
}

/// The localization scale of the events (`<Accuracy>`'s α and τ; defaults without it).
pub fn window_scale(m: &LoadedModel, e: &EventDrivenSpec) -> Result<WindowScale, ModelError> {
    let Some(a) = &e.accuracy else { return Ok(WindowScale::default()) };
    let (alpha, time_scale) = (a.alpha, a.time_scale.unwrap_or(1.0));
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(m.error_at(ACC_PATH, format!("`alpha` must be in (0, 1], got {}", super::plain(alpha))));
    }
    if !(time_scale.is_finite() && time_scale > 0.0) {
        return Err(
            m.error_at(ACC_PATH, format!("`time_scale` must be finite and > 0, got {}", super::plain(time_scale)))
        );
    }
    Ok(WindowScale { alpha, time_scale, explicit: true })
}

const ACC_PATH: &str = "EventDriven/Accuracy";

/// `<Accuracy>` onto the integrator's error test: `Tolerance::Accuracy` over the `n_state`
/// entries `(q, v)`, RMS norm unless `norm="max"`.
fn accuracy(
    m: &LoadedModel,
    a: &AccuracySpec,
    ls: &LsodarSpec,
    n_state: usize,
    o: &mut OdeOptions,
) -> Result<(), ModelError> {
    if ls.rtol.is_some() || ls.atol.is_some() {
        return Err(m.error_at(ACC_PATH, "<Accuracy> replaces the `rtol`/`atol` of <LsodarOSI>: give one or the other"));
    }
    let list = |attr: &str, text: &Option<String>| -> Result<Option<Vec<f64>>, ModelError> {
        let Some(text) = text else { return Ok(None) };
        let v = super::values::parse_numbers(text).map_err(|e| m.error_at(ACC_PATH, format!("`{attr}`: {e}")))?;
        if v.len() != n_state {
            return Err(m.error_at(
                ACC_PATH,
                format!(
                    "`{attr}` has {} entries, the integrator's state (q of every system, then v) has {n_state}",
                    v.len()
                ),
            ));
        }
        Ok(Some(v))
    };
    let (weights, units) = (list("weights", &a.weights)?, list("units", &a.units)?);
    if weights.is_some() && units.is_some() {
        return Err(m.error_at(ACC_PATH, "give `weights` or `units`, not both"));
    }
    o.tolerance = Tolerance::Accuracy { alpha: a.alpha, weights, units };
    o.norm = match a.norm.or(ls.norm) {
        Some(ErrorNormSpec::Max) => ErrorNorm::Max,
        _ => ErrorNorm::Rms,
    };
    Ok(())
}
