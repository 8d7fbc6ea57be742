//! 2D rigid bodies (Siconos `RigidBody2dDS`, `Disk`, `Box2d`, `ConvexHull2d`) against closed
//! forms: a disk dropped on a line (impact time, rebound height, rest at its radius), a disk
//! on an incline (rolling `a = ⅔ g sin α`, sliding `a = g (sin α − μ cos α)`), a box resting on a
//! line (normal impulses `m g h` per step), the 2D rolling resistance (stop distance), and each
//! step's 2D friction-contact error recomputed from the returned reactions.

use nalgebra::{Isometry3, Vector2, Vector3};
use saltus_mechanics::planar::{planar_coordinates, planar_inertia, planar_state};
use saltus_mechanics::shape::{Box2d, Disk, Sphere};
use saltus_mechanics::{
    nsgs, BodyDesc, BodyId, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};
use saltus_numerics::fc::fc_error;

const G: f64 = 9.81;

/// A scene with gravity `g` (in the plane), a law `(e, μ, μ_r)` and a static ground: the box
/// `[−50, 50] × [−1, 0]` (top side on `y = 0`).
fn ground_scene(g: Vector3<f64>, law: ContactLaw) -> MechanicsModel {
    let mut model = MechanicsModel::new(g, 0.01).unwrap();
    model.set_law(0, 0, law).unwrap();
    let ground = BodyDesc::fixed("ground")
        .shape_at_origin(ShapeDesc::from(Box2d { half_extents: Vector2::new(50.0, 0.5) }))
        .state(planar_state(0.0, -0.5, 0.0, 0.0, 0.0, 0.0));
    model.add_body(ground).unwrap();
    model
}

fn disk(model: &mut MechanicsModel, r: f64, m: f64, state: [f64; 6]) -> BodyId {
    let [x, y, th, vx, vy, w] = state;
    let d = BodyDesc::dynamic("disk")
        .shape_at_origin(ShapeDesc::from(Disk { radius: r }))
        .mass(m, planar_inertia(0.5 * m * r * r))
        .state(planar_state(x, y, th, vx, vy, w));
    model.add_body(d).unwrap()
}

fn sim(model: MechanicsModel, h: f64, tol: f64) -> MechanicsSimulation {
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(tol, 1000), ..Default::default() };
    MechanicsSimulation::new(model, 0.0, h, opts).unwrap()
}

/// e = ½: the disk hits the line at `t* = √(2 H / g)` (H the fall height), leaves it at `e v*`
/// and climbs to `e² H`; with e = 0 it stays at its radius.
#[test]
fn disk_dropped_on_a_line_bounces_then_rests() {
    let (r, m, y0, h) = (0.5, 2.0, 3.0, 1e-4);
    let fall = y0 - r;
    let t_star = (2.0 * fall / G).sqrt();
    let v_star = G * t_star;
    for e in [0.5, 0.0] {
        let mut model = ground_scene(Vector3::new(0.0, -G, 0.0), ContactLaw::new(e, 0.3));
        let b = disk(&mut model, r, m, [0.0, y0, 0.0, 0.0, 0.0, 0.0]);
        let mut s = sim(model, h, 1e-12);
        let (mut t_hit, mut apex) = (None, 0.0f64);
        while s.time() < t_star + 2.0 * e * v_star / G + 0.05 {
            let rep = s.step().unwrap();
            let [x, y, th, vx, vy, w] = planar_coordinates(&s.model.body(b).state);
            assert!(x == 0.0 && th == 0.0 && vx == 0.0 && w == 0.0, "straight down: {x} {th} {vx} {w}");
            if rep.n_active > 0 && t_hit.is_none() {
                t_hit = Some(s.time());
                // Newton's law at the impact: u⁺ = −e u⁻ (the step's velocity before it: v* at ±h g)
                assert!(
                    (vy - e * v_star).abs() <= 2.0 * G * h * (1.0 + e),
                    "e = {e}: rebound {vy}, e v* = {}",
                    e * v_star
                );
            }
            if t_hit.is_some() {
                apex = apex.max(y - r);
            }
        }
        let t_hit = t_hit.expect("the disk reaches the line");
        assert!((t_hit - t_star).abs() <= 2.0 * h, "e = {e}: impact at {t_hit}, t* = {t_star}");
        assert!((apex - e * e * fall).abs() <= 2.0 * v_star * h, "e = {e}: apex {apex}, e² H = {}", e * e * fall);
        if e == 0.0 {
            let [_, y, _, _, vy, _] = planar_coordinates(&s.model.body(b).state);
            // at rest on the line: within the last step's travel of the radius, and still
            assert!((y - r).abs() <= 0.5 * v_star * h && vy.abs() <= 1e-12, "rest at y = {y}, vy = {vy}");
        }
        println!("e = {e}: impact at t = {t_hit:.5} (t* = {t_star:.5}), apex {apex:.6} (e² H = {:.6})", e * e * fall);
    }
}

