//! Dense, allocation-free linear algebra of the position projection: an in-place Cholesky
//! factorization of the top-left block of a preallocated matrix, and Murty's least-index
//! principal pivoting method for the mixed problem
//!
//! ```text
//! w = G μ + y₀,   w_e = 0 (μ_e free) on the equality rows e < n_eq,
//!                 0 ≤ w_u ⊥ μ_u ≥ 0  on the unilateral rows u ≥ n_eq,
//! ```
//!
//! with `G = H M⁻¹ Hᵀ` symmetric positive definite. Murty's method flips, at each pivot, the
//! smallest-index unilateral row that violates `μ_u ≥ 0` (basic) or `w_u ≥ 0` (non-basic); for
//! a P-matrix (the Schur complement of the equality rows of an SPD `G` is SPD) it terminates
//! from any starting basis (K. G. Murty, *Linear Complementarity, Linear and Nonlinear
//! Programming*, 1988, §4.2).

use nalgebra::DMatrix;

/// `a[..n, ..n] = L Lᵀ` in place (the lower triangle holds `L`); `Err(i)` if the pivot of row `i`
/// is not positive (the matrix is not positive definite to working precision).
pub(crate) fn cholesky_in_place(a: &mut DMatrix<f64>, n: usize) -> Result<(), usize> {
    let scale = (0..n).map(|i| a[(i, i)].abs()).fold(0.0, f64::max);
    for j in 0..n {
        let mut d = a[(j, j)];
        for k in 0..j {
            d -= a[(j, k)] * a[(j, k)];
        }
        if d.is_nan() || d <= 1e-14 * scale || !d.is_finite() {
            return Err(j);
        }
        let d = d.sqrt();
        a[(j, j)] = d;
        for i in j + 1..n {
            let mut s = a[(i, j)];
            for k in 0..j {
                s -= a[(i, k)] * a[(j, k)];
            }
            a[(i, j)] = s / d;
        }
    }
    Ok(())
}

/// `b ← (L Lᵀ)⁻¹ b` with the factor left by [`cholesky_in_place`] in `l[..n, ..n]`.
pub(crate) fn cholesky_solve(l: &DMatrix<f64>, n: usize, b: &mut [f64]) {
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= l[(i, k)] * b[k];
        }
        b[i] = s / l[(i, i)];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= l[(k, i)] * b[k];
        }
        b[i] = s / l[(i, i)];
    }
}

/// Why the mixed problem could not be solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PivotError {
    /// The basic submatrix of `G` is not positive definite at this row (redundant constraints).
    Singular(usize),
    /// Murty's method exceeded its pivot budget (only possible when `G` is not a P-matrix).
    Cycling,
}

/// Workspace of the mixed problem, sized once for `n_max` rows.
#[derive(Debug)]
pub(crate) struct Pivot {
    work: DMatrix<f64>,
    basic: Vec<bool>,
    idx: Vec<usize>,
    rhs: Vec<f64>,
}

impl Pivot {
    pub fn new(n_max: usize) -> Self {
        Pivot {
            work: DMatrix::zeros(n_max, n_max),
            basic: vec![false; n_max],
            idx: Vec::with_capacity(n_max),
            rhs: vec![0.0; n_max],
        }
    }

    /// Solves the mixed problem on `g[..n, ..n]`, `y0[..n]` (the first `n_eq` rows equalities)
    /// into `mu[..n]`, `w[..n]`; every unilateral row starts basic (the violated constraints are
    /// expected to be active). Returns the number of pivots.
    pub fn solve(
        &mut self,
        g: &DMatrix<f64>,
        y0: &[f64],
        n: usize,
        n_eq: usize,
        mu: &mut [f64],
        w: &mut [f64],
    ) -> Result<usize, PivotError> {
        self.basic[..n].fill(true);
        let scale = y0[..n].iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let eps = 1e-13 * scale.max(f64::MIN_POSITIVE);
        // Murty's method needs at most 2^(n − n_eq) pivots in theory; in practice a few.
        let budget = 10 * n + 10;
        for pivots in 0..budget {
            self.idx.clear();
            self.idx.extend((0..n).filter(|&a| self.basic[a]));
            let nb = self.idx.len();
            for (r, &a) in self.idx.iter().enumerate() {
                for (c, &b) in self.idx.iter().enumerate() {
                    self.work[(r, c)] = g[(a, b)];
                }
                self.rhs[r] = -y0[a];
            }
            cholesky_in_place(&mut self.work, nb).map_err(|r| PivotError::Singular(self.idx[r]))?;
            cholesky_solve(&self.work, nb, &mut self.rhs[..nb]);
            mu[..n].fill(0.0);
            for (r, &a) in self.idx.iter().enumerate() {
                mu[a] = self.rhs[r];
            }
            for a in 0..n {
                let mut s = y0[a];
                for b in 0..n {
                    s += g[(a, b)] * mu[b];
                }
                w[a] = s;
            }
            let flip = (n_eq..n).find(|&a| if self.basic[a] { mu[a] < -eps } else { w[a] < -eps });
            match flip {
                None => {
                    for (m, &b) in mu[n_eq..n].iter_mut().zip(&self.basic[n_eq..n]) {
                        if b {
                            *m = m.max(0.0);
                        }
                    }
                    return Ok(pivots);
                }
                Some(a) => self.basic[a] = !self.basic[a],
            }
        }
        Err(PivotError::Cycling)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    #[test]
    fn cholesky_solves_an_spd_system_and_rejects_a_singular_one() {
        let a = dmatrix![4.0, 2.0, 0.0; 2.0, 5.0, 1.0; 0.0, 1.0, 3.0];
        let mut l = a.clone();
        cholesky_in_place(&mut l, 3).unwrap();
        let mut b = [1.0, -2.0, 0.5];
        cholesky_solve(&l, 3, &mut b);
        let r = &a * nalgebra::DVector::from_column_slice(&b);
        for (ri, bi) in r.iter().zip([1.0, -2.0, 0.5]) {
            assert!((ri - bi).abs() < 1e-14);
        }
        let mut s = dmatrix![1.0, 1.0; 1.0, 1.0];
        assert_eq!(cholesky_in_place(&mut s, 2), Err(1));
    }

    #[test]
    fn mixed_problem_satisfies_equalities_and_complementarity() {
        // one equality row, two unilateral rows: the second is released (μ would be < 0)
        let g = dmatrix![2.0, 0.5, 0.3; 0.5, 1.0, 0.9; 0.3, 0.9, 1.5];
        let y0 = [0.2, -0.1, 0.4];
        let mut p = Pivot::new(3);
        let (mut mu, mut w) = ([0.0; 3], [0.0; 3]);
        p.solve(&g, &y0, 3, 1, &mut mu, &mut w).unwrap();
        assert!(w[0].abs() < 1e-14);
        for a in 1..3 {
            assert!(mu[a] >= 0.0 && w[a] >= -1e-14 && (mu[a] * w[a]).abs() < 1e-14, "{mu:?} {w:?}");
        }
        assert!(mu[1] > 0.0 && mu[2] == 0.0);
    }
}
