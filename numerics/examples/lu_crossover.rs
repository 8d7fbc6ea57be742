//! Times one dense LU factorization + solve of `I − c J` with nalgebra and with faer
//! (partial pivoting, `Par::Seq`) for a range of n, best of many. Used to choose the size
//! from which the ODE Newton matrix is factored by faer (`ode::dense_lu::FAER_MIN_N`).
//!
//! `cargo run --release -p saltus-numerics --example lu_crossover`
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::lu::partial_pivoting::{factor as ff, solve as fs};
use faer::{MatMut, MatRef, Par};
use nalgebra::{DMatrix, DVector};
use std::time::Instant;

fn main() {
    for &n in &[4usize, 8, 16, 24, 32, 48, 64, 80, 100, 150, 200, 300] {
        let j =
            DMatrix::from_fn(n, n, |i, k| if i == k { -4.0 } else { (((i * 7 + k * 13) % 11) as f64 - 5.0) / 10.0 });
        let reps = (2_000_000 / (n * n * n / 3 + 100)).clamp(5, 20000);
        let mut best_na = f64::INFINITY;
        let mut best_fa = f64::INFINITY;
        let mut a = vec![0.0; n * n];
        let mut piv = vec![0usize; n];
        let mut pinv = vec![0usize; n];
        let req = ff::lu_in_place_scratch::<usize, f64>(n, n, Par::Seq, Default::default())
            .or(fs::solve_in_place_scratch::<usize, f64>(n, 1, Par::Seq));
        let mut buf = MemBuffer::new(req);
        let mut b = vec![1.0; n];
        for _ in 0..7 {
            let t = Instant::now();
            for _ in 0..reps {
                let mut p = &j * (-0.1);
                for i in 0..n {
                    p[(i, i)] += 1.0;
                }
                let lu = p.lu();
                let mut r = DVector::from_element(n, 1.0);
                lu.solve_mut(&mut r);
                std::hint::black_box(&r);
            }
            best_na = best_na.min(t.elapsed().as_secs_f64() / reps as f64);
            let t = Instant::now();
            for _ in 0..reps {
                for (x, v) in a.iter_mut().zip(j.as_slice()) {
                    *x = v * (-0.1);
                }
                for i in 0..n {
                    a[i * n + i] += 1.0;
                }
                let m = MatMut::from_column_major_slice_mut(&mut a, n, n);
                ff::lu_in_place(m, &mut piv, &mut pinv, Par::Seq, MemStack::new(&mut buf), Default::default());
                b.fill(1.0);
                let lu = MatRef::from_column_major_slice(&a, n, n);
                let perm = faer::perm::PermRef::new_checked(&piv, &pinv, n);
                fs::solve_in_place(
                    lu,
                    lu,
                    perm,
                    MatMut::from_column_major_slice_mut(&mut b, n, 1),
                    Par::Seq,
                    MemStack::new(&mut buf),
                );
                std::hint::black_box(&b);
            }
            best_fa = best_fa.min(t.elapsed().as_secs_f64() / reps as f64);
        }
        println!(
            "n={n:4} nalgebra {:9.2} us  faer {:9.2} us  ratio na/faer {:.2}",
            best_na * 1e6,
            best_fa * 1e6,
            best_na / best_fa
        );
    }
}
