//! Free rigid bodies: the Dzhanibekov (tennis-racket) effect with energy and angular momentum
//! conserved, and the unit quaternion kept of norm 1 over 10⁶ steps.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use saltus_mechanics::shape::Cuboid;
use saltus_mechanics::{BodyDesc, BodyState, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc};

/// Euler's equations `I Ω̇ = −Ω × I Ω` by classical RK4 (the reference).
fn euler_rk4(i: &Vector3<f64>, om: Vector3<f64>, t: f64, n: usize) -> Vector3<f64> {
    let f = |w: &Vector3<f64>| {
        let l = w.component_mul(i);
        -w.cross(&l).component_div(i)
    };
    let dt = t / n as f64;
    let mut w = om;
    for _ in 0..n {
        let k1 = f(&w);
        let k2 = f(&(w + k1 * (dt / 2.0)));
        let k3 = f(&(w + k2 * (dt / 2.0)));
        let k4 = f(&(w + k3 * dt));
        w += (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (dt / 6.0);
    }
    w
}

/// A body spun about its intermediate axis flips over and over (θ = ½); energy and the world
/// angular momentum stay constant to 1e-6 over 10 s, and Ω follows Euler's equations.
#[test]
fn dzhanibekov_flips_and_conserves() {
    let inertia = Vector3::new(1.0, 2.0, 3.0);
    let om0 = Vector3::new(0.01, 5.0, 0.01);
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let state =
        BodyState { omega: om0, orientation: UnitQuaternion::from_euler_angles(0.2, 0.1, -0.3), ..Default::default() };
    let body = BodyDesc::dynamic("racket")
        .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.3, 0.2, 0.1) }))
        .mass(1.0, Matrix3::from_diagonal(&inertia))
        .state(state);
    let b = model.add_body(body).unwrap();
    let h = 1e-3;
    let opts = MoreauJeanOptions { theta: 0.5, ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    let e0 = sim.model.kinetic_energy();
    let l0 = sim.model.body(b).angular_momentum();
    let (mut flips, mut last_sign) = (0, 1.0);
    let (mut de, mut dl) = (0.0f64, 0.0f64);
    for k in 1..=10_000 {
        let rep = sim.step().unwrap();
        assert_eq!(rep.gyro_not_converged, 0);
        let body = sim.model.body(b);
        de = de.max((body.kinetic_energy() - e0).abs() / e0);
        dl = dl.max((body.angular_momentum() - l0).norm() / l0.norm());
        let s = body.state.omega.y.signum();
        if s != last_sign {
            flips += 1;
            last_sign = s;
        }
        if k == 3000 {
            let reference = euler_rk4(&inertia, om0, 3.0, 300_000);
            let err = (body.state.omega - reference).norm() / reference.norm();
            assert!(err < 1e-3, "Ω(3 s) = {:?}, RK4 {:?}", body.state.omega, reference);
        }
    }
    assert!(de < 1e-6, "energy drift {de}");
    assert!(dl < 1e-6, "angular momentum drift {dl}");
    // Reference flips: sign changes of Ω_y along the RK4 solution (Δt = 1e-4).
    let (mut w, mut ref_flips, mut sign) = (om0, 0, 1.0);
    for _ in 0..100_000 {
        w = euler_rk4(&inertia, w, 1e-4, 1);
        if w.y.signum() != sign {
            ref_flips += 1;
            sign = w.y.signum();
        }
    }
    assert!(ref_flips >= 2, "the reference flips {ref_flips} times");
    assert_eq!(flips, ref_flips, "Ω_y changes sign {flips} times, Euler's equations {ref_flips} times");
}

