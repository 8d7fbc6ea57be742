//! Direct projection onto a bilateral constraint: the pendulum in Cartesian coordinates
//! (m = 1, l = 1, h(q) = (x² + y² − l²)/(2l) = 0, EqualityConditionNSL, Moreau–Jean θ = 1/2 with
//! an Equality problem at velocity level). Without projection the position constraint drifts
//! (the velocity-level scheme only keeps ∇h·v = 0); with the projection |h(q)| ≤ tol at every
//! step, and ∇h·v = 0 still holds.

use nalgebra::{dvector, DMatrix};
use saltus_kernel::{
    KernelError, LagrangianLinearTiDs, LagrangianScleronomousR, NonSmoothLaw, Nsds, OnNonConvergence, Osi, Osnsp,
    ProjectionOptions, Relation, TimeStepping, TimeSteppingDirectProjection,
};

const G: f64 = 9.81;
const L: f64 = 1.0;

/// Released at (x, y) = (sin 60°, −cos 60°) l at rest (a 60° swing).
fn pendulum(mass: f64) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let q0 = dvector![L * 60f64.to_radians().sin(), -L * 60f64.to_radians().cos()];
    let ds = LagrangianLinearTiDs::new(q0, dvector![0.0, 0.0], DMatrix::identity(2, 2) * mass)
        .with_f_ext(dvector![0.0, -mass * G]);
    let id = nsds.add_ds("bob", ds).unwrap();
    let rel = LagrangianScleronomousR::new(
        1,
        |_, q, y| {
            y[0] = (q[0] * q[0] + q[1] * q[1] - L * L) / (2.0 * L);
            Ok(())
        },
        |_, q, j| {
            j[(0, 0)] = q[0] / L;
            j[(0, 1)] = q[1] / L;
            Ok(())
        },
    );
    nsds.link("rod", id, None, Relation::LagrangianScleronomous(rel), NonSmoothLaw::EqualityCondition { size: 1 })
        .unwrap();
    nsds
}

fn constraint(nsds: &Nsds) -> (f64, f64) {
    let ds = &nsds.systems()[0];
    let (q, v) = (ds.state(), ds.velocity().unwrap());
    let h = (q[0] * q[0] + q[1] * q[1] - L * L) / (2.0 * L);
    (h, (q[0] * v[0] + q[1] * v[1]) / L)
}

const H: f64 = 2e-3;
const T: f64 = 100.0;

fn speed2(nsds: &Nsds) -> f64 {
    let v = nsds.systems()[0].velocity().unwrap();
    v[0] * v[0] + v[1] * v[1]
}

/// Without projection, the position constraint drifts by the scheme's exact law. With the
/// quadratic h, `h(q_{k+1}) − h(q_k) = ∇h(q_mid)·(q_{k+1} − q_k)` and `∇h(q_{k+1}) v_{k+1} = 0`
/// give, for `q_{k+1} = q_k + h((1−θ) v_k + θ v_{k+1})`:
/// θ = 1/2: `h(q_N) = h²/(8l) (|v_0|² − |v_N|²)` (bounded by h² v_max²/(8l), no growth);
/// θ = 1:   `h(q_{k+1}) − h(q_k) = −h²/(2l) |v_{k+1}|²` (the rod shortens at every step).
/// Returns (max drift over t ≤ 10, max drift over t ≤ T, max error of the drift law).
fn drift_without_projection(theta: f64) -> (f64, f64, f64) {
    let mut nsds = pendulum(1.0);
    let mut sim = TimeStepping::new(&nsds, H, Osi::moreau_jean(theta), Osnsp::Equality).unwrap();
    let (mut drift, mut drift_10, mut law_err) = (0.0f64, 0.0f64, 0.0f64);
    let v0 = speed2(&nsds);
    let mut h_prev = constraint(&nsds).0;
    sim.run(&mut nsds, T, &mut |n, rep| {
        let (h, hv) = constraint(n);
        assert!(hv.abs() <= 1e-10, "velocity constraint {hv} at t = {}", rep.t);
        let predicted =
            if theta == 0.5 { H * H / (8.0 * L) * (v0 - speed2(n)) } else { h_prev - H * H / (2.0 * L) * speed2(n) };
        law_err = law_err.max((h - predicted).abs());
        h_prev = h;
        drift = drift.max(h.abs());
        if rep.t <= 10.0 {
            drift_10 = drift;
        }
    })
    .unwrap();
    (drift_10, drift, law_err)
}

