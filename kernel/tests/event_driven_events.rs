//! Event-driven: merging of coincident events, output at TD events by dense output, and
//! errors carrying t with the last consistent state kept.

use nalgebra::{dmatrix, dvector};
use saltus_kernel::{
    EventDriven, EventDrivenOptions, EventKind, KernelError, LagrangianLinearTiDs, LagrangianLinearTiR, NonSmoothLaw,
    Nsds, Relation, UserFnError, VecOp,
};

const G: f64 = 9.81;

fn ball(z0: f64, f_ext: VecOp) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let ds = nsds
        .add_ds("ball", LagrangianLinearTiDs::new(dvector![z0], dvector![0.0], dmatrix![1.0]).with_f_ext(f_ext))
        .unwrap();
    nsds.link(
        "ground",
        ds,
        None,
        Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0])),
        NonSmoothLaw::NewtonImpact { e: 0.5 },
    )
    .unwrap();
    nsds
}

/// Dropped from z0 = g t1²/2 with t1 = 0.5 = 5 h: the impact and the TD event k = 5 are one
/// event (whichever side of 0.5 the root lands on); no separate TD event at 0.5.
#[test]
fn coincident_impact_and_td_event_are_merged() {
    for (t1, h) in [(0.5, 0.1), (0.3, 0.1), (0.7, 0.05)] {
        let mut nsds = ball(0.5 * G * t1 * t1, VecOp::Constant(dvector![-G]));
        let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h, ..Default::default() }).unwrap();
        let mut reps = Vec::new();
        sim.run(&mut nsds, t1 + 2.0 * h, &mut |_, r| reps.push(r.clone())).unwrap();
        let kinds: Vec<(EventKind, Option<u64>)> = reps.iter().map(|r| (r.kind, r.td_index)).collect();
        let k1 = (t1 / h).round() as u64;
        assert_eq!(kinds.len() as u64, k1 + 2, "{kinds:?}");
        for (i, (kind, k)) in kinds.iter().enumerate() {
            let ki = i as u64 + 1;
            let want = if ki == k1 { EventKind::NonSmooth } else { EventKind::TimeDiscretisation };
            assert_eq!((*kind, *k), (want, Some(ki)), "t1 = {t1}: {kinds:?}");
        }
        let imp = &reps[k1 as usize - 1];
        assert!((imp.t - t1).abs() < 1e-12, "impact at {}", imp.t);
        assert!(!imp.impulses.is_empty());
    }
}

/// Between events the rows come from dense output: the TD states are those of the exact
/// parabola although the integrator takes few, long steps.
#[test]
fn td_rows_by_dense_output() {
    let mut nsds = ball(10.0, VecOp::Constant(dvector![-G]));
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 1e-3, ..Default::default() }).unwrap();
    let mut worst = 0.0f64;
    sim.run(&mut nsds, 1.0, &mut |nsds, r| {
        let exact = 10.0 - 0.5 * G * r.t * r.t;
        worst = worst.max((nsds.systems()[0].state()[0] - exact).abs());
        assert_eq!(r.kind, EventKind::TimeDiscretisation);
    })
    .unwrap();
    assert!(worst < 1e-12, "{worst}");
    assert!(sim.ode_stats().steps < 100, "{} steps for 1000 outputs", sim.ode_stats().steps);
}

/// A force that fails after t = 0.3: the error carries a time near 0.3 and the model keeps
/// the state of the last processed event.
#[test]
fn integrator_errors_carry_t_and_keep_state() {
    let f = VecOp::function(|t, out| {
        if t > 0.3 {
            return Err(UserFnError::new("out of range"));
        }
        out[0] = -G;
        Ok(())
    });
    let mut nsds = ball(10.0, f);
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.1, ..Default::default() }).unwrap();
    let mut last_t = 0.0;
    let err = loop {
        match sim.advance(&mut nsds) {
            Ok(r) => last_t = r.t,
            Err(e) => break e,
        }
    };
    match err {
        // the cause is named: the function that kept failing, where the integrator gave up
        KernelError::UserFn { t, ref what, .. } => {
            assert!((0.3 - 1e-6..=0.4).contains(&t), "t = {t}");
            assert!(what.contains("F_ext") && what.contains("out of range"), "{err}");
        }
        other => panic!("expected UserFn error, got {other}"),
    }
    assert!(last_t >= 0.2 - 1e-12, "events before the failure processed, last at {last_t}");
    assert_eq!(nsds.t(), last_t);
    let q = nsds.systems()[0].state()[0];
    let exact = 10.0 - 0.5 * G * last_t * last_t;
    assert!((q - exact).abs() < 1e-10, "state of the last event kept: {q} vs {exact}");
}

