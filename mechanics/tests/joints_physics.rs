//! Joints against mathematics: a hinge pendulum's period against the exact elliptic-integral
//! period, a slider's free fall along its axis only, a weld moving as one rigid body
//! (momentum), a 3D double pendulum conserving energy, and the drift of the joint constraints
//! kept below 1e-10 by the projection over 10⁵ steps.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use saltus_mechanics::joints::{FixedJointR, KneeJointR, PivotJointR, PrismaticJointR};
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{
    BodyDesc, BodyId, BodyState, JointType, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};

const G: f64 = 9.81;

fn ball(name: &str, m: f64, i: Matrix3<f64>, state: BodyState) -> BodyDesc {
    BodyDesc::dynamic(name).shape_at_origin(ShapeDesc::from(Sphere { radius: 0.05 })).mass(m, i).state(state)
}

/// Complete elliptic integral of the first kind `K(k) = π / (2 AGM(1, √(1−k²)))`.
fn ellip_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    std::f64::consts::PI / (2.0 * a)
}

/// A physical pendulum on a hinge released from rest at θ₀ = 2 rad: its period is
/// `T = 4 √(I_p / (m g L)) K(sin(θ₀/2))`; the Moreau–Jean (θ = ½) period agrees to O(h²).
#[test]
fn hinge_pendulum_period_matches_elliptic_integral() {
    let (m, l, ic, th0) = (1.0, 1.0, 0.01, 2.0f64);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let x0 = Vector3::new(l * th0.sin(), 0.0, -l * th0.cos());
    let b = model
        .add_body(ball("bob", m, Matrix3::identity() * ic, BodyState { position: x0, ..Default::default() }))
        .unwrap();
    model.add_joint("hinge", b, None, JointType::Pivot(PivotJointR::new(Vector3::zeros(), Vector3::y()))).unwrap();
    let exact = 4.0 * ((ic + m * l * l) / (m * G * l)).sqrt() * ellip_k((th0 / 2.0).sin());
    for (h, tol) in [(2e-3, 2e-5), (1e-3, 5e-6)] {
        let mut sim = MechanicsSimulation::new(model.clone(), 0.0, h, MoreauJeanOptions::default()).unwrap();
        let angle = |s: &MechanicsSimulation| {
            let p = s.model.body(b).state.position;
            p.x.atan2(-p.z)
        };
        let (mut crossings, mut prev) = (Vec::new(), angle(&sim));
        while crossings.len() < 3 {
            let rep = sim.step().unwrap();
            let proj = rep.projection.unwrap();
            assert!(proj.violation < 1e-12, "violation {}", proj.violation);
            let a = angle(&sim);
            if prev > 0.0 && a <= 0.0 || prev < 0.0 && a >= 0.0 {
                crossings.push(sim.time() - h * a / (a - prev));
            }
            prev = a;
            assert!(sim.time() < 3.0 * exact);
        }
        let period = crossings[2] - crossings[0];
        let err = (period - exact).abs() / exact;
        assert!(err < tol, "h = {h}: period {period} vs exact {exact}, relative error {err:e}");
        // Motion stays in the plane of the hinge.
        assert!(sim.model.body(b).state.position.y.abs() < 1e-12);
    }
}

/// A body on a slider of axis â (tilted 45°) falls along â only: `x(t) = x₀ + ½ (g·â) t² â`
/// (exact for the θ = ½ scheme under a constant force), orientation unchanged.
#[test]
fn prismatic_free_fall_along_axis_only() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let q0 = UnitQuaternion::from_euler_angles(0.3, -0.2, 0.5);
    let x0 = Vector3::new(1.0, 2.0, 3.0);
    let inertia = Matrix3::from_diagonal(&Vector3::new(0.1, 0.2, 0.3));
    let b = model
        .add_body(ball("slider", 2.0, inertia, BodyState { position: x0, orientation: q0, ..Default::default() }))
        .unwrap();
    let axis = Vector3::new(1.0, 0.0, 1.0).normalize();
    model.add_joint("rail", b, None, JointType::Prismatic(PrismaticJointR::new(axis * 3.0))).unwrap();
    let h = 1e-3;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, MoreauJeanOptions::default()).unwrap();
    for _ in 0..1000 {
        sim.step().unwrap();
    }
    let t = sim.time();
    let s = &sim.model.body(b).state;
    let expected = x0 + axis * (0.5 * (-G * axis.z) * t * t);
    assert!((s.position - expected).norm() < 1e-10, "x = {:?}, expected {:?}", s.position, expected);
    assert!((s.v - axis * (-G * axis.z * t)).norm() < 1e-10);
    assert!(s.orientation.angle_to(&q0) < 1e-12 && s.omega.norm() < 1e-12);
}

