//! Couplers of joint coordinates (Siconos `CouplerJointR`) against closed forms:
//!
//! * a gear pair: two wheels on hinges about parallel fixed axles, `θ₂ = r θ₁`, wheel 1 driven
//!   by a constant torque `τ`: the pair turns as one body of inertia `I₁ + r² I₂`,
//!   `θ₁ = τ t² / (2 (I₁ + r² I₂))`, over several turns (the angles unwrapped), with the frame
//!   the world or a moving body welded to the world (three-body coupler rows);
//! * a screw: a cylindrical joint with its angle coupled to its translation, `θ = k s`, falling
//!   under gravity: `s̈ = −m g / (m + k² I)`.

use nalgebra::{Matrix3, Vector3};
use saltus_mechanics::joints::{CouplerJointR, CylindricalJointR, FixedJointR, PivotJointR};
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{
    BodyDesc, BodyState, JointType, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};
use saltus_numerics::gmp::GmpOptions;
use saltus_numerics::IterOptions;

fn tight() -> MoreauJeanOptions {
    MoreauJeanOptions { joint_solver: GmpOptions::with_iter(IterOptions::new(1e-12, 1000)), ..Default::default() }
}

fn wheel(name: &str, m: f64, inertia: Vector3<f64>, x: Vector3<f64>) -> BodyDesc {
    BodyDesc::dynamic(name)
        .shape_at_origin(ShapeDesc::from(Sphere { radius: 0.05 }))
        .mass(m, Matrix3::from_diagonal(&inertia))
        .state(BodyState { position: x, ..Default::default() })
}

#[test]
fn gear_pair_turns_with_the_effective_inertia() {
    let (i1, i2, tau) = (Vector3::new(0.3, 0.2, 0.4), Vector3::new(0.5, 0.05, 0.1), 0.7);
    for (r, frame_body) in [(2.0, false), (-0.5, true), (3.0, true)] {
        let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), 0.01).unwrap();
        let mut d1 = wheel("w1", 1.0, i1, Vector3::zeros());
        d1.torque = Vector3::new(0.0, tau, 0.0);
        let w1 = model.add_body(d1).unwrap();
        let w2 = model.add_body(wheel("w2", 2.0, i2, Vector3::new(1.0, 0.0, 0.0))).unwrap();
        let frame = if frame_body {
            let f =
                model.add_body(wheel("frame", 5.0, Vector3::new(1.0, 1.0, 1.0), Vector3::new(0.5, 0.0, 0.0))).unwrap();
            model.add_joint("weld", f, None, JointType::Fixed(FixedJointR::new())).unwrap();
            Some(f)
        } else {
            None
        };
        let hinge = |p: Vector3<f64>| JointType::Pivot(PivotJointR::new(p, Vector3::y()));
        let j1 = model.add_joint("axle1", w1, frame, hinge(Vector3::zeros())).unwrap();
        // the second hinge as in Siconos's gear_ratio.py: the frame relative to the wheel
        let j2 = match frame {
            Some(f) => model.add_joint("axle2", f, Some(w2), hinge(Vector3::new(1.0, 0.0, 0.0))).unwrap(),
            None => model.add_joint("axle2", w2, None, hinge(Vector3::new(1.0, 0.0, 0.0))).unwrap(),
        };
        model.add_joint_coupler(CouplerJointR::new(j1, 0, j2, 0, r)).unwrap();
        // Siconos's coupler joint between the two wheels: they do not collide
        assert!(!model.linked(w1, w2));
        model.exclude_collision(w1, w2).unwrap();
        assert!(model.linked(w1, w2) && model.exclude_collision(w1, w1).is_err());
        let h = 1e-3;
        let mut sim = MechanicsSimulation::new(model, 0.0, h, tight()).unwrap();
        let i_eff = i1.y + r * r * i2.y;
        let (mut th1, mut th2) = (0.0f64, 0.0f64);
        let mut max_res = 0.0f64;
        let n = 3000;
        for _ in 0..n {
            sim.step().unwrap();
            let m = &sim.model;
            let c1 = m.joint_coordinate(j1, 0).unwrap();
            let c2 = m.joint_coordinate(j2, 0).unwrap();
            th1 = saltus_mechanics::joints::coordinate::unwrap_near(c1, th1);
            th2 = saltus_mechanics::joints::coordinate::unwrap_near(c2, th2);
            max_res = max_res.max((th2 - r * th1).abs());
        }
        let t = n as f64 * h;
        let expect = tau * t * t / (2.0 * i_eff);
        assert!(expect * r.abs() > 2.0 * std::f64::consts::PI, "more than one turn of the faster wheel");
        assert!(max_res < 1e-9, "r = {r}: coupler residual {max_res}");
        assert!((th1 - expect).abs() < 1e-8 * expect, "r = {r}: θ₁ = {th1}, closed form {expect}");
        let om1 = sim.model.body(w1).state.omega.y;
        assert!((om1 - tau * t / i_eff).abs() < 1e-8 * om1.abs(), "ω₁ = {om1}");
        if let Some(f) = frame {
            let fs = &sim.model.body(f).state;
            assert!(fs.v.norm() < 1e-9 && fs.omega.norm() < 1e-9, "the welded frame stays");
        }
    }
}

