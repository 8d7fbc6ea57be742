//! Gallery sample `compliant_hertz`: a ball (m = 1, r = 0.1) dropped from z = 0.2 on a floor with the
//! regularized Hertz compliance `δ(λ) = c ((λ + λr)^{2/3} − λr^{2/3})` (c = 1e-4, λr = 1e-2): a
//! `LagrangianCompliantR` `y = z − r + δ(λ)` from `plugins/hertz`, `NewtonImpactNSL` e = 0,
//! Moreau–Jean θ = 1. Checks against mathematics:
//! * every loaded step keeps `h(q, λ)` (θ = 1: the secant rate of h is the solved output, 0);
//! * the deepest penetration of the first impact against the energy balance
//!   `W(δ) = m g (z0 − r) + m g δ`, `W(δ) = ∫₀^δ λ = (2c/5)((δ/c + λr^{2/3})^{5/2} − λr^{5/3}) − λr δ`,
//!   with the scheme's damping shrinking as h (first order);
//! * released at rest on the floor: the rest deflection δ(m g) and the force m g to 1e-9;
//! * a missing plugin symbol, a missing attribute and bad plugin parameters are located errors.
mod sample_util;
use saltus_runtime::xml::{convert, load_str};
use sample_util::*;
use std::path::{Path, PathBuf};

const M: f64 = 1.0;
const G: f64 = 9.81;
const R: f64 = 0.1;
const Z0: f64 = 0.2;
const C: f64 = 1e-4;
const LR: f64 = 1e-2;

fn delta(l: f64) -> f64 {
    C * ((l + LR).powf(2.0 / 3.0) - LR.powf(2.0 / 3.0))
}

fn text() -> String {
    std::fs::read_to_string(sample("compliant_hertz/compliant_hertz.xml")).unwrap()
}

fn plugin_dir() -> PathBuf {
    build_plugin("saltus-plugin-hertz")
}

/// The model built from `text`, or its error message.
fn build(text: &str, dir: &Path) -> Result<saltus_runtime::simulation::Built, String> {
    let file = sample("compliant_hertz/edited.xml");
    let loaded = load_str(text, &file).map_err(|e| e.to_string())?;
    convert::build(&loaded, vec![dir.to_path_buf()]).map_err(|e| e.to_string())
}

/// One row per step of `h` (initial state first), full precision: (t, z, v, rigid gap, force λ = P/h).
fn simulate(text: &str, h: f64, dir: &Path) -> Vec<[f64; 5]> {
    let mut b = build(text, dir).unwrap();
    let row = |n: &saltus_kernel::Nsds| {
        let (ds, it) = (&n.systems()[0], &n.interactions()[0]);
        [n.t(), ds.state()[0], ds.velocity().unwrap()[0], it.y(0).unwrap()[0], it.lambda(1).unwrap()[0] / h]
    };
    let mut rows = vec![row(&b.nsds)];
    for _ in 0..b.steps {
        b.sim.advance(&mut b.nsds).unwrap();
        rows.push(row(&b.nsds));
    }
    rows
}

