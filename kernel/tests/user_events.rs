//! User events (`events-accuracy-projection.md` §3–4) against analytic event times: a ball's
//! apex `v = 0` at `t = v0/g`, a height crossing, a pendulum's crossings of θ = 0 at odd
//! multiples of `T/4` (elliptic integral), in event-driven and in time-stepping runs; resets,
//! stops, windows and declared directions.

use nalgebra::{dmatrix, dvector, DVector};
use saltus_kernel::model::event::{RootDirection, RootKind};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::{
    presets, DsId, EventAction, EventDriven, EventDrivenOptions, EventFunction, EventKind, EventMonitor, ForceFn,
    LagrangianDs, Mass, Nsds, Osi, Osnsp, TimeStepping, UserEvent, UserEventHit,
};
use std::sync::Arc;

const G: f64 = 9.81;

/// A unit mass at height `q0` with velocity `v0` above the ground `q ≥ 0` (e = 0.5).
fn ball(q0: f64, v0: f64) -> Nsds {
    presets::lagrangian_contact(dmatrix![1.0], dvector![q0], dvector![v0], dmatrix![1.0], None, 0.5, Some(dvector![-G]))
        .expect("valid model")
        .0
}

fn event(name: &str, a: &[f64], b: f64, direction: RootDirection, action: EventAction) -> UserEvent {
    UserEvent {
        name: name.into(),
        ds: DsId(0),
        function: EventFunction::Linear { a: DVector::from_column_slice(a), b },
        kind: RootKind { direction, ..Default::default() },
        action,
    }
}

/// Runs event driven to `until`; returns the user hits.
fn run_ed(nsds: &mut Nsds, events: Vec<UserEvent>, until: f64) -> Vec<UserEventHit> {
    let mut sim = EventDriven::with_events(nsds, EventDrivenOptions { h: 0.01, ..Default::default() }, events).unwrap();
    let mut hits = Vec::new();
    sim.run(nsds, until, &mut |_, rep| {
        if let Some(u) = &rep.user {
            hits.push(u.clone());
        }
    })
    .unwrap();
    hits
}

#[test]
fn ed_apex_of_a_thrown_ball_is_at_v0_over_g() {
    let (q0, v0) = (1.0, 2.0);
    let mut nsds = ball(q0, v0);
    let apex = event("apex", &[0.0, 1.0], 0.0, RootDirection::Falling, EventAction::Record);
    let hits = run_ed(&mut nsds, vec![apex], 0.4);
    assert_eq!(hits.len(), 1, "{hits:?}");
    let h = &hits[0];
    let t_star = v0 / G;
    assert!((h.t - t_star).abs() < 1e-12, "apex at {} vs {t_star}", h.t);
    assert!(h.t_low < h.t && h.t - h.t_low < 1e-13);
    let zmax = q0 + v0 * v0 / (2.0 * G);
    assert!((h.states[0][0] - zmax).abs() < 1e-12 && h.states[0][1].abs() < 1e-10, "{:?}", h.states);
    assert_eq!((h.transitions[0].from, h.transitions[0].to), (1, -1));
    assert!(!h.stop && !h.reset);
    // a rising-only trigger on the same function never fires (v only decreases before the impact)
    let mut nsds = ball(q0, v0);
    let up = event("up", &[0.0, 1.0], 0.0, RootDirection::Rising, EventAction::Record);
    assert!(run_ed(&mut nsds, vec![up], 0.5).is_empty());
}

#[test]
fn ed_reset_kicks_the_ball_and_the_next_apex_follows() {
    let (q0, v0, kick) = (1.0, 2.0, 3.0);
    let mut nsds = ball(q0, v0);
    // at the apex v := kick: the ball rises again, next apex kick/g later
    let reset = EventAction::Reset(Arc::new(move |_t, _s, out: &mut [f64]| {
        out[1] = kick;
        Ok(())
    }));
    let apex = event("apex", &[0.0, 1.0], 0.0, RootDirection::Falling, reset);
    let mut sim =
        EventDriven::with_events(&nsds, EventDrivenOptions { h: 0.01, ..Default::default() }, vec![apex]).unwrap();
    let mut hits = Vec::new();
    sim.run(&mut nsds, v0 / G + 1.5 * kick / G, &mut |nsds, rep| {
        if let Some(u) = &rep.user {
            assert_eq!(rep.kind, EventKind::User);
            assert!(u.reset);
            assert_eq!(nsds.systems()[0].velocity().unwrap()[0], kick, "post-reset state in the model");
            hits.push(u.clone());
        }
    })
    .unwrap();
    assert_eq!(hits.len(), 2, "{hits:?}");
    let t1 = v0 / G;
    let t2 = t1 + kick / G;
    assert!((hits[0].t - t1).abs() < 1e-12 && (hits[1].t - t2).abs() < 1e-11, "{} {}", hits[0].t, hits[1].t);
    let z2 = q0 + v0 * v0 / (2.0 * G) + kick * kick / (2.0 * G);
    assert!((hits[1].states[0][0] - z2).abs() < 1e-10);
}

