//! The global formulation (Siconos `MoreauJeanGOSI` + `GlobalFrictionContact`) of rigid-body
//! scenes, against closed forms and against the local formulation: both are the same
//! friction-contact problem (the global one condenses to `W = H M⁻¹ Hᵀ`, `q = H v_free + b`),
//! so solved to a tight tolerance they give the same impulses and velocities.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use saltus_mechanics::shape::{Cuboid, Sphere};
use saltus_mechanics::{
    nsgs, BodyDesc, BodyState, BoundaryCondition, ContactLaw, Formulation, JointType, MechanicsError, MechanicsModel,
    MechanicsSimulation, MoreauJeanOptions, PrescribedVelocity, ShapeDesc,
};
use saltus_numerics::fc::{GfcSolver, NsgsOptions, GFC_SOLVERS};
use saltus_numerics::IterOptions;
use std::sync::Arc;

const G: f64 = 9.81;

fn local(tol: f64) -> MoreauJeanOptions {
    MoreauJeanOptions { theta: 0.5, solver: nsgs(tol, 100_000), ..Default::default() }
}

fn global(tol: f64) -> MoreauJeanOptions {
    MoreauJeanOptions { formulation: Formulation::global_nsgs_wr(tol, 100_000), ..local(tol) }
}

/// The global NSGS that never forms `W` (Siconos `GFC3D_NSGS`).
fn global_nsgs(tol: f64) -> MoreauJeanOptions {
    let mut o = NsgsOptions::with_iter(IterOptions::new(tol, 100_000));
    o.warm_start = true;
    MoreauJeanOptions { formulation: Formulation::Global(GfcSolver::Nsgs(o)), ..local(tol) }
}

fn ground(model: &mut MechanicsModel) {
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
}

fn cuboid(name: &str, half: Vector3<f64>, state: BodyState) -> BodyDesc {
    BodyDesc::dynamic(name).shape_at_origin(ShapeDesc::from(Cuboid { half_extents: half })).density(700.0).state(state)
}

/// A box resting on the ground: the four corner impulses sum to `m g h` at every step (their
/// split is not unique), and the box does not move, with every global solver.
#[test]
fn resting_box_carries_m_g_h() {
    let h = 1e-3;
    let half = Vector3::new(0.1, 0.15, 0.05);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    ground(&mut model);
    let x0 = Vector3::new(0.2, -0.1, half.z);
    let b = model.add_body(cuboid("box", half, BodyState { position: x0, ..Default::default() })).unwrap();
    let m = model.body(b).mass();
    // every global solver of numerics' catalogue (condensed NSGS, Newton, PROX, ADMM; global NSGS)
    for (name, _) in GFC_SOLVERS {
        let formulation = Formulation::global_by_name(name, 1e-12, 100_000).unwrap();
        let opts = MoreauJeanOptions { formulation, ..local(1e-12) };
        let mut sim = MechanicsSimulation::new(model.clone(), 0.0, h, opts).unwrap();
        for k in 0..300 {
            let rep = sim.step().unwrap();
            assert_eq!(rep.n_active, 4, "step {k}");
            assert!(rep.solver.as_ref().unwrap().status.converged(), "{name} step {k}");
            let n: f64 = sim.contacts().iter().map(|c| c.impulse.x).sum();
            assert!((n - m * G * h).abs() <= 1e-8 * m * G * h, "{name} step {k}: Σ λ_N = {n}, m g h = {}", m * G * h);
            // the four tangential impulses may hold each other (the split among the corners is
            // not unique), their sum is zero
            let t: Vector3<f64> = sim.contacts().iter().map(|c| c.impulse).sum();
            assert!(t.yz().norm() <= 1e-9 * m * G * h, "{name} step {k}: net tangential impulse {t:?}");
        }
        let s = sim.model.body(b).state;
        assert!((s.position - x0).norm() < 1e-12 && s.v.norm() < 1e-12, "{name}: {:?}", s);
    }
    assert!(Formulation::global_by_name("gfc3d-unknown", 1e-8, 10).is_none());
}

