//! Reader of the Siconos "NumericsMatrix" block: dense (0), sparse-block (1), sparse (2).
//! See `siconos-dat-formats.md` §2.

use super::reader::TokenReader;
use crate::error::{NumericsError, Result};
use crate::matrix::{BlockCsr, BlockTriplet, Operator};
use nalgebra::DMatrix;

/// A matrix as stored in a file, before the problem decides its working storage.
#[derive(Debug, Clone, PartialEq)]
pub enum RawMatrix {
    /// Storage code 0.
    Dense(DMatrix<f64>),
    /// Storage code 1 (SBM).
    Sbm(BlockCsr),
    /// Storage code 2 (CSparse triplet or compressed column), as (row, col, value) triplets.
    Sparse {
        /// Rows.
        nrows: usize,
        /// Columns.
        ncols: usize,
        /// Entries; duplicates are to be summed.
        entries: Vec<(usize, usize, f64)>,
    },
}

impl RawMatrix {
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        match self {
            RawMatrix::Dense(m) => m.nrows(),
            RawMatrix::Sbm(m) => m.nrows(),
            RawMatrix::Sparse { nrows, .. } => *nrows,
        }
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        match self {
            RawMatrix::Dense(m) => m.ncols(),
            RawMatrix::Sbm(m) => m.ncols(),
            RawMatrix::Sparse { ncols, .. } => *ncols,
        }
    }
    /// Dense copy.
    pub fn to_dense(&self) -> DMatrix<f64> {
        match self {
            RawMatrix::Dense(m) => m.clone(),
            RawMatrix::Sbm(m) => m.to_dense(),
            RawMatrix::Sparse { nrows, ncols, entries } => {
                let mut a = DMatrix::zeros(*nrows, *ncols);
                for &(i, j, v) in entries {
                    a[(i, j)] += v;
                }
                a
            }
        }
    }
    /// Working storage: dense stays dense, SBM stays block storage, and sparse entries are
    /// grouped into uniform `bs × bs` blocks (exact zeros dropped), as Siconos's benchmark does.
    pub fn into_operator(self, bs: usize) -> Result<Operator> {
        match self {
            RawMatrix::Dense(m) => Ok(Operator::Dense(m)),
            RawMatrix::Sbm(m) => Ok(Operator::BlockCsr(m)),
            RawMatrix::Sparse { nrows, ncols, entries } => {
                if bs == 0 || nrows % bs != 0 || ncols % bs != 0 {
                    return Err(NumericsError::DimensionMismatch {
                        what: "sparse matrix size (multiple of the block size)",
                        expected: bs,
                        found: nrows,
                    });
                }
                Ok(Operator::BlockCsr(sparse_to_blocks(nrows, ncols, &entries, bs)?))
            }
        }
    }
}

/// Groups scalar entries into uniform `bs × bs` blocks; zeros are dropped, duplicates summed.
pub fn sparse_to_blocks(nrows: usize, ncols: usize, entries: &[(usize, usize, f64)], bs: usize) -> Result<BlockCsr> {
    let mut blocks: Vec<BlockTriplet> = Vec::new();
    let mut index = std::collections::BTreeMap::new();
    for &(i, j, v) in entries {
        if v == 0.0 {
            continue;
        }
        let key = (i / bs, j / bs);
        let k = *index.entry(key).or_insert_with(|| {
            blocks.push(BlockTriplet { row: key.0, col: key.1, values: vec![0.0; bs * bs] });
            blocks.len() - 1
        });
        blocks[k].values[i % bs + (j % bs) * bs] += v;
    }
    BlockCsr::from_triplets(&vec![bs; nrows / bs], &vec![bs; ncols / bs], blocks)
}

/// Reads one matrix block (`STORAGE ROWS COLS payload`); `what` names it in errors.
pub fn read_matrix(r: &mut TokenReader<'_>, what: &str) -> Result<RawMatrix> {
    let (tok, at) = r.token(&format!("storage code of {what}"))?;
    let storage: usize = tok
        .parse()
        .map_err(|_| r.error_at(at, format!("expected storage code of {what} (0, 1 or 2), found `{tok}`")))?;
    let rows = r.usize(&format!("rows of {what}"))?;
    let cols = r.usize(&format!("columns of {what}"))?;
    match storage {
        0 => read_dense(r, what),
        1 => read_sbm(r, what, rows, cols),
        2 => read_sparse(r, what, rows, cols),
        _ => Err(r.error_at(at, format!("unknown storage code {storage} for {what} (expected 0, 1 or 2)"))),
    }
}

const MAX_DENSE: usize = 1 << 28;

fn read_dense(r: &mut TokenReader<'_>, what: &str) -> Result<RawMatrix> {
    let rows = r.usize(&format!("rows of {what}"))?;
    let cols = r.usize(&format!("columns of {what}"))?;
    if rows.saturating_mul(cols) > MAX_DENSE {
        return Err(r.error_here(format!("{what}: dense {rows}x{cols} is too large")));
    }
    let v = r.f64s(rows * cols, what)?;
    Ok(RawMatrix::Dense(DMatrix::from_column_slice(rows, cols, &v)))
}

