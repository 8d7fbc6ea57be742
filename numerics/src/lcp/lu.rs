//! A reusable dense LU factorization with partial pivoting (`P A = L U`), in place in a
//! workspace so that repeated solves do not allocate once the workspace has grown.
//!
//! Below [`FAER_MIN_N`] a plain right-looking loop is used; from there on faer's blocked
//! in-place LU (sequential, so results do not depend on the thread count), which measured
//! faster at n = 100 and much faster at n = 500 (newton-fb bench).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::lu::partial_pivoting::{factor as faer_factor, solve as faer_solve};
use faer::{MatMut, MatRef, Par};

/// Size from which the faer kernel is used.
pub(crate) const FAER_MIN_N: usize = 100;

/// Column-major `n × n` storage plus row pivots. Crate-internal workspace.
#[derive(Debug, Clone, Default)]
pub(crate) struct DenseLu {
    n: usize,
    a: Vec<f64>,
    piv: Vec<usize>,
    perm_inv: Vec<usize>,
}

impl DenseLu {
    /// Resizes to `n × n`, zeroes, and returns the column-major storage to fill.
    pub fn matrix_mut(&mut self, n: usize) -> &mut [f64] {
        self.n = n;
        self.a.clear();
        self.a.resize(n * n, 0.0);
        self.piv.clear();
        self.piv.resize(n, 0);
        self.perm_inv.clear();
        self.perm_inv.resize(n, 0);
        &mut self.a
    }

    /// Factorizes in place. `Err(k)` when the pivot of column `k` is `<= rel_tol · max|A|`
    /// (numerically singular).
    pub fn factor(&mut self, rel_tol: f64) -> Result<(), usize> {
        let n = self.n;
        let a = &mut self.a;
        let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let thresh = rel_tol * scale;
        if scale == 0.0 && n > 0 {
            return Err(0);
        }
        if n >= FAER_MIN_N {
            let req = faer_factor::lu_in_place_scratch::<usize, f64>(n, n, Par::Seq, Default::default());
            let mut buf = MemBuffer::new(req);
            let m = MatMut::from_column_major_slice_mut(a.as_mut_slice(), n, n);
            faer_factor::lu_in_place(
                m,
                &mut self.piv,
                &mut self.perm_inv,
                Par::Seq,
                MemStack::new(&mut buf),
                Default::default(),
            );
            return match (0..n).find(|&k| !(a[k * n + k].abs() > thresh)) {
                Some(k) => Err(k),
                None => Ok(()),
            };
        }
        for k in 0..n {
            // pivot search in column k
            let col = &a[k * n..(k + 1) * n];
            let (mut p, mut best) = (k, col[k].abs());
            for (i, v) in col.iter().enumerate().skip(k + 1) {
                if v.abs() > best {
                    best = v.abs();
                    p = i;
                }
            }
            if !(best > thresh) {
                return Err(k);
            }
            self.piv[k] = p;
            if p != k {
                for j in 0..n {
                    a.swap(j * n + k, j * n + p);
                }
            }
            let inv = 1.0 / a[k * n + k];
            for v in &mut a[k * n + k + 1..(k + 1) * n] {
                *v *= inv;
            }
            let (left, right) = a.split_at_mut((k + 1) * n);
            let lcol = &left[k * n + k + 1..(k + 1) * n];
            for j in 0..n - k - 1 {
                let cj = &mut right[j * n..(j + 1) * n];
                let f = cj[k];
                if f != 0.0 {
                    for (x, l) in cj[k + 1..].iter_mut().zip(lcol) {
                        *x -= f * l;
                    }
                }
            }
        }
        Ok(())
    }

    /// Solves `A x = b` in place with the factorization of [`DenseLu::factor`].
    pub fn solve(&self, b: &mut [f64]) {
        let n = self.n;
        let a = &self.a;
        if n >= FAER_MIN_N {
            let lu = MatRef::from_column_major_slice(a.as_slice(), n, n);
            // piv / perm_inv were written by faer_factor::lu_in_place and form a valid permutation
            let perm = faer::perm::PermRef::new_checked(&self.piv, &self.perm_inv, n);
            let mut buf = MemBuffer::new(faer_solve::solve_in_place_scratch::<usize, f64>(n, 1, Par::Seq));
            let rhs = MatMut::from_column_major_slice_mut(&mut b[..n], n, 1);
            faer_solve::solve_in_place(lu, lu, perm, rhs, Par::Seq, MemStack::new(&mut buf));
            return;
        }
        for k in 0..n {
            let p = self.piv[k];
            if p != k {
                b.swap(k, p);
            }
        }
        // L y = b (unit lower), column oriented
        for k in 0..n {
            let bk = b[k];
            if bk != 0.0 {
                for (bi, l) in b[k + 1..n].iter_mut().zip(&a[k * n + k + 1..(k + 1) * n]) {
                    *bi -= bk * l;
                }
            }
        }
        // U x = y
        for k in (0..n).rev() {
            b[k] /= a[k * n + k];
            let bk = b[k];
            if bk != 0.0 {
                for (bi, u) in b[..k].iter_mut().zip(&a[k * n..k * n + k]) {
                    *bi -= bk * u;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_pivoting_system() {
        // A = [[0, 2, 1], [1, 1, 0], [3, 0, 1]] needs a row exchange at the first pivot.
        let rows = [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]];
        let x = [1.0, -2.0, 0.5];
        let mut lu = DenseLu::default();
        let a = lu.matrix_mut(3);
        for i in 0..3 {
            for j in 0..3 {
                a[i + 3 * j] = rows[i][j];
            }
        }
        lu.factor(1e-14).unwrap();
        let mut b: Vec<f64> = rows.iter().map(|r| r.iter().zip(&x).map(|(a, b)| a * b).sum()).collect();
        lu.solve(&mut b);
        for i in 0..3 {
            assert!((b[i] - x[i]).abs() < 1e-14);
        }
        let a = lu.matrix_mut(2);
        a.copy_from_slice(&[1.0, 2.0, 2.0, 4.0]);
        assert_eq!(lu.factor(1e-14), Err(1));
    }

    #[test]
    fn faer_path_solves_a_large_system() {
        let n = FAER_MIN_N + 20;
        let mut lu = DenseLu::default();
        let entry = |i: usize, j: usize| if i == j { 3.0 } else { (((i * 7 + j * 13) % 11) as f64 - 5.0) / 10.0 };
        let a = lu.matrix_mut(n);
        for j in 0..n {
            for i in 0..n {
                a[i + j * n] = entry(i, j);
            }
        }
        lu.factor(1e-14).unwrap();
        let x: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
        let mut b: Vec<f64> = (0..n).map(|i| (0..n).map(|j| entry(i, j) * x[j]).sum()).collect();
        lu.solve(&mut b);
        for i in 0..n {
            assert!((b[i] - x[i]).abs() < 1e-12, "{i}: {} vs {}", b[i], x[i]);
        }
    }
}