/// A box launched at `v₀` slides with the deceleration `μ g`: `v_k = v₀ − μ g k h` while it
/// slides (the tangential impulse is `μ m g h` per step), then rests at `v₀²/(2 μ g)`.
#[test]
fn sliding_box_decelerates_by_mu_g() {
    let (v0, mu, h) = (1.0, 0.3, 1e-3);
    let half = Vector3::new(0.1, 0.1, 0.05);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, mu)).unwrap();
    ground(&mut model);
    let state =
        BodyState { position: Vector3::new(0.0, 0.0, half.z), v: Vector3::new(v0, 0.0, 0.0), ..Default::default() };
    let b = model.add_body(cuboid("box", half, state)).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, h, global(1e-12)).unwrap();
    let stop = (v0 / (mu * G * h)).floor() as usize; // the last step that still slides
    for k in 1..=600 {
        let rep = sim.step().unwrap();
        assert_eq!(rep.n_active, 4, "step {k}");
        let s = sim.model.body(b).state;
        if k <= stop {
            let v = v0 - mu * G * h * k as f64;
            assert!((s.v.x - v).abs() <= 1e-9, "step {k}: v = {}, v₀ − μ g t = {v}", s.v.x);
            assert!(s.v.yz().norm() <= 1e-12 && s.omega.norm() <= 1e-9, "step {k}: {:?}", s);
        }
    }
    let s = sim.model.body(b).state;
    let d = v0 * v0 / (2.0 * mu * G);
    assert!((s.position.x - d).abs() <= 1e-3 * d, "stopped at {}, v²/(2μg) = {d}", s.position.x);
    assert!(s.v.norm() < 1e-9 && s.omega.norm() < 1e-9, "still moving: {:?}", s);
}

/// Runs the same scene with the local and the global formulations and compares every body's
/// twist and every contact impulse after each step.
fn agree(model: MechanicsModel, steps: usize, tol: f64, bound: f64) -> usize {
    let h = 1e-3;
    let mut a = MechanicsSimulation::new(model.clone(), 0.0, h, local(tol)).unwrap();
    let mut b = MechanicsSimulation::new(model.clone(), 0.0, h, global(tol)).unwrap();
    let mut c = MechanicsSimulation::new(model, 0.0, h, global_nsgs(tol)).unwrap();
    let mut max_active = 0;
    for k in 0..steps {
        let ra = a.step().unwrap();
        let rb = b.step().unwrap();
        let rc = c.step().unwrap();
        max_active = max_active.max(ra.n_active);
        assert_eq!((ra.n_active, ra.n_contacts), (rb.n_active, rb.n_contacts), "step {k}");
        assert_eq!(ra.n_active, rc.n_active, "step {k}");
        for other in [&b, &c] {
            for (x, y) in a.model.bodies.iter().zip(&other.model.bodies) {
                let (sx, sy) = (&x.state, &y.state);
                let dv = (sx.v - sy.v).norm() + (sx.omega - sy.omega).norm();
                let scale = 1.0 + sx.v.norm() + sx.omega.norm();
                assert!(dv <= bound * scale, "step {k}, {}: local {:?} global {:?}", x.name, sx, sy);
            }
            for (x, y) in a.contacts().iter().zip(other.contacts()) {
                assert!((x.impulse - y.impulse).norm() <= bound * (1.0 + x.impulse.norm()), "step {k}");
            }
        }
    }
    max_active
}

/// A tilted box falls on its corner and an edge (impacts with `e = 0.5`), bounces, tumbles and
/// slides; a second box lands on it, so contacts between two dynamic bodies take part.
#[test]
fn local_and_global_agree_on_tumbling_boxes() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.5, 0.4)).unwrap();
    ground(&mut model);
    let q = UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1);
    let s1 = BodyState {
        position: Vector3::new(0.0, 0.0, 0.2),
        orientation: q,
        v: Vector3::new(0.5, 0.1, 0.0),
        omega: Vector3::new(0.0, 1.0, 2.0),
    };
    model.add_body(cuboid("a", Vector3::new(0.1, 0.08, 0.05), s1)).unwrap();
    let s2 = BodyState { position: Vector3::new(0.05, 0.0, 0.4), ..Default::default() };
    model.add_body(cuboid("b", Vector3::new(0.05, 0.05, 0.05), s2)).unwrap();
    let n = agree(model, 400, 1e-13, 1e-8);
    assert!(n >= 4, "the scene has contacts ({n})");
}

