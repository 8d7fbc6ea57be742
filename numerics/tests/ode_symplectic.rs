//! Symplectic Euler implicit in u (`events-accuracy-projection.md` §7, second form):
//! `u1 = u0 + h f(q0, u1)`, `q1 = q0 + h N(q0) u1`.

use saltus_numerics::ode::{Integrator, OdeError, OdeMethod, OdeOptions, OdeSystem, UserFnError};

const G: f64 = 9.81;

fn implicit(h: f64) -> OdeMethod {
    OdeMethod::SymplecticEulerImplicit { h, n_q: 1, tol: 1e-13, max_iter: 10 }
}

/// Pendulum `θ'' = −g sin θ − c θ'` (c = 0: conservative).
struct Pendulum {
    c: f64,
}

impl OdeSystem for Pendulum {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        dy[0] = y[1];
        dy[1] = -G * y[0].sin() - self.c * y[1];
        Ok(())
    }
}

fn pendulum_energy(y: &[f64]) -> f64 {
    0.5 * y[1] * y[1] - G * y[0].cos()
}

fn run(sys: impl OdeSystem, method: OdeMethod, y0: &[f64], tf: f64) -> Vec<f64> {
    let mut ode = Integrator::new(sys, 0.0, y0, OdeOptions { method, ..Default::default() }).unwrap();
    ode.step_until(tf).unwrap();
    ode.y().to_vec()
}

#[test]
fn implicit_u_is_first_order_on_the_pendulum() {
    let y0 = [1.0, 0.0];
    let tf = 5.0;
    // reference: DOPRI5 at a tight tolerance
    let mut opts = OdeOptions::with_tol(1e-12, 1e-12);
    opts.method = OdeMethod::Dopri5;
    let mut ode = Integrator::new(Pendulum { c: 0.0 }, 0.0, &y0, opts).unwrap();
    ode.step_until(tf).unwrap();
    let yref = ode.y().to_vec();
    let err = |h: f64| {
        let y = run(Pendulum { c: 0.0 }, implicit(h), &y0, tf);
        (y[0] - yref[0]).abs().max((y[1] - yref[1]).abs())
    };
    let (e1, e2, e3) = (err(4e-3), err(2e-3), err(1e-3));
    for (a, b) in [(e1, e2), (e2, e3)] {
        let ratio = a / b;
        assert!((ratio - 2.0).abs() < 0.2, "error ratio {ratio} ({a:e} / {b:e})");
    }
}

#[test]
fn implicit_u_equals_explicit_form_when_f_does_not_depend_on_u() {
    let y0 = [1.2, 0.3];
    let a = run(Pendulum { c: 0.0 }, implicit(1e-2), &y0, 3.0);
    let b = run(Pendulum { c: 0.0 }, OdeMethod::SymplecticEuler { h: 1e-2, n_q: 1 }, &y0, 3.0);
    assert!((a[0] - b[0]).abs() < 1e-12 && (a[1] - b[1]).abs() < 1e-12, "{a:?} {b:?}");
}

#[test]
fn implicit_u_energy_error_stays_bounded_over_long_times() {
    // T = 2000 (about 1000 periods of the large-amplitude pendulum), h = 1e-2
    let h = 1e-2;
    let y0 = [std::f64::consts::FRAC_PI_2, 0.0];
    let mut ode =
        Integrator::new(Pendulum { c: 0.0 }, 0.0, &y0, OdeOptions { method: implicit(h), ..Default::default() })
            .unwrap();
    let e0 = pendulum_energy(&y0);
    let mut window_max = Vec::new();
    for w in 0..4 {
        let mut m = 0.0f64;
        for k in 1..=50_000u64 {
            ode.step_until((w * 50_000 + k) as f64 * h).unwrap();
            m = m.max((pendulum_energy(ode.y()) - e0).abs());
        }
        window_max.push(m);
    }
    // O(h) and no secular growth between the first and last 500 time units
    assert!(window_max.iter().all(|&m| m < 0.2), "{window_max:?}");
    assert!(window_max[3] < 1.1 * window_max[0], "energy error grows: {window_max:?}");
}

/// Damped linear oscillator `q'' = −ω² q − c q'` (f depends on u).
struct Damped {
    omega: f64,
    c: f64,
}

impl OdeSystem for Damped {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        dy[0] = y[1];
        dy[1] = -self.omega * self.omega * y[0] - self.c * y[1];
        Ok(())
    }
}

