//! `LagrangianCompliantR` (`y = h(t, q, λ)`, λ the force): a ball of mass `m` on a floor with the
//! regularized Hertz compliance `h(q, λ) = q + e + c ((λ + λr)^{2/3} − λr^{2/3})` (penetration
//! `δ(λ) = c ((λ + λr)^{2/3} − λr^{2/3})`, a Hertz law `λ = (δ/c)^{3/2}` for `λr → 0`, whose
//! compliance `δ'(0) = (2/3) c λr^{-1/3}` stays finite at first touch).
//! Closed forms: at rest `λ = m g`, `δ* = δ(m g)`; small oscillations about it have
//! `ω² = 1/(m δ'(m g))`. An affine `h` is `LagrangianCompliantLinearTIR`, bit for bit.

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_kernel::{
    solvers::fc::GfcSolver, solvers::lcp::LcpSolver, KernelError, LagrangianCompliantLinearTiR, LagrangianCompliantR,
    LagrangianLinearTiDs, NewtonOptions, NonSmoothLaw, Nsds, Osi, Osnsp, Relation, TimeStepping,
    TimeSteppingDirectProjection, UserFnError, VecOp,
};

const G: f64 = 9.81;
const M: f64 = 1.0;
const C: f64 = 1e-4;
const LR: f64 = 1e-2;

fn delta(l: f64) -> f64 {
    C * ((l + LR).powf(2.0 / 3.0) - LR.powf(2.0 / 3.0))
}
fn compliance(l: f64) -> f64 {
    2.0 / 3.0 * C * (l + LR).powf(-1.0 / 3.0)
}

/// `h = q + δ(λ)`, `∇_q h = 1`, and `∇_λ h` from `jac_lambda`.
fn hertz_with(
    jac_lambda: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> Result<(), UserFnError> + Send + Sync + 'static,
) -> Relation {
    Relation::LagrangianCompliant(LagrangianCompliantR::new(
        1,
        |_, q, l, y| {
            y[0] = q[0] + delta(l[0]);
            Ok(())
        },
        |_, _, _, j| {
            j[(0, 0)] = 1.0;
            Ok(())
        },
        jac_lambda,
    ))
}

fn hertz() -> Relation {
    hertz_with(|_, _, l, d| {
        d[(0, 0)] = compliance(l[0]);
        Ok(())
    })
}

/// A ball (gap `q`) released at `q0` with `v = 0`, on a floor described by `rel`.
fn ball(q0: f64, rel: Relation) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![q0], dvector![0.0], dmatrix![M])
        .with_f_ext(VecOp::Constant(dvector![-M * G]));
    let id = nsds.add_ds("ball", ds).unwrap();
    nsds.link("floor", id, None, rel, NonSmoothLaw::NewtonImpact { e: 0.0 }).unwrap();
    nsds
}

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

fn sim(nsds: &Nsds, h: f64, theta: f64) -> TimeStepping {
    let newton = NewtonOptions { tol: 1e-13, max_iter: 30, ..NewtonOptions::default() };
    TimeStepping::new(nsds, h, Osi::moreau_jean(theta), lemke()).unwrap().with_newton(newton).unwrap()
}

/// Released on the floor (gap 0, v = 0), θ = 1: the ball settles where `h(q, m g) = 0`, i.e. at
/// the gap `−δ(m g)`, with `λ = m g` (backward-Euler damping brings it to rest; ωh = 0.5).
#[test]
fn rest_deflection_is_the_hertz_closed_form() {
    let omega = 1.0 / (M * compliance(M * G)).sqrt();
    let h = 0.5 / omega;
    let mut nsds = ball(0.0, hertz());
    let mut s = sim(&nsds, h, 1.0);
    let mut max_newton = 0;
    for _ in 0..3000 {
        max_newton = max_newton.max(s.step(&mut nsds).unwrap().newton_iterations);
    }
    let q = nsds.systems()[0].state()[0];
    let force = nsds.interactions()[0].lambda(1).unwrap()[0] / h;
    let v = nsds.systems()[0].velocity().unwrap()[0];
    let d = delta(M * G);
    assert!((q + d).abs() <= 1e-9 * d, "gap {q:e}, expected {:e} (error {:e})", -d, (q + d) / d);
    assert!((force - M * G).abs() <= 1e-9 * M * G, "force {force:e}");
    assert!(v.abs() <= 1e-9 * d * omega, "v {v:e}");
    // the recorded output is the rigid gap h(q, 0) = q
    assert_eq!(nsds.interactions()[0].y(0).unwrap()[0], q);
    assert!(max_newton > 2 && max_newton < 30, "Newton iterations {max_newton}");
    eprintln!("rest deflection error {:e}, Newton iterations <= {max_newton}", (q + d) / d);
}

