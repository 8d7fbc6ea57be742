//! Reader of Siconos relay files (siconos-dat-formats.md §7):
//! `n`, matrix `M`, then `q`, `lb`, `ub` (each as many values as `M` has columns).

use super::Relay;
use crate::error::Result;
use crate::io::{read_matrix, read_text, TokenReader};

/// Parses the text of a relay `.dat` file; trailing text is ignored.
pub fn read_relay(text: &str) -> Result<Relay> {
    let mut r = TokenReader::new(text);
    let (tok, at) = r.token("problem size n")?;
    let n: usize = tok.parse().map_err(|_| r.error_at(at, format!("expected problem size n, found `{tok}`")))?;
    let raw = read_matrix(&mut r, "M")?;
    if raw.nrows() != n || raw.ncols() != n {
        return Err(r.error_at(at, format!("size n = {n} but M is {}x{}", raw.nrows(), raw.ncols())));
    }
    let cols = raw.ncols();
    let q = r.f64s(cols, "q")?;
    let lb = r.f64s(cols, "lb")?;
    let ub = r.f64s(cols, "ub")?;
    let m = raw.into_operator(1)?;
    Relay::new(m, q, lb, ub).map_err(|e| r.error_at(at, format!("invalid relay problem: {e}")))
}

/// Reads and parses a relay `.dat` file.
pub fn read_relay_file(path: impl AsRef<std::path::Path>) -> Result<Relay> {
    read_relay(&read_text(path.as_ref())?)
}
