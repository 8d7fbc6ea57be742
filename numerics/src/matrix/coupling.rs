//! The coupling graph of the block rows of `H` and the assembly of the Delassus operator
//! `W = H M⁻¹ Hᵀ` from it (Siconos: the interaction graph seen from the interactions, whose
//! edges are the `W` blocks the `OSNSMatrix` holds).
//!
//! Each block row `α` of `H` (an interaction, a contact, a joint row) touches at most two
//! *systems* (dynamical systems, dynamic bodies; a static side touches none) through its sides
//! `0` and `1`. With `M` block-diagonal over the systems,
//!
//! ```text
//! W_αβ = Σ_{(s, t): sys(α, s) = sys(β, t)} H_α,s M_sys⁻¹ H_β,tᵀ,
//! ```
//!
//! nonzero only when `α` and `β` share a system. [`CouplingGraph::build`] lists each system's
//! `(row, side)` pairs sorted by row (one counting sort, `O(rows + systems)`); the couplings of
//! row `α` are then the merge of its (at most two) lists: columns `β` come out ascending, each
//! once, with the pairs `(s, t)` of shared sides in the order `s = 0` then `s = 1`. The cost of a
//! whole `W` is `Σ_systems deg²`, without sort or search, and the order is deterministic.
//!
//! The callers keep only their block formula: [`CouplingGraph::block_csr`],
//! [`CouplingGraph::refill_block_csr`] and [`CouplingGraph::fill_dense`] call it once per
//! coupling.

use super::{BlockCsr, BlockCsrParts};
use crate::{NumericsError, Result};
use nalgebra::DMatrixViewMut;

/// Marks a side that touches no system (static, kinematic or absent).
pub const NO_SYSTEM: u32 = u32::MAX;

/// The fewest rows [`CouplingGraph::block_csr_par`] splits over threads (a rayon task costs
/// microseconds; a row's blocks about 0.1 µs).
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
pub const PAR_MIN_ROWS: usize = 2048;

/// Block `W_αβ` of a pair of rows sharing at least one system: `row = α`, `col = β` and the
/// pairs `(s, t)` of a side `s` of `α` and a side `t` of `β` on the same system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coupling {
    /// Block row `α`.
    pub row: usize,
    /// Block column `β`.
    pub col: usize,
    pairs: [(u8, u8); 4],
    n: u8,
}

impl Coupling {
    /// The shared sides `(s, t)`: `s` ascending, then `t` ascending (two when `α` and `β` share
    /// both their systems; up to four if a row names the same system on both sides).
    #[inline]
    pub fn sides(&self) -> &[(u8, u8)] {
        &self.pairs[..self.n as usize]
    }
}

/// The systems of each block row and each system's rows, rebuilt when the rows change and
/// reused (no allocation once the buffers are large enough).
#[derive(Debug, Default, Clone)]
pub struct CouplingGraph {
    sides: Vec<[u32; 2]>,
    /// `adj[ptr[b]..ptr[b + 1]]`: the `(row, side)` pairs of system `b`, sorted.
    ptr: Vec<usize>,
    adj: Vec<(u32, u8)>,
    fill: Vec<usize>,
    /// First scalar row of each block row (dense fill).
    starts: Vec<usize>,
}

impl CouplingGraph {
    /// Builds the graph of `rows` (the system of side 0 and side 1 of each block row, or
    /// [`NO_SYSTEM`]) over `n_systems` systems. A system index `≥ n_systems` is an error.
    pub fn build(&mut self, n_systems: usize, rows: impl IntoIterator<Item = [u32; 2]>) -> Result<()> {
        self.sides.clear();
        self.sides.extend(rows);
        if self.sides.len() >= NO_SYSTEM as usize {
            return Err(NumericsError::DimensionMismatch {
                what: "coupling graph rows",
                expected: NO_SYSTEM as usize - 1,
                found: self.sides.len(),
            });
        }
        self.ptr.clear();
        self.ptr.resize(n_systems + 1, 0);
        for r in &self.sides {
            for &b in r {
                if b == NO_SYSTEM {
                    continue;
                }
                if b as usize >= n_systems {
                    self.sides.clear();
                    return Err(NumericsError::DimensionMismatch {
                        what: "coupling graph system index bound",
                        expected: n_systems,
                        found: b as usize + 1,
                    });
                }
                self.ptr[b as usize + 1] += 1;
            }
        }
        for b in 0..n_systems {
            self.ptr[b + 1] += self.ptr[b];
        }
        self.fill.clear();
        self.fill.extend_from_slice(&self.ptr[..n_systems]);
        self.adj.clear();
        self.adj.resize(self.ptr[n_systems], (0, 0));
        for (a, r) in self.sides.iter().enumerate() {
            for (s, &b) in r.iter().enumerate() {
                if b != NO_SYSTEM {
                    self.adj[self.fill[b as usize]] = (a as u32, s as u8);
                    self.fill[b as usize] += 1;
                }
            }
        }
        Ok(())
    }

