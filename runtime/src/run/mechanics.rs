//! The [`Stepper`] of a `<Mechanics>` scene ([`MechRun`]): the bodies' poses and twists in the
//! main table, and the contacts of every written step in the contacts table.
//!
//! Body columns (static bodies are left out: they never move): `t`, then per moving body
//! `NAME.x NAME.y NAME.z` (centre of mass, world frame), `NAME.qw NAME.qx NAME.qy NAME.qz`
//! (unit quaternion body → world, scalar first), `NAME.vx NAME.vy NAME.vz` (velocity, world
//! frame), `NAME.wx NAME.wy NAME.wz` (angular velocity, **body frame**, as Siconos); then per
//! joint `NAME.violation`, `max_i |h_i(q)|` of its constraint rows at the written state; then per
//! joint stop `NAME.stop[i].s` (the coordinate, unwrapped for an angle) and `NAME.stop[i].lambda`
//! (the impulse of the stop along the coordinate over the step ending at `t`, `λ_lower − λ_upper`),
//! per joint friction `NAME.friction[i].lambda` (its impulse, `|λ| ≤ h max`); `i` counts the
//! stops (frictions) of joint `NAME` in the file's order, from 0; per coupler of joint coordinates
//! `NAME.coupler[i].s1` and `NAME.coupler[i].s2` (the coordinates `θ₁`, `θ₂` of
//! `θ₂ = r θ₁ + c`, unwrapped for angles; `NAME` the joint of `θ₂`); last, per body with a time of
//! birth or death (in model order, static bodies included), `NAME.alive`: 1 if the body exists
//! during the step starting at `t`, else 0. A scene with user events (`<Events>` on bodies) ends
//! each row with `event`: 0, or on the row of a located event `k + 1` (`k` its index in
//! `<Events>`); such a row holds the located time and the bodies' poses and twists there on the
//! step's linear interpolant (before any reset; the quaternion interpolated componentwise), its
//! other columns the state at the end of the step (as the rows of a kernel model's events).
//!
//! In a 2D scene (`saltus_mechanics::planar`) the body columns are `NAME.x NAME.y NAME.theta
//! NAME.vx NAME.vy NAME.omega` (`theta` in `(−π, π]`), and the contacts' `z` components are 0.
//!
//! Contact columns ([`contact_header`]), one row per contact closer than the margin at the start
//! of the step ending at `t`: `t, body1, body2` (body indices in the model's order, from 0),
//! `x1 y1 z1`, `x2 y2 z2` (the contact points on body 1 and body 2, world frame), `nx ny nz`
//! (unit normal from body 1 to body 2), `gap`, `active` (1 if in the friction-contact problem),
//! `rn rt1 rt2` (impulse of the step on body 2 in the contact frame: normal, tangents) and
//! `fx fy fz` (the same impulse in the world frame; divide by h for the mean force).

use crate::drive::{Advanced, Flow, NotConverged, Sinks, Stepper, Stopped, Summary};
use crate::output::{RowSink, TargetError};
use crate::run::trace::FcTrace;
use crate::step_time::StepClock;
use crate::xml::convert_mech::MechanicsBuilt;
use saltus_kernel::{EventMonitor, KernelError, UserEvent, UserEventHit};
use saltus_mechanics::body::BodyKind;
use saltus_mechanics::planar::planar_frame;
use saltus_mechanics::relation::contact_frame;
use saltus_mechanics::{MechanicsModel, MechanicsSimulation, MechanicsStepReport, StepEnergy};

/// Per-body column suffixes.
pub const BODY_COLUMNS: [&str; 13] = ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"];

/// Per-body column suffixes of a 2D scene.
pub const BODY_COLUMNS_2D: [&str; 6] = ["x", "y", "theta", "vx", "vy", "omega"];

