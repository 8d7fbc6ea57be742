//! Event location (integrator-test-problems.md §12, events-accuracy-projection.md §3–4).

use saltus_numerics::ode::{
    Integrator, OdeMethod, OdeOptions, OdeStop, OdeSystem, RootDirection, RootKind, RootTransition, UserFnError,
};

const G: f64 = 9.81;
const E: f64 = 0.9;

struct Ball;
impl OdeSystem for Ball {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        dy[0] = y[1];
        dy[1] = -G;
        Ok(())
    }
    fn n_roots(&self) -> usize {
        1
    }
    fn roots(&self, _t: f64, y: &[f64], g: &mut [f64]) -> Result<(), UserFnError> {
        g[0] = y[0];
        Ok(())
    }
    fn root_kind(&self, _i: usize) -> RootKind {
        RootKind { direction: RootDirection::Falling, ..Default::default() }
    }
}

fn impact_times() -> Vec<f64> {
    let mut t = vec![(2.0 / G).sqrt()];
    for k in 1..10 {
        let last = t[k - 1];
        t.push(last + 2.0 * E.powi(k as i32) * (2.0 * G).sqrt() / G);
    }
    t
}

/// Ten impacts with restarts; `h_after` is the height set at each restart (0, or ±1e-16 to
/// test the direction filter).
fn bounce(method: OdeMethod, rtol: f64, h_after: impl Fn(usize) -> f64) -> (Vec<f64>, u64) {
    let mut opts = OdeOptions::with_tol(rtol, rtol);
    opts.method = method;
    let mut ode = Integrator::new(Ball, 0.0, &[1.0, 0.0], opts).unwrap();
    let mut times = Vec::new();
    while times.len() < 10 {
        match ode.step_until(6.0).unwrap() {
            OdeStop::Root { t, t_low, which, transitions } => {
                assert_eq!(which, vec![0]);
                assert_eq!(transitions, vec![RootTransition { index: 0, from: 1, to: -1 }], "only falling roots");
                assert!(t > t_low && t - t_low <= 1e-12 * t.max(1.0));
                let y = ode.y().to_vec();
                // localization residual |h(t*)| <= 100 uround (|t| + |h|) |v|, h the step (< 2)
                assert!(y[0].abs() <= 100.0 * f64::EPSILON * (t + 2.0) * y[1].abs(), "residual {}", y[0]);
                times.push(t);
                ode.reinit(t, &[h_after(times.len()), -E * y[1]]).unwrap();
            }
            OdeStop::Reached(t) => panic!("no 10th impact before {t}"),
        }
    }
    (times, ode.stats().root_evals)
}

#[test]
fn bouncing_ball_impacts() {
    let exact = impact_times();
    for (method, rtol) in [(OdeMethod::Lsoda, 1e-12), (OdeMethod::Bdf, 1e-12), (OdeMethod::Dopri5, 1e-10)] {
        let (times, nge) = bounce(method, rtol, |_| 0.0);
        for (t, te) in times.iter().zip(&exact) {
            assert!((t - te).abs() <= 1e-9 * te, "{method:?}: impact {t} vs {te}");
        }
        assert!(nge < 2000, "{method:?}: {nge} root evaluations");
    }
}

/// Restart states just below / above the surface: no upward root is ever reported (the
/// direction filter works inside the search) and the impact times are unchanged.
#[test]
fn direction_filter_after_restart() {
    let exact = impact_times();
    let (times, _) = bounce(OdeMethod::Lsoda, 1e-12, |k| if k % 2 == 0 { -1e-16 } else { 1e-16 });
    for (t, te) in times.iter().zip(&exact) {
        assert!((t - te).abs() <= 1e-9 * te);
    }
}

/// y' = 1 (or x'' = −x) with user root functions built from closures.
struct Lin<F: Fn(f64, &[f64], &mut [f64])> {
    osc: bool,
    m: usize,
    g: F,
    kinds: Vec<RootKind>,
}
impl<F: Fn(f64, &[f64], &mut [f64])> OdeSystem for Lin<F> {
    fn dim(&self) -> usize {
        if self.osc {
            2
        } else {
            1
        }
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        if self.osc {
            dy[0] = y[1];
            dy[1] = -y[0];
        } else {
            dy[0] = 1.0;
        }
        Ok(())
    }
    fn n_roots(&self) -> usize {
        self.m
    }
    fn roots(&self, t: f64, y: &[f64], g: &mut [f64]) -> Result<(), UserFnError> {
        (self.g)(t, y, g);
        Ok(())
    }
    fn root_kind(&self, i: usize) -> RootKind {
        self.kinds.get(i).copied().unwrap_or_default()
    }
}

