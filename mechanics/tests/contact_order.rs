//! `ContactOrder::AlongGravity` (the NSGS sweep bottom-up) solves the same problem as the key
//! order: on a column of spheres resting on the ground, listed top first so that the two orders
//! differ, both give the weight-balance impulses, the same impulses per contact and the same
//! motion, and the problem really is ordered bottom-up.

use nalgebra::{Matrix3, Vector3};
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{
    nsgs, BodyDesc, ContactLaw, ContactOrder, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};
use saltus_numerics::matrix::Operator;

const G: f64 = 9.81;
const N: usize = 6;
const R: f64 = 0.05;
const M: f64 = 0.7;
const H: f64 = 1e-3;

fn column(order: ContactOrder) -> MechanicsSimulation {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.4)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    // Top first: the key order (by collider) visits the column from the top.
    for k in (0..N).rev() {
        let d = BodyDesc::dynamic(&format!("s{k}"))
            .shape_at_origin(ShapeDesc::from(Sphere { radius: R }))
            .mass(M, Matrix3::from_diagonal_element(0.4 * M * R * R))
            .position(Vector3::new(0.0, 0.0, R + 2.0 * R * k as f64));
        model.add_body(d).unwrap();
    }
    let opts =
        MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-12, 10_000), contact_order: order, ..Default::default() };
    MechanicsSimulation::new(model, 0.0, H, opts).unwrap()
}

#[test]
fn bottom_up_order_solves_the_same_column() {
    let (mut key, mut grav) = (column(ContactOrder::Key), column(ContactOrder::AlongGravity));
    key.set_capture_problem(true);
    grav.set_capture_problem(true);
    for step in 0..200 {
        let (rk, rg) = (key.step().unwrap(), grav.step().unwrap());
        assert_eq!((rk.n_active, rg.n_active), (N, N), "step {step}");
        let (sk, sg) = (rk.solver.unwrap(), rg.solver.unwrap());
        assert!(sk.status.converged() && sg.status.converged(), "step {step}: {sk:?} {sg:?}");
        if step == 0 {
            // Bottom-up, consecutive contacts share a sphere (W_{α,α+1} stored); by key the ground
            // contact is followed by the top pair, which shares nothing with it.
            let coupled = |sim: &MechanicsSimulation, a: usize| match &sim.captured_problem().unwrap().0.w() {
                Operator::BlockCsr(w) => w.find_block(a, a + 1).is_some(),
                Operator::Dense(_) => unreachable!("the assembly is sparse"),
            };
            assert!((0..N - 1).all(|a| coupled(&grav, a)), "bottom-up order");
            assert!(!coupled(&key, 0), "key order");
        }
        // Contacts are listed by key in both runs; the contact carrying j spheres has impulse j m g h.
        for (ck, cg) in key.contacts().iter().zip(grav.contacts()) {
            assert_eq!(ck.key, cg.key);
            assert!((ck.impulse - cg.impulse).norm() <= 1e-9 * M * G * H, "step {step}");
            let above = (0..N).filter(|&k| R + 2.0 * R * k as f64 > 0.5 * (ck.point1.z + ck.point2.z)).count();
            assert!((ck.impulse.x - above as f64 * M * G * H).abs() <= 1e-8 * M * G * H, "step {step}: {ck:?}");
        }
    }
    for (bk, bg) in key.model.bodies.iter().zip(&grav.model.bodies) {
        assert!((bk.state.position - bg.state.position).norm() <= 1e-12, "{:?} {:?}", bk.state, bg.state);
    }
}
