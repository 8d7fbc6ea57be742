//! Gallery sample `rlcd`: series R-L-C with an ideal diode, x = (vC, i), C vC' = −i,
//! L i' = vC − R i + λ, 0 <= y = i ⊥ λ >= 0 (λ = −vD, the diode's reverse voltage).
//! Theory (C = 1 µF, L = 1 mH, R = 10 Ω, vC(0) = 10 V): while the diode conducts,
//! i(t) = V0/(ωd L) e^(−αt) sin(ωd t) with α = R/2L, ωd = sqrt(1/LC − α²); at t* = π/ωd the current
//! reaches 0, the diode blocks, and vC stays at −V0 e^(−αt*) with λ = −vC holding it.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

const C: f64 = 1e-6;
const L: f64 = 1e-3;
const R: f64 = 10.0;
const V0: f64 = 10.0;

#[test]
fn rlcd_physics() {
    let model = sample("rlcd/rlcd.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    let (t, vc, i) = (tr.col("t"), tr.col("circuit.x[0]"), tr.col("circuit.x[1]"));
    let (y, lam) = (tr.col("diode.y[0]"), tr.col("diode.lambda[0]"));
    assert!((t[n - 1] - 3e-4).abs() < 1e-12);
    let alpha = R / (2.0 * L);
    let wd = (1.0 / (L * C) - alpha * alpha).sqrt();
    let t_star = std::f64::consts::PI / wd;
    let v_end = -V0 * (-alpha * t_star).exp();
    let i_peak = V0 / (wd * L);
    let h = 1e-7;

    let energy = |k: usize| 0.5 * (C * vc[k] * vc[k] + L * i[k] * i[k]);
    for k in 1..n {
        // the current never goes negative; complementarity of the diode
        assert!(i[k] >= -1e-12 * i_peak, "i = {} < 0 at t = {}", i[k], t[k]);
        assert!((y[k] - i[k]).abs() <= 1e-15, "y != i");
        assert!(lam[k] >= -1e-9 * V0, "lambda = {} < 0 at t = {}", lam[k], t[k]);
        assert!((y[k] * lam[k]).abs() <= 1e-12 * i_peak * V0, "y lambda = {} at t = {}", y[k] * lam[k], t[k]);
        // energy decays (R dissipates, the ideal diode does no work), up to the O((ω0 h)²) relative
        // error of the one step in which the diode switches (measured 1e-6)
        assert!(energy(k) <= energy(k - 1) * (1.0 + h * h / (L * C)), "energy grows at t = {}", t[k]);
        if t[k] < t_star - 2.0 * h {
            // conducting phase: the analytic damped oscillation, diode voltage 0
            let exact = i_peak * (-alpha * t[k]).exp() * (wd * t[k]).sin();
            assert!((i[k] - exact).abs() <= 1e-4 * i_peak, "i = {} vs analytic {exact} at t = {}", i[k], t[k]);
            assert!(lam[k].abs() <= 1e-9 * V0, "diode blocks at t = {} before t* = {t_star}", t[k]);
        } else if t[k] > t_star + 2.0 * h {
            // blocked: no current, the capacitor keeps −V0 e^(−α t*), the diode holds −vC
            assert!(i[k].abs() <= 1e-12 * i_peak, "current {} after t* at t = {}", i[k], t[k]);
            assert!((vc[k] - v_end).abs() <= 1e-4 * V0, "vC = {} vs {v_end} at t = {}", vc[k], t[k]);
            assert!((lam[k] + vc[k]).abs() <= 1e-9 * V0, "lambda = {} != -vC = {}", lam[k], -vc[k]);
        }
    }
    let e_end = 0.5 * C * v_end * v_end;
    assert!((energy(n - 1) - e_end).abs() <= 1e-3 * energy(0), "final energy {} vs {e_end}", energy(n - 1));
}
