//! `<Events>` -> kernel [`UserEvent`]s: the system by name, the trigger (`<Linear>` or a plugin
//! `<Function>`), declared transitions, window and action (a plugin `<Reset>`), all checked
//! before the run (plugin functions are evaluated once at `t0`), with the element path in
//! every error.

use super::bind::Binder;
use super::schema::*;
use super::{values, ModelError};
use nalgebra::DVector;
use saltus_kernel::model::event::{RootDirection, RootKind};
use saltus_kernel::{DsId, EventAction, EventFunction, EventStates, Nsds, UserEvent};

/// Localization scale `α · τ` of `<Accuracy>` (the window of an event without `window` is
/// `α · τ · unit`); defaults α = 1e-3, τ = 1 (`events-accuracy-projection.md` §5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowScale {
    /// Accuracy α.
    pub alpha: f64,
    /// Time scale τ.
    pub time_scale: f64,
    /// `<Accuracy>` was given: every event gets a window (unit default 0.1).
    pub explicit: bool,
}

impl Default for WindowScale {
    fn default() -> Self {
        WindowScale { alpha: 1e-3, time_scale: 1.0, explicit: false }
    }
}

/// The names of the systems of `nsds` in `DsId` order (for [`build_events`]).
pub fn ds_names(nsds: &Nsds) -> Vec<&str> {
    (0..nsds.n_ds()).map(|i| nsds.ds_name(DsId(i as u32)).unwrap_or("")).collect()
}

/// Builds the user events of `<Events>` on `systems` (a kernel model's or a rigid-body
/// scene's), whose names in index order are `names` (an event's `ds` names one of them).
pub fn build_events(
    b: &mut Binder,
    spec: &EventsSpec,
    systems: &impl EventStates,
    names: &[&str],
    scale: WindowScale,
) -> Result<Vec<UserEvent>, ModelError> {
    let m = b.model;
    let mut out: Vec<UserEvent> = Vec::with_capacity(spec.events.len());
    for e in &spec.events {
        let path = format!("Events/Event[{}]", e.name);
        if out.iter().any(|o| o.name == e.name) {
            return Err(m.error_at(&path, format!("an event named `{}` already exists", e.name)));
        }
        let i = names.iter().position(|&n| n == e.ds).ok_or_else(|| {
            let mut known: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
            known.sort();
            m.error_at(&path, format!("unknown dynamical system `{}` (known: {})", e.ds, known.join(", ")))
        })?;
        let ds = DsId(i as u32);
        let n = systems.event_state_len(i);
        let what_s = format!("the state s of `{}` has {n} entries{}", e.ds, systems.event_state_layout(i));
        let mut s0 = Vec::with_capacity(n);
        systems.gather_event_state(i, &mut s0);
        let t0 = systems.event_time();
        let (mut trigger, mut reset) = (None, None);
        for item in &e.items {
            match item {
                EventItem::Linear(l) => {
                    let lp = format!("{path}/Linear");
                    if trigger.is_some() {
                        return Err(m.error_at(&lp, "an event has one trigger: <Linear> or <Function>"));
                    }
                    let a = values::parse_numbers(&l.a).map_err(|err| m.error_at(&lp, format!("`a`: {err}")))?;
                    if a.len() != n {
                        return Err(m.error_at(&lp, format!("`a` has {} coefficients, {what_s}", a.len())));
                    }
                    let b = l.b.unwrap_or(0.0);
                    if !b.is_finite() || a.iter().any(|x| !x.is_finite()) {
                        return Err(m.error_at(&lp, "`a` and `b` must be finite"));
                    }
                    trigger = Some(EventFunction::Linear { a: DVector::from_vec(a), b });
                }
                EventItem::Function(f) => {
                    let fp = format!("{path}/Function");
                    if trigger.is_some() {
                        return Err(m.error_at(&fp, "an event has one trigger: <Linear> or <Function>"));
                    }
                    let params = b.params(&f.params, &fp)?;
                    let g = b.state_vec(&f.library, &f.function, &params, &fp)?;
                    let mut v = [0.0];
                    g(t0, &s0, &mut v).map_err(|err| m.error_at(&fp, format!("g(t0, s0) failed: {err}")))?;
                    if !v[0].is_finite() {
                        return Err(m.error_at(&fp, format!("g(t0, s0) = {} is not finite", v[0])));
                    }
                    trigger = Some(EventFunction::Function(g));
                }
                EventItem::Reset(f) => {
                    let rp = format!("{path}/Reset");
                    if reset.is_some() {
                        return Err(m.error_at(&rp, "an event has at most one <Reset>"));
                    }
                    let params = b.params(&f.params, &rp)?;
                    let r = b.state_vec(&f.library, &f.function, &params, &rp)?;
                    let mut v = s0.clone();
                    r(t0, &s0, &mut v).map_err(|err| m.error_at(&rp, format!("R(t0, s0) failed: {err}")))?;
                    if v.iter().any(|x| !x.is_finite()) {
                        return Err(m.error_at(&rp, "R(t0, s0) is not finite"));
                    }
                    reset = Some(r);
                }
            }
        }
        let function =
            trigger.ok_or_else(|| m.error_at(&path, "missing the trigger: a <Linear> or a <Function> child"))?;
        let action = match (e.action.unwrap_or(ActionSpec::Record), reset) {
            (ActionSpec::Reset, Some(r)) => EventAction::Reset(r),
            (ActionSpec::Reset, None) => return Err(m.error_at(&path, "action=\"reset\" needs a <Reset> child")),
            (_, Some(_)) => {
                return Err(m.error_at(&format!("{path}/Reset"), "a <Reset> needs action=\"reset\" on its <Event>"))
            }
            (ActionSpec::Record, None) => EventAction::Record,
            (ActionSpec::Stop, None) => EventAction::Stop,
        };
        let direction = match e.direction.unwrap_or(DirectionSpec::Both) {
            DirectionSpec::Rising => RootDirection::Rising,
            DirectionSpec::Falling => RootDirection::Falling,
            DirectionSpec::Both => RootDirection::Both,
        };
        for (attr, v) in [("window", e.window), ("unit", e.unit)] {
            if let Some(v) = v {
                if !(v.is_finite() && v > 0.0) {
                    return Err(m.error_at(&path, format!("`{attr}` must be finite and > 0, got {}", super::plain(v))));
                }
            }
        }
        let window = match (e.window, e.unit) {
            (Some(w), _) => Some(w),
            (None, Some(u)) => Some(scale.alpha * scale.time_scale * u),
            (None, None) if scale.explicit => Some(scale.alpha * scale.time_scale * 0.1),
            (None, None) => None,
        };
        let kind = RootKind { direction, discrete_zero: e.discrete_zero.unwrap_or(false), window };
        out.push(UserEvent { name: e.name.clone(), ds, function, kind, action });
    }
    Ok(out)
}
