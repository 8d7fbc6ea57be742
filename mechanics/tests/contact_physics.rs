//! Physics of contact with analytic answers: a sphere at rest (λ_N = m g h), rolling without
//! slipping down an incline (a = 5/7 g sin α), a box sliding to rest (d = v²/(2 μ g)), a stack
//! of ten boxes that stays up, and Newton's cradle (momentum passed along the chain).

use nalgebra::{Isometry3, Matrix3, Vector3};
use saltus_mechanics::shape::{Cuboid, Sphere};
use saltus_mechanics::{
    nsgs, BodyDesc, BodyState, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};

const G: f64 = 9.81;

fn opts(tol: f64) -> MoreauJeanOptions {
    MoreauJeanOptions { theta: 0.5, solver: nsgs(tol, 10_000), ..Default::default() }
}

fn ground(model: &mut MechanicsModel, normal: Vector3<f64>) {
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal })).unwrap();
}

fn sphere(name: &str, r: f64, m: f64, x: Vector3<f64>) -> BodyDesc {
    BodyDesc::dynamic(name)
        .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
        .mass(m, Matrix3::from_diagonal_element(0.4 * m * r * r))
        .position(x)
}

/// A sphere laid on the plane stays there and the normal impulse of each step is `m g h`.
#[test]
fn sphere_at_rest_carries_its_weight() {
    let (r, m, h) = (0.1, 2.0, 1e-3);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    ground(&mut model, Vector3::z());
    let b = model.add_body(sphere("ball", r, m, Vector3::new(0.3, -0.2, r))).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts(1e-12)).unwrap();
    for _ in 0..1000 {
        let rep = sim.step().unwrap();
        assert_eq!(rep.n_active, 1);
        assert!(rep.solver.as_ref().unwrap().status.converged());
        let c = &sim.contacts()[0];
        assert!((c.impulse.x - m * G * h).abs() <= 1e-12 * m * G * h, "λ_N = {}", c.impulse.x);
        assert!(c.impulse.yz().norm() <= 1e-15);
    }
    let s = sim.model.body(b).state;
    assert!((s.position - Vector3::new(0.3, -0.2, r)).norm() < 1e-12, "{:?}", s.position);
    assert!(s.v.norm() < 1e-12);
}

/// A sphere dropped with `e = 0` comes to rest; at rest the impulses balance the weight.
#[test]
fn dropped_sphere_settles_with_weight_balance() {
    let (r, m, h) = (0.05, 1.5, 1e-3);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.02).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.3)).unwrap();
    ground(&mut model, Vector3::z());
    let b = model.add_body(sphere("ball", r, m, Vector3::new(0.0, 0.0, 0.3))).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts(1e-10)).unwrap();
    let mut total = 0.0;
    for k in 0..1000 {
        sim.step().unwrap();
        if k >= 500 {
            total += sim.contacts().iter().map(|c| c.impulse.x).sum::<f64>();
        }
    }
    let s = sim.model.body(b).state;
    assert!(s.v.norm() < 1e-9, "v = {:?}", s.v);
    // Moreau–Jean (γ = ½) lets the ball sink at most 1.5 h |v_impact| at the impact, and no
    // more afterwards.
    let v_impact = (2.0 * G * (0.3 - r)).sqrt();
    assert!(s.position.z <= r && r - s.position.z <= 1.5 * h * v_impact, "z = {}", s.position.z);
    assert!((total / 500.0 - m * G * h).abs() < 1e-9 * m * G * h, "mean λ_N = {}", total / 500.0);
}

/// Rolling without slipping: `a = 5/7 g sin α` and `v = ω r` at the contact.
#[test]
fn sphere_rolls_down_incline_without_slipping() {
    let (r, m, h, alpha): (f64, f64, f64, f64) = (0.1, 1.0, 1e-3, 0.3);
    let n = Vector3::new(alpha.sin(), 0.0, alpha.cos());
    let down = Vector3::new(alpha.cos(), 0.0, -alpha.sin());
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    ground(&mut model, n);
    let b = model.add_body(sphere("ball", r, m, n * r)).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts(1e-13)).unwrap();
    let steps = 1000;
    for _ in 0..steps {
        let rep = sim.step().unwrap();
        assert!(rep.solver.is_none_or(|s| s.status.converged()));
    }
    let s = sim.model.body(b).state;
    let t = steps as f64 * h;
    let a = s.v.dot(&down) / t;
    let exact = 5.0 / 7.0 * G * alpha.sin();
    assert!((a - exact).abs() <= 1e-6 * exact, "a = {a}, 5/7 g sin α = {exact}");
    assert!(s.v.dot(&n).abs() < 1e-9, "leaves the plane: {}", s.v.dot(&n));
    let slip = s.point_velocity(&(s.position - n * r));
    assert!(slip.norm() <= 1e-6 * s.v.norm(), "contact point slips at {slip:?}");
    let travelled = (s.position - n * r).dot(&down);
    assert!((travelled - 0.5 * exact * t * t).abs() < 1e-3 * travelled, "distance {travelled}");
}

