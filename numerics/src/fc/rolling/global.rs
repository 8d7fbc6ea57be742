//! Global rolling friction contact (Siconos `GlobalRollingFrictionContactProblem`, `grfc3d`):
//! the rolling problem of [`super`] with the mass matrix and the relations kept apart,
//!
//! `M v = H r + q`, `u = Hᵀ v + b`, `K_α ∋ r_α ⟂ û_α ∈ K_α*`
//!
//! with `dim` = 5 unknowns per contact in 3D `(N, T₁, T₂, R₁, R₂)` (3 in 2D), the rolling cone
//! `K_α = {r_N ≥ 0, ‖r_T‖ ≤ μ_α r_N, ‖r_R‖ ≤ μ_{r,α} r_N}` and the De Saxcé velocity
//! `û_α = u_α + (μ_α ‖u_{α,T}‖ + μ_{r,α} ‖u_{α,R}‖) e_N`.
//!
//! Solved as Siconos's `GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`: `M` is factorized once, the
//! equivalent local problem `W = Hᵀ M⁻¹ H`, `q_loc = Hᵀ M⁻¹ q + b` goes to the rolling NSGS
//! ([`super::solve`]), then `v = M⁻¹ (H r + q)` and `u = Hᵀ v + b`. The error of a global
//! solution is the rolling error of that local problem at `r` (Siconos's measure, natural map on
//! the rolling cone).

use super::{rfc_error, solve as solve_local, RollingFrictionContact, RollingNsgsOptions};
use crate::error::{check_len, NumericsError, Result};
use crate::fc::global::{check_global_data, Condensation, Triplets};
use crate::fc::problem::check_nonnegative;
use crate::report::SolveReport;

/// The global rolling friction-contact problem `M v = H r + q`, `u = Hᵀ v + b`.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalRollingFrictionContact {
    dim: usize,
    m: Triplets,
    h: Triplets,
    q: Vec<f64>,
    b: Vec<f64>,
    mu: Vec<f64>,
    mu_r: Vec<f64>,
}

impl GlobalRollingFrictionContact {
    /// Checks sizes (`M` n×n, `H` n×(dim·nc), `q` n, `b` dim·nc), finiteness and the signs of
    /// `μ`, `μ_r`; `dim` is 5 (3D) or 3 (2D).
    pub fn new(
        dim: usize,
        m: Triplets,
        h: Triplets,
        q: Vec<f64>,
        b: Vec<f64>,
        mu: Vec<f64>,
        mu_r: Vec<f64>,
    ) -> Result<Self> {
        if dim != 3 && dim != 5 {
            return Err(NumericsError::InvalidOption {
                option: "dim",
                reason: format!("a rolling contact has 5 unknowns (3 in 2D), got {dim}"),
            });
        }
        check_len("mu_r", mu.len(), mu_r.len())?;
        check_global_data(dim, mu.len(), &m, &h, &q, &b)?;
        check_nonnegative("mu", &mu)?;
        check_nonnegative("mu_r", &mu_r)?;
        Ok(GlobalRollingFrictionContact { dim, m, h, q, b, mu, mu_r })
    }
    /// Unknowns per contact (5 or 3).
    pub fn dim(&self) -> usize {
        self.dim
    }
    /// Number of generalized velocities `n`.
    pub fn n_velocities(&self) -> usize {
        self.q.len()
    }
    /// Number of contacts.
    pub fn n_contacts(&self) -> usize {
        self.mu.len()
    }
    /// Number of contact unknowns `dim · nc`.
    pub fn size(&self) -> usize {
        self.b.len()
    }

    /// Factorizes `M` and builds the equivalent local rolling problem
    /// `W = Hᵀ M⁻¹ H`, `q_loc = Hᵀ M⁻¹ q + b`.
    pub fn condense(&self) -> Result<CondensedRolling> {
        let (condensation, w, qloc) = Condensation::new(self.dim, &self.m, &self.h, &self.q, &self.b)?;
        let local = RollingFrictionContact::new(self.dim, w, qloc, self.mu.clone(), self.mu_r.clone())?;
        Ok(CondensedRolling { local, condensation })
    }
}

/// A global rolling problem with `M` factorized and its equivalent local problem.
pub struct CondensedRolling {
    local: RollingFrictionContact,
    condensation: Condensation,
}

impl CondensedRolling {
    /// The equivalent local problem.
    pub fn local(&self) -> &RollingFrictionContact {
        &self.local
    }
    /// `v = M⁻¹ (H r + q)`.
    pub fn velocity(&self, r: &[f64], v: &mut [f64]) {
        self.condensation.velocity(r, v)
    }
}

/// Error of a global rolling solution: Siconos's rolling error of the equivalent local problem
/// at `r`.
pub fn grfc_error(c: &CondensedRolling, r: &[f64]) -> f64 {
    rfc_error(c.local(), r)
}

/// Solves the global rolling problem by condensation and the rolling NSGS (Siconos
/// `GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`): on exit `r`, `u = Hᵀ v + b` and `v`; `r` is the
/// initial guess when `opts.warm_start`. The report's residual is [`grfc_error`].
pub fn solve_global(
    p: &GlobalRollingFrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    v: &mut [f64],
    opts: &RollingNsgsOptions,
) -> Result<SolveReport> {
    check_len("r", p.size(), r.len())?;
    check_len("u", p.size(), u.len())?;
    check_len("v", p.n_velocities(), v.len())?;
    let start = std::time::Instant::now();
    let c = p.condense()?;
    let mut local_u = vec![0.0; p.size()];
    let mut rep = solve_local(c.local(), r, &mut local_u, opts)?;
    c.velocity(r, v);
    if v.iter().any(|x| !x.is_finite()) {
        v.iter_mut().for_each(|x| *x = 0.0);
    }
    u.copy_from_slice(&p.b);
    p.h.tr_matvec_add(v, u);
    rep.elapsed = start.elapsed();
    Ok(rep)
}
