//! `FirstOrderNonLinearR` (`y = h(t, x, λ)`, `r = g(t, x, λ)`) in the Euler–Moreau Newton loop.
//!
//! The circuit: a varactor (capacitance `C(v) = C0 (1 + α v)`, state `v`) discharging through an
//! ideal diode and a resistor `R` into a source `E(t)`. With `λ = i` the diode current,
//! `0 ≤ y = R λ + E(t) − v ⊥ λ ≥ 0` and `C(v) v̇ = −i`, i.e. `r = g(x, λ) = −λ / C(v)`, whose
//! `K = ∇ₓg = λ C0 α / C(v)²` is not zero. While the diode conducts,
//! `t(v) = R C0 [(1 + α E) ln((v0 − E)/(v − E)) + α (v0 − v)]`; once `E` jumps above `v` it
//! blocks and `v` stays constant.
mod common;

use nalgebra::{dmatrix, dvector};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::*;

const R: f64 = 1.0;
const C0: f64 = 1.0;
const ALPHA: f64 = 0.5;
const V0: f64 = 3.0;
const E0: f64 = 1.0;
const E1: f64 = 2.5;
/// The source steps from `E0` to `E1` here (inside a step for every `h` used).
const TS: f64 = 1.5 + 0.01 / 3.0;

fn cap(v: f64) -> f64 {
    C0 * (1.0 + ALPHA * v)
}

fn source(t: f64) -> f64 {
    if t < TS {
        E0
    } else {
        E1
    }
}

fn varactor_relation() -> Relation {
    Relation::FirstOrderNonLinear(FirstOrderNonLinearR::new(
        1,
        |t, x, l, y| {
            y[0] = R * l[0] + source(t) - x[0];
            Ok(())
        },
        |_, _, _, c| {
            c[(0, 0)] = -1.0;
            Ok(())
        },
        |_, _, _, d| {
            d[(0, 0)] = R;
            Ok(())
        },
        |_, x, l, r| {
            r[0] = -l[0] / cap(x[0]);
            Ok(())
        },
        |_, x, l, k| {
            k[(0, 0)] = l[0] * C0 * ALPHA / cap(x[0]).powi(2);
            Ok(())
        },
        |_, x, _, b| {
            b[(0, 0)] = -1.0 / cap(x[0]);
            Ok(())
        },
    ))
}

/// The varactor as a `FirstOrderLinearTIDS` with `A = 0` (`linear_ds`) or a
/// `FirstOrderNonLinearDS` with `f = 0`; returns `(t, v, λ)` per step.
fn discharge(h: f64, linear_ds: bool) -> Vec<(f64, f64, f64)> {
    let mut nsds = Nsds::new(0.0);
    let id = if linear_ds {
        nsds.add_ds("v", FirstOrderLinearTiDs::new(dvector![V0], dmatrix![0.0])).unwrap()
    } else {
        let ds = FirstOrderNonLinearDs::new(
            dvector![V0],
            |_, _, f| {
                f[0] = 0.0;
                Ok(())
            },
            |_, _, j| {
                j[(0, 0)] = 0.0;
                Ok(())
            },
        );
        nsds.add_ds("v", ds).unwrap()
    };
    nsds.link("diode", id, None, varactor_relation(), NonSmoothLaw::ComplementarityCondition { size: 1 }).unwrap();
    let osnsp = Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
    let mut sim = TimeStepping::new(&nsds, h, Osi::euler_moreau(1.0), osnsp)
        .unwrap()
        .with_newton(NewtonOptions { tol: 1e-13, max_iter: 20, ..NewtonOptions::default() })
        .unwrap();
    let mut out = Vec::new();
    let mut v_prev = V0;
    sim.run(&mut nsds, 2.5, &mut |n, rep| {
        assert!(rep.newton_converged, "Newton did not converge at t = {}", rep.t);
        // K in W: quadratic convergence, a few iterations
        assert!(rep.newton_iterations <= 6, "{} Newton iterations at t = {}", rep.newton_iterations, rep.t);
        let v = n.systems()[0].state()[0];
        let l = n.interactions()[0].lambda(0).unwrap()[0];
        // the implicit step itself: C(v₁)(v₁ − v₀) = −h λ, 0 ≤ R λ + E(t₁) − v₁ ⊥ λ ≥ 0
        let step_res = (cap(v) * (v - v_prev) + h * l).abs();
        assert!(step_res <= 1e-11, "step residual {step_res:e} at t = {}", rep.t);
        let y = R * l + source(rep.t) - v;
        assert!(y >= -1e-11 && l >= -1e-12 && (y * l).abs() <= 1e-11, "y = {y:e}, λ = {l:e} at t = {}", rep.t);
        let y_model = n.interactions()[0].y(0).unwrap()[0];
        assert!((y_model - y).abs() <= 1e-12, "recorded y {y_model} vs h(t, x, λ) = {y}");
        v_prev = v;
        out.push((rep.t, v, l));
    })
    .unwrap();
    out
}