fn collect<S: OdeSystem>(ode: &mut Integrator<S>, tf: f64) -> Vec<(f64, Vec<RootTransition>)> {
    let mut out = Vec::new();
    loop {
        match ode.step_until(tf).expect("integration") {
            OdeStop::Root { t, transitions, .. } => {
                out.push((t, transitions));
                assert!(out.len() < 100, "stream of roots");
            }
            OdeStop::Reached(_) => return out,
        }
    }
}

#[test]
fn two_roots_of_different_functions_in_one_step() {
    let sys = Lin {
        osc: false,
        m: 3,
        g: |_t: f64, y: &[f64], g: &mut [f64]| {
            g[0] = y[0] - 1.0;
            g[1] = y[0] - (1.0 + 1e-9);
            g[2] = 2.0 * (y[0] - 1.0);
        },
        kinds: vec![],
    };
    let mut ode = Integrator::new(sys, 0.0, &[0.0], OdeOptions::with_tol(1e-8, 1e-8)).unwrap();
    let roots = collect(&mut ode, 2.0);
    assert_eq!(roots.len(), 2, "{roots:?}");
    let idx: Vec<usize> = roots[0].1.iter().map(|r| r.index).collect();
    assert_eq!(idx, vec![0, 2]);
    assert!((roots[0].0 - 1.0).abs() <= 1e-15, "{}", roots[0].0);
    assert_eq!(roots[1].1.iter().map(|r| r.index).collect::<Vec<_>>(), vec![1]);
    assert!((roots[1].0 - (1.0 + 1e-9)).abs() <= 1e-15, "{}", roots[1].0);
}

#[test]
fn two_roots_oscillator() {
    let c1 = 0.5 + 1e-7;
    let sys = Lin {
        osc: true,
        m: 3,
        g: move |_t: f64, y: &[f64], g: &mut [f64]| {
            g[0] = y[0] - 0.5;
            g[1] = y[0] - c1;
            g[2] = 2.0 * (y[0] - 0.5);
        },
        kinds: vec![],
    };
    let mut ode = Integrator::new(sys, 0.0, &[0.0, 1.0], OdeOptions::with_tol(1e-10, 1e-10)).unwrap();
    let roots = collect(&mut ode, 10.0);
    let a = 0.5f64.asin();
    let b = c1.asin();
    let pi = std::f64::consts::PI;
    let mut expected = vec![
        (a, 0),
        (a, 2),
        (b, 1),
        (pi - b, 1),
        (pi - a, 0),
        (pi - a, 2),
        (a + 2.0 * pi, 0),
        (a + 2.0 * pi, 2),
        (b + 2.0 * pi, 1),
        (3.0 * pi - b, 1),
        (3.0 * pi - a, 0),
        (3.0 * pi - a, 2),
    ];
    expected.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let got: Vec<(f64, usize)> = roots.iter().flat_map(|(t, tr)| tr.iter().map(move |r| (*t, r.index))).collect();
    assert_eq!(got.len(), 12, "{got:?}");
    for ((t, i), (te, ie)) in got.iter().zip(&expected) {
        assert_eq!(i, ie, "order of roots: {got:?}");
        assert!((t - te).abs() < 1e-7, "root of g{i} at {t}, expected {te}");
    }
}