/// Column names of the body file: `t`, then [`BODY_COLUMNS`] for every moving body, then
/// `NAME.violation` for every joint, then the stop and friction columns.
pub fn header(model: &MechanicsModel) -> Vec<String> {
    let mut h = vec!["t".to_string()];
    let cols: &[&str] = if model.is_planar() { &BODY_COLUMNS_2D } else { &BODY_COLUMNS };
    for b in model.bodies.iter().filter(|b| b.kind != BodyKind::Static) {
        h.extend(cols.iter().map(|c| format!("{}.{c}", b.name)));
    }
    h.extend(model.joints().iter().map(|j| format!("{}.violation", j.name)));
    let mut count = vec![[0usize; 2]; model.joints().len()];
    for st in model.joint_stops() {
        let j = st.joint.0 as usize;
        let (name, i) = (&model.joints()[j].name, count[j][0]);
        h.extend([format!("{name}.stop[{i}].s"), format!("{name}.stop[{i}].lambda")]);
        count[j][0] += 1;
    }
    for f in model.joint_frictions() {
        let j = f.joint.0 as usize;
        h.push(format!("{}.friction[{}].lambda", model.joints()[j].name, count[j][1]));
        count[j][1] += 1;
    }
    let mut n_couplers = vec![0usize; model.joints().len()];
    for c in model.joint_couplers() {
        let j = c.joint2.0 as usize;
        let (name, i) = (&model.joints()[j].name, n_couplers[j]);
        h.extend([format!("{name}.coupler[{i}].s1"), format!("{name}.coupler[{i}].s2")]);
        n_couplers[j] += 1;
    }
    h.extend(model.bodies.iter().filter(|b| b.lifetime.is_bounded()).map(|b| format!("{}.alive", b.name)));
    h
}

/// The energy and work columns of `<Output energy="true">`, Siconos's `energy_work` row: the
/// kinetic energy at the step's end, the work of the smooth forces, the normal and tangent
/// contact work `½ (u⁻ + u⁺)·p`, the same θ-weighted, their negative parts (`StepEnergy`; the
/// initial row has the initial kinetic energy and no work).
pub const ENERGY_COLUMNS: [&str; 8] = [
    "energy.kinetic",
    "energy.work_forces",
    "energy.work_normal",
    "energy.work_tangent",
    "energy.work_normal_theta",
    "energy.work_tangent_theta",
    "energy.work_normal_negative",
    "energy.work_tangent_negative",
];

/// The columns of a run of `built`: [`header`], then the controllers' `NAME.u[j]` and observers'
/// `NAME.xhat[i]` (`<ControlManager>`), then the [`ENERGY_COLUMNS`] with `<Output energy>`, then
/// `event` if the scene has user events.
pub fn columns(built: &MechanicsBuilt) -> Vec<String> {
    columns_of(&built.model, built.control.as_ref(), built.energy, !built.events.is_empty())
}

fn columns_of(
    model: &MechanicsModel,
    control: Option<&super::control::BodyControl>,
    energy: bool,
    events: bool,
) -> Vec<String> {
    let mut h = header(model);
    if let Some(c) = control {
        c.manager.columns_into(&mut h);
    }
    if energy {
        h.extend(ENERGY_COLUMNS.iter().map(|c| c.to_string()));
    }
    if events {
        h.push("event".into());
    }
    h
}

