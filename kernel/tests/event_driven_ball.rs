//! Event-driven bouncing ball (Siconos BouncingBallED, ../shared/reference/bouncing_ball_ed):
//! impact times and velocities against the closed form and the Siconos CSVs, accumulation of
//! impacts, and the TD-event trajectory.

mod common;

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::{presets, EventDriven, EventDrivenOptions, EventKind, InterId, Nsds};

const G: f64 = 9.81;
const E: f64 = 0.9;

/// The ED tutorial model: 3 dof, M = diag(1, 1, 3/5 m r²), H = [1 0 0], e = 0.9.
fn ball() -> Nsds {
    let (r, m) = (0.1, 1.0);
    let mass = DMatrix::from_diagonal(&dvector![m, m, 3.0 / 5.0 * m * r * r]);
    presets::lagrangian_contact(
        mass,
        dvector![1.0, 0.0, 0.0],
        DVector::zeros(3),
        dmatrix![1.0, 0.0, 0.0],
        None,
        E,
        Some(dvector![-m * G, 0.0, 0.0]),
    )
    .expect("valid model")
    .0
}

fn opts() -> EventDrivenOptions {
    EventDrivenOptions { h: 0.005, ..Default::default() }
}

/// (t, v_pre, v_post) of every impact up to `until`, and the final model.
fn impacts(until: f64) -> (Vec<(f64, f64, f64)>, Nsds, EventDriven, usize) {
    let mut nsds = ball();
    let mut sim = EventDriven::new(&nsds, opts()).unwrap();
    let mut out = Vec::new();
    let mut n_td = 0;
    sim.run(&mut nsds, until, &mut |nsds, rep| match rep.kind {
        EventKind::NonSmooth => {
            if !rep.impulses.is_empty() {
                let pre = rep.pre_velocities.as_ref().unwrap()[0][0];
                out.push((rep.t, pre, nsds.systems()[0].velocity().unwrap()[0]));
            }
            n_td += rep.td_index.is_some() as usize;
        }
        EventKind::TimeDiscretisation => n_td += 1,
        EventKind::User => panic!("the model has no user events"),
    })
    .unwrap();
    (out, nsds, sim, n_td)
}

#[test]
fn impacts_match_closed_form_and_siconos() {
    let (_, rows) = common::read_csv("bouncing_ball_ed_impacts.csv");
    assert_eq!(rows.len(), 44);
    let (imps, _, _, n_td) = impacts(8.5);
    assert_eq!(n_td, 1700, "TD events t = k h, k = 1..=1700");
    assert_eq!(imps.len(), 44, "44 impacts before T = 8.5 as in Siconos");
    let t1 = (2.0 / G).sqrt();
    let v1 = G * t1;
    let mut t_exact = t1;
    for (n, ((t, vpre, vpost), row)) in imps.iter().zip(&rows).enumerate() {
        let v_exact = -E.powi(n as i32) * v1;
        for (what, a, b) in [("t", *t, t_exact), ("v_pre", *vpre, v_exact), ("v_post", *vpost, -E * v_exact)] {
            assert!((a - b).abs() <= 1e-9 * b.abs(), "impact {}: {what} {a} vs closed form {b}", n + 1);
        }
        for (what, a, b) in [("t", *t, row[1]), ("v_pre", *vpre, row[3]), ("v_post", *vpost, row[4])] {
            assert!((a - b).abs() <= 1e-9 * b.abs(), "impact {}: {what} {a} vs Siconos {b}", n + 1);
        }
        t_exact += 2.0 * E.powi(n as i32 + 1) * v1 / G;
    }
}

#[test]
fn ball_comes_to_rest_after_accumulation_point() {
    let t1 = (2.0 / G).sqrt();
    let t_inf = t1 + 2.0 * E * G * t1 / G / (1.0 - E);
    let (imps, nsds, sim, _) = impacts(9.0);
    assert!(imps.len() > 44);
    let last = imps.last().unwrap();
    assert!(last.0 < t_inf && last.0 > t_inf - 1e-3, "last impact {} vs accumulation point {t_inf}", last.0);
    let c = InterId::new(0, 0);
    assert!(sim.is_closed(c), "contact persistent after the accumulation point");
    let q = nsds.systems()[0].state()[0];
    let v = nsds.systems()[0].velocity().unwrap()[0];
    assert!(q.abs() < 1e-9 && v.abs() < 1e-9, "ball at rest: q = {q}, v = {v}");
    // resting contact force balances gravity: λ = m g
    assert!((sim.contact_force(c) - G).abs() < 1e-9, "λ = {}", sim.contact_force(c));
}