/// A disk (I = m r²/2) on an incline of angle α (gravity tilted): with μ ≥ tan α / 3 it rolls
/// without slipping at `a = ⅔ g sin α`, `ω = −v / r`; with a small μ it slides at
/// `a = g (sin α − μ cos α)` while `ω̇ = −2 μ g cos α / r`.
#[test]
fn disk_on_an_incline_rolls_or_slides() {
    let (r, m, h, alpha) = (0.25, 1.5, 1e-3, 30f64.to_radians());
    let g = Vector3::new(G * alpha.sin(), -G * alpha.cos(), 0.0);
    for (mu, a, wdot) in [
        (0.8, 2.0 / 3.0 * G * alpha.sin(), -2.0 / 3.0 * G * alpha.sin() / r),
        (0.1, G * (alpha.sin() - 0.1 * alpha.cos()), -2.0 * 0.1 * G * alpha.cos() / r),
    ] {
        let mut model = ground_scene(g, ContactLaw::new(0.0, mu));
        let b = disk(&mut model, r, m, [0.0, r, 0.0, 0.0, 0.0, 0.0]);
        let mut s = sim(model, h, 1e-13);
        for k in 1..=1000 {
            let rep = s.step().unwrap();
            assert!(rep.solver.as_ref().is_some_and(|x| x.status.converged()), "step {k}");
            let [x, y, _, vx, vy, w] = planar_coordinates(&s.model.body(b).state);
            let t = s.time();
            assert!((vx - a * t).abs() <= 1e-9 * (1.0 + a * t), "μ = {mu}, t = {t}: vx = {vx}, a t = {}", a * t);
            assert!((x - 0.5 * a * t * t).abs() <= 1e-9, "μ = {mu}, t = {t}: x = {x}");
            assert!((w - wdot * t).abs() <= 1e-8 * (1.0 + wdot.abs() * t), "μ = {mu}, t = {t}: ω = {w}");
            assert!((y - r).abs() <= 1e-12 && vy.abs() <= 1e-12, "on the line: y = {y}, vy = {vy}");
        }
        println!("μ = {mu}: x(1) = {:.9}, ½ a = {:.9}", planar_coordinates(&s.model.body(b).state)[0], 0.5 * a);
    }
}

/// A box resting on a line holds its weight: the normal impulses of its two corners sum to
/// `m g h` every step, and each step's 2D problem, recomputed from the returned reactions,
/// has Siconos's error below the solver tolerance.
#[test]
fn box_resting_on_a_line_holds_its_weight() {
    let (m, h, tol) = (3.0, 1e-3, 1e-10);
    let mut model = ground_scene(Vector3::new(0.0, -G, 0.0), ContactLaw::new(0.0, 0.5));
    let b = model
        .add_body(
            BodyDesc::dynamic("box")
                .shape_at_origin(ShapeDesc::from(Box2d { half_extents: Vector2::new(0.5, 0.25) }))
                .mass(m, planar_inertia(m * (1.0 + 0.25) / 12.0))
                .state(planar_state(0.3, 0.25, 0.0, 0.0, 0.0, 0.0)),
        )
        .unwrap();
    let mut s = sim(model, h, tol);
    s.set_capture_problem(true);
    for k in 0..500 {
        let rep = s.step().unwrap();
        assert_eq!(rep.n_active, 2, "step {k}: two corners");
        let sum: f64 = s.contacts().iter().filter(|c| c.active).map(|c| c.impulse.x).sum();
        assert!((sum - m * G * h).abs() <= 1e-9 * m * G * h, "step {k}: Σ λ_N = {sum}, m g h = {}", m * G * h);
        let cap = s.captured().expect("captured");
        let saltus_mechanics::CapturedProblem::Local(p) = &cap.problem else { panic!("local problem") };
        assert_eq!(p.dim(), 2);
        let err = fc_error(p, &cap.r);
        assert!(err <= tol, "step {k}: error {err:e}");
    }
    let [x, y, th, ..] = planar_coordinates(&s.model.body(b).state);
    assert!((x - 0.3).abs() <= 1e-12 && (y - 0.25).abs() <= 1e-12 && th.abs() <= 1e-12, "{x} {y} {th}");
}

