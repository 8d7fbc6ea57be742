//! Stepping API behaviour: dense output independent of report times, errors instead of panics,
//! option validation, the accuracy knob.

mod common;
use common::ode_problems::problem;
use saltus_numerics::ode::{
    Atol, Integrator, OdeError, OdeMethod, OdeOptions, OdeStop, OdeSystem, Tolerance, UserFnError,
};

/// Report times answered by dense output do not change the steps.
#[test]
fn report_times_do_not_change_steps() {
    for method in [OdeMethod::Lsoda, OdeMethod::Dopri5] {
        let p = problem("vdp1");
        let mut opts = OdeOptions::with_tol(1e-6, 1e-6);
        opts.method = method;
        let mut a = Integrator::new(p.clone(), 0.0, &p.y0, opts.clone()).unwrap();
        a.step_until(20.0).unwrap();
        let mut b = Integrator::new(p.clone(), 0.0, &p.y0, opts).unwrap();
        let mut prev = b.y().to_vec();
        for k in 1..=2000 {
            let t = 20.0 * k as f64 / 2000.0;
            assert_eq!(b.step_until(t).unwrap(), OdeStop::Reached(t));
            // the interpolated trajectory is continuous at this resolution
            let d: f64 = b.y().iter().zip(&prev).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            assert!(d < 0.1, "jump {d} at {t}");
            prev = b.y().to_vec();
        }
        assert_eq!(a.stats().steps, b.stats().steps);
        assert_eq!(a.stats().rhs_evals, b.stats().rhs_evals);
        assert_eq!(a.y(), b.y());
    }
}

/// Dense output is accurate inside a step (harmonic oscillator, exact solution known).
#[test]
fn dense_output_accuracy() {
    struct Osc;
    impl OdeSystem for Osc {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
            dy[0] = y[1];
            dy[1] = -y[0];
            Ok(())
        }
    }
    for method in [OdeMethod::Lsoda, OdeMethod::Bdf, OdeMethod::Dopri5] {
        let mut opts = OdeOptions::with_tol(1e-10, 1e-10);
        opts.method = method;
        let mut ode = Integrator::new(Osc, 0.0, &[0.0, 1.0], opts).unwrap();
        let mut y = [0.0; 2];
        let mut worst = 0.0f64;
        for k in 1..=400 {
            let t = k as f64 * 0.05;
            ode.step_until(t).unwrap();
            // also query inside the last step
            let ts = ode.t_step();
            let tm = t.min(ts) - 1e-3;
            if ode.y_at(tm, &mut y).is_ok() {
                worst = worst.max((y[0] - tm.sin()).abs());
            }
            worst = worst.max((ode.y()[0] - t.sin()).abs());
        }
        assert!(worst < 1e-7, "{method:?}: dense error {worst}");
        assert!(matches!(ode.y_at(1e6, &mut y), Err(OdeError::OutsideInterval { .. })));
    }
}

struct Blowup;
impl OdeSystem for Blowup {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        dy[0] = y[0] * y[0];
        Ok(())
    }
}

/// y' = y², y(0) = 1 blows up at t = 1: an error with t near 1, no panic, last state finite.
#[test]
fn blowup_is_an_error() {
    for method in [OdeMethod::Lsoda, OdeMethod::Bdf, OdeMethod::Dopri5] {
        let mut opts = OdeOptions::with_tol(1e-6, 1e-6);
        opts.method = method;
        opts.max_steps = 100_000;
        let mut ode = Integrator::new(Blowup, 0.0, &[1.0], opts).unwrap();
        let err = ode.step_until(2.0).unwrap_err();
        let t = match err {
            OdeError::StepSizeTooSmall { t, .. }
            | OdeError::TooManySteps { t, .. }
            | OdeError::ErrorTestFailures { t, .. }
            | OdeError::ConvergenceFailures { t, .. } => t,
            e => panic!("{method:?}: unexpected {e}"),
        };
        assert!((t - 1.0).abs() < 1e-2, "{method:?}: failed at {t}");
        assert!(ode.y().iter().all(|x| x.is_finite()));
        let mut y = [0.0];
        ode.y_at(ode.t_step(), &mut y).unwrap();
        assert!(y[0].is_finite() && y[0] > 1e2);
    }
}

