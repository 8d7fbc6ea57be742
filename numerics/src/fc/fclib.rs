//! FCLib HDF5 readers and writers (`siconos-dat-formats.md` §9), with `hdf5-pure` (no C
//! library: every build reads and writes FCLib files).
//!
//! `/fclib_local`: `spacedim`, `W/` (sparse group), `vectors/{q, mu}`;
//! `/fclib_global`: `spacedim`, `M/`, `H/`, `vectors/{f, w, mu}` (`q := f`, `b := w`).
//! Sparse group: `m`, `n`, `nz` (≥ 0 triplet with `i` = rows, `p` = columns; −1 compressed
//! columns; −2 compressed rows), `p`, `i`, `x`; arrays may be longer than the data (`nzmax`).

use super::global::{GlobalFrictionContact, Triplets};
use super::FrictionContact;
use crate::error::{NumericsError, Result};
use crate::io::sparse_to_blocks;
use crate::matrix::Operator;

fn err(path: &std::path::Path, what: &str, e: impl std::fmt::Display) -> NumericsError {
    NumericsError::Parse { line: 0, column: 0, message: format!("{}: {what}: {e}", path.display()) }
}

/// An open FCLib file: datasets read by path (`group/name`).
struct Reader<'a> {
    file: hdf5_pure::File,
    path: &'a std::path::Path,
}

impl Reader<'_> {
    fn open(path: &std::path::Path) -> Result<Reader<'_>> {
        Ok(Reader { file: hdf5_pure::File::open(path).map_err(|e| err(path, "open", e))?, path })
    }
    fn has(&self, name: &str) -> bool {
        self.file.dataset(name).is_ok() || self.file.group(name).is_ok()
    }
    fn ints(&self, name: &str) -> Result<Vec<i64>> {
        let ds = self.file.dataset(name).map_err(|e| err(self.path, name, e))?;
        ds.read::<i64>().map_err(|e| err(self.path, name, e))
    }
    fn reals(&self, name: &str) -> Result<Vec<f64>> {
        let ds = self.file.dataset(name).map_err(|e| err(self.path, name, e))?;
        ds.read::<f64>().map_err(|e| err(self.path, name, e))
    }
    fn scalar(&self, name: &str) -> Result<i64> {
        self.ints(name)?.first().copied().ok_or_else(|| err(self.path, name, "empty dataset"))
    }
}

fn idx(v: i64, bound: usize, what: &str, path: &std::path::Path) -> Result<usize> {
    if v < 0 || v as usize >= bound.max(1) && bound > 0 {
        return Err(err(path, what, format!("index {v} out of range 0..{bound}")));
    }
    Ok(v as usize)
}

/// Reads the sparse matrix group `g` as triplets.
fn sparse(f: &Reader<'_>, g: &str) -> Result<Triplets> {
    let path = f.path;
    let m = f.scalar(&format!("{g}/m"))?.max(0) as usize;
    let n = f.scalar(&format!("{g}/n"))?.max(0) as usize;
    let nz = f.scalar(&format!("{g}/nz"))?;
    let p = f.ints(&format!("{g}/p"))?;
    let i = f.ints(&format!("{g}/i"))?;
    let x = f.reals(&format!("{g}/x"))?;
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
    let f = Reader::open(path)?;
    let dim = f.scalar("fclib_local/spacedim")?.max(0) as usize;
    let w = sparse(&f, "fclib_local/W")?;
    let q = f.reals("fclib_local/vectors/q")?;
    let mu = f.reals("fclib_local/vectors/mu")?;
    if dim == 0 || w.nrows % dim != 0 || w.ncols % dim != 0 {
        return Err(err(path, "spacedim", format!("{dim} does not divide W's size")));
    }
    let op = Operator::BlockCsr(sparse_to_blocks(w.nrows, w.ncols, &w.entries, dim)?);
    FrictionContact::new(dim, op, q, mu)
}

