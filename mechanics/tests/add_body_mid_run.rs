//! Bodies added between steps (`MechanicsSimulation::add_body`): a ball added at t = 0.1 s falls
//! freely from then on (z₀ − g (t − 0.1)²/2, exact for θ = ½), lands on the ball resting below it
//! and both come to rest stacked, the lower one carrying both weights; a name already used is
//! refused and leaves the simulation as it was.

use nalgebra::{Matrix3, Vector3};
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{nsgs, BodyDesc, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc};

const G: f64 = 9.81;

fn sphere(name: &str, r: f64, m: f64, z: f64) -> BodyDesc {
    BodyDesc::dynamic(name)
        .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
        .mass(m, Matrix3::from_diagonal_element(0.4 * m * r * r))
        .position(Vector3::new(0.0, 0.0, z))
}

#[test]
fn a_ball_added_mid_run_falls_from_then_and_stacks() {
    let (r, m, h) = (0.1, 1.0, 1e-3);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let low = model.add_body(sphere("low", r, m, r)).unwrap();
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-12, 10_000), ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let t_add = sim.time();
    let z0 = 1.0;
    let up = sim.add_body(sphere("up", r, m, z0)).unwrap();
    assert_eq!(up.index(), 2);
    assert!(sim.add_body(sphere("up", r, m, 2.0)).is_err(), "a second `up`");
    assert_eq!(sim.model.bodies.len(), 3);
    // free fall until it reaches the margin above the lower ball (top at 2 r)
    loop {
        sim.step().unwrap();
        let z = sim.model.body(up).state.position.z;
        if z < 3.0 * r + 0.02 {
            break;
        }
        let dt = sim.time() - t_add;
        assert!((z - (z0 - G * dt * dt / 2.0)).abs() < 1e-12, "t = {}: z = {z}", sim.time());
    }
    for _ in 0..2000 {
        sim.step().unwrap();
    }
    let (zl, zu) = (sim.model.body(low).state.position.z, sim.model.body(up).state.position.z);
    // the velocity-level impact (e = 0) of a ball arriving at v ≈ 3.7 m/s leaves at most h v of
    // penetration (Moreau–Jean without projection)
    let v_impact = (2.0 * G * (z0 - 3.0 * r)).sqrt();
    assert!((zl - r).abs() < 1e-3 && (zu - 3.0 * r).abs() < h * v_impact, "low {zl}, up {zu}");
    // at rest: the ground carries both weights
    let on_ground: f64 =
        sim.contacts().iter().filter(|c| c.body1.index() == 0 || c.body2.index() == 0).map(|c| c.impulse.x).sum();
    assert!((on_ground - 2.0 * m * G * h).abs() < 1e-6 * m * G * h, "{on_ground}");
}
