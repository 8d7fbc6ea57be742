//! Event-driven simulation (Siconos `EventDriven` with `LsodarOSI`). [`EventDriven`] runs one
//! of two engines, chosen from the model: Lagrangian systems with unilateral contacts (this
//! module, below) or first-order linear complementarity systems (module `first_order`).
//!
//! **Lagrangian engine.**
//! Between events the smooth dynamics `q̇ = v`, `M v̇ = F + Jᵀ_{I2} λ` is integrated by the
//! LSODAR-class integrator of `saltus_numerics::ode`, the contacts of index set 2 held closed by
//! the acceleration-level problem. The integrator stops at
//! * time-discretisation events `t0 + k h` (answered by dense output, the step sequence is not
//!   shortened), and
//! * nonsmooth events found by root finding on `computeg` (gap `y_i` of open contacts falling
//!   through 0: impact; force `λ_i` of closed contacts falling through 0: detachment).
//!
//! At a nonsmooth event (`process_nonsmooth`): `updateIndexSet` builds I1 (contacts in I2, the
//! roots, and every contact with `y_i ≤ gap_tol`); if one of them approaches
//! (`ẏ_i < −velocity_tol`) the impact problem (module `impact`) gives the post-impact velocities;
//! the contacts of I1 with `|ẏ⁺_i| ≤ velocity_tol` are candidates for I2 and the acceleration
//! LCP (module `acceleration`) keeps those with `λ_i > 0`; the integrator restarts.
//!
//! Frictional contacts (`NewtonImpactFrictionNSL` of dimension 2) add a tangential mode, stick
//! or slip, held between events, with its own root function; the event LCPs then carry
//! Coulomb's law (modules `friction` and `contact_lcp`).

pub(crate) mod acceleration;
mod bilateral;
pub(crate) mod contact_lcp;
pub(crate) mod dynamics;
pub mod events;
mod facade;
pub(crate) mod first_order;
pub(crate) mod friction;
pub(crate) mod impact;
mod stepping;
mod writeback;

pub use facade::EventDriven;
pub use friction::TangentMode;
use stepping::{EdStepper, Stop};

use crate::model::event::{EventAction, UserEvent, UserEventHit};
use crate::model::nsds::{InterId, Nsds};
use crate::KernelError;
use dynamics::Dynamics;
pub use events::{EventKind, EventsManager};
use nalgebra::DVector;
use saltus_numerics::lcp::LcpSolver;
use saltus_numerics::ode::{Integrator, OdeOptions, OdeStats, OdeStop, RootTransition};
use saltus_numerics::SolveReport;

/// Options of [`EventDriven`].
#[derive(Debug, Clone, PartialEq)]
pub struct EventDrivenOptions {
    /// Spacing `h` of the time-discretisation (output) events `t0 + k h`.
    pub h: f64,
    /// Integrator options (default: LSODA, `rtol = 1e-12`, `atol = 1e-14`).
    pub ode: OdeOptions,
    /// Solver of the impact LCP (default Lemke).
    pub impact: LcpSolver,
    /// Solver of the acceleration LCP (default Lemke).
    pub acceleration: LcpSolver,
    /// Approach speed below which an impact uses `e = 0` and the contact becomes persistent
    /// (accumulation of impacts; default `1e-4`, in the units of `ẏ`).
    pub zeno_velocity: f64,
    /// Relative tolerance for merging a nonsmooth event with the next TD event (default 1e-12).
    pub merge_tol: f64,
    /// A contact with gap `y ≤ gap_tol` counts as closed at an event (Siconos `TOL_ED`; default 1e-10).
    pub gap_tol: f64,
    /// A closed contact with `|ẏ| ≤ velocity_tol` is a candidate for index set 2 (default 1e-10).
    pub velocity_tol: f64,
    /// Largest number of consecutive nonsmooth events between two TD events before
    /// [`KernelError::TooManyEvents`] (guards against chattering; default 100 000).
    pub max_events_between_td: u64,
    /// First-order systems: the mode after a switch is read from an implicit Euler step of
    /// length `δ = mode_probe · h` from the switching state (default 1e-6; see
    /// `first_order::mode`). It must be far below the time scales of the system.
    pub mode_probe: f64,
    /// Stopping test of the projection of bilateral constraints at every event: Simmath's
    /// `‖T h(q)‖ ≤ α` over the bilateral rows in declaration order (`None`, the default:
    /// `max |h_i(q)| ≤ 1e-13 max(1, ‖q‖∞)`, round-off).
    pub constraint_accuracy: Option<crate::ConstraintAccuracy>,
}