/// Reads `/fclib_global` into a global problem.
pub fn read_fclib_global(path: &std::path::Path) -> Result<GlobalFrictionContact> {
    let f = Reader::open(path)?;
    let dim = f.scalar("fclib_global/spacedim")?.max(0) as usize;
    let m = sparse(&f, "fclib_global/M")?;
    let h = sparse(&f, "fclib_global/H")?;
    let q = f.reals("fclib_global/vectors/f")?;
    let b = f.reals("fclib_global/vectors/w")?;
    let mu = f.reals("fclib_global/vectors/mu")?;
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

type Group = hdf5_pure::GroupBuilder;

fn int(v: usize) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A sparse matrix group: compressed rows (`nz = −2`) when `csr` holds the row pointers, else
/// triplets (`nz` ≥ 0, `i` = rows, `p` = columns).
fn put_sparse(g: &mut Group, m: usize, n: usize, rows: &[i32], cols: &[i32], x: &[f64], csr: bool) {
    g.create_dataset("m").with_i32_data(&[int(m)]);
    g.create_dataset("n").with_i32_data(&[int(n)]);
    g.create_dataset("nz").with_i32_data(&[if csr { -2 } else { int(x.len()) }]);
    g.create_dataset("nzmax").with_i32_data(&[int(x.len())]);
    g.create_dataset("p").with_i32_data(if csr { rows } else { cols });
    g.create_dataset("i").with_i32_data(if csr { cols } else { rows });
    g.create_dataset("x").with_f64_data(x);
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

/// `name` as a child group of `parent`, filled by `fill`.
fn child(parent: &mut Group, name: &str, fill: impl FnOnce(&mut Group)) {
    let mut g = parent.create_group(name);
    fill(&mut g);
    parent.add_group(g.finish());
}

fn put_info(g: &mut Group, info: &FclibInfo) {
    child(g, "info", |i| {
        for (k, v) in [("title", &info.title), ("description", &info.description), ("math_info", &info.math_info)] {
            // a scalar string, as FCLib writes it
            i.create_dataset(k).with_vlen_strings(&[v.as_str()]).with_shape(&[]);
        }
    });
}

fn put_solution(g: &mut Group, s: &FclibSolution) {
    for (k, v) in [("r", &s.r), ("u", &s.u), ("v", &s.v)] {
        if !v.is_empty() || k == "r" {
            g.create_dataset(k).with_f64_data(v);
        }
    }
}

/// An FCLib file with group `name` (`spacedim` = `dim`, what `fill` writes, `info`) and the
/// solution (`/solution`) and guesses (`/guesses/k`, FCLib's `fclib_write_guesses`); the file is
/// replaced.
fn write_problem(
    path: &std::path::Path,
    name: &str,
    dim: usize,
    fill: impl FnOnce(&mut Group),
    info: &FclibInfo,
    solution: Option<&FclibSolution>,
    guesses: &[FclibSolution],
) -> Result<()> {
    let mut b = hdf5_pure::FileBuilder::new();
    let mut g = b.create_group(name);
    g.create_dataset("spacedim").with_i32_data(&[int(dim)]);
    fill(&mut g);
    put_info(&mut g, info);
    b.add_group(g.finish());
    if let Some(s) = solution {
        let mut g = b.create_group("solution");
        put_solution(&mut g, s);
        b.add_group(g.finish());
    }
    if !guesses.is_empty() {
        let mut g = b.create_group("guesses");
        g.create_dataset("number_of_guesses").with_i32_data(&[int(guesses.len())]);
        for (k, s) in guesses.iter().enumerate() {
            child(&mut g, &(k + 1).to_string(), |c| put_solution(c, s));
        }
        b.add_group(g.finish());
    }
    b.write(path).map_err(|e| err(path, "write", e))
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
    let fill = |g: &mut Group| {
        let (ptr, col, x) = w_csr(p.w());
        child(g, "W", |w| put_sparse(w, p.size(), p.size(), &ptr, &col, &x, true));
        child(g, "vectors", |v| {
            v.create_dataset("q").with_f64_data(p.q());
            v.create_dataset("mu").with_f64_data(p.mu());
        });
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
    let fill = |g: &mut Group| {
        for (name, t) in [("M", p.m()), ("H", p.h())] {
            let (r, c, x) = triplets(t);
            child(g, name, |s| put_sparse(s, t.nrows, t.ncols, &r, &c, &x, false));
        }
        child(g, "vectors", |v| {
            v.create_dataset("f").with_f64_data(p.q());
            v.create_dataset("w").with_f64_data(p.b());
            v.create_dataset("mu").with_f64_data(p.mu());
        });
    };
    write_problem(path, "fclib_global", p.dim(), fill, info, solution, guesses)
}

/// Reads `/solution` (or, with `guess = Some(k)`, `/guesses/k`, from 1) of an FCLib file:
/// `None` when the file has none; absent vectors are empty.
pub fn read_fclib_solution(path: &std::path::Path, guess: Option<usize>) -> Result<Option<FclibSolution>> {
    let f = Reader::open(path)?;
    let name = guess.map_or_else(|| "solution".to_string(), |k| format!("guesses/{k}"));
    if f.file.group(&name).is_err() {
        return Ok(None);
    }
    let get = |k: &str| {
        let d = format!("{name}/{k}");
        if f.has(&d) {
            f.reals(&d)
        } else {
            Ok(vec![])
        }
    };
    Ok(Some(FclibSolution { r: get("r")?, u: get("u")?, v: get("v")? }))
}
