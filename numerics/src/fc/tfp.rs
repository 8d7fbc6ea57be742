//! Tresca fixed point (Siconos `SICONOS_FRICTION_3D_TFP`, 3D): Coulomb friction as the fixed point of
//! a sequence of Tresca problems.
//!
//! With the slip bounds frozen at `s_α = μ_α r_{α,N}` (from the current reactions), the Tresca
//! problem `u = W r + q`, `0 ≤ r_N ⟂ u_N ≥ 0`, `r_T ∈ D(s) = {‖r_T‖ ≤ s}` with
//! `−u_T ∈ N_{D(s)}(r_T)` is convex (the cone is replaced by a cylinder, a fixed set): it is
//! solved by Gauss–Seidel sweeps over the contacts, each contact's problem
//! `r_α = P_{C(s_α)}(r_α − ρ_α (W_αα r_α + q̃_α))` (`C(s) = ℝ₊ × D(s)`, `q̃_α = q_α + Σ_{β≠α}
//! W_αβ r_β`, `ρ_α = 1 / λ_max(W_αα)` bounded by the largest row sum) iterated to
//! `local_tol`. Then the bounds are updated from the new `r_N` and the next Tresca problem is
//! solved from the current `r`. A fixed point (`s_α = μ_α r_{α,N}` at the solution) solves the
//! Coulomb problem; the outer loop stops on the canonical error [`super::fc_error`], which is the
//! report's residual. Like Siconos's, it converges when the slip bounds settle (moderate `μ`);
//! each outer step is a convex problem, unlike a sweep of NSGS on the cone.

use super::cone::project_on_disk;
use super::residual::fc_error_with_u;
use super::FrictionContact;
use crate::error::{NumericsError, Result};
use crate::report::{FailReason, IterOptions, SolveReport, SolveStatus};
use std::time::Instant;

/// Options of the Tresca fixed point.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TfpOptions {
    /// Tolerance on the canonical error and cap on the Tresca problems (outer steps).
    pub iter: IterOptions,
    /// Start from `r` as given (else from 0).
    pub warm_start: bool,
    /// Gauss–Seidel sweeps per Tresca problem.
    pub inner_sweeps: usize,
    /// Relative tolerance of each contact's projected iteration.
    pub local_tol: f64,
    /// Cap on each contact's projected iterations.
    pub local_max_iter: usize,
}

impl Default for TfpOptions {
    fn default() -> Self {
        TfpOptions {
            iter: IterOptions::new(1e-8, 1000),
            warm_start: false,
            inner_sweeps: 10,
            local_tol: 1e-14,
            local_max_iter: 200,
        }
    }
}

impl TfpOptions {
    /// Default options with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        TfpOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        let bad = |option: &'static str, reason: String| NumericsError::InvalidOption { option, reason };
        if self.inner_sweeps == 0 || self.local_max_iter == 0 {
            return Err(bad("inner_sweeps/local_max_iter", "must be > 0".into()));
        }
        if !(self.local_tol > 0.0 && self.local_tol.is_finite()) {
            return Err(bad("local_tol", format!("must be finite and > 0, got {}", self.local_tol)));
        }
        Ok(())
    }
}

super::options::fc_options!(TfpOptions, warm_start);

crate::set_by_name!(TfpOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "inner_sweeps" => inner_sweeps,
    "local_tol" => local_tol,
    "local_max_iter" => local_max_iter,
});

/// One contact's Tresca problem `r = P_C(r − ρ (w r + q̃))`, `C = ℝ₊ × D(s)`, iterated from `r`.
fn local_tresca(w: &[f64], q: &[f64], s: f64, r: &mut [f64], o: &TfpOptions) {
    let d = r.len();
    // ρ = 1 / (largest absolute row sum) ≤ 1 / λ_max(w): the projected gradient step contracts
    let rows = (0..d).map(|i| (0..d).map(|j| w[i * d + j].abs()).sum::<f64>()).fold(0.0, f64::max);
    if !(rows > 0.0) {
        return;
    }
    let rho = 1.0 / rows;
    let mut next = [0.0; 3];
    for _ in 0..o.local_max_iter {
        for i in 0..d {
            let ui = q[i] + (0..d).map(|j| w[i * d + j] * r[j]).sum::<f64>();
            next[i] = r[i] - rho * ui;
        }
        next[0] = next[0].max(0.0);
        project_on_disk(&mut next[1..d], s);
        let change = (0..d).map(|i| (next[i] - r[i]).abs()).fold(0.0, f64::max);
        let size = (0..d).map(|i| next[i].abs()).fold(0.0, f64::max);
        r.copy_from_slice(&next[..d]);
        if change <= o.local_tol * (1.0 + size) {
            break;
        }
    }
}

/// Solves `p` by the Tresca fixed point; on exit `u = W r + q`.
pub fn solve(p: &FrictionContact, r: &mut [f64], u: &mut [f64], o: &TfpOptions) -> Result<SolveReport> {
    o.validate()?;
    let start = Instant::now();
    let (dim, nc) = (p.dim(), p.n_contacts());
    if !o.warm_start {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    let mut blocks = vec![0.0; nc * dim * dim];
    for a in 0..nc {
        p.w().diag_block(a, dim, &mut blocks[a * dim * dim..(a + 1) * dim * dim]);
    }
    let residual = |r: &[f64], u: &mut [f64]| {
        u.copy_from_slice(p.q());
        p.w().matvec_add(1.0, r, u);
        fc_error_with_u(p, r, u)
    };
    let (mut q_loc, mut s, mut prev) = ([0.0; 3], vec![0.0; nc], r.to_vec());
    let mut err = residual(r, u);
    for k in 0..o.iter.max_iter {
        if err <= o.iter.tol {
            return Ok(SolveReport {
                status: SolveStatus::Converged,
                iterations: k,
                residual: err,
                elapsed: start.elapsed(),
            });
        }
        prev.copy_from_slice(r);
        for (a, sa) in s.iter_mut().enumerate() {
            *sa = p.mu()[a] * r[a * dim].max(0.0);
        }
        for _ in 0..o.inner_sweeps {
            for a in 0..nc {
                p.w().block_row_times(a, dim, r, true, &mut q_loc[..dim]);
                for (i, x) in q_loc[..dim].iter_mut().enumerate() {
                    *x += p.q()[a * dim + i];
                }
                let w = &blocks[a * dim * dim..(a + 1) * dim * dim];
                local_tresca(w, &q_loc[..dim], s[a], &mut r[a * dim..(a + 1) * dim], o);
            }
        }
        err = residual(r, u);
        if !err.is_finite() {
            // the last finite iterate, never a NaN
            r.copy_from_slice(&prev);
            let residual = residual(r, u);
            let status = SolveStatus::Failed(FailReason::NonFinite);
            return Ok(SolveReport { status, iterations: k + 1, residual, elapsed: start.elapsed() });
        }
    }
    let status = if err <= o.iter.tol { SolveStatus::Converged } else { SolveStatus::MaxIterations };
    Ok(SolveReport { status, iterations: o.iter.max_iter, residual: err, elapsed: start.elapsed() })
}