/// Every row of the Siconos trajectory (TD rows, pre-impact rows kind 1, post-impact rows
/// kind 2; first row t = h): same count and kinds, values within 1e-9.
#[test]
fn rows_match_siconos_trajectory() {
    let (_, rows) = common::read_csv("bouncing_ball_ed_trajectory.csv");
    let mut nsds = ball();
    let mut sim = EventDriven::new(&nsds, opts()).unwrap();
    let mut got: Vec<[f64; 6]> = Vec::new();
    sim.run(&mut nsds, 8.5, &mut |nsds, rep| {
        let ds = &nsds.systems()[0];
        let (q, v, p1) = (ds.state()[0], ds.velocity().unwrap()[0], ds.input()[0]);
        let l1 = nsds.interactions()[0].lambda(1).unwrap()[0];
        if let Some(pre) = &rep.pre_velocities {
            got.push([rep.t, q, pre[0][0], p1, 0.0, 1.0]);
            got.push([rep.t, q, v, p1, l1, 2.0]);
        } else {
            got.push([rep.t, q, v, p1, l1, 0.0]);
        }
    })
    .unwrap();
    assert_eq!(got.len(), rows.len());
    let mut worst = 0.0f64;
    for (g, r) in got.iter().zip(&rows) {
        assert_eq!(g[5], r[7], "row kind at t = {}", r[0]);
        if r[7] == 0.0 {
            assert_eq!(g[0], r[0], "TD event times are t0 + k h");
        }
        for (a, b) in [(g[0], r[0]), (g[1], r[1]), (g[2], r[2]), (g[3], r[3]), (g[4], r[5])] {
            worst = worst.max((a - b).abs());
        }
    }
    assert!(worst < 1e-9, "max deviation from Siconos {worst}");
}

/// Same input, same bits: two runs give identical event times and states.
#[test]
fn deterministic() {
    let run = || {
        let mut nsds = ball();
        let mut sim = EventDriven::new(&nsds, opts()).unwrap();
        let mut bits = Vec::new();
        sim.run(&mut nsds, 9.0, &mut |nsds, r| {
            bits.push(r.t.to_bits());
            bits.push(nsds.systems()[0].state()[0].to_bits());
            bits.push(nsds.systems()[0].velocity().unwrap()[0].to_bits());
        })
        .unwrap();
        bits
    };
    assert_eq!(run(), run());
}

/// A `link` between events (Siconos `nsds.link` in a script's loop) is taken at the next event:
/// right after the first bounce a ceiling `y = 0.5 − q ≥ 0` is linked; the ball, rising at
/// `v₁ = e √(2 g)`, hits it at the time the closed form gives and leaves it at `−e` times its
/// speed there, never above it, and the time-discretisation events keep their schedule. A
/// removal between events is a typed error, never ignored.
#[test]
fn a_link_between_events_is_taken_at_the_next_event() {
    let mut nsds = ball();
    let mut sim = EventDriven::new(&nsds, opts()).unwrap();
    // up to the first impact
    let t1 = loop {
        let rep = sim.advance(&mut nsds).unwrap();
        if !rep.impulses.is_empty() {
            break rep.t;
        }
    };
    let v1 = nsds.systems()[0].velocity().unwrap()[0];
    assert!((v1 - E * (2.0 * G).sqrt()).abs() < 1e-8, "rebound {v1}");
    let ds = saltus_kernel::DsId(0);
    let relation = saltus_kernel::Relation::LagrangianLinearTi(
        saltus_kernel::LagrangianLinearTiR::new(dmatrix![-1.0, 0.0, 0.0]).with_b(dvector![0.5]),
    );
    let law = saltus_kernel::NonSmoothLaw::NewtonImpact { e: E };
    let ceiling = nsds.link("ceiling", ds, None, relation, law).unwrap();
    // q(t) = v₁ (t − t₁) − g (t − t₁)²/2 reaches 0.5 at
    let tc = t1 + (v1 - (v1 * v1 - 2.0 * G * 0.5).sqrt()) / G;
    let vc = (v1 * v1 - 2.0 * G * 0.5).sqrt();
    let mut hit = None;
    let mut td_times = Vec::new();
    while nsds.t() < tc + 0.1 {
        let rep = sim.advance(&mut nsds).unwrap();
        let q = nsds.systems()[0].state()[0];
        assert!(q <= 0.5 + 1e-9, "above the ceiling at t = {}: {q}", rep.t);
        if rep.kind == EventKind::TimeDiscretisation {
            td_times.push(rep.t);
        }
        if rep.impulses.iter().any(|(id, _)| *id == ceiling) && hit.is_none() {
            let pre = rep.pre_velocities.as_ref().unwrap()[0][0];
            hit = Some((rep.t, pre, nsds.systems()[0].velocity().unwrap()[0]));
        }
    }
    let (t, pre, post) = hit.expect("the ball hits the ceiling");
    assert!((t - tc).abs() < 1e-8, "ceiling hit at {t}, closed form {tc}");
    assert!((pre - vc).abs() < 1e-6 && (post + E * pre).abs() < 1e-9, "{pre} -> {post} (closed form {vc})");
    for w in td_times.windows(2) {
        let k = (w[0] / opts().h).round();
        assert!((w[0] - k * opts().h).abs() < 1e-12 && (w[1] - (k + 1.0) * opts().h).abs() < 1e-12, "{w:?}");
    }
    // a removal between events is refused by name; the state stays at the last event
    let (t_last, q) = (nsds.t(), nsds.systems()[0].state().clone());
    nsds.remove_interaction(ceiling).unwrap();
    let err = sim.advance(&mut nsds).unwrap_err().to_string();
    assert!(err.contains("removed") && err.contains("build a new EventDriven"), "{err}");
    assert_eq!((nsds.t(), nsds.systems()[0].state()), (t_last, &q));
}
