//! Every shape meets the others where it should: capsule, cylinder, convex hull, box and sphere
//! at rest on a half-space, a triangle mesh and a height field; several shapes per body;
//! a kinematic plate carrying a sphere; contact identity across steps; same bits on a rerun.

use nalgebra::{DMatrix, Isometry3, Matrix3, UnitQuaternion, Vector2, Vector3};
use saltus_mechanics::shape::{Capsule, Cone, Cuboid, Cylinder, Sphere};
use saltus_mechanics::{
    nsgs, BodyDesc, BodyState, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};
use std::sync::Arc;

const G: f64 = 9.81;

fn opts() -> MoreauJeanOptions {
    MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-10, 10_000), ..Default::default() }
}

fn scene_with(ground: ShapeDesc, body: ShapeDesc, z0: f64, rot: UnitQuaternion<f64>) -> (MechanicsSimulation, f64) {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ground)).unwrap();
    let state = BodyState { position: Vector3::new(0.0, 0.0, z0), orientation: rot, ..Default::default() };
    let b = model.add_body(BodyDesc::dynamic("body").shape_at_origin(body).density(1000.0).state(state)).unwrap();
    let m = model.body(b).mass();
    (MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap(), m)
}

/// Runs 300 steps of a body laid on the ground and checks it stays put (to `tol`) with the
/// ground carrying its weight.
fn rests(mut sim: MechanicsSimulation, m: f64, z0: f64, tol: f64, what: &str) {
    for _ in 0..300 {
        sim.step().unwrap();
    }
    let s = sim.model.bodies[1].state;
    assert!((s.position - Vector3::new(0.0, 0.0, z0)).norm() < tol, "{what}: moved to {:?}", s.position);
    assert!(s.v.norm() < 1e-6, "{what}: still moving at {:?}", s.v);
    let normal: f64 = sim.contacts().iter().filter(|c| c.active).map(|c| c.impulse.x).sum();
    assert!((normal - m * G * 1e-3).abs() < 1e-6 * m * G * 1e-3, "{what}: Σλ_N = {normal}, m g h = {}", m * G * 1e-3);
}

#[test]
fn convex_shapes_rest_on_a_half_space() {
    let plane = || ShapeDesc::HalfSpace { normal: Vector3::z() };
    let lying = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2);
    let id = UnitQuaternion::identity();
    // Capsule and cylinder along y: lying on their side (capsule) or standing (cylinder, y → z).
    let (sim, m) = scene_with(plane(), ShapeDesc::from(Capsule { half_height: 0.2, radius: 0.05 }), 0.05, id);
    rests(sim, m, 0.05, 1e-6, "capsule");
    let (sim, m) = scene_with(plane(), ShapeDesc::from(Cylinder { half_height: 0.1, radius: 0.05 }), 0.1, lying);
    rests(sim, m, 0.1, 1e-6, "standing cylinder");
    let pts = vec![
        Vector3::new(-0.1, -0.1, -0.05),
        Vector3::new(0.1, -0.1, -0.05),
        Vector3::new(0.1, 0.1, -0.05),
        Vector3::new(-0.1, 0.1, -0.05),
        Vector3::new(0.0, 0.0, 0.1),
    ];
    // A square pyramid's centre of mass is a quarter of its height above the base: shift the
    // points so that the body origin is the centre of mass.
    let zc = -0.05 + 0.15 / 4.0;
    let pts: Vec<_> = pts.into_iter().map(|p| p - Vector3::new(0.0, 0.0, zc)).collect();
    let (sim, m) = scene_with(plane(), ShapeDesc::ConvexHull { points: pts }, 0.05 + zc, id);
    rests(sim, m, 0.05 + zc, 1e-6, "convex hull");
}

#[test]
fn sphere_rests_on_a_mesh_and_a_height_field() {
    let ball = || ShapeDesc::from(Sphere { radius: 0.05 });
    let id = UnitQuaternion::identity();
    // Two triangles covering [−1, 1]² at z = 0.
    let vertices = vec![
        Vector3::new(-1.0, -1.0, 0.0),
        Vector3::new(1.0, -1.0, 0.0),
        Vector3::new(1.0, 1.0, 0.0),
        Vector3::new(-1.0, 1.0, 0.0),
    ];
    let mesh = ShapeDesc::TriMesh { vertices, indices: vec![[0, 1, 2], [0, 2, 3]] };
    let (sim, m) = scene_with(mesh, ball(), 0.05, id);
    rests(sim, m, 0.05, 1e-6, "sphere on a mesh");
    // A height field z = 0.1 + 0.2 x over [−1, 1]²: a sphere placed on it at x = 0 touches at
    // the foot of the normal; with μ = 0.5 > slope 0.2 it rolls down (no sliding), so check
    // only that it does not sink through the surface.
    let heights = DMatrix::from_fn(11, 11, |i, _| 0.1 + 0.2 * (-1.0 + 0.2 * i as f64));
    let hf = ShapeDesc::HeightField { heights, size: Vector2::new(2.0, 2.0) };
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(hf)).unwrap();
    let n = Vector3::new(-0.2, 0.0, 1.0).normalize();
    let start = Vector3::new(0.0, 0.0, 0.1) + n * 0.05;
    let b = model.add_body(BodyDesc::dynamic("ball").shape_at_origin(ball()).density(1000.0).position(start)).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap();
    for _ in 0..200 {
        sim.step().unwrap();
        let x = sim.model.body(b).state.position;
        let dist = (x.z - (0.1 + 0.2 * x.x)) / (1.0f64 + 0.04).sqrt();
        assert!((dist - 0.05).abs() < 1e-4, "distance to the height field {dist} at {x:?}");
    }
    let s = sim.model.body(b).state;
    // Rolling down the slope: a = 5/7 g sin α along −x.
    let sin_a = 0.2 / 1.04f64.sqrt();
    let down = Vector3::new(-1.0, 0.0, -0.2) / 1.04f64.sqrt();
    let v_along = s.v.dot(&down);
    assert!((v_along - 5.0 / 7.0 * G * sin_a * 0.2).abs() < 1e-6 * v_along.abs().max(1.0), "v = {:?}", s.v);
}