/// A ball resting on the ground under `F = m(−g + 2 g t)`: the contact force `λ = m g (1 − 2t)`
/// falls through 0 at t = 1/2 (a detachment event, no impact), then `q = g (t − 1/2)³ / 3`.
#[test]
fn detachment_when_contact_force_vanishes() {
    let f = VecOp::function(|t, out| {
        out[0] = -G + 2.0 * G * t;
        Ok(())
    });
    let mut nsds = ball(0.0, f);
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.1, ..Default::default() }).unwrap();
    let mut ns = Vec::new();
    sim.run(&mut nsds, 1.0, &mut |nsds, r| {
        if r.kind == EventKind::NonSmooth {
            ns.push(r.clone());
        } else if r.t < 0.5 - 1e-9 {
            let lam = nsds.interactions()[0].lambda(0).unwrap()[0];
            assert!((lam - G * (1.0 - 2.0 * r.t)).abs() < 1e-9, "λ({}) = {lam}", r.t);
        }
    })
    .unwrap();
    assert_eq!(ns.len(), 1, "one detachment event: {ns:?}");
    assert!((ns[0].t - 0.5).abs() < 1e-9, "detachment at {}", ns[0].t);
    assert!(ns[0].impulses.is_empty() && ns[0].closed == 0);
    let q = nsds.systems()[0].state()[0];
    assert!((q - G / 24.0).abs() < 1e-9, "q(1) = {q} vs {}", G / 24.0);
}

/// A pendulum (`LagrangianDS`, `F_int = m g l sin θ`) released from θ0 hits a wall at θ = 0
/// (`LagrangianScleronomousR`, `y = l sin θ`) with e = 1: impacts at `(2n + 1) T/4`,
/// `T/4 = sqrt(l/g) K(sin(θ0/2))`, and the impact speed is `sqrt(2 g/l (1 − cos θ0))`.
#[test]
fn pendulum_against_wall_scleronomous_relation() {
    use saltus_kernel::{ForceFn, LagrangianDs, LagrangianScleronomousR, Mass};
    let (m, l, th0) = (2.0, 0.5, 1.0f64);
    let f_int = ForceFn::new(
        move |_, q, _, out| {
            out[0] = m * G * l * q[0].sin();
            Ok(())
        },
        move |_, q, _, j| {
            j[(0, 0)] = m * G * l * q[0].cos();
            Ok(())
        },
        |_, _, _, _| Ok(()),
    );
    let ds = LagrangianDs::new(dvector![th0], dvector![0.0], Mass::Constant(dmatrix![m * l * l])).with_f_int(f_int);
    let rel = LagrangianScleronomousR::new(
        1,
        move |_, q, out| {
            out[0] = l * q[0].sin();
            Ok(())
        },
        move |_, q, j| {
            j[(0, 0)] = l * q[0].cos();
            Ok(())
        },
    );
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("pendulum", ds).unwrap();
    nsds.link("wall", id, None, Relation::LagrangianScleronomous(rel), NonSmoothLaw::NewtonImpact { e: 1.0 }).unwrap();
    // K(k) by the arithmetic–geometric mean
    let k = (th0 / 2.0).sin();
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..10 {
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    let quarter = (l / G).sqrt() * std::f64::consts::PI / (2.0 * a);
    let w_imp = (2.0 * G / l * (1.0 - th0.cos())).sqrt();
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.05, ..Default::default() }).unwrap();
    let mut imps = Vec::new();
    sim.run(&mut nsds, 6.0 * quarter, &mut |nsds, r| {
        if !r.impulses.is_empty() {
            imps.push((r.t, r.pre_velocities.as_ref().unwrap()[0][0], nsds.systems()[0].velocity().unwrap()[0]));
        }
    })
    .unwrap();
    assert_eq!(imps.len(), 3);
    for (n, (t, wpre, wpost)) in imps.iter().enumerate() {
        let te = (2 * n + 1) as f64 * quarter;
        assert!((t - te).abs() < 1e-8 * te, "impact {n}: {t} vs {te}");
        assert!((wpre + w_imp).abs() < 1e-8 && (wpost - w_imp).abs() < 1e-8, "{wpre} {wpost} vs {w_imp}");
    }
}

