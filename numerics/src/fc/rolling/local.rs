//! The one-contact rolling problem `u = W_αα r + q̃`, `K ∋ r ⟂ û ∈ K*`, solved by projection
//! on the rolling cone with local iterations (Siconos
//! `ROLLING_FRICTION_3D_ONECONTACT_ProjectionOnConeWithLocalIteration`), after two exact
//! checks: separation (`q̃_N ≥ 0`: `r = 0`) and sticking and rolling without slip
//! (`r = −W_αα⁻¹ q̃` when it lies in `K`: then `u = 0`).
//!
//! Otherwise, a fixed point on the De Saxcé shift `c = μ‖u_T‖ + μ_r‖u_R‖` (as in Siconos's
//! fixed-point formulations of the De Saxcé law): with `c` frozen the problem
//! `u = W_αα r + q̃ + c e_N`, `K ∋ r ⟂ u ∈ K*` is a convex one (a QP on the cone when `W_αα` is
//! symmetric), solved by the projected iteration `r ← P^D_K(r − ρ D u(r))` in the metric of
//! `D⁻¹`, `D = diag(1/W_NN, 1/w_T, 1/w_T, 1/w_R, 1/w_R)` (`w_T`, `w_R` the means of the
//! tangential and rolling diagonal entries); then `c` is updated from the new `u` until it no
//! longer moves. A fixed point of both is a solution: `r = P^D_K(r − ρ D û)` is
//! `⟨û, s − r⟩ ≥ 0` for all `s ∈ K`. Why not the projection with `û` updated at every
//! iteration (Siconos's local iteration): from `r = 0` the shift of `u = q̃` can exceed `−q̃_N`
//! and hold the iterate near 0 (a sphere sliding while its rolling sticks, test
//! `single_contact_sliding`); a contact without normal reaction starts from `c = 0`. Why the
//! metric: the rolling entries of `W_αα` are `1/I` against `1/m + R²/I` for the tangential ones,
//! orders of magnitude apart for small bodies, and one scalar step would crawl. The metric
//! projection is the Euclidean one in the scaled unknowns `D^{-1/2} r`, on the rolling cone of
//! coefficients `μ √(D_N/D_T)`, `μ_r √(D_N/D_R)`; the step is `ρ = 2/(λ_min + λ_max)` of
//! `D^{1/2} W_αα D^{1/2}`.

use super::cone::{in_rolling_cone, project_on_rolling_cone};
use nalgebra::DMatrix;

/// What the local solver keeps of one contact for a whole solve.
#[derive(Debug, Clone)]
pub(super) struct LocalContact {
    d: usize,
    /// `W_αα`, column-major.
    w: [f64; 25],
    /// `W_αα⁻¹` (column-major), `None` when the block is singular.
    w_inv: Option<[f64; 25]>,
    /// `√D_i`.
    sqrt_d: [f64; 5],
    rho: f64,
    mu: f64,
    mu_r: f64,
    /// The scaled cone's coefficients.
    mu_s: f64,
    mu_r_s: f64,
}

impl LocalContact {
    /// Precomputes the block's data (`block` column-major, `d × d`).
    pub(super) fn new(block: &[f64], d: usize, mu: f64, mu_r: f64) -> Self {
        let k = (d - 1) / 2;
        let m = DMatrix::from_column_slice(d, d, block);
        let mut w = [0.0; 25];
        w[..d * d].copy_from_slice(block);
        let mean = |r: std::ops::Range<usize>| {
            let n = r.len() as f64;
            r.map(|i| m[(i, i)]).sum::<f64>() / n
        };
        let diag = [m[(0, 0)], mean(1..1 + k), mean(1 + k..d)];
        let inv = |x: f64| if x > 0.0 && x.is_finite() { 1.0 / x } else { 1.0 };
        let (dn, dt, dr) = (inv(diag[0]), inv(diag[1]), inv(diag[2]));
        let mut sqrt_d = [0.0; 5];
        for (i, sd) in sqrt_d.iter_mut().enumerate().take(d) {
            *sd = if i == 0 {
                dn.sqrt()
            } else if i <= k {
                dt.sqrt()
            } else {
                dr.sqrt()
            };
        }
        let sym = (&m + m.transpose()) * 0.5;
        let mut s = sym.clone();
        for i in 0..d {
            for j in 0..d {
                s[(i, j)] *= sqrt_d[i] * sqrt_d[j];
            }
        }
        let eig = s.symmetric_eigenvalues();
        let (lmin, lmax) = (eig.min().max(0.0), eig.max());
        let rho = if lmax > 0.0 { 2.0 / (lmin + lmax) } else { 1.0 };
        let w_inv = m.clone().try_inverse().filter(|i| i.iter().all(|x| x.is_finite())).map(|i| {
            let mut a = [0.0; 25];
            a[..d * d].copy_from_slice(i.as_slice());
            a
        });
        LocalContact {
            d,
            w,
            w_inv,
            sqrt_d,
            rho,
            mu,
            mu_r,
            mu_s: mu * (dn / dt).sqrt(),
            mu_r_s: mu_r * (dn / dr).sqrt(),
        }
    }

