//! Reader of Siconos LCP files (siconos-dat-formats.md §3):
//! `n`, the matrix block `M`, then `q` (as many values as `M` has columns); trailing text is
//! ignored.

use super::Lcp;
use crate::error::Result;
use crate::io::{read_matrix, read_text, TokenReader};

/// Parses the text of an LCP `.dat` file. Dense `M` stays dense; SBM stays block storage.
pub fn read_lcp(text: &str) -> Result<Lcp> {
    let mut r = TokenReader::new(text);
    let (tok, at) = r.token("problem size n")?;
    let n: usize = tok.parse().map_err(|_| r.error_at(at, format!("expected problem size n, found `{tok}`")))?;
    let raw = read_matrix(&mut r, "M")?;
    if raw.nrows() != n || raw.ncols() != n {
        return Err(r.error_at(at, format!("size n = {n} but M is {}x{}", raw.nrows(), raw.ncols())));
    }
    let q = r.f64s(raw.ncols(), "q")?;
    let m = raw.into_operator(1)?;
    Lcp::new(m, q).map_err(|e| r.error_at(at, format!("invalid LCP: {e}")))
}

/// Reads and parses an LCP `.dat` file.
pub fn read_lcp_file(path: impl AsRef<std::path::Path>) -> Result<Lcp> {
    read_lcp(&read_text(path.as_ref())?)
}
