//! NSGS on slabs (`NsgsOptions::domains`, the granular scene's solver) : the same trajectory,
//! bit for bit, on one and two threads, and the pile settles as with the plain sweep (same
//! checks as `spheres_in_a_box.rs`: at rest, the statics carrying the weight).

use saltus_mechanics::scenes::{spheres, spheres_in_a_box, Scene};
use saltus_numerics::fc::FcSolver;

fn on_slabs(mut scene: Scene, domains: usize) -> Scene {
    let FcSolver::NsgsAc(o) = &mut scene.options.solver else { panic!("the scene's solver is NSGS") };
    o.domains = domains;
    scene
}

/// Positions and twists of every body after `steps` steps, with the mean sweeps per step.
fn run(scene: Scene, steps: usize) -> (Vec<f64>, f64) {
    let mut sim = scene.into_simulation().unwrap();
    let mut sweeps = 0;
    for _ in 0..steps {
        sweeps += sim.step().unwrap().solver.map_or(0, |s| s.iterations);
    }
    let mut state = vec![];
    for b in &sim.model.bodies {
        let s = &b.state;
        state.extend(
            s.position.iter().chain(s.orientation.coords.iter()).chain(s.v.iter()).chain(s.omega.iter()).copied(),
        );
    }
    (state, sweeps as f64 / steps as f64)
}

#[cfg(feature = "parallel")]
#[test]
fn slab_pile_has_the_same_bits_on_1_and_2_threads() {
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let go = || run(on_slabs(spheres_in_a_box(64, 5).unwrap(), 2), 250);
    let (one, sweeps) = pool(1).install(go);
    let (two, _) = pool(2).install(go);
    assert!(sweeps > 10.0, "the pile was solved ({sweeps} sweeps per step)");
    let differ = one.iter().zip(&two).filter(|(a, b)| a.to_bits() != b.to_bits()).count();
    assert_eq!(differ, 0, "{differ} of {} state values differ between 1 and 2 threads", one.len());
}

#[test]
fn slab_pile_settles_like_the_plain_sweep() {
    let n = 125;
    let r = spheres::RADIUS;
    let plain = on_slabs(spheres_in_a_box(n, 42).unwrap(), 0);
    let steps = plain.n_steps();
    let scene = spheres_in_a_box(n, 42).unwrap();
    assert!(matches!(&scene.options.solver, FcSolver::NsgsAc(o) if o.domains == 2), "the scene sweeps on slabs");
    let h = scene.h;
    let mut sim = scene.into_simulation().unwrap();
    let total_mass: f64 = sim.model.bodies[..n].iter().map(|b| b.mass()).sum();
    let z_mean =
        |bodies: &[saltus_mechanics::RigidBody]| bodies[..n].iter().map(|b| b.state.position.z).sum::<f64>() / n as f64;
    let z0 = z_mean(&sim.model.bodies);
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let (z_slab, ke) = (z_mean(&sim.model.bodies), sim.model.kinetic_energy());
    let mut reference = plain.into_simulation().unwrap();
    for _ in 0..steps {
        reference.step().unwrap();
    }
    let z_plain = z_mean(&reference.model.bodies);
    // The pile is chaotic once steps stop converging, so the two orders give different piles
    // of the same height (the runs of mechanics/benches/README.md differ by up to 0.5 %).
    assert!((z_slab - z_plain).abs() < 0.01 * z_plain, "mean height {z_slab} vs {z_plain} (plain sweep)");
    let drop_energy = total_mass * 9.81 * (z0 - z_slab);
    assert!(z_slab > r && ke < 1e-3 * drop_energy, "settled: z {z_slab}, kinetic energy {ke} vs drop {drop_energy}");
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
