//! The structure the global friction-contact problem has in mechanics: `M` block-diagonal (one
//! block per dynamical system) and `H` sparse, each contact touching one or two blocks.
//!
//! [`BlockDiagSystem`] finds the diagonal blocks of `M` (the finest partition into contiguous
//! blocks with no entry outside them), factors each block by dense LU, and keeps, per contact
//! `α`, the nonzero rows of `H_α` and of `X_α = M⁻¹ H_α`. This gives without ever forming
//! `W = Hᵀ M⁻¹ H` densely:
//! * `v = M⁻¹ (q + H r)` block by block ([`BlockDiagSystem::velocity`]),
//! * the diagonal Delassus blocks `W_αα = H_αᵀ X_α` ([`BlockDiagSystem::diag_block`]),
//! * the update `v ← v + X_α Δr_α` of a Gauss–Seidel step on contact `α`,
//! * the sparse `W` in `dim × dim` blocks, `W_αβ = Σ_B H_{B,α}ᵀ M_B⁻¹ H_{B,β}` over the blocks `B`
//!   both contacts touch (cost `Σ_B deg(B)²`), for the condensed solvers.

use crate::error::{NumericsError, Result};
use crate::matrix::{BlockCsr, BlockTriplet, Operator};
use nalgebra::DMatrix;
use std::collections::BTreeMap;

/// `M` factored block by block, and `H`, `M⁻¹H` stored per contact.
pub(crate) struct BlockDiagSystem {
    dim: usize,
    /// Start row of each diagonal block (and `n` at the end).
    starts: Vec<usize>,
    /// Block of each row.
    block_of: Vec<usize>,
    /// LU factors of each block (column-major, with pivots).
    lu: Vec<nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>>,
    /// Per contact, the nonzero rows of `H_α`: `(row, [values for the dim columns])`, sorted.
    h_rows: Vec<Vec<(usize, [f64; MAX_DIM])>>,
    /// Per contact, the rows of `X_α = M⁻¹ H_α` over the blocks it touches, sorted.
    x_rows: Vec<Vec<(usize, [f64; MAX_DIM])>>,
}

/// Most unknowns per contact (5: a rolling contact in 3D).
const MAX_DIM: usize = 5;

/// Largest diagonal block accepted (its dense LU costs `s³`).
pub(crate) const MAX_BLOCK: usize = 256;

impl BlockDiagSystem {
    /// From `M` (n × n entries), `H` (n × dim·nc entries). `Ok(None)` when `M` has a diagonal
    /// block larger than [`MAX_BLOCK`]; an error when a block is singular.
    pub fn new(
        dim: usize,
        n: usize,
        m: &[(usize, usize, f64)],
        h: &[(usize, usize, f64)],
        nc: usize,
    ) -> Result<Option<Self>> {
        if dim > MAX_DIM {
            return Err(NumericsError::InvalidOption {
                option: "dim",
                reason: format!("at most {MAX_DIM} unknowns per contact, got {dim}"),
            });
        }
        // cover[k] > 0: an entry couples a row/column < k with one ≥ k, so no block starts at k.
        let mut cover = vec![0i64; n + 1];
        for &(i, j, _) in m {
            let (a, b) = (i.min(j), i.max(j));
            if a != b {
                cover[a + 1] += 1;
                cover[b + 1] -= 1;
            }
        }
        let mut starts = vec![0];
        let mut acc = 0;
        for (k, c) in cover.iter().enumerate().take(n).skip(1) {
            acc += c;
            if acc == 0 {
                starts.push(k);
            }
        }
        starts.push(n);
        if n == 0 {
            starts = vec![0, 0];
        }
        let nb = starts.len() - 1;
        if (0..nb).any(|b| starts[b + 1] - starts[b] > MAX_BLOCK) {
            return Ok(None);
        }
        let mut block_of = vec![0; n];
        for b in 0..nb {
            block_of[starts[b]..starts[b + 1]].iter_mut().for_each(|x| *x = b);
        }
        let mut dense: Vec<DMatrix<f64>> =
            (0..nb).map(|b| DMatrix::zeros(starts[b + 1] - starts[b], starts[b + 1] - starts[b])).collect();
        for &(i, j, v) in m {
            let b = block_of[i];
            dense[b][(i - starts[b], j - starts[b])] += v;
        }
        let mut lu = Vec::with_capacity(nb);
        for (b, d) in dense.into_iter().enumerate() {
            let f = d.lu();
            if d_is_singular(&f) {
                return Err(NumericsError::Singular { what: "diagonal block of M", index: starts[b] });
            }
            lu.push(f);
        }
        // H per contact: rows sorted, the dim columns of the contact side by side.
        let mut h_rows: Vec<Vec<(usize, [f64; MAX_DIM])>> = vec![Vec::new(); nc];
        let mut sorted: Vec<&(usize, usize, f64)> = h.iter().collect();
        sorted.sort_by_key(|e| (e.1 / dim, e.0));
        for &&(i, j, v) in &sorted {
            let (a, k) = (j / dim, j % dim);
            let rows = &mut h_rows[a];
            match rows.last_mut() {
                Some((r, vals)) if *r == i => vals[k] += v,
                _ => {
                    let mut vals = [0.0; MAX_DIM];
                    vals[k] = v;
                    rows.push((i, vals));
                }
            }
        }
        let mut sys = BlockDiagSystem { dim, starts, block_of, lu, h_rows, x_rows: Vec::with_capacity(nc) };
        for a in 0..nc {
            let x = sys.solve_contact(a);
            sys.x_rows.push(x);
        }
        Ok(Some(sys))
    }