/// A dumbbell of two spheres on a rod (three shapes, one body) lies on the plane on both balls.
#[test]
fn several_shapes_per_body() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let d = BodyDesc::dynamic("dumbbell")
        .shape(ShapeDesc::from(Sphere { radius: 0.05 }), Isometry3::translation(-0.2, 0.0, 0.0))
        .shape(ShapeDesc::from(Sphere { radius: 0.05 }), Isometry3::translation(0.2, 0.0, 0.0))
        .shape(ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.15, 0.01, 0.01) }), Isometry3::identity())
        .density(1000.0)
        .position(Vector3::new(0.0, 0.0, 0.05));
    let b = model.add_body(d).unwrap();
    let m = model.body(b).mass();
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap();
    for _ in 0..100 {
        let rep = sim.step().unwrap();
        assert_eq!(rep.n_active, 2, "one contact per ball");
    }
    let c = sim.contacts();
    assert_eq!(c[0].key.collider2 + 1, c[1].key.collider2, "two colliders of the same body");
    for ci in c {
        assert!((ci.impulse.x - 0.5 * m * G * 1e-3).abs() < 1e-9 * m * G * 1e-3, "each ball carries half");
    }
}

/// A sphere on a plate moving up and down (kinematic, `z = A sin ωt` with `A ω² < g`) stays on
/// it and follows it.
#[test]
fn kinematic_plate_carries_a_sphere() {
    let (amp, om) = (0.01, 20.0);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    let motion = Arc::new(move |t: f64| BodyState {
        position: Vector3::new(0.0, 0.0, amp * (om * t).sin() - 0.05),
        v: Vector3::new(0.0, 0.0, amp * om * (om * t).cos()),
        ..Default::default()
    });
    let plate = BodyDesc::kinematic("plate", motion)
        .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.5, 0.5, 0.05) }));
    model.add_body(plate).unwrap();
    let ball = BodyDesc::dynamic("ball")
        .shape_at_origin(ShapeDesc::from(Sphere { radius: 0.05 }))
        .mass(1.0, Matrix3::from_diagonal_element(0.001))
        .position(Vector3::new(0.0, 0.0, 0.05));
    let b = model.add_body(ball).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap();
    for _ in 0..1000 {
        sim.step().unwrap();
        let t = sim.time();
        let z = sim.model.body(b).state.position.z;
        let plate_top = amp * (om * t).sin();
        assert!((z - 0.05 - plate_top).abs() < 2e-4, "t = {t}: ball at {z}, plate top at {plate_top}");
    }
}

/// Persisting contacts keep their key (warm start hits), and two runs give the same bits.
#[test]
fn contact_identity_and_determinism() {
    let run = || {
        let scene = saltus_mechanics::scenes::spheres_in_a_box(27, 7).unwrap();
        let mut sim = scene.into_simulation().unwrap();
        let mut kept = 0usize;
        let mut prev: Vec<saltus_mechanics::ContactKey> = Vec::new();
        for _ in 0..150 {
            sim.step().unwrap();
            let keys: Vec<_> = sim.contacts().iter().map(|c| c.key).collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "contacts sorted by key, no duplicates");
            kept += keys.iter().filter(|k| prev.binary_search(k).is_ok()).count();
            prev = keys;
        }
        let states: Vec<_> = sim.model.bodies.iter().map(|b| b.state).collect();
        (states, kept)
    };
    let (a, kept) = run();
    let (b, _) = run();
    assert_eq!(a, b, "same input, same bits");
    assert!(kept > 1000, "contacts persist from step to step ({kept})");
}

/// A cone (Siconos's `Cone`, axis `y`) stood on its base rests with its origin at `half_height`
/// above the plane, the plane carrying its weight. Its
/// volume is `π r² H / 3` and its centre of mass `half_height/2` below the origin (parry), so a
/// body made of one cone from a density is refused with that offset.
#[test]
fn cone_stands_on_its_base() {
    let (r, hh, m) = (0.2, 0.15, 2.0);
    let cone = ShapeDesc::from(Cone { half_height: hh, radius: r });
    let up = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2); // y → z
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let state = BodyState { position: Vector3::new(0.0, 0.0, hh), orientation: up, ..Default::default() };
    let inertia = Matrix3::from_diagonal(&Vector3::new(0.02, 0.024, 0.02));
    model.add_body(BodyDesc::dynamic("cone").shape_at_origin(cone.clone()).mass(m, inertia).state(state)).unwrap();
    rests(MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap(), m, hh, 1e-8, "cone on its base");
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let e = model.add_body(BodyDesc::dynamic("c").shape_at_origin(cone).density(1000.0)).unwrap_err().to_string();
    assert!(e.contains("centre of mass"), "{e}");
    let offset = -hh / 2.0;
    assert!(e.contains(&format!("{offset}")) || e.contains(&format!("{:.4}", offset)), "{e}");
}