fn ends_to_sizes(r: &mut TokenReader<'_>, n: usize, what: &str) -> Result<Vec<usize>> {
    let mut sizes = Vec::with_capacity(n);
    let mut prev = 0;
    for _ in 0..n {
        let (tok, at) = r.token(what)?;
        let e: usize = tok.parse().map_err(|_| r.error_at(at, format!("expected {what}, found `{tok}`")))?;
        if e < prev {
            return Err(r.error_at(at, format!("{what} must be non-decreasing ({e} < {prev})")));
        }
        sizes.push(e - prev);
        prev = e;
    }
    Ok(sizes)
}

fn read_sbm(r: &mut TokenReader<'_>, what: &str, rows: usize, cols: usize) -> Result<RawMatrix> {
    let nbblocks = r.usize(&format!("number of blocks of {what}"))?;
    if nbblocks == 0 {
        return Ok(RawMatrix::Sparse { nrows: rows, ncols: cols, entries: Vec::new() });
    }
    let nbr = r.usize(&format!("number of block rows of {what}"))?;
    let nbc = r.usize(&format!("number of block columns of {what}"))?;
    let row_sizes = ends_to_sizes(r, nbr, &format!("block row ends of {what}"))?;
    let col_sizes = ends_to_sizes(r, nbc, &format!("block column ends of {what}"))?;
    if row_sizes.iter().sum::<usize>() != rows || col_sizes.iter().sum::<usize>() != cols {
        return Err(r.error_here(format!("{what}: block ends do not match the {rows}x{cols} size")));
    }
    let f1 = r.usize(&format!("row pointer length of {what}"))?;
    let f2 = r.usize(&format!("stored block count of {what}"))?;
    if f1 != nbr + 1 || f2 != nbblocks {
        return Err(r.error_here(format!("{what}: inconsistent SBM header (row pointer length {f1}, blocks {f2})")));
    }
    let mut ptr = Vec::with_capacity(f1);
    for _ in 0..f1 {
        ptr.push(r.usize(&format!("row pointer of {what}"))?);
    }
    if ptr.windows(2).any(|w| w[1] < w[0]) || ptr.last() != Some(&nbblocks) || ptr[0] != 0 {
        return Err(r.error_here(format!("{what}: the block row pointer is not a valid CSR pointer")));
    }
    let mut jdx = Vec::with_capacity(f2);
    for _ in 0..f2 {
        let (tok, at) = r.token("block column index")?;
        let j: usize =
            tok.parse().map_err(|_| r.error_at(at, format!("expected block column index, found `{tok}`")))?;
        if j >= nbc {
            return Err(r.error_at(at, format!("{what}: block column index {j} out of range (< {nbc})")));
        }
        jdx.push(j);
    }
    let mut blocks = Vec::with_capacity(nbblocks);
    for br in 0..nbr {
        for k in ptr[br]..ptr[br + 1] {
            let (tok, at) = r.token("block number")?;
            if tok.parse::<usize>().ok() != Some(k) {
                return Err(r.error_at(at, format!("{what}: expected block number {k}, found `{tok}`")));
            }
            let n = row_sizes[br] * col_sizes[jdx[k]];
            let values = r.f64s(n, &format!("{what} block {k}"))?;
            blocks.push(BlockTriplet { row: br, col: jdx[k], values });
        }
    }
    Ok(RawMatrix::Sbm(BlockCsr::from_triplets(&row_sizes, &col_sizes, blocks)?))
}

fn parse_m_by_n(r: &TokenReader<'_>, word: &str, at: usize, what: &str) -> Result<(usize, usize)> {
    let w = word.trim_end_matches(',');
    let mut it = w.split("-by-");
    match (it.next().and_then(|a| a.parse().ok()), it.next().and_then(|b| b.parse().ok())) {
        (Some(m), Some(n)) => Ok((m, n)),
        _ => Err(r.error_at(at, format!("{what}: expected `M-by-N,` in the sparse header, found `{word}`"))),
    }
}