/// A box launched at `v₀` on a plane stops after `v₀² / (2 μ g)`, without tipping.
#[test]
fn box_slides_to_rest() {
    let (v0, mu, h) = (1.0, 0.3, 1e-3);
    let half = Vector3::new(0.1, 0.1, 0.05);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, mu)).unwrap();
    ground(&mut model, Vector3::z());
    let state =
        BodyState { position: Vector3::new(0.0, 0.0, half.z), v: Vector3::new(v0, 0.0, 0.0), ..Default::default() };
    let b = model
        .add_body(
            BodyDesc::dynamic("box")
                .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: half }))
                .density(500.0)
                .state(state),
        )
        .unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts(1e-12)).unwrap();
    for _ in 0..600 {
        let rep = sim.step().unwrap();
        assert!(rep.n_active == 4, "a face on a plane has 4 contact points, got {}", rep.n_active);
    }
    let s = sim.model.body(b).state;
    let d = v0 * v0 / (2.0 * mu * G);
    assert!((s.position.x - d).abs() <= 1e-3 * d, "stopped at {}, v²/(2μg) = {d}", s.position.x);
    assert!(s.v.norm() < 1e-9 && s.omega.norm() < 1e-9, "still moving: {:?} {:?}", s.v, s.omega);
    assert!(s.orientation.angle() < 1e-6, "tipped by {}", s.orientation.angle());
    assert!((s.position.z - half.z).abs() < 1e-6);
}

/// Ten boxes stacked on the ground stay standing for two seconds.
#[test]
fn ten_box_stack_stands() {
    let h = 1e-3;
    let half = Vector3::new(0.05, 0.05, 0.05);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.005).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    ground(&mut model, Vector3::z());
    let mut ids = Vec::new();
    for i in 0..10 {
        let x = Vector3::new(0.0, 0.0, half.z * (2 * i + 1) as f64);
        let d = BodyDesc::dynamic(&format!("box{i}"))
            .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: half }))
            .density(1000.0);
        ids.push(model.add_body(d.position(x)).unwrap());
    }
    let total_mass: f64 = ids.iter().map(|&b| model.body(b).mass()).sum();
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts(1e-8)).unwrap();
    let mut late_unconverged = 0;
    for k in 0..2000 {
        let rep = sim.step().unwrap();
        // About 4 points per face contact (parry's clipping may give 3 on a slightly tilted face).
        assert!(rep.n_active >= 30, "{} active of {}", rep.n_active, rep.n_contacts);
        if k >= 100 && !rep.solver.as_ref().unwrap().status.converged() {
            late_unconverged += 1;
        }
    }
    assert_eq!(late_unconverged, 0, "once settled, the warm-started NSGS converges every step");
    for (i, &b) in ids.iter().enumerate() {
        let s = sim.model.body(b).state;
        let z0 = half.z * (2 * i + 1) as f64;
        assert!(s.position.xy().norm() < 1e-6, "box {i} drifted to {:?}", s.position);
        assert!((s.position.z - z0).abs() < 1e-4 * z0, "box {i} at z = {} instead of {z0}", s.position.z);
        assert!(s.orientation.angle() < 1e-6, "box {i} tilted by {}", s.orientation.angle());
    }
    // The ground carries the whole stack: Σ λ_N on the ground = M g h.
    let ground_id = sim.model.body_by_name("ground").unwrap();
    let carried: f64 =
        sim.contacts().iter().filter(|c| c.body1 == ground_id || c.body2 == ground_id).map(|c| c.impulse.x).sum();
    assert!((carried - total_mass * G * h).abs() < 1e-6 * total_mass * G * h, "ground impulse {carried}");
}

