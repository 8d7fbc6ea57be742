//! The step's energy and work (`MechanicsStepReport::energy`, Siconos `output_energy_work`) and
//! each active contact's relative velocities (`ContactPoint::velocities`), against the
//! mathematics of the scheme: at θ = ½ the kinetic energy changes by the work of the smooth
//! forces plus the contact impulses' work, `ΔK = W_f + Σ ½ (u⁻ + u⁺)·p`, to round-off, for a
//! spinning box (gyroscopic term), spheres and a cube falling, bouncing and sliding on a ground;
//! in free fall `W_f = m g Δz`; at a frictionless impact Newton's law `u⁺_N = −e u⁻_N`.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use saltus_mechanics::shape::{Cuboid, Sphere};
use saltus_mechanics::{
    nsgs, BodyDesc, BodyState, ContactLaw, Formulation, MechanicsModel, MechanicsSimulation, MoreauJeanOptions,
    ShapeDesc,
};

const G: f64 = 9.81;

fn box_inertia(m: f64, h: Vector3<f64>) -> Matrix3<f64> {
    let (a, b, c) = (2.0 * h.x, 2.0 * h.y, 2.0 * h.z);
    Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b)) * (m / 12.0)
}

/// A ground, two spheres (one thrown sideways), a cube dropped turned, and a flat box spinning
/// about an axis off its principal ones (its gyroscopic term works).
fn scene(e: f64, mu: f64, theta: f64) -> MechanicsSimulation {
    scene_with(e, mu, MoreauJeanOptions { theta, solver: nsgs(1e-12, 10_000), ..Default::default() })
}

fn scene_with(e: f64, mu: f64, opts: MoreauJeanOptions) -> MechanicsSimulation {
    scene_with_law(ContactLaw::new(e, mu), opts)
}

fn scene_with_law(law: ContactLaw, opts: MoreauJeanOptions) -> MechanicsSimulation {
    let mut m = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    m.set_law(0, 0, law).unwrap();
    m.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let r = 0.1;
    let sphere = |name: &str, x: f64, z: f64, vx: f64| {
        BodyDesc::dynamic(name)
            .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
            .mass(1.0, Matrix3::identity() * (0.4 * r * r))
            .state(BodyState { position: Vector3::new(x, 0.0, z), v: Vector3::new(vx, 0.0, 0.0), ..Default::default() })
    };
    m.add_body(sphere("a", 0.0, 0.3, 0.0)).unwrap();
    m.add_body(sphere("b", 1.0, 0.12, 2.0)).unwrap();
    let hc = Vector3::repeat(0.1);
    m.add_body(
        BodyDesc::dynamic("cube")
            .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: hc }))
            .mass(2.0, box_inertia(2.0, hc))
            .state(BodyState {
                position: Vector3::new(-1.0, 0.0, 0.5),
                orientation: UnitQuaternion::from_euler_angles(0.3, 0.5, 0.1),
                omega: Vector3::new(1.0, -2.0, 0.5),
                ..Default::default()
            }),
    )
    .unwrap();
    let hb = Vector3::new(0.3, 0.15, 0.05);
    m.add_body(
        BodyDesc::dynamic("spinner")
            .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: hb }))
            .mass(1.5, box_inertia(1.5, hb))
            .state(BodyState {
                position: Vector3::new(3.0, 0.0, 2.0),
                omega: Vector3::new(3.0, 7.0, 1.0),
                ..Default::default()
            }),
    )
    .unwrap();
    MechanicsSimulation::new(m, 0.0, 2e-3, opts).unwrap()
}

#[test]
fn at_theta_one_half_the_kinetic_energy_changes_by_the_work_of_forces_and_impulses() {
    let local = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-12, 10_000), ..Default::default() };
    balance_holds(scene_with(0.5, 0.4, local.clone()));
    // the global formulation (MoreauJeanGOSI) updates the velocities the same way
    balance_holds(scene_with(
        0.5,
        0.4,
        MoreauJeanOptions { formulation: Formulation::global_nsgs_wr(1e-12, 10_000), ..local },
    ));
}

fn balance_holds(mut sim: MechanicsSimulation) {
    let mut k0 = sim.model.kinetic_energy();
    let (mut impacts, mut sliding) = (0, 0);
    for _ in 0..600 {
        let r = sim.step().unwrap();
        let e = r.energy;
        let balance = e.work_forces + e.work_normal + e.work_tangent;
        assert!(
            (e.kinetic - k0 - balance).abs() < 1e-11 * (1.0 + k0),
            "t = {}: ΔK = {}, W = {balance}",
            r.t,
            e.kinetic - k0
        );
        assert_eq!(e.kinetic, sim.model.kinetic_energy());
        // (the normal work can be positive: a contact within the margin that opens, u⁻ > 0, is
        // held by Newton's law to u⁺ ≥ −e u⁻, Siconos's "impact law at a positive velocity")
        assert!(e.work_normal_negative <= e.work_normal.min(0.0) + 1e-15, "{e:?}");
        impacts += usize::from(e.work_normal < -1e-6);
        sliding += usize::from(e.work_tangent < -1e-6);
        k0 = e.kinetic;
    }
    assert!(impacts >= 3 && sliding >= 10, "the run has impacts ({impacts}) and sliding ({sliding})");
}

