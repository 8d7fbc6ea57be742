//! Moreau–Jean linearization of a `LagrangianCompliantR` (`y = h(t, q, λ)`, λ the force).
//!
//! At the Newton iterate `(q_i, λ_i)` of a step (`λ_i = P_i/h`, `P` the impulse the one-step
//! problem solves for), with `C_i = ∇_q h`, `D_i = ∇_λ h` there, the velocity-level output is
//!
//! `ẏ_{k+1} = C_i v_{k+1} + (D_i/h²)(P_{k+1} − P_k) + ρ_i/h`,
//! `ρ_i = h(q_i, λ_i) − h(q_k, λ_k) − C_i (q_i − q_k) − D_i (λ_i − λ_k)`,
//!
//! so the problem's diagonal block is `C_i W⁻¹ C_iᵀ + D_i/h²` (as for
//! `LagrangianCompliantLinearTIR`, whose `D/h²` this generalizes) and the free output gets
//! `−(D_i/h²) P_k + ρ_i/h`. At the converged iterate with `θ = 1` the output is the secant rate
//! `(h(q_{k+1}, λ_{k+1}) − h(q_k, λ_k))/h`: a persistent contact keeps `h(q, λ)` constant to the
//! Newton tolerance, whatever `h`.
//!
//! `ρ_i` is a difference of computed terms; a component below their rounding error
//! (`8 (n + m + 2) ε Σ|terms|`) carries no information and is set to zero, so an affine `h`
//! gives exactly the one-step problems, and so the bits, of `LagrangianCompliantLinearTIR`.

use super::interaction_work::checked;
use crate::error::KernelError;
use crate::model::relation::LagrangianCompliantR;
use nalgebra::{DMatrix, DVector, DVectorViewMut};

/// The memories and linearization of one compliant interaction (empty for other relations).
#[derive(Default)]
pub(crate) struct CompliantWork {
    /// Time step `h` (λ = P/h).
    h: f64,
    /// `q_k`, `λ_k = P_k/h` and `y_k = h(t_k, q_k, λ_k)` at the start of the step.
    q_k: DVector<f64>,
    lambda_k: DVector<f64>,
    y_k: DVector<f64>,
    /// `λ_i = P_i/h`, `h(q_i, λ_i)` at the iterate, and the remainder `ρ_i`.
    lambda_i: DVector<f64>,
    y_i: DVector<f64>,
    rho: DVector<f64>,
    /// `λ = 0`, for the rigid gap `h(t, q, 0)`.
    zero: DVector<f64>,
}

impl CompliantWork {
    /// The workspace of a relation of output size `m` on `n` coordinates, time step `h`.
    pub fn new(m: usize, n: usize, h: f64) -> Self {
        CompliantWork {
            h,
            q_k: DVector::zeros(n),
            lambda_k: DVector::zeros(m),
            y_k: DVector::zeros(m),
            lambda_i: DVector::zeros(m),
            y_i: DVector::zeros(m),
            rho: DVector::zeros(m),
            zero: DVector::zeros(m),
        }
    }

    /// Start of a step at `t_k`: keeps `q_k`, `λ_k = P_k/h` and `y_k = h(t_k, q_k, λ_k)`.
    pub fn begin_step(
        &mut self,
        r: &LagrangianCompliantR,
        t_k: f64,
        q: &[f64],
        p_k: &DVector<f64>,
        id: u32,
    ) -> Result<(), KernelError> {
        self.q_k.as_mut_slice().copy_from_slice(q);
        self.lambda_k.copy_from(p_k);
        self.lambda_k /= self.h;
        let res = (r.h)(t_k, q, self.lambda_k.as_slice(), self.y_k.as_mut_slice());
        checked(res, self.y_k.as_slice(), t_k, "h(q, λ) at the start of the step", id)
    }

    /// Linearization at the iterate `(q_i, P_i/h)`: `C_i` into `jac`, `D_i/h²` into `d`, and `ρ_i`.
    #[allow(clippy::too_many_arguments)]
    pub fn linearize(
        &mut self,
        r: &LagrangianCompliantR,
        t: f64,
        q: &[f64],
        p_i: &DVector<f64>,
        jac: &mut DMatrix<f64>,
        d: &mut DMatrix<f64>,
        id: u32,
    ) -> Result<(), KernelError> {
        self.lambda_i.copy_from(p_i);
        self.lambda_i /= self.h;
        let l = self.lambda_i.as_slice();
        checked((r.jac_q)(t, q, l, jac), jac.as_slice(), t, "Jacobian of h(q, λ) wrt q", id)?;
        checked((r.jac_lambda)(t, q, l, d), d.as_slice(), t, "Jacobian of h(q, λ) wrt λ", id)?;
        checked((r.h)(t, q, l, self.y_i.as_mut_slice()), self.y_i.as_slice(), t, "h(q, λ)", id)?;
        let (m, n) = jac.shape();
        let tol = 8.0 * (n + m + 2) as f64 * f64::EPSILON;
        for j in 0..m {
            let mut rho = self.y_i[j] - self.y_k[j];
            let mut size = self.y_i[j].abs() + self.y_k[j].abs();
            for c in 0..n {
                rho -= jac[(j, c)] * (q[c] - self.q_k[c]);
                size += jac[(j, c)].abs() * (q[c].abs() + self.q_k[c].abs());
            }
            for c in 0..m {
                rho -= d[(j, c)] * (self.lambda_i[c] - self.lambda_k[c]);
                size += d[(j, c)].abs() * (self.lambda_i[c].abs() + self.lambda_k[c].abs());
            }
            self.rho[j] = if rho.abs() <= tol * size { 0.0 } else { rho };
        }
        // D λ̇ ≈ D (P_{k+1} − P_k)/h², as LagrangianCompliantLinearTIR
        *d /= self.h * self.h;
        Ok(())
    }

    /// Adds `ρ_i/h` to the free output `o` (nothing when `ρ_i = 0`).
    pub fn add_remainder(&self, o: &mut DVectorViewMut<f64>) {
        for (oj, rj) in o.iter_mut().zip(self.rho.iter()) {
            if *rj != 0.0 {
                *oj += rj / self.h;
            }
        }
    }

    /// The rigid gap `h(t, q, 0)` into `y0`.
    pub fn rigid_gap(
        &self,
        r: &LagrangianCompliantR,
        t: f64,
        q: &[f64],
        y0: &mut DVector<f64>,
        id: u32,
    ) -> Result<(), KernelError> {
        checked((r.h)(t, q, self.zero.as_slice(), y0.as_mut_slice()), y0.as_slice(), t, "h(q, 0)", id)
    }
}
