//! Criterion benchmarks of the MLCP solvers (enum, pgs, newton-fb, lemke) on random MLCPs with a
//! symmetric positive definite `M` (unique solution, PGS convergent), and of the dense QP
//! solver (`qp`) on random feasible strictly convex QPs with n = 10 and 100 (2n inequalities and
//! n/5 equalities, all satisfied by a random point).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nalgebra::DMatrix;
use saltus_numerics::mlcp::{self, Mlcp};
use saltus_numerics::qp::{self, Qp};
use saltus_numerics::IterOptions;
use std::hint::black_box;

/// Deterministic pseudo-random numbers in [−1, 1) (xorshift), so runs compare.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

fn random_mlcp(ne: usize, nc: usize, seed: u64) -> Mlcp {
    let n = ne + nc;
    let mut r = Rng(seed);
    let g = DMatrix::from_fn(n, n, |_, _| r.next());
    let m = &g * g.transpose() / n as f64 + DMatrix::identity(n, n);
    let q: Vec<f64> = (0..n).map(|_| r.next()).collect();
    Mlcp::new(m, q, ne).expect("valid")
}

fn random_qp(n: usize, seed: u64) -> Qp {
    let mut r = Rng(seed);
    let g = DMatrix::from_fn(n, n, |_, _| r.next());
    let q = &g * g.transpose() / n as f64 + DMatrix::identity(n, n) * 0.1;
    let p: Vec<f64> = (0..n).map(|_| r.next()).collect();
    let mi = 2 * n;
    let a = DMatrix::from_fn(mi, n, |_, _| r.next());
    let x0: Vec<f64> = (0..n).map(|_| r.next()).collect();
    let b: Vec<f64> = (0..mi).map(|k| (0..n).map(|j| a[(k, j)] * x0[j]).sum::<f64>() - r.next().abs()).collect();
    let me = n / 5;
    let aeq = DMatrix::from_fn(me, n, |_, _| r.next());
    let beq: Vec<f64> = (0..me).map(|k| (0..n).map(|j| aeq[(k, j)] * x0[j]).sum::<f64>()).collect();
    Qp::new(q, p, a, b, aeq, beq).expect("valid")
}

fn bench_mlcp(c: &mut Criterion) {
    let mut group = c.benchmark_group("mlcp");
    for &(ne, nc) in &[(2usize, 4usize), (5, 10), (10, 16), (20, 60)] {
        let p = random_mlcp(ne, nc, 0x9e37_79b9 + (ne * 100 + nc) as u64);
        for (name, _) in mlcp::SOLVERS {
            if *name == "enum" && nc > 16 {
                continue;
            }
            let solver = mlcp::solver_by_name(name, IterOptions::new(1e-8, 10_000)).expect("catalogue name");
            let mut z = vec![0.0; p.size()];
            let mut w = vec![0.0; p.size()];
            group.bench_with_input(BenchmarkId::new(*name, format!("{ne}+{nc}")), &p, |bch, p| {
                bch.iter(|| black_box(mlcp::solve(p, &mut z, &mut w, &solver).map(|r| r.status)))
            });
        }
    }
    group.finish();
}

fn bench_qp(c: &mut Criterion) {
    let mut group = c.benchmark_group("qp");
    for &n in &[10usize, 100] {
        let p = random_qp(n, 0x1234_5678 + n as u64);
        let solver = qp::solver_by_name("qp", IterOptions::new(1e-9, 10_000)).expect("catalogue name");
        let mut x = vec![0.0; n];
        group.bench_with_input(BenchmarkId::new("qp", n), &p, |bch, p| {
            bch.iter(|| black_box(qp::solve(p, &mut x, &solver).map(|r| r.outcome)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_mlcp, bench_qp);
criterion_main!(benches);