#[test]
fn screw_falls_with_the_reduced_acceleration() {
    let (m, g, k) = (1.0, 9.81, 5.0);
    let inertia = Vector3::new(0.1, 0.1, 0.02);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -g), 0.01).unwrap();
    let b = model.add_body(wheel("bar", m, inertia, Vector3::new(0.0, 0.0, 1.0))).unwrap();
    let j = model
        .add_joint("screw", b, None, JointType::Cylindrical(CylindricalJointR::new(Vector3::zeros(), Vector3::z())))
        .unwrap();
    // rotation (coordinate 1) = k × translation (coordinate 0)
    model.add_joint_coupler(CouplerJointR::new(j, 0, j, 1, k)).unwrap();
    let h = 1e-3;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, tight()).unwrap();
    let a = m * g / (m + k * k * inertia.z);
    let n = 1000;
    let mut th = 0.0f64;
    for _ in 0..n {
        sim.step().unwrap();
        th = saltus_mechanics::joints::coordinate::unwrap_near(sim.model.joint_coordinate(j, 1).unwrap(), th);
        let s = sim.model.joint_coordinate(j, 0).unwrap();
        assert!((th - k * s).abs() < 1e-9, "θ = {th}, k s = {}", k * s);
    }
    let t = n as f64 * h;
    let s = sim.model.joint_coordinate(j, 0).unwrap();
    assert!((s + 0.5 * a * t * t).abs() < 1e-8, "s = {s}, closed form {}", -0.5 * a * t * t);
    assert!(th.abs() > 2.0 * std::f64::consts::PI, "more than a turn");
    let st = &sim.model.body(b).state;
    assert!((st.v.z + a * t).abs() < 1e-8, "v = {}", st.v.z);
}

/// A gear pair on a turntable: a frame hinged to the world about +z carries two wheels on axles
/// along its y, coupled `θ₂ = −2 θ₁`; no gravity, the frame and wheel 1 spinning at the start.
/// The coupler rows touch three moving bodies (wheel 1, the frame, wheel 2): the frame's share of
/// the coupling impulse must be right for the mechanism to keep its kinetic energy and its
/// angular momentum about z (the hinge to the world exerts no torque about its axis), and
/// `θ₂ + 2 θ₁` stays zero.
#[test]
fn gear_pair_on_a_turntable_keeps_energy_and_momentum() {
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let spin = |w: Vector3<f64>| {
        move |mut d: BodyDesc| {
            d.state.omega = w;
            d
        }
    };
    let frame = model
        .add_body(spin(Vector3::new(0.0, 0.0, 1.5))(wheel("frame", 3.0, Vector3::new(0.4, 0.3, 0.6), Vector3::zeros())))
        .unwrap();
    let w1 = model
        .add_body(spin(Vector3::new(0.0, 4.0, 1.5))(wheel(
            "w1",
            1.0,
            Vector3::new(0.05, 0.1, 0.05),
            Vector3::new(0.5, 0.0, 0.0),
        )))
        .unwrap();
    let w2 = model
        .add_body(spin(Vector3::new(0.0, -8.0, 1.5))(wheel(
            "w2",
            0.5,
            Vector3::new(0.02, 0.03, 0.02),
            Vector3::new(-0.5, 0.0, 0.0),
        )))
        .unwrap();
    // the wheels' centres move with the frame: their velocity is ω × x
    for (b, x) in [(w1, 0.5), (w2, -0.5)] {
        model.bodies[b.index()].state.v = Vector3::new(0.0, 1.5 * x, 0.0);
    }
    model.add_joint("turn", frame, None, JointType::Pivot(PivotJointR::new(Vector3::zeros(), Vector3::z()))).unwrap();
    let hinge = |p: Vector3<f64>| JointType::Pivot(PivotJointR::new(p, Vector3::y()));
    let j1 = model.add_joint("axle1", w1, Some(frame), hinge(Vector3::new(0.5, 0.0, 0.0))).unwrap();
    let j2 = model.add_joint("axle2", w2, Some(frame), hinge(Vector3::new(-0.5, 0.0, 0.0))).unwrap();
    model.add_joint_coupler(CouplerJointR::new(j1, 0, j2, 0, -2.0)).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, tight()).unwrap();
    let lz = |m: &MechanicsModel| -> f64 {
        m.bodies
            .iter()
            .map(|b| {
                let s = &b.state;
                let i_world = s.orientation * (b.inertia() * s.omega);
                (b.mass() * s.position.cross(&s.v) + i_world).z
            })
            .sum()
    };
    let (e0, l0) = (sim.model.kinetic_energy(), lz(&sim.model));
    let (mut th1, mut th2, mut res) = (0.0f64, 0.0f64, 0.0f64);
    for _ in 0..2000 {
        sim.step().unwrap();
        th1 = saltus_mechanics::joints::coordinate::unwrap_near(sim.model.joint_coordinate(j1, 0).unwrap(), th1);
        th2 = saltus_mechanics::joints::coordinate::unwrap_near(sim.model.joint_coordinate(j2, 0).unwrap(), th2);
        res = res.max((th2 + 2.0 * th1).abs());
    }
    let (e1, l1) = (sim.model.kinetic_energy(), lz(&sim.model));
    assert!(th1.abs() > 1.0, "the wheels turn: θ₁ = {th1}");
    assert!(res < 1e-9, "coupler residual {res}");
    assert!((e1 - e0).abs() < 1e-6 * e0, "kinetic energy {e0} -> {e1}");
    assert!((l1 - l0).abs() < 1e-6 * l0.abs(), "angular momentum about z {l0} -> {l1}");
}