/// Without the accumulation rule (zeno_velocity = 0) the impacts pile up before the next TD
/// event; the guard stops with a typed error instead of looping, the model keeping the state
/// of the last processed event.
#[test]
fn too_many_events_guard() {
    let mut nsds = ball(1.0, VecOp::Constant(dvector![-G]));
    let opts = EventDrivenOptions { h: 10.0, zeno_velocity: 0.0, max_events_between_td: 20, ..Default::default() };
    let mut sim = EventDriven::new(&nsds, opts).unwrap();
    let mut n = 0;
    let err = loop {
        match sim.advance(&mut nsds) {
            Ok(r) => {
                assert_eq!(r.kind, EventKind::NonSmooth);
                n += 1
            }
            Err(e) => break e,
        }
    };
    assert!(matches!(err, KernelError::TooManyEvents { count: 21, .. }), "{err}");
    assert_eq!(n, 20);
    assert!(nsds.systems()[0].state()[0].abs() < 1e-9, "last state is an impact state");
}

/// A particle sliding from the top of a sphere (`y = |q| − R ≥ 0`, a nonlinear scleronomous
/// contact held in index set 2, so `J̇ v` matters) leaves it when the contact force vanishes,
/// at `cos θ = (2 + v0²/(g R)) / 3`.
#[test]
fn particle_leaves_sphere_at_analytic_angle() {
    use saltus_kernel::LagrangianScleronomousR;
    let (rad, v0) = (1.0, 0.5);
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![0.0, rad], dvector![v0, 0.0], dmatrix![1.0, 0.0; 0.0, 1.0])
        .with_f_ext(VecOp::Constant(dvector![0.0, -G]));
    let id = nsds.add_ds("particle", ds).unwrap();
    let rel = LagrangianScleronomousR::new(
        1,
        move |_, q, out| {
            out[0] = q[0].hypot(q[1]) - rad;
            Ok(())
        },
        |_, q, j| {
            let r = q[0].hypot(q[1]);
            j[(0, 0)] = q[0] / r;
            j[(0, 1)] = q[1] / r;
            Ok(())
        },
    );
    nsds.link("sphere", id, None, Relation::LagrangianScleronomous(rel), NonSmoothLaw::NewtonImpact { e: 0.0 })
        .unwrap();
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.01, ..Default::default() }).unwrap();
    let mut detach = None;
    let mut closed_before = false;
    let mut n_ns = 0;
    sim.run(&mut nsds, 1.0, &mut |nsds, r| {
        if r.t < 0.05 {
            closed_before |= r.closed == 1;
        }
        // the λ root may first be met by a tiny velocity correction (the constraint drift
        // ẏ ~ 1e-10 exceeds velocity_tol) that keeps the contact; the release follows at once
        if r.kind == EventKind::NonSmooth && detach.is_none() {
            n_ns += 1;
            if r.closed == 0 {
                let q = nsds.systems()[0].state();
                detach = Some((q[1] / q[0].hypot(q[1]), r.t));
            }
        }
    })
    .unwrap();
    assert!(closed_before, "contact held in index set 2 at the start");
    let (cos_th, _t) = detach.expect("a detachment event");
    let exact = (2.0 + v0 * v0 / (G * rad)) / 3.0;
    assert!(n_ns <= 2, "{n_ns} events up to the release");
    assert!((cos_th - exact).abs() < 1e-6, "detaches at cos θ = {cos_th}, expected {exact}");
}