/// Released on the floor, θ = 1: the backward-Euler damping leaves small oscillations about the
/// rest position, whose period tends to `2π √(m δ'(m g))` at O((ωh)²) (backward Euler's phase
/// error is (ωh)²/3): measured on the crossings of the rest position once the amplitude is below
/// 1e-3 δ*.
#[test]
fn small_oscillation_period_converges_in_h() {
    let omega = 1.0 / (M * compliance(M * G)).sqrt();
    let period = 2.0 * std::f64::consts::PI / omega;
    let d = delta(M * G);
    let mut errors = Vec::new();
    for wh in [0.08, 0.04, 0.02] {
        let h = wh / omega;
        let mut nsds = ball(0.0, hertz());
        let mut s = sim(&nsds, h, 1.0);
        let mut crossings = Vec::new();
        let (mut t0, mut x0) = (0.0, d);
        // largest |q − q*| since the last upward crossing of the rest position
        let mut cycle_max: f64 = d;
        let mut k = 0;
        while crossings.len() < 11 {
            s.step(&mut nsds).unwrap();
            k += 1;
            assert!(k < 1_000_000, "no small oscillations");
            let (t1, x1) = (nsds.t(), nsds.systems()[0].state()[0] + d);
            cycle_max = cycle_max.max(x1.abs());
            if x0 < 0.0 && x1 >= 0.0 {
                if cycle_max < 1e-3 * d {
                    crossings.push(t0 + (t1 - t0) * (-x0) / (x1 - x0));
                }
                cycle_max = 0.0;
            }
            (t0, x0) = (t1, x1);
        }
        let measured = (crossings[10] - crossings[0]) / 10.0;
        let err = (measured - period) / period;
        assert!(err.abs() <= 0.5 * wh * wh, "ωh = {wh}: period {measured} vs {period} (error {err:e})");
        errors.push(err.abs());
    }
    // second order: each halving of h divides the error by about 4
    for w in errors.windows(2) {
        assert!(w[1] < w[0] / 3.0, "errors {errors:?}");
    }
    eprintln!("relative period errors at ωh = 0.08, 0.04, 0.02: {errors:?}");
}

/// An affine `h(q, λ) = q + e + c λ` from closures gives the bits of
/// `LagrangianCompliantLinearTIR(C = 1, D = c, e)` (a drop, θ = 1/2 and 1): the linearization
/// remainder is round-off only, and is dropped.
#[test]
fn affine_h_is_the_linear_compliant_relation_bit_for_bit() {
    let (c, e) = (1e-4, -0.1);
    let affine = Relation::LagrangianCompliant(LagrangianCompliantR::new(
        1,
        move |_, q, l, y| {
            y[0] = q[0] + e + c * l[0];
            Ok(())
        },
        |_, _, _, j| {
            j[(0, 0)] = 1.0;
            Ok(())
        },
        move |_, _, _, d| {
            d[(0, 0)] = c;
            Ok(())
        },
    ));
    for theta in [0.5, 1.0] {
        let linear = LagrangianCompliantLinearTiR::new(dmatrix![1.0], dmatrix![c]).with_e(dvector![e]);
        let mut a = ball(0.2, Relation::LagrangianCompliantLinearTi(linear));
        let mut b = ball(0.2, affine.clone());
        let mut sa = TimeStepping::new(&a, 1e-4, Osi::moreau_jean(theta), lemke()).unwrap();
        let mut sb = sim(&b, 1e-4, theta);
        let mut contacts = 0;
        for _ in 0..4000 {
            let ra = sa.step(&mut a).unwrap();
            let rb = sb.step(&mut b).unwrap();
            contacts += ra.active;
            assert!(rb.newton_iterations <= 2, "{} Newton iterations", rb.newton_iterations);
            let (da, db) = (&a.systems()[0], &b.systems()[0]);
            assert_eq!(da.state()[0].to_bits(), db.state()[0].to_bits(), "q at t = {}", a.t());
            assert_eq!(da.velocity().unwrap()[0].to_bits(), db.velocity().unwrap()[0].to_bits());
            let (la, lb) = (a.interactions()[0].lambda(1).unwrap()[0], b.interactions()[0].lambda(1).unwrap()[0]);
            assert_eq!(la.to_bits(), lb.to_bits(), "λ at t = {}", a.t());
            let (ya, yb) = (a.interactions()[0].y(0).unwrap()[0], b.interactions()[0].y(0).unwrap()[0]);
            assert_eq!(ya.to_bits(), yb.to_bits(), "y at t = {}", a.t());
        }
        assert!(contacts > 200, "θ = {theta}: the ball must land ({contacts} active steps)");
    }
}

