//! The cube pile of issue 31 (`scenes::cube_pile`): 64 randomly oriented cubes dropped into a box
//! come to rest inside it, without significant penetration, with the ground carrying their
//! weight; every step's reactions, read back from the contacts, have the Siconos error the
//! solver reported (recomputed here from `r` alone), and every step is solved to the tolerance
//! (the scene's NSGS with the patch fallback).

use saltus_mechanics::scenes::{cube_pile, cubes, lattice_side};
use saltus_numerics::fc;

#[test]
fn cubes_come_to_rest_in_the_box_with_the_weight_carried() {
    let scene = cube_pile(64, 1).unwrap();
    assert_eq!(scene.n_steps(), 1000);
    let (h, tol) = (scene.h, scene.options.solver.tol());
    let mut sim = scene.into_simulation().unwrap();
    sim.set_capture_problem(true);
    let n = 64;
    let a = cubes::HALF_EDGE;
    let half_w = 0.5 * lattice_side(n) as f64 * cubes::SPACING * a;
    let z0: f64 = (0..n).map(|i| sim.model.bodies[i].state.position.z).sum::<f64>() / n as f64;
    let (mut worst_gap, mut worst_mismatch, mut unconverged) = (0.0f64, 0.0f64, 0);
    // 700 steps: the pile lands by t ≈ 0.2 s and is at rest well before 0.7 s.
    for _ in 0..700 {
        let rep = sim.step().unwrap();
        worst_gap = worst_gap.min(sim.contacts().iter().map(|c| c.gap).fold(0.0, f64::min));
        let Some(s) = rep.solver else { continue };
        // the reactions the step returned, in the problem's (contact) order
        let (p, _) = sim.captured_problem().unwrap();
        let r: Vec<f64> = sim.contacts().iter().filter(|c| c.active).flat_map(|c| c.impulse.iter().copied()).collect();
        assert_eq!(r.len(), p.size());
        let e = fc::fc_error(&p, &r);
        // relative agreement, down to the round-off floor of a normalized error (1e-14)
        worst_mismatch = worst_mismatch.max((e - s.residual).abs() / (s.residual + 1e-14 / 1e-6));
        if s.status.converged() {
            assert!(e <= tol * (1.0 + 1e-9), "t = {}: converged but the error of r is {e:e}", sim.time());
        } else {
            unconverged += 1;
        }
    }
    assert!(worst_mismatch < 1e-6, "reported residuals differ from the recomputed errors by {worst_mismatch:e}");
    eprintln!("cube pile: {unconverged} of 700 steps not converged, worst gap {:.3e} a", worst_gap / a);
    // the scene's NSGS hands stalled problems to the patch corrections: every step is solved
    assert_eq!(unconverged, 0, "steps left above the tolerance");
    // an impact at ≈ 0.5 m/s sinks by about 1.5 h |u_N| ≈ 0.08 a
    assert!(worst_gap > -0.15 * a, "penetration of {} a", -worst_gap / a);
    let total_mass: f64 = sim.model.bodies[..n].iter().map(|b| b.mass()).sum();
    let mut z_mean = 0.0;
    for b in &sim.model.bodies[..n] {
        let x = b.state.position;
        assert!(x.x.abs() < half_w && x.y.abs() < half_w, "{} outside the walls: {x:?}", b.name);
        assert!(x.z >= a * 0.9, "{} below the ground: {x:?}", b.name);
        z_mean += x.z / n as f64;
    }
    assert!(z_mean < z0 - 2.0 * a, "mean height {z_mean} did not drop from {z0}");
    let ke = sim.model.kinetic_energy();
    let drop_energy = total_mass * 9.81 * (z0 - z_mean);
    assert!(ke < 1e-4 * drop_energy, "kinetic energy {ke} vs potential drop {drop_energy}");
    // At rest the statics carry the weight: Σ λ·ẑ over the ground and walls = M g h.
    let statics = [sim.model.body_by_name("ground").unwrap(), sim.model.body_by_name("walls").unwrap()];
    let mut carried = 0.0;
    for c in sim.contacts() {
        let f = saltus_mechanics::relation::contact_frame(&c.normal) * c.impulse;
        if statics.contains(&c.body1) {
            carried += f.z;
        } else if statics.contains(&c.body2) {
            carried -= f.z;
        }
    }
    let weight = total_mass * 9.81 * h;
    assert!((carried - weight).abs() < 0.02 * weight, "statics carry {carried}, weight × h = {weight}");
}
