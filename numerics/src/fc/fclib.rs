//! FCLib HDF5 readers and writers (`siconos-dat-formats.md` §9), behind the `hdf5` cargo feature.
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

/// The `info` group of an FCLib problem: its title, description and mathematical notes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FclibInfo {
    /// `info/title`.
    pub title: String,
    /// `info/description`.
    pub description: String,
    /// `info/math_info`.
    pub math_info: String,
}

/// A solution or a guess of an FCLib problem: reactions `r`, local velocities `u` and, for a
/// global problem, velocities `v` (an empty vector is not written).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FclibSolution {
    /// Reactions (`d` per contact).
    pub r: Vec<f64>,
    /// Local velocities `u`.
    pub u: Vec<f64>,
    /// Global velocities `v`.
    pub v: Vec<f64>,
}

type H5 = hdf5::Result<()>;

fn put_ints(g: &hdf5::Group, name: &str, v: &[i32]) -> H5 {
    g.new_dataset_builder().with_data(v).create(name).map(|_| ())
}

fn put_reals(g: &hdf5::Group, name: &str, v: &[f64]) -> H5 {
    g.new_dataset_builder().with_data(v).create(name).map(|_| ())
}

fn put_text(g: &hdf5::Group, name: &str, text: &str) -> H5 {
    // HDF5 strings cannot hold NUL: it is dropped
    let v: hdf5::types::VarLenUnicode = text.replace('\0', "").parse().unwrap_or_default();
    g.new_dataset::<hdf5::types::VarLenUnicode>().shape(()).create(name)?.write_scalar(&v)
}

fn int(v: usize) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A sparse matrix group: compressed rows (`nz = −2`) when `csr` holds the row pointers, else
/// triplets (`nz` ≥ 0, `i` = rows, `p` = columns).
fn put_sparse(g: &hdf5::Group, m: usize, n: usize, rows: &[i32], cols: &[i32], x: &[f64], csr: bool) -> H5 {
    put_ints(g, "m", &[int(m)])?;
    put_ints(g, "n", &[int(n)])?;
    put_ints(g, "nz", &[if csr { -2 } else { int(x.len()) }])?;
    put_ints(g, "nzmax", &[int(x.len())])?;
    put_ints(g, "p", if csr { rows } else { cols })?;
    put_ints(g, "i", if csr { cols } else { rows })?;
    put_reals(g, "x", x)
}

/// `W` in compressed rows: the nonzero entries of each scalar row in column order.
fn w_csr(w: &Operator) -> (Vec<i32>, Vec<i32>, Vec<f64>) {
    let (mut ptr, mut col, mut x) = (vec![0i32; w.nrows() + 1], Vec::new(), Vec::new());
    w.for_each_nonzero(|i, j, v| {
        ptr[i + 1] += 1;
        col.push(int(j));
        x.push(v);
    });
    for i in 0..w.nrows() {
        ptr[i + 1] += ptr[i];
    }
    (ptr, col, x)
}

fn triplets(t: &Triplets) -> (Vec<i32>, Vec<i32>, Vec<f64>) {
    let rows = t.entries.iter().map(|e| int(e.0)).collect();
    let cols = t.entries.iter().map(|e| int(e.1)).collect();
    (rows, cols, t.entries.iter().map(|e| e.2).collect())
}

fn put_info(g: &hdf5::Group, info: &FclibInfo) -> H5 {
    let i = g.create_group("info")?;
    put_text(&i, "title", &info.title)?;
    put_text(&i, "description", &info.description)?;
    put_text(&i, "math_info", &info.math_info)
}

fn put_solution(g: &hdf5::Group, s: &FclibSolution) -> H5 {
    put_reals(g, "r", &s.r)?;
    if !s.u.is_empty() {
        put_reals(g, "u", &s.u)?;
    }
    if !s.v.is_empty() {
        put_reals(g, "v", &s.v)?;
    }
    Ok(())
}

