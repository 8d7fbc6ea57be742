//! Relay, MLCP and Equality one-step problems on models with known answers.
mod common;

use nalgebra::{dmatrix, dvector};
use saltus_kernel::solvers::{lcp::LcpSolver, mlcp::MlcpSolver, relay::RelaySolver};
use saltus_kernel::*;

/// Relay: ẋ = −λ, λ ∈ sgn(x) (y = −x, −y ∈ N_[−1,1](λ)). Implicit Euler reaches the sliding
/// mode x = 0 in finite time: x(t) = max(0, 1 − t) at the grid points, to rounding (the update
/// integrates over the step's length `t_{k+1} − t_k`, which differs from the `h` of the relay's
/// `W` by the rounding of `t_k`, as in Siconos: `|x|` stays at a few ulps of 1 in the sliding mode).
#[test]
fn relay_reaches_the_sliding_mode_in_finite_time() {
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("x", FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![0.0])).unwrap();
    let rel = FirstOrderLinearTiR::new(dmatrix![-1.0], dmatrix![-1.0]);
    nsds.link(
        "relay",
        id,
        None,
        Relation::FirstOrderLinearTi(rel),
        NonSmoothLaw::Relay { lb: dvector![-1.0], ub: dvector![1.0] },
    )
    .unwrap();
    let h = 0.01;
    let mut sim =
        TimeStepping::new(&nsds, h, Osi::euler_moreau(1.0), Osnsp::Relay(RelaySolver::Lemke(Default::default())))
            .unwrap();
    sim.run(&mut nsds, 2.0, &mut |n, rep| {
        let x = n.systems()[0].state()[0];
        let l = n.interactions()[0].lambda(0).unwrap()[0];
        assert!((x - (1.0 - rep.t).max(0.0)).abs() <= 1e-12, "x({}) = {x}", rep.t);
        assert!((-1.0..=1.0).contains(&l));
        if rep.t < 1.0 - 1e-9 {
            assert!((l - 1.0).abs() <= 1e-12);
        }
    })
    .unwrap();
    assert!(nsds.systems()[0].state()[0].abs() <= 4.0 * f64::EPSILON);
}

/// MLCP: the bouncing ball with an extra equality (no horizontal velocity, `v₁ = 0`) on a
/// ball launched sideways: the equality row stops the sideways motion in the first step and the
/// vertical motion is still the Siconos reference.
#[test]
fn mlcp_with_equality_and_impact_rows() {
    let (_, rows) = common::read_csv("bouncing_ball_ts.csv");
    let mut nsds = common::ball_on_rail();
    let mut sim = TimeStepping::new(
        &nsds,
        0.005,
        Osi::moreau_jean(0.5),
        Osnsp::Mlcp(MlcpSolver::Enumerative(Default::default())),
    )
    .unwrap();
    let mut k = 0;
    sim.run(&mut nsds, 10.0, &mut |n, rep| {
        k += 1;
        let d = &n.systems()[0];
        assert!(d.velocity().unwrap()[1].abs() <= 1e-14);
        assert!((d.state()[1] - 0.0025).abs() <= 1e-14, "x moves only during step 1 (trapezoidal rule)");
        assert!(
            (d.state()[0] - rows[k][1]).abs() <= 1e-9 && (d.velocity().unwrap()[0] - rows[k][2]).abs() <= 1e-9,
            "t = {}",
            rep.t
        );
        assert!((n.interactions()[1].lambda(1).unwrap()[0] - rows[k][4]).abs() <= 1e-9);
    })
    .unwrap();
    // an LCP cannot take the equality row
    assert!(TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
        .is_err());
}

/// Equality: ẋ₁ = −x₁ + λ, ẋ₂ = −2x₂ − λ with x₁ = x₂: s = x₁ = x₂ obeys ṡ = −1.5 s.
#[test]
fn equality_constraint_is_kept_and_the_reduced_dynamics_follows() {
    let mut nsds = common::tied_states();
    let h = 1e-3;
    let mut sim = TimeStepping::new(&nsds, h, Osi::euler_moreau(0.5), Osnsp::Equality).unwrap();
    sim.run(&mut nsds, 1.0, &mut |n, rep| {
        let x = n.systems()[0].state();
        assert!((x[0] - x[1]).abs() <= 1e-14);
        assert!(n.interactions()[0].y(0).unwrap()[0].abs() <= 1e-14);
        assert!((x[0] - (-1.5 * rep.t).exp()).abs() <= 1e-6, "t = {}", rep.t);
    })
    .unwrap();
}
