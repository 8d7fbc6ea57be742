//! Sparse block-row storage: block CSR of small dense blocks (the Siconos "SBM").

use crate::error::{NumericsError, Result};
use nalgebra::DMatrix;

/// A sparse matrix made of dense blocks arranged in block rows (block CSR).
///
/// Block row `r` covers rows `row_starts[r]..row_starts[r+1]`, block column `c` covers columns
/// `col_starts[c]..col_starts[c+1]`. Stored block `k` of block row `r` (for
/// `k in row_ptr[r]..row_ptr[r+1]`) sits in block column `col_idx[k]`; its values are
/// `values[val_ptr[k]..val_ptr[k+1]]`, column-major inside the block. Block columns are sorted
/// within a block row and appear once (duplicates are summed at assembly).
#[derive(Debug, Clone, PartialEq)]
pub struct BlockCsr {
    row_starts: Vec<usize>,
    col_starts: Vec<usize>,
    row_ptr: Vec<usize>,
    col_idx: Vec<usize>,
    val_ptr: Vec<usize>,
    values: Vec<f64>,
    /// Every block is 3 × 3 and row and column blocks coincide (set by the constructors):
    /// selects the unrolled products.
    uniform3: bool,
}

/// One block given to [`BlockCsr::from_triplets`]: block row, block column, values column-major.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockTriplet {
    /// Block row index.
    pub row: usize,
    /// Block column index.
    pub col: usize,
    /// Block values, column-major, of length `height * width` of that block position.
    pub values: Vec<f64>,
}

/// The raw arrays of a [`BlockCsr`], with the meaning given on the type: `row_starts` /
/// `col_starts` (first scalar row / column of each block row / column, plus the total),
/// `row_ptr` (stored blocks of block row `r` are `row_ptr[r]..row_ptr[r + 1]`), `col_idx` (block
/// column of each stored block), `val_ptr` (values of block `k` are
/// `values[val_ptr[k]..val_ptr[k + 1]]`, column-major).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockCsrParts {
    /// First scalar row of each block row, plus the number of rows.
    pub row_starts: Vec<usize>,
    /// First scalar column of each block column, plus the number of columns.
    pub col_starts: Vec<usize>,
    /// Stored-block range of each block row (length: block rows + 1).
    pub row_ptr: Vec<usize>,
    /// Block column of each stored block.
    pub col_idx: Vec<usize>,
    /// Value range of each stored block (length: blocks + 1).
    pub val_ptr: Vec<usize>,
    /// Block values, column-major inside each block.
    pub values: Vec<f64>,
}

fn starts_from_sizes(sizes: &[usize]) -> Vec<usize> {
    let mut s = Vec::with_capacity(sizes.len() + 1);
    s.push(0);
    for &k in sizes {
        s.push(s.last().copied().unwrap_or(0) + k);
    }
    s
}

impl BlockCsr {
    /// Assembles from block triplets; blocks at the same (row, col) are summed.
    ///
    /// `row_sizes[r]` is the height of block row `r`, `col_sizes[c]` the width of block column `c`.
    pub fn from_triplets(row_sizes: &[usize], col_sizes: &[usize], mut blocks: Vec<BlockTriplet>) -> Result<Self> {
        let row_starts = starts_from_sizes(row_sizes);
        let col_starts = starts_from_sizes(col_sizes);
        for b in &blocks {
            if b.row >= row_sizes.len() {
                return Err(NumericsError::DimensionMismatch {
                    what: "block row index",
                    expected: row_sizes.len(),
                    found: b.row,
                });
            }
            if b.col >= col_sizes.len() {
                return Err(NumericsError::DimensionMismatch {
                    what: "block column index",
                    expected: col_sizes.len(),
                    found: b.col,
                });
            }
            let len = row_sizes[b.row] * col_sizes[b.col];
            if b.values.len() != len {
                return Err(NumericsError::DimensionMismatch {
                    what: "block values",
                    expected: len,
                    found: b.values.len(),
                });
            }
        }
        // Stable sort keeps the given order among duplicates, so the sum is deterministic.
        blocks.sort_by_key(|b| (b.row, b.col));
        let nbr = row_sizes.len();
        let mut row_ptr = vec![0usize; nbr + 1];
        let mut col_idx = Vec::with_capacity(blocks.len());
        let mut val_ptr = vec![0usize];
        let mut values = Vec::new();
        let mut last: Option<(usize, usize)> = None;
        for b in blocks {
            if last == Some((b.row, b.col)) {
                let start = val_ptr[val_ptr.len() - 2];
                for (dst, src) in values[start..].iter_mut().zip(&b.values) {
                    *dst += *src;
                }
                continue;
            }
            last = Some((b.row, b.col));
            row_ptr[b.row + 1] += 1;
            col_idx.push(b.col);
            values.extend_from_slice(&b.values);
            val_ptr.push(values.len());
        }
        for r in 0..nbr {
            row_ptr[r + 1] += row_ptr[r];
        }
        Ok(BlockCsr { row_starts, col_starts, row_ptr, col_idx, val_ptr, values, uniform3: false }.with_uniform3())
    }

