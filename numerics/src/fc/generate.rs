//! Generated friction-contact problems for benchmarks and tests: a column of spheres.
//!
//! `n` spheres of unit radius and unit mass (inertia 2/5) stacked on the ground; contact k joins
//! sphere k−1 (k = 0: the ground) and sphere k at their common point, normal `e_z`, contact
//! frame (normal, t1, t2) = (z, x, y). The relative velocity of contact k is
//! `u_k = (v_k + ω_k × (−e_z)) − (v_{k−1} + ω_{k−1} × e_z) = G_k (v, ω)`, and
//! `W = G M⁻¹ Gᵀ` is block tridiagonal with 3×3 blocks (sparse block storage).
//! `q = G v_free` with the gravity increment `−9.81 h` (h = 0.01), a seeded tangential drift
//! in `[−0.15, 0.15]` per sphere so some contacts slide and others stick, and `−10⁻³` on every
//! normal so every contact is active. Friction coefficient 0.3.

use super::FrictionContact;
use crate::error::Result;
use crate::matrix::{BlockCsr, BlockTriplet, Operator};
use nalgebra::{Matrix3, Vector3};

fn skew(v: Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0)
}

/// The column of `n` spheres (`n` contacts, `3n` unknowns) with the drift drawn from `seed`.
pub fn sphere_column(n: usize, seed: u64) -> Result<FrictionContact> {
    let inv_m = 1.0;
    let inv_i = 1.0 / 0.4;
    // World (x, y, z) to contact frame (z, x, y).
    let perm = Matrix3::new(0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0);
    let ez = Vector3::z();
    // Upper body: v − ω × e_z = v + e_z × ω; lower body: −(v + ω × e_z) = −v + e_z × ω.
    let (gv_up, gw_up) = (perm, perm * skew(ez));
    let (gv_low, gw_low) = (-perm, perm * skew(ez));
    let self_up = gv_up * gv_up.transpose() * inv_m + gw_up * gw_up.transpose() * inv_i;
    let self_low = gv_low * gv_low.transpose() * inv_m + gw_low * gw_low.transpose() * inv_i;
    // Contacts k (upper body k) and k+1 (lower body k) share body k.
    let cross = gv_up * gv_low.transpose() * inv_m + gw_up * gw_low.transpose() * inv_i;
    let mut blocks = Vec::with_capacity(3 * n);
    for k in 0..n {
        let mut d = self_up;
        if k + 1 < n {
            d += self_low;
        }
        blocks.push(BlockTriplet { row: k, col: k, values: d.as_slice().to_vec() });
        if k + 1 < n {
            blocks.push(BlockTriplet { row: k, col: k + 1, values: cross.as_slice().to_vec() });
            blocks.push(BlockTriplet { row: k + 1, col: k, values: cross.transpose().as_slice().to_vec() });
        }
    }
    let sizes = vec![3; n];
    let w = BlockCsr::from_triplets(&sizes, &sizes, blocks)?;
    // Linear congruential generator (Knuth's MMIX constants), 53-bit uniform in [−0.5, 0.5).
    let mut state = seed;
    let mut rnd = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) - 0.5
    };
    let h = 1e-2;
    let vel: Vec<Vector3<f64>> = (0..n).map(|_| Vector3::new(0.3 * rnd(), 0.3 * rnd(), -9.81 * h)).collect();
    let mut q = vec![0.0; 3 * n];
    for k in 0..n {
        let lower = if k == 0 { Vector3::zeros() } else { vel[k - 1] };
        let u = perm * (vel[k] - lower);
        q[3 * k..3 * k + 3].copy_from_slice(u.as_slice());
        q[3 * k] -= 1e-3;
    }
    FrictionContact::new(3, Operator::BlockCsr(w), q, vec![0.3; n])
}
