//! Gallery sample `varactor_diode`: a varactor `C(v) = C0 (1 + α v)` discharging through an ideal
//! diode and `R` into a source `E(t)` that steps from `E0` to `E1` at `ts`, written as a
//! `FirstOrderNonLinearR` (`y = R λ + E(t) − v`, `r = −λ / C(v)`) from the plugin
//! `plugins/varactor`, Euler–Moreau θ = 1. Checks, from the CSV of `saltus run`:
//! * each step is the implicit Euler step of the circuit: `C(v₁)(v₁ − v₀) = −h λ₁` and
//!   `0 ≤ R λ₁ + E(t₁) − v₁ ⊥ λ₁ ≥ 0`, and `y` is `h(t, x, λ)`;
//! * the analytic discharge `t(v) = R C0 [(1 + α E0) ln((v0 − E0)/(v − E0)) + α (v0 − v)]` before
//!   `ts`, the diode blocked (`λ = 0`, `v` constant) after;
//! * the energy balance `W(v0) − W(v_T) = ∫ (R i² + E i) dt`, `W(v) = C0 (v²/2 + α v³/3)`.
mod sample_util;
use sample_util::*;

const R: f64 = 1e3;
const C0: f64 = 1e-6;
const ALPHA: f64 = 0.5;
const E0: f64 = 1.0;
const E1: f64 = 2.5;
const TS: f64 = 3.0005e-3;
const V0: f64 = 3.0;
const H: f64 = 1e-5;

fn cap(v: f64) -> f64 {
    C0 * (1.0 + ALPHA * v)
}

/// `v(t)` of the conducting phase, by bisection on the decreasing `t(v)`.
fn exact(t: f64) -> f64 {
    let time_of = |v: f64| R * C0 * ((1.0 + ALPHA * E0) * ((V0 - E0) / (v - E0)).ln() + ALPHA * (V0 - v));
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
fn varactor_diode_physics() {
    let dir = build_plugin("saltus-plugin-varactor");
    let model = sample("varactor_diode/varactor_diode.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let (t, v, y, l) = (tr.col("t"), tr.col("varactor.x[0]"), tr.col("diode.y[0]"), tr.col("diode.lambda[0]"));
    let n = tr.len();
    assert!((t[n - 1] - 5e-3).abs() < 1e-12 && n == 501, "{n} rows to t = {}", t[n - 1]);
    let source = |t: f64| if t < TS { E0 } else { E1 };
    let mut max_err: f64 = 0.0;
    let mut dissipated = 0.0;
    for k in 1..n {
        // the implicit step and the diode law
        let res = cap(v[k]) * (v[k] - v[k - 1]) + H * l[k];
        assert!(res.abs() <= 1e-12 * C0, "step residual {res:e} C at t = {}", t[k]);
        let yk = R * l[k] + source(t[k]) - v[k];
        assert!((y[k] - yk).abs() <= 1e-12, "y = {} vs h(t, x, λ) = {yk} at t = {}", y[k], t[k]);
        assert!(
            y[k] >= -1e-12 && l[k] >= 0.0 && (y[k] * l[k]).abs() <= 1e-15,
            "y = {}, λ = {} at t = {}",
            y[k],
            l[k],
            t[k]
        );
        if t[k] < TS {
            assert!(l[k] > 0.0, "the diode conducts before ts (t = {})", t[k]);
            max_err = max_err.max((v[k] - exact(t[k])).abs());
        } else {
            assert!(l[k] == 0.0 && v[k] == v[k - 1], "the diode blocks after ts (t = {})", t[k]);
        }
        dissipated += H * (R * l[k] * l[k] + source(t[k]) * l[k]);
    }
    // first order in h: h / τ with τ = R C ≈ 1.5 ms
    assert!(max_err <= 3e-3, "max |v − v_exact| = {max_err:e} V");
    let v_end = v[n - 1];
    assert!((v_end - exact(TS)).abs() <= 5e-3, "held voltage {v_end} vs {}", exact(TS));
    let w = |v: f64| C0 * (v * v / 2.0 + ALPHA * v * v * v / 3.0);
    let released = w(V0) - w(v_end);
    assert!(
        ((released - dissipated) / released).abs() <= 5e-3,
        "energy released {released:e} J vs dissipated + delivered {dissipated:e} J"
    );
    eprintln!("max |v - v_exact| = {max_err:e} V, energy balance error {:e}", (released - dissipated) / released);
}