impl Default for EventDrivenOptions {
    fn default() -> Self {
        EventDrivenOptions {
            h: 1e-2,
            ode: OdeOptions::with_tol(1e-12, 1e-14),
            impact: LcpSolver::Lemke(Default::default()),
            acceleration: LcpSolver::Lemke(Default::default()),
            zeno_velocity: 1e-4,
            merge_tol: 1e-12,
            gap_tol: 1e-10,
            velocity_tol: 1e-10,
            max_events_between_td: 100_000,
            mode_probe: 1e-6,
            constraint_accuracy: None,
        }
    }
}

impl EventDrivenOptions {
    /// Checks ranges (the ODE options are checked against the state size in [`EventDriven::new`]).
    pub fn validate(&self) -> Result<(), KernelError> {
        let pos = |option: &'static str, x: f64, strict: bool| {
            if x.is_finite() && (x > 0.0 || (!strict && x == 0.0)) {
                Ok(())
            } else {
                Err(KernelError::InvalidOption {
                    option,
                    reason: format!("must be finite and {} 0, got {x}", if strict { ">" } else { ">=" }),
                })
            }
        };
        pos("h", self.h, true)?;
        pos("zeno_velocity", self.zeno_velocity, false)?;
        pos("merge_tol", self.merge_tol, false)?;
        pos("gap_tol", self.gap_tol, false)?;
        pos("velocity_tol", self.velocity_tol, false)?;
        pos("mode_probe", self.mode_probe, true)?;
        if self.max_events_between_td == 0 {
            return Err(KernelError::InvalidOption { option: "max_events_between_td", reason: "must be > 0".into() });
        }
        for (option, s) in [("impact", &self.impact), ("acceleration", &self.acceleration)] {
            s.validate().map_err(|e| KernelError::InvalidOption { option, reason: e.to_string() })?;
        }
        Ok(())
    }
}

/// What [`EventDriven::advance`] processed.
#[derive(Debug, Clone, PartialEq)]
pub struct EventReport {
    /// Time of the event.
    pub t: f64,
    /// Its kind (a nonsmooth event merged with a TD event is `NonSmooth`, with `td_index` set).
    pub kind: EventKind,
    /// Index `k` of the TD event processed (alone or merged), if any.
    pub td_index: Option<u64>,
    /// Nonsmooth events only: the velocities of each system before the impact (positions are
    /// continuous; the post-impact state is in the `Nsds`).
    pub pre_velocities: Option<Vec<DVector<f64>>>,
    /// Nonsmooth events of first-order systems only: `λ` of each interaction just before the
    /// mode switch (the old mode's; the new mode's is in the `Nsds`).
    pub pre_lambda: Option<Vec<DVector<f64>>>,
    /// Nonsmooth events of first-order systems only: `y` of each interaction just before the switch.
    pub pre_y: Option<Vec<DVector<f64>>>,
    /// Impulses `P_i` of the impact problem, per contact of I1 (empty without impact).
    pub impulses: Vec<(InterId, f64)>,
    /// Contacts whose impact used `e = 0` by the accumulation (Zeno) rule.
    pub zeno: Vec<InterId>,
    /// Number of contacts in index set 2 after the event.
    pub closed: usize,
    /// Report of the impact LCP, if solved.
    pub impact: Option<SolveReport>,
    /// Report of the acceleration LCP, if solved.
    pub acceleration: Option<SolveReport>,
    /// User events located at `t` (with the state before their handlers), if any.
    pub user: Option<UserEventHit>,
}

/// The Lagrangian engine of [`EventDriven`] (Siconos `EventDriven` with `LsodarOSI`).
pub(crate) struct LagrangianEd {
    opts: EventDrivenOptions,
    ode: Integrator<Dynamics>,
    pub(crate) events: EventsManager,
    started: bool,
    x: Vec<f64>,
    /// Impulse `Jᵀ P` of the last impact on all coordinates (zeroed at every event).
    p: Vec<f64>,
    /// Impulse per contact at the last event.
    impulse: Vec<f64>,
    /// Tangential impulse per contact at the last event (0 without friction).
    impulse_t: Vec<f64>,
    /// Contact force `λ(2)` per contact at the last event.
    lambda2: Vec<f64>,
    /// Tangential contact force per contact at the last event (0 without friction).
    lambda2_t: Vec<f64>,
    n_ns: u64,
    t_event: f64,
    ns_since_td: u64,
}