/// `/solution` and `/guesses` (FCLib's `fclib_write_solution`, `fclib_write_guesses`).
fn put_solutions(f: &hdf5::File, solution: Option<&FclibSolution>, guesses: &[FclibSolution]) -> H5 {
    if let Some(s) = solution {
        put_solution(&f.create_group("solution")?, s)?;
    }
    if !guesses.is_empty() {
        let g = f.create_group("guesses")?;
        put_ints(&g, "number_of_guesses", &[int(guesses.len())])?;
        for (k, s) in guesses.iter().enumerate() {
            put_solution(&g.create_group(&(k + 1).to_string())?, s)?;
        }
    }
    Ok(())
}

/// An FCLib file with group `name` (`spacedim` = `dim`, what `fill` writes, `info`) and the
/// solution and guesses; the file is replaced.
fn write_problem(
    path: &std::path::Path,
    name: &str,
    dim: usize,
    fill: impl FnOnce(&hdf5::Group) -> H5,
    info: &FclibInfo,
    solution: Option<&FclibSolution>,
    guesses: &[FclibSolution],
) -> Result<()> {
    let write = || -> H5 {
        let f = hdf5::File::create(path)?;
        let g = f.create_group(name)?;
        put_ints(&g, "spacedim", &[int(dim)])?;
        fill(&g)?;
        put_info(&g, info)?;
        put_solutions(&f, solution, guesses)
    };
    write().map_err(|e| err(path, "write", e))
}

/// Writes a local problem as `/fclib_local` (`W` in compressed rows, exact zeros dropped), with
/// its `info`, and optionally a solution and guesses: what [`read_fclib_local`] and Siconos's
/// `frictionContact_fclib_read` read back. The file is replaced.
pub fn write_fclib_local(
    path: &std::path::Path,
    p: &FrictionContact,
    info: &FclibInfo,
    solution: Option<&FclibSolution>,
    guesses: &[FclibSolution],
) -> Result<()> {
    let fill = |g: &hdf5::Group| -> H5 {
        let (ptr, col, x) = w_csr(p.w());
        put_sparse(&g.create_group("W")?, p.size(), p.size(), &ptr, &col, &x, true)?;
        let v = g.create_group("vectors")?;
        put_reals(&v, "q", p.q())?;
        put_reals(&v, "mu", p.mu())
    };
    write_problem(path, "fclib_local", p.dim(), fill, info, solution, guesses)
}

/// Writes a global problem as `/fclib_global` (`M`, `H` as triplets; `f := q`, `w := b`), with
/// its `info`, and optionally a solution and guesses: what [`read_fclib_global`] reads back.
/// The file is replaced.
pub fn write_fclib_global(
    path: &std::path::Path,
    p: &GlobalFrictionContact,
    info: &FclibInfo,
    solution: Option<&FclibSolution>,
    guesses: &[FclibSolution],
) -> Result<()> {
    let fill = |g: &hdf5::Group| -> H5 {
        for (name, t) in [("M", p.m()), ("H", p.h())] {
            let (r, c, x) = triplets(t);
            put_sparse(&g.create_group(name)?, t.nrows, t.ncols, &r, &c, &x, false)?;
        }
        let v = g.create_group("vectors")?;
        put_reals(&v, "f", p.q())?;
        put_reals(&v, "w", p.b())?;
        put_reals(&v, "mu", p.mu())
    };
    write_problem(path, "fclib_global", p.dim(), fill, info, solution, guesses)
}

/// Reads `/solution` (or, with `guess = Some(k)`, `/guesses/k`, from 1) of an FCLib file:
/// `None` when the file has none; absent vectors are empty.
pub fn read_fclib_solution(path: &std::path::Path, guess: Option<usize>) -> Result<Option<FclibSolution>> {
    let f = hdf5::File::open(path).map_err(|e| err(path, "open", e))?;
    let name = guess.map_or_else(|| "solution".to_string(), |k| format!("guesses/{k}"));
    let Ok(g) = f.group(&name) else { return Ok(None) };
    let get = |k: &str| if g.link_exists(k) { reals(&g, k, path) } else { Ok(vec![]) };
    Ok(Some(FclibSolution { r: get("r")?, u: get("u")?, v: get("v")? }))
}
