//! Friction-contact solvers on generated columns of spheres (10, 100, 1000 contacts).
//!
//! Generator: `saltus_numerics::fc::generate::sphere_column` (block-tridiagonal `W` in sparse
//! block storage, gravity plus a seeded tangential drift so some contacts slide). Each
//! (solver, size) is solved once first and its status / iterations / residual printed, so the
//! figures come with their convergence check.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use saltus_numerics::fc;
use saltus_numerics::IterOptions;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("fc3d_sphere_column");
    g.sample_size(10);
    for n in [10usize, 100, 1000] {
        let p = fc::generate::sphere_column(n, 7).expect("generated problem is valid");
        for s in ["nsgs-ac", "prox", "newton-ac", "admm", "vi-eg"] {
            let solver = fc::solver_by_name(s, IterOptions::new(1e-8, 5000)).expect("catalogue");
            // Converge check (printed with the figures): status, iterations, residual.
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            match fc::solve(&p, &mut r, &mut u, &solver) {
                Ok(rep) => eprintln!(
                    "check {s} n={n}: {:?} {} iterations, residual {:.3e}",
                    rep.status, rep.iterations, rep.residual
                ),
                Err(e) => eprintln!("check {s} n={n}: error {e}"),
            }
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
