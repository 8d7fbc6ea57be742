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
    /// User events only ([`crate::UserEvent`]; no contact changed).
    User,
}

/// The queue of events. TD events are generated on demand from their index `k`; NS events are
/// found by the integrator's root finding on the gap functions and handed to
/// [`EventsManager::coincides`] to decide whether they absorb the next TD event.
///
/// Order of processing: when an NS event at `t_ns` satisfies
/// `|t_td − t_ns| ≤ merge_tol·max(1, |t_td|)`, the two are one event: the impact is processed
/// at `t_ns` and the TD event `k` is consumed by the same report (its row is the post-impact
/// state). Otherwise events are processed in time order.
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

    /// Whether an NS event at `t ≤ t_td` (found before the next TD event) coincides with it
    /// (the [`super::EventDriven`] looks `merge_tol` past each TD event for the other side).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn td_times_from_k_without_drift() {
        let mut ev = EventsManager::new(0.0, 0.1, 1e-12);
        let mut acc = 0.0f64;
        for _ in 0..1000 {
            acc += 0.1;
            ev.consume_td();
        }
        assert_eq!(ev.next_td_index(), 1001);
        assert_eq!(ev.next_td_time(), 1001.0 * 0.1);
        assert!((acc - 100.0).abs() > 1e-13, "summing h drifts ({acc}); t0 + k h does not");
        assert!((ev.td_time(1000) - 100.0).abs() <= 1e-13);
    }

    #[test]
    fn merge_window() {
        let ev = EventsManager::new(1.0, 0.5, 1e-10);
        assert!(ev.coincides(1.5 - 1e-11));
        assert!(!ev.coincides(1.5 - 1e-9));
        let ev = EventsManager::new(0.0, 0.5, 0.0);
        assert!(ev.coincides(0.5) && !ev.coincides(0.5 - 1e-16));
    }
}
