//! The [`Stepper`] of a kernel model ([`ModelRun`]: time stepping, with projection, or event
//! driven) and the rows of time-stepping runs.
//!
//! Columns: `t`, then per system `NAME.q[i]`, `NAME.v[i]` (Lagrangian) or `NAME.x[i]`
//! (first order), then per interaction `NAME.y[i]` (the output `y` at level 0: the gap for a
//! Lagrangian relation), `NAME.ydot[i]` (Lagrangian relations only: `y` at level 1, the relative
//! velocity) and `NAME.lambda[i]` (`λ` at the level the one-step problem solves: the impulse
//! over the step for Moreau–Jean, `λ` itself for Euler–Moreau). Event-driven rows are described
//! in [`super::event_driven`].

use super::event_driven::{self as ed, EdStep};
use super::events;
use crate::drive::{Advanced, Flow, NotConverged, Sinks, Stepper, Stopped, Summary};
use crate::output::TargetError;
use crate::simulation::{Advance, Built, Simulation};
use crate::step_time::StepClock;
use saltus_kernel::{Nsds, ProximityManager, StepReport, UserEventHit};

/// Column names: `t`, then per system `NAME.q[i]`, `NAME.v[i]` (Lagrangian) or `NAME.x[i]`,
/// then per interaction `NAME.y[i]`, `NAME.ydot[i]` (Lagrangian relations), `NAME.lambda[i]`:
/// first those linked from the start, then those declared with an activation distance (`prox`),
/// each in model order.
pub fn header(nsds: &Nsds, prox: Option<&ProximityManager>) -> Vec<String> {
    let mut h = vec!["t".to_string()];
    for (i, ds) in nsds.systems().iter().enumerate() {
        let name = nsds.ds_name(saltus_kernel::DsId(i as u32)).unwrap_or("ds");
        let (s, n) = if ds.is_lagrangian() { ("q", ds.dim_q()) } else { ("x", ds.dim_q()) };
        h.extend((0..n).map(|j| format!("{name}.{s}[{j}]")));
        if ds.is_lagrangian() {
            h.extend((0..ds.dim_v()).map(|j| format!("{name}.v[{j}]")));
        }
    }
    let declared = prox.into_iter().flat_map(|p| p.declared());
    for inter in nsds.interactions().iter().take(n_static(nsds, prox)).chain(declared) {
        h.extend((0..inter.size()).map(|j| format!("{}.y[{j}]", inter.name)));
        if inter.relation.is_lagrangian() {
            h.extend((0..inter.size()).map(|j| format!("{}.ydot[{j}]", inter.name)));
        }
        h.extend((0..inter.size()).map(|j| format!("{}.lambda[{j}]", inter.name)));
    }
    h
}

/// The interactions linked from the start: the first slots of `nsds` (the simulation links the
/// declared proximity interactions after them and never removes a static one).
fn n_static(nsds: &Nsds, prox: Option<&ProximityManager>) -> usize {
    nsds.n_linked() - prox.map_or(0, |p| p.n_linked())
}

/// The interactions declared with an activation distance of `built`'s simulation, if any.
pub fn proximity(built: &Built) -> Option<&ProximityManager> {
    built.sim.time_stepping().and_then(|ts| ts.proximity())
}

/// Appends `v` (or `m` zeros where the kernel has not computed it).
pub(crate) fn push_or_zeros(out: &mut Vec<f64>, v: Option<&nalgebra::DVector<f64>>, m: usize) {
    match v {
        Some(v) if v.len() == m => out.extend_from_slice(v.as_slice()),
        _ => out.extend(std::iter::repeat_n(0.0, m)),
    }
}

/// The current row at time `t`: states, then `y` (level 0), `ẏ` (level 1, Lagrangian
/// relations) and `λ` at `level`, in the order of [`header`].
pub fn row(nsds: &Nsds, prox: Option<&ProximityManager>, t: f64, level: usize, out: &mut Vec<f64>) {
    out.clear();
    out.push(t);
    for ds in nsds.systems() {
        out.extend_from_slice(ds.state().as_slice());
        if let Some(v) = ds.velocity() {
            out.extend_from_slice(v.as_slice());
        }
    }
    for inter in nsds.interactions().iter().take(n_static(nsds, prox)) {
        let m = inter.size();
        push_or_zeros(out, inter.y(0), m);
        if inter.relation.is_lagrangian() {
            push_or_zeros(out, inter.y(1), m);
        }
        push_or_zeros(out, inter.lambda(level), m);
    }
    if let Some(p) = prox {
        for (i, inter) in p.declared().enumerate() {
            let m = inter.size();
            match p.outputs(i, nsds, level) {
                Some(o) => {
                    push_or_zeros(out, Some(o.y[0]), m);
                    push_or_zeros(out, Some(o.y[1]), m);
                    push_or_zeros(out, Some(o.lambda), m);
                }
                None => out.extend(std::iter::repeat_n(0.0, 3 * m)),
            }
        }
    }
}