#[test]
fn grazing_roots_are_reported_in_pairs() {
    for delta in [1e-2, 1e-4, 1e-8, 1e-12, 0.0] {
        // graze_quad: y' = 2(t − 1), y(0) = 1, g = y − δ
        struct Quad(f64);
        impl OdeSystem for Quad {
            fn dim(&self) -> usize {
                1
            }
            fn rhs(&self, t: f64, _y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
                dy[0] = 2.0 * (t - 1.0);
                Ok(())
            }
            fn n_roots(&self) -> usize {
                1
            }
            fn roots(&self, _t: f64, y: &[f64], g: &mut [f64]) -> Result<(), UserFnError> {
                g[0] = y[0] - self.0;
                Ok(())
            }
        }
        let mut ode = Integrator::new(Quad(delta), 0.0, &[1.0], OdeOptions::with_tol(1e-8, 1e-10)).unwrap();
        let roots = collect(&mut ode, 2.0);
        assert_eq!(roots.len() & 1, 0, "δ = {delta}: {roots:?}");
        if delta >= 1e-8 {
            assert_eq!(roots.len(), 2, "δ = {delta}: both roots must be found");
            let s = delta.sqrt();
            // the numerical minimum differs from 0 by about the integration error (1e-9 here)
            let tol = if delta >= 1e-4 { 1e-6 } else { 1e-4 };
            assert!((roots[0].0 - (1.0 - s)).abs() < tol && (roots[1].0 - (1.0 + s)).abs() < tol, "{roots:?}");
        }
        // graze_osc: x = sin t, g = x − (1 − δ)
        let sys = Lin {
            osc: true,
            m: 1,
            g: move |_t: f64, y: &[f64], g: &mut [f64]| g[0] = y[0] - (1.0 - delta),
            kinds: vec![],
        };
        let mut ode = Integrator::new(sys, 0.0, &[0.0, 1.0], OdeOptions::with_tol(1e-8, 1e-10)).unwrap();
        let roots = collect(&mut ode, 10.0);
        assert_eq!(roots.len() & 1, 0, "osc δ = {delta}: {roots:?}");
        if delta >= 1e-4 {
            assert_eq!(roots.len(), 4, "osc δ = {delta}: {roots:?}");
        }
    }
}

/// The transition table of events-accuracy-projection.md §4 on y' = 1, y(0) = 0 with a
/// three-valued trigger: g = y − 1 below 1, 0 on [1, 2], y − 2 above 2 (and its mirror).
#[test]
fn discrete_zero_transition_table() {
    let zone = |y: f64| {
        if y < 1.0 {
            y - 1.0
        } else if y <= 2.0 {
            0.0
        } else {
            y - 2.0
        }
    };
    let run = |mirror: bool, direction: RootDirection, discrete_zero: bool| {
        let sys = Lin {
            osc: false,
            m: 1,
            g: move |_t: f64, y: &[f64], g: &mut [f64]| g[0] = if mirror { -zone(y[0]) } else { zone(y[0]) },
            kinds: vec![RootKind { direction, discrete_zero, window: None }],
        };
        let mut ode = Integrator::new(sys, 0.0, &[0.0], OdeOptions::with_tol(1e-10, 1e-10)).unwrap();
        collect(&mut ode, 3.0).into_iter().map(|(t, tr)| (t, tr[0].from, tr[0].to)).collect::<Vec<_>>()
    };
    let near = |t: f64, te: f64| (t - te).abs() < 1e-9;
    use RootDirection::*;
    // rising, discrete zero: −1 → 0 at 1, then 0 → 1 at 2
    let r = run(false, Rising, true);
    assert!(
        r.len() == 2
            && near(r[0].0, 1.0)
            && (r[0].1, r[0].2) == (-1, 0)
            && near(r[1].0, 2.0)
            && (r[1].1, r[1].2) == (0, 1),
        "{r:?}"
    );
    // rising, continuous: the landing on zero counts as the crossing (−1 → 1), leaving zero reports nothing
    let r = run(false, Rising, false);
    assert!(r.len() == 1 && near(r[0].0, 1.0) && (r[0].1, r[0].2) == (-1, 1), "{r:?}");
    // falling only on a rising trigger: nothing, either way
    assert!(run(false, Falling, true).is_empty());
    assert!(run(false, Falling, false).is_empty());
    // mirror images
    let r = run(true, Falling, true);
    assert!(r.len() == 2 && (r[0].1, r[0].2) == (1, 0) && (r[1].1, r[1].2) == (0, -1), "{r:?}");
    let r = run(true, Falling, false);
    assert!(r.len() == 1 && (r[0].1, r[0].2) == (1, -1), "{r:?}");
    assert!(run(true, Rising, true).is_empty());
    // both directions, discrete: the same two transitions
    assert_eq!(run(false, Both, true).len(), 2);
}