#[test]
fn ed_stop_at_a_height_crossing_and_window() {
    let (q0, v0, z) = (1.0, 2.0, 0.5);
    // q(t) = z on the way down: q0 + v0 t − g t²/2 = z
    let t_star = (v0 + (v0 * v0 + 2.0 * G * (q0 - z)).sqrt()) / G;
    let mut nsds = ball(q0, v0);
    let mut low = event("low", &[1.0, 0.0], -z, RootDirection::Falling, EventAction::Stop);
    low.kind.window = Some(1e-3);
    let mut sim =
        EventDriven::with_events(&nsds, EventDrivenOptions { h: 0.01, ..Default::default() }, vec![low]).unwrap();
    let mut last = None;
    let n = sim
        .run(&mut nsds, 2.0, &mut |_, rep| {
            if let Some(u) = &rep.user {
                last = Some(u.clone());
            }
        })
        .unwrap();
    let h = last.expect("the crossing is found");
    assert!(h.stop);
    assert!(h.t_low < t_star && t_star <= h.t && h.t - h.t_low <= 1e-3, "({}, {}] vs {t_star}", h.t_low, h.t);
    assert!(nsds.t() < 0.7 && (nsds.t() - h.t).abs() < 1e-15, "the run stopped at the event: {}", nsds.t());
    assert!(n < 100);
}

/// A pendulum (θ'' = −g/l sin θ) released at rest from θ0.
fn pendulum(th0: f64, l: f64) -> Nsds {
    let f_int = ForceFn::new(
        move |_, q, _, out| {
            out[0] = G * l * q[0].sin();
            Ok(())
        },
        move |_, q, _, j| {
            j[(0, 0)] = G * l * q[0].cos();
            Ok(())
        },
        |_, _, _, _| Ok(()),
    );
    let ds = LagrangianDs::new(dvector![th0], dvector![0.0], Mass::Constant(dmatrix![l * l])).with_f_int(f_int);
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("pendulum", ds).unwrap();
    nsds
}

/// `T/4 = sqrt(l/g) K(sin(θ0/2))`, K by the arithmetic–geometric mean.
fn quarter_period(th0: f64, l: f64) -> f64 {
    let k = (th0 / 2.0).sin();
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..10 {
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    (l / G).sqrt() * std::f64::consts::PI / (2.0 * a)
}

#[test]
fn ed_pendulum_crossings_from_a_function_both_directions() {
    let (th0, l) = (1.2, 0.8);
    let quarter = quarter_period(th0, l);
    let mut nsds = pendulum(th0, l);
    // g = sin θ through a closure (the plugin path): crossings at T/4 (falling), 3T/4 (rising), …
    let cross = UserEvent {
        name: "cross".into(),
        ds: DsId(0),
        function: EventFunction::Function(Arc::new(|_t, s: &[f64], out: &mut [f64]| {
            out[0] = s[0].sin();
            Ok(())
        })),
        kind: RootKind::default(),
        action: EventAction::Record,
    };
    let hits = run_ed(&mut nsds, vec![cross], 5.5 * quarter);
    let times: Vec<f64> = hits.iter().map(|h| h.t).collect();
    assert_eq!(times.len(), 3, "{times:?}");
    for (k, t) in times.iter().enumerate() {
        let want = (2 * k + 1) as f64 * quarter;
        assert!((t - want).abs() < 1e-8, "crossing {k}: {t} vs {want}");
        let dir = if k % 2 == 0 { (1, -1) } else { (-1, 1) };
        assert_eq!((hits[k].transitions[0].from, hits[k].transitions[0].to), dir);
    }
}

#[test]
fn ed_discrete_zero_reports_the_zero_zone_transitions() {
    // g = round(v) clipped: a three-valued trigger (above/on/below) on the ball's velocity
    let (q0, v0) = (1.0, 2.0);
    let mut nsds = ball(q0, v0);
    let zone = UserEvent {
        name: "zone".into(),
        ds: DsId(0),
        function: EventFunction::Function(Arc::new(|_t, s: &[f64], out: &mut [f64]| {
            let v = s[1];
            out[0] = if v > 0.5 {
                1.0
            } else if v < -0.5 {
                -1.0
            } else {
                0.0
            };
            Ok(())
        })),
        kind: RootKind { direction: RootDirection::Falling, discrete_zero: true, window: None },
        action: EventAction::Record,
    };
    let hits = run_ed(&mut nsds, vec![zone], 0.35);
    // v = 0.5 at (v0 − 0.5)/g (1 → 0), v = −0.5 at (v0 + 0.5)/g (0 → −1)
    assert_eq!(hits.len(), 2, "{hits:?}");
    let want = [((v0 - 0.5) / G, (1, 0)), ((v0 + 0.5) / G, (0, -1))];
    for (h, (t, tr)) in hits.iter().zip(want) {
        assert!((h.t - t).abs() < 1e-9, "{} vs {t}", h.t);
        assert_eq!((h.transitions[0].from, h.transitions[0].to), tr);
    }
}

fn moreau_jean(nsds: &Nsds, h: f64) -> TimeStepping {
    TimeStepping::new(nsds, h, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default()))).unwrap()
}