    /// Number of block rows.
    pub fn n_rows(&self) -> usize {
        self.sides.len()
    }

    /// The `(row, side)` pairs of system `b` (empty for [`NO_SYSTEM`]).
    #[inline]
    pub fn rows_of(&self, b: u32) -> &[(u32, u8)] {
        match b {
            NO_SYSTEM => &[],
            b => &self.adj[self.ptr[b as usize]..self.ptr[b as usize + 1]],
        }
    }

    /// Calls `f` once per coupling of row `alpha` (itself included if it touches a system), by
    /// ascending column.
    #[inline]
    pub fn for_each_coupling(&self, alpha: usize, mut f: impl FnMut(&Coupling)) {
        let [b0, b1] = self.sides[alpha];
        let (l0, l1) = (self.rows_of(b0), self.rows_of(b1));
        let (mut i, mut j) = (0, 0);
        let mut c = Coupling { row: alpha, col: 0, pairs: [(0, 0); 4], n: 0 };
        while i < l0.len() || j < l1.len() {
            let e0 = if i < l0.len() { l0[i].0 } else { u32::MAX };
            let e1 = if j < l1.len() { l1[j].0 } else { u32::MAX };
            let beta = e0.min(e1);
            c.col = beta as usize;
            // A block row lists a system at most twice (both sides): `n < 4` always holds.
            let mut n = 0;
            while i < l0.len() && l0[i].0 == beta && n < 4 {
                c.pairs[n] = (0, l0[i].1);
                n += 1;
                i += 1;
            }
            while j < l1.len() && l1[j].0 == beta && n < 4 {
                c.pairs[n] = (1, l1[j].1);
                n += 1;
                j += 1;
            }
            c.n = n as u8;
            f(&c);
        }
    }

    /// `W` in block-CSR storage, in the buffers of `parts`: block row `α` is `size(α)` high and
    /// block column `β` `size(β)` wide; `block(c, values)` appends `W_αβ` (column-major) to
    /// `values`. A block of another size is an error.
    pub fn block_csr(
        &self,
        size: impl Fn(usize) -> usize,
        mut parts: BlockCsrParts,
        mut block: impl FnMut(&Coupling, &mut Vec<f64>),
    ) -> Result<BlockCsr> {
        let n = self.n_rows();
        let p = &mut parts;
        start_parts(p, n, &size);
        p.values.clear();
        let mut bad = None;
        for a in 0..n {
            let ma = size(a);
            self.for_each_coupling(a, |c| {
                let start = p.values.len();
                block(c, &mut p.values);
                let expected = ma * size(c.col);
                if p.values.len() != start + expected {
                    bad.get_or_insert((expected, p.values.len() - start));
                }
                p.col_idx.push(c.col);
                p.val_ptr.push(p.values.len());
            });
            p.row_ptr.push(p.col_idx.len());
        }
        if let Some((expected, found)) = bad {
            return Err(NumericsError::DimensionMismatch { what: "values of a block of W", expected, found });
        }
        BlockCsr::from_parts(parts)
    }

    /// [`CouplingGraph::block_csr`] with the blocks written in place: the pattern first (one
    /// pass over the couplings), then `block(c, out)` writes `W_αβ` (column-major) into `out`,
    /// its `size(α) × size(β)` values. With the feature `parallel`, on rayon's current pool of
    /// more than one thread and at least `PAR_MIN_ROWS` rows, chunks of rows are written at
    /// once: each block is a function of its coupling only, so the matrix is the same, bit for
    /// bit, on any number of threads.
    pub fn block_csr_par(
        &self,
        size: impl Fn(usize) -> usize,
        mut parts: BlockCsrParts,
        block: impl Fn(&Coupling, &mut [f64]) + Sync,
    ) -> Result<BlockCsr> {
        let n = self.n_rows();
        let p = &mut parts;
        start_parts(p, n, &size);
        let mut len = 0;
        for a in 0..n {
            let ma = size(a);
            self.for_each_coupling(a, |c| {
                len += ma * size(c.col);
                p.col_idx.push(c.col);
                p.val_ptr.push(len);
            });
            p.row_ptr.push(p.col_idx.len());
        }
        p.values.clear();
        p.values.resize(len, 0.0);
        let (row_ptr, val_ptr) = (&p.row_ptr, &p.val_ptr);
        // rows `rows` into `values`, the values of those rows
        let fill = |rows: std::ops::Range<usize>, values: &mut [f64]| {
            let base = val_ptr[row_ptr[rows.start]];
            for a in rows {
                let mut k = row_ptr[a];
                self.for_each_coupling(a, |c| {
                    block(c, &mut values[val_ptr[k] - base..val_ptr[k + 1] - base]);
                    k += 1;
                });
            }
        };
        #[cfg(feature = "parallel")]
        if rayon::current_num_threads() > 1 && n >= PAR_MIN_ROWS {
            use rayon::prelude::*;
            let chunk = n.div_ceil(4 * rayon::current_num_threads()).max(256);
            // split the values at the chunks' first rows
            let mut slices = Vec::with_capacity(n.div_ceil(chunk));
            let mut rest = &mut p.values[..];
            for start in (0..n).step_by(chunk) {
                let end = (start + chunk).min(n);
                let (head, tail) = rest.split_at_mut(val_ptr[row_ptr[end]] - val_ptr[row_ptr[start]]);
                slices.push((start..end, head));
                rest = tail;
            }
            slices.into_par_iter().for_each(|(rows, values)| fill(rows, values));
            return BlockCsr::from_parts(parts);
        }
        fill(0..n, &mut p.values);
        BlockCsr::from_parts(parts)
    }

