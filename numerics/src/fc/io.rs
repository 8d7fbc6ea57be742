//! Readers of the Siconos `.dat` friction-contact files (`siconos-dat-formats.md` §5, §6).

use super::global::GlobalFrictionContact;
use super::FrictionContact;
use crate::error::Result;
use crate::io::{read_matrix, read_text, TokenReader};
use crate::matrix::Operator;

/// Reads a local problem: `d`, `nc`, matrix `W` (any storage; sparse storage is grouped into
/// `d × d` blocks), `q` (as many entries as `W` has columns), `μ` (`nc` entries).
pub fn read_fc(text: &str) -> Result<FrictionContact> {
    let (dim, w, q, mu) = read_fc_head(&mut TokenReader::new(text))?;
    FrictionContact::new(dim, w, q, mu)
}

/// The head shared by the local `.dat` problems: `d`, `nc`, `W`, `q`, `μ` (the rolling
/// problems' `μ_r` follows).
pub(crate) fn read_fc_head(t: &mut TokenReader<'_>) -> Result<(usize, Operator, Vec<f64>, Vec<f64>)> {
    let dim = t.usize("dimension d")?;
    let nc = t.usize("number of contacts")?;
    let w = read_matrix(t, "W")?;
    let n = w.ncols();
    let w = w.into_operator(dim.max(1))?;
    let q = t.f64s(n, "q")?;
    let mu = t.f64s(nc, "mu")?;
    Ok((dim, w, q, mu))
}

/// [`read_fc`] on a file.
pub fn read_fc_file(path: &std::path::Path) -> Result<FrictionContact> {
    read_fc(&read_text(path)?)
}

/// Reads a global problem: `d`, `nc`, `M` (n×n), `H` (n×d·nc), `q` (n), `b` (d·nc), `μ` (nc).
pub fn read_gfc(text: &str) -> Result<GlobalFrictionContact> {
    let mut t = TokenReader::new(text);
    let dim = t.usize("dimension d")?;
    let nc = t.usize("number of contacts")?;
    let m = read_matrix(&mut t, "M")?;
    let h = read_matrix(&mut t, "H")?;
    let q = t.f64s(m.ncols(), "q")?;
    let b = t.f64s(h.ncols(), "b")?;
    let mu = t.f64s(nc, "mu")?;
    GlobalFrictionContact::from_raw(dim, m, h, q, b, mu)
}

/// [`read_gfc`] on a file.
pub fn read_gfc_file(path: &std::path::Path) -> Result<GlobalFrictionContact> {
    read_gfc(&read_text(path)?)
}