#[test]
fn ts_apex_located_on_the_step_interpolant() {
    let (q0, v0, h) = (1.0, 2.0, 1e-2);
    let mut nsds = ball(q0, v0);
    let mut ts = moreau_jean(&nsds, h);
    let apex = event("apex", &[0.0, 1.0], 0.0, RootDirection::Falling, EventAction::Record);
    let low = event("low", &[1.0, 0.0], -0.5, RootDirection::Falling, EventAction::Stop);
    let mut mon = EventMonitor::new(&nsds, vec![apex, low]).unwrap();
    let mut hits = Vec::new();
    for _ in 0..100 {
        ts.step(&mut nsds).unwrap();
        hits.extend(mon.after_step(&mut nsds).unwrap());
        if mon.stopped() {
            break;
        }
    }
    assert_eq!(hits.len(), 2, "{hits:?}");
    // Moreau–Jean: v_{k+1} = v_k − h g exactly, so the linear interpolant of v is exact
    assert!((hits[0].t - v0 / G).abs() < 1e-12, "{}", hits[0].t);
    assert_eq!(hits[0].transitions[0].index, 0);
    // q is the θ = 1/2 scheme's (trapezoidal in v: exact for constant g at the steps), linear in
    // between: the crossing error is at most the interpolation error h² g / 8
    let t_low = (v0 + (v0 * v0 + 2.0 * G * (q0 - 0.5)).sqrt()) / G;
    assert!((hits[1].t - t_low).abs() < h * h * G / 8.0 / v0, "{} vs {t_low}", hits[1].t);
    assert!(hits[1].stop && mon.stopped());
    assert!(nsds.t() < t_low + h && nsds.t() >= t_low);
}

#[test]
fn ts_reset_acts_at_the_end_of_the_step() {
    let (q0, v0, h) = (1.0, 2.0, 1e-3);
    let mut nsds = ball(q0, v0);
    let mut ts = moreau_jean(&nsds, h);
    let reset = EventAction::Reset(Arc::new(|_t, _s, out: &mut [f64]| {
        out[1] = 1.0;
        Ok(())
    }));
    let apex = event("apex", &[0.0, 1.0], 0.0, RootDirection::Falling, reset);
    let mut mon = EventMonitor::new(&nsds, vec![apex]).unwrap();
    let mut hits = Vec::new();
    for _ in 0..400 {
        ts.step(&mut nsds).unwrap();
        let h = mon.after_step(&mut nsds).unwrap();
        if !h.is_empty() {
            assert_eq!(nsds.systems()[0].velocity().unwrap()[0], 1.0);
        }
        hits.extend(h);
    }
    assert_eq!(hits.len(), 2, "{hits:?}");
    // the reset acts at the end of the step holding the first apex; the second apex is 1/g later
    let t1 = v0 / G;
    let t_end1 = (t1 / h).ceil() * h;
    assert!((hits[0].t - t1).abs() < 1e-12);
    assert!((hits[1].t - (t_end1 + 1.0 / G)).abs() < 1e-9, "{} vs {}", hits[1].t, t_end1 + 1.0 / G);
}

#[test]
fn invalid_events_are_typed_errors() {
    let nsds = ball(1.0, 0.0);
    let bad = event("bad", &[1.0], 0.0, RootDirection::Both, EventAction::Record);
    let e = EventMonitor::new(&nsds, vec![bad.clone()]).unwrap_err().to_string();
    assert!(e.contains("1 coefficients for a state of 2 entries"), "{e}");
    assert!(EventDriven::with_events(&nsds, EventDrivenOptions::default(), vec![bad]).is_err());
    let mut w = event("w", &[1.0, 0.0], 0.0, RootDirection::Both, EventAction::Record);
    w.kind.window = Some(-1.0);
    assert!(EventMonitor::new(&nsds, vec![w]).is_err());
}

