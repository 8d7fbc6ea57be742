//! Coordinate projection on the Cartesian pendulum (integrator-test-problems.md §10) and the
//! fixed-step symplectic Euler anchor (§11).

mod common;
use common::ode_problems::problem;
use saltus_numerics::ode::{Integrator, OdeMethod, OdeOptions, OdeStop, OdeSystem, ProjectionOptions, UserFnError};

/// Max over accepted steps of |c1| = |x² + y² − 1| and |c2| = |x vx + y vy|, final state,
/// steps. Samples every accepted step by stepping to each internal step end.
fn pendulum_drift(rtol: f64, project: bool) -> (f64, f64, f64, f64, u64) {
    let mut p = problem("pendulum");
    p.constraints = true;
    let mut opts = OdeOptions::with_tol(rtol, rtol);
    if project {
        opts.projection = Some(ProjectionOptions::default());
    }
    let mut ode = Integrator::new(p.clone(), 0.0, &p.y0, opts).unwrap();
    let (mut m1, mut m2) = (0.0f64, 0.0f64);
    let mut last_steps = 0;
    let mut y = [0.0; 4];
    // advance in small report intervals; whenever a new step was accepted, inspect its end
    let mut t = 0.0;
    while t < p.tf {
        t = (t + 0.01).min(p.tf);
        assert_eq!(ode.step_until(t).unwrap(), OdeStop::Reached(t));
        if ode.stats().steps != last_steps {
            last_steps = ode.stats().steps;
            let ts = ode.t_step();
            ode.y_at(ts, &mut y).unwrap();
            m1 = m1.max((y[0] * y[0] + y[1] * y[1] - 1.0).abs());
            m2 = m2.max((y[0] * y[2] + y[1] * y[3]).abs());
        }
    }
    let yf = ode.y();
    let c1 = (yf[0] * yf[0] + yf[1] * yf[1] - 1.0).abs();
    (m1, m2, c1, p.digits(yf), ode.stats().steps)
}

#[test]
fn pendulum_projection_keeps_constraints() {
    for rtol in [1e-6, 1e-8] {
        let (m1, m2, _, d_proj, n_proj) = pendulum_drift(rtol, true);
        assert!(m1 < 1e-10 && m2 < 1e-10, "rtol {rtol:e}: projected constraints {m1:e} {m2:e}");
        let (f1, f2, c1, d_free, n_free) = pendulum_drift(rtol, false);
        // without projection the invariants drift far above the projected level
        assert!(f1 > 1e3 * m1.max(1e-14) && f1 > 1e-6, "rtol {rtol:e}: free drift only {f1:e}");
        assert!(f2 > 1e-6, "rtol {rtol:e}: free velocity drift {f2:e}");
        assert!(c1 > 1e-7);
        // the projected run is not less accurate and costs about the same number of steps
        assert!(d_proj > d_free - 0.5, "digits {d_proj} vs {d_free}");
        assert!((n_proj as f64) < 1.5 * n_free as f64, "steps {n_proj} vs {n_free}");
    }
}

/// θ'' = −(g/L) sin θ as (q, u) = (θ, ω) for the symplectic Euler.
struct AnglePendulum;
impl OdeSystem for AnglePendulum {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        dy[0] = y[1];
        dy[1] = -9.81 * y[0].sin();
        Ok(())
    }
}

const THETA_100: f64 = 0.18252514849579085;

fn euler(h: f64) -> (f64, f64, f64) {
    let opts = OdeOptions { method: OdeMethod::SymplecticEuler { h, n_q: 1 }, ..Default::default() };
    let th0 = std::f64::consts::FRAC_PI_2;
    let mut ode = Integrator::new(AnglePendulum, 0.0, &[th0, 0.0], opts).unwrap();
    let e0 = -9.81 * th0.cos();
    let mut emax = 0.0f64;
    let n = (100.0 / h).round() as usize;
    let stride = (n / 1000).max(1);
    for k in (stride..=n).step_by(stride) {
        let t = if k == n { 100.0 } else { k as f64 * h };
        ode.step_until(t).unwrap();
        let y = ode.y();
        emax = emax.max((0.5 * y[1] * y[1] - 9.81 * y[0].cos() - e0).abs());
    }
    ode.step_until(100.0).unwrap();
    (ode.y()[0], ode.y()[1], emax)
}

