//! Fischer–Burmeister function of the second-order cone for one 3D contact, and its Newton solver.
//!
//! In cone coordinates `x = (μ r_N, r_T) ∈ SOC`, `y = (û_N, μ û_T) ∈ SOC` (so that `x·y = μ r·û`),
//! `Φ = x + y − (x∘x + y∘y)^{1/2}` (Jordan-algebra square root by spectral decomposition).
//! `Φ = 0` iff `SOC ∋ x ⟂ y ∈ SOC`, the De Saxcé form of the Coulomb law for `μ > 0`
//! (`μ = 0`: scalar FB on `(r_N, u_N)` and `r_T = 0`). The Jacobian is a central finite
//! difference of `Φ(r)` (3 unknowns, 6 evaluations), adequate for a semismooth Newton step.

use super::{de_saxce, local_scale, step_from_block};
use nalgebra::{Matrix3, Vector3};

fn soc_sqrt(z: &Vector3<f64>) -> Vector3<f64> {
    let zb = (z[1] * z[1] + z[2] * z[2]).sqrt();
    let l1 = (z[0] - zb).max(0.0).sqrt();
    let l2 = (z[0] + zb).max(0.0).sqrt();
    let (e1, e2) = if zb > 0.0 { (z[1] / zb, z[2] / zb) } else { (1.0, 0.0) };
    Vector3::new(0.5 * (l1 + l2), 0.5 * (l2 - l1) * e1, 0.5 * (l2 - l1) * e2)
}

fn jordan_square(x: &Vector3<f64>) -> Vector3<f64> {
    Vector3::new(x.norm_squared(), 2.0 * x[0] * x[1], 2.0 * x[0] * x[2])
}

/// `Φ_FB(r)` for `u = W r + q`.
pub fn function(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, r: &Vector3<f64>) -> Vector3<f64> {
    let u = w * r + q;
    if mu == 0.0 {
        let fb = r[0] + u[0] - (r[0] * r[0] + u[0] * u[0]).sqrt();
        return Vector3::new(fb, r[1], r[2]);
    }
    let uh = de_saxce(&u, mu);
    let x = Vector3::new(mu * r[0], r[1], r[2]);
    let y = Vector3::new(uh[0], mu * uh[1], mu * uh[2]);
    x + y - soc_sqrt(&(jordan_square(&x) + jordan_square(&y)))
}

/// Newton with finite-difference Jacobian and Armijo backtracking on `½‖Φ‖²`.
pub fn solve(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, r: &mut Vector3<f64>, tol: f64, max_iter: usize) -> bool {
    let rho = step_from_block(w);
    // Φ has velocity units; compare ρΦ with reaction units.
    let mut phi = function(w, q, mu, r);
    let mut psi = 0.5 * phi.norm_squared();
    for _ in 0..max_iter {
        if rho * phi.norm() <= tol * local_scale(r, q, rho) {
            return true;
        }
        let mut j = Matrix3::zeros();
        for k in 0..3 {
            let h = 1e-7 * (1.0 + r[k].abs());
            let mut rp = *r;
            rp[k] += h;
            let mut rm = *r;
            rm[k] -= h;
            let col = (function(w, q, mu, &rp) - function(w, q, mu, &rm)) / (2.0 * h);
            j.set_column(k, &col);
        }
        let d = match j.lu().solve(&(-phi)) {
            Some(d) if d.iter().all(|x| x.is_finite()) => d,
            _ => return false,
        };
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..40 {
            let trial = *r + t * d;
            let p2 = function(w, q, mu, &trial);
            let psi2 = 0.5 * p2.norm_squared();
            if psi2 <= (1.0 - 2.0e-4 * t) * psi {
                *r = trial;
                phi = p2;
                psi = psi2;
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        if !accepted {
            break;
        }
    }
    rho * phi.norm() <= tol * local_scale(r, q, rho)
}
