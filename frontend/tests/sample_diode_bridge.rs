//! Gallery sample `diode_bridge` (the Siconos DiodeBridge tutorial): an LC tank (L = 10 mH,
//! C = 1 µF, vC(0) = 10 V) feeds R = 1 kΩ through four ideal diodes. The agreement with the
//! Siconos trajectory is tested in `cli.rs`; this test checks the physics through the CLI:
//! - complementarity 0 ≤ y ⊥ λ ≥ 0 of every diode at every step;
//! - rectification: the resistor current i_R = y0 + λ2 (Siconos tutorial's `i_res`) is never
//!   negative, while the tank voltage vC takes both signs;
//! - Kirchhoff at the load: R i_R = |vC| while current flows (the bridge clamps the load to |vC|);
//! - energy: with the tank energy E = C vC²/2 + L iL²/2, the θ = ½ Euler–Moreau step (the LC
//!   part is lossless, A is skew in the energy inner product; r = Bλ is implicit) gives exactly
//!   E_{k+1} − E_k = h vC_{k+½} (λ3 − λ2)_{k+1}, the work of the bridge current on the tank.
//!   It is never positive except on the few steps where vC changes sign (the midpoint voltage
//!   and the end-of-step current then disagree, as in Siconos), and over the run E falls.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

const L: f64 = 1e-2;
const C: f64 = 1e-6;
const R: f64 = 1e3;

#[test]
fn diode_bridge_physics() {
    let model = sample("diode_bridge/diode_bridge.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    let (t, vc, il) = (tr.col("t"), tr.col("circuit.x[0]"), tr.col("circuit.x[1]"));
    let y: Vec<&[f64]> = (0..4).map(|k| tr.col(&format!("bridge.y[{k}]"))).collect();
    let lam: Vec<&[f64]> = (0..4).map(|k| tr.col(&format!("bridge.lambda[{k}]"))).collect();
    assert!((t[n - 1] - 5e-3).abs() < 1e-12 && n == 5001, "{n} rows up to t = {}", t[n - 1]);
    let energy = |k: usize| 0.5 * C * vc[k] * vc[k] + 0.5 * L * il[k] * il[k];
    let i_r = |k: usize| y[0][k] + lam[2][k];
    let (mut neg_vc, mut pos_vc, mut conducting) = (0, 0, 0);
    let mut worst_balance: f64 = 0.0;
    let mut sign_changes = 0;
    for k in 1..n {
        for j in 0..4 {
            let scale = 1.0 + y[j][k].abs().max(lam[j][k].abs());
            assert!(y[j][k] >= -1e-9 * scale && lam[j][k] >= -1e-9 * scale, "y/lambda {j} negative at t = {}", t[k]);
            assert!((y[j][k] * lam[j][k]).abs() <= 1e-9, "y{j} lambda{j} = {} at t = {}", y[j][k] * lam[j][k], t[k]);
        }
        assert!(i_r(k) >= -1e-12, "resistor current {} < 0 at t = {}", i_r(k), t[k]);
        neg_vc += usize::from(vc[k] < -0.1);
        pos_vc += usize::from(vc[k] > 0.1);
        if i_r(k) > 1e-6 {
            conducting += 1;
            assert!(
                (R * i_r(k) - vc[k].abs()).abs() <= 1e-6 * (1.0 + vc[k].abs()),
                "t = {}: R i_R = {} but |vC| = {}",
                t[k],
                R * i_r(k),
                vc[k].abs()
            );
        }
        let (e0, e1) = (energy(k - 1), energy(k));
        let h = t[k] - t[k - 1];
        let work = h * 0.5 * (vc[k] + vc[k - 1]) * (lam[3][k] - lam[2][k]);
        worst_balance = worst_balance.max((e1 - e0 - work).abs() / energy(0));
        if vc[k] * vc[k - 1] > 0.0 {
            assert!(e1 <= e0 * (1.0 + 1e-13), "tank energy increased at t = {}: {e0} -> {e1}", t[k]);
        } else {
            sign_changes += 1;
            assert!(e1 - e0 <= 1e-6 * energy(0), "tank energy jumped at the switch at t = {}: {e0} -> {e1}", t[k]);
        }
    }
    // both half-waves are seen and rectified
    assert!(neg_vc > 500 && pos_vc > 500 && conducting > 1000, "vC<0 {neg_vc}, vC>0 {pos_vc}, conducting {conducting}");
    // the discrete balance is exact up to round-off; vC changes sign once per half period
    assert!(worst_balance < 1e-12, "energy balance per step off by {worst_balance:e} of E0");
    assert!((10..=20).contains(&sign_changes), "{sign_changes} sign changes of vC");
    assert!(energy(n - 1) < 0.01 * energy(0), "E(T) = {:e} of E0", energy(n - 1) / energy(0));
    // the circuit loses energy: vC decays from 10 V to about 0.79 V at 5 ms (Siconos 0.788)
    assert!((vc[n - 1] - 0.788).abs() < 0.01, "vC(T) = {}", vc[n - 1]);
}
