//! Small dense LU with partial pivoting on column-major buffers, allocation-free, shared by the
//! MLCP solvers (the enumeration solves thousands of small systems).

/// Factors the `n×n` column-major matrix `a` in place (`P A = L U`), pivots in `piv`.
/// Returns `Err(k)` when pivot `k` is below `tiny` in absolute value.
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize], tiny: f64) -> Result<(), usize> {
    for k in 0..n {
        let col = k * n;
        let mut p = k;
        let mut best = a[col + k].abs();
        for i in k + 1..n {
            let v = a[col + i].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if !(best > tiny) {
            return Err(k);
        }
        piv[k] = p;
        if p != k {
            for j in 0..n {
                a.swap(j * n + k, j * n + p);
            }
        }
        let inv = 1.0 / a[col + k];
        for i in k + 1..n {
            a[col + i] *= inv;
        }
        for j in k + 1..n {
            let f = a[j * n + k];
            if f != 0.0 {
                let (left, right) = a.split_at_mut(j * n);
                let lk = &left[col + k + 1..col + n];
                for (x, &l) in right[k + 1..n].iter_mut().zip(lk) {
                    *x -= f * l;
                }
            }
        }
    }
    Ok(())
}

/// Solves `A x = b` in place in `b` with the factors of [`lu_factor`].
pub fn lu_solve(a: &[f64], n: usize, piv: &[usize], b: &mut [f64]) {
    for k in 0..n {
        b.swap(k, piv[k]);
    }
    for j in 0..n {
        let bj = b[j];
        if bj != 0.0 {
            for i in j + 1..n {
                b[i] -= a[j * n + i] * bj;
            }
        }
    }
    for j in (0..n).rev() {
        b[j] /= a[j * n + j];
        let bj = b[j];
        if bj != 0.0 {
            for i in 0..j {
                b[i] -= a[j * n + i] * bj;
            }
        }
    }
}

/// Largest absolute entry of a slice (0 for an empty one).
pub fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lu_solves_a_pivoting_system() {
        // A = [[0, 2], [3, 1]] (column-major [0, 3, 2, 1]); x = (1, 2) gives b = (4, 5).
        let mut a = vec![0.0, 3.0, 2.0, 1.0];
        let mut piv = [0; 2];
        lu_factor(&mut a, 2, &mut piv, 1e-300).unwrap();
        let mut b = vec![4.0, 5.0];
        lu_solve(&a, 2, &piv, &mut b);
        assert!((b[0] - 1.0).abs() < 1e-14 && (b[1] - 2.0).abs() < 1e-14);
    }

    #[test]
    fn lu_reports_singular_pivot() {
        let mut a = vec![1.0, 2.0, 2.0, 4.0];
        let mut piv = [0; 2];
        assert_eq!(lu_factor(&mut a, 2, &mut piv, 1e-12), Err(1));
    }
}
