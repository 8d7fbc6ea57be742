//! `LagrangianCompliantR` (Siconos): a nonlinear compliant Lagrangian relation `y = h(q, λ)`.

use super::userfn::{PairMatFn, PairVecFn, UserResult};
use nalgebra::DMatrix;
use std::sync::Arc;

/// `y = h(t, q, λ)`, `p = ∇_q hᵀ λ` (Siconos `LagrangianCompliantR`), where `λ` is the contact
/// force, with the Jacobians `C = ∇_q h` (m×n) and `D = ∇_λ h` (m×m, a compliance: symmetric
/// positive semi-definite where the contact is loaded). `h(t, q, 0)` is the rigid gap.
///
/// With `0 ≤ y ⊥ λ ≥ 0` a loaded contact sits where `h(q, λ) = 0`: for a Hertz-like floor
/// `h(q, λ) = g(q) + δ(λ)` with `δ` the penetration under the force `λ`. Moreau–Jean
/// (`simulation::compliant`) linearizes `h` at the Newton iterate `(q_i, λ_i)` of the step:
/// the velocity-level output is
/// `ẏ_{k+1} = C_i v_{k+1} + (D_i/h²)(P_{k+1} − P_k) + ρ_i/h`, with `P = h λ` the impulse and
/// `ρ_i = h(q_i, λ_i) − h(q_k, λ_k) − C_i (q_i − q_k) − D_i (λ_i − λ_k)` the linearization
/// remainder. At the converged iterate with `θ = 1` (`q_{k+1} = q_k + h v_{k+1}`) this is the
/// secant rate `(h(q_{k+1}, λ_{k+1}) − h(q_k, λ_k))/h`, so a persistent contact (`ẏ = 0`) keeps
/// `h(q, λ)` exactly constant; an affine `h` gives `LagrangianCompliantLinearTIR`.
/// `t` is passed to every function; an explicit time dependence enters through `ρ`.
#[derive(Clone)]
pub struct LagrangianCompliantR {
    /// Output size `m`.
    pub size: usize,
    /// `y = h(t, q, λ)` (m).
    pub h: PairVecFn,
    /// `C = ∇_q h(t, q, λ)` (m×n).
    pub jac_q: PairMatFn,
    /// `D = ∇_λ h(t, q, λ)` (m×m).
    pub jac_lambda: PairMatFn,
}

impl LagrangianCompliantR {
    /// `y = h(t, q, λ)` of size `size` with `C = ∇_q h` and `D = ∇_λ h`.
    pub fn new(
        size: usize,
        h: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_q: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        jac_lambda: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        LagrangianCompliantR { size, h: Arc::new(h), jac_q: Arc::new(jac_q), jac_lambda: Arc::new(jac_lambda) }
    }
}

impl std::fmt::Debug for LagrangianCompliantR {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LagrangianCompliantR").field("size", &self.size).finish_non_exhaustive()
    }
}