    /// Refills `m`, a matrix built by [`CouplingGraph::block_csr`] on the same graph (an
    /// earlier step with the same rows): every stored block is zeroed, then `block(c, out)` adds
    /// `W_αβ`. A pattern that is not the graph's is an error.
    pub fn refill_block_csr(&self, m: &mut BlockCsr, mut block: impl FnMut(&Coupling, &mut [f64])) -> Result<()> {
        let n = self.n_rows();
        if m.n_block_rows() != n {
            return Err(NumericsError::DimensionMismatch {
                what: "block rows of the refilled W",
                expected: n,
                found: m.n_block_rows(),
            });
        }
        let mut mismatch = None;
        for a in 0..n {
            let mut k = m.row_blocks(a).start;
            let end = m.row_blocks(a).end;
            self.for_each_coupling(a, |c| {
                if k < end && m.block_col(k) == c.col {
                    let out = m.block_values_mut(k);
                    out.iter_mut().for_each(|v| *v = 0.0);
                    block(c, out);
                } else {
                    mismatch.get_or_insert(k);
                }
                k += 1;
            });
            if k != end {
                mismatch.get_or_insert(k);
            }
        }
        match mismatch {
            None => Ok(()),
            Some(k) => Err(NumericsError::DimensionMismatch {
                what: "stored blocks of the refilled W (pattern of other rows)",
                expected: k,
                found: m.n_blocks(),
            }),
        }
    }

    /// Dense `W` into `w`, which must be `n × n` with `n = Σ size(α)` (a view: the top-left
    /// corner of a larger workspace will do): `w` is zeroed, then `block(c, out)` adds `W_αβ`
    /// into the view `out` of its rows and columns.
    pub fn fill_dense(
        &mut self,
        size: impl Fn(usize) -> usize,
        mut w: DMatrixViewMut<'_, f64>,
        mut block: impl FnMut(&Coupling, DMatrixViewMut<'_, f64>),
    ) -> Result<()> {
        let mut starts = std::mem::take(&mut self.starts);
        starts.clear();
        let mut n = 0;
        for a in 0..self.n_rows() {
            starts.push(n);
            n += size(a);
        }
        let result = if w.shape() != (n, n) {
            Err(NumericsError::DimensionMismatch { what: "rows of the dense W", expected: n, found: w.nrows() })
        } else {
            w.fill(0.0);
            for a in 0..self.n_rows() {
                self.for_each_coupling(a, |c| {
                    block(c, w.view_mut((starts[a], starts[c.col]), (size(a), size(c.col))));
                });
            }
            Ok(())
        };
        self.starts = starts;
        result
    }
}

/// Clears `p` for a fill of `n` block rows of sizes `size(α)` (rows and columns alike): the
/// scalar starts, and the first entries of the block and value pointers.
fn start_parts(p: &mut BlockCsrParts, n: usize, size: &impl Fn(usize) -> usize) {
    p.row_starts.clear();
    p.row_starts.push(0);
    for a in 0..n {
        p.row_starts.push(p.row_starts[a] + size(a));
    }
    p.col_starts.clear();
    p.col_starts.extend_from_slice(&p.row_starts);
    p.row_ptr.clear();
    p.row_ptr.push(0);
    p.col_idx.clear();
    p.val_ptr.clear();
    p.val_ptr.push(0);
}

#[cfg(test)]
mod tests;