/// With projection: |h(q)| ≤ tol and ∇h·v = 0 after every step; returns the max |h(q)|.
fn drift_with_projection(theta: f64, opts: ProjectionOptions) -> f64 {
    let mut nsds = pendulum(1.0);
    let mut sim =
        TimeSteppingDirectProjection::new(&nsds, H, Osi::moreau_jean(theta), Osnsp::Equality, opts.clone()).unwrap();
    let mut drift: f64 = 0.0;
    let mut projected = 0;
    let e0 = G * nsds.systems()[0].state()[1];
    let mut e_prev = e0;
    sim.run(&mut nsds, T, &mut |n, rep| {
        let p = rep.projection.as_ref().unwrap();
        assert!(p.converged && p.violation <= opts.tol, "{p:?} at t = {}", rep.t);
        assert!(p.iterations <= 2, "{p:?}");
        projected += (p.iterations > 0) as usize;
        let (h, hv) = constraint(n);
        assert!(h.abs() <= opts.tol, "|h(q)| = {h:e} at t = {}", rep.t);
        assert!(hv.abs() <= 1e-12, "velocity constraint {hv:e} at t = {}", rep.t);
        assert!(p.velocity_violation <= 1e-12);
        // the model's outputs follow the projected state
        assert_eq!(n.interactions()[0].y(0).unwrap()[0], h);
        drift = drift.max(h.abs());
        // mechanical energy never increases (dissipative scheme, projections of size O(h³))
        let e = 0.5 * speed2(n) + G * n.systems()[0].state()[1];
        assert!(e <= e_prev + 1e-9, "energy grows: {e} > {e_prev} at t = {}", rep.t);
        e_prev = e;
    })
    .unwrap();
    assert!(projected as f64 > 0.5 * T / H, "projected {projected} steps");
    assert!(e_prev < e0 && e_prev > e0 - 0.5 * G * L, "energy {e0} -> {e_prev}");
    drift
}

#[test]
fn projection_removes_the_drift_of_the_bilateral_constraint() {
    let opts = ProjectionOptions { tol: 1e-10, max_iter: 10, ..Default::default() };
    // θ = 1/2: bounded drift h² v_max²/(8l) ≈ 4.9e-6, far above tol
    let (d10, d, law) = drift_without_projection(0.5);
    let vmax2 = 2.0 * G * L * (1.0 - 60f64.to_radians().cos());
    println!("theta 1/2: drift (t<=10) {d10:e}, (t<=T) {d:e}, law error {law:e}");
    assert!(law <= 1e-12, "drift law error {law:e}");
    assert!(d <= H * H * vmax2 / (8.0 * L) * 1.0001 && d >= 0.9 * H * H * vmax2 / (8.0 * L));
    let dp = drift_with_projection(0.5, opts.clone());
    println!("theta 1/2 with projection: {dp:e}");
    assert!(d > 1e4 * opts.tol && d > 100.0 * dp.max(f64::MIN_POSITIVE));
    // θ = 1: the rod shortens at every step; the drift grows with time
    let (d10, d, law) = drift_without_projection(1.0);
    println!("theta 1: drift (t<=10) {d10:e}, (t<=T) {d:e}, law error {law:e}");
    assert!(law <= 1e-12, "drift law error {law:e}");
    assert!(d > 3.0 * d10, "drift does not grow: {d10:e} -> {d:e}");
    let dp = drift_with_projection(1.0, opts.clone());
    println!("theta 1 with projection: {dp:e}");
    assert!(d > 1e5 * opts.tol && d > 100.0 * dp.max(f64::MIN_POSITIVE));
}