#[test]
fn symplectic_euler_first_order_and_bounded_energy() {
    let (th2, om2, e2) = euler(1e-2);
    let (th3, _, e3) = euler(1e-3);
    // the update order of the spec reproduces its table
    assert!((th2 - 0.1605617971939222).abs() < 1e-8 && (om2 + 4.392855713742353).abs() < 1e-8, "{th2} {om2}");
    let err2 = (th2 - THETA_100).abs();
    let err3 = (th3 - THETA_100).abs();
    let order = (err2 / err3).log10();
    assert!((order - 1.0).abs() < 0.1, "order {order} ({err2:e}, {err3:e})");
    // energy error bounded at O(h): about 0.136 and 0.0135, no secular growth
    assert!(e2 < 0.2 && e3 < 0.02 && e2 / e3 > 8.0, "{e2} {e3}");
    assert_eq!(OdeMethod::SymplecticEuler { h: 1e-2, n_q: 1 }, OdeMethod::SymplecticEuler { h: 1e-2, n_q: 1 });
}

/// Explicit Euler for contrast gains energy steadily (the symplectic scheme does not).
#[test]
fn symplectic_energy_does_not_drift() {
    let h = 1e-2;
    let opts = OdeOptions { method: OdeMethod::SymplecticEuler { h, n_q: 1 }, ..Default::default() };
    let th0 = std::f64::consts::FRAC_PI_2;
    let mut ode = Integrator::new(AnglePendulum, 0.0, &[th0, 0.0], opts).unwrap();
    let energy = |y: &[f64]| 0.5 * y[1] * y[1] - 9.81 * y[0].cos();
    let e0 = energy(&[th0, 0.0]);
    let mut first_half = 0.0f64;
    let mut second_half = 0.0f64;
    for k in 1..=10_000 {
        ode.step_until(k as f64 * h).unwrap();
        let de = (energy(ode.y()) - e0).abs();
        if k <= 5000 {
            first_half = first_half.max(de);
        } else {
            second_half = second_half.max(de);
        }
    }
    assert!(second_half < 1.2 * first_half, "energy error grows: {first_half} then {second_half}");
    // explicit Euler: energy grows without bound
    let (mut th, mut om) = (th0, 0.0f64);
    for _ in 0..10_000 {
        let (t2, o2) = (th + h * om, om - h * 9.81 * th.sin());
        th = t2;
        om = o2;
    }
    assert!(energy(&[th, om]) - e0 > 1.0);
}

/// A projection that fails (constraint cannot be met near a singular point) is a recoverable
/// step failure: the step is reduced and retried, and the run either succeeds or returns an
/// error with t — never a panic, never a non-finite state.
#[test]
fn projection_failure_is_recoverable() {
    struct Circle;
    impl OdeSystem for Circle {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
            dy[0] = -y[1];
            dy[1] = y[0];
            Ok(())
        }
        fn n_constraints(&self) -> usize {
            1
        }
        fn constraints(&self, t: f64, y: &[f64], c: &mut [f64]) -> Result<(), UserFnError> {
            // refuses (recoverably) trial points that left the annulus far: forces step cuts
            let r2 = y[0] * y[0] + y[1] * y[1];
            if (r2 - 1.0).abs() > 1e-5 && t > 0.5 {
                return Err(UserFnError::Recoverable("far from the manifold".into()));
            }
            c[0] = r2 - 1.0;
            Ok(())
        }
    }
    let opts = OdeOptions { projection: Some(ProjectionOptions::default()), ..OdeOptions::with_tol(1e-4, 1e-4) };
    let mut ode = Integrator::new(Circle, 0.0, &[1.0, 0.0], opts).unwrap();
    let r = ode.step_until(10.0);
    let s = ode.stats();
    assert!(r.is_ok(), "{r:?}");
    assert!(s.projection_failures > 0 && s.rejected >= s.projection_failures, "{s:?}");
    let y = ode.y();
    assert!((y[0] - 10f64.cos()).abs() < 1e-2);
    // accepted (projected) states lie on the manifold; report times in between are interpolated
    let mut ys = [0.0; 2];
    ode.y_at(ode.t_step(), &mut ys).unwrap();
    assert!(((ys[0] * ys[0] + ys[1] * ys[1]) - 1.0).abs() < 1e-10);
}