/// Exponential-map update with renormalisation: `|q| = 1` to round-off after 10⁶ steps, and
/// the orientation of a sphere spinning at constant `Ω` is `q₀ exp(t Ω)`.
#[test]
fn quaternion_stays_unit_over_a_million_steps() {
    let om = Vector3::new(1.0, -2.0, 3.0);
    let q0 = UnitQuaternion::from_euler_angles(0.5, -0.2, 1.0);
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let body = BodyDesc::dynamic("top").mass(1.0, Matrix3::identity()).state(BodyState {
        omega: om,
        orientation: q0,
        ..Default::default()
    });
    let b = model.add_body(body).unwrap();
    let h = 1e-3;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, MoreauJeanOptions::default()).unwrap();
    let mut worst = 0.0f64;
    for _ in 0..1_000_000 {
        sim.step().unwrap();
        worst = worst.max((sim.model.body(b).state.orientation.coords.norm() - 1.0).abs());
    }
    assert!(worst <= 4.0 * f64::EPSILON, "| |q| − 1 | reached {worst}");
    let t = 1_000_000.0 * h;
    let exact = q0 * UnitQuaternion::from_scaled_axis(om * t);
    let got = sim.model.body(b).state.orientation;
    assert!(got.angle_to(&exact) < 1e-8, "orientation off by {} rad", got.angle_to(&exact));
}

/// Moreau–Jean is written once for rigid bodies (`saltus_kernel::simulation::osi::rigid_body`):
/// a kernel rigid body (`LagrangianDs::rigid_body`, stepped by the kernel's `TimeStepping`) and
/// a scene's body, both thrown spinning about an intermediate axis under gravity, have the same
/// 13 numbers, bit for bit, at every one of 3000 steps (θ = ½, h = 1e-3, tumbling included).
#[test]
fn a_kernel_rigid_body_steps_as_a_scene_body() {
    use saltus_kernel::{LagrangianDs, Nsds, Osi, Osnsp, TimeStepping};
    let (m, g, h) = (1.5, -9.81, 1e-3);
    let inertia = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let state = BodyState {
        position: Vector3::new(0.1, 0.2, 1.0),
        orientation: UnitQuaternion::from_euler_angles(0.2, 0.1, -0.3),
        v: Vector3::new(0.3, -0.1, 2.0),
        omega: Vector3::new(0.01, 5.0, 0.01),
    };
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, g), 0.01).unwrap();
    let b = model.add_body(BodyDesc::dynamic("racket").mass(m, inertia).state(state)).unwrap();
    let opts = MoreauJeanOptions { theta: 0.5, ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    let pose = |s: &BodyState| {
        let c = s.orientation.quaternion();
        let (x, v, w) = (s.position, s.v, s.omega);
        [x.x, x.y, x.z, c.w, c.i, c.j, c.k, v.x, v.y, v.z, w.x, w.y, w.z]
    };
    let s0 = pose(&state);
    let ds = LagrangianDs::rigid_body(
        nalgebra::DVector::from_column_slice(&s0[..7]),
        nalgebra::DVector::from_column_slice(&s0[7..]),
        m,
        inertia,
    )
    .with_f_ext(nalgebra::DVector::from_vec(vec![0.0, 0.0, g * m, 0.0, 0.0, 0.0]));
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("racket", ds).unwrap();
    let lcp = Osnsp::Lcp(saltus_kernel::solvers::lcp::LcpSolver::Lemke(Default::default()));
    let mut ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lcp).unwrap();
    let mut flipped = false;
    for k in 1..=3000 {
        sim.step().unwrap();
        ts.step(&mut nsds).unwrap();
        let scene = pose(&sim.model.body(b).state);
        let kernel = &nsds.systems()[0];
        let mut kernel_pose = [0.0; 13];
        kernel_pose[..7].copy_from_slice(kernel.state().as_slice());
        kernel_pose[7..].copy_from_slice(kernel.velocity().unwrap().as_slice());
        assert_eq!(kernel_pose, scene, "step {k}");
        flipped |= scene[11] < 0.0;
    }
    assert!(flipped, "the spin about the intermediate axis flips");
}