/// `t(v)` of the conducting phase.
fn time_of(v: f64) -> f64 {
    R * C0 * ((1.0 + ALPHA * E0) * ((V0 - E0) / (v - E0)).ln() + ALPHA * (V0 - v))
}

/// `v(t)` of the conducting phase (bisection on the decreasing `t(v)`), then held after `TS`.
fn exact(t: f64) -> f64 {
    let t = t.min(TS);
    let (mut lo, mut hi) = (E0 + 1e-12, V0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if time_of(mid) > t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn varactor_discharge_solves_each_implicit_step_and_converges_with_order_one() {
    let errs: Vec<f64> = [0.01, 0.005, 0.0025]
        .iter()
        .map(|&h| {
            let run = discharge(h, true);
            let v_end = run.last().unwrap().1;
            // blocked after TS: v constant, λ = 0
            for &(t, v, l) in run.iter().filter(|r| r.0 >= TS) {
                assert!((v - v_end).abs() <= 1e-12 && l == 0.0, "t = {t}: v = {v}, λ = {l}");
            }
            // conducting phase (the step containing TS blocks as a whole: an O(h) shift of the
            // switch that depends on where TS falls in the step, checked apart)
            let err = run.iter().filter(|r| r.0 < TS).map(|&(t, v, _)| (v - exact(t)).abs()).fold(0.0, f64::max);
            // |v̇| ≤ (v0 − E0) / (R C0) = 2 bounds the effect of the switch inside a step
            assert!((v_end - exact(TS)).abs() <= err + 2.0 * h, "held {v_end} vs {}", exact(TS));
            err
        })
        .collect();
    eprintln!("max errors of the conducting phase for h = 0.01, 0.005, 0.0025: {errs:?}");
    assert!(errs[2] < 1e-3, "errors {errs:?}");
    for w in errs.windows(2) {
        let order = (w[0] / w[1]).log2();
        assert!((order - 1.0).abs() < 0.15, "observed order {order} (errors {errs:?})");
    }
}

#[test]
fn varactor_on_a_nonlinear_system_matches_the_linear_system() {
    let a = discharge(0.01, true);
    let b = discharge(0.01, false);
    for (x, y) in a.iter().zip(&b) {
        assert!((x.1 - y.1).abs() <= 1e-12 && (x.2 - y.2).abs() <= 1e-11, "{x:?} vs {y:?}");
    }
}

/// With `K = 0` and identity maps, `FirstOrderNonLinearR` is the linear obstacle of the
/// Type1/Type2 tests.
#[test]
fn identity_nonlinear_r_matches_the_linear_relation() {
    let run = |relation: Relation| {
        let mut nsds = common::first_order_obstacle(relation);
        let osnsp = Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
        let mut sim = TimeStepping::new(&nsds, 0.01, Osi::euler_moreau(1.0), osnsp).unwrap();
        let mut out = Vec::new();
        sim.run(&mut nsds, 2.0, &mut |n, _| {
            out.push((n.systems()[0].state()[0], n.interactions()[0].lambda(0).unwrap()[0]))
        })
        .unwrap();
        out
    };
    let linear = run(Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0], dmatrix![1.0])));
    let identity = Relation::FirstOrderNonLinear(FirstOrderNonLinearR::new(
        1,
        |_, x, _, y| {
            y[0] = x[0];
            Ok(())
        },
        |_, _, _, c| {
            c[(0, 0)] = 1.0;
            Ok(())
        },
        |_, _, _, d| {
            d[(0, 0)] = 0.0;
            Ok(())
        },
        |_, _, l, r| {
            r[0] = l[0];
            Ok(())
        },
        |_, _, _, k| {
            k[(0, 0)] = 0.0;
            Ok(())
        },
        |_, _, _, b| {
            b[(0, 0)] = 1.0;
            Ok(())
        },
    ));
    let nonlinear = run(identity);
    assert!(linear.last().unwrap().1 > 0.9, "the obstacle is reached: {:?}", linear.last());
    for (a, b) in linear.iter().zip(&nonlinear) {
        assert!((a.0 - b.0).abs() <= 1e-10 && (a.1 - b.1).abs() <= 1e-9, "{a:?} vs {b:?}");
    }
}

