//! The events manager (Siconos `EventsManager`): time-discretisation (TD) events at
//! `t_k = t0 + k h`, computed from the integer `k` (no accumulated drift), and the rule that
//! merges a nonsmooth (NS) event with a coincident TD event.

/// The kind of a processed event (Siconos `TD_EVENT` = 1, `NS_EVENT` = 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A time-discretisation (output) event at `t0 + k h`.
    TimeDiscretisation,
    /// A nonsmooth event: an impact, a contact closing or a contact detaching.
    NonSmooth,
}

/// The queue of events. TD events are generated on demand from their index `k`; NS events are
/// found by the integrator's root finding on the gap functions and handed to
/// [`EventsManager::coincides`] to decide whether they absorb the next TD event.
///
/// Order of processing: when an NS event at `t_ns` satisfies `t_td − t_ns ≤ merge_tol·max(1, |t_td|)`
/// (it is found before the TD event `t_td` and within the tolerance), the two are one event: the
/// impact is processed first, at `t_ns`, and the TD event `k` is consumed by the same report.
#[derive(Debug, Clone)]
pub struct EventsManager {
    t0: f64,
    h: f64,
    k: u64,
    merge_tol: f64,
}

impl EventsManager {
    /// Events at `t0 + k h`, `k = 1, 2, …` (the initial time is not an event).
    pub fn new(t0: f64, h: f64, merge_tol: f64) -> Self {
        EventsManager { t0, h, k: 1, merge_tol }
    }

    /// Index `k` of the next TD event.
    pub fn next_td_index(&self) -> u64 {
        self.k
    }

    /// Time of the next TD event, `t0 + k h` (from `k`, so without drift).
    pub fn next_td_time(&self) -> f64 {
        self.td_time(self.k)
    }

    /// Time of TD event `k`.
    pub fn td_time(&self, k: u64) -> f64 {
        self.t0 + k as f64 * self.h
    }

    /// Whether an NS event at `t` (found before the next TD event) coincides with it.
    pub fn coincides(&self, t: f64) -> bool {
        let ttd = self.next_td_time();
        ttd - t <= self.merge_tol * ttd.abs().max(1.0)
    }

    /// Marks the next TD event as processed and returns its index.
    pub fn consume_td(&mut self) -> u64 {
        let k = self.k;
        self.k += 1;
        k
    }
}
