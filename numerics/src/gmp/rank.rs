//! The factor of an equality block of `W` that tolerates redundant rows.
//!
//! An equality block `W_bb = H_b G_b` (`G_b ≈ M⁻¹ H_bᵀ`) is singular when its bilateral
//! constraints are redundant (a closed loop of joints: the rows of `H_b` are dependent, and so
//! are those of `W_bb` and, for constraints that agree, of the right-hand side). The block
//! Gauss–Seidel first factors it by LU with partial pivoting (the bits of every nonsingular
//! block are unchanged); when LU meets a zero pivot, [`RankFactor`] factors it by LU with
//! complete pivoting, `P W_bb Q = L U`, stopped at the numerical rank `r` (the first pivot
//! `≤ RANK_TOL · max |W_bb|`), and solves `W_bb z = b` with the `r` independent equations and
//! unknowns, `z = 0` on the `m − r` others. For a consistent `b` (redundant constraints that
//! agree) this is an exact solution; otherwise the block's residual `‖W_bb z − b‖` stays in the
//! problem's error and the solve reports it (non-convergence), never a wrong "converged".
//!
//! Why complete pivoting and not a pivoted Cholesky: the joints' `W` is not exactly symmetric
//! (their `G` takes the mid-step rotation, `joints/step.rs`); and the impulses of redundant
//! constraints are not unique whatever the factorisation, so a pseudo-inverse would buy a
//! minimum norm nobody asked for at the price of an SVD.

/// Relative threshold of the rank decision: a pivot below `RANK_TOL · max |a_ij|` ends the
/// factorisation (the rows left are dependent on the others).
pub const RANK_TOL: f64 = 1e-10;

/// `P A Q = L U` with complete pivoting, stopped at the numerical rank of `A`.
#[derive(Debug, Clone)]
pub struct RankFactor {
    /// Order of `A`.
    pub m: usize,
    /// Numerical rank (`< m` for a singular block).
    pub rank: usize,
    /// `rows[i]`: the equation in position `i` (the first `rank` are the independent ones).
    pub rows: Vec<usize>,
    /// `cols[j]`: the unknown in position `j` (the first `rank` are solved for).
    pub cols: Vec<usize>,
    /// `L` (unit lower) and `U` in one column-major `m × m` array, first `rank` columns.
    lu: Vec<f64>,
}

impl RankFactor {
    /// Factors the column-major `m × m` matrix `a`.
    pub fn new(a: &[f64], m: usize) -> RankFactor {
        let mut lu = a.to_vec();
        let mut rows: Vec<usize> = (0..m).collect();
        let mut cols: Vec<usize> = (0..m).collect();
        let tol = RANK_TOL * a.iter().fold(0.0f64, |s, x| s.max(x.abs()));
        let mut rank = m;
        for k in 0..m {
            let (mut p, mut q, mut best) = (k, k, -1.0);
            for j in k..m {
                for i in k..m {
                    let v = lu[i + j * m].abs();
                    if v > best {
                        (p, q, best) = (i, j, v);
                    }
                }
            }
            if !(best > tol) {
                rank = k;
                break;
            }
            if p != k {
                for j in 0..m {
                    lu.swap(k + j * m, p + j * m);
                }
                rows.swap(k, p);
            }
            if q != k {
                for i in 0..m {
                    lu.swap(i + k * m, i + q * m);
                }
                cols.swap(k, q);
            }
            let d = lu[k + k * m];
            for i in k + 1..m {
                lu[i + k * m] /= d;
            }
            for j in k + 1..m {
                let ukj = lu[k + j * m];
                for i in k + 1..m {
                    lu[i + j * m] -= lu[i + k * m] * ukj;
                }
            }
        }
        RankFactor { m, rank, rows, cols, lu }
    }

    /// Solves `A x = b` in place with the independent equations (`x = 0` on the unknowns left
    /// out).
    pub fn solve(&self, b: &mut [f64]) {
        let (m, r, lu) = (self.m, self.rank, &self.lu);
        let mut y: Vec<f64> = self.rows[..r].iter().map(|&i| b[i]).collect();
        for k in 0..r {
            for i in k + 1..r {
                y[i] -= lu[i + k * m] * y[k];
            }
        }
        for k in (0..r).rev() {
            y[k] /= lu[k + k * m];
            for i in 0..k {
                y[i] -= lu[i + k * m] * y[k];
            }
        }
        b.iter_mut().for_each(|x| *x = 0.0);
        for (k, &j) in self.cols[..r].iter().enumerate() {
            b[j] = y[k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `W = H B` (not symmetric) with a repeated row of `H`: rank 2 of 3, a consistent
    /// right-hand side is solved exactly, and a nonsingular matrix is solved as LU would.
    #[test]
    fn redundant_row_is_solved_on_the_independent_ones() {
        let h = [[1.0, 2.0, 0.0, 1.0], [0.0, 1.0, 3.0, -1.0], [1.0, 2.0, 0.0, 1.0]];
        let bm = [[0.5, 0.1, 1.0], [2.0, -0.3, 0.2], [0.0, 1.0, 0.7], [1.5, 0.4, -0.6]];
        let m = 3;
        let mut a = vec![0.0; 9];
        for i in 0..m {
            for j in 0..m {
                a[i + j * m] = (0..4).map(|k| h[i][k] * bm[k][j]).sum();
            }
        }
        let f = RankFactor::new(&a, m);
        assert_eq!(f.rank, 2);
        let z0 = [0.3, -1.2, 0.7];
        let b: Vec<f64> = (0..m).map(|i| (0..m).map(|j| a[i + j * m] * z0[j]).sum()).collect();
        let mut x = b.clone();
        f.solve(&mut x);
        for i in 0..m {
            let wx: f64 = (0..m).map(|j| a[i + j * m] * x[j]).sum();
            assert!((wx - b[i]).abs() < 1e-12 * (1.0 + b[i].abs()), "row {i}: {wx} vs {}", b[i]);
        }
        assert_eq!(x.iter().filter(|v| **v == 0.0).count(), 1, "one unknown left at 0: {x:?}");
        // full rank: the unique solution
        let a2 = [4.0, 1.0, 0.5, 1.0, 3.0, -1.0, 0.0, 2.0, 5.0];
        let f2 = RankFactor::new(&a2, 3);
        assert_eq!(f2.rank, 3);
        let mut x2 = [1.0, 2.0, 3.0];
        f2.solve(&mut x2);
        for i in 0..3 {
            let wx: f64 = (0..3).map(|j| a2[i + j * 3] * x2[j]).sum();
            assert!((wx - [1.0, 2.0, 3.0][i]).abs() < 1e-13);
        }
    }
}
