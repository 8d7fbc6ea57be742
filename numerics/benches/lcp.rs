//! Lemke, PGS and Newton-FB on deterministic random dense LCPs, n = 10, 100, 500.
//! `M = AᵀA/n + I` (SPD, condition ≈ 5) with `A`, `q` uniform in [−1, 1] from a fixed xorshift
//! seed, so every solver converges and the solution is unique. Solves reuse one
//! `LcpSolverState` (the kernel's per-step usage).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nalgebra::DMatrix;
use saltus_numerics::lcp::{self, Lcp, LcpSolverState};
use saltus_numerics::report::IterOptions;
use saltus_numerics::Operator;
use std::hint::black_box;

fn problem(n: usize) -> Lcp {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15 ^ n as u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let a = DMatrix::from_fn(n, n, |_, _| next());
    let m = a.transpose() * &a / n as f64 + DMatrix::identity(n, n);
    let q = (0..n).map(|_| next()).collect();
    Lcp::new(Operator::Dense(m), q).expect("finite square data")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("lcp");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(2));
    g.warm_up_time(std::time::Duration::from_millis(300));
    for n in [10, 100, 500] {
        let p = problem(n);
        for name in ["lemke", "pgs", "newton-fb"] {
            let s = lcp::solver_by_name(name, IterOptions::new(1e-8, 100_000)).expect("known solver");
            let mut state = LcpSolverState::new();
            let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
            let rep = lcp::solve_with(&mut state, &p, &mut z, &mut w, &s).expect("valid problem");
            assert!(rep.status.converged(), "{name} n={n}: {rep:?}");
            g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| lcp::solve_with(&mut state, black_box(&p), &mut z, &mut w, &s).map(|r| r.iterations))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
