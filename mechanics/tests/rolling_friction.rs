//! Rolling friction (Siconos `NewtonImpactRollingFrictionNSL`) against closed forms.
//!
//! A sphere (radius R, mass m, inertia I = 2/5 m R²) rolling without slipping on a plane under a
//! rolling torque `μ_r N` opposing its rotation: `m a = F`, `I ω̇ = −R F − μ_r m g`, `a = R ω̇`
//! give the constant deceleration `a = μ_r m g R/(I + m R²) = (5/7) g μ_r / R`, so it stops
//! after `T = v₀/a` at the distance `D = v₀²/(2a) = 7 R v₀²/(10 g μ_r)`. Moreau–Jean with θ = ½
//! reproduces this exactly: the normal impulse of a step is `m g h`, the rolling torque impulse
//! `μ_r m g h`, so the speed drops by `a h` per step and the position (trapezoidal rule on a
//! linear speed) follows; the last step sticks (`u_R = 0`).

use nalgebra::{Matrix3, Vector3};
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{
    nsgs, BodyDesc, BodyState, ContactLaw, Formulation, MechanicsModel, MechanicsSimulation, MoreauJeanOptions,
    ShapeDesc,
};

const G: f64 = 9.81;

fn rolling_sphere(radius: f64, m: f64, v0: Vector3<f64>, mu_r: f64) -> (MechanicsSimulation, saltus_mechanics::BodyId) {
    rolling_sphere_with(radius, m, v0, mu_r, Formulation::Local)
}

fn rolling_sphere_with(
    radius: f64,
    m: f64,
    v0: Vector3<f64>,
    mu_r: f64,
    formulation: Formulation,
) -> (MechanicsSimulation, saltus_mechanics::BodyId) {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::rolling(0.0, 0.5, mu_r)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    // Rolling without slipping: v + ω × (−R e_z) = 0, i.e. ω = e_z × v / R.
    let omega = Vector3::z().cross(&v0) / radius;
    let state = BodyState { position: Vector3::new(0.0, 0.0, radius), v: v0, omega, ..Default::default() };
    let b = model
        .add_body(
            BodyDesc::dynamic("ball")
                .shape_at_origin(ShapeDesc::from(Sphere { radius }))
                .mass(m, Matrix3::from_diagonal_element(0.4 * m * radius * radius))
                .state(state),
        )
        .unwrap();
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-13, 1000), formulation, ..Default::default() };
    (MechanicsSimulation::new(model, 0.0, 1e-3, opts).unwrap(), b)
}

/// The sphere decelerates at (5/7) g μ_r / R, stops at `T` and at the distance `D`.
#[test]
fn sphere_stops_where_rolling_resistance_says() {
    stops_where_rolling_resistance_says(Formulation::Local);
}

/// The same in the global formulation (Siconos `MoreauJeanGOSI` + `GlobalRollingFrictionContact`
/// solved by `GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`).
#[test]
fn sphere_stops_where_rolling_resistance_says_global() {
    stops_where_rolling_resistance_says(Formulation::global_nsgs_wr(1e-13, 1000));
}

fn stops_where_rolling_resistance_says(formulation: Formulation) {
    let (radius, m, speed, mu_r, h) = (0.1, 1.3, 1.0, 0.01, 1e-3);
    let dir = Vector3::new(0.6, 0.8, 0.0);
    let (mut sim, b) = rolling_sphere_with(radius, m, dir * speed, mu_r, formulation);
    let a = 5.0 / 7.0 * G * mu_r / radius;
    let (t_stop, d_stop) = (speed / a, speed * speed / (2.0 * a));
    let mut v_prev = speed;
    let mut x_disc = 0.0; // trapezoidal rule on the scheme's speeds
    let mut k = 0;
    while sim.time() < t_stop + 0.2 {
        let rep = sim.step().unwrap();
        k += 1;
        let s = &rep.solver.as_ref().unwrap();
        assert!(s.status.converged(), "step {k}: {s:?}");
        let st = sim.model.body(b).state;
        let v_expect = (speed - a * h * k as f64).max(0.0);
        let v = st.v.dot(&dir);
        assert!((v - v_expect).abs() <= 1e-9, "step {k}: v = {v}, closed form {v_expect}");
        assert!((st.v - dir * v).norm() <= 1e-12 && st.v.z.abs() <= 1e-12, "straight line");
        // No slip at the contact point: v − R ω × e_z = 0.
        assert!((st.v + st.omega.cross(&(-Vector3::z() * radius))).norm() <= 1e-9, "no slip");
        x_disc += h * 0.5 * (v_prev + v);
        v_prev = v;
    }
    let st = sim.model.body(b).state;
    let d = st.position.xy().norm();
    assert!(st.v.norm() <= 1e-12 && st.omega.norm() <= 1e-9, "at rest: {:?} {:?}", st.v, st.omega);
    assert!((d - x_disc).abs() <= 1e-9, "distance {d} vs the scheme's closed form {x_disc}");
    // The discrete stop differs from the continuous one by less than a step's travel.
    assert!((d - d_stop).abs() <= speed * h, "distance {d} vs D = {d_stop}");
    assert!((st.position.z - radius).abs() <= 1e-9);
    println!("stop distance {d:.9} m (closed form D = {d_stop:.9} m), T = {t_stop:.6} s");
}

