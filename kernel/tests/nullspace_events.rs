//! User events on null-space runs, checked against the closed form of the cartesian pendulum:
//! released from the horizontal, struck back at the bottom by a paddle (`q̇⁺ = −e q̇⁻`), it swings
//! up to `y = −l cos θₙ` with `1 − cos θₙ = e²ⁿ` and returns after twice the quarter period of
//! that amplitude, `τ(θ) = K(sin θ/2) √(l/g)`.

#[path = "../examples/nullspace/models.rs"]
mod models;

use nalgebra::DVector;
use saltus_kernel::model::event::{RootDirection, RootKind};
use saltus_kernel::simulation::nullspace::{NullSpaceError, NullSpaceOptions, NullSpaceSimulation};
use saltus_kernel::{DsId, EventAction, EventFunction, UserEvent, UserEventHit};
use std::f64::consts::FRAC_PI_2;
use std::sync::Arc;

fn tight() -> NullSpaceOptions {
    NullSpaceOptions { ode: saltus_kernel::OdeOptions::with_tol(1e-11, 1e-13), ..Default::default() }
}

/// The complete elliptic integral of the first kind `K(k) = π / (2 AGM(1, √(1 − k²)))`.
fn ellip_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt()); // quadratic convergence: 6 turns reach round-off
    }
    std::f64::consts::PI / (2.0 * a)
}

/// Quarter period of the pendulum of length `l` at amplitude `theta`.
fn quarter(l: f64, theta: f64) -> f64 {
    ellip_k((0.5 * theta).sin()) * (l / models::G).sqrt()
}

fn linear(name: &str, a: [f64; 4], direction: RootDirection, action: EventAction) -> UserEvent {
    UserEvent {
        name: name.into(),
        ds: DsId(0),
        function: EventFunction::Linear { a: DVector::from_row_slice(&a), b: 0.0 },
        kind: RootKind { direction, ..Default::default() },
        action,
    }
}

/// `q̇⁺ = −e q̇⁻` at `x = 0` (falling), and the apex `ẋ = 0` (falling) recorded.
fn paddle(e: f64) -> Vec<UserEvent> {
    let strike = EventAction::Reset(Arc::new(move |_, s: &[f64], out: &mut [f64]| {
        out[2] = -e * s[2];
        out[3] = -e * s[3];
        Ok(())
    }));
    vec![
        linear("paddle", [1.0, 0.0, 0.0, 0.0], RootDirection::Falling, strike),
        linear("apex", [0.0, 0.0, 1.0, 0.0], RootDirection::Falling, EventAction::Record),
    ]
}

fn run(sim: &mut NullSpaceSimulation, t_end: f64, h: f64) -> Vec<UserEventHit> {
    let steps = (t_end / h).round() as usize;
    let mut hits = Vec::new();
    for k in 1..=steps {
        hits.extend(sim.advance_to(k as f64 * h).unwrap());
    }
    hits
}

#[test]
fn paddle_resets_and_apexes_follow_the_closed_form() {
    let (l, e) = (1.0, 0.8);
    let mut sim =
        NullSpaceSimulation::with_events(models::pendulum(l), (0.0, &[l, 0.0], &[0.0, 0.0]), tight(), paddle(e))
            .unwrap();
    let t_end = 5.0;
    let hits = run(&mut sim, t_end, 0.01);
    // closed form: strike n at t_n, apex n at t_n + τ(θ_n), strike n + 1 at t_n + 2 τ(θ_n)
    let mut expected = Vec::new(); // (event index, time, y)
    let (mut t, mut energy_factor) = (quarter(l, FRAC_PI_2), 1.0);
    while t < t_end {
        expected.push((0, t, -l));
        energy_factor *= e * e;
        let theta = (1.0 - energy_factor).acos();
        let tq = quarter(l, theta);
        if t + tq < t_end {
            expected.push((1, t + tq, -l * theta.cos()));
        }
        t += 2.0 * tq;
    }
    assert_eq!(hits.len(), expected.len(), "{hits:?}");
    let (mut max_t, mut max_y, mut max_c) = (0.0f64, 0.0f64, 0.0f64);
    for (hit, &(index, t, y)) in hits.iter().zip(&expected) {
        assert_eq!(hit.transitions.len(), 1);
        assert_eq!(hit.transitions[0].index, index);
        assert_eq!(hit.reset, index == 0);
        assert!(!hit.stop);
        let s = &hit.states[0];
        max_t = max_t.max((hit.t - t).abs());
        max_y = max_y.max((s[1] - y).abs());
        max_c = max_c.max(((s[0] * s[0] + s[1] * s[1]).sqrt() - l).abs());
        // the state before the handler: moving left at the bottom, at rest (ẋ = 0) at the apex
        if index == 0 {
            assert!(s[0].abs() <= 1e-10 && s[2] < 0.0, "{s:?}");
        } else {
            assert!(s[2].abs() <= 1e-8 && s[0] > 0.0, "{s:?}");
        }
    }
    eprintln!("paddle: {} hits, |t − closed form| {max_t:e}, |y − closed form| {max_y:e}, rod {max_c:e}", hits.len());
    assert!(expected.len() >= 8, "{expected:?}");
    assert!(max_t <= 1e-8, "{max_t:e}");
    assert!(max_y <= 1e-8, "{max_y:e}");
    assert!(max_c <= 1e-9, "{max_c:e}");
    // energy after the run: e^(2 n) of the initial (E = ½|v|² + g y, zero at the bottom + g l)
    let strikes = expected.iter().filter(|x| x.0 == 0).count() as i32;
    let (q, v) = (sim.q().to_vec(), sim.velocity().unwrap());
    let energy = 0.5 * (v[0] * v[0] + v[1] * v[1]) + models::G * (q[1] + l);
    let exact = models::G * l * e.powi(2 * strikes);
    assert!((energy - exact).abs() <= 1e-8 * models::G * l, "{energy} vs {exact}");
}

