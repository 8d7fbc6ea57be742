//! Direct projection onto the contacts (Siconos `TimeSteppingDirectProjection` with
//! `MoreauJeanDirectProjectionOSI`): cubes dropped with a step large enough that the Moreau–Jean
//! activation (`g + h/2 u_N ≤ δ`) lets them sink into the ground and into each other. Without the
//! projection they do; with it every gap is ≥ −1e-10 after every step, and a box resting on the
//! ground keeps its geometric rest height.

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use saltus_mechanics::joints::JointProjection;
use saltus_mechanics::shape::Cuboid;
use saltus_mechanics::{
    nsgs, BodyDesc, BodyId, BodyState, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};

const G: f64 = 9.81;
/// Half edge of the cubes.
const A: f64 = 0.1;
const H: f64 = 0.02;

fn cube(name: &str, x: Vector3<f64>, q: UnitQuaternion<f64>) -> BodyDesc {
    let m = 1.0;
    BodyDesc::dynamic(name)
        .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(A, A, A) }))
        .mass(m, Matrix3::from_diagonal_element(m * (2.0 * A) * (2.0 * A) / 6.0))
        .state(BodyState { position: x, orientation: q, ..Default::default() })
}

/// The scene of `samples/cubes_projection/cubes_projection.xml`: `base` at rest on the ground, `top` dropped onto
/// it, `third` onto `top`, and a tilted `side` cube onto the ground; `h` = 0.02 s.
fn scene(contacts: bool) -> (MechanicsSimulation, BodyId) {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.02).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let id = UnitQuaternion::identity();
    let base = model.add_body(cube("base", Vector3::new(0.0, 0.0, A), id)).unwrap();
    model.add_body(cube("top", Vector3::new(0.02, -0.01, 0.5), id)).unwrap();
    // the orientations of the sample file (0.4 rad about z; Euler angles 0.3, 0.5, 0.1)
    let q = |w, x, y, z| UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z));
    let third = q(0.980066577841242, 0.0, 0.0, 0.198669330795061);
    let side = q(0.958683097519551, 0.132385311717195, 0.251556767836684, 0.0109562916819368);
    model.add_body(cube("third", Vector3::new(-0.03, 0.02, 0.9), third)).unwrap();
    model.add_body(cube("side", Vector3::new(0.6, 0.0, 0.8), side)).unwrap();
    let joint_projection = JointProjection { contacts, contact_tol: 1e-10, ..Default::default() };
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-10, 10_000), joint_projection, ..Default::default() };
    (MechanicsSimulation::new(model, 0.0, H, opts).unwrap(), base)
}

/// Smallest gap of the contacts detected at the start of the last step (the state after the
/// previous step's projection), as the contacts table writes them.
fn min_gap(sim: &MechanicsSimulation) -> f64 {
    sim.contacts().iter().map(|c| c.gap).fold(f64::INFINITY, f64::min)
}

#[test]
fn without_projection_the_cubes_sink_into_each_other() {
    let (mut sim, _) = scene(false);
    let mut deepest = f64::INFINITY;
    for _ in 0..100 {
        let rep = sim.step().unwrap();
        assert!(rep.projection.is_none());
        deepest = deepest.min(min_gap(&sim));
    }
    assert!(deepest < -1e-3, "deepest gap {deepest}");
}

#[test]
fn with_projection_every_gap_stays_above_the_tolerance() {
    let (mut sim, base) = scene(true);
    let (mut deepest, mut worst_rest, mut corrected) = (f64::INFINITY, 0.0f64, 0);
    for _ in 0..100 {
        let rep = sim.step().unwrap();
        let p = rep.projection.expect("the contacts are projected");
        assert!(p.converged && p.contact_violation <= 1e-10, "{p:?}");
        corrected += usize::from(p.iterations > 0);
        deepest = deepest.min(min_gap(&sim));
        let z = sim.model.body(base).state.position.z;
        worst_rest = worst_rest.max((z - A).abs());
    }
    assert!(deepest >= -1e-10, "deepest gap {deepest}");
    assert!(corrected > 0);
    assert!(worst_rest <= 1e-10, "base height off its rest value by {worst_rest}");
    eprintln!("deepest {deepest:e}, rest {worst_rest:e}, corrected steps {corrected}");
}

/// A box laid on the ground at its geometric rest height stays there to 1e-10 with the
/// projection (and its contacts never need a correction).
#[test]
fn a_resting_box_keeps_its_rest_height() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.02).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let b = model.add_body(cube("box", Vector3::new(0.3, -0.2, A), UnitQuaternion::identity())).unwrap();
    let joint_projection = JointProjection { contacts: true, ..Default::default() };
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-10, 10_000), joint_projection, ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, H, opts).unwrap();
    for _ in 0..500 {
        let rep = sim.step().unwrap();
        assert!(rep.projection.unwrap().converged);
        let z = sim.model.body(b).state.position.z;
        assert!((z - A).abs() <= 1e-10, "z = {z}");
    }
}

/// A tolerance below round-off (1e-17 m) cannot be met: the projection stops (at its cap, or when
/// the pivoting cycles on gaps at round-off), the step reports it (`converged = false`) and the
/// run goes on with the last iterate, whose gaps stay within 1e-10.
#[test]
fn an_unreachable_tolerance_is_reported_and_the_run_goes_on() {
    let (sim, _) = scene(true);
    let mut opts = sim.options().clone();
    opts.joint_projection.contact_tol = 1e-17;
    opts.joint_projection.max_iter = 3;
    let mut sim = MechanicsSimulation::new(sim.model.clone(), 0.0, H, opts).unwrap();
    let (mut not_converged, mut deepest) = (0, f64::INFINITY);
    for _ in 0..100 {
        let p = sim.step().unwrap().projection.unwrap();
        if !p.converged {
            not_converged += 1;
            // stopped by the cap, or earlier by a pivoting that cycles on gaps at round-off
            assert!(p.iterations <= 3 && p.contact_violation < 1e-10, "{p:?}");
        }
        deepest = deepest.min(min_gap(&sim));
    }
    assert!(not_converged > 0);
    assert!(deepest > -1e-10, "deepest gap {deepest}");
}