/// The penetration `δ` where the spring, engaged at speed `v` (downwards), stops the ball:
/// `W(δ) = m v²/2 + m g δ` (bisection), `W(δ) = ∫₀^δ λ`.
fn stopping_depth(v: f64) -> f64 {
    let w = |d: f64| 2.0 * C / 5.0 * ((d / C + LR.powf(2.0 / 3.0)).powf(2.5) - LR.powf(5.0 / 3.0)) - LR * d;
    let (mut lo, mut hi) = (0.0, 0.1);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if w(mid) < 0.5 * M * v * v + M * G * mid {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn dropped_ball_keeps_h_in_contact_and_reaches_the_energy_depth() {
    let dir = plugin_dir();
    let model = sample("compliant_hertz/compliant_hertz.xml");
    validate_xml(&model);
    // the CLI runs it (every 10th step written)
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    assert_eq!(tr.len(), 5001);
    let mut errors = Vec::new();
    for h in [2e-5, 1e-5] {
        let rows = simulate(&edit(&text(), &[("h=\"1e-5\"", &format!("h=\"{h:e}\""))]), h, &dir);
        // the secant property: a loaded step keeps h(q, λ) = z − r + δ(λ)
        let (mut loaded, mut drift): (usize, f64) = (0, 0.0);
        for w in rows.windows(2) {
            let [a, b] = w else { unreachable!() };
            if b[4] > 0.0 {
                loaded += 1;
                let (ya, yb) = (a[1] - R + delta(a[4]), b[1] - R + delta(b[4]));
                drift = drift.max((yb - ya).abs());
            }
        }
        assert!(loaded > 1000, "{loaded} loaded steps");
        assert!(drift <= 1e-13, "h = {h}: h(q, λ) changed by {drift:e} m in a loaded step");
        // first contact: the spring engages at the rigid gap y* of the last free step (the
        // scheme keeps h(q, λ) = y* from there), with that step's speed v*
        let k = rows.iter().position(|r| r[4] > 0.0).unwrap();
        let (y_star, v_star) = (rows[k - 1][3], rows[k - 1][2]);
        assert!(y_star.abs() <= h * v_star.abs(), "engaged at {y_star}");
        let expected = y_star - stopping_depth(v_star);
        let first = rows.iter().filter(|r| r[0] < 0.3);
        let deepest = first.map(|r| r[3]).fold(f64::INFINITY, f64::min);
        let dm = stopping_depth((2.0 * G * (Z0 - R)).sqrt());
        let err = (deepest - expected) / dm;
        eprintln!(
            "h = {h}: deepest gap {deepest:e} vs {expected:e} (error {err:e} of {dm:e}), max |Δh(q, λ)| {drift:e}"
        );
        errors.push(err);
    }
    // the scheme damps (backward Euler on the stiffening spring): the depth is short by O(h)
    assert!(errors.iter().all(|e| *e > 0.0), "{errors:?}");
    assert!(errors[1] <= 3e-3, "{errors:?}");
    let ratio = errors[0] / errors[1];
    assert!((1.6..2.4).contains(&ratio), "first order in h: errors {errors:?}, ratio {ratio}");
}

/// Released at rest on the floor (gap 0), h = 2.8e-3 (ωh = 0.5 at rest, strong backward-Euler damping):
/// the ball settles at the rigid gap −δ(m g) with λ = m g.
#[test]
fn rest_deflection_is_the_closed_form() {
    let dir = plugin_dir();
    let text =
        edit(&text(), &[("<q0>0.2</q0>", "<q0>0.1</q0>"), ("h=\"1e-5\"", "h=\"2.8e-3\""), ("T=\"0.5\"", "T=\"8.4\"")]);
    let rows = simulate(&text, 2.8e-3, &dir);
    let last = rows.last().unwrap();
    let d = delta(M * G);
    assert!((last[3] + d).abs() <= 1e-9 * d, "gap {} vs {} ({:e})", last[3], -d, (last[3] + d) / d);
    assert!((last[4] - M * G).abs() <= 1e-9 * M * G, "force {}", last[4]);
    assert!(last[2].abs() <= 1e-9, "v {}", last[2]);
    eprintln!("rest deflection {} (closed form {}), error {:e}", -last[3], d, (last[3] + d) / d);
}

#[test]
fn plugin_errors_are_located() {
    let dir = plugin_dir();
    let cases: [(&str, &str, &[&str]); 3] = [
        (
            "jacobian_lambda=\"hertz_jacobian_lambda\"",
            "jacobian_lambda=\"no_such_symbol\"",
            &["edited.xml:", "LagrangianCompliantR", "no_such_symbol", "libsaltus_plugin_hertz"],
        ),
        ("jacobian_lambda=\"hertz_jacobian_lambda\"", "", &["edited.xml:", "jacobian_lambda"]),
        (
            "params=\"-0.1 1e-4 1e-2\"",
            "params=\"-0.1 -1e-4 1e-2\"",
            &["edited.xml:", "LagrangianCompliantR", "h(t, q, λ)"],
        ),
    ];
    for (from, to, wants) in cases {
        let msg = match build(&edit(&text(), &[(from, to)]), &dir) {
            Err(e) => e,
            Ok(_) => panic!("{to:?} must be refused"),
        };
        for w in wants {
            assert!(msg.contains(w), "{w:?} not in: {msg}");
        }
        eprintln!("{msg}");
    }
}
