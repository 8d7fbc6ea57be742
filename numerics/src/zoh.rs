//! Exact zero-order-hold discretisation of a linear system (what Siconos `ZeroOrderHoldOSI`
//! computes with its `MatrixIntegrator`s).
//!
//! For `ẋ = A x + b + B u` with `b` and `u` constant over `[t_k, t_k + h]`:
//!
//! ```text
//! x_{k+1} = Φ x_k + Ψ b + Ψ B u,    Φ = exp(A h),    Ψ = ∫₀ʰ exp(A s) ds.
//! ```
//!
//! Both come from one exponential of the augmented matrix (Van Loan):
//! `exp([[A, I], [0, 0]] h) = [[Φ, Ψ], [0, I]]`. The exponential is the scaling-and-squaring
//! method with the [13/13] Padé approximant (Higham 2005): scale `M` by `2^{-s}` until
//! `‖M‖₁ ≤ θ₁₃ = 5.37`, evaluate `r₁₃ = q(M)⁻¹ p(M)`, square `s` times.

use nalgebra::DMatrix;

/// Coefficients `b_j` of the [13/13] Padé approximant of `exp` (`p(x) = Σ b_j x^j`, `q(x) = p(−x)`).
const PADE13: [f64; 14] = [
    64_764_752_532_480_000.0,
    32_382_376_266_240_000.0,
    7_771_770_303_897_600.0,
    1_187_353_796_428_800.0,
    129_060_195_264_000.0,
    10_559_470_521_600.0,
    670_442_572_800.0,
    33_522_128_640.0,
    1_323_241_920.0,
    40_840_800.0,
    960_960.0,
    16_380.0,
    182.0,
    1.0,
];

/// `θ₁₃`: the largest `‖M‖₁` for which `r₁₃(M)` has backward error below the unit round-off.
const THETA13: f64 = 5.371_920_351_148_152;

fn norm1(m: &DMatrix<f64>) -> f64 {
    m.column_iter().map(|c| c.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max)
}

/// `exp(M)` of a square matrix with finite entries; `None` if `M` is not square or not finite,
/// or if the Padé denominator is singular (it is not for finite `M` after scaling).
pub fn expm(m: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = m.nrows();
    if m.ncols() != n || m.iter().any(|v| !v.is_finite()) {
        return None;
    }
    if n == 0 {
        return Some(DMatrix::zeros(0, 0));
    }
    let norm = norm1(m);
    let s = if norm > THETA13 { (norm / THETA13).log2().ceil() as i32 } else { 0 };
    let a = m * 2f64.powi(-s);
    let id = DMatrix::<f64>::identity(n, n);
    let a2 = &a * &a;
    let a4 = &a2 * &a2;
    let a6 = &a4 * &a2;
    let b = &PADE13;
    // U = A [A6 (b13 A6 + b11 A4 + b9 A2) + b7 A6 + b5 A4 + b3 A2 + b1 I]
    let inner_u = &a6 * b[13] + &a4 * b[11] + &a2 * b[9];
    let u = &a * (&a6 * inner_u + &a6 * b[7] + &a4 * b[5] + &a2 * b[3] + &id * b[1]);
    // V = A6 (b12 A6 + b10 A4 + b8 A2) + b6 A6 + b4 A4 + b2 A2 + b0 I
    let inner_v = &a6 * b[12] + &a4 * b[10] + &a2 * b[8];
    let v = &a6 * inner_v + &a6 * b[6] + &a4 * b[4] + &a2 * b[2] + &id * b[0];
    let p = &v + &u;
    let q = &v - &u;
    let mut r = q.lu().solve(&p)?;
    for _ in 0..s {
        r = &r * &r;
    }
    r.iter().all(|v| v.is_finite()).then_some(r)
}

/// `(Φ, Ψ) = (exp(A h), ∫₀ʰ exp(A s) ds)` from the exponential of the augmented `2n × 2n`
/// matrix `[[A h, I h], [0, 0]]`. `None` when `A` is not square or not finite, or `h` is not
/// finite.
pub fn zoh_matrices(a: &DMatrix<f64>, h: f64) -> Option<(DMatrix<f64>, DMatrix<f64>)> {
    let n = a.nrows();
    if a.ncols() != n || !h.is_finite() {
        return None;
    }
    let mut aug = DMatrix::<f64>::zeros(2 * n, 2 * n);
    aug.view_mut((0, 0), (n, n)).copy_from(&(a * h));
    for i in 0..n {
        aug[(i, n + i)] = h;
    }
    let e = expm(&aug)?;
    Some((e.view((0, 0), (n, n)).into_owned(), e.view((0, n), (n, n)).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    #[test]
    fn rotation_generator_gives_rotation() {
        // exp([[0, -w], [w, 0]]) is the rotation by w; large w exercises scaling and squaring.
        for w in [1e-3, 0.5, 3.0, 40.0] {
            let e = expm(&dmatrix![0.0, -w; w, 0.0]).unwrap();
            let r = dmatrix![w.cos(), -w.sin(); w.sin(), w.cos()];
            assert!((e - r).amax() < 1e-13 * (1.0 + w), "w = {w}");
        }
    }

    #[test]
    fn double_integrator_zoh_is_polynomial() {
        // A nilpotent: Φ = I + A h, Ψ = I h + A h²/2.
        let a = dmatrix![0.0, 1.0; 0.0, 0.0];
        let h = 0.01;
        let (phi, psi) = zoh_matrices(&a, h).unwrap();
        assert!((phi - dmatrix![1.0, h; 0.0, 1.0]).amax() < 1e-16);
        assert!((psi - dmatrix![h, h * h / 2.0; 0.0, h]).amax() < 1e-17);
    }

    #[test]
    fn scalar_decay_matches_closed_form() {
        // ẋ = −a x: Φ = e^{−ah}, Ψ = (1 − e^{−ah}) / a, for stiff and mild a.
        for (a, h) in [(2.0, 0.1), (500.0, 0.1), (1e-6, 1.0)] {
            let (phi, psi) = zoh_matrices(&dmatrix![-a], h).unwrap();
            let e = (-a * h).exp();
            assert!((phi[(0, 0)] - e).abs() < 1e-15 * (1.0 + e));
            let psi_exact = -(-a * h).exp_m1() / a;
            assert!((psi[(0, 0)] - psi_exact).abs() < 1e-14 * psi_exact, "a = {a}");
        }
    }

    #[test]
    fn refuses_non_finite() {
        assert!(expm(&dmatrix![f64::NAN]).is_none());
        assert!(zoh_matrices(&dmatrix![1.0], f64::INFINITY).is_none());
    }
}
