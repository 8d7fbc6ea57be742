//! Redundant joints (Siconos `walker.py`): three bodies pinned to one another by three pivots
//! of parallel axes form a closed loop whose 15 joint rows constrain only 12 relative degrees of
//! freedom, so the joints' equality block of `W` is singular. The step solves it on its
//! independent rows (numerics `gmp::rank`): the loop, rigid, falls as one body, every body at
//! `v = −g t` exactly, the joints unbroken, and a spin about the axes stays a rigid rotation.

use nalgebra::{Matrix3, Vector3};
use saltus_mechanics::joints::PivotJointR;
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{
    BodyDesc, BodyState, JointType, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};

const G: f64 = 9.81;

fn triangle(omega_y: f64) -> (MechanicsSimulation, [Vector3<f64>; 3]) {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    // the three corners of a triangle in the x–z plane, pivots about y at the mid-edges
    let p = [Vector3::new(0.0, 0.0, 0.0), Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.4, 0.0, 0.8)];
    let ids: Vec<_> = p
        .iter()
        .enumerate()
        .map(|(k, x)| {
            // a rigid rotation about y through the centroid: v = ω ŷ × (x − c), Ω = ω ŷ
            let c = (p[0] + p[1] + p[2]) / 3.0;
            let w = Vector3::new(0.0, omega_y, 0.0);
            let state = BodyState { position: *x, v: w.cross(&(x - c)), omega: w, ..Default::default() };
            let desc = BodyDesc::dynamic(&format!("b{k}"))
                .shape_at_origin(ShapeDesc::from(Sphere { radius: 0.05 }))
                .mass(1.0 + k as f64, Matrix3::identity() * 0.01)
                .state(state);
            model.add_body(desc).unwrap()
        })
        .collect();
    for (a, b) in [(0, 1), (1, 2), (2, 0)] {
        let mid = (p[a] + p[b]) / 2.0;
        model
            .add_joint(&format!("j{a}{b}"), ids[a], Some(ids[b]), JointType::Pivot(PivotJointR::new(mid, Vector3::y())))
            .unwrap();
    }
    let sim = MechanicsSimulation::new(model, 0.0, 1e-3, MoreauJeanOptions::default()).unwrap();
    (sim, p)
}

/// At rest, the loop falls freely: every body at `v = −g t` (θ = ½ is exact for a constant
/// force), its shape kept.
#[test]
fn a_closed_loop_of_pivots_falls_as_one_body() {
    let (mut sim, p) = triangle(0.0);
    for _ in 0..200 {
        let rep = sim.step().unwrap();
        let solve = rep.solver.expect("the joints' problem");
        assert!(solve.status == saltus_numerics::SolveStatus::Converged, "step at t = {}: {solve:?}", sim.time());
        if let Some(p) = rep.projection {
            assert!(p.violation < 1e-9, "joint violation {} at t = {}", p.violation, sim.time());
        }
    }
    let t = sim.time();
    for (k, p0) in p.iter().enumerate() {
        let s = sim.model.bodies[k].state;
        assert!((s.v - Vector3::new(0.0, 0.0, -G * t)).norm() < 1e-9, "body {k}: v = {:?}", s.v);
        let want = p0 + Vector3::new(0.0, 0.0, -0.5 * G * t * t);
        assert!((s.position - want).norm() < 1e-9, "body {k} at {:?}, want {want:?}", s.position);
    }
}

/// Spinning about the pivots' axis, the loop turns as a rigid body: the distances between the
/// bodies stay those of the triangle.
#[test]
fn a_spinning_closed_loop_stays_rigid() {
    let (mut sim, p) = triangle(2.0);
    for _ in 0..300 {
        let rep = sim.step().unwrap();
        let solve = rep.solver.expect("the joints' problem");
        assert!(solve.status == saltus_numerics::SolveStatus::Converged, "step at t = {}: {solve:?}", sim.time());
        if let Some(p) = rep.projection {
            assert!(p.violation < 1e-9, "joint violation {} at t = {}", p.violation, sim.time());
        }
    }
    for (a, b) in [(0, 1), (1, 2), (2, 0)] {
        let d = (sim.model.bodies[a].state.position - sim.model.bodies[b].state.position).norm();
        let d0 = (p[a] - p[b]).norm();
        assert!((d - d0).abs() < 1e-6, "bodies {a}, {b}: distance {d}, was {d0}");
    }
}