#[test]
fn damped_oscillator_energy_decays_at_the_analytic_rate() {
    // Exact flow: over a half damped period τ = π/ω_d the state is multiplied by −e^{−cτ/2},
    // so E(t + kτ) = e^{−c k τ} E(t) (E = ½u² + ½ω²q²). The scheme must reproduce this decay
    // rate to O(h): the rate error halves with h, and E sampled every τ decreases monotonically.
    let (omega, c) = (2.0, 0.1);
    let wd = (omega * omega - c * c / 4.0f64).sqrt();
    let tau = std::f64::consts::PI / wd;
    let energy = |y: &[f64]| 0.5 * y[1] * y[1] + 0.5 * omega * omega * y[0] * y[0];
    let y0 = [1.0, 0.0];
    let k_max = 20;
    let rate_error = |h: f64| {
        let mut ode =
            Integrator::new(Damped { omega, c }, 0.0, &y0, OdeOptions { method: implicit(h), ..Default::default() })
                .unwrap();
        let mut prev = energy(&y0);
        for k in 1..=k_max {
            ode.step_until(k as f64 * tau).unwrap();
            let e = energy(ode.y());
            assert!(e < prev, "h {h}: energy not decreasing at k = {k}: {e} >= {prev}");
            prev = e;
        }
        let rate = -(prev / energy(&y0)).ln() / (k_max as f64 * tau);
        (rate - c).abs()
    };
    let (r1, r2, r3) = (rate_error(4e-3), rate_error(2e-3), rate_error(1e-3));
    assert!(r1 < 0.05 * c, "rate error {r1}");
    for (a, b) in [(r1, r2), (r2, r3)] {
        let ratio = a / b;
        assert!((ratio - 2.0).abs() < 0.3, "rate error ratio {ratio} ({a:e} / {b:e})");
    }
}

#[test]
fn implicit_u_is_stable_for_stiff_damping_where_the_explicit_form_blows_up() {
    // c h = 5 > 2: the explicit-in-u update u1 = (1 − ch) u0 + … is unstable
    let sys = || Damped { omega: 1.0, c: 500.0 };
    let h = 1e-2;
    let y0 = [1.0, 0.0];
    let y = run(sys(), implicit(h), &y0, 5.0);
    // overdamped: slow mode e^{−ω² t / c} ≈ e^{−t/500}: q barely moves, u ≈ −ω² q / c
    assert!((y[0] - (-5.0f64 / 500.0).exp()).abs() < 1e-3, "{y:?}");
    assert!((y[1] + y[0] / 500.0).abs() < 1e-4, "{y:?}");
    let mut ode = Integrator::new(
        sys(),
        0.0,
        &y0,
        OdeOptions { method: OdeMethod::SymplecticEuler { h, n_q: 1 }, ..Default::default() },
    )
    .unwrap();
    let blown = match ode.step_until(5.0) {
        Ok(_) => ode.y().iter().any(|x| x.abs() > 1e6),
        Err(_) => true,
    };
    assert!(blown, "explicit form unexpectedly stable: {:?}", ode.y());
}

/// `u' = f(u)` with no real solution of `u1 = u0 + h f(u1)` for the given h: Newton fails.
struct NoSolution;

impl OdeSystem for NoSolution {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        // u1 = u0 + h (u1² + 1): with u0 = 1, h = 1 the quadratic u1² − u1 + 2 = 0 has no real root
        dy[0] = y[1];
        dy[1] = y[1] * y[1] + 1.0;
        Ok(())
    }
}

#[test]
fn newton_failure_is_a_typed_error_and_keeps_the_state() {
    let opts = OdeOptions {
        method: OdeMethod::SymplecticEulerImplicit { h: 1.0, n_q: 1, tol: 1e-12, max_iter: 20 },
        ..Default::default()
    };
    let mut ode = Integrator::new(NoSolution, 0.0, &[0.0, 1.0], opts).unwrap();
    match ode.step_until(1.0) {
        Err(OdeError::ConvergenceFailures { t, .. }) => assert_eq!(t, 0.0),
        other => panic!("expected a convergence failure, got {other:?}"),
    }
    assert_eq!(ode.y(), &[0.0, 1.0]);
    // invalid Newton options are rejected
    let bad = OdeOptions {
        method: OdeMethod::SymplecticEulerImplicit { h: 1.0, n_q: 1, tol: 0.0, max_iter: 5 },
        ..Default::default()
    };
    assert!(matches!(Integrator::new(NoSolution, 0.0, &[0.0, 1.0], bad), Err(OdeError::Invalid(_))));
}