#[test]
fn in_free_fall_the_forces_work_is_the_weights_and_the_gyroscopic_terms() {
    // the spinner alone: W_f = −m g Δz + ω_θ · I (ω_free − ω_k), the second the scheme's
    // gyroscopic work, which vanishes as h → 0 (ω·(ω × Iω) = 0)
    for theta in [0.5, 0.7] {
        let mut sim = scene(0.5, 0.4, theta);
        for i in 0..4 {
            sim.remove_body(saltus_mechanics::BodyId(i)).unwrap();
        }
        let spinner = 4;
        let mut gyro = 0.0f64;
        for _ in 0..100 {
            let before = sim.model.bodies[spinner].state;
            let r = sim.step().unwrap();
            let after = sim.model.bodies[spinner].state;
            assert_eq!(r.n_contacts, 0);
            let weight = -1.5 * G * (after.position.z - before.position.z);
            gyro = gyro.max((r.energy.work_forces - weight).abs());
            let om_th = before.omega * (1.0 - theta) + after.omega * theta;
            let b = &sim.model.bodies[spinner];
            let expected = b.inertia() * (after.omega - before.omega);
            assert!((r.energy.work_forces - weight - expected.dot(&om_th)).abs() < 1e-12, "{r:?}");
        }
        assert!(gyro < 1e-3 * sim.model.kinetic_energy(), "θ = {theta}: gyroscopic work {gyro}");
    }
}

#[test]
fn a_frictionless_impact_follows_newtons_law_in_the_contact_velocities() {
    let e = 0.6;
    let mut m = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    m.set_law(0, 0, ContactLaw::new(e, 0.0)).unwrap();
    m.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let r = 0.1;
    m.add_body(
        BodyDesc::dynamic("ball")
            .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
            .mass(1.0, Matrix3::identity() * (0.4 * r * r))
            .position(Vector3::new(0.0, 0.0, 0.5)),
    )
    .unwrap();
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-14, 10_000), ..Default::default() };
    let mut sim = MechanicsSimulation::new(m, 0.0, 1e-3, opts).unwrap();
    let mut seen = false;
    for _ in 0..400 {
        sim.step().unwrap();
        for c in sim.contacts() {
            let Some([u0, u1]) = c.velocities else {
                assert!(!c.active);
                continue;
            };
            assert!(c.active);
            // the normal is from body 1 to body 2: u_N = n·(v₂ − v₁) is the gap's rate
            if u0.x < -1.0 {
                seen = true;
                assert!((u1.x + e * u0.x).abs() < 1e-10, "u⁻ = {u0:?}, u⁺ = {u1:?}");
                // p_N = m (u⁺ − u⁻) + m g h (the weight's impulse over the step is taken too), so
                // the normal work ½ (u⁻ + u⁺) p_N is ½ m (u⁺² − u⁻²) + ½ m g h (u⁻ + u⁺)
                let expected = 0.5 * (u1.x * u1.x - u0.x * u0.x) + 0.5 * G * 1e-3 * (u0.x + u1.x);
                assert!((0.5 * (u0.x + u1.x) * c.impulse.x - expected).abs() < 1e-9 * expected.abs(), "{c:?}");
            }
        }
    }
    assert!(seen, "the ball hit the ground");
}

/// Frémond's law (Siconos `FremondImpactFrictionNSL`) holds Coulomb's law on the tangential
/// θ-velocity `u_T^θ = (1 − θ) u⁻_T + θ u⁺_T`, so each contact's tangential work over a step,
/// `u_T^θ · p_T = −μ p_N ‖u_T^θ‖`, is never positive once the step's problem is solved; in the same
/// scene Newton's law (Coulomb on `u⁺_T`) returns energy through friction at some steps. At θ = ½ the
/// balance ΔK = W_f + W holds.
#[test]
fn fremonds_law_never_works_positively_through_friction() {
    // (largest tangential θ-work of a contact in a converged step, contact-steps sliding, steps not converged)
    let run = |law: ContactLaw, theta: f64| {
        let opts = MoreauJeanOptions { theta, solver: nsgs(1e-13, 20_000), ..Default::default() };
        let mut sim = scene_with_law(law, opts);
        let (mut most, mut sliding, mut unsolved) = (f64::NEG_INFINITY, 0, 0);
        for _ in 0..600 {
            let r = sim.step().unwrap();
            if r.solver.as_ref().is_some_and(|s| !s.status.converged()) {
                unsolved += 1;
                continue;
            }
            for c in sim.contacts() {
                let Some([u0, u1]) = c.velocities else { continue };
                let u_th = u0 * (1.0 - theta) + u1 * theta;
                let w_t = u_th.y * c.impulse.y + u_th.z * c.impulse.z;
                most = most.max(w_t);
                sliding += usize::from(w_t < -1e-6);
            }
        }
        (most, sliding, unsolved)
    };
    for theta in [0.5, 0.7] {
        let (fremond, sliding, unsolved) = run(ContactLaw::fremond(0.5, 0.4), theta);
        let (newton, _, newton_unsolved) = run(ContactLaw::new(0.5, 0.4), theta);
        eprintln!("θ = {theta}: Frémond {fremond:e} ({sliding} sliding, {unsolved} not converged); Newton {newton:e} ({newton_unsolved})");
        assert!(fremond <= 1e-12, "θ = {theta}: a contact's tangential θ-work is {fremond} > 0 under Frémond's law");
        assert!(sliding >= 10, "θ = {theta}: the scene slides ({sliding} contact-steps)");
        assert!(newton > 1e-3, "θ = {theta}: Newton's law gave no positive friction work ({newton}) in this scene");
    }
    let local = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-12, 10_000), ..Default::default() };
    balance_holds(scene_with_law(ContactLaw::fremond(0.5, 0.4), local.clone()));
    balance_holds(scene_with_law(
        ContactLaw::fremond(0.5, 0.4),
        MoreauJeanOptions { formulation: Formulation::global_nsgs_wr(1e-12, 10_000), ..local },
    ));
}