    /// Assembles from raw block-CSR arrays (see [`BlockCsrParts`]), checking the structure:
    /// starts begin at 0 and never decrease, `row_ptr` has one entry per block row plus one,
    /// block columns are strictly increasing within a block row, and every block has the size of
    /// its position. Lets a time-stepping loop assemble in place and reuse the buffers of the
    /// previous step ([`BlockCsr::into_parts`]) without allocating.
    pub fn from_parts(parts: BlockCsrParts) -> Result<Self> {
        let BlockCsrParts { row_starts, col_starts, row_ptr, col_idx, val_ptr, values } = parts;
        let bad = |what: &'static str, expected: usize, found: usize| {
            Err(NumericsError::DimensionMismatch { what, expected, found })
        };
        for (what, s) in [("row_starts", &row_starts), ("col_starts", &col_starts)] {
            if s.first() != Some(&0) {
                return bad(what, 0, s.first().copied().unwrap_or(usize::MAX));
            }
            if let Some(i) = s.windows(2).position(|w| w[1] < w[0]) {
                return bad(what, s[i], s[i + 1]);
            }
        }
        let (nbr, nbc) = (row_starts.len() - 1, col_starts.len() - 1);
        if row_ptr.len() != nbr + 1 {
            return bad("row_ptr length (block rows + 1)", nbr + 1, row_ptr.len());
        }
        if row_ptr[0] != 0 || row_ptr[nbr] != col_idx.len() || row_ptr.windows(2).any(|w| w[1] < w[0]) {
            return bad("row_ptr (0, non-decreasing, ending at the number of blocks)", col_idx.len(), row_ptr[nbr]);
        }
        if val_ptr.len() != col_idx.len() + 1 || val_ptr[0] != 0 || val_ptr[col_idx.len()] != values.len() {
            return bad(
                "val_ptr length (blocks + 1, ending at the number of values)",
                col_idx.len() + 1,
                val_ptr.len(),
            );
        }
        for r in 0..nbr {
            let h = row_starts[r + 1] - row_starts[r];
            for k in row_ptr[r]..row_ptr[r + 1] {
                let c = col_idx[k];
                if c >= nbc || (k > row_ptr[r] && c <= col_idx[k - 1]) {
                    return bad("block column index (sorted, unique, in range)", nbc, c);
                }
                let len = h * (col_starts[c + 1] - col_starts[c]);
                if val_ptr[k + 1] < val_ptr[k] || val_ptr[k + 1] - val_ptr[k] != len {
                    return bad("block values", len, val_ptr[k + 1].wrapping_sub(val_ptr[k]));
                }
            }
        }
        Ok(BlockCsr { row_starts, col_starts, row_ptr, col_idx, val_ptr, values, uniform3: false }.with_uniform3())
    }

    /// Gives back the raw arrays (the inverse of [`BlockCsr::from_parts`]).
    pub fn into_parts(self) -> BlockCsrParts {
        let BlockCsr { row_starts, col_starts, row_ptr, col_idx, val_ptr, values, .. } = self;
        BlockCsrParts { row_starts, col_starts, row_ptr, col_idx, val_ptr, values }
    }

    /// Builds block storage from a dense matrix with the given block partition, keeping every
    /// block that has a non-zero entry.
    pub fn from_dense(a: &DMatrix<f64>, row_sizes: &[usize], col_sizes: &[usize]) -> Result<Self> {
        let rs = starts_from_sizes(row_sizes);
        let cs = starts_from_sizes(col_sizes);
        crate::error::check_len("rows of dense matrix", *rs.last().unwrap_or(&0), a.nrows())?;
        crate::error::check_len("columns of dense matrix", *cs.last().unwrap_or(&0), a.ncols())?;
        let mut blocks = Vec::new();
        for r in 0..row_sizes.len() {
            for c in 0..col_sizes.len() {
                let v: Vec<f64> = a.view((rs[r], cs[c]), (row_sizes[r], col_sizes[c])).iter().copied().collect();
                if v.iter().any(|&x| x != 0.0) {
                    blocks.push(BlockTriplet { row: r, col: c, values: v });
                }
            }
        }
        Self::from_triplets(row_sizes, col_sizes, blocks)
    }

    /// Number of scalar rows.
    pub fn nrows(&self) -> usize {
        *self.row_starts.last().unwrap_or(&0)
    }
    /// Number of scalar columns.
    pub fn ncols(&self) -> usize {
        *self.col_starts.last().unwrap_or(&0)
    }
    /// Number of block rows.
    pub fn n_block_rows(&self) -> usize {
        self.row_starts.len() - 1
    }
    /// Number of block columns.
    pub fn n_block_cols(&self) -> usize {
        self.col_starts.len() - 1
    }
    /// Number of stored blocks.
    pub fn n_blocks(&self) -> usize {
        self.col_idx.len()
    }
    /// First scalar row of each block row, plus the total (length `n_block_rows + 1`).
    pub fn row_starts(&self) -> &[usize] {
        &self.row_starts
    }
    /// First scalar column of each block column, plus the total.
    pub fn col_starts(&self) -> &[usize] {
        &self.col_starts
    }
    /// Range of stored-block numbers of block row `r`.
    pub fn row_blocks(&self, r: usize) -> std::ops::Range<usize> {
        self.row_ptr[r]..self.row_ptr[r + 1]
    }
    /// Block column of stored block `k`.
    pub fn block_col(&self, k: usize) -> usize {
        self.col_idx[k]
    }
    /// Values of stored block `k`, column-major.
    pub fn block_values(&self, k: usize) -> &[f64] {
        &self.values[self.val_ptr[k]..self.val_ptr[k + 1]]
    }
    /// Mutable values of stored block `k`, column-major.
    pub fn block_values_mut(&mut self, k: usize) -> &mut [f64] {
        &mut self.values[self.val_ptr[k]..self.val_ptr[k + 1]]
    }
    /// All stored values.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
    /// The stored block number at (block row `r`, block column `c`), if any.
    pub fn find_block(&self, r: usize, c: usize) -> Option<usize> {
        let range = self.row_blocks(r);
        self.col_idx[range.clone()].binary_search(&c).ok().map(|i| range.start + i)
    }
    /// The scalar CSR arrays `(row_ptr, col_idx, values)` when every block is `1 × 1`: row `i`
    /// holds `values[k]` at column `col_idx[k]` for `k in row_ptr[i]..row_ptr[i + 1]`.
    pub fn scalar_csr(&self) -> Option<(&[usize], &[usize], &[f64])> {
        self.is_uniform(1).then_some((&self.row_ptr, &self.col_idx, &self.values))
    }

    /// `true` when every block row and block column has size `bs` (and the matrix is square).
    pub fn is_uniform(&self, bs: usize) -> bool {
        self.row_starts.windows(2).all(|w| w[1] - w[0] == bs) && self.col_starts == self.row_starts
    }

    /// Sets `uniform3`: every block row and column has size 3 (`row_starts` = `col_starts` =
    /// 0, 3, 6, …), so block `k` holds `values[9k..9k + 9]`.
    fn with_uniform3(mut self) -> Self {
        self.uniform3 = self.row_starts.len() == self.col_starts.len()
            && self.values.len() == 9 * self.col_idx.len()
            && self.row_starts.iter().enumerate().all(|(i, &s)| s == 3 * i)
            && self.col_starts == self.row_starts;
        self
    }

    /// `y = A x`.
    pub fn matvec(&self, x: &[f64], y: &mut [f64]) {
        y.iter_mut().for_each(|v| *v = 0.0);
        self.matvec_add(1.0, x, y);
    }

    /// `y += alpha A x`.
    pub fn matvec_add(&self, alpha: f64, x: &[f64], y: &mut [f64]) {
        if self.uniform3 {
            // Uniform 3 × 3 blocks (friction contact in 3D), unrolled as in `row3`: each block's
            // product is formed on its own, then added (one chain of additions per block, not
            // three). Equal to the general loop below up to round-off.
            for r in 0..self.n_block_rows() {
                let r0 = 3 * r;
                let mut o = [y[r0], y[r0 + 1], y[r0 + 2]];
                for k in self.row_blocks(r) {
                    let b: &[f64; 9] = self.values[9 * k..9 * k + 9].try_into().expect("9 values");
                    let c0 = 3 * self.col_idx[k];
                    let t = block3_times(b, &[alpha * x[c0], alpha * x[c0 + 1], alpha * x[c0 + 2]]);
                    o = [o[0] + t[0], o[1] + t[1], o[2] + t[2]];
                }
                y[r0..r0 + 3].copy_from_slice(&o);
            }
            return;
        }
        for r in 0..self.n_block_rows() {
            let (r0, h) = (self.row_starts[r], self.row_starts[r + 1] - self.row_starts[r]);
            for k in self.row_blocks(r) {
                let c = self.col_idx[k];
                let (c0, w) = (self.col_starts[c], self.col_starts[c + 1] - self.col_starts[c]);
                let b = self.block_values(k);
                for j in 0..w {
                    let xj = alpha * x[c0 + j];
                    if xj == 0.0 {
                        continue;
                    }
                    for i in 0..h {
                        y[r0 + i] += b[i + j * h] * xj;
                    }
                }
            }
        }
    }

    /// `y += alpha Aᵀ x`.
    pub fn tr_matvec_add(&self, alpha: f64, x: &[f64], y: &mut [f64]) {
        if self.uniform3 {
            // Uniform 3 × 3 blocks: the general loop below unrolled (same operations, same order).
            for r in 0..self.n_block_rows() {
                let xs = [x[3 * r], x[3 * r + 1], x[3 * r + 2]];
                for k in self.row_blocks(r) {
                    let b: &[f64; 9] = self.values[9 * k..9 * k + 9].try_into().expect("9 values");
                    let c0 = 3 * self.col_idx[k];
                    for j in 0..3 {
                        let mut s = 0.0;
                        s += b[3 * j] * xs[0];
                        s += b[3 * j + 1] * xs[1];
                        s += b[3 * j + 2] * xs[2];
                        y[c0 + j] += alpha * s;
                    }
                }
            }
            return;
        }
        for r in 0..self.n_block_rows() {
            let (r0, h) = (self.row_starts[r], self.row_starts[r + 1] - self.row_starts[r]);
            for k in self.row_blocks(r) {
                let c = self.col_idx[k];
                let (c0, w) = (self.col_starts[c], self.col_starts[c + 1] - self.col_starts[c]);
                let b = self.block_values(k);
                for j in 0..w {
                    let mut s = 0.0;
                    for i in 0..h {
                        s += b[i + j * h] * x[r0 + i];
                    }
                    y[c0 + j] += alpha * s;
                }
            }
        }
    }

    /// `out = Σ_{blocks of block row r} B x_block`, leaving out block column `r` when `skip_diag`.
    pub fn row_times(&self, r: usize, x: &[f64], skip_diag: bool, out: &mut [f64]) {
        if self.uniform3 {
            out[..3].copy_from_slice(&self.row3(r, x, skip_diag));
            return;
        }
        let h = self.row_starts[r + 1] - self.row_starts[r];
        out[..h].iter_mut().for_each(|v| *v = 0.0);
        for k in self.row_blocks(r) {
            let c = self.col_idx[k];
            if skip_diag && c == r {
                continue;
            }
            let (c0, w) = (self.col_starts[c], self.col_starts[c + 1] - self.col_starts[c]);
            let b = self.block_values(k);
            for j in 0..w {
                let xj = x[c0 + j];
                for i in 0..h {
                    out[i] += b[i + j * h] * xj;
                }
            }
        }
    }

    /// `Σ_{β ≠ r} B_rβ x_β` of a matrix of uniform 3 × 3 blocks ([`BlockCsr::is_uniform`]`(3)`):
    /// the off-diagonal product of one contact in a 3D Gauss–Seidel sweep (the same bits as
    /// [`BlockCsr::row_times`] with `skip_diag`). Inlined into the sweep.
    #[inline]
    pub fn row3_off_diag(&self, r: usize, x: &[f64]) -> [f64; 3] {
        debug_assert!(self.uniform3);
        self.row3(r, x, true)
    }

    /// Uniform 3 × 3 blocks (friction contact in 3D), unrolled: each block's product is formed on
    /// its own, then added to the sum, so the additions chain once per block through the row, not
    /// three times (the Gauss–Seidel sweep waits on this sum). Equal to the general loop of
    /// [`BlockCsr::row_times`] up to round-off.
    #[inline(always)]
    fn row3(&self, r: usize, x: &[f64], skip_diag: bool) -> [f64; 3] {
        let mut o = [0.0; 3];
        let ks = self.row_ptr[r]..self.row_ptr[r + 1];
        let vals = &self.values[9 * ks.start..9 * ks.end];
        for (&c, b) in self.col_idx[ks].iter().zip(vals.chunks_exact(9)) {
            if skip_diag && c == r {
                continue;
            }
            let b: &[f64; 9] = b.try_into().expect("9 values");
            let t = block3_times(b, x[3 * c..3 * c + 3].try_into().expect("3 values"));
            o = [o[0] + t[0], o[1] + t[1], o[2] + t[2]];
        }
        o
    }

    /// The dense equivalent.
    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut a = DMatrix::zeros(self.nrows(), self.ncols());
        for r in 0..self.n_block_rows() {
            let (r0, h) = (self.row_starts[r], self.row_starts[r + 1] - self.row_starts[r]);
            for k in self.row_blocks(r) {
                let c = self.col_idx[k];
                let (c0, w) = (self.col_starts[c], self.col_starts[c + 1] - self.col_starts[c]);
                let b = self.block_values(k);
                for j in 0..w {
                    for i in 0..h {
                        a[(r0 + i, c0 + j)] += b[i + j * h];
                    }
                }
            }
        }
        a
    }
}