/// Appends the controllers' inputs and the observers' estimates (`<ControlManager>`) to a row.
fn control_row(built: &Built, out: &mut Vec<f64>) {
    if let Some(c) = &built.control {
        c.manager.row_into(out);
    }
}

/// The columns of a run of `built`: [`header`], or [`ed::header_ed`] for an event-driven
/// simulation, then the controllers' `NAME.u[j]` and observers' `NAME.xhat[i]`
/// (`<ControlManager>`), then `event` if the model has user events ([`events`]).
pub fn columns(built: &Built) -> Vec<String> {
    let mut h = match built.sim {
        Simulation::EventDriven(_) => ed::header_ed(&built.nsds),
        _ => header(&built.nsds, proximity(built)),
    };
    if let Some(c) = &built.control {
        c.manager.columns_into(&mut h);
    }
    if events::has_events(built) {
        h.push("event".into());
    }
    h
}

/// What the last advance left for [`Stepper::complete`].
enum Pending {
    None,
    Step(StepReport),
    Event(Box<saltus_kernel::EventReport>),
}

/// A kernel model being run: the [`Stepper`] of time stepping (with or without projection)
/// and of event-driven simulations.
pub struct ModelRun {
    /// The model and its simulation.
    pub built: Built,
    clock: StepClock,
    k: u64,
    prev_active: usize,
    row: Vec<f64>,
    hits: Vec<UserEventHit>,
    stopped: bool,
    pending: Pending,
}

impl ModelRun {
    /// A run of `built` from its initial state.
    pub fn new(built: Built) -> ModelRun {
        let clock = StepClock::new(built.t0, built.h);
        ModelRun {
            built,
            clock,
            k: 0,
            prev_active: 0,
            row: Vec::new(),
            hits: Vec::new(),
            stopped: false,
            pending: Pending::None,
        }
    }
    /// Event driven (rows per event, see [`super::event_driven`]).
    pub fn is_event_driven(&self) -> bool {
        matches!(self.built.sim, Simulation::EventDriven(_))
    }
    /// The user events found by the last advance (time stepping: after the step; event driven:
    /// at the event).
    pub fn hits(&self) -> &[UserEventHit] {
        &self.hits
    }
    /// The exact decimal time of step `k` (`t0 + k h`).
    pub fn step_time(&self, k: u64) -> f64 {
        self.clock.time(k)
    }

    /// The control instants of step (or time-discretisation event) `k` on the current state, the
    /// new input held by the simulation; the controllers' relay problems (implicit SMC) that did
    /// not converge at these instants, and their largest residual into `sum`.
    fn control_instant(&mut self, k: u64, sum: &mut Summary) -> Result<Option<NotConverged>, Stopped> {
        let built = &mut self.built;
        let Some(c) = &mut built.control else { return Ok(None) };
        let before = c.manager.report().not_converged;
        c.instant(k, self.clock.time(k), &built.nsds, &mut built.sim)?;
        let r = c.manager.report();
        sum.max_residual = sum.max_residual.max(r.max_residual);
        Ok((r.not_converged > before).then(|| NotConverged {
            what: "a controller's relay problem",
            residual: r.max_residual,
            count: r.not_converged - before,
        }))
    }

    /// The control instants of the run's first step, before it (once).
    fn start_control(&mut self) -> Result<(), Stopped> {
        let built = &mut self.built;
        match &mut built.control {
            Some(c) if !c.manager.started() => c.instant(self.k, self.clock.time(self.k), &built.nsds, &mut built.sim),
            _ => Ok(()),
        }
    }

    fn complete_step(
        &mut self,
        rep: &StepReport,
        keep: bool,
        out: &mut Sinks<'_>,
        sum: &mut Summary,
    ) -> Result<Flow, Stopped> {
        self.k += 1;
        sum.steps += 1;
        if rep.active > self.prev_active {
            sum.events += 1;
        }
        self.prev_active = rep.active;
        let built = &mut self.built;
        let with_events = built.events.is_some();
        let mut stop = None;
        if let Some(mon) = &mut built.events {
            self.hits = mon.after_step(&mut built.nsds).map_err(|e| Stopped::Failed(Box::new(e)))?;
            for hit in &self.hits {
                row(&built.nsds, proximity(built), hit.t, built.level, &mut self.row);
                control_row(built, &mut self.row);
                events::write_hit_rows(hit, &self.row, |_| true, out.main)?;
                sum.user_events += hit.transitions.len() as u64;
                if hit.stop {
                    stop = Some(hit.t);
                }
            }
        }
        if let Some(t) = stop {
            self.stopped = true;
            return Ok(Flow::Stop(t));
        }
        if keep {
            row(&built.nsds, proximity(built), self.clock.time(self.k), built.level, &mut self.row);
            control_row(built, &mut self.row);
            if with_events {
                self.row.push(0.0);
            }
            out.main.row(&self.row)?;
        }
        Ok(Flow::Continue)
    }
}