impl std::fmt::Debug for LagrangianEd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LagrangianEd").field("t", &self.t_event).field("next_td", &self.events.next_td_index()).finish()
    }
}

impl LagrangianEd {
    /// Holds the control input term `g` (a force, `dim v` entries) on system `ds` from the last
    /// processed event on, added to its forces until set again; the integrator restarts there
    /// when `g` changes (its history holds the old right-hand side).
    pub fn set_control_input(&mut self, ds: crate::DsId, g: &[f64]) -> Result<(), KernelError> {
        let (t, started) = (self.t_event, self.started);
        let Some(d) = self.ode.system_mut().ds.get_mut(ds.index()) else {
            return Err(KernelError::InvalidModel { what: format!("system {ds:?}"), reason: "no such system".into() });
        };
        crate::simulation::check_control_input(ds, g, d.n)?;
        if d.control.as_ref().is_some_and(|c| c.as_slice() == g) {
            return Ok(());
        }
        d.control = Some(DVector::from_column_slice(g));
        if started {
            self.ode.reinit(t, &self.x).map_err(ode_err(t))?;
        }
        Ok(())
    }
}

fn ode_err(t: f64) -> impl Fn(saltus_numerics::ode::OdeError) -> KernelError {
    move |source| KernelError::Ode { t, source }
}

impl LagrangianEd {
    /// Checks the model (Lagrangian systems, Lagrangian relations, `NewtonImpactNSL`; anything
    /// else is a typed error naming the system or interaction), with user events: their trigger functions are root functions of the
    /// integrator (after the contacts' ones), located to their window; see [`Self::advance`].
    /// The facade ([`EventDriven::with_events`]) has checked the options and the model's slots.
    pub fn with_events(nsds: &Nsds, opts: EventDrivenOptions, events: Vec<UserEvent>) -> Result<Self, KernelError> {
        for e in &events {
            e.validate(nsds)?;
        }
        let mut dynamics = Dynamics::new(nsds)?;
        if let Some(a) = &opts.constraint_accuracy {
            a.validate(dynamics.contacts.iter().filter(|c| c.bilateral).count())?;
        }
        dynamics.user = events;
        let n = dynamics.n;
        let nc = dynamics.contacts.len();
        let mut x = vec![0.0; dynamics.nq + n];
        Self::gather(nsds, &dynamics, &mut x);
        let t0 = nsds.t();
        let ode = Integrator::new(dynamics, t0, &x, opts.ode.clone()).map_err(ode_err(t0))?;
        let events = EventsManager::new(t0, opts.h, opts.merge_tol);
        Ok(LagrangianEd {
            opts,
            ode,
            events,
            started: false,
            x,
            p: vec![0.0; n],
            impulse: vec![0.0; nc],
            impulse_t: vec![0.0; nc],
            lambda2: vec![0.0; nc],
            lambda2_t: vec![0.0; nc],
            n_ns: 0,
            t_event: t0,
            ns_since_td: 0,
        })
    }

    fn gather(nsds: &Nsds, d: &Dynamics, x: &mut [f64]) {
        for (ds, m) in nsds.systems().iter().zip(&d.ds) {
            x[m.qoff..m.qoff + m.nq].copy_from_slice(ds.state().as_slice());
            if let Some(v) = ds.velocity() {
                x[d.nq + m.off..d.nq + m.off + m.n].copy_from_slice(v.as_slice());
            }
        }
    }