/// `B x` for one 3 × 3 block stored column-major: each row's three products summed on their
/// own (the unrolled uniform-3 paths of [`BlockCsr::row_times`] and [`BlockCsr::matvec_add`], and
/// the row products of the NSGS slab sweep).
#[inline(always)]
pub(crate) fn block3_times(b: &[f64; 9], x: &[f64; 3]) -> [f64; 3] {
    [
        b[0] * x[0] + b[3] * x[1] + b[6] * x[2],
        b[1] * x[0] + b[4] * x[1] + b[7] * x[2],
        b[2] * x[0] + b[5] * x[1] + b[8] * x[2],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_summed_and_columns_sorted() {
        let blocks = vec![
            BlockTriplet { row: 0, col: 1, values: vec![1.0, 2.0] },
            BlockTriplet { row: 0, col: 0, values: vec![1.0, 0.0, 0.0, 1.0] },
            BlockTriplet { row: 0, col: 1, values: vec![10.0, 20.0] },
            BlockTriplet { row: 1, col: 0, values: vec![3.0, 4.0] },
        ];
        let a = BlockCsr::from_triplets(&[2, 1], &[2, 1], blocks).unwrap();
        assert_eq!(a.n_blocks(), 3);
        let d = a.to_dense();
        assert_eq!(d, DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 11.0, 0.0, 1.0, 22.0, 3.0, 4.0, 0.0]));
        let x = [1.0, 2.0, 3.0];
        let mut y = [0.0; 3];
        a.matvec(&x, &mut y);
        let yd = &d * nalgebra::DVector::from_column_slice(&x);
        assert_eq!(y.as_slice(), yd.as_slice());
        let mut yt = [0.0; 3];
        a.tr_matvec_add(1.0, &x, &mut yt);
        let ytd = d.transpose() * nalgebra::DVector::from_column_slice(&x);
        assert_eq!(yt.as_slice(), ytd.as_slice());
        let mut out = [0.0; 2];
        a.row_times(0, &x, true, &mut out);
        assert_eq!(out, [33.0, 66.0]);
    }

    #[test]
    fn bad_block_is_an_error() {
        let blocks = vec![BlockTriplet { row: 0, col: 0, values: vec![1.0] }];
        assert!(BlockCsr::from_triplets(&[2], &[2], blocks).is_err());
        let blocks = vec![BlockTriplet { row: 3, col: 0, values: vec![1.0] }];
        assert!(BlockCsr::from_triplets(&[1], &[1], blocks).is_err());
    }

    #[test]
    fn parts_round_trip_and_checks() {
        let d = DMatrix::from_fn(6, 6, |i, j| if (i / 3 + j / 3) % 2 == 0 { (i * 6 + j) as f64 } else { 0.0 });
        let a = BlockCsr::from_dense(&d, &[3, 3], &[3, 3]).unwrap();
        let parts = a.clone().into_parts();
        assert_eq!(BlockCsr::from_parts(parts.clone()).unwrap(), a);
        let mut unsorted = parts.clone();
        unsorted.row_ptr = vec![0, 2, 2];
        unsorted.col_idx = vec![1, 0];
        assert!(BlockCsr::from_parts(unsorted).is_err());
        let mut short = parts.clone();
        short.values.pop();
        assert!(BlockCsr::from_parts(short).is_err());
        let mut wrong_rows = parts;
        wrong_rows.row_ptr.push(2);
        assert!(BlockCsr::from_parts(wrong_rows).is_err());
    }

    #[test]
    fn dense_round_trip() {
        let d = DMatrix::from_fn(6, 6, |i, j| if (i / 3 + j / 3) % 2 == 0 { (i * 6 + j) as f64 } else { 0.0 });
        let a = BlockCsr::from_dense(&d, &[3, 3], &[3, 3]).unwrap();
        assert_eq!(a.n_blocks(), 2);
        assert!(a.is_uniform(3));
        assert_eq!(a.to_dense(), d);
    }
}