/// Column names of the contact file (see the module docs).
pub fn contact_header() -> Vec<String> {
    [
        "t", "body1", "body2", "x1", "y1", "z1", "x2", "y2", "z2", "nx", "ny", "nz", "gap", "active", "rn", "rt1",
        "rt2", "fx", "fy", "fz",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The body row at time `t`.
pub fn row(sim: &MechanicsSimulation, t: f64, out: &mut Vec<f64>) {
    let model = &sim.model;
    out.clear();
    out.push(t);
    let planar = model.is_planar();
    for b in model.bodies.iter().filter(|b| b.kind != BodyKind::Static) {
        let s = &b.state;
        if planar {
            out.extend_from_slice(&saltus_mechanics::planar::planar_coordinates(s));
            continue;
        }
        let q = s.orientation.quaternion();
        out.extend_from_slice(s.position.as_slice());
        out.extend_from_slice(&[q.w, q.i, q.j, q.k]);
        out.extend_from_slice(s.v.as_slice());
        out.extend_from_slice(s.omega.as_slice());
    }
    out.extend(model.joints().iter().map(|j| j.violation(&model.bodies)));
    for k in 0..model.joint_stops().len() {
        let lam = sim.joint_stop_impulse(k).unwrap_or_default();
        out.extend([sim.joint_stop_coordinate(k).unwrap_or(f64::NAN), lam[0] - lam[1]]);
    }
    out.extend((0..model.joint_frictions().len()).map(|k| sim.joint_friction_impulse(k).unwrap_or(0.0)));
    for k in 0..model.joint_couplers().len() {
        out.extend(sim.joint_coupler_coordinates(k).unwrap_or([f64::NAN; 2]));
    }
    let h = sim.step_size();
    out.extend(
        model.bodies.iter().filter(|b| b.lifetime.is_bounded()).map(|b| f64::from(u8::from(b.lifetime.contains(t, h)))),
    );
}

/// Appends to a body row the controllers' inputs and observers' estimates, then the energy
/// columns' values when given.
fn row_extras(control: Option<&super::control::BodyControl>, energy: Option<[f64; 8]>, row: &mut Vec<f64>) {
    if let Some(c) = control {
        c.manager.row_into(row);
    }
    if let Some(e) = energy {
        row.extend(e);
    }
}

fn contact_rows(
    sim: &MechanicsSimulation,
    t: f64,
    sink: &mut dyn RowSink,
    r: &mut Vec<f64>,
) -> Result<(), TargetError> {
    let planar = sim.model.is_planar();
    for c in sim.contacts() {
        r.clear();
        r.extend_from_slice(&[t, f64::from(c.body1.0), f64::from(c.body2.0)]);
        r.extend_from_slice(c.point1.as_slice());
        r.extend_from_slice(c.point2.as_slice());
        r.extend_from_slice(c.normal.as_slice());
        r.extend_from_slice(&[c.gap, if c.active { 1.0 } else { 0.0 }]);
        r.extend_from_slice(c.impulse.as_slice());
        let frame = if planar { planar_frame(&c.normal) } else { contact_frame(&c.normal) };
        r.extend_from_slice((frame * c.impulse).as_slice());
        sink.row(r)?;
    }
    Ok(())
}

/// A mechanics error with each body written as ``body `NAME` `` (typed: [`MechanicsError::describe`]).
///
/// [`MechanicsError::describe`]: saltus_mechanics::MechanicsError::describe
pub fn named_error(e: &saltus_mechanics::MechanicsError, model: &MechanicsModel) -> String {
    e.describe(&|id| match model.bodies.get(id.index()) {
        Some(b) => format!("body `{}`", b.name),
        None => "an unknown body".to_string(),
    })
}

/// A sink of whole scenes, called after every step with the simulation and the step's report:
/// a format that reads poses, twists and contacts from the scene itself rather than from rows
/// (the Siconos `mechanics_hdf5` writer of the CLI).
pub trait SceneSink: Send + Sync {
    /// Records the step just taken (the sink keeps its own output frequency).
    fn record(&mut self, sim: &MechanicsSimulation, rep: &MechanicsStepReport) -> Result<(), TargetError>;
    /// Completes the output (called once, after the run, whether it completed or not).
    fn finish(&mut self) -> Result<(), TargetError>;
}

/// A `<Mechanics>` scene being run: its simulation, step counter and clock. The summary counts
/// the steps, the steps with an active contact (`nonsmooth_steps`), the steps where the number
/// of active contacts grew (`events`), the solver's iterations and its largest residual.
pub struct MechRun {
    /// The simulation.
    pub sim: MechanicsSimulation,
    clock: StepClock,
    steps: u64,
    k: u64,
    prev_active: usize,
    last: Option<MechanicsStepReport>,
    row: Vec<f64>,
    scene_sink: Option<Box<dyn SceneSink>>,
    events: Option<EventMonitor>,
    hits: Vec<UserEventHit>,
    stopped: bool,
    trace: Option<FcTrace>,
    control: Option<super::control::BodyControl>,
    energy: bool,
}

impl MechRun {
    /// A run of `sim` from its current state at step 0 of `steps` steps of `h` from `t0`.
    pub fn new(sim: MechanicsSimulation, t0: f64, h: f64, steps: u64) -> MechRun {
        MechRun {
            sim,
            clock: StepClock::new(t0, h),
            steps,
            k: 0,
            prev_active: 0,
            last: None,
            row: Vec::new(),
            scene_sink: None,
            events: None,
            hits: Vec::new(),
            stopped: false,
            trace: None,
            control: None,
            energy: false,
        }
    }
    /// Adds the [`ENERGY_COLUMNS`] to the rows (`<Output energy="true">`).
    pub fn with_energy(mut self, energy: bool) -> MechRun {
        self.set_energy(energy);
        self
    }
    /// Writes the [`ENERGY_COLUMNS`] from now on (`true`) or not.
    pub fn set_energy(&mut self, energy: bool) {
        self.energy = energy;
    }
    /// Controllers pushing one body from now on (`<ControlManager body>`); their inputs and
    /// estimates become columns of the rows.
    pub fn with_control(mut self, control: Option<super::control::BodyControl>) -> MechRun {
        self.control = control;
        self
    }
    /// The control instants of the run's first step, before it (once).
    fn start_control(&mut self) -> Result<(), Stopped> {
        match &mut self.control {
            Some(c) if !c.manager.started() => c.instant(self.k, self.clock.time(self.k), &mut self.sim),
            _ => Ok(()),
        }
    }
    /// Appends the controllers' inputs and the observers' estimates to a row, then the last
    /// step's energy and work when asked (before any step: the kinetic energy, no work).
    fn control_row(&mut self) {
        let energy = self.energy_values();
        row_extras(self.control.as_ref(), energy, &mut self.row);
    }
    /// The energy columns' values with `<Output energy>`: the last step's, or before any step
    /// the kinetic energy and no work.
    fn energy_values(&self) -> Option<[f64; 8]> {
        self.energy.then(|| {
            let e = self.last.as_ref().map_or_else(
                || StepEnergy { kinetic: self.sim.model.kinetic_energy(), ..Default::default() },
                |r| r.energy,
            );
            e.to_array()
        })
    }
    /// Watches user events on the bodies from now on (none: no `event` column).
    pub fn with_events(mut self, events: Vec<UserEvent>) -> Result<MechRun, KernelError> {
        self.add_events(events)?;
        Ok(self)
    }
    /// Adds user events on the bodies (after those already watched, so event `k` keeps its
    /// number), all watched from the current state on.
    pub fn add_events(&mut self, more: Vec<UserEvent>) -> Result<(), KernelError> {
        if more.is_empty() {
            return Ok(());
        }
        let mut all = self.events.as_ref().map_or_else(Vec::new, |m| m.events().to_vec());
        all.extend(more);
        self.events = Some(EventMonitor::new(&self.sim, all)?);
        Ok(())
    }
    /// The user events watched.
    pub fn events(&self) -> &[UserEvent] {
        self.events.as_ref().map_or(&[], |m| m.events())
    }
    /// The user events the last step found, in time order.
    pub fn hits(&self) -> &[UserEventHit] {
        &self.hits
    }
    /// Also records every step into `sink` (the driver's rows go on to their own sinks).
    pub fn with_scene_sink(mut self, sink: Box<dyn SceneSink>) -> MechRun {
        self.scene_sink = Some(sink);
        self
    }
    /// Replaces the scene sink (`None`: no scene sink).
    pub fn set_scene_sink(&mut self, sink: Option<Box<dyn SceneSink>>) {
        self.scene_sink = sink;
    }
    /// A new run of `steps` steps from the simulation's current state and time (the contact
    /// history and warm start carry on): step 0 is now.
    pub fn restart(&mut self, steps: u64) {
        self.clock = StepClock::new(self.sim.time(), self.sim.step_size());
        self.steps = steps;
        self.k = 0;
    }
    /// Completes the scene sink's output, if there is one ([`SceneSink::finish`]).
    pub fn finish_scene_sink(&mut self) -> Result<(), TargetError> {
        self.scene_sink.take().map_or(Ok(()), |mut s| s.finish())
    }
    /// The report of the last step taken.
    pub fn last_report(&self) -> Option<&MechanicsStepReport> {
        self.last.as_ref()
    }
    /// A run of `built` from its initial state, with its user events and its trace.
    pub fn from_built(built: &MechanicsBuilt) -> saltus_mechanics::Result<MechRun> {
        let run = MechRun::new(built.simulation()?, built.t0, built.h, built.steps);
        let run = run.with_events(built.events.clone()).map_err(|e| {
            saltus_mechanics::MechanicsError::InvalidModel { what: "user events".into(), reason: e.to_string() }
        })?;
        Ok(run.with_trace(built.trace.clone()).with_control(built.control.clone()).with_energy(built.energy))
    }
    /// Dumps the friction-contact problems of the steps `trace` chooses (FCLib files).
    pub fn with_trace(mut self, trace: Option<FcTrace>) -> MechRun {
        self.sim.set_capture_problem(trace.is_some());
        self.trace = trace;
        self
    }
    /// The trace, with the files it wrote.
    pub fn trace(&self) -> Option<&FcTrace> {
        self.trace.as_ref()
    }
    /// The exact decimal time of step `k` (`t0 + k h`).
    pub fn step_time(&self, k: u64) -> f64 {
        self.clock.time(k)
    }
}

impl Stepper for MechRun {
    fn total(&self) -> u64 {
        self.steps
    }
    fn steps_done(&self) -> u64 {
        self.k
    }
    fn done(&self) -> bool {
        self.stopped || self.k >= self.steps
    }
    fn time(&self) -> f64 {
        self.clock.time(self.k)
    }
    fn progress_stride(&self) -> u64 {
        64
    }
    fn columns(&self) -> Vec<String> {
        columns_of(&self.sim.model, self.control.as_ref(), self.energy, self.events.is_some())
    }
    fn contact_columns(&self) -> Option<Vec<String>> {
        Some(contact_header())
    }
    fn write_start(&mut self, out: &mut Sinks<'_>) -> Result<(), TargetError> {
        if self.start_control().is_err() {
            return Ok(()); // the controllers' failure at t0 shows at the first advance
        }
        row(&self.sim, self.clock.time(self.k), &mut self.row);
        self.control_row();
        if self.events.is_some() {
            self.row.push(0.0);
        }
        out.main.row(&self.row)
    }
    fn advance(&mut self, sum: &mut Summary) -> Result<Advanced, Stopped> {
        self.start_control()?;
        let rep = self.sim.step().map_err(|e| Stopped::Mechanics(Box::new(e)))?;
        if let Some(c) = &mut self.control {
            c.instant(self.k + 1, self.clock.time(self.k + 1), &mut self.sim)?;
        }
        if let Some(trace) = &mut self.trace {
            trace.after_step(&self.sim)?;
        }
        let mut nc = None;
        if let Some(s) = &rep.solver {
            sum.nonsmooth_steps += 1;
            sum.solver_iterations += s.iterations as u64;
            sum.max_residual = sum.max_residual.max(s.residual);
            if !s.status.converged() {
                nc = Some(NotConverged { what: "the friction-contact problem", residual: s.residual, count: 1 });
            }
        }
        if let Some(p) = rep.projection.filter(|p| !p.converged && nc.is_none()) {
            // the projection kept its last iterate (Siconos goes on likewise): a status, and
            // with --strict a stop
            let residual = p.violation.max(p.contact_violation);
            nc = Some(NotConverged { what: "the projection", residual, count: 1 });
        }
        let a = Advanced { t: rep.t, step: Some(self.k + 1), not_converged: nc };
        self.last = Some(rep);
        Ok(a)
    }
    fn complete(&mut self, _: &Advanced, keep: bool, out: &mut Sinks<'_>, sum: &mut Summary) -> Result<Flow, Stopped> {
        self.k += 1;
        sum.steps += 1;
        let n_active = self.last.as_ref().map_or(0, |r| r.n_active);
        if n_active > self.prev_active {
            sum.events += 1;
        }
        self.prev_active = n_active;
        let mut stop = None;
        if let Some(mon) = &mut self.events {
            self.hits = mon.after_step(&mut self.sim).map_err(|e| Stopped::Failed(Box::new(e)))?;
            let energy = self.energy_values();
            for hit in &self.hits {
                row(&self.sim, hit.t, &mut self.row);
                row_extras(self.control.as_ref(), energy, &mut self.row);
                let bodies = &self.sim.model.bodies;
                super::events::write_hit_rows(hit, &self.row, |i| bodies[i].kind != BodyKind::Static, out.main)?;
                sum.user_events += hit.transitions.len() as u64;
                if hit.stop {
                    stop = Some(hit.t);
                }
            }
        }
        if let (Some(s), Some(rep)) = (self.scene_sink.as_mut(), self.last.as_ref()) {
            s.record(&self.sim, rep)?;
        }
        if let Some(t) = stop {
            self.stopped = true;
            return Ok(Flow::Stop(t));
        }
        if keep {
            let t = self.clock.time(self.k);
            row(&self.sim, t, &mut self.row);
            self.control_row();
            if self.events.is_some() {
                self.row.push(0.0);
            }
            out.main.row(&self.row)?;
            if let Some(c) = out.contacts.as_deref_mut() {
                contact_rows(&self.sim, t, c, &mut self.row)?;
            }
        }
        Ok(Flow::Continue)
    }
    fn finish(&mut self, sum: &mut Summary) {
        if let Some(c) = &self.control {
            sum.actuations = c.manager.report().actuations;
        }
    }
    fn describe_failure(&self, stopped: &Stopped) -> Option<String> {
        match stopped {
            Stopped::Mechanics(e) => Some(named_error(e, &self.sim.model)),
            _ => None,
        }
    }
}
