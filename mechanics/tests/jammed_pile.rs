//! A jammed step of the 125-sphere pile (step 400 of `spheres_in_a_box`, 286 contacts; `W` has
//! rank 729 of 858, so the reactions are not unique): NSGS stalls far above the 1e-6 tolerance
//! on it, as Siconos's NSGS does on most settled steps, yet the problem has a solution. PROX
//! started from NSGS's iterate finds it; the error is recomputed here from `r` alone.
//!
//! This step used to stop PROX dead: at NSGS's iterate its inner test (`‖Φ‖ ≤ tol·‖r‖`, the
//! Alart–Curnier function scaled by `ρ ≈ 1/‖W_αα‖`) already passed while the Siconos error was
//! 6e-4, so every proximal step returned the centre unchanged until the cap.

use saltus_mechanics::scenes::spheres_in_a_box;
use saltus_numerics::fc::{self, FcSolver, NsgsOptions, ProxOptions};
use saltus_numerics::IterOptions;

#[test]
fn prox_solves_a_jammed_pile_step_where_nsgs_stalls() {
    // the plain sweep's trajectory (the scene sweeps on slabs): its step 400 is the one above
    let mut scene = spheres_in_a_box(125, 1).unwrap();
    let FcSolver::NsgsAc(o) = &mut scene.options.solver else { panic!("NSGS") };
    o.domains = 0;
    let mut sim = scene.into_simulation().unwrap();
    sim.set_capture_problem(true);
    for _ in 0..=400 {
        sim.step().unwrap();
    }
    let (p, r0) = sim.captured_problem().unwrap().clone();
    let mut r = r0.clone();
    let mut u = vec![0.0; r.len()];
    let mut o = NsgsOptions::with_iter(IterOptions::new(1e-6, 100));
    o.warm_start = true;
    let nsgs = fc::solve(&p, &mut r, &mut u, &FcSolver::NsgsAc(o)).unwrap();
    let mut po = ProxOptions::with_iter(IterOptions::new(1e-6, 200));
    po.warm_start = true;
    po.warmup_sweeps = 0;
    po.admm_warmup = 0;
    let rep = fc::solve(&p, &mut r, &mut u, &FcSolver::Prox(po)).unwrap();
    let e = fc::fc_error(&p, &r);
    assert!(rep.status.converged() && e <= 1e-6, "PROX {rep:?}, error {e:.3e} (NSGS after 100 sweeps: {nsgs:?})");
    assert!(r.iter().all(|x| x.is_finite()));
}
