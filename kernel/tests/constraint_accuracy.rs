//! Simmath's constraint tolerances as the stopping test of the projections: `‖T c‖ ≤ α`,
//! `T = diag(1/t_i)`, honoured after every projection (time stepping after the semi-explicit
//! Euler, event driven at every event), and a looser tolerance leaves a larger violation.
//! The cartesian pendulum, `h(q) = (x² + y² − 1)/2 = 0` (`EqualityConditionNSL`).

mod common;

use nalgebra::dvector;
use saltus_kernel::{
    ConstraintAccuracy, EventDriven, EventDrivenOptions, KernelError, Nsds, OdeOptions, Osi, Osnsp, ProjectionOptions,
    TimeSteppingDirectProjection,
};
use saltus_numerics::ode::ErrorNorm;

fn pendulum() -> Nsds {
    common::cartesian_pendulum(dvector![1.0, 0.0])
}

fn rod_h(nsds: &Nsds) -> f64 {
    let q = nsds.systems()[0].state();
    (q[0] * q[0] + q[1] * q[1] - 1.0) / 2.0
}

fn accuracy(alpha: f64, t: f64) -> ConstraintAccuracy {
    ConstraintAccuracy { alpha, tol: vec![t], norm: ErrorNorm::Rms }
}

/// Time stepping (semi-explicit Euler + projection): `|h(q)| / t ≤ α` after every step.
fn ts_worst(a: ConstraintAccuracy) -> f64 {
    let bound = a.alpha * a.tol_of(0);
    let mut nsds = pendulum();
    let opts = ProjectionOptions { accuracy: Some(a), ..Default::default() };
    let mut sim =
        TimeSteppingDirectProjection::new(&nsds, 2e-3, Osi::semi_explicit_euler(), Osnsp::Equality, opts).unwrap();
    let mut worst: f64 = 0.0;
    for _ in 0..1500 {
        sim.step(&mut nsds).unwrap();
        let h = rod_h(&nsds).abs();
        assert!(h <= bound, "|h(q)| = {h:e} > alpha t = {bound:e}");
        worst = worst.max(h);
    }
    worst
}

#[test]
fn time_stepping_projection_honours_the_constraint_tolerance() {
    let (tight, loose) = (ts_worst(accuracy(1e-10, 0.01)), ts_worst(accuracy(1e-3, 0.01)));
    eprintln!("semi-explicit Euler + projection: max |h(q)| {tight:e} (alpha t = 1e-12), {loose:e} (1e-5)");
    assert!(loose > 1e3 * tight, "{loose:e} vs {tight:e}");
    // the default t_i = 0.1 (Simmath's): alpha 1e-6 gives |h| <= 1e-7
    let d = ts_worst(ConstraintAccuracy { alpha: 1e-6, tol: vec![], norm: ErrorNorm::Max });
    assert!(d > 1e-9, "{d:e}");
    // one tolerance per row: 2 values for 1 row is refused before the run
    let bad = ProjectionOptions {
        accuracy: Some(ConstraintAccuracy { tol: vec![0.1, 0.1], ..accuracy(1e-3, 0.1) }),
        ..Default::default()
    };
    let nsds = pendulum();
    let err = TimeSteppingDirectProjection::new(&nsds, 2e-3, Osi::semi_explicit_euler(), Osnsp::Equality, bad);
    assert!(matches!(err, Err(KernelError::InvalidOption { option: "constraint_accuracy", .. })));
}

/// Event driven with a loose integrator tolerance (the index-reduced rod drifts between events):
/// at every event `|h(q)| / t ≤ α`.
fn ed_worst(a: Option<ConstraintAccuracy>) -> f64 {
    let bound = a.as_ref().map_or(1e-12, |a| a.alpha * a.tol_of(0));
    let mut nsds = pendulum();
    let opts = EventDrivenOptions {
        h: 0.05,
        ode: OdeOptions::with_tol(1e-5, 1e-5),
        constraint_accuracy: a,
        ..Default::default()
    };
    let mut sim = EventDriven::new(&nsds, opts).unwrap();
    let mut worst: f64 = 0.0;
    sim.run(&mut nsds, 3.0, &mut |nsds, rep| {
        let h = rod_h(nsds).abs();
        assert!(h <= bound, "|h(q)| = {h:e} > {bound:e} at t = {}", rep.t);
        worst = worst.max(h);
    })
    .unwrap();
    worst
}

#[test]
fn event_driven_projection_honours_the_constraint_tolerance() {
    let tight = ed_worst(Some(accuracy(1e-11, 0.1)));
    let loose = ed_worst(Some(accuracy(1e-3, 0.1)));
    let default = ed_worst(None);
    eprintln!("event driven: max |h(q)| {tight:e} (alpha t = 1e-12), {loose:e} (1e-4), {default:e} (default)");
    assert!(loose > 1e3 * tight, "{loose:e} vs {tight:e}");
    let nsds = pendulum();
    let bad = EventDrivenOptions { constraint_accuracy: Some(accuracy(2.0, 0.1)), ..Default::default() };
    assert!(EventDriven::new(&nsds, bad).is_err());
}
