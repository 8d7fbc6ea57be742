//! `saltus run` for event-driven simulations: one CSV row per processed event.
//!
//! Columns: `t`, `NAME.q[i]`, `NAME.v[i]`, then per interaction `NAME.y[i]` (the gap, level 0)
//! and `NAME.lambda[i]`, and a final `kind` (no `NAME.ydot[i]`: on a pre-impact row the kernel
//! holds the post-impact relative velocity, so it is left out; the velocities `v` are there):
//! * `kind = 0`, time-discretisation event `t0 + k h`: the state; `y` = the gap `y(0)`;
//!   `λ` = the contact force `λ(2)` of the acceleration problem (0 for open contacts).
//! * `kind = 1`, pre-impact state of a nonsmooth event: positions (continuous) and the velocities
//!   just before the event; `y` = the gap; `λ` = 0 (nothing has acted yet).
//! * `kind = 2`, post-impact state of the same event: `y` = the gap; `λ` = the impulse `λ(1)`
//!   of the impact problem (0 if the event needed no impact, e.g. a detachment).
//! * Frictional contacts (`NewtonImpactFrictionNSL`, dimension 2) have two rows: `y[0]` the gap,
//!   `y[1]` the tangential coordinate; `λ[0]` normal, `λ[1]` tangential (force or impulse).
//! * `kind = 3`, a user event (`<Events>`; the last column `event` is its number, see
//!   [`super::events`]): the located state before its handler; `λ` = 0.
//! * `kind = 4`, the state after a user event's reset.
//!
//! First-order models (circuits with ideal diodes, relays: mode switches are the events) have
//! `NAME.x[i]` instead of `q`, `v`, and every component of `NAME.y[i]` and `NAME.lambda[i]`:
//! * `kind = 0`: the state, `y` and `λ` of the current mode;
//! * `kind = 1`: the state at the switch (continuous), `y` and `λ` of the mode before it;
//! * `kind = 2`: the same state, `y` and `λ` of the mode after it;
//! * `kind = 3` and `4`: a user event and the state after its reset, as above.
//!
//! As in Siconos's `BouncingBallED` tutorial the initial state is not written: the first row is
//! the first event (`t = t0 + h` when no impact comes first). A nonsmooth event that coincides
//! with a TD event (merged) gives its rows 1 and 2 only. `--every N` keeps every N-th TD row
//! (and the last); rows 1 and 2 are always written.

use super::events;
use super::kernel::header;
use crate::drive::{Advanced, Flow, NotConverged, Sinks, Stopped, Summary};
use crate::output::RowSink;
use crate::step_time::StepClock;
use saltus_kernel::{EventDriven, EventKind, EventReport, Nsds};

/// Column names: [`header`] without the `NAME.ydot[i]` columns, then `kind`.
pub fn header_ed(nsds: &Nsds) -> Vec<String> {
    let mut h = header(nsds, None);
    h.retain(|c| !c.contains(".ydot["));
    h.push("kind".into());
    h
}

/// Which `λ` a row holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lambda {
    Force,
    Zero,
    Impulse,
}

/// First-order rows: `y` and `λ` of every interaction, from the report of the mode before a
/// switch (`pre`) or from the `Nsds` (current mode).
fn relations_first_order(nsds: &Nsds, pre: Option<&EventReport>, out: &mut Vec<f64>) {
    let pre = pre.and_then(|r| r.pre_y.as_deref().zip(r.pre_lambda.as_deref()));
    for (i, inter) in nsds.interactions().iter().enumerate() {
        let m = inter.size();
        for v in [pre.and_then(|p| p.0.get(i)).or(inter.y(0)), pre.and_then(|p| p.1.get(i)).or(inter.lambda(0))] {
            match v {
                Some(v) if v.len() == m => out.extend_from_slice(v.as_slice()),
                _ => out.extend(std::iter::repeat_n(0.0, m)),
            }
        }
    }
}

/// One row of a first-order run (see the module docs).
fn row_first_order(nsds: &Nsds, t: f64, pre: Option<&EventReport>, kind: f64, out: &mut Vec<f64>) {
    out.clear();
    out.push(t);
    for ds in nsds.systems() {
        out.extend_from_slice(ds.state().as_slice());
    }
    relations_first_order(nsds, pre, out);
    out.push(kind);
}

/// One row of kind `kind` from the state in `nsds`; `pre` replaces the velocities (kind 1).
fn row_ed(nsds: &Nsds, t: f64, pre: Option<&[nalgebra::DVector<f64>]>, lambda: Lambda, kind: f64, out: &mut Vec<f64>) {
    out.clear();
    out.push(t);
    for (i, ds) in nsds.systems().iter().enumerate() {
        out.extend_from_slice(ds.state().as_slice());
        match (pre.and_then(|p| p.get(i)), ds.velocity()) {
            (Some(v), Some(_)) => out.extend_from_slice(v.as_slice()),
            (None, Some(v)) => out.extend_from_slice(v.as_slice()),
            (_, None) => {}
        }
    }
    for inter in nsds.interactions() {
        let m = inter.size();
        // y: the gap (and, with friction, the tangential coordinate); λ: the contact force
        // λ(2) or the impulse λ(1), normal then tangential, as the kernel wrote them
        let level = match lambda {
            Lambda::Force => Some(0),
            Lambda::Zero => None,
            Lambda::Impulse => Some(1),
        };
        for v in [inter.y(0), level.and_then(|l| inter.lambda(l))] {
            match v {
                Some(v) if v.len() == m => out.extend_from_slice(v.as_slice()),
                _ => out.extend(std::iter::repeat_n(0.0, m)),
            }
        }
    }
    out.push(kind);
}

