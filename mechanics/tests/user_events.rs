//! User events on rigid bodies: the kernel's time-stepping `EventMonitor` over a
//! `MechanicsSimulation` (`EventStates`: body `i`, its 13-number pose and twist).
//!
//! Under gravity alone Moreau–Jean's velocity is exact at the steps and linear between them, so
//! the apex `v_z = 0` of a ball thrown up at `v₀` is located at `v₀/g` to round-off, wherever it
//! falls in a step. A reset writes a new twist (here a spin about z) into the body at the end of
//! the step; the attitude then turns at that rate exactly (a free sphere, θ = ½).

use nalgebra::{DVector, Matrix3, Vector3};
use saltus_kernel::model::event::{RootDirection, RootKind};
use saltus_kernel::{DsId, EventAction, EventFunction, EventMonitor, EventStates, KernelError, UserEvent};
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{BodyDesc, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc};
use std::sync::Arc;

const G: f64 = 9.81;

fn thrown_ball(v0: f64, h: f64) -> MechanicsSimulation {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let mut d = BodyDesc::dynamic("ball")
        .shape_at_origin(ShapeDesc::from(Sphere { radius: 0.1 }))
        .mass(1.0, Matrix3::from_diagonal_element(0.004));
    d.state.position = Vector3::new(0.0, 0.0, 1.0);
    d.state.v = Vector3::new(0.5, 0.0, v0);
    model.add_body(d).unwrap();
    MechanicsSimulation::new(model, 0.0, h, MoreauJeanOptions::default()).unwrap()
}

/// `g = a·s + b` on the body's 13 numbers, with `a` zero but for entry `i`.
fn linear(name: &str, i: usize, b: f64, direction: RootDirection, action: EventAction) -> UserEvent {
    let mut a = DVector::zeros(13);
    a[i] = 1.0;
    UserEvent {
        name: name.into(),
        ds: DsId(0),
        function: EventFunction::Linear { a, b },
        kind: RootKind { direction, discrete_zero: false, window: None },
        action,
    }
}

#[test]
fn apex_of_a_thrown_ball_is_located_to_round_off() {
    let (v0, h) = (2.0, 0.01); // v₀/g = 0.20387… falls inside a step
    let mut sim = thrown_ball(v0, h);
    let mut mon =
        EventMonitor::new(&sim, vec![linear("apex", 9, 0.0, RootDirection::Falling, EventAction::Record)]).unwrap();
    let mut hits = Vec::new();
    for _ in 0..60 {
        sim.step().unwrap();
        hits.extend(mon.after_step(&mut sim).unwrap());
    }
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hit = &hits[0];
    let t_star = v0 / G;
    assert!((hit.t - t_star).abs() < 1e-12, "{} vs {t_star}", hit.t);
    let s = &hit.states[0];
    assert!(s[9].abs() < 1e-12, "vz at the apex {}", s[9]);
    // x is linear in t (no force along x): exact on the interpolant too
    assert!((s[0] - 0.5 * hit.t).abs() < 1e-12);
    // z on the interpolant of the parabola (θ = ½: exact at the steps): off by at most g h²/8
    let z = 1.0 + v0 * v0 / (2.0 * G);
    assert!((s[2] - z).abs() <= G * h * h / 8.0 + 1e-12, "{} vs {z}", s[2]);
}

