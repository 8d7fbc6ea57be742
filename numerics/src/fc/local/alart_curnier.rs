//! Alart–Curnier function of one 3D contact and its semismooth Newton solver.
//!
//! With `z_N = r_N − ρ_N u_N`, `z_T = r_T − ρ_T u_T` and the disk radius `R = μ max(0, z_N)`:
//! `Φ_N = r_N − max(0, z_N)`, `Φ_T = r_T − P_{D(R)}(z_T)`. `Φ(r, u) = 0` with `u = W r + q`
//! is the Coulomb law (equivalently `K ∋ r ⟂ û ∈ K*`).

use super::local_scale;

/// Relative level of `‖Φ‖` accepted when Newton cannot decrease it further (roundoff floor).
const ROUNDOFF: f64 = 1e-11;
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};

/// Value of the Alart–Curnier function and its generalized partial Jacobians
/// `A = ∂Φ/∂r`, `B = ∂Φ/∂u`.
pub fn function(
    r: &Vector3<f64>,
    u: &Vector3<f64>,
    mu: f64,
    rho_n: f64,
    rho_t: f64,
) -> (Vector3<f64>, Matrix3<f64>, Matrix3<f64>) {
    let mut phi = Vector3::zeros();
    let mut a = Matrix3::zeros();
    let mut b = Matrix3::zeros();
    let zn = r[0] - rho_n * u[0];
    if zn > 0.0 {
        phi[0] = rho_n * u[0];
        b[(0, 0)] = rho_n;
    } else {
        phi[0] = r[0];
        a[(0, 0)] = 1.0;
    }
    let zt = Vector2::new(r[1] - rho_t * u[1], r[2] - rho_t * u[2]);
    let radius = mu * zn.max(0.0);
    let nz = zt.norm();
    if nz <= radius {
        phi[1] = rho_t * u[1];
        phi[2] = rho_t * u[2];
        b[(1, 1)] = rho_t;
        b[(2, 2)] = rho_t;
    } else {
        let n = if nz > 0.0 { zt / nz } else { Vector2::zeros() };
        let p = radius * n;
        phi[1] = r[1] - p[0];
        phi[2] = r[2] - p[1];
        let qm = if nz > 0.0 { (radius / nz) * (Matrix2::identity() - n * n.transpose()) } else { Matrix2::zeros() };
        let g = if zn > 0.0 { mu } else { 0.0 };
        for i in 0..2 {
            for j in 0..2 {
                a[(1 + i, 1 + j)] = if i == j { 1.0 } else { 0.0 } - qm[(i, j)];
                b[(1 + i, 1 + j)] = rho_t * qm[(i, j)];
            }
            a[(1 + i, 0)] = -g * n[i];
            b[(1 + i, 0)] = g * rho_n * n[i];
        }
    }
    (phi, a, b)
}

/// `(ρ_N, ρ_T) = (1/W_NN, 1/λ_max(W_TT))`, falling back to 1 on non-positive values.
pub fn rho_from_block(w: &Matrix3<f64>) -> (f64, f64) {
    let rn = if w[(0, 0)] > 0.0 { 1.0 / w[(0, 0)] } else { 1.0 };
    let (a, b, c, d) = (w[(1, 1)], w[(1, 2)], w[(2, 1)], w[(2, 2)]);
    let tr = 0.5 * (a + d);
    let det = a * d - 0.5 * (b + c) * 0.5 * (b + c);
    let lmax = tr + (tr * tr - det).max(0.0).sqrt();
    let rt = if lmax > 0.0 && lmax.is_finite() { 1.0 / lmax } else { rn };
    (rn, rt)
}

/// Whether `r` passes the stopping test of [`solve`]: `‖Φ(r, W r + q)‖ ≤ tol · max(‖r‖, ρ_N ‖q‖)`.
pub fn accepts(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, r: &Vector3<f64>, tol: f64) -> bool {
    let (rho_n, rho_t) = rho_from_block(w);
    let (phi, _, _) = function(r, &(w * r + q), mu, rho_n, rho_t);
    phi.norm() <= tol * local_scale(r, q, rho_n)
}

/// Semismooth Newton on `Φ(r, W r + q) = 0` with an Armijo backtracking line search on
/// `ψ = ½‖Φ‖²`. Returns `true` when `‖Φ‖ ≤ tol · scale`.
pub fn solve(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, r: &mut Vector3<f64>, tol: f64, max_iter: usize) -> bool {
    let (rho_n, rho_t) = rho_from_block(w);
    let eval = |r: &Vector3<f64>| function(r, &(w * r + q), mu, rho_n, rho_t);
    let (mut phi, mut a, mut b) = eval(r);
    let mut psi = 0.5 * phi.norm_squared();
    for _ in 0..max_iter {
        if phi.norm() <= tol * local_scale(r, q, rho_n) {
            return true;
        }
        let j = a + b * w;
        // Closed-form 3×3 inverse (cofactors; `None` on a zero determinant), with partial-pivoting
        // LU as the fallback when the cofactor result is not finite.
        let d = match j.try_inverse().map(|ji| ji * (-phi)).filter(|d| d.iter().all(|x| x.is_finite())) {
            Some(d) => d,
            None => match j.lu().solve(&(-phi)) {
                Some(d) if d.iter().all(|x| x.is_finite()) => d,
                _ => return false,
            },
        };
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..40 {
            let trial = *r + t * d;
            let (p2, a2, b2) = eval(&trial);
            let psi2 = 0.5 * p2.norm_squared();
            if psi2 <= (1.0 - 2.0e-4 * t) * psi {
                *r = trial;
                phi = p2;
                a = a2;
                b = b2;
                psi = psi2;
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        if !accepted {
            // No decrease possible: converged to roundoff if Φ is tiny.
            return phi.norm() <= ROUNDOFF.max(tol) * local_scale(r, q, rho_n);
        }
    }
    phi.norm() <= ROUNDOFF.max(tol) * local_scale(r, q, rho_n)
}