/// Adds the solver counts of `rep` to `sum` (iterations, largest residual, impacts); the
/// advance as the driver sees it, with the LCP solves that did not converge.
pub(crate) fn account(rep: &EventReport, sum: &mut Summary) -> Advanced {
    let mut bad = None;
    let mut count = 0;
    for s in rep.impact.iter().chain(rep.acceleration.iter()) {
        sum.solver_iterations += s.iterations as u64;
        sum.max_residual = sum.max_residual.max(s.residual);
        if !s.status.converged() {
            count += 1;
            bad = Some(s.residual);
        }
    }
    if rep.impact.is_some() {
        sum.impacts += 1;
    }
    let what = if rep.impact.is_some() { "the impact LCP" } else { "the acceleration LCP" };
    Advanced { t: rep.t, step: rep.td_index, not_converged: bad.map(|residual| NotConverged { what, residual, count }) }
}

/// Writes `r`, with the `event` column (0) if the model has user events.
fn put(out: &mut dyn RowSink, r: &mut Vec<f64>, with_events: bool) -> Result<(), Stopped> {
    if with_events {
        r.push(0.0);
    }
    out.row(r)?;
    Ok(())
}

/// The completion of one event-driven advance (see the module docs for its rows).
pub(crate) struct EdStep<'a> {
    pub(crate) nsds: &'a Nsds,
    pub(crate) sim: &'a EventDriven,
    pub(crate) clock: &'a StepClock,
    /// The time-discretisation row passes `--every`.
    pub(crate) keep: bool,
    pub(crate) row: &'a mut Vec<f64>,
    /// The controllers, whose inputs and estimates follow the relations' columns.
    pub(crate) control: Option<&'a saltus_control::ControlManager>,
}

impl EdStep<'_> {
    /// Counts the event in `sum` and writes its rows.
    pub(crate) fn complete(
        self,
        rep: &EventReport,
        adv: &Advanced,
        out: &mut Sinks<'_>,
        sum: &mut Summary,
    ) -> Result<Flow, Stopped> {
        let EdStep { nsds, sim, clock, keep, row: r, control } = self;
        // `kind` ends the state's columns; the controllers' come after it
        let with_control = |r: &mut Vec<f64>| {
            if let Some(c) = control {
                c.row_into(r);
            }
        };
        if rep.kind == EventKind::NonSmooth {
            sum.events += 1;
        }
        if adv.step.is_some() {
            sum.steps += 1;
        }
        let with_events = !sim.user_events().is_empty();
        let out = &mut *out.main;
        let first_order = sim.is_first_order();
        if let Some(hit) = &rep.user {
            // the state before the handlers (kind 3), after a reset (kind 4)
            match first_order {
                true => row_first_order(nsds, rep.t, None, 3.0, r),
                false => row_ed(nsds, rep.t, rep.pre_velocities.as_deref(), Lambda::Zero, 3.0, r),
            }
            with_control(r);
            events::write_hit_rows(hit, r, |_| true, out)?;
            sum.user_events += hit.transitions.len() as u64;
            if hit.reset {
                match first_order {
                    true => row_first_order(nsds, rep.t, None, 4.0, r),
                    false => row_ed(nsds, rep.t, None, Lambda::Force, 4.0, r),
                }
                with_control(r);
                put(out, r, with_events)?;
            }
        }
        match rep.kind {
            EventKind::NonSmooth if first_order => {
                row_first_order(nsds, rep.t, Some(rep), 1.0, r);
                with_control(r);
                put(out, r, with_events)?;
                row_first_order(nsds, rep.t, None, 2.0, r);
                with_control(r);
                put(out, r, with_events)?;
            }
            EventKind::TimeDiscretisation if first_order => {
                if keep {
                    row_first_order(nsds, clock.time(rep.td_index.unwrap_or(0)), None, 0.0, r);
                    with_control(r);
                    put(out, r, with_events)?;
                }
            }
            EventKind::NonSmooth => {
                let pre = rep.pre_velocities.as_deref();
                row_ed(nsds, rep.t, pre, Lambda::Zero, 1.0, r);
                with_control(r);
                put(out, r, with_events)?;
                row_ed(nsds, rep.t, None, Lambda::Impulse, 2.0, r);
                with_control(r);
                put(out, r, with_events)?;
            }
            EventKind::TimeDiscretisation => {
                if keep {
                    row_ed(nsds, clock.time(rep.td_index.unwrap_or(0)), None, Lambda::Force, 0.0, r);
                    with_control(r);
                    put(out, r, with_events)?;
                }
            }
            EventKind::User => {}
        }
        match rep.user.as_ref().filter(|h| h.stop) {
            Some(hit) => Ok(Flow::Stop(hit.t)),
            None => Ok(Flow::Continue),
        }
    }
}
