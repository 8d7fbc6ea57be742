//! The position projection allocates nothing once sized: a bob pulled to the origin by a spring
//! (K = k I) circles on the outside of the cylinder x² + y² ≥ 1 (unilateral, LagrangianScleronomousR,
//! Newton impact e = 0, LCP). Moreau–Jean θ = 1 makes the constraint drift inward by h²|v|²/2 per
//! step, so the projection iterates at every step; with the active set stable, a step (Moreau–Jean
//! and projection) allocates nothing. Counted per thread with the
//! allocator of `tests/counting`.

mod counting;

use nalgebra::{dvector, DMatrix};
use saltus_kernel::{
    solvers::lcp::LcpSolver, LagrangianLinearTiDs, LagrangianScleronomousR, NonSmoothLaw, Nsds, Osi, Osnsp,
    ProjectionOptions, Relation, TimeStepping, TimeSteppingDirectProjection,
};

#[test]
fn projection_allocates_nothing_once_sized() {
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![1.0, 0.0], dvector![0.0, 1.0], DMatrix::identity(2, 2))
        .with_k(DMatrix::identity(2, 2) * 10.0);
    let id = nsds.add_ds("bob", ds).unwrap();
    let wall = LagrangianScleronomousR::new(
        1,
        |_, q, y| {
            y[0] = (q[0] * q[0] + q[1] * q[1] - 1.0) / 2.0;
            Ok(())
        },
        |_, q, j| {
            j[(0, 0)] = q[0];
            j[(0, 1)] = q[1];
            Ok(())
        },
    );
    nsds.link("wall", id, None, Relation::LagrangianScleronomous(wall), NonSmoothLaw::NewtonImpact { e: 0.0 }).unwrap();
    let ts = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(1.0), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
        .unwrap()
        .with_activation_threshold(1e-6, &nsds)
        .unwrap();
    let opts = ProjectionOptions::default();
    let mut sim = TimeSteppingDirectProjection::from_time_stepping(&nsds, ts, opts.clone()).unwrap();
    for _ in 0..100 {
        sim.step(&mut nsds).unwrap();
    }
    let mut projected = 0;
    let (allocs, ()) = counting::allocations_during(|| {
        for _ in 0..500 {
            let rep = sim.step(&mut nsds).unwrap();
            let p = rep.projection.as_ref().unwrap();
            assert!(rep.active == 1 && p.converged);
            projected += (p.iterations > 0) as usize;
        }
    });
    let q = nsds.systems()[0].state();
    let gap = (q[0] * q[0] + q[1] * q[1] - 1.0) / 2.0;
    assert!(gap >= -opts.tol, "gap {gap:e}");
    assert!(projected >= 400, "projected {projected} of 500 steps");
    assert_eq!(allocs, 0, "500 projected steps allocated {allocs} times");
}
