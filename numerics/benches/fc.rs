//! Friction-contact solvers on generated columns of spheres (10, 100, 1000 contacts).
//!
//! Generator: `N` spheres of unit radius stacked on the ground, each with translational and
//! rotational velocity; contact k joins sphere k−1 (k = 0: the ground) and sphere k at their
//! common point, normal `e_z`. `H_k` maps body velocities to the contact's relative
//! (normal, t1, t2) velocity including `ω × r`; `W = H M⁻¹ Hᵀ` (block tridiagonal, 3×3 blocks),
//! `q = H v_free` with gravity and a seeded tangential drift so some contacts slide.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use saltus_numerics::fc;
use saltus_numerics::IterOptions;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("fc3d_sphere_column");
    g.sample_size(10);
    for n in [10usize, 100, 1000] {
        let p = fc::generate::sphere_column(n, 7).expect("generated problem is valid");
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
