//! Friction-contact solvers on generated columns of spheres (10, 100, 1000 contacts).
//!
//! Generator: `N` spheres of unit radius stacked on the ground, each with translational and
//! rotational velocity; contact k joins sphere k−1 (k = 0: the ground) and sphere k at their
//! common point, normal `e_z`. `H_k` maps body velocities to the contact's relative
//! (normal, t1, t2) velocity including `ω × r`; `W = H M⁻¹ Hᵀ` (block tridiagonal, 3×3 blocks),
//! `q = H v_free` with gravity and a seeded tangential drift so some contacts slide.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nalgebra::{Matrix3, Vector3};
use saltus_numerics::fc::{self, FrictionContact};
use saltus_numerics::matrix::BlockTriplet;
use saltus_numerics::{BlockCsr, IterOptions, Operator};

fn skew(v: Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0)
}

/// Column of `n` spheres (n contacts), mass 1, radius 1, inertia 2/5.
pub fn sphere_column(n: usize, seed: u64) -> FrictionContact {
    let inv_m = 1.0;
    let inv_i = 1.0 / 0.4;
    // Contact k: upper body k (arm −e_z), lower body k−1 (arm +e_z). Relative velocity
    // u = (v_k + ω_k × (−e_z)) − (v_{k−1} + ω_{k−1} × e_z), i.e. blocks G_up = [I, skew(e_z)],
    // G_low = −[I, −skew(e_z)]. Contact frame = world frame with the normal first: (z, x, y).
    let perm = Matrix3::new(0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0);
    let ez = Vector3::z();
    let gv_up = perm;
    let gw_up = perm * skew(ez); // ω × (−e_z) = e_z × ω = skew(e_z) ω
    let gv_low = -perm;
    let gw_low = perm * skew(ez); // −(ω × e_z) = e_z × ω
    // Body-space contribution of each contact's Jacobian pair to W blocks.
    let self_up = gv_up * gv_up.transpose() * inv_m + gw_up * gw_up.transpose() * inv_i;
    let self_low = gv_low * gv_low.transpose() * inv_m + gw_low * gw_low.transpose() * inv_i;
    let cross = gv_up * gv_low.transpose() * inv_m + gw_up * gw_low.transpose() * inv_i; // through body k (upper of k, lower of k+1)
    let mut blocks = Vec::new();
    for k in 0..n {
        let mut d = self_up;
        if k + 1 < n {
            d += self_low;
        }
        blocks.push(BlockTriplet { row: k, col: k, values: d.as_slice().to_vec() });
        if k + 1 < n {
            // contact k (upper body k) and contact k+1 (lower body k) share body k.
            blocks.push(BlockTriplet { row: k, col: k + 1, values: cross.as_slice().to_vec() });
            blocks.push(BlockTriplet { row: k + 1, col: k, values: cross.transpose().as_slice().to_vec() });
        }
    }
    let sizes = vec![3; n];
    let w = BlockCsr::from_triplets(&sizes, &sizes, blocks).expect("generated blocks are consistent");
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
        q[3 * k] -= 1e-3; // slight interpenetration velocity so every contact is active
    }
    FrictionContact::new(3, Operator::BlockCsr(w), q, vec![0.3; n]).expect("generated problem is valid")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("fc3d_sphere_column");
    g.sample_size(10);
    for n in [10usize, 100, 1000] {
        let p = sphere_column(n, 7);
        for s in ["nsgs-ac", "newton-ac", "vi-eg"] {
            let solver = fc::solver_by_name(s, IterOptions::new(1e-8, 5000)).expect("catalogue");
            g.bench_with_input(BenchmarkId::new(s, n), &p, |b, p| {
                b.iter(|| {
                    let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
                    fc::solve(p, &mut r, &mut u, &solver).map(|rep| rep.residual)
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
