//! Newton loop: nonlinear systems and relations.
mod common;

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::*;

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

/// The bouncing ball written with the nonlinear classes (LagrangianDS + LagrangianScleronomousR
/// with y = h(q) = q₀) reproduces the Siconos LagrangianLinearTIDS/TIR reference.
#[test]
fn scleronomous_ball_matches_the_linear_reference() {
    let (_, rows) = common::read_csv("bouncing_ball_ts.csv");
    let mut nsds = Nsds::new(0.0);
    let mass = DMatrix::from_diagonal(&dvector![1.0, 1.0, 0.004]);
    let ds = LagrangianDs::new(dvector![1.0, 0.0, 0.0], DVector::zeros(3), Mass::Constant(mass))
        .with_f_ext(VecOp::Constant(dvector![-9.81, 0.0, 0.0]));
    let id = nsds.add_ds("ball", ds).unwrap();
    let rel = LagrangianScleronomousR::new(
        1,
        |_, q, y| {
            y[0] = q[0];
            Ok(())
        },
        |_, _, j| {
            j.fill(0.0);
            j[(0, 0)] = 1.0;
            Ok(())
        },
    );
    nsds.link("ground", id, None, Relation::LagrangianScleronomous(rel), NonSmoothLaw::NewtonImpact { e: 0.9 })
        .unwrap();
    let mut sim = TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut k = 0;
    let mut max_diff: f64 = 0.0;
    sim.run(&mut nsds, 10.0, &mut |n, rep| {
        k += 1;
        assert!(rep.newton_converged && rep.newton_iterations <= 3);
        let d = &n.systems()[0];
        let ours = [d.state()[0], d.velocity().unwrap()[0], d.input()[0], n.interactions()[0].lambda(1).unwrap()[0]];
        for (a, b) in ours.iter().zip(&rows[k][1..5]) {
            max_diff = max_diff.max((a - b).abs());
        }
    })
    .unwrap();
    assert!(max_diff <= 1e-9, "max diff {max_diff:e}");
}

/// Duffing oscillator q'' + q + q³ = 0 as a LagrangianDS with F_int: the θ = 1/2 scheme solved by
/// Newton converges with order 2.
#[test]
fn duffing_oscillator_converges_with_order_two() {
    let solve = |h: f64| {
        let mut nsds = common::duffing();
        let mut sim = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lemke())
            .unwrap()
            .with_newton(NewtonOptions { tol: 1e-14, max_iter: 50, ..NewtonOptions::default() })
            .unwrap();
        sim.run(&mut nsds, 1.0, &mut |_, rep| assert!(rep.newton_converged && rep.newton_iterations > 1)).unwrap();
        nsds.systems()[0].state()[0]
    };
    let reference = solve(1.0 / 2560.0);
    let errs: Vec<f64> = [1.0 / 20.0, 1.0 / 40.0, 1.0 / 80.0].iter().map(|&h| (solve(h) - reference).abs()).collect();
    for w in errs.windows(2) {
        let order = (w[0] / w[1]).log2();
        assert!((order - 2.0).abs() < 0.15, "observed order {order} (errors {errs:?})");
    }
}

fn first_order_obstacle(relation: Relation, theta: f64) -> Vec<(f64, f64)> {
    // ẋ = −x³ − 1 + r, 0 <= y = x ⊥ λ >= 0, r = λ
    let mut nsds = common::first_order_obstacle(relation);
    let mut sim = TimeStepping::new(&nsds, 0.01, Osi::euler_moreau(theta), lemke()).unwrap();
    let mut out = Vec::new();
    sim.run(&mut nsds, 2.0, &mut |n, rep| {
        assert!(rep.newton_converged);
        out.push((n.systems()[0].state()[0], n.interactions()[0].lambda(0).unwrap()[0]));
    })
    .unwrap();
    out
}

#[test]
fn nonlinear_first_order_system_with_linear_type1_and_type2_relations() {
    let linear =
        first_order_obstacle(Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0], dmatrix![1.0])), 1.0);
    for &(x, l) in &linear {
        assert!(x >= -1e-12 && l >= 0.0 && (x * l).abs() <= 1e-12);
    }
    let (x_end, l_end) = *linear.last().unwrap();
    // at rest on the obstacle: 0 = f(0) + r  =>  λ = 1
    assert!(x_end.abs() < 1e-12 && (l_end - 1.0).abs() < 1e-9, "x = {x_end}, λ = {l_end}");
    for nonlinear in [common::identity_type2(), common::identity_type1()] {
        let nonlinear = first_order_obstacle(nonlinear, 1.0);
        for (a, b) in linear.iter().zip(&nonlinear) {
            assert!((a.0 - b.0).abs() <= 1e-10 && (a.1 - b.1).abs() <= 1e-9, "{a:?} vs {b:?}");
        }
    }
}