/// The projection is in the metric of M: scaling the mass does not change the trajectory.
#[test]
fn projection_is_mass_weighted_and_fails_typed_when_asked() {
    let run = |m: f64| {
        let mut nsds = pendulum(m);
        let opts = ProjectionOptions::default();
        let mut sim =
            TimeSteppingDirectProjection::new(&nsds, 1e-2, Osi::moreau_jean(0.5), Osnsp::Equality, opts).unwrap();
        sim.run(&mut nsds, 2.0, &mut |_, _| {}).unwrap();
        nsds.systems()[0].state().clone()
    };
    let (a, b) = (run(1.0), run(7.5));
    assert!((&a - &b).amax() < 1e-12, "{a} vs {b}");

    // an unreachable tolerance with one iteration and the Fail policy: a typed error
    let mut nsds = pendulum(1.0);
    let opts = ProjectionOptions {
        tol: 1e-300,
        max_iter: 1,
        on_non_convergence: OnNonConvergence::Fail,
        ..Default::default()
    };
    let mut sim = TimeSteppingDirectProjection::new(&nsds, 1e-2, Osi::moreau_jean(0.5), Osnsp::Equality, opts).unwrap();
    match sim.step(&mut nsds) {
        Err(KernelError::NotConverged { report, .. }) => {
            assert_eq!(report.iterations, 1);
            assert!(report.residual > 0.0 && report.residual.is_finite())
        }
        other => panic!("expected NotConverged, got {other:?}"),
    }
    // options are validated
    let bad = ProjectionOptions { tol: -1.0, ..Default::default() };
    assert!(bad.validate().is_err());
}

/// Mixed projection: the pendulum's bob (rod = bilateral) falls onto a floor y ≥ −0.8 (Newton
/// impact e = 0, unilateral) and comes to rest at (0.6, −0.8) where both constraints are active.
/// With an MLCP one-step problem, an activation threshold of 1e-6 and the projection, at every step |h_rod| ≤ tol and the floor gap
/// ≥ −tol, and the bob ends at rest on the corner.
#[test]
fn projection_onto_bilateral_and_unilateral_constraints_together() {
    use saltus_kernel::solvers::mlcp::MlcpSolver;
    use saltus_kernel::LagrangianLinearTiR;
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![1.0, 0.0], dvector![0.0, 0.0], DMatrix::identity(2, 2))
        .with_f_ext(dvector![0.0, -G]);
    let id = nsds.add_ds("bob", ds).unwrap();
    let rod = LagrangianScleronomousR::new(
        1,
        |_, q, y| {
            y[0] = (q[0] * q[0] + q[1] * q[1] - L * L) / (2.0 * L);
            Ok(())
        },
        |_, q, j| {
            j[(0, 0)] = q[0] / L;
            j[(0, 1)] = q[1] / L;
            Ok(())
        },
    );
    nsds.link("rod", id, None, Relation::LagrangianScleronomous(rod), NonSmoothLaw::EqualityCondition { size: 1 })
        .unwrap();
    let floor = LagrangianLinearTiR::new(nalgebra::dmatrix![0.0, 1.0]).with_b(dvector![0.8]);
    nsds.link("floor", id, None, Relation::LagrangianLinearTi(floor), NonSmoothLaw::NewtonImpact { e: 0.0 }).unwrap();
    let opts = ProjectionOptions::default();
    let osnsp = Osnsp::Mlcp(MlcpSolver::Enumerative(Default::default()));
    // The projection leaves the floor gap at +O(δ²) when the rod correction lifts the bob; a small
    // activation threshold keeps the resting contact in the velocity-level problem (without it the
    // contact chatters in and out every other step).
    let ts = TimeStepping::new(&nsds, 1e-2, Osi::moreau_jean(0.5), osnsp)
        .unwrap()
        .with_activation_threshold(1e-6, &nsds)
        .unwrap();
    let mut sim = TimeSteppingDirectProjection::from_time_stepping(&nsds, ts, opts.clone()).unwrap();
    let (mut both, mut floor_projected) = (0, 0);
    sim.run(&mut nsds, 3.0, &mut |n, rep| {
        let p = rep.projection.as_ref().unwrap();
        assert!(p.converged, "{p:?} at t = {}", rep.t);
        let q = n.systems()[0].state();
        let h = (q[0] * q[0] + q[1] * q[1] - L * L) / (2.0 * L);
        assert!(h.abs() <= opts.tol, "rod {h:e} at t = {}", rep.t);
        assert!(q[1] + 0.8 >= -opts.tol, "floor gap {} at t = {}", q[1] + 0.8, rep.t);
        both += (p.active == 2) as usize;
        floor_projected += (p.iterations > 0 && p.active == 2) as usize;
    })
    .unwrap();
    let (q, v) = (nsds.systems()[0].state(), nsds.systems()[0].velocity().unwrap());
    assert!((q[0] - 0.6).abs() < 1e-6 && (q[1] + 0.8).abs() < 1e-6, "rest position {q}");
    assert!(v.amax() < 1e-6, "rest velocity {v}");
    assert!(both > 0 && floor_projected > 0, "both active {both}, projected {floor_projected}");
}
