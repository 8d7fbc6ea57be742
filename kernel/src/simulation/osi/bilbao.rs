//! Moreau–Jean–Bilbao (Siconos `MoreauJeanBilbaoOSI`): the exact scheme of Bilbao for
//! diagonal (modal) linear Lagrangian systems, `M v̇ + C v + K q = F_ext + p` with `M`, `C`, `K`
//! diagonal (Siconos `LagrangianLinearDiagonalDS`), written in Moreau–Jean's velocity form so
//! that impacts enter through the same one-step problem.
//!
//! Per coordinate `k`, with `ω² = K_kk / M_kk` and `σ = C_kk / (2 M_kk)`, the stiffness and
//! damping forces over a step are integrated as
//!
//! `∫ K q ≈ h Θ K q_k + h/2 (1 − Θ) K (q_{k+1} + q_{k−1})`, `∫ C v ≈ Σ* (q_{k+1} − q_{k−1})`
//!
//! with `q_{k+1} = q_k + h v_{k+1}`, `q_{k−1} = q_k − h v_k` and the coefficients
//!
//! `θ = 2/(ω²h²) − A/(1 + e − A)`, `σ* = (1/h + ω²h/2 (1 − θ)) (1 − e)/(1 + e)` (`Σ* = M σ*`),
//! `A = e^{−σh} (e^{√(σ² − ω²) h} + e^{−√(σ² − ω²) h})`, `e = e^{−2σh}`,
//!
//! chosen so that the free oscillation `q̈ + 2σ q̇ + ω² q = 0` is reproduced exactly at the
//! step times, whatever `h` (no numerical dispersion: what makes it the scheme of choice for
//! strings and other modal models). The step is
//!
//! `W (v_{k+1} − v_k) = −h (K q_k − F) − 2 h Σ* v_k + p`, `W = M + h²/2 (1 − Θ) K + h Σ*`,
//! `q_{k+1} = q_k + h v_{k+1}`,
//!
//! with the external force `F = F_ext(t_k + h/2)` (plus the control input): a constant force only
//! shifts the equilibrium, so it too is integrated exactly. For `M = I` (the modal normalization
//! of Siconos's tutorial) `W`, the free velocity and `Θ`, `σ*` are Siconos's; Siconos's code
//! takes the stiffness and damping entries as `ω²` and `2σ` whatever `M`, Saltus divides by `M`.
//! The activation rule of the unilateral interactions is Moreau–Jean's with `γ = ½` (as Siconos).

use super::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use nalgebra::DMatrix;

/// `(1 − θ, h σ*)` of one coordinate (`ω² ≥ 0`, `σ ≥ 0`). For `ω = 0` the stiffness term
/// vanishes and `θ` is not used (`1 − θ = 0`); `h σ* = tanh(σ h)` there (exact for `v̇ = −2σ v`).
pub(crate) fn coefficients(h: f64, omega2: f64, sigma: f64) -> (f64, f64) {
    let e = (-2.0 * sigma * h).exp();
    let ratio = (1.0 - e) / (1.0 + e);
    if omega2 == 0.0 {
        return (0.0, ratio);
    }
    let d = sigma * sigma - omega2;
    let a = if d >= 0.0 {
        2.0 * (-sigma * h).exp() * (d.sqrt() * h).cosh()
    } else {
        2.0 * (-sigma * h).exp() * ((-d).sqrt() * h).cos()
    };
    let res = omega2 * h * h;
    let one_minus_theta = 1.0 - 2.0 / res + a / (1.0 + e - a);
    (one_minus_theta, ratio * (1.0 + 0.5 * res * one_minus_theta))
}

/// The diagonal of `m` (an error naming the system if an off-diagonal entry is not zero).
fn diagonal(m: &DMatrix<f64>, what: &str, w: &DsWork) -> Result<Vec<f64>, KernelError> {
    let n = m.nrows();
    if (0..n).any(|j| (0..n).any(|i| i != j && m[(i, j)] != 0.0)) {
        return Err(KernelError::UnsupportedSystem {
            ds: w.id,
            reason: format!(
                "MoreauJeanBilbaoOSI needs diagonal M, C and K (Siconos LagrangianLinearDiagonalDS); {what} is not \
                 diagonal"
            ),
        });
    }
    Ok((0..n).map(|i| m[(i, i)]).collect())
}

/// Builds the diagonal `W` and the per-coordinate coefficients `(h K_kk, 2 h Σ*_kk)`.
pub(crate) fn init(ds: &DynamicalSystem, w: &mut DsWork, h: f64, t: f64) -> Result<(), KernelError> {
    let DynamicalSystem::LagrangianLinearTi(d) = ds else {
        return Err(super::unsupported(ds, w, "MoreauJeanBilbaoOSI"));
    };
    let n = d.q.len();
    let m = diagonal(&d.mass, "M", w)?;
    let k = d.k.as_ref().map_or(Ok(vec![0.0; n]), |k| diagonal(k, "K", w))?;
    let c = d.c.as_ref().map_or(Ok(vec![0.0; n]), |c| diagonal(c, "C", w))?;
    w.w.fill(0.0);
    w.modal.clear();
    for i in 0..n {
        let (omega2, sigma) = (k[i] / m[i], c[i] / (2.0 * m[i]));
        if !(omega2 >= 0.0 && sigma >= 0.0) {
            return Err(KernelError::UnsupportedSystem {
                ds: w.id,
                reason: format!(
                    "MoreauJeanBilbaoOSI needs M > 0, K ≥ 0, C ≥ 0 on the diagonal; coordinate {i} has M = {}, K = {}, \
                     C = {}",
                    m[i], k[i], c[i]
                ),
            });
        }
        let (one_minus_theta, h_sigma_star) = coefficients(h, omega2, sigma);
        w.w[(i, i)] = m[i] + 0.5 * h * h * one_minus_theta * k[i] + m[i] * h_sigma_star;
        w.modal.push((h * k[i], 2.0 * m[i] * h_sigma_star));
    }
    w.w_constant = true;
    w.linear = true;
    w.factor(t)
}

/// Saves `(q_k, v_k)` and computes the free velocity
/// `v_free = v_k − W⁻¹ (h (K q_k − F) + 2 h Σ* v_k)`, `F = F_ext(t_k + h/2) + g`.
pub(crate) fn begin_step(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64, h: f64) -> Result<(), KernelError> {
    let DynamicalSystem::LagrangianLinearTi(d) = ds else { return Ok(()) };
    w.x_k.copy_from(&d.q);
    w.v_k.copy_from(&d.v);
    w.f_k.fill(0.0);
    let t_half = t_k + 0.5 * h;
    if let Some(f) = &d.f_ext {
        f.eval(t_half, w.f_k.as_mut_slice()).map_err(user_err(t_half, "F_ext", w.id.0))?;
    }
    if let Some(g) = &w.control {
        w.f_k += g;
    }
    for i in 0..w.free.len() {
        let (hk, two_h_sigma_star) = w.modal[i];
        w.free[i] = w.v_k[i] - (hk * w.x_k[i] - h * w.f_k[i] + two_h_sigma_star * w.v_k[i]) / w.w[(i, i)];
    }
    Ok(())
}