/// A stop returns at the event, before the output time; the next call goes on from there, and a
/// record-only event leaves the trajectory as without events.
#[test]
fn stop_returns_at_the_event_and_records_change_nothing() {
    let l = 1.0;
    let bottom = vec![linear("bottom", [1.0, 0.0, 0.0, 0.0], RootDirection::Falling, EventAction::Stop)];
    let mut sim =
        NullSpaceSimulation::with_events(models::pendulum(l), (0.0, &[l, 0.0], &[0.0, 0.0]), tight(), bottom).unwrap();
    let hits = sim.advance_to(1.0).unwrap();
    let t_bottom = quarter(l, FRAC_PI_2);
    assert_eq!(hits.len(), 1);
    assert!(hits[0].stop);
    assert!((sim.t() - t_bottom).abs() <= 1e-8 && sim.t() == hits[0].t, "{} vs {t_bottom}", sim.t());
    assert!(sim.q()[0].abs() <= 1e-9 && (sim.q()[1] + l).abs() <= 1e-9, "{:?}", sim.q());
    assert!(sim.advance_to(1.0).unwrap().is_empty());
    assert_eq!(sim.t(), 1.0);

    let record = vec![linear("bottom", [1.0, 0.0, 0.0, 0.0], RootDirection::Both, EventAction::Record)];
    let mut with =
        NullSpaceSimulation::with_events(models::pendulum(l), (0.0, &[l, 0.0], &[0.0, 0.0]), tight(), record).unwrap();
    let mut without = NullSpaceSimulation::new(models::pendulum(l), 0.0, &[l, 0.0], &[0.0, 0.0], tight()).unwrap();
    let hits = run(&mut with, 3.0, 0.05);
    run(&mut without, 3.0, 0.05);
    // bottom passages at τ, 3τ, 5τ of the full swing
    let times: Vec<f64> = hits.iter().map(|h| h.t).collect();
    assert_eq!(times.len(), 3, "{times:?}");
    for (k, t) in times.iter().enumerate() {
        assert!((t - (2 * k + 1) as f64 * t_bottom).abs() <= 1e-8, "{times:?}");
    }
    // the integrator is not restarted at a record: the same steps, the same bits
    assert_eq!((with.q(), with.u()), (without.q(), without.u()));
}

#[test]
fn events_are_checked_against_the_state() {
    let short = UserEvent {
        function: EventFunction::Linear { a: DVector::from_row_slice(&[1.0, 0.0]), b: 0.0 },
        ..linear("short", [0.0; 4], RootDirection::Both, EventAction::Record)
    };
    let err =
        NullSpaceSimulation::with_events(models::pendulum(1.0), (0.0, &[1.0, 0.0], &[0.0, 0.0]), tight(), vec![short])
            .unwrap_err();
    assert!(matches!(&err, NullSpaceError::InvalidOption { option: "event", .. }), "{err}");
    assert!(err.to_string().contains("2 coefficients for a state of 4 entries (q then v)"), "{err}");
    let other = UserEvent { ds: DsId(1), ..linear("other", [0.0; 4], RootDirection::Both, EventAction::Record) };
    let err =
        NullSpaceSimulation::with_events(models::pendulum(1.0), (0.0, &[1.0, 0.0], &[0.0, 0.0]), tight(), vec![other])
            .unwrap_err();
    assert!(err.to_string().contains("unknown system"), "{err}");
    // a reset that writes a non-finite state is an error at the event's time
    let bad = linear(
        "bad",
        [1.0, 0.0, 0.0, 0.0],
        RootDirection::Falling,
        EventAction::Reset(Arc::new(|_, _, out: &mut [f64]| {
            out[2] = f64::NAN;
            Ok(())
        })),
    );
    let mut sim =
        NullSpaceSimulation::with_events(models::pendulum(1.0), (0.0, &[1.0, 0.0], &[0.0, 0.0]), tight(), vec![bad])
            .unwrap();
    let err = sim.advance_to(1.0).unwrap_err();
    assert!(matches!(err, NullSpaceError::UserFn { what: "user event", .. }), "{err}");
    assert!(sim.q().iter().all(|x| x.is_finite()));
}
