//! NSGS on slabs (`NsgsOptions::domains`, the granular scene's solver): the same trajectory,
//! bit for bit, on one and two threads, and the pile settles to the plain sweep's height.

use saltus_mechanics::scenes::{spheres_in_a_box, Scene};
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

/// The scene (slabs) settles to the plain sweep's height; `spheres_in_a_box.rs` checks the
/// settled slab pile itself (inside the box, at rest, the statics carrying the weight).
#[test]
fn slab_pile_settles_like_the_plain_sweep() {
    let n = 125;
    let scene = spheres_in_a_box(n, 42).unwrap();
    assert!(matches!(&scene.options.solver, FcSolver::NsgsAc(o) if o.domains == 2), "the scene sweeps on slabs");
    let steps = scene.n_steps();
    let z_mean = |state: &[f64]| (0..n).map(|i| state[13 * i + 2]).sum::<f64>() / n as f64;
    let (slab, _) = run(scene, steps);
    let (plain, _) = run(on_slabs(spheres_in_a_box(n, 42).unwrap(), 0), steps);
    let (z_slab, z_plain) = (z_mean(&slab), z_mean(&plain));
    // The pile is chaotic once steps stop converging, so the two orders give different piles
    // of the same height (the runs of mechanics/benches/README.md differ by up to 0.5 %).
    assert!((z_slab - z_plain).abs() < 0.01 * z_plain, "mean height {z_slab} vs {z_plain} (plain sweep)");
    assert!(slab != plain, "the slab order is a different sweep");
}

/// A large pile (over 2048 candidate pairs: the broad and narrow phases run in chunks on the
/// pool) solved on coloured parts of a bisection (`domains = 16`, parts taken by whichever
/// worker is free): every contact and every state value has the same bits on 1 and 3 threads.
#[cfg(feature = "parallel")]
#[test]
fn bisection_parts_and_parallel_collision_give_the_same_bits_on_1_and_3_threads() {
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let go = || {
        let mut sim = on_slabs(spheres_in_a_box(1000, 2).unwrap(), 16).into_simulation().unwrap();
        let (mut pairs, mut sweeps) = (0, 0);
        for _ in 0..40 {
            let rep = sim.step().unwrap();
            pairs = pairs.max(rep.n_pairs);
            sweeps += rep.solver.map_or(0, |s| s.iterations);
        }
        let contacts: Vec<u64> = sim
            .contacts()
            .iter()
            .flat_map(|c| c.point1.iter().chain(c.normal.iter()).chain(c.impulse.iter()).copied().chain([c.gap]))
            .map(f64::to_bits)
            .collect();
        let state: Vec<u64> = sim
            .model
            .bodies
            .iter()
            .flat_map(|b| {
                let s = &b.state;
                s.position.iter().chain(s.orientation.coords.iter()).chain(s.v.iter()).chain(s.omega.iter()).copied()
            })
            .map(f64::to_bits)
            .collect();
        (contacts, state, pairs, sweeps)
    };
    let (c1, s1, pairs, sweeps) = pool(1).install(go);
    let (c3, s3, _, _) = pool(3).install(go);
    assert!(pairs > 2048, "the collision runs in chunks ({pairs} pairs)");
    assert!(sweeps > 40 && c1.len() > 1000, "the pile was solved ({sweeps} sweeps, {} contact values)", c1.len());
    assert!(c1 == c3, "contacts differ between 1 and 3 threads");
    assert!(s1 == s3, "states differ between 1 and 3 threads");
}
