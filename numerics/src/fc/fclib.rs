//! FCLib HDF5 readers (`siconos-dat-formats.md` §9), behind the `hdf5` cargo feature.
//!
//! `/fclib_local`: `spacedim`, `W/` (sparse group), `vectors/{q, mu}`;
//! `/fclib_global`: `spacedim`, `M/`, `H/`, `vectors/{f, w, mu}` (`q := f`, `b := w`).
//! Sparse group: `m`, `n`, `nz` (≥ 0 triplet with `i` = rows, `p` = columns; −1 compressed
//! columns; −2 compressed rows), `p`, `i`, `x`; arrays may be longer than the data (`nzmax`).

use super::global::{GlobalFrictionContact, Triplets};
use super::FrictionContact;
use crate::error::{NumericsError, Result};
use crate::io::{sparse_to_blocks, RawMatrix};
use crate::matrix::Operator;

fn err(path: &std::path::Path, what: &str, e: impl std::fmt::Display) -> NumericsError {
    NumericsError::Parse { line: 0, column: 0, message: format!("{}: {what}: {e}", path.display()) }
}

fn ints(g: &hdf5::Group, name: &str, path: &std::path::Path) -> Result<Vec<i64>> {
    let ds = g.dataset(name).map_err(|e| err(path, name, e))?;
    let v: Vec<i64> = ds.read_raw::<i64>().map_err(|e| err(path, name, e))?;
    Ok(v)
}

fn reals(g: &hdf5::Group, name: &str, path: &std::path::Path) -> Result<Vec<f64>> {
    let ds = g.dataset(name).map_err(|e| err(path, name, e))?;
    ds.read_raw::<f64>().map_err(|e| err(path, name, e))
}

fn scalar(g: &hdf5::Group, name: &str, path: &std::path::Path) -> Result<i64> {
    ints(g, name, path)?.first().copied().ok_or_else(|| err(path, name, "empty dataset"))
}

fn idx(v: i64, bound: usize, what: &str, path: &std::path::Path) -> Result<usize> {
    if v < 0 || v as usize >= bound.max(1) && bound > 0 {
        return Err(err(path, what, format!("index {v} out of range 0..{bound}")));
    }
    Ok(v as usize)
}

/// Reads a sparse matrix group as triplets.
fn sparse(g: &hdf5::Group, path: &std::path::Path) -> Result<Triplets> {
    let m = scalar(g, "m", path)?.max(0) as usize;
    let n = scalar(g, "n", path)?.max(0) as usize;
    let nz = scalar(g, "nz", path)?;
    let p = ints(g, "p", path)?;
    let i = ints(g, "i", path)?;
    let x = reals(g, "x", path)?;
    let mut entries = Vec::new();
    let short = |len: usize, need: usize, what: &str| -> Result<()> {
        if len < need {
            return Err(err(path, what, format!("has {len} entries, needs {need}")));
        }
        Ok(())
    };
    match nz {
        k if k >= 0 => {
            let k = k as usize;
            short(p.len(), k, "p")?;
            short(i.len(), k, "i")?;
            short(x.len(), k, "x")?;
            for t in 0..k {
                entries.push((idx(i[t], m, "row", path)?, idx(p[t], n, "column", path)?, x[t]));
            }
        }
        -1 | -2 => {
            let outer = if nz == -1 { n } else { m };
            let inner = if nz == -1 { m } else { n };
            short(p.len(), outer + 1, "p")?;
            let end = p[outer].max(0) as usize;
            short(i.len(), end, "i")?;
            short(x.len(), end, "x")?;
            for o in 0..outer {
                let (a, b) = (p[o].max(0) as usize, p[o + 1].max(0) as usize);
                for t in a..b.min(end) {
                    let k = idx(i[t], inner, "index", path)?;
                    entries.push(if nz == -1 { (k, o, x[t]) } else { (o, k, x[t]) });
                }
            }
        }
        other => return Err(err(path, "nz", format!("unknown storage code {other}"))),
    }
    Ok(Triplets { nrows: m, ncols: n, entries })
}

/// Reads `/fclib_local` into a local problem (`W` grouped into `d × d` blocks, zeros dropped).
pub fn read_fclib_local(path: &std::path::Path) -> Result<FrictionContact> {
    let f = hdf5::File::open(path).map_err(|e| err(path, "open", e))?;
    let g = f.group("fclib_local").map_err(|e| err(path, "/fclib_local", e))?;
    let dim = scalar(&g, "spacedim", path)?.max(0) as usize;
    let w = sparse(&g.group("W").map_err(|e| err(path, "W", e))?, path)?;
    let v = g.group("vectors").map_err(|e| err(path, "vectors", e))?;
    let q = reals(&v, "q", path)?;
    let mu = reals(&v, "mu", path)?;
    if dim == 0 || w.nrows % dim != 0 || w.ncols % dim != 0 {
        return Err(err(path, "spacedim", format!("{dim} does not divide W's size")));
    }
    let op = Operator::BlockCsr(sparse_to_blocks(w.nrows, w.ncols, &w.entries, dim)?);
    FrictionContact::new(dim, op, q, mu)
}

/// Reads `/fclib_global` into a global problem.
pub fn read_fclib_global(path: &std::path::Path) -> Result<GlobalFrictionContact> {
    let f = hdf5::File::open(path).map_err(|e| err(path, "open", e))?;
    let g = f.group("fclib_global").map_err(|e| err(path, "/fclib_global", e))?;
    let dim = scalar(&g, "spacedim", path)?.max(0) as usize;
    let m = sparse(&g.group("M").map_err(|e| err(path, "M", e))?, path)?;
    let h = sparse(&g.group("H").map_err(|e| err(path, "H", e))?, path)?;
    let v = g.group("vectors").map_err(|e| err(path, "vectors", e))?;
    let q = reals(&v, "f", path)?;
    let b = reals(&v, "w", path)?;
    let mu = reals(&v, "mu", path)?;
    let _ = RawMatrix::Dense; // same storage conventions as the .dat reader
    GlobalFrictionContact::new(dim, m, h, q, b, mu)
}