/// Without rolling resistance (μ_r = 0 on a rolling law's scene path) the sphere keeps rolling.
#[test]
fn sphere_without_rolling_resistance_keeps_rolling() {
    let (radius, m, speed) = (0.1, 1.0, 1.0);
    let (mut sim, b) = rolling_sphere(radius, m, Vector3::x() * speed, 0.0);
    // Force the rolling path with a second, unused law that has rolling friction.
    sim.model.set_law(1, 1, ContactLaw::rolling(0.0, 0.5, 0.1)).unwrap();
    for _ in 0..1000 {
        let rep = sim.step().unwrap();
        assert_eq!(rep.n_active, 1);
    }
    let st = sim.model.body(b).state;
    assert!((st.v.x - speed).abs() <= 1e-12 && (st.omega.y - speed / radius).abs() <= 1e-10, "{st:?}");
    assert!((st.position.x - speed * 1.0).abs() <= 1e-9, "{}", st.position.x);
}

/// A sphere thrown sliding with backspin: Coulomb friction brings it to rolling, then the
/// rolling resistance to rest. The kinetic energy never increases.
#[test]
fn sliding_then_rolling_dissipates() {
    let (radius, m) = (0.1, 1.0);
    let (mut sim, b) = rolling_sphere(radius, m, Vector3::x() * 2.0, 0.01);
    sim.model.body_mut(b).state.omega = Vector3::new(0.0, -10.0, 0.0);
    let mut e_prev = sim.model.kinetic_energy();
    for _ in 0..3000 {
        sim.step().unwrap();
        let e = sim.model.kinetic_energy();
        assert!(e <= e_prev + 1e-12, "energy grew: {e_prev} -> {e}");
        e_prev = e;
    }
    let st = sim.model.body(b).state;
    assert!(st.v.norm() <= 1e-9 && st.omega.norm() <= 1e-8, "at rest {st:?}");
}

/// The HDF5 output names a rolling law as Siconos does (`NewtonImpactRollingFrictionNSL`, `mu_r`).
#[test]
fn hdf5_output_names_the_rolling_law() {
    use saltus_mechanics::io_hdf5::{Hdf5Options, MechanicsHdf5Writer};
    let (sim, _) = rolling_sphere(0.1, 1.0, Vector3::x(), 0.01);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("roll.hdf5");
    drop(MechanicsHdf5Writer::create(&path, &sim, Hdf5Options::default()).unwrap());
    let f = hdf5_pure::File::open(&path).unwrap();
    let law = f.dataset("data/nslaws/law-0-0").unwrap().attrs().unwrap();
    assert_eq!(law["type"].as_str(), Some("NewtonImpactRollingFrictionNSL"));
    assert_eq!(law["mu_r"], hdf5_pure::AttrValue::F64Array(vec![0.01]));
}

/// Local and global formulations are the same rolling problem (the global one condenses to the
/// local `W = H M⁻¹ Hᵀ`): spheres dropped onto each other and the ground, rolling, sliding and
/// sticking with rolling resistance, keep the same velocities and impulses at every step to the
/// solver's tolerance.
#[test]
fn local_and_global_rolling_agree_on_a_small_pile() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.005).unwrap();
    model.set_law(0, 0, ContactLaw::rolling(0.2, 0.4, 0.005)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let r = 0.05;
    let starts = [
        (Vector3::new(0.0, 0.0, r), Vector3::new(0.3, 0.0, 0.0), Vector3::new(0.0, 2.0, 0.0)),
        (Vector3::new(0.02, 0.01, 3.5 * r), Vector3::zeros(), Vector3::new(1.0, 0.0, -3.0)),
        (Vector3::new(-0.03, 0.04, 6.0 * r), Vector3::new(0.0, -0.2, 0.0), Vector3::zeros()),
    ];
    for (i, (x, v, w)) in starts.into_iter().enumerate() {
        let state = BodyState { position: x, v, omega: w, ..Default::default() };
        model
            .add_body(
                BodyDesc::dynamic(&format!("s{i}"))
                    .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
                    .mass(0.5, Matrix3::from_diagonal_element(0.4 * 0.5 * r * r))
                    .state(state),
            )
            .unwrap();
    }
    let tol = 1e-13;
    let opts =
        |formulation| MoreauJeanOptions { theta: 0.5, solver: nsgs(tol, 100_000), formulation, ..Default::default() };
    let mut a = MechanicsSimulation::new(model.clone(), 0.0, 1e-3, opts(Formulation::Local)).unwrap();
    let mut b = MechanicsSimulation::new(model, 0.0, 1e-3, opts(Formulation::global_nsgs_wr(tol, 100_000))).unwrap();
    let mut max_active = 0;
    for k in 0..600 {
        let (ra, rb) = (a.step().unwrap(), b.step().unwrap());
        assert_eq!((ra.n_active, ra.n_contacts), (rb.n_active, rb.n_contacts), "step {k}");
        assert!(rb.solver.as_ref().is_none_or(|s| s.status.converged()), "step {k}: {:?}", rb.solver);
        max_active = max_active.max(ra.n_active);
        for (x, y) in a.model.bodies.iter().zip(&b.model.bodies) {
            let (sx, sy) = (&x.state, &y.state);
            let dv = (sx.v - sy.v).norm() + (sx.omega - sy.omega).norm();
            assert!(dv <= 1e-8 * (1.0 + sx.v.norm() + sx.omega.norm()), "step {k}, {}: {sx:?} vs {sy:?}", x.name);
        }
        for (x, y) in a.contacts().iter().zip(b.contacts()) {
            assert!((x.impulse - y.impulse).norm() <= 1e-8 * (1.0 + x.impulse.norm()), "step {k}");
        }
    }
    assert!(max_active >= 3, "ground and sphere-sphere contacts ({max_active})");
}
