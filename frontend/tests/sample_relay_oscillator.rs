//! Gallery sample `relay_oscillator`: a unit harmonic oscillator with a sign relay (Coulomb
//! friction of unit level), x1' = x2, x2' = -x1 + λ, y = x2, λ ∈ -sign(y) ∩ [-1, 1].
//! Theory: while x2 < 0 the motion is a half circle around x1 = +1, while x2 > 0 around x1 = -1, so
//! from x0 = (5.5, 0) the turning points are 5.5, -3.5, 1.5, then x1 = 0.5 where |x1| <= 1 and the
//! mass sticks (λ = x1 balances the spring) from t = 3π on. The energy (x1² + x2²)/2 never grows.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

#[test]
fn relay_oscillator_physics() {
    let model = sample("relay_oscillator/relay_oscillator.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let (t, x1, x2) = (tr.col("t"), tr.col("osc.x[0]"), tr.col("osc.x[1]"));
    let (y, lam) = (tr.col("relay.y[0]"), tr.col("relay.lambda[0]"));
    assert!((t[tr.len() - 1] - 15.0).abs() < 1e-9);

    // Relay law at every step: λ ∈ [-1, 1]; λ = -sign(y) when y ≠ 0; y is x2 (C = (0 1), D = 0).
    for k in 1..tr.len() {
        assert!((y[k] - x2[k]).abs() <= 1e-12, "y != x2 at t = {}", t[k]);
        assert!(lam[k] >= -1.0 - 1e-9 && lam[k] <= 1.0 + 1e-9, "lambda = {} outside [-1, 1] at t = {}", lam[k], t[k]);
        if y[k].abs() > 1e-8 {
            assert!((lam[k] + y[k].signum()).abs() <= 1e-8, "lambda = {} but y = {} at t = {}", lam[k], y[k], t[k]);
        }
    }

    // Turning points: extrema of x1 (sign changes of x2) before sticking.
    let mut turns = vec![x1[0]];
    let mut last_sign = 0.0;
    for k in 1..tr.len() {
        if x2[k].abs() > 1e-6 {
            let s = x2[k].signum();
            if last_sign != 0.0 && s != last_sign {
                turns.push(x1[k]);
            }
            last_sign = s;
        }
    }
    let expected = [5.5, -3.5, 1.5];
    assert_eq!(turns.len(), expected.len(), "turning points {turns:?}");
    for (a, b) in turns.iter().zip(expected) {
        assert!((a - b).abs() < 1e-2, "turning points {turns:?}, theory {expected:?}");
    }

    // Sticking at x1 = 0.5 after 3π, with λ = x1 balancing the spring (interior of [-1, 1]).
    for k in 0..tr.len() {
        if t[k] > 3.0 * std::f64::consts::PI + 0.05 {
            assert!(
                (x1[k] - 0.5).abs() < 1e-2 && x2[k].abs() < 1e-6,
                "not stuck at t = {}: x = ({}, {})",
                t[k],
                x1[k],
                x2[k]
            );
            assert!((lam[k] - x1[k]).abs() < 1e-6, "sticking force {} != x1 = {}", lam[k], x1[k]);
        }
    }

    // The relay dissipates: the energy (x1² + x2²)/2 never increases, up to the O(h²) error of the
    // step in which λ switches (h = 1e-3), and it falls from 15.125 to 0.125 overall.
    let h: f64 = 1e-3;
    let energy = |k: usize| (x1[k].powi(2) + x2[k].powi(2)) / 2.0;
    assert!((energy(tr.len() - 1) - 0.125).abs() < 1e-2, "final energy {}", energy(tr.len() - 1));
    for k in 1..tr.len() {
        let (e0, e1) = ((x1[k - 1].powi(2) + x2[k - 1].powi(2)) / 2.0, (x1[k].powi(2) + x2[k].powi(2)) / 2.0);
        assert!(e1 <= e0 + 10.0 * h * h * (1.0 + e0), "energy grows at t = {}: {e0} -> {e1}", t[k]);
    }
}
