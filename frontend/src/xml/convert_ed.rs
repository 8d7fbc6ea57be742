//! `<EventDriven>` -> kernel [`EventDriven`]: time-discretisation events every `h`, the
//! LSODAR-class integrator options, the impact and acceleration LCP solvers and the event
//! tolerances, all checked before the run with the element path in every error.

use super::convert::{kernel_msg, Simulation};
use super::convert_sim::{lcp_solver, sim_error};
use super::schema::*;
use super::{LoadedModel, ModelError};
use saltus_kernel::{EventDriven, EventDrivenOptions, KernelError, Nsds, OdeOptions};
use saltus_numerics::ode::{ErrorNorm, OdeMethod};

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
pub fn build_event_driven(m: &LoadedModel, e: &EventDrivenSpec, nsds: &Nsds, h: f64) -> Result<Simulation, ModelError> {
    let mut o = EventDrivenOptions { h, ..Default::default() };
    let EdOsiSpec::LsodarOSI(ls) = &e.osi.kind;
    o.ode = ode_options(ls);
    // (q, v) per Lagrangian system, x per first-order one
    let n_state: usize =
        nsds.systems().iter().map(|d| if d.velocity().is_some() { 2 * d.dim() } else { d.dim() }).sum();
    o.ode.validate(n_state).map_err(|err| m.error_at(OSI_PATH, err.to_string()))?;
    if let Some(s) = &e.impact {
        if is_first_order(nsds) {
            return Err(m.error_at(
                "EventDriven/ImpactProblem",
                "a first-order model has no impacts (its state is continuous); the mode at a switch is chosen by \
                 <AccelerationProblem>'s solver",
            ));
        }
        o.impact = lcp_solver(&s.solver);
    }
    if let Some(s) = &e.acceleration {
        o.acceleration = lcp_solver(&s.solver);
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
    let sim = EventDriven::new(nsds, o).map_err(|err| match &err {
        KernelError::Ode { source, .. } => m.error_at(OSI_PATH, source.to_string()),
        KernelError::SingularW { .. }
        | KernelError::InvalidCombination { .. }
        | KernelError::UnsupportedSystem { .. } => sim_error(m, nsds, &err, "LsodarOSI"),
        other => m.error_at("EventDriven", kernel_msg(other)),
    })?;
    Ok(Simulation::EventDriven(Box::new(sim)))
}