/// A failing or non-finite user function is a typed error naming the function and `t`; the
/// model stays at the last good step.
#[test]
fn user_function_failures_are_typed_errors() {
    let failing = |bad_at: f64, nan: bool| {
        hertz_with(move |_, _, l, d| {
            if l[0] > bad_at {
                if nan {
                    d[(0, 0)] = f64::NAN;
                } else {
                    return Err(UserFnError::new("force out of range"));
                }
            } else {
                d[(0, 0)] = compliance(l[0]);
            }
            Ok(())
        })
    };
    for nan in [false, true] {
        let mut nsds = ball(0.0, failing(1.0, nan));
        let mut s = sim(&nsds, 1e-3, 1.0);
        let err = loop {
            let (q, v) = (nsds.systems()[0].state()[0], nsds.systems()[0].velocity().unwrap()[0]);
            match s.step(&mut nsds) {
                Ok(_) => assert!(nsds.t() < 1.0, "never failed"),
                Err(e) => {
                    assert_eq!(nsds.systems()[0].state()[0].to_bits(), q.to_bits(), "rolled back");
                    assert_eq!(nsds.systems()[0].velocity().unwrap()[0].to_bits(), v.to_bits());
                    break e;
                }
            }
        };
        match err {
            KernelError::UserFn { t, what, source, .. } => {
                assert!(t > 0.0 && what.contains("wrt λ"), "{what}");
                assert!(source.message.contains(if nan { "finite" } else { "out of range" }), "{}", source.message);
            }
            other => panic!("expected UserFn, got {other:?}"),
        }
    }
}

#[test]
fn global_friction_contact_and_projection_are_refused() {
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![0.0, 1.0], dvector![0.0, 0.0], DMatrix::identity(2, 2));
    let id = nsds.add_ds("ball", ds).unwrap();
    let rel = LagrangianCompliantR::new(
        2,
        |_, q, l, y| {
            y.copy_from_slice(&[q[1] + delta(l[0]), q[0]]);
            Ok(())
        },
        |_, _, _, j| {
            j.copy_from(&dmatrix![0.0, 1.0; 1.0, 0.0]);
            Ok(())
        },
        |_, _, l, d| {
            d.copy_from(&dmatrix![compliance(l[0]), 0.0; 0.0, 0.0]);
            Ok(())
        },
    );
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.0, et: 0.0, mu: 0.3, dim: 2 };
    nsds.link("floor", id, None, Relation::LagrangianCompliant(rel), law).unwrap();
    let gfc = Osnsp::GlobalFrictionContact { dim: 2, solver: GfcSolver::Nsgs(Default::default()) };
    match TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean_gosi(0.5), gfc) {
        Err(KernelError::InvalidCombination { name, reason, .. }) => {
            assert!(name == "floor" && reason.contains("LagrangianCompliantR"), "{reason}")
        }
        other => panic!("expected InvalidCombination, got {:?}", other.err()),
    }
    let nsds = ball(1.0, hertz());
    let proj = TimeSteppingDirectProjection::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke(), Default::default());
    match proj {
        Err(KernelError::InvalidCombination { name, reason, .. }) => {
            assert!(name == "floor" && reason.contains("projection"), "{reason}")
        }
        other => panic!("expected InvalidCombination, got {:?}", other.err()),
    }
}