/// Bodies whose velocity is not all unknown: a kinematic plate moving sideways carries a box
/// (its twist enters `b`), and a box whose angular velocity is prescribed (spinning about z at
/// 2 rad/s: those components are infinitely heavy, their velocity enters `b`) slides on the
/// ground into a sphere.
#[test]
fn local_and_global_agree_with_kinematic_and_prescribed_bodies() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.3)).unwrap();
    ground(&mut model);
    let motion = Arc::new(|t: f64| BodyState {
        position: Vector3::new(5.0 + 0.2 * t, 0.0, 0.05),
        v: Vector3::new(0.2, 0.0, 0.0),
        ..Default::default()
    });
    model
        .add_body(
            BodyDesc::kinematic("plate", motion)
                .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.5, 0.5, 0.05) })),
        )
        .unwrap();
    let on_plate = BodyState { position: Vector3::new(5.0, 0.0, 0.15), ..Default::default() };
    model.add_body(cuboid("rider", Vector3::new(0.05, 0.05, 0.05), on_plate)).unwrap();
    let pusher_state =
        BodyState { position: Vector3::new(0.0, 0.0, 0.05), v: Vector3::new(1.0, 0.0, 0.0), ..Default::default() };
    let pusher = model.add_body(cuboid("pusher", Vector3::new(0.05, 0.05, 0.05), pusher_state)).unwrap();
    let bc = BoundaryCondition::new(&[3, 4, 5], PrescribedVelocity::Constant(vec![0.0, 0.0, 2.0])).unwrap();
    model.set_boundary_condition(pusher, Some(bc)).unwrap();
    let r = 0.05;
    model
        .add_body(
            BodyDesc::dynamic("ball")
                .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
                .mass(0.3, Matrix3::from_diagonal_element(0.4 * 0.3 * r * r))
                .position(Vector3::new(0.2, 0.01, r)),
        )
        .unwrap();
    let n = agree(model, 400, 1e-13, 1e-8);
    assert!(n >= 9, "plate, rider, pusher and ball contacts ({n})");
}

/// Joints are refused with the global formulation, and rolling friction with a global solver
/// that has no rolling form (only the condensed NSGS has one), by a typed error.
#[test]
fn global_refuses_joints_and_rolling_without_its_solver() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::rolling(0.0, 0.3, 0.01)).unwrap();
    ground(&mut model);
    model.add_body(cuboid("a", Vector3::new(0.1, 0.1, 0.1), BodyState::default())).unwrap();
    for opts in [
        global_nsgs(1e-8),
        MoreauJeanOptions {
            formulation: Formulation::global_by_name("gfc3d-newton", 1e-8, 100).unwrap(),
            ..local(1e-8)
        },
    ] {
        let e = MechanicsSimulation::new(model.clone(), 0.0, 1e-3, opts).unwrap_err();
        assert!(matches!(e, MechanicsError::Unsupported { .. }) && e.to_string().contains("gfc3d-nsgs"), "{e}");
    }
    assert!(MechanicsSimulation::new(model, 0.0, 1e-3, global(1e-8)).is_ok());
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let a = model.add_body(cuboid("a", Vector3::new(0.1, 0.1, 0.1), BodyState::default())).unwrap();
    let kind = JointType::from_name("KneeJointR", Vector3::zeros(), Vector3::z()).unwrap();
    model.add_joint("knee", a, None, kind).unwrap();
    let e = MechanicsSimulation::new(model, 0.0, 1e-3, global(1e-8)).unwrap_err();
    assert!(matches!(e, MechanicsError::Unsupported { .. }) && e.to_string().contains("joints"), "{e}");
}