    #[inline]
    fn times(&self, a: &[f64; 25], x: &[f64], out: &mut [f64; 5]) {
        let d = self.d;
        *out = [0.0; 5];
        for j in 0..d {
            for i in 0..d {
                out[i] += a[i + j * d] * x[j];
            }
        }
    }

    /// Solves the one-contact problem for `q̃ = qt`, starting from `r` (overwritten). Returns
    /// `true` when it ended on an exact case or when two iterates differ by at most
    /// `tol · ‖r‖` within `max_iter` iterations.
    pub(super) fn solve(&self, qt: &[f64], r: &mut [f64], tol: f64, max_iter: usize) -> bool {
        let d = self.d;
        if qt[0] >= 0.0 {
            r.iter_mut().for_each(|x| *x = 0.0);
            return true;
        }
        if let Some(wi) = &self.w_inv {
            let mut rs = [0.0; 5];
            self.times(wi, qt, &mut rs);
            rs[..d].iter_mut().for_each(|x| *x = -*x);
            if in_rolling_cone(&rs[..d], self.mu, self.mu_r, 0.0) {
                r.copy_from_slice(&rs[..d]);
                return true;
            }
        }
        // Outer fixed point on the De Saxcé shift c = μ‖u_T‖ + μ_r‖u_R‖, inner projected
        // iterations on the convex problem with c frozen. A contact without normal reaction
        // starts from c = 0: from r = 0 the shift of u = q̃ can exceed −q̃_N and hold r at 0.
        let mut u = [0.0; 5];
        let mut c = if r[0] > 0.0 { self.shift(r, qt, &mut u) } else { 0.0 };
        let qn = qt[..d].iter().map(|v| v * v).sum::<f64>().sqrt();
        for _ in 0..max_iter {
            let inner = self.inner(qt, c, r, tol, max_iter);
            let c_new = self.shift(r, qt, &mut u);
            let done = inner && (c_new - c).abs() <= tol * (c_new.abs() + qn);
            c = c_new;
            if done {
                return true;
            }
        }
        false
    }

    /// `μ‖u_T‖ + μ_r‖u_R‖` at `u = W_αα r + q̃` (written to `u`).
    fn shift(&self, r: &[f64], qt: &[f64], u: &mut [f64; 5]) -> f64 {
        let d = self.d;
        let k = (d - 1) / 2;
        self.times(&self.w, r, u);
        for i in 0..d {
            u[i] += qt[i];
        }
        let nt = u[1..1 + k].iter().map(|v| v * v).sum::<f64>().sqrt();
        let nr = u[1 + k..d].iter().map(|v| v * v).sum::<f64>().sqrt();
        self.mu * nt + self.mu_r * nr
    }

    /// Projected iterations `r ← P^D_K(r − ρ D (W_αα r + q̃ + c e_N))` until two iterates differ
    /// by at most `tol · ‖r‖`.
    fn inner(&self, qt: &[f64], c: f64, r: &mut [f64], tol: f64, max_iter: usize) -> bool {
        let d = self.d;
        let mut u = [0.0; 5];
        let mut y = [0.0; 5];
        for _ in 0..max_iter {
            self.times(&self.w, r, &mut u);
            for i in 0..d {
                u[i] += qt[i];
            }
            u[0] += c;
            for i in 0..d {
                let di = self.sqrt_d[i] * self.sqrt_d[i];
                y[i] = (r[i] - self.rho * di * u[i]) / self.sqrt_d[i];
            }
            project_on_rolling_cone(&mut y[..d], self.mu_s, self.mu_r_s);
            let mut diff = 0.0;
            let mut norm = 0.0;
            for i in 0..d {
                let ri = y[i] * self.sqrt_d[i];
                diff += (ri - r[i]) * (ri - r[i]);
                norm += ri * ri;
                r[i] = ri;
            }
            if diff <= tol * tol * norm {
                return true;
            }
        }
        false
    }
}