    /// The options.
    pub fn options(&self) -> &EventDrivenOptions {
        &self.opts
    }
    /// Continues the time-discretisation schedule `events` and the nonsmooth-event count of the
    /// engine this one replaces (a topology change between events).
    pub(crate) fn resume(&mut self, events: EventsManager, n_ns: u64) {
        self.events = events;
        self.n_ns = n_ns;
    }
    /// The held control input terms, by system (`None`: no term).
    pub(crate) fn controls(&self) -> Vec<Option<DVector<f64>>> {
        self.ode.system().ds.iter().map(|d| d.control.clone()).collect()
    }
    /// Time of the last processed event.
    pub fn t(&self) -> f64 {
        self.t_event
    }
    /// The user events (root functions after the contacts').
    pub fn user_events(&self) -> &[UserEvent] {
        &self.ode.system().user
    }
    /// Number of nonsmooth events processed.
    pub fn n_nonsmooth(&self) -> u64 {
        self.n_ns
    }
    /// Integrator counters.
    pub fn ode_stats(&self) -> OdeStats {
        self.ode.stats()
    }
    /// Whether interaction `id` is in index set 2 (closed, held by the acceleration problem).
    pub fn is_closed(&self, id: InterId) -> bool {
        self.ode.system().in_i2.get(id.index()).copied().unwrap_or(false)
    }
    /// Contact force `λ(2)` of interaction `id` at the last event (0 for open contacts).
    pub fn contact_force(&self, id: InterId) -> f64 {
        self.lambda2.get(id.index()).copied().unwrap_or(0.0)
    }
    /// Impulse `λ(1)` of interaction `id` at the last event (0 without impact).
    pub fn impulse(&self, id: InterId) -> f64 {
        self.impulse.get(id.index()).copied().unwrap_or(0.0)
    }
    /// Tangential mode of frictional contact `id` if it is closed (index set 2).
    pub fn tangent_mode(&self, id: InterId) -> Option<TangentMode> {
        let d = self.ode.system();
        let i = id.index();
        (d.in_i2.get(i) == Some(&true) && d.contacts[i].friction.is_some()).then(|| d.mode[i])
    }

    /// Processes the next event (Siconos `advanceToEvent` + `processEvents`): integrates to the
    /// next TD event or the first root before it, handles an impact/detachment, restarts the
    /// integrator and writes the new state into `nsds`. On error `nsds` keeps the state of the
    /// last processed event.
    ///
    /// User events found at the same time are reported in [`EventReport::user`]; their resets
    /// act on the located state (the right end of the window), then the index sets are rebuilt
    /// as at a nonsmooth event and the integrator restarts. Record and stop events leave the
    /// state and the integrator's steps unchanged ([`EventKind::User`]); stopping is the
    /// caller's decision ([`UserEventHit::stop`]).
    pub fn advance(&mut self, nsds: &mut Nsds) -> Result<EventReport, KernelError> {
        if !self.started {
            let t0 = self.t_event;
            let mut x = self.x.clone();
            self.process_nonsmooth(t0, &mut x, &[], &[])?;
            self.ode.reinit(t0, &x).map_err(ode_err(t0))?;
            self.x = x;
            self.started = true;
        }
        let Stop { t, t_low, which, transitions, td } = self.next_stop()?;
        let closed = |s: &Self| s.ode.system().in_i2.iter().filter(|&&b| b).count();
        let Some(_) = which else {
            self.p.fill(0.0);
            self.impulse.fill(0.0);
            self.impulse_t.fill(0.0);
            if self.has_bilateral() {
                let mut x = self.x.clone();
                self.project(t, &mut x)?;
                self.ode.reinit(t, &x).map_err(ode_err(t))?;
                self.x = x;
            }
            self.write_back(nsds, t)?;
            let mut rep = EventReport::bare(t, EventKind::TimeDiscretisation, td);
            rep.closed = closed(self);
            return Ok(rep);
        };
        let nc = self.ode.system().contacts.len();
        let which: Vec<usize> = transitions.iter().filter(|r| r.index < nc).map(|r| r.index).collect();
        let frictional = &self.ode.system().frictional;
        let which_t: Vec<usize> = transitions
            .iter()
            .filter_map(|r| r.index.checked_sub(nc).and_then(|k| frictional.get(k).copied()))
            .collect();
        let mut x = self.ode.y().to_vec();
        let pre = self.split_velocities(&x);
        let user = self.handle_user(t, t_low, &transitions, &mut x)?;
        let contacts_changed = !which.is_empty() || !which_t.is_empty();
        if !contacts_changed && !user.as_ref().is_some_and(|u| u.reset) {
            // record or stop only: the state is unchanged and the integration goes on
            self.x.copy_from_slice(&x);
            self.p.fill(0.0);
            self.impulse.fill(0.0);
            self.impulse_t.fill(0.0);
            self.write_back(nsds, t)?;
            let mut rep = EventReport::bare(t, EventKind::User, td);
            rep.pre_velocities = Some(pre);
            rep.closed = closed(self);
            rep.user = user;
            return Ok(rep);
        }
        // contacts changed, or a reset moved the state: the index sets are rebuilt as at the start
        let mut rep = self.process_nonsmooth(t, &mut x, &which, &which_t)?;
        self.ode.reinit(t, &x).map_err(ode_err(t))?;
        self.x = x;
        rep.td_index = td;
        if !contacts_changed {
            rep.kind = EventKind::User;
        } else {
            self.n_ns += 1;
        }
        rep.user = user;
        self.write_back(nsds, t)?;
        rep.pre_velocities = Some(pre);
        Ok(rep)
    }

