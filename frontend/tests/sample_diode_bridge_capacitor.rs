//! Gallery sample `diode_bridge_capacitor`: an LC tank (L = 10 mH, C = 1 µF, vL(0) = 10 V) feeds a
//! filter capacitor Cf = 300 nF in parallel with R = 1 kΩ through a bridge of four ideal diodes
//! (λ = (u4, i1, i2, i3), y = (i4, u1, u2, u3), u = reverse voltages, i = diode currents; see the
//! XML). Checks: the load current vR/R never changes sign (rectified: vR = u2 + u4 >= 0), the
//! complementarity of every diode at every step, vR = |vL| whenever a diode conducts, vR decays
//! as exp(−t/RC_f) while all diodes block, and the stored energy never increases.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

const L: f64 = 1e-2;
const C: f64 = 1e-6;
const CF: f64 = 300e-9;
const R: f64 = 1e3;

#[test]
fn diode_bridge_capacitor_physics() {
    let model = sample("diode_bridge_capacitor/diode_bridge_capacitor.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    let (t, vl, il, vr) = (tr.col("t"), tr.col("tank.x[0]"), tr.col("tank.x[1]"), tr.col("filter.x[0]"));
    let y: Vec<&[f64]> = (0..4).map(|k| tr.col(&format!("bridge.y[{k}]"))).collect();
    let lam: Vec<&[f64]> = (0..4).map(|k| tr.col(&format!("bridge.lambda[{k}]"))).collect();
    assert!((t[n - 1] - 5e-3).abs() < 1e-12);

    let mut conducting = 0;
    let mut blocked = 0;
    let mut peak: f64 = vl[0].abs();
    for k in 1..n {
        // complementarity 0 <= y ⊥ λ >= 0, componentwise
        for j in 0..4 {
            let scale = 1.0 + y[j][k].abs().max(lam[j][k].abs());
            assert!(y[j][k] >= -1e-9 * scale && lam[j][k] >= -1e-9 * scale, "y/lambda {j} negative at t = {}", t[k]);
            assert!((y[j][k] * lam[j][k]).abs() <= 1e-9, "y{j} lambda{j} = {} at t = {}", y[j][k] * lam[j][k], t[k]);
        }
        // rectified: the load current vR / R never goes negative
        assert!(vr[k] >= -1e-9, "load current {} < 0 at t = {}", vr[k] / R, t[k]);
        peak = peak.max(vl[k].abs());
        assert!(vr[k] <= peak + 1e-9, "vR = {} above the source peak {peak}", vr[k]);
        // a diode conducts (i1, i2, i3 or i4 > 0): the output is clamped to |vL|
        let i4 = y[0][k];
        let on = lam[1][k].max(lam[2][k]).max(lam[3][k]).max(i4);
        if on > 1e-6 {
            conducting += 1;
            assert!(
                (vr[k] - vl[k].abs()).abs() <= 1e-6 * (1.0 + vl[k].abs()),
                "conducting at t = {} but vR = {} != |vL| = {}",
                t[k],
                vr[k],
                vl[k].abs()
            );
        }
        // both steps blocked: the filter discharges into R (trapezoidal step of vR' = −vR/(R Cf))
        let off = |m: usize| lam[1][m].max(lam[2][m]).max(lam[3][m]).max(y[0][m]) <= 1e-12;
        if off(k) && off(k - 1) && vr[k - 1] > 1e-3 {
            blocked += 1;
            let a = (t[k] - t[k - 1]) / (2.0 * R * CF);
            let expect = vr[k - 1] * (1.0 - a) / (1.0 + a);
            assert!((vr[k] - expect).abs() <= 1e-9 * vr[k - 1], "free discharge violated at t = {}", t[k]);
        }
    }
    assert!(conducting > 100 && blocked > 100, "conducting {conducting}, blocked {blocked} steps");
    // the filter keeps the load current strictly positive after the first quarter period
    for k in 0..n {
        if t[k] > 2e-4 {
            assert!(vr[k] > 0.0, "load current 0 at t = {}", t[k]);
        }
    }
    // passive circuit (ideal diodes do no work, R dissipates): stored energy never increases
    let energy = |k: usize| 0.5 * (C * vl[k] * vl[k] + L * il[k] * il[k] + CF * vr[k] * vr[k]);
    for k in 1..n {
        assert!(energy(k) <= energy(k - 1) * (1.0 + 1e-12), "energy grows at t = {}", t[k]);
    }
    assert!(energy(n - 1) < 0.5 * energy(0), "no dissipation: {} -> {}", energy(0), energy(n - 1));
}