/// A pile of disks and polygons in a box: every step whose solver reports convergence has its
/// error (recomputed from the reactions) below the tolerance, the reported residual is that
/// error, and the bodies stay in their box.
#[test]
fn pile_of_disks_and_polygons_solves_each_step() {
    let (h, tol) = (1e-3, 1e-8);
    let mut model = ground_scene(Vector3::new(0.0, -G, 0.0), ContactLaw::new(0.2, 0.4));
    for (name, x) in [("left", -1.1), ("right", 1.1)] {
        let wall = BodyDesc::fixed(name)
            .shape_at_origin(ShapeDesc::from(Box2d { half_extents: Vector2::new(0.1, 2.0) }))
            .state(planar_state(x, 2.0, 0.0, 0.0, 0.0, 0.0));
        model.add_body(wall).unwrap();
    }
    let tri = ShapeDesc::ConvexPolygon {
        points: vec![Vector2::new(-0.1, -0.1), Vector2::new(0.2, -0.1), Vector2::new(-0.1, 0.2)],
    };
    for i in 0..30 {
        let (x, y) = (-0.8 + 0.4 * (i % 5) as f64, 0.3 + 0.35 * (i / 5) as f64);
        let d = if i % 3 == 0 {
            // the triangle's centroid is at the origin: density gives its mass and inertia
            BodyDesc::dynamic(&format!("b{i}")).shape_at_origin(tri.clone()).density(500.0)
        } else {
            BodyDesc::dynamic(&format!("b{i}")).shape_at_origin(ShapeDesc::from(Disk { radius: 0.15 })).density(500.0)
        };
        model.add_body(d.state(planar_state(x + 0.002 * i as f64, y, 0.1 * i as f64, 0.0, 0.0, 0.0))).unwrap();
    }
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(tol, 1000), ..Default::default() };
    let mut s = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    s.set_capture_problem(true);
    let (mut solved, mut converged, mut worst) = (0, 0, 0.0f64);
    for k in 0..1500 {
        let rep = s.step().unwrap();
        if let Some(cap) = s.captured() {
            let saltus_mechanics::CapturedProblem::Local(p) = &cap.problem else { panic!("local problem") };
            let err = fc_error(p, &cap.r);
            let sr = rep.solver.as_ref().expect("a solve");
            assert!((err - sr.residual).abs() <= 1e-3 * err.max(tol), "step {k}: {err:e} vs {:e}", sr.residual);
            if sr.status.converged() {
                assert!(err <= tol, "step {k}: error {err:e} with {} contacts", p.n_contacts());
                converged += 1;
            } else {
                worst = worst.max(err);
            }
            solved += 1;
        }
    }
    // NSGS stalls on some jammed steps within 1000 sweeps (90 % converge to 1e-8, 97 % with
    // 20 000 sweeps): those keep a small error (≤ 1.4e-5), and the pile stays sound
    println!("pile: {converged} of {solved} steps converged to {tol:e}, the others' worst error {worst:e}");
    assert!(solved > 1000 && converged * 100 >= 85 * solved && worst <= 1e-4, "{converged} of {solved}, {worst:e}");
    for b in s.model.bodies.iter().filter(|b| b.is_dynamic()) {
        let [x, y, ..] = planar_coordinates(&b.state);
        assert!(x.abs() < 1.0 && y > 0.0 && y < 2.5, "{}: ({x}, {y})", b.name);
        assert!(b.state.position.z == 0.0 && b.state.v.z == 0.0, "in the plane");
    }
}

/// 2D rolling resistance (Siconos `NewtonImpactRollingFrictionNSL` in 2D: `|λ_R| ≤ μ_r λ_N`
/// on `u_R = ω₂ − ω₁`): a disk launched rolling at `v₀` decelerates at `a = ⅔ μ_r g / r` and
/// stops after `D = 3 r v₀² / (4 μ_r g)`.
#[test]
fn disk_rolling_resistance_stops_it() {
    let (r, m, v0, mu_r, h) = (0.1, 1.0, 1.0, 0.01, 1e-3);
    let mut model = ground_scene(Vector3::new(0.0, -G, 0.0), ContactLaw::rolling(0.0, 0.5, mu_r));
    let b = disk(&mut model, r, m, [0.0, r, 0.0, v0, 0.0, -v0 / r]);
    let mut s = sim(model, h, 1e-13);
    let a = 2.0 / 3.0 * mu_r * G / r;
    let d_stop = 3.0 * r * v0 * v0 / (4.0 * mu_r * G);
    let mut k = 0;
    while s.time() < v0 / a + 0.2 {
        s.step().unwrap();
        k += 1;
        let [_, _, _, vx, _, w] = planar_coordinates(&s.model.body(b).state);
        let expect = (v0 - a * h * k as f64).max(0.0);
        assert!((vx - expect).abs() <= 1e-9, "step {k}: v = {vx}, closed form {expect}");
        assert!((vx + w * r).abs() <= 1e-9, "step {k}: no slip");
    }
    let [x, ..] = planar_coordinates(&s.model.body(b).state);
    assert!((x - d_stop).abs() <= v0 * h, "stop at {x}, D = {d_stop}");
    println!("2D rolling: stop at {x:.6} m, D = {d_stop:.6} m");
}