    /// The user events among `transitions` (root indices `nc + k`, after the contacts'): see
    /// [`user_hit`].
    fn handle_user(
        &self,
        t: f64,
        t_low: f64,
        transitions: &[RootTransition],
        x: &mut [f64],
    ) -> Result<Option<UserEventHit>, KernelError> {
        let d = self.ode.system();
        let first = d.contacts.len() + d.frictional.len();
        let states = (
            |k: usize, x: &[f64], s: &mut Vec<f64>| d.event_state(k, x, s),
            |k: usize, s: &[f64], x: &mut [f64]| d.scatter_event_state(k, s, x),
        );
        user_hit(&d.user, (first, d.ds.len()), (t, t_low), transitions, x, states)
    }

    /// `step_until` with the integrator's error mapped to [`KernelError::Ode`] at the time reached.
    fn step_ode(&mut self, t_out: f64) -> Result<OdeStop, KernelError> {
        use saltus_numerics::ode::OdeError as E;
        let t_last = self.ode.t();
        self.ode.system().last_failure.borrow_mut().take();
        let last_failure = |ode: &Integrator<Dynamics>| ode.system().last_failure.borrow_mut().take();
        match self.ode.step_until(t_out) {
            Ok(stop) => Ok(stop),
            Err(e) => {
                let t = match &e {
                    E::StepSizeTooSmall { t, .. }
                    | E::TooManySteps { t, .. }
                    | E::ErrorTestFailures { t, .. }
                    | E::ConvergenceFailures { t, .. }
                    | E::UserFn { t, .. }
                    | E::NonFinite { t, .. } => *t,
                    _ => t_last,
                };
                // a user function that kept failing is the cause: name it, not the step size
                let gave_up = matches!(e, E::StepSizeTooSmall { .. } | E::ConvergenceFailures { .. });
                match last_failure(&self.ode) {
                    Some((tf, what)) if gave_up => Err(KernelError::UserFn {
                        t: tf,
                        what,
                        owner: None,
                        source: crate::model::userfn::UserFnError::new(format!(
                            "the integrator could not step past this failure ({e})"
                        )),
                    }),
                    _ => Err(KernelError::Ode { t, source: e }),
                }
            }
        }
    }
}

crate::simulation::event_driven::stepping::impl_ed_stepper!(LagrangianEd);

/// The user events among `transitions` (root indices `first + k` for event `k` of `events`, the
/// model having `n_systems` systems): their hit, with every system's event state before the
/// handlers (`states.0(k, x, s)`), and the resets applied to `x` in index order through the
/// event state (`states.1(k, s, x)` writes it back). Shared by both engines.
pub(crate) fn user_hit(
    events: &[UserEvent],
    (first, n_systems): (usize, usize),
    (t, t_low): (f64, f64),
    transitions: &[RootTransition],
    x: &mut [f64],
    states: (impl Fn(usize, &[f64], &mut Vec<f64>), impl Fn(usize, &[f64], &mut [f64])),
) -> Result<Option<UserEventHit>, KernelError> {
    let (gather, scatter) = states;
    let user: Vec<RootTransition> = transitions
        .iter()
        .filter(|r| r.index >= first)
        .map(|r| RootTransition { index: r.index - first, ..*r })
        .collect();
    if user.is_empty() {
        return Ok(None);
    }
    let states: Vec<Vec<f64>> = (0..n_systems)
        .map(|k| {
            let mut s = Vec::new();
            gather(k, x, &mut s);
            s
        })
        .collect();
    let (mut stop, mut reset) = (false, false);
    let mut s = Vec::new();
    for tr in &user {
        let e = &events[tr.index];
        match e.action {
            EventAction::Record => {}
            EventAction::Stop => stop = true,
            EventAction::Reset(_) => {
                gather(e.ds.index(), x, &mut s);
                reset |= e.apply_reset(t, &mut s)?;
                scatter(e.ds.index(), &s, x);
            }
        }
    }
    Ok(Some(UserEventHit { t, t_low, transitions: user, states, stop, reset }))
}