/// User events on a first-order event-driven run (the engine whose events are mode switches):
/// a level `ẋ₁ = −2 + λ` above a floor `0 ≤ x₁ ⊥ λ ≥ 0` and a clock `ẋ₂ = 1`. Closed form: a record
/// event `x₁ = 0.3` (falling) at t = 0.1; the landing (a mode switch) at 0.25; a reset of the level
/// to `x₁ = 1` at t = 0.4 (an event `g(t, x₁) = t − 0.4`), after which the floor's mode is chosen again (it lets go:
/// `λ = 0`, and `x₁ = 1 − 2 (t − 0.4)`); the record event again at 0.75, the second landing at 0.9,
/// and a stop when the clock passes 0.95. Every located state is the closed form's.
#[test]
fn user_events_on_a_first_order_event_driven_run() {
    use saltus_kernel::{FirstOrderLinearTiDs, FirstOrderLinearTiR, NonSmoothLaw, Relation};
    let mut nsds = Nsds::new(0.0);
    let level = nsds.add_ds("level", FirstOrderLinearTiDs::new(dvector![0.5], dmatrix![0.0]).with_b(dvector![-2.0]));
    let level = level.unwrap();
    nsds.add_ds("clock", FirstOrderLinearTiDs::new(dvector![0.0], dmatrix![0.0]).with_b(dvector![1.0])).unwrap();
    let rel = Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0], dmatrix![1.0]));
    nsds.link("floor", level, None, rel, NonSmoothLaw::ComplementarityCondition { size: 1 }).unwrap();
    let on = |name: &str, ds: u32, b: f64, direction: RootDirection, action: EventAction| UserEvent {
        ds: DsId(ds),
        ..event(name, &[1.0], b, direction, action)
    };
    let lift = EventAction::Reset(Arc::new(|_t, _s, out: &mut [f64]| {
        out[0] = 1.0;
        Ok(())
    }));
    let events = vec![
        on("pass", 0, -0.3, RootDirection::Falling, EventAction::Record),
        // a function of time on the level (a reset acts on the event's own system)
        UserEvent {
            function: EventFunction::Function(Arc::new(|t, _s, out: &mut [f64]| {
                out[0] = t - 0.4;
                Ok(())
            })),
            ..on("lift", 0, 0.0, RootDirection::Rising, lift)
        },
        on("end", 1, -0.95, RootDirection::Rising, EventAction::Stop),
    ];
    let mut sim =
        EventDriven::with_events(&nsds, EventDrivenOptions { h: 0.05, ..Default::default() }, events).unwrap();
    assert_eq!(sim.user_events().len(), 3);
    let (mut hits, mut landings) = (Vec::new(), Vec::new());
    let x1 = |t: f64| {
        if t < 0.25 {
            0.5 - 2.0 * t
        } else if t < 0.4 {
            0.0
        } else {
            (1.0 - 2.0 * (t - 0.4)).max(0.0)
        }
    };
    sim.run(&mut nsds, 2.0, &mut |n, rep| {
        if let Some(hit) = &rep.user {
            let names: Vec<usize> = hit.transitions.iter().map(|tr| tr.index).collect();
            // the located state, before the handler
            let before = if names == [1] { 0.0 } else { x1(hit.t) };
            assert!(names != [1] || n.systems()[0].state()[0] == 1.0, "the reset's state");
            assert!((hit.states[0][0] - before).abs() < 1e-9, "t = {}: {:?}", hit.t, hit.states);
            assert!((hit.states[1][0] - hit.t).abs() < 1e-9, "the clock");
            hits.push((names, hit.t, hit.reset, hit.stop));
        }
        if rep.kind == EventKind::NonSmooth {
            landings.push(rep.t);
        }
        let (x, lam) = (n.systems()[0].state()[0], n.interactions()[0].lambda(0).unwrap()[0]);
        assert!((x - x1(rep.t)).abs() < 1e-9, "t = {}: x₁ = {x}", rep.t);
        let resting = (0.25 - 1e-9..0.4 - 1e-9).contains(&rep.t) || rep.t > 0.9 - 1e-9;
        assert!((lam - if resting { 2.0 } else { 0.0 }).abs() < 1e-9, "t = {}: λ = {lam}", rep.t);
    })
    .unwrap();
    let want = [(vec![0], 0.1, false, false), (vec![1], 0.4, true, false), (vec![0], 0.75, false, false)];
    assert_eq!(hits.len(), 4, "{hits:?}");
    for ((names, t, reset, stop), (wn, wt, wr, ws)) in hits.iter().zip(want.iter()) {
        assert!(names == wn && (t - wt).abs() < 1e-9 && reset == wr && stop == ws, "{hits:?}");
    }
    assert!(hits[3].0 == [2] && (hits[3].1 - 0.95).abs() < 1e-9 && hits[3].3);
    assert_eq!(landings.len(), 2);
    assert!((landings[0] - 0.25).abs() < 1e-9 && (landings[1] - 0.9).abs() < 1e-9, "{landings:?}");
    assert!((nsds.t() - 0.95).abs() < 1e-9, "the run stopped at the stop event");
}
