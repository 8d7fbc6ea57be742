//! A chain of 20 capsule links (length 0.1, radius 0.02) joined by hinges falls, tilted, onto the ground: joints and
//! frictional contacts in one GenericMechanical problem per step (all joint rows one equality
//! block). Checked: the block Gauss–Seidel converges at every step, the joints hold to 1e-10
//! after every step, no link sinks into the ground by more than the contact tolerance, the
//! chain ends at rest lying on the ground (every link's centre at its radius).

use nalgebra::{Isometry3, Matrix3, UnitQuaternion, Vector3};
use saltus_mechanics::joints::PivotJointR;
use saltus_mechanics::shape::Capsule;
use saltus_mechanics::{
    BodyDesc, BodyId, BodyState, ContactLaw, JointType, MechanicsModel, MechanicsSimulation, MoreauJeanOptions,
    ShapeDesc,
};

const N: usize = 20;
/// Half length, half width (unused by the capsule), radius of a link.
const HALF: [f64; 3] = [0.05, 0.02, 0.02];

fn chain() -> (MechanicsModel, Vec<BodyId>) {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), 0.01).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.3)).unwrap();
    let tilt = 0.3f64;
    let dir = Vector3::new(tilt.cos(), 0.0, tilt.sin());
    let q = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), -tilt);
    let (m, he) = (0.1, Vector3::from(HALF));
    let inertia = Matrix3::from_diagonal(&Vector3::new(
        m * (he.y * he.y + he.z * he.z) / 3.0,
        m * (he.x * he.x + he.z * he.z) / 3.0,
        m * (he.x * he.x + he.y * he.y) / 3.0,
    ));
    let start = Vector3::new(0.0, 0.0, 0.3);
    // parry's capsules lie along y: turn them along x, the chain's direction.
    let capsule_along_x = Isometry3::rotation(Vector3::z() * std::f64::consts::FRAC_PI_2);
    let mut ids = Vec::new();
    for k in 0..N {
        let c = start + dir * (2.0 * HALF[0] * (k as f64 + 0.5));
        let d = BodyDesc::dynamic(&format!("link{k}"))
            .shape(ShapeDesc::from(Capsule { half_height: he.x - he.z, radius: he.z }), capsule_along_x)
            .mass(m, inertia)
            .state(BodyState { position: c, orientation: q, ..Default::default() });
        ids.push(model.add_body(d).unwrap());
        if k > 0 {
            let p = start + dir * (2.0 * HALF[0] * k as f64);
            let j = JointType::Pivot(PivotJointR::new(p, Vector3::y()));
            model.add_joint(&format!("hinge{k}"), ids[k - 1], Some(ids[k]), j).unwrap();
        }
    }
    (model, ids)
}

#[test]
fn chain_of_20_links_falls_onto_the_ground() {
    let (model, ids) = chain();
    let h = 2e-3;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, MoreauJeanOptions::default()).unwrap();
    let (mut max_sweeps, mut max_active, mut max_viol) = (0, 0, 0.0f64);
    for _ in 0..1000 {
        let rep = sim.step().unwrap();
        let s = rep.solver.expect("joints always give a problem");
        assert!(s.status.converged(), "t = {}: {:?}", rep.t, s);
        max_sweeps = max_sweeps.max(s.iterations);
        max_active = max_active.max(rep.n_active);
        max_viol = max_viol.max(rep.projection.unwrap().violation);
        for &b in &ids {
            let z = sim.model.body(b).state.position.z;
            assert!(z > HALF[2] - 5e-3, "t = {}: link {} at z = {z}", rep.t, b.0);
        }
    }
    assert!(max_viol < 1e-10, "joint violation {max_viol:e}");
    assert!(max_active >= N, "the chain lies on the ground: {max_active} active contacts");
    for &b in &ids {
        let s = &sim.model.body(b).state;
        assert!((s.position.z - HALF[2]).abs() < 2e-3, "link {} at rest at z = {}", b.0, s.position.z);
        assert!(s.v.norm() < 1e-2 && s.omega.norm() < 1e-1, "link {} still moving: {:?}", b.0, s.v);
    }
    eprintln!("chain: max sweeps {max_sweeps}, max active contacts {max_active}");
}
