//! Matrix storages shared by the problems: dense, and sparse block-row ([`BlockCsr`]).
//!
//! Iterative solvers work on both through [`Operator`]; pivoting and enumerative solvers need
//! [`Operator::Dense`] and return [`crate::NumericsError::Unsupported`] for block storage.

mod block_csr;
mod coupling;

pub(crate) use block_csr::block3_times;
pub use block_csr::{BlockCsr, BlockCsrParts, BlockTriplet};
pub use coupling::{Coupling, CouplingGraph, NO_SYSTEM};
use nalgebra::DMatrix;

/// A problem matrix: dense or sparse block-row.
#[derive(Debug, Clone, PartialEq)]
pub enum Operator {
    /// Dense column-major storage.
    Dense(DMatrix<f64>),
    /// Sparse block-row storage.
    BlockCsr(BlockCsr),
}

impl From<DMatrix<f64>> for Operator {
    fn from(m: DMatrix<f64>) -> Self {
        Operator::Dense(m)
    }
}

impl From<BlockCsr> for Operator {
    fn from(m: BlockCsr) -> Self {
        Operator::BlockCsr(m)
    }
}

impl Operator {
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        match self {
            Operator::Dense(m) => m.nrows(),
            Operator::BlockCsr(m) => m.nrows(),
        }
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        match self {
            Operator::Dense(m) => m.ncols(),
            Operator::BlockCsr(m) => m.ncols(),
        }
    }
    /// Storage name for messages: `"dense"` or `"sparse block"`.
    pub fn storage_name(&self) -> &'static str {
        match self {
            Operator::Dense(_) => "dense",
            Operator::BlockCsr(_) => "sparse block",
        }
    }
    /// The dense matrix, or `Unsupported` naming `solver`.
    pub fn dense(&self, solver: &'static str) -> crate::Result<&DMatrix<f64>> {
        match self {
            Operator::Dense(m) => Ok(m),
            Operator::BlockCsr(_) => Err(crate::NumericsError::Unsupported {
                solver,
                what: "sparse block storage (convert with Operator::to_dense first)".into(),
            }),
        }
    }
    /// Calls `f(i, j, a_ij)` for every nonzero entry, row by row (columns in increasing order
    /// within a block row's blocks).
    pub fn for_each_nonzero(&self, mut f: impl FnMut(usize, usize, f64)) {
        match self {
            Operator::Dense(a) => {
                for i in 0..a.nrows() {
                    for j in 0..a.ncols() {
                        if a[(i, j)] != 0.0 {
                            f(i, j, a[(i, j)]);
                        }
                    }
                }
            }
            Operator::BlockCsr(b) => {
                let (rs, cs) = (b.row_starts(), b.col_starts());
                for r in 0..b.n_block_rows() {
                    let h = rs[r + 1] - rs[r];
                    for i in 0..h {
                        for k in b.row_blocks(r) {
                            let c = b.block_col(k);
                            let v = b.block_values(k);
                            for j in 0..cs[c + 1] - cs[c] {
                                if v[i + j * h] != 0.0 {
                                    f(rs[r] + i, cs[c] + j, v[i + j * h]);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    /// A dense copy.
    pub fn to_dense(&self) -> DMatrix<f64> {
        match self {
            Operator::Dense(m) => m.clone(),
            Operator::BlockCsr(m) => m.to_dense(),
        }
    }
    /// `y = A x`.
    pub fn matvec(&self, x: &[f64], y: &mut [f64]) {
        y.iter_mut().for_each(|v| *v = 0.0);
        self.matvec_add(1.0, x, y);
    }
    /// `y += alpha A x`.
    pub fn matvec_add(&self, alpha: f64, x: &[f64], y: &mut [f64]) {
        match self {
            Operator::Dense(m) => {
                for (j, &xj) in x.iter().enumerate() {
                    let axj = alpha * xj;
                    if axj != 0.0 {
                        for (yi, mij) in y.iter_mut().zip(m.column(j).iter()) {
                            *yi += mij * axj;
                        }
                    }
                }
            }
            Operator::BlockCsr(m) => m.matvec_add(alpha, x, y),
        }
    }
    /// `y += alpha Aᵀ x`.
    pub fn tr_matvec_add(&self, alpha: f64, x: &[f64], y: &mut [f64]) {
        match self {
            Operator::Dense(m) => {
                for (j, yj) in y.iter_mut().enumerate() {
                    let s: f64 = m.column(j).iter().zip(x).map(|(a, b)| a * b).sum();
                    *yj += alpha * s;
                }
            }
            Operator::BlockCsr(m) => m.tr_matvec_add(alpha, x, y),
        }
    }
    /// `true` if the matrix has a uniform square `bs × bs` block structure usable by block
    /// iterative solvers (always true for a square dense matrix whose size is a multiple of `bs`).
    pub fn has_uniform_blocks(&self, bs: usize) -> bool {
        match self {
            Operator::Dense(m) => m.nrows() == m.ncols() && bs > 0 && m.nrows() % bs == 0,
            Operator::BlockCsr(m) => m.is_uniform(bs),
        }
    }
    /// `out = A[rows of block r, :] x` for a uniform block size `bs`, leaving out the diagonal
    /// block's columns when `skip_diag` (the Gauss–Seidel off-diagonal product).
    pub fn block_row_times(&self, r: usize, bs: usize, x: &[f64], skip_diag: bool, out: &mut [f64]) {
        match self {
            Operator::Dense(m) => {
                let r0 = r * bs;
                out[..bs].iter_mut().for_each(|v| *v = 0.0);
                for (j, &xj) in x.iter().enumerate() {
                    if xj == 0.0 || (skip_diag && j >= r0 && j < r0 + bs) {
                        continue;
                    }
                    let col = m.column(j);
                    for i in 0..bs {
                        out[i] += col[r0 + i] * xj;
                    }
                }
            }
            Operator::BlockCsr(m) => m.row_times(r, x, skip_diag, out),
        }
    }
    /// The diagonal `bs × bs` block of block row `r`, column-major into `out` (zeros if absent).
    pub fn diag_block(&self, r: usize, bs: usize, out: &mut [f64]) {
        match self {
            Operator::Dense(m) => {
                let r0 = r * bs;
                for j in 0..bs {
                    for i in 0..bs {
                        out[i + j * bs] = m[(r0 + i, r0 + j)];
                    }
                }
            }
            Operator::BlockCsr(m) => match m.find_block(r, r) {
                Some(k) => out[..bs * bs].copy_from_slice(m.block_values(k)),
                None => out[..bs * bs].iter_mut().for_each(|v| *v = 0.0),
            },
        }
    }
    /// Index of the first non-finite entry, if any.
    pub fn first_non_finite(&self) -> Option<usize> {
        match self {
            Operator::Dense(m) => m.iter().position(|x| !x.is_finite()),
            Operator::BlockCsr(m) => m.values().iter().position(|x| !x.is_finite()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_block_agree() {
        let d = DMatrix::from_fn(6, 6, |i, j| ((i * 7 + j * 3) % 5) as f64 - 2.0);
        let b = Operator::BlockCsr(BlockCsr::from_dense(&d, &[2, 2, 2], &[2, 2, 2]).unwrap());
        let o = Operator::Dense(d);
        let x: Vec<f64> = (0..6).map(|i| i as f64 * 0.5 - 1.0).collect();
        let (mut y1, mut y2) = (vec![0.0; 6], vec![0.0; 6]);
        o.matvec(&x, &mut y1);
        b.matvec(&x, &mut y2);
        assert_eq!(y1, y2);
        let (mut t1, mut t2) = (vec![0.0; 6], vec![0.0; 6]);
        o.tr_matvec_add(2.0, &x, &mut t1);
        b.tr_matvec_add(2.0, &x, &mut t2);
        assert_eq!(t1, t2);
        for r in 0..3 {
            let (mut a1, mut a2) = ([0.0; 2], [0.0; 2]);
            o.block_row_times(r, 2, &x, true, &mut a1);
            b.block_row_times(r, 2, &x, true, &mut a2);
            assert_eq!(a1, a2);
            let (mut d1, mut d2) = ([0.0; 4], [0.0; 4]);
            o.diag_block(r, 2, &mut d1);
            b.diag_block(r, 2, &mut d2);
            assert_eq!(d1, d2);
        }
        assert!(b.dense("lemke").is_err());
    }

    /// The unrolled 3 × 3 path of `row_times` gives the dense products to round-off (it sums
    /// each block's product before adding it to the row sum).
    #[test]
    fn three_by_three_rows_agree() {
        let d = DMatrix::from_fn(9, 9, |i, j| {
            if (i / 3 + j / 3) % 3 == 1 {
                0.0
            } else {
                ((i * 5 + j * 7) % 11) as f64 * 0.37 - 1.3
            }
        });
        let b = Operator::BlockCsr(BlockCsr::from_dense(&d, &[3, 3, 3], &[3, 3, 3]).unwrap());
        let o = Operator::Dense(d);
        let x: Vec<f64> = (0..9).map(|i| (i as f64).sin()).collect();
        for r in 0..3 {
            for skip in [false, true] {
                let (mut a1, mut a2) = ([0.0; 3], [0.0; 3]);
                o.block_row_times(r, 3, &x, skip, &mut a1);
                b.block_row_times(r, 3, &x, skip, &mut a2);
                for (p, q) in a1.iter().zip(&a2) {
                    assert!((p - q).abs() <= 1e-14 * p.abs().max(1.0), "row {r}: {a1:?} vs {a2:?}");
                }
            }
        }
    }
}