/// A root function that is 0 at t0 is not reported there; one that stays 0 is masked (no
/// stream of roots) until it leaves zero.
#[test]
fn zero_at_start_and_identically_zero() {
    let sys = Lin {
        osc: true,
        m: 3,
        g: |t: f64, y: &[f64], g: &mut [f64]| {
            g[0] = y[0]; // sin t: zero at t0, crossings at π, 2π
            g[1] = 0.0; // identically zero (sticking contact)
            g[2] = if t < 1.0 { 0.0 } else { y[0] - 0.5 }; // zero, then leaves zero at t = 1 above 0
        },
        kinds: vec![],
    };
    let mut ode = Integrator::new(sys, 0.0, &[0.0, 1.0], OdeOptions::with_tol(1e-10, 1e-10)).unwrap();
    let roots = collect(&mut ode, 7.0);
    let pi = std::f64::consts::PI;
    let flat: Vec<(f64, usize)> = roots.iter().flat_map(|(t, tr)| tr.iter().map(move |r| (*t, r.index))).collect();
    // g0 at π and 2π; g2 (sin t − 0.5 after it left zero positive) at 5π/6, then 13π/6
    let expected = [(5.0 * pi / 6.0, 2), (pi, 0), (2.0 * pi, 0), (13.0 * pi / 6.0, 2)];
    assert_eq!(flat.len(), expected.len(), "{flat:?}");
    for ((t, i), (te, ie)) in flat.iter().zip(expected.iter()) {
        assert_eq!(i, ie);
        assert!((t - te).abs() < 1e-7, "{t} vs {te}");
    }
}

/// Roots are found with the explicit method too, and restarts at a root give no repeat.
#[test]
fn restart_at_root_gives_no_repeat() {
    let sys = Lin { osc: true, m: 1, g: |_t: f64, y: &[f64], g: &mut [f64]| g[0] = y[0], kinds: vec![] };
    for method in [OdeMethod::Lsoda, OdeMethod::Dopri5] {
        let mut opts = OdeOptions::with_tol(1e-10, 1e-10);
        opts.method = method;
        let mut ode = Integrator::new(
            Lin { osc: true, m: 1, g: |_t: f64, y: &[f64], g: &mut [f64]| g[0] = y[0], kinds: vec![] },
            0.0,
            &[0.0, 1.0],
            opts,
        )
        .unwrap();
        let mut times = Vec::new();
        while let OdeStop::Root { t, .. } = ode.step_until(10.0).unwrap() {
            times.push(t);
            // restart exactly at the root with g = 0 exactly
            let v = ode.y()[1];
            ode.reinit(t, &[0.0, v]).unwrap();
        }
        let pi = std::f64::consts::PI;
        assert_eq!(times.len(), 3, "{method:?}: {times:?}");
        for (k, t) in times.iter().enumerate() {
            assert!((t - (k + 1) as f64 * pi).abs() < 1e-7, "{method:?}: {t}");
        }
    }
    let _ = sys;
}

/// A localization window per trigger: the reported window is at most that long and contains
/// the root; the search stops early (fewer g evaluations than at roundoff resolution).
#[test]
fn localization_window() {
    let make = |window: Option<f64>| Lin {
        osc: true,
        m: 1,
        g: |_t: f64, y: &[f64], g: &mut [f64]| g[0] = y[0] - 0.5,
        kinds: vec![RootKind { window, ..Default::default() }],
    };
    let mut fine = Integrator::new(make(None), 0.0, &[0.0, 1.0], OdeOptions::with_tol(1e-10, 1e-10)).unwrap();
    let mut coarse = Integrator::new(make(Some(1e-3)), 0.0, &[0.0, 1.0], OdeOptions::with_tol(1e-10, 1e-10)).unwrap();
    let root = 0.5f64.asin();
    match (fine.step_until(2.0).unwrap(), coarse.step_until(2.0).unwrap()) {
        (OdeStop::Root { t: tf, .. }, OdeStop::Root { t, t_low, .. }) => {
            assert!((tf - root).abs() < 1e-9);
            assert!(t - t_low <= 1e-3 && t_low < root + 1e-9 && t >= root - 1e-9, "({t_low}, {t}]");
        }
        other => panic!("{other:?}"),
    }
    assert!(coarse.stats().root_evals < fine.stats().root_evals);
}