/// Newton's cradle: five equal balls with small gaps, `e = 1`, no friction or gravity; the first
/// ball's momentum ends in the last one, the others at rest, momentum and energy conserved.
#[test]
fn newtons_cradle_passes_momentum() {
    let (r, m, v0, gap, h) = (0.05, 0.5, 1.0, 1e-3, 1e-4);
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(1.0, 0.0)).unwrap();
    let mut ids = Vec::new();
    for i in 0..5 {
        let x = Vector3::new(i as f64 * (2.0 * r + gap), 0.0, 0.0);
        let mut d = sphere(&format!("ball{i}"), r, m, x);
        if i == 0 {
            d.state.v = Vector3::new(v0, 0.0, 0.0);
        }
        ids.push(model.add_body(d).unwrap());
    }
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts(1e-14)).unwrap();
    for _ in 0..1000 {
        sim.step().unwrap();
    }
    let v: Vec<Vector3<f64>> = ids.iter().map(|&b| sim.model.body(b).state.v).collect();
    for (i, vi) in v.iter().enumerate().take(4) {
        assert!(vi.norm() < 1e-10, "ball {i} still moves at {vi:?}");
    }
    assert!((v[4] - Vector3::new(v0, 0.0, 0.0)).norm() < 1e-10, "last ball {:?}", v[4]);
    let p: Vector3<f64> = v.iter().sum::<Vector3<f64>>() * m;
    assert!((p.x - m * v0).abs() < 1e-14 && p.yz().norm() < 1e-14);
    assert!((sim.model.kinetic_energy() - 0.5 * m * v0 * v0).abs() < 1e-12);
    let _ = Isometry3::<f64>::identity();
}

/// Siconos's `activate_with_negative_relative_velocity` (`MoreauJeanOptions::activation_velocity`):
/// a sphere slightly into the plane (gap −1e-4) and leaving it at 1 mm/s is in reach by the gap
/// rule; with the velocity rule (`u_N ≤ 1e-5`) it is left out of that step's problem and
/// moves freely (`v = v₀ − g h`), then the contact, now closing, is active again and holds it
/// (`e = 0`). At rest (`u_N = 0`) the rule changes nothing: `m g h` per step.
#[test]
fn velocity_level_activation_leaves_opening_contacts_out() {
    let (r, m, h, v0) = (0.1, 2.0, 1e-3, 1e-3);
    let run = |activation_velocity: Option<f64>| {
        let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
        model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
        ground(&mut model, Vector3::z());
        let state = BodyState {
            position: Vector3::new(0.0, 0.0, r - 1e-4),
            v: Vector3::new(0.0, 0.0, v0),
            ..Default::default()
        };
        let b = model.add_body(sphere("ball", r, m, Vector3::zeros()).state(state)).unwrap();
        let opts = MoreauJeanOptions { activation_velocity, ..opts(1e-12) };
        let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
        let first = sim.step().unwrap();
        let v1 = sim.model.body(b).state.v.z;
        let second = sim.step().unwrap();
        (first.n_active, v1, second.n_active, sim.model.body(b).state.v.z)
    };
    // the gap rule alone: active from the first step, the impulse stops the ball (e = 0)
    let (a1, v1, _, _) = run(None);
    assert_eq!(a1, 1);
    assert!(v1.abs() < 1e-12, "held: {v1}");
    // with the velocity rule: free first step, then held
    let (a1, v1, a2, v2) = run(Some(1e-5));
    assert_eq!((a1, a2), (0, 1));
    assert!((v1 - (v0 - G * h)).abs() < 1e-15, "free: {v1}");
    assert!(v2.abs() < 1e-12, "held: {v2}");
    // a sphere at rest carries its weight either way
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    ground(&mut model, Vector3::z());
    model.add_body(sphere("ball", r, m, Vector3::new(0.0, 0.0, r))).unwrap();
    let opts = MoreauJeanOptions { activation_velocity: Some(1e-5), ..opts(1e-12) };
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    for _ in 0..100 {
        assert_eq!(sim.step().unwrap().n_active, 1);
        assert!((sim.contacts()[0].impulse.x - m * G * h).abs() <= 1e-12 * m * G * h);
    }
}
