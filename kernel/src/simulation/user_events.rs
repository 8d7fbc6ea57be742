//! User events in time-stepping runs: [`EventMonitor`] watches the trigger functions of
//! [`UserEvent`]s between two steps and locates their transitions on the step's linear
//! interpolant `s(τ) = s_k + (τ − t_k)/(t_{k+1} − t_k) (s_{k+1} − s_k)`, with the same
//! transition rules and window as the event-driven root finder (`numerics::ode::RootFinder`,
//! `events-accuracy-projection.md` §3–4).
//!
//! A time-stepping scheme has no better interpolant: positions of Moreau–Jean are piecewise
//! linear in time over a step, velocities jump at impacts. With constant forces between impacts
//! (`v_{k+1} = v_k + h M⁻¹ F`) the interpolant of `v` is exact, so an apex `v = 0` is located to
//! roundoff. A reset acts on the state at `t_{k+1}` (the end of the step holding the event): the
//! step is not redone, so the trajectory is first-order accurate in `h` at resets.

use crate::model::event::{EventAction, EventStates, UserEvent, UserEventHit};
use crate::KernelError;
use saltus_numerics::ode::RootFinder;

/// Watches user events between the steps of a time-stepping simulation: of a kernel model
/// ([`crate::Nsds`]) or of any other set of systems that implements [`EventStates`] (the rigid
/// bodies of a mechanics scene).
#[derive(Debug)]
pub struct EventMonitor {
    events: Vec<UserEvent>,
    finder: RootFinder,
    t_prev: f64,
    prev: Vec<Vec<f64>>,
    cur: Vec<Vec<f64>>,
    tmp: Vec<Vec<f64>>,
    g: Vec<f64>,
    stopped: bool,
}

fn user_fn(t: f64, name: &str, source: crate::UserFnError) -> KernelError {
    KernelError::UserFn { t, owner: None, what: format!("event function of `{name}`"), source }
}

/// `g_i(t, s)` of every event for the system states `states`.
fn eval_all(events: &[UserEvent], t: f64, states: &[Vec<f64>], g: &mut [f64]) -> Result<(), KernelError> {
    for (gi, e) in g.iter_mut().zip(events) {
        *gi = e.value(t, &states[e.ds.index()]).map_err(|s| user_fn(t, &e.name, s))?;
    }
    Ok(())
}

impl EventMonitor {
    /// Checks the events against the model and records the trigger signs at the current state.
    pub fn new(systems: &impl EventStates, events: Vec<UserEvent>) -> Result<Self, KernelError> {
        for e in &events {
            e.validate(systems)?;
        }
        let states: Vec<Vec<f64>> = (0..systems.n_event_systems())
            .map(|i| {
                let mut s = Vec::with_capacity(systems.event_state_len(i));
                systems.gather_event_state(i, &mut s);
                s
            })
            .collect();
        let t = systems.event_time();
        let mut g = vec![0.0; events.len()];
        eval_all(&events, t, &states, &mut g)?;
        let mut finder = RootFinder::with_kinds(events.iter().map(|e| e.kind).collect(), false);
        finder.start_with(t, &g);
        Ok(EventMonitor {
            events,
            finder,
            t_prev: t,
            cur: states.clone(),
            tmp: states.clone(),
            prev: states,
            g,
            stopped: false,
        })
    }

    /// The events watched.
    pub fn events(&self) -> &[UserEvent] {
        &self.events
    }

    /// Whether a [`EventAction::Stop`] event was found.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// To call after each accepted step (`systems` at `t_{k+1}`): locates the transitions in
    /// `(t_k, t_{k+1}]` in time order, applies resets to the state at `t_{k+1}` (in `systems`),
    /// and returns the hits. After a reset or a stop the remaining part of the step is not
    /// searched (the interpolant no longer describes the trajectory).
    pub fn after_step(&mut self, systems: &mut impl EventStates) -> Result<Vec<UserEventHit>, KernelError> {
        let t = systems.event_time();
        for (i, c) in self.cur.iter_mut().enumerate() {
            systems.gather_event_state(i, c);
        }
        let mut hits = Vec::new();
        if self.events.is_empty() || self.stopped {
            self.t_prev = t;
            std::mem::swap(&mut self.prev, &mut self.cur);
            return Ok(hits);
        }
        let (t0, h) = (self.t_prev, t - self.t_prev);
        loop {
            let (events, prev, cur, tmp) = (&self.events, &self.prev, &self.cur, &mut self.tmp);
            let interp = |tau: f64, tmp: &mut Vec<Vec<f64>>| {
                let w = if h > 0.0 { ((tau - t0) / h).clamp(0.0, 1.0) } else { 1.0 };
                for ((o, a), b) in tmp.iter_mut().zip(prev).zip(cur) {
                    for ((o, a), b) in o.iter_mut().zip(a).zip(b) {
                        *o = a + w * (b - a);
                    }
                }
            };
            let found = self.finder.search_with(t, h, |tau, g| {
                interp(tau, tmp);
                eval_all(events, tau, tmp, g)
            })?;
            let Some(hit) = found else { break };
            interp(hit.t, tmp);
            let states = tmp.clone();
            let mut stop = false;
            let mut reset = false;
            let mut touched = Vec::new();
            for tr in &hit.transitions {
                let e = &self.events[tr.index];
                match &e.action {
                    EventAction::Record => {}
                    EventAction::Stop => stop = true,
                    EventAction::Reset(_) => {
                        let s = &mut self.cur[e.ds.index()];
                        if e.apply_reset(t, s)? {
                            reset = true;
                            touched.push(e.ds.index());
                        }
                    }
                }
            }
            hits.push(UserEventHit { t: hit.t, t_low: hit.t_low, transitions: hit.transitions, states, stop, reset });
            if reset {
                for i in touched {
                    systems.write_event_state(i, &self.cur[i], t)?;
                    systems.gather_event_state(i, &mut self.cur[i]); // as the system keeps it
                }
                eval_all(&self.events, t, &self.cur, &mut self.g)?;
                self.finder.start_with(t, &self.g);
            }
            if stop {
                self.stopped = true;
            }
            if reset || stop {
                break;
            }
        }
        self.t_prev = t;
        std::mem::swap(&mut self.prev, &mut self.cur);
        Ok(hits)
    }
}
