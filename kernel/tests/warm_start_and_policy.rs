//! Warm start of the one-step problem from the previous step, and the non-convergence policy.

use saltus_kernel::solvers::lcp::{LcpSolver, PgsOptions};
use saltus_kernel::*;
use saltus_numerics::IterOptions;

fn pgs(tol: f64, max_iter: usize) -> Osnsp {
    let mut o = PgsOptions::default();
    o.iter = IterOptions::new(tol, max_iter);
    o.warm_start = true;
    Osnsp::Lcp(LcpSolver::Pgs(o))
}

fn total_iterations(warm_start: bool) -> usize {
    // a resting stack of 20 beads (radius 0.5: exact positions, every gap exactly 0): every
    // contact active, λ constant in time
    let mut nsds = presets::column_of_beads(20, 0.5, 1.0, 9.81, 0.0, 0.0).unwrap();
    let opts = OsnspOptions { warm_start, storage: Storage::SparseBlock, ..Default::default() };
    let mut sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), pgs(1e-10, 100_000))
        .unwrap()
        .with_options(opts)
        .unwrap()
        .with_activation_threshold(1e-9, &nsds)
        .unwrap();
    let mut total = 0;
    sim.run(&mut nsds, 0.1, &mut |n, rep| {
        let r = rep.osnsp.as_ref().unwrap();
        assert!(r.status.converged());
        // with the activation threshold every contact stays active and the stack at rest
        assert_eq!(rep.active, 20);
        assert!((n.interactions()[0].lambda(1).unwrap()[0] - 20.0 * 9.81e-3).abs() <= 1e-6);
        total += r.iterations;
    })
    .unwrap();
    total
}

#[test]
fn warm_start_from_the_previous_step_saves_iterations() {
    let cold = total_iterations(false);
    let warm = total_iterations(true);
    assert!(warm * 10 < cold, "warm {warm} vs cold {cold} PGS sweeps");
}

#[test]
fn non_convergence_is_a_status_or_an_error_by_policy() {
    let build = || presets::column_of_beads(20, 0.5, 1.0, 9.81, 0.0, 0.0).unwrap();
    // Accept: the step goes through and the report says MaxIterations
    let mut nsds = build();
    let mut sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), pgs(1e-12, 2)).unwrap();
    let rep = sim.step(&mut nsds).unwrap();
    assert_eq!(rep.osnsp.unwrap().status, SolveStatus::MaxIterations);
    // Fail: typed error, state left at t0
    let mut nsds = build();
    let q0: Vec<f64> = nsds.systems().iter().map(|d| d.state()[0]).collect();
    let opts = OsnspOptions { on_non_convergence: OnNonConvergence::Fail, ..Default::default() };
    let mut sim =
        TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), pgs(1e-12, 2)).unwrap().with_options(opts).unwrap();
    match sim.step(&mut nsds) {
        Err(KernelError::NotConverged { t, report }) => {
            assert!((t - 1e-3).abs() < 1e-15);
            assert_eq!(report.iterations, 2);
        }
        other => panic!("expected NotConverged, got {other:?}"),
    }
    let q: Vec<f64> = nsds.systems().iter().map(|d| d.state()[0]).collect();
    assert_eq!(q, q0);
    assert_eq!(nsds.t(), 0.0);
}
