//! Direct projection: the bouncing ball never penetrates the ground beyond the projection
//! tolerance, while plain Moreau–Jean lets penetration reach ~7e-3.
mod common;

use saltus_kernel::{
    solvers::lcp::LcpSolver, Osi, Osnsp, ProjectionOptions, TimeStepping, TimeSteppingDirectProjection,
};

#[test]
fn no_penetration_growth_with_direct_projection() {
    let osnsp = || Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
    // plain Moreau–Jean penetrates
    let mut nsds = common::bouncing_ball();
    let mut sim = TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), osnsp()).unwrap();
    let mut min_plain = f64::INFINITY;
    for _ in 0..2000 {
        sim.step(&mut nsds).unwrap();
        min_plain = min_plain.min(nsds.systems()[0].state()[0]);
    }
    assert!(min_plain < -1e-3);
    // with the projection
    let mut nsds = common::bouncing_ball();
    let opts = ProjectionOptions::default();
    let mut sim =
        TimeSteppingDirectProjection::new(&nsds, 0.005, Osi::moreau_jean(0.5), osnsp(), opts.clone()).unwrap();
    let mut projected = 0;
    for _ in 0..2000 {
        let rep = sim.step(&mut nsds).unwrap();
        let q = nsds.systems()[0].state()[0];
        assert!(q >= -opts.tol * 1.0001, "penetration {q} at t = {}", rep.t);
        let p = rep.projection.unwrap();
        assert!(p.violation <= opts.tol);
        projected += (p.iterations > 0) as usize;
        // the projection changes positions only; the gap y₀ in the model follows q
        assert_eq!(nsds.interactions()[0].y(0).unwrap()[0], q);
        // the projection lifts the ball to the surface: it never exceeds the initial energy
        let v = nsds.systems()[0].velocity().unwrap()[0];
        assert!(0.5 * v * v + 9.81 * q <= 9.81 * 1.0);
    }
    assert!(projected > 10);
}