/// A scene is 2D or 3D as a whole; a planar shape's offset stays in the plane; gravity of a
/// 2D scene is in the plane.
#[test]
fn planar_and_3d_do_not_mix() {
    let mut model = ground_scene(Vector3::new(0.0, -G, 0.0), ContactLaw::new(0.0, 0.3));
    let ball = BodyDesc::dynamic("ball").shape_at_origin(ShapeDesc::from(Sphere { radius: 1.0 })).density(1.0);
    assert!(model.add_body(ball).is_err());
    let off = Isometry3::translation(0.0, 0.0, 1.0);
    let tilted = BodyDesc::dynamic("d").shape(ShapeDesc::from(Disk { radius: 1.0 }), off).density(1.0);
    assert!(model.add_body(tilted).is_err());
    let out_of_plane = BodyDesc::dynamic("d2")
        .shape_at_origin(ShapeDesc::from(Disk { radius: 1.0 }))
        .density(1.0)
        .position(Vector3::new(0.0, 2.0, 0.5));
    assert!(model.add_body(out_of_plane).is_err());
    model.gravity = Vector3::new(0.0, 0.0, -G);
    assert!(MechanicsSimulation::new(model, 0.0, 1e-3, MoreauJeanOptions::default()).is_err());
}

/// The global formulation in 2D (Siconos `MoreauJeanGOSI` on 2D bodies: `GlobalFrictionContact`
/// of dimension 2, or `GlobalRollingFrictionContact` of dimension 3 with a rolling law): its
/// condensed form is the local 2D problem, so a small pile of disks and triangles between walls
/// (impacts, friction, contacts between dynamic bodies) and the rolling disk keep the local run's
/// velocities and impulses at every step to the solver's tolerance.
#[test]
fn local_and_global_agree_in_2d() {
    let tol = 1e-13;
    let global = |o: &MoreauJeanOptions| MoreauJeanOptions {
        formulation: saltus_mechanics::Formulation::global_nsgs_wr(tol, 100_000),
        ..o.clone()
    };
    let local = MoreauJeanOptions { theta: 0.5, solver: nsgs(tol, 100_000), ..Default::default() };
    let mut pile = ground_scene(Vector3::new(0.0, -G, 0.0), ContactLaw::new(0.3, 0.4));
    let tri = ShapeDesc::ConvexPolygon {
        points: vec![Vector2::new(-0.1, -0.1), Vector2::new(0.2, -0.1), Vector2::new(-0.1, 0.2)],
    };
    for i in 0..6 {
        let (x, y) = (-0.3 + 0.3 * (i % 3) as f64, 0.2 + 0.3 * (i / 3) as f64);
        let shape = if i % 2 == 0 { tri.clone() } else { ShapeDesc::from(Disk { radius: 0.12 }) };
        let d = BodyDesc::dynamic(&format!("b{i}")).shape_at_origin(shape).density(500.0);
        pile.add_body(d.state(planar_state(x + 0.01 * i as f64, y, 0.2 * i as f64, 0.1, 0.0, 0.5))).unwrap();
    }
    let mut rolling = ground_scene(Vector3::new(0.0, -G, 0.0), ContactLaw::rolling(0.0, 0.5, 0.01));
    disk(&mut rolling, 0.1, 1.0, [0.0, 0.1, 0.0, 1.0, 0.0, -10.0]);
    for (model, steps, min_active) in [(pile, 800, 4), (rolling, 300, 1)] {
        let mut a = MechanicsSimulation::new(model.clone(), 0.0, 1e-3, local.clone()).unwrap();
        let mut b = MechanicsSimulation::new(model, 0.0, 1e-3, global(&local)).unwrap();
        let mut max_active = 0;
        for k in 0..steps {
            let (ra, rb) = (a.step().unwrap(), b.step().unwrap());
            assert_eq!(ra.n_active, rb.n_active, "step {k}");
            max_active = max_active.max(ra.n_active);
            for (x, y) in a.model.bodies.iter().zip(&b.model.bodies) {
                let (sx, sy) = (&x.state, &y.state);
                let dv = (sx.v - sy.v).norm() + (sx.omega - sy.omega).norm();
                assert!(dv <= 1e-8 * (1.0 + sx.v.norm() + sx.omega.norm()), "step {k}, {}: {sx:?} vs {sy:?}", x.name);
                assert!(sy.position.z == 0.0 && sy.v.z == 0.0, "in the plane");
            }
            for (x, y) in a.contacts().iter().zip(b.contacts()) {
                assert!((x.impulse - y.impulse).norm() <= 1e-8 * (1.0 + x.impulse.norm()), "step {k}");
            }
        }
        assert!(max_active >= min_active, "{max_active} active contacts at most");
    }
}