/// A scalar relay whose input is nonlinear in `λ`: `x' = r`, `r = g(x, λ) = (1 + x²) λ + β λ³`,
/// `y = x`, `−y ∈ N_[−1,1](λ)`. From `x0 = 1` the relay gives `λ = −1` until the step that
/// lands on the origin, where `0 = x_k + h g(0, λ)`: `λ + β λ³ = −x_k/h`. Returns
/// `(x_k, λ)` of that step and the largest `|λ|` afterwards.
fn cubic_relay(residu: bool) -> (f64, f64, f64) {
    const BETA: f64 = 2.0;
    let relation = Relation::FirstOrderNonLinear(FirstOrderNonLinearR::new(
        1,
        |_, x, _, y| {
            y[0] = x[0];
            Ok(())
        },
        |_, _, _, c| {
            c[(0, 0)] = 1.0;
            Ok(())
        },
        |_, _, _, d| {
            d[(0, 0)] = 0.0;
            Ok(())
        },
        |_, x, l, r| {
            r[0] = (1.0 + x[0] * x[0]) * l[0] + BETA * l[0].powi(3);
            Ok(())
        },
        |_, x, l, k| {
            k[(0, 0)] = 2.0 * x[0] * l[0];
            Ok(())
        },
        |_, x, l, b| {
            b[(0, 0)] = 1.0 + x[0] * x[0] + 3.0 * BETA * l[0] * l[0];
            Ok(())
        },
    ));
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("x", FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![0.0])).unwrap();
    let law = NonSmoothLaw::Relay { lb: dvector![-1.0], ub: dvector![1.0] };
    nsds.link("relay", id, None, relation, law).unwrap();
    let osnsp = Osnsp::Relay(saltus_kernel::solvers::relay::RelaySolver::Lemke(Default::default()));
    let h = 1e-3;
    let newton = NewtonOptions { tol: 1e-13, max_iter: 50, residu_y: residu, residu_r: residu };
    let mut sim = TimeStepping::new(&nsds, h, Osi::euler_moreau(1.0), osnsp).unwrap().with_newton(newton).unwrap();
    let (mut x_prev, mut reach, mut after) = (1.0, None, 0.0f64);
    sim.run(&mut nsds, 0.4, &mut |n, rep| {
        assert!(rep.newton_converged, "Newton did not converge at t = {}", rep.t);
        let x = n.systems()[0].state()[0];
        let l = n.interactions()[0].lambda(0).unwrap()[0];
        match reach {
            None if x.abs() < 1e-15 => reach = Some((x_prev, l)),
            Some(_) => after = after.max(l.abs()),
            None => {}
        }
        x_prev = x;
    })
    .unwrap();
    let (xk, l) = reach.expect("the origin is reached before t = 0.4 (t* = 0.302)");
    (xk / h, l, after)
}

/// `NewtonOptions::residu_r` (Siconos `setComputeResiduR`): on the step that reaches the origin
/// the relay pins `x = 0` after one iteration, so the increment test alone stops with the `λ`
/// of a linearization; the input residual iterates until `g(x, λ)` holds.
#[test]
fn input_residual_solves_the_sticking_step_of_a_nonlinear_relay() {
    let (rate, l, after) = cubic_relay(true);
    assert!((l + 2.0 * l.powi(3) + rate).abs() < 1e-12, "λ = {l}, x_k/h = {rate}");
    assert!(after < 1e-13, "at rest λ = 0, got {after}");
    let (rate0, l0, after0) = cubic_relay(false);
    assert_eq!(rate0, rate);
    let miss = (l0 + 2.0 * l0.powi(3) + rate0).abs();
    assert!(miss > 1e-3, "without the residual λ = {l0} (misses the cubic by {miss:e})");
    assert!(after0 > 1e-2, "and the wrong λ lingers at rest ({after0})");
}