#[test]
fn a_reset_spins_the_ball_up_and_the_attitude_follows() {
    let (h, w) = (1e-3, 5.0);
    let mut sim = thrown_ball(0.0, h);
    let spin: saltus_kernel::model::userfn::StateVecFn = Arc::new(move |_t, s: &[f64], out: &mut [f64]| {
        out.copy_from_slice(s);
        out[12] = w;
        Ok(())
    });
    let low = linear("low", 2, -0.5, RootDirection::Falling, EventAction::Reset(spin));
    let mut mon = EventMonitor::new(&sim, vec![low]).unwrap();
    let (mut t_reset, mut n_hits) = (None, 0);
    for _ in 0..400 {
        sim.step().unwrap();
        let hits = mon.after_step(&mut sim).unwrap();
        if let Some(h) = hits.first() {
            assert!(h.reset);
            t_reset = Some(sim.time());
        }
        n_hits += hits.len();
    }
    assert_eq!(n_hits, 1);
    let t_reset = t_reset.unwrap();
    assert!((t_reset - (1.0 / G).sqrt()).abs() < h, "reset at {t_reset}");
    let b = &sim.model.bodies[0].state;
    assert_eq!(b.omega, Vector3::new(0.0, 0.0, w));
    // a free sphere spinning about z turns by w (t − t_reset)
    let angle = b.orientation.angle();
    let want = w * (sim.time() - t_reset);
    assert!((angle - want).abs() < 1e-9, "{angle} vs {want}");
    assert!((b.orientation.axis().unwrap().z - 1.0).abs() < 1e-12);
    assert!((b.orientation.quaternion().norm() - 1.0).abs() < 1e-15);
}

#[test]
fn a_reset_to_a_zero_quaternion_is_an_error_and_leaves_the_state() {
    let mut sim = thrown_ball(0.0, 1e-3);
    let before = sim.model.bodies[0].state;
    let mut s = sim.model.bodies[0].state.to_array().to_vec();
    s[3..7].fill(0.0);
    let e = sim.write_event_state(0, &s, 0.5).unwrap_err();
    assert!(matches!(e, KernelError::NonFinite { .. }), "{e}");
    assert_eq!(sim.model.bodies[0].state, before);
    let mut s = before.to_array().to_vec();
    s[3] = 2.0; // a quaternion of norm 2 is normalised
    sim.write_event_state(0, &s, 0.5).unwrap();
    assert!((sim.model.bodies[0].state.orientation.quaternion().norm() - 1.0).abs() < 1e-15);
    // a linear trigger with the wrong length is refused before the run, naming the layout
    let mut bad = linear("bad", 2, 0.0, RootDirection::Both, EventAction::Record);
    bad.function = EventFunction::Linear { a: DVector::zeros(2), b: 0.0 };
    let e = EventMonitor::new(&sim, vec![bad]).unwrap_err().to_string();
    assert!(e.contains("13 entries (x y z, qw qx qy qz"), "{e}");
}

/// Removing a body between steps (`remove_body`): a ball resting on another one falls freely from
/// then on, `z = z₀ − g t²/2` at the steps (θ = ½ is exact on the parabola), through the place the
/// removed ball keeps (it is frozen and collides with nothing).
#[test]
fn removing_the_lower_ball_lets_the_upper_one_fall() {
    use saltus_mechanics::{BodyId, ContactLaw, ShapeDesc};
    let h = 1e-3;
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    let ball = |name: &str, z: f64| {
        let mut d = BodyDesc::dynamic(name)
            .shape_at_origin(ShapeDesc::from(Sphere { radius: 0.1 }))
            .mass(1.0, Matrix3::from_diagonal_element(0.004));
        d.state.position = Vector3::new(0.0, 0.0, z);
        d
    };
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    model.add_body(ball("lower", 0.1)).unwrap();
    model.add_body(ball("upper", 0.3)).unwrap();
    let opts = MoreauJeanOptions { theta: 0.5, solver: saltus_mechanics::nsgs(1e-12, 10_000), ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let z0 = sim.model.bodies[2].state.position.z;
    assert!((z0 - 0.3).abs() < 1e-6, "the stack rests: {z0}");
    let lower = sim.model.bodies[1].state;
    sim.remove_body(BodyId(1)).unwrap();
    assert!(sim.remove_body(BodyId(7)).is_err());
    let v0 = sim.model.bodies[2].state.v.z;
    for k in 1..=100 {
        sim.step().unwrap();
        let t = k as f64 * h;
        let z = sim.model.bodies[2].state.position.z;
        let want = z0 + v0 * t - G * t * t / 2.0;
        assert!((z - want).abs() < 1e-12, "t = {t}: z = {z}, free fall {want}");
    }
    assert_eq!(sim.model.bodies[1].state, lower, "the removed ball is frozen");
    assert!(sim.contacts().iter().all(|c| c.body1 != BodyId(1) && c.body2 != BodyId(1)));
}