    /// `X_α = M⁻¹ H_α` over the blocks contact `a` touches.
    fn solve_contact(&self, a: usize) -> Vec<(usize, [f64; MAX_DIM])> {
        let rows = &self.h_rows[a];
        let mut out = Vec::new();
        let mut k = 0;
        while k < rows.len() {
            let b = self.block_of[rows[k].0];
            let (s, e) = (self.starts[b], self.starts[b + 1]);
            let mut rhs = DMatrix::<f64>::zeros(e - s, self.dim);
            while k < rows.len() && rows[k].0 < e {
                for c in 0..self.dim {
                    rhs[(rows[k].0 - s, c)] = rows[k].1[c];
                }
                k += 1;
            }
            self.lu[b].solve_mut(&mut rhs);
            for i in 0..e - s {
                let mut vals = [0.0; MAX_DIM];
                for c in 0..self.dim {
                    vals[c] = rhs[(i, c)];
                }
                out.push((s + i, vals));
            }
        }
        out
    }

    /// Number of contacts.
    pub fn n_contacts(&self) -> usize {
        self.h_rows.len()
    }

    /// `v = M⁻¹ (q + H r)`; `false` if a value is not finite.
    pub fn velocity(&self, q: &[f64], r: &[f64], v: &mut [f64]) -> bool {
        v.copy_from_slice(q);
        for (a, rows) in self.h_rows.iter().enumerate() {
            let ra = &r[a * self.dim..(a + 1) * self.dim];
            for (i, vals) in rows {
                v[*i] += (0..self.dim).map(|c| vals[c] * ra[c]).sum::<f64>();
            }
        }
        for (b, f) in self.lu.iter().enumerate() {
            let (s, e) = (self.starts[b], self.starts[b + 1]);
            let mut x = nalgebra::DVectorViewMut::from_slice(&mut v[s..e], e - s);
            f.solve_mut(&mut x);
        }
        v.iter().all(|x| x.is_finite())
    }

    /// `u_α = H_αᵀ v` (written into `out[..dim]`).
    pub fn contact_velocity(&self, a: usize, v: &[f64], out: &mut [f64]) {
        out[..self.dim].iter_mut().for_each(|x| *x = 0.0);
        for (i, vals) in &self.h_rows[a] {
            for c in 0..self.dim {
                out[c] += vals[c] * v[*i];
            }
        }
    }

    /// `v ← v + X_α d` (the velocity change of a reaction change `d` on contact `a`).
    pub fn add_contact_impulse(&self, a: usize, d: &[f64], v: &mut [f64]) {
        for (i, vals) in &self.x_rows[a] {
            v[*i] += (0..self.dim).map(|c| vals[c] * d[c]).sum::<f64>();
        }
    }

    /// `W_αα = H_αᵀ X_α`, column-major into `out[..dim²]`.
    pub fn diag_block(&self, a: usize, out: &mut [f64]) {
        self.coupling(a, a, out);
    }

    /// `W_ab = H_aᵀ X_b`, column-major into `out[..dim²]` (merge of two sorted row lists).
    fn coupling(&self, a: usize, b: usize, out: &mut [f64]) {
        let d = self.dim;
        out[..d * d].iter_mut().for_each(|x| *x = 0.0);
        let (ha, xb) = (&self.h_rows[a], &self.x_rows[b]);
        let (mut i, mut j) = (0, 0);
        while i < ha.len() && j < xb.len() {
            match ha[i].0.cmp(&xb[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    for col in 0..d {
                        for row in 0..d {
                            out[row + col * d] += ha[i].1[row] * xb[j].1[col];
                        }
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
    }

    /// The condensed `W = Hᵀ M⁻¹ H`: dense up to 64 unknowns (or up to `dense_max` when a quarter
    /// of its blocks are nonzero), else block-sparse (`dim × dim` blocks, only pairs of contacts
    /// sharing a block of `M`).
    pub fn delassus(&self, dense_max: usize) -> Result<Operator> {
        let (d, nc) = (self.dim, self.n_contacts());
        // contacts touching each block of M
        let mut by_block: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (a, rows) in self.h_rows.iter().enumerate() {
            let mut last = None;
            for (i, _) in rows {
                let b = self.block_of[*i];
                if last != Some(b) {
                    by_block.entry(b).or_default().push(a);
                    last = Some(b);
                }
            }
        }
        let mut pairs: BTreeMap<(usize, usize), ()> = BTreeMap::new();
        for a in 0..nc {
            pairs.insert((a, a), ());
        }
        for list in by_block.values() {
            for &a in list {
                for &b in list {
                    pairs.insert((a, b), ());
                }
            }
        }
        let mut blk = vec![0.0; d * d];
        // dense when small, or when a quarter of the blocks are nonzero anyway
        if d * nc <= dense_max && (d * nc <= 64 || 4 * pairs.len() >= nc * nc) {
            let mut w = DMatrix::<f64>::zeros(d * nc, d * nc);
            for &(a, b) in pairs.keys() {
                self.coupling(a, b, &mut blk);
                for col in 0..d {
                    for row in 0..d {
                        w[(a * d + row, b * d + col)] = blk[row + col * d];
                    }
                }
            }
            return Ok(Operator::Dense(w));
        }
        let trip = pairs
            .keys()
            .map(|&(a, b)| {
                self.coupling(a, b, &mut blk);
                BlockTriplet { row: a, col: b, values: blk.clone() }
            })
            .collect();
        let sizes = vec![d; nc];
        Ok(Operator::BlockCsr(BlockCsr::from_triplets(&sizes, &sizes, trip)?))
    }
}

fn d_is_singular(f: &nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>) -> bool {
    let u = f.u();
    (0..u.nrows()).any(|i| u[(i, i)] == 0.0 || !u[(i, i)].is_finite())
}
