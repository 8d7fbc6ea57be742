//! The integrator test set (integrator-test-problems.md): achieved digits against the reference
//! final states at rtol 1e-4, 1e-6, 1e-8, and BDF dominance on the stiff problems.

mod common;
use common::ode_problems::{problem, Problem};
use saltus_numerics::ode::{Integrator, JacobianKind, OdeMethod, OdeOptions, OdeStats, OdeStop};

/// Minimum digits required by issue 3, per rtol 1e-4, 1e-6, 1e-8.
fn minimum(name: &str) -> [f64; 3] {
    match name {
        "vdp1" => [2.7, 4.2, 5.9],
        "vdp1000" => [1.6, 3.2, 5.0],
        "robertson" => [3.0, 4.7, 6.4],
        "hires" => [2.9, 4.9, 6.6],
        "pleiades" => [0.4, 2.1, 4.2],
        "arenstorf" => [-0.5, 0.9, 2.2],
        "brusselator" => [2.6, 4.1, 6.2],
        "bruss1d" => [3.6, 4.7, 6.5],
        "orego" => [2.0, 4.1, 6.1],
        "pendulum" => [-0.8, -0.9, 1.6],
        _ => unreachable!(),
    }
}

fn run(p: &Problem, rtol: f64, method: OdeMethod, jac: JacobianKind) -> (f64, OdeStats) {
    let mut opts = OdeOptions::with_tol(rtol, p.atol_ratio * rtol);
    opts.method = method;
    opts.jacobian = jac;
    let mut ode = Integrator::new(p.clone(), 0.0, &p.y0, opts).expect("valid setup");
    let stop = ode.step_until(p.tf).unwrap_or_else(|e| panic!("{} rtol {rtol:e}: {e}", p.name));
    assert_eq!(stop, OdeStop::Reached(p.tf));
    (p.digits(ode.y()), ode.stats())
}

fn check(name: &str, jac: JacobianKind) {
    let p = problem(name);
    for (k, rtol) in [1e-4, 1e-6, 1e-8].into_iter().enumerate() {
        let (digits, s) = run(&p, rtol, OdeMethod::Lsoda, jac.clone());
        let min = minimum(name)[k];
        assert!(digits >= min, "{name} rtol {rtol:e}: {digits:.2} digits < {min} ({s:?})");
        // sanity bound on the work (every problem needs < 7000 steps at these tolerances)
        assert!(s.steps < 20_000, "{name} rtol {rtol:e}: {} steps", s.steps);
        if p.stiff {
            assert!(
                2 * s.bdf_steps > s.steps,
                "{name} rtol {rtol:e}: only {} of {} steps in BDF",
                s.bdf_steps,
                s.steps
            );
        } else if name == "vdp1" {
            assert_eq!(s.switches, 0, "vdp1 must stay in Adams");
        }
    }
}

#[test]
fn vdp1() {
    check("vdp1", JacobianKind::Auto);
}
#[test]
fn vdp1000() {
    check("vdp1000", JacobianKind::Auto);
}
#[test]
fn robertson() {
    check("robertson", JacobianKind::Auto);
}
#[test]
fn hires() {
    check("hires", JacobianKind::Auto);
}
#[test]
fn pleiades() {
    check("pleiades", JacobianKind::Auto);
}
#[test]
fn arenstorf() {
    check("arenstorf", JacobianKind::Auto);
}
#[test]
fn brusselator() {
    check("brusselator", JacobianKind::Auto);
}
#[test]
fn bruss1d_banded() {
    check("bruss1d", JacobianKind::Banded { ml: 2, mu: 2 });
}
#[test]
fn orego() {
    check("orego", JacobianKind::Auto);
}
#[test]
fn pendulum() {
    check("pendulum", JacobianKind::Auto);
}

/// The stiff problems with finite-difference Jacobians (dense) at the middle tolerance.
#[test]
fn stiff_with_finite_differences() {
    for name in ["vdp1000", "robertson", "hires", "orego", "bruss1d"] {
        let p = problem(name);
        let (digits, s) = run(&p, 1e-6, OdeMethod::Lsoda, JacobianKind::FiniteDifference);
        assert!(digits >= minimum(name)[1], "{name} FD: {digits:.2} digits");
        assert!(2 * s.bdf_steps > s.steps);
        // FD columns are counted as RHS evaluations
        assert!(s.rhs_evals >= s.steps + s.jac_evals * p.y0.len() as u64);
    }
}

/// Pure BDF and pure Adams behind the same API reach the accuracy too.
#[test]
fn pure_methods() {
    let p = problem("robertson");
    let (d, s) = run(&p, 1e-6, OdeMethod::Bdf, JacobianKind::Auto);
    assert!(d >= 4.7 && s.bdf_steps == s.steps && s.switches == 0, "{d} {s:?}");
    let p = problem("vdp1");
    let (d, s) = run(&p, 1e-6, OdeMethod::Adams, JacobianKind::Auto);
    assert!(d >= 4.2 && s.bdf_steps == 0 && s.jac_evals == 0, "{d} {s:?}");
    let (d, _) = run(&p, 1e-6, OdeMethod::Dopri5, JacobianKind::Auto);
    assert!(d >= 4.2, "dopri5 vdp1 {d}");
    let p = problem("arenstorf");
    let (d, _) = run(&p, 1e-8, OdeMethod::Dopri5, JacobianKind::Auto);
    assert!(d >= 2.2, "dopri5 arenstorf {d}");
}

/// Digits go up as rtol goes down (convergence in the tolerance).
#[test]
fn accuracy_improves_with_tolerance() {
    let p = problem("brusselator");
    let d: Vec<f64> =
        [1e-4, 1e-6, 1e-8, 1e-10].iter().map(|&r| run(&p, r, OdeMethod::Lsoda, JacobianKind::Auto).0).collect();
    for w in d.windows(2) {
        assert!(w[1] > w[0] + 1.0, "{d:?}");
    }
}