/// A fatal user error stops with UserFn carrying t; a recoverable one reduces the step.
#[test]
fn user_errors() {
    struct Domain;
    impl OdeSystem for Domain {
        fn dim(&self) -> usize {
            1
        }
        fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
            if t > 2.0 {
                return Err(UserFnError::Fatal("t > 2".into()));
            }
            if y[0] < 0.0 {
                return Err(UserFnError::Recoverable("sqrt of negative".into()));
            }
            dy[0] = -y[0].sqrt();
            Ok(())
        }
    }
    let mut ode = Integrator::new(Domain, 0.0, &[1.0], OdeOptions::with_tol(1e-8, 1e-10)).unwrap();
    // y = (1 - t/2)^2 reaches 0 at t = 2 (sqrt singularity); stop before
    ode.step_until(1.5).unwrap();
    assert!((ode.y()[0] - 0.0625).abs() < 1e-5);
    match ode.step_until(3.0) {
        Err(OdeError::UserFn { t, .. }) => assert!(t > 1.5),
        Err(OdeError::ConvergenceFailures { t, .. }) | Err(OdeError::StepSizeTooSmall { t, .. }) => assert!(t > 1.9),
        other => panic!("{other:?}"),
    }
}

#[test]
fn invalid_options_are_rejected() {
    let p = problem("vdp1");
    let bad = [
        OdeOptions { tolerance: Tolerance::RelAbs { rtol: -1.0, atol: Atol::Scalar(1.0) }, ..Default::default() },
        OdeOptions { tolerance: Tolerance::RelAbs { rtol: 1e-6, atol: Atol::Vector(vec![1.0]) }, ..Default::default() },
        OdeOptions { max_order_bdf: 6, ..Default::default() },
        OdeOptions { method: OdeMethod::SymplecticEuler { h: 0.0, n_q: 1 }, ..Default::default() },
        OdeOptions { projection: Some(Default::default()), ..Default::default() },
    ];
    for o in bad {
        assert!(matches!(Integrator::new(p.clone(), 0.0, &p.y0, o), Err(OdeError::Invalid(_))));
    }
    assert!(Integrator::new(p.clone(), 0.0, &[f64::NAN, 0.0], OdeOptions::default()).is_err());
    let mut ode = Integrator::new(p.clone(), 0.0, &p.y0, OdeOptions::default()).unwrap();
    ode.step_until(1.0).unwrap();
    assert!(ode.step_until(0.5).is_err());
}

/// The single accuracy knob α with per-state units reaches about n digits for α = 10^-n.
#[test]
fn accuracy_knob() {
    let p = problem("brusselator");
    let mut last = 0.0;
    for (n, alpha) in [(3.0, 1e-4), (5.0, 1e-6), (7.0, 1e-8)] {
        let opts = OdeOptions {
            tolerance: Tolerance::Accuracy { alpha, weights: None, units: Some(vec![1.0, 1.0]) },
            norm: saltus_numerics::ode::ErrorNorm::Rms,
            ..Default::default()
        };
        let mut ode = Integrator::new(p.clone(), 0.0, &p.y0, opts).unwrap();
        ode.step_until(p.tf).unwrap();
        let d = p.digits(ode.y());
        assert!(d > n - 1.5 && d > last, "alpha {alpha}: {d} digits");
        last = d;
    }
    // zero weight excludes a component: the fixed-weight form still integrates
    let opts = OdeOptions {
        tolerance: Tolerance::Accuracy { alpha: 1e-6, weights: Some(vec![1.0, 1.0]), units: None },
        ..Default::default()
    };
    let mut ode = Integrator::new(p.clone(), 0.0, &p.y0, opts).unwrap();
    ode.step_until(p.tf).unwrap();
    assert!(p.digits(ode.y()) > 3.5);
}

/// Per-component atol and the RMS norm: Robertson with atol tight only on the tiny y2.
#[test]
fn vector_atol_and_rms_norm() {
    let p = problem("robertson");
    for norm in [saltus_numerics::ode::ErrorNorm::Max, saltus_numerics::ode::ErrorNorm::Rms] {
        let opts = OdeOptions {
            tolerance: Tolerance::RelAbs { rtol: 1e-6, atol: Atol::Vector(vec![1e-12, 1e-16, 1e-12]) },
            norm,
            ..Default::default()
        };
        let mut ode = Integrator::new(p.clone(), 0.0, &p.y0, opts).unwrap();
        ode.step_until(p.tf).unwrap();
        let d = p.digits(ode.y());
        assert!(d > 4.0, "{norm:?}: {d} digits");
        // the invariant y1 + y2 + y3 = 1 holds to about the tolerance
        let s: f64 = ode.y().iter().sum();
        assert!((s - 1.0).abs() < 1e-5, "{norm:?}: sum {s}");
    }
}