impl Stepper for ModelRun {
    fn unit(&self) -> &'static str {
        if self.is_event_driven() {
            "time-discretisation events"
        } else {
            "steps"
        }
    }
    fn total(&self) -> u64 {
        self.built.steps
    }
    fn steps_done(&self) -> u64 {
        match &self.built.sim {
            Simulation::EventDriven(s) => s.events().next_td_index().saturating_sub(1),
            _ => self.k,
        }
    }
    fn done(&self) -> bool {
        self.stopped
            || match &self.built.sim {
                Simulation::EventDriven(s) => s.events().next_td_index() > self.built.steps,
                _ => self.k >= self.built.steps,
            }
    }
    fn time(&self) -> f64 {
        match &self.built.sim {
            Simulation::EventDriven(_) => self.built.nsds.t(),
            _ => self.clock.time(self.k),
        }
    }
    fn columns(&self) -> Vec<String> {
        columns(&self.built)
    }
    fn write_start(&mut self, out: &mut Sinks<'_>) -> Result<(), TargetError> {
        if self.is_event_driven() {
            return Ok(()); // as Siconos's BouncingBallED: the first row is the first event
        }
        if self.start_control().is_err() {
            return Ok(()); // the controllers' failure at t0 shows at the first advance
        }
        let b = &self.built;
        row(&b.nsds, proximity(b), self.clock.time(self.k), b.level, &mut self.row);
        control_row(b, &mut self.row);
        if b.events.is_some() {
            self.row.push(0.0);
        }
        out.main.row(&self.row)
    }
    fn advance(&mut self, sum: &mut Summary) -> Result<Advanced, Stopped> {
        self.hits.clear();
        self.start_control()?;
        let adv = self.built.sim.advance(&mut self.built.nsds).map_err(|e| Stopped::Failed(Box::new(e)))?;
        match adv {
            Advance::Step(rep) => {
                let control_nc = self.control_instant(self.k + 1, sum)?;
                sum.newton_iterations += rep.newton_iterations as u64;
                let mut nc = (!rep.newton_converged).then_some(("the Newton loop", rep.newton_residual));
                if let Some(s) = &rep.osnsp {
                    sum.nonsmooth_steps += 1;
                    sum.solver_iterations += s.iterations as u64;
                    sum.max_residual = sum.max_residual.max(s.residual);
                    if !s.status.converged() {
                        nc = Some(("the one-step problem", s.residual));
                    }
                }
                let a = Advanced {
                    t: rep.t,
                    step: Some(self.k + 1),
                    not_converged: nc.map(|(what, residual)| NotConverged { what, residual, count: 1 }).or(control_nc),
                };
                self.pending = Pending::Step(rep);
                Ok(a)
            }
            Advance::Event(rep) => {
                let mut a = ed::account(&rep, sum);
                // the controllers act at the time-discretisation events (Siconos's ControlLsodarSimulation)
                if let Some(k) = rep.td_index {
                    let control_nc = self.control_instant(k, sum)?;
                    a.not_converged = a.not_converged.or(control_nc);
                }
                self.pending = Pending::Event(rep);
                Ok(a)
            }
        }
    }
    fn complete(
        &mut self,
        adv: &Advanced,
        keep: bool,
        out: &mut Sinks<'_>,
        sum: &mut Summary,
    ) -> Result<Flow, Stopped> {
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::Step(rep) => self.complete_step(&rep, keep, out, sum),
            Pending::Event(rep) => {
                let Simulation::EventDriven(sim) = &self.built.sim else { return Ok(Flow::Continue) };
                self.hits.extend(rep.user.iter().cloned());
                let control = self.built.control.as_ref().map(|c| &c.manager);
                let step =
                    EdStep { nsds: &self.built.nsds, sim, clock: &self.clock, keep, row: &mut self.row, control };
                let flow = step.complete(&rep, adv, out, sum)?;
                self.stopped |= matches!(flow, Flow::Stop(_));
                Ok(flow)
            }
            Pending::None => Ok(Flow::Continue),
        }
    }
    fn finish(&mut self, sum: &mut Summary) {
        if let Some(c) = &self.built.control {
            sum.actuations = c.manager.report().actuations;
        }
        if let Simulation::EventDriven(s) = &self.built.sim {
            let st = s.ode_stats();
            sum.ode_steps = st.steps;
            sum.rhs_evals = st.rhs_evals;
        }
    }
    fn describe_failure(&self, stopped: &Stopped) -> Option<String> {
        match stopped {
            Stopped::Failed(e) => Some(crate::names::kernel_error(e, &self.built.nsds)),
            _ => None,
        }
    }
}