fn read_sparse(r: &mut TokenReader<'_>, what: &str, rows: usize, cols: usize) -> Result<RawMatrix> {
    let origin = r.usize(&format!("sparse origin code of {what}"))?;
    let _ = r.rest_of_line();
    let _banner = r.rest_of_line();
    let (header, hat) = r.rest_of_line();
    let words: Vec<&str> = header.split_whitespace().collect();
    let mut entries = Vec::new();
    let check = |r: &TokenReader<'_>, i: usize, j: usize, at: usize| -> Result<()> {
        if i >= rows || j >= cols {
            Err(r.error_at(at, format!("{what}: entry ({i}, {j}) outside {rows}x{cols}")))
        } else {
            Ok(())
        }
    };
    if words.first() == Some(&"triplet:") {
        if words.len() < 6 {
            return Err(r.error_at(hat, format!("{what}: malformed triplet header `{header}`")));
        }
        let (m, n) = parse_m_by_n(r, words[1], hat, what)?;
        if (m, n) != (rows, cols) {
            return Err(r.error_at(hat, format!("{what}: header says {m}x{n}, matrix is {rows}x{cols}")));
        }
        let k: usize = words[5]
            .trim_end_matches(',')
            .parse()
            .map_err(|_| r.error_at(hat, format!("{what}: bad nnz in `{header}`")))?;
        for _ in 0..k {
            let (tok, at) = r.token("triplet row index")?;
            let i: usize = tok.parse().map_err(|_| r.error_at(at, format!("expected row index, found `{tok}`")))?;
            let j = r.usize("triplet column index")?;
            r.literal(":")?;
            let v = r.f64("value")?;
            check(r, i, j, at)?;
            entries.push((i, j, v));
        }
        Ok(RawMatrix::Sparse { nrows: rows, ncols: cols, entries })
    } else {
        if origin == 1 {
            return Err(r.error_at(hat, format!("{what}: origin 1 (triplet) but header is `{header}`")));
        }
        let first = words.first().copied().unwrap_or("");
        let (m, n) = parse_m_by_n(r, first, hat, what)?;
        if (m, n) != (rows, cols) {
            return Err(r.error_at(hat, format!("{what}: header says {m}x{n}, matrix is {rows}x{cols}")));
        }
        for j in 0..n {
            r.literal("col")?;
            let jj = r.usize("column number")?;
            if jj != j {
                return Err(r.error_here(format!("{what}: expected column {j}, found {jj}")));
            }
            r.literal(":")?;
            r.literal("locations")?;
            let p0 = r.isize("first location")?;
            r.literal("to")?;
            let p1 = r.isize("last location")?;
            let count = if p1 >= p0 { (p1 - p0 + 1) as usize } else { 0 };
            for _ in 0..count {
                let (tok, at) = r.token("row index")?;
                let i: usize = tok.parse().map_err(|_| r.error_at(at, format!("expected row index, found `{tok}`")))?;
                r.literal(":")?;
                let v = r.f64("value")?;
                let jt = if origin == 3 { i } else { j };
                let it = if origin == 3 { j } else { i };
                check(r, it, jt, at)?;
                entries.push((it, jt, v));
            }
        }
        Ok(RawMatrix::Sparse { nrows: rows, ncols: cols, entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_is_column_major() {
        let mut r = TokenReader::new("0 2 2 2 2\n1 2\n3 4\n");
        let m = read_matrix(&mut r, "M").unwrap().to_dense();
        assert_eq!(m, DMatrix::from_row_slice(2, 2, &[1.0, 3.0, 2.0, 4.0]));
    }

    #[test]
    fn sbm_blocks() {
        // 4x4 with 2x2 blocks: diag blocks 0 and 1, plus block (0,1).
        let text = "1 4 4 3 2 2 2 4 2 4 3 3 0 2 3 0 1 1\n0 1 2 3 4\n1 5 6 7 8\n2 9 10 11 12\n";
        let mut r = TokenReader::new(text);
        let m = read_matrix(&mut r, "M").unwrap();
        let d = m.to_dense();
        assert_eq!(d[(0, 0)], 1.0);
        assert_eq!(d[(1, 0)], 2.0);
        assert_eq!(d[(0, 1)], 3.0);
        assert_eq!(d[(0, 2)], 5.0);
        assert_eq!(d[(3, 3)], 12.0);
        assert_eq!(d[(2, 0)], 0.0);
    }

    #[test]
    fn sparse_csc_and_triplet() {
        let csc = "2 2 2 2\nCSparse banner\n2-by-2, nzmax: 2 nnz: 2, 1-norm: 3\n    col 0 : locations 0 to 0\n      1 : 3\n    col 1 : locations 1 to 1\n      0 : 2\n7";
        let mut r = TokenReader::new(csc);
        let m = read_matrix(&mut r, "M").unwrap().to_dense();
        assert_eq!(m, DMatrix::from_row_slice(2, 2, &[0.0, 2.0, 3.0, 0.0]));
        assert_eq!(r.f64("next").unwrap(), 7.0);
        let tri = "2 2 2 1\nCSparse banner\ntriplet: 2-by-2, nzmax: 3 nnz: 3\n    0 0 : 1\n    1 1 : 2\n    1 1 : 3\n";
        let mut r = TokenReader::new(tri);
        let m = read_matrix(&mut r, "M").unwrap().to_dense();
        assert_eq!(m, DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 5.0]));
    }

    #[test]
    fn errors_have_positions() {
        let mut r = TokenReader::new("0 2 2 2 2\n1 2\n3 oops\n");
        match read_matrix(&mut r, "M") {
            Err(NumericsError::Parse { line, column, message }) => {
                assert_eq!((line, column), (3, 3));
                assert!(message.contains("M[3]"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let mut r = TokenReader::new("7 2 2");
        assert!(read_matrix(&mut r, "M").is_err());
    }
}
