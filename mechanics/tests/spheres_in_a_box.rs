//! The granular sample: 125 spheres dropped into a box settle inside it, without significant
//! penetration, at rest, with the static bodies carrying the whole weight.

use saltus_mechanics::scenes::{lattice_side, spheres, spheres_in_a_box};

#[test]
fn spheres_settle_inside_the_box() {
    let scene = spheres_in_a_box(125, 42).unwrap();
    let steps = scene.n_steps();
    assert_eq!(steps, 500);
    let h = scene.h;
    let mut sim = scene.into_simulation().unwrap();
    let r = spheres::RADIUS;
    let k = lattice_side(125);
    assert_eq!(k, 5);
    let half_w = 0.5 * k as f64 * spheres::SPACING * r;
    let n = 125;
    let z0: f64 = (0..n).map(|i| sim.model.bodies[i].state.position.z).sum::<f64>() / n as f64;
    let mut worst_gap = 0.0f64;
    for _ in 0..steps {
        sim.step().unwrap();
        worst_gap = worst_gap.min(sim.contacts().iter().map(|c| c.gap).fold(0.0, f64::min));
    }
    // Velocity-level Moreau–Jean (γ = ½) lets an impact at normal speed |u_N| sink by up to
    // 1.5 h |u_N| (≈ 0.05 r for this scene's ≈ 0.35 m/s impacts) and never pushes back (e = 0).
    assert!(worst_gap > -0.1 * r, "penetration of {} r", -worst_gap / r);
    let total_mass: f64 = sim.model.bodies[..n].iter().map(|b| b.mass()).sum();
    let mut z_mean = 0.0;
    for b in &sim.model.bodies[..n] {
        let x = b.state.position;
        let tol = 0.05 * r;
        assert!(x.x.abs() <= half_w - r + tol && x.y.abs() <= half_w - r + tol, "{} outside the walls: {x:?}", b.name);
        assert!(x.z >= r - tol, "{} below the ground: {x:?}", b.name);
        z_mean += x.z / n as f64;
    }
    // Settled: the lattice collapsed (gaps of 0.2 r closed) and the pile is at rest.
    assert!(z_mean < z0 - 0.1 * r, "mean height {z_mean} did not drop from {z0}");
    let ke = sim.model.kinetic_energy();
    let drop_energy = total_mass * 9.81 * (z0 - z_mean);
    assert!(ke < 1e-3 * drop_energy, "kinetic energy {ke} vs potential drop {drop_energy}");
    // Vertical momentum balance at rest: the ground and walls carry the weight, Σ λ·ẑ = M g h.
    let statics = [sim.model.body_by_name("ground").unwrap(), sim.model.body_by_name("walls").unwrap()];
    let mut carried = 0.0;
    for c in sim.contacts() {
        let f = saltus_mechanics::relation::contact_frame(&c.normal) * c.impulse;
        // +λ acts on body 2, −λ on body 1.
        if statics.contains(&c.body1) {
            carried += f.z;
        } else if statics.contains(&c.body2) {
            carried -= f.z;
        }
    }
    let weight = total_mass * 9.81 * h;
    assert!((carried - weight).abs() < 0.02 * weight, "statics carry {carried}, weight × h = {weight}");
}
