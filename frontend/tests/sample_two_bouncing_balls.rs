//! Gallery sample `two_bouncing_balls`: ball a (m = 1) above the ground and ball b (m = 0.5)
//! above a, radius 0.1, on a vertical line; interactions ground–a (y = z_a − r, e = 0.9) and a–b
//! (an interaction between two DS, y = z_b − z_a − 2r, e = 0.7); Moreau–Jean θ = 0.5, h = 1e-3.
//! Checks: Newton's impact law (0 <= y⁺ + e y⁻ ⊥ λ >= 0) at every step of both contacts, impulse
//! balance (a ball–ball impulse conserves the momentum of the pair; a ground impulse leaves b
//! alone), no interpenetration beyond O(h), the energy non-increasing (to the O(h²) discrete error
//! of an impact step), and the final rest with impulses (m_a + m_b) g h and m_b g h.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

const MA: f64 = 1.0;
const MB: f64 = 0.5;
const R: f64 = 0.1;
const G: f64 = 9.81;
const H: f64 = 1e-3;

#[test]
fn two_bouncing_balls_physics() {
    physics("two_bouncing_balls/two_bouncing_balls.xml", false);
}

/// `two_bouncing_balls_mixed.xml`: the same model with ball b integrated by the semi-explicit
/// Euler (`<SemiExplicitEuler systems="b"/>`) and a by Moreau–Jean θ = ½, in one LCP.
#[test]
fn two_bouncing_balls_with_one_integrator_per_ball() {
    physics("two_bouncing_balls/two_bouncing_balls_mixed.xml", true);
}

/// The physics checks; `b_semi_explicit`: b's positions follow `q_{k+1} = q_k + h v_{k+1}`
/// (else the trapezoidal rule of a, checked at every step for a).
fn physics(file: &str, b_semi_explicit: bool) {
    let model = sample(file);
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    let t = tr.col("t");
    let (za, va, zb, vb) = (tr.col("a.q[0]"), tr.col("a.v[0]"), tr.col("b.q[0]"), tr.col("b.v[0]"));
    let laws = [("ground", 0.9), ("contact", 0.7)];
    let y: Vec<&[f64]> = laws.iter().map(|(n, _)| tr.col(&format!("{n}.ydot[0]"))).collect();
    let lam: Vec<&[f64]> = laws.iter().map(|(n, _)| tr.col(&format!("{n}.lambda[0]"))).collect();
    assert!((t[n - 1] - 5.0).abs() < 1e-9);

    let vmax = 10.0; // bound of the speeds (fall from 2 m plus 1 m/s): penetration <= h vmax
                     // The energy each scheme keeps in free flight: ½ m v² + m g z for the trapezoidal rule; for
                     // the semi-explicit Euler (v₁ = v₀ − g h, z₁ = z₀ + h v₁) the modified energy
                     // ½ m v² + m g z − ½ m g h v, whose change over a step with impulse p is ½ (v₀ + v₁) p, as
                     // the trapezoidal rule's: neither grows at an impact with e ≤ 1.
    let shift = if b_semi_explicit { 0.5 * MB * G * H } else { 0.0 };
    let energy =
        |k: usize| 0.5 * MA * va[k] * va[k] + 0.5 * MB * vb[k] * vb[k] + G * (MA * za[k] + MB * zb[k]) - shift * vb[k];
    let tol_e = (MA + MB) * G * H * H;
    let mut impacts = [0usize; 2];
    for k in 1..n {
        // each ball's own integrator: Moreau–Jean θ = ½ (trapezoidal) or the semi-explicit Euler
        let trapezoid = |z: &[f64], v: &[f64]| z[k] - (z[k - 1] + 0.5 * H * (v[k - 1] + v[k]));
        assert!(trapezoid(za, va).abs() <= 1e-12, "a is not trapezoidal at t = {}", t[k]);
        let eb = if b_semi_explicit { zb[k] - (zb[k - 1] + H * vb[k]) } else { trapezoid(zb, vb) };
        assert!(eb.abs() <= 1e-12, "b does not follow its integrator at t = {}: {eb}", t[k]);
        // no interpenetration beyond O(h)
        assert!(za[k] - R >= -H * vmax, "a below the ground by {} at t = {}", R - za[k], t[k]);
        assert!(zb[k] - za[k] - 2.0 * R >= -H * vmax, "balls overlap by {} at t = {}", 2.0 * R - (zb[k] - za[k]), t[k]);
        // Newton impact law, both contacts
        for (j, (name, e)) in laws.iter().enumerate() {
            let (l, w) = (lam[j][k], y[j][k] + e * y[j][k - 1]);
            assert!(l >= -1e-10, "{name}: lambda = {l} at t = {}", t[k]);
            assert!((l * w).abs() <= 1e-10, "{name}: lambda w = {} at t = {}", l * w, t[k]);
            if l > 1e-9 {
                assert!(
                    w.abs() <= 1e-8 * (1.0 + y[j][k - 1].abs()),
                    "{name} at t = {}: y+ = {} but -e y- = {}",
                    t[k],
                    y[j][k],
                    -e * y[j][k - 1]
                );
                if l > 1e-9 && lam[j][k - 1] <= 1e-9 {
                    impacts[j] += 1;
                }
            }
        }
        // impulse balance: ground impulse on a only; ball–ball impulse equal and opposite
        let dpa = MA * (va[k] - va[k - 1]) + MA * G * H;
        let dpb = MB * (vb[k] - vb[k - 1]) + MB * G * H;
        assert!((dpa - (lam[0][k] - lam[1][k])).abs() <= 1e-9, "momentum of a at t = {}", t[k]);
        assert!((dpb - lam[1][k]).abs() <= 1e-9, "momentum of b at t = {}", t[k]);
        // energy never increases
        assert!(energy(k) <= energy(k - 1) + tol_e, "energy grows at t = {}: {} -> {}", t[k], energy(k - 1), energy(k));
    }
    assert!(impacts[0] >= 3 && impacts[1] >= 3, "impacts ground/contact: {impacts:?}");
    // Final rest: the stack a-b on the ground, impulses carry the weights over one step.
    for k in 0..n {
        if t[k] > 4.5 {
            assert!(va[k].abs() < 1e-9 && vb[k].abs() < 1e-9, "still moving at t = {}", t[k]);
            assert!((lam[0][k] - (MA + MB) * G * H).abs() <= 1e-9, "ground impulse {} at rest", lam[0][k]);
            assert!((lam[1][k] - MB * G * H).abs() <= 1e-9, "contact impulse {} at rest", lam[1][k]);
        }
    }
    let rest = G * (MA * R + MB * 3.0 * R);
    assert!((energy(n - 1) - rest).abs() <= 1e-2 * (energy(0) - rest), "final energy {} vs {rest}", energy(n - 1));
}