/// Two anisotropic bodies welded together, thrown spinning without gravity: the weld's
/// impulses are internal, so the total linear momentum is kept to round-off and the angular
/// momentum about the origin to O(h²) (error < 2e-7 at h = 1e-3 over 3 s, ratio ≈ 4 when h is
/// halved); the relative pose stays frozen and the centre of mass moves uniformly.
#[test]
fn fixed_joint_moves_as_one_rigid_body() {
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let xs = [Vector3::new(0.0, 0.0, 0.0), Vector3::new(0.6, 0.2, -0.1)];
    let ms = [1.0, 3.0];
    let is =
        [Matrix3::from_diagonal(&Vector3::new(0.1, 0.2, 0.3)), Matrix3::from_diagonal(&Vector3::new(0.5, 0.2, 0.4))];
    let qs = [UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3), UnitQuaternion::from_euler_angles(-0.4, 0.3, 0.0)];
    let com = (xs[0] * ms[0] + xs[1] * ms[1]) / (ms[0] + ms[1]);
    let (vc, w) = (Vector3::new(0.3, -0.1, 0.2), Vector3::new(0.5, 2.0, -1.0));
    let ids: Vec<BodyId> = (0..2)
        .map(|k| {
            let st = BodyState {
                position: xs[k],
                orientation: qs[k],
                v: vc + w.cross(&(xs[k] - com)),
                omega: qs[k].inverse_transform_vector(&w),
            };
            model.add_body(ball(&format!("b{k}"), ms[k], is[k], st)).unwrap()
        })
        .collect();
    model.add_joint("weld", ids[0], Some(ids[1]), JointType::Fixed(FixedJointR::new())).unwrap();
    let p0: Vector3<f64> = model.bodies.iter().map(|b| b.linear_momentum()).sum();
    let l0: Vector3<f64> = model.bodies.iter().map(|b| b.angular_momentum()).sum();
    let rel0 = qs[0].inverse() * qs[1];
    // Angular momentum: second order in h (the joint torques act in the mid-step frame).
    let mut dl = Vec::new();
    let mut last = None;
    for h in [1e-3, 5e-4] {
        let mut sim = MechanicsSimulation::new(model.clone(), 0.0, h, MoreauJeanOptions::default()).unwrap();
        while sim.time() < 3.0 - 1e-9 {
            let rep = sim.step().unwrap();
            assert!(rep.projection.unwrap().violation < 1e-12);
        }
        let l: Vector3<f64> = sim.model.bodies.iter().map(|b| b.angular_momentum()).sum();
        dl.push((l - l0).norm() / l0.norm());
        last.get_or_insert(sim);
    }
    assert!(dl[0] < 2e-7 && dl[0] / dl[1] > 3.5, "angular momentum errors {dl:?} (h, h/2)");
    let sim = last.unwrap();
    let bodies = &sim.model.bodies;
    let p: Vector3<f64> = bodies.iter().map(|b| b.linear_momentum()).sum();
    assert!((p - p0).norm() < 1e-12 * p0.norm().max(1.0), "momentum {p:?} vs {p0:?}");
    let (a, b) = (&bodies[0].state, &bodies[1].state);
    assert!((a.orientation.inverse() * b.orientation).angle_to(&rel0) < 1e-11);
    let d = a.orientation.inverse_transform_vector(&(b.position - a.position));
    assert!((d - qs[0].inverse_transform_vector(&(xs[1] - xs[0]))).norm() < 1e-11);
    // The centre of mass moves uniformly.
    let c = (a.position * ms[0] + b.position * ms[1]) / (ms[0] + ms[1]);
    assert!((c - (com + vc * sim.time())).norm() < 1e-10);
}

/// 3D double pendulum: a rod on a hinge to the world, a second rod on a ball joint at its
/// tip, launched out of the hinge plane.
fn double_pendulum() -> (MechanicsModel, [BodyId; 2]) {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let rod = |m: f64, l: f64| Matrix3::from_diagonal(&Vector3::new(m * l * l / 12.0, m * l * l / 12.0, 1e-3 * m));
    // Rod 1 from the origin to (0.8, 0, -0.6) (length 1), rod 2 from there to (0.8, 0.6, -1.4).
    let tip = Vector3::new(0.8, 0.0, -0.6);
    let d2 = Vector3::new(0.0, 0.6, -0.8);
    let q1 = UnitQuaternion::rotation_between(&Vector3::z(), &tip).unwrap();
    let q2 = UnitQuaternion::rotation_between(&Vector3::z(), &d2).unwrap();
    let w1 = Vector3::new(0.0, 1.5, 0.0);
    let w2 = Vector3::new(2.0, -1.0, 0.5);
    let c1 = tip / 2.0;
    let c2 = tip + d2 / 2.0;
    let v1 = w1.cross(&c1);
    let v2 = w1.cross(&tip) + w2.cross(&(d2 / 2.0));
    let s1 = BodyState { position: c1, orientation: q1, v: v1, omega: q1.inverse_transform_vector(&w1) };
    let s2 = BodyState { position: c2, orientation: q2, v: v2, omega: q2.inverse_transform_vector(&w2) };
    let b1 = model.add_body(ball("rod1", 1.0, rod(1.0, 1.0), s1)).unwrap();
    let b2 = model.add_body(ball("rod2", 0.5, rod(0.5, 1.0), s2)).unwrap();
    model.add_joint("hinge", b1, None, JointType::Pivot(PivotJointR::new(Vector3::zeros(), Vector3::y()))).unwrap();
    model.add_joint("ball", b2, Some(b1), JointType::Knee(KneeJointR::new(tip))).unwrap();
    (model, [b1, b2])
}

/// θ = ½ with projection: the energy of the 3D double pendulum stays within 1e-6 (relative)
/// over 10 s with h = 1e-4 (10⁵ steps), and the joints are satisfied to 1e-10 after every
/// step.
#[test]
fn double_pendulum_energy_and_drift() {
    let (model, _) = double_pendulum();
    let h = 1e-4;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, MoreauJeanOptions::default()).unwrap();
    let energy = |s: &MechanicsSimulation| s.model.kinetic_energy() + s.model.potential_energy();
    let e0 = energy(&sim);
    let scale = sim.model.kinetic_energy().max(1.0);
    let (mut de, mut viol) = (0.0f64, 0.0f64);
    for _ in 0..100_000 {
        let rep = sim.step().unwrap();
        assert!(rep.solver.unwrap().status.converged());
        let p = rep.projection.unwrap();
        viol = viol.max(p.violation).max(p.velocity_violation);
        de = de.max((energy(&sim) - e0).abs() / scale);
    }
    assert!(viol < 1e-10, "max joint violation {viol:e}");
    assert!(de < 1e-6, "max relative energy error {de:e}");
}
