//! One-contact solvers used inside the Gauss–Seidel sweep: for a single contact with
//! `u = W r + q` (`W` the 3×3 or 2×2 diagonal block, `q` including the other contacts'
//! contributions), find `K ∋ r ⟂ û ∈ K*`.
//!
//! 3D: projection fixed point, Alart–Curnier semismooth Newton, Fischer–Burmeister Newton;
//! 2D: the exact three-regime solution ([`solve_2d`]). nalgebra fixed-size types throughout.

pub mod alart_curnier;
pub mod fischer_burmeister;
pub mod projection;
pub mod slip;
pub mod two_d;

pub use two_d::solve_2d;

use nalgebra::{Matrix3, Vector3};

/// Which one-contact solver a Gauss–Seidel sweep uses in 3D.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalSolver {
    /// Fixed point `r ← P_K(r − ρ û(r))`.
    Projection,
    /// Semismooth Newton on the Alart–Curnier function with an Armijo line search.
    AlartCurnier,
    /// Newton on the Fischer–Burmeister function of the second-order cone.
    FischerBurmeister,
}

/// De Saxcé velocity `û = u + μ ‖u_T‖ e_N`.
pub fn de_saxce(u: &Vector3<f64>, mu: f64) -> Vector3<f64> {
    Vector3::new(u[0] + mu * (u[1] * u[1] + u[2] * u[2]).sqrt(), u[1], u[2])
}

/// Natural-map residual of one contact, `‖r − P_K(r − û)‖`.
pub fn local_residual(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, r: &Vector3<f64>) -> f64 {
    let u = w * r + q;
    let p = super::cone::project_on_cone3(r - de_saxce(&u, mu), mu);
    (r - p).norm()
}

/// Solves one 3D contact in place (warm start `r`); returns `true` when the local residual
/// reached `tol · max(‖r‖, ‖q‖/‖W‖)`-scale (or an exact regime was found). Falls back to the
/// Alart–Curnier Newton and then to the projection iteration when the chosen method fails.
pub fn solve_3d(
    kind: LocalSolver,
    w: &Matrix3<f64>,
    q: &Vector3<f64>,
    mu: f64,
    r: &mut Vector3<f64>,
    tol: f64,
    max_iter: usize,
) -> bool {
    solve_3d_with_inverse(kind, w, w.try_inverse().as_ref(), None, q, mu, r, tol, max_iter)
}

/// [`solve_3d`] with `W⁻¹` given (computed once per contact by the caller; `None` if singular)
/// and, when the block is `diag(w_N, w_T, w_T)` to round-off, its [`slip::IsotropicBlock`].
/// Exact regimes are tried first: separation (`q_N ≥ 0`: `r = 0`), sticking (`r = −W⁻¹ q` in
/// the cone: `u = 0`) and, with the Alart–Curnier solver, sliding: in closed form on an isotropic
/// block ([`slip::IsotropicBlock::slide`]), else on a block that does not couple normal and
/// tangential directions ([`slip::decoupled_slip`], kept when it passes the Alart–Curnier
/// stopping test, else the Newton method starts from the warm start as before).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn solve_3d_with_inverse(
    kind: LocalSolver,
    w: &Matrix3<f64>,
    w_inv: Option<&Matrix3<f64>>,
    iso: Option<&slip::IsotropicBlock>,
    q: &Vector3<f64>,
    mu: f64,
    r: &mut Vector3<f64>,
    tol: f64,
    max_iter: usize,
) -> bool {
    if let Some(x) = closed_form_3d(kind, w_inv, iso, q, mu) {
        *r = x;
        return true;
    }
    solve_3d_iterative(kind, w, q, mu, r, tol, max_iter)
}

/// The closed-form regimes of [`solve_3d_with_inverse`], returned by value (the inlined sweep
/// keeps them in registers): separation (`q_N ≥ 0`: `r = 0`, `û = q + μ‖q_T‖e_N ∈ K*`), sticking
/// (`r = −W⁻¹ q` in the cone: `u = 0`) and, with the Alart–Curnier solver on an isotropic block,
/// sliding ([`slip::IsotropicBlock::slide`]). `None`: none applies.
#[inline(always)]
pub fn closed_form_3d(
    kind: LocalSolver,
    w_inv: Option<&Matrix3<f64>>,
    iso: Option<&slip::IsotropicBlock>,
    q: &Vector3<f64>,
    mu: f64,
) -> Option<Vector3<f64>> {
    if q[0] >= 0.0 {
        return Some(Vector3::zeros());
    }
    if let Some(stick) = w_inv.and_then(|wi| stick_reaction(wi, q, mu)) {
        return Some(stick);
    }
    if kind == LocalSolver::AlartCurnier {
        return iso.and_then(|b| b.slide(q, mu));
    }
    None
}

/// The part of [`solve_3d_with_inverse`] after the closed-form regimes, from the warm start `r`
/// (kept out of line: the sweep inlines only [`closed_form_3d`]).
#[inline(never)]
pub fn solve_3d_iterative(
    kind: LocalSolver,
    w: &Matrix3<f64>,
    q: &Vector3<f64>,
    mu: f64,
    r: &mut Vector3<f64>,
    tol: f64,
    max_iter: usize,
) -> bool {
    if kind == LocalSolver::AlartCurnier {
        if let Some(s) = slip::decoupled_slip(w, q, mu).filter(|s| alart_curnier::accepts(w, q, mu, s, tol)) {
            *r = s;
            return true;
        }
    }
    let ok = match kind {
        LocalSolver::Projection => projection::solve(w, q, mu, r, tol, max_iter),
        LocalSolver::AlartCurnier => alart_curnier::solve(w, q, mu, r, tol, max_iter),
        LocalSolver::FischerBurmeister => fischer_burmeister::solve(w, q, mu, r, tol, max_iter),
    };
    if ok || kind == LocalSolver::Projection {
        return ok;
    }
    let r0 = *r;
    if kind != LocalSolver::AlartCurnier && alart_curnier::solve(w, q, mu, r, tol, max_iter) {
        return true;
    }
    *r = r0;
    projection::solve(w, q, mu, r, tol, 4 * max_iter)
}

/// The sticking solution `r = −W⁻¹ q` (given `W⁻¹`) when it lies in the cone `‖r_T‖ ≤ μ r_N`
/// (then `u = 0`).
#[inline]
pub fn stick_reaction(w_inv: &Matrix3<f64>, q: &Vector3<f64>, mu: f64) -> Option<Vector3<f64>> {
    let r = -(w_inv * q);
    // ‖r_T‖ ≤ μ r_N compared squared (both sides ≥ 0): no square root on the sweep's path.
    let (rt2, bound) = (r[1] * r[1] + r[2] * r[2], mu * r[0]);
    (r[0] >= 0.0 && mu >= 0.0 && rt2 <= bound * bound && r.iter().all(|x| x.is_finite())).then_some(r)
}

/// Local stopping threshold: `tol · max(‖r‖, ρ‖q‖, tiny)` in reaction units.
pub(crate) fn local_scale(r: &Vector3<f64>, q: &Vector3<f64>, rho: f64) -> f64 {
    r.norm().max(rho * q.norm()).max(1e-300)
}

/// A step length `ρ ≈ 1/λ_max(W)` from the Frobenius norm of the block (≥ λ_max for SPD).
pub(crate) fn step_from_block(w: &Matrix3<f64>) -> f64 {
    let n = w.norm();
    if n > 0.0 && n.is_finite() {
        1.0 / n
    } else {
        1.0
    }
}
