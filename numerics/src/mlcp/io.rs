//! Reader of the Siconos MLCP `.dat` layout (siconos-dat-formats.md §4).

use super::problem::Mlcp;
use crate::error::{NumericsError, Result};
use crate::io::{read_matrix, read_text, TokenReader};
use nalgebra::DMatrix;

/// Reads an MLCP from the text of a Siconos `.dat` file.
///
/// Layout: `ST1 ST2 n m`; when `ST1 = 1`, the block-row boundaries (integers up to the first one
/// `>= n+m`), one equality(0)/complementarity(1) flag per block, the matrix `M` (any storage of
/// §2, column-major when dense) and `q`; when `ST2 = 1`, row-major `A` (n×n), `B` (m×m),
/// `C` (n×m), `D` (m×n), then `a`, `b`. The `(M, q)` form is used when present, else `ABCD`.
///
/// Errors: `Parse` with line:column on malformed text, `NotSquare` for a non-square `M`
/// (`Rectangular_mlcp.dat`), `Unsupported` when complementarity blocks precede equality blocks,
/// `DimensionMismatch` when the blocks disagree with `n`.
pub fn read_mlcp(text: &str) -> Result<Mlcp> {
    let mut r = TokenReader::new(text);
    let st1 = r.usize("storage flag ST1")?;
    let st2 = r.usize("storage flag ST2")?;
    let n = r.usize("n (equality rows)")?;
    let m = r.usize("m (complementarity rows)")?;
    if st1 == 1 {
        let mut rows = Vec::new();
        loop {
            let v = r.usize("block row boundary")?;
            rows.push(v);
            if v >= n + m {
                break;
            }
        }
        let mut flags = Vec::with_capacity(rows.len().saturating_sub(1));
        for _ in 1..rows.len() {
            let (tok, at) = r.token("block complementarity flag")?;
            match tok {
                "0" => flags.push(false),
                "1" => flags.push(true),
                _ => return Err(r.error_at(at, format!("expected a block flag 0 or 1, found `{tok}`"))),
            }
        }
        let mut n_eq = 0;
        let mut seen_comp = false;
        for (k, &is_comp) in flags.iter().enumerate() {
            let len = rows[k + 1].saturating_sub(rows[k]);
            if is_comp {
                seen_comp = true;
            } else if seen_comp && len > 0 {
                return Err(NumericsError::Unsupported {
                    solver: "read_mlcp",
                    what: "an equality block after a complementarity block".into(),
                });
            } else {
                n_eq += len;
            }
        }
        if n_eq != n {
            return Err(NumericsError::DimensionMismatch {
                what: "equality rows of the block description vs n",
                expected: n,
                found: n_eq,
            });
        }
        let mat = read_matrix(&mut r, "M")?;
        let (nr, nc) = (mat.nrows(), mat.ncols());
        if nr != nc {
            return Err(NumericsError::NotSquare { what: "M", rows: nr, cols: nc });
        }
        let q = r.f64s(nc, "q")?;
        return Mlcp::new(mat.to_dense(), q, n);
    }
    if st2 != 1 {
        return Err(r.error_here("neither the (M, q) form (ST1 = 1) nor the ABCD form (ST2 = 1) is present"));
    }
    let a = row_major(&mut r, n, n, "A")?;
    let b = row_major(&mut r, m, m, "B")?;
    let c = row_major(&mut r, n, m, "C")?;
    let d = row_major(&mut r, m, n, "D")?;
    let av = r.f64s(n, "a")?;
    let bv = r.f64s(m, "b")?;
    Mlcp::from_abcd(a, b, c, d, av, bv)
}

fn row_major(r: &mut TokenReader<'_>, rows: usize, cols: usize, what: &str) -> Result<DMatrix<f64>> {
    let v = r.f64s(rows * cols, what)?;
    Ok(DMatrix::from_row_slice(rows, cols, &v))
}

/// Reads an MLCP `.dat` file (see [`read_mlcp`]).
pub fn read_mlcp_file(path: impl AsRef<std::path::Path>) -> Result<Mlcp> {
    read_mlcp(&read_text(path.as_ref())?)
}
