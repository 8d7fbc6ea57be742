//! Assembly of the one-step problem `w = M λ + q` over the active interactions (Siconos
//! `OSNSMatrix`): `M_ab = D_a δ_ab + Σ_{ds shared by a and b} jac_a,ds (W_ds⁻¹ bmat_b,ds)`
//! (times `h` for first-order systems), `q_a` = the free output of `a`.
//!
//! Storage is dense or sparse block-row ([`BlockCsr`], one block row per interaction). The
//! coupling pattern (the line graph of Siconos) is found by walking each system's interaction
//! list. The matrix is rebuilt only when the active set changes or a relation / `W` is not
//! constant; its buffers are reused, so a stable active set allocates nothing. With sparse
//! storage the block patterns of the last [`PATTERN_CACHE`] active sets are kept: an active set
//! that comes back (a contact that closes and opens again) reuses its pattern instead of
//! building a new one.

use super::interaction_work::InterWork;
use crate::model::nsds::InterId;
use nalgebra::{DMatrix, DMatrixViewMut};
use saltus_numerics::matrix::BlockTriplet;
use saltus_numerics::{BlockCsr, NumericsError, Operator};

/// Matrix storage of the one-step problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Storage {
    /// Dense up to [`crate::OsnspOptions::sparse_threshold`] rows (and always for solvers that
    /// need a dense matrix), sparse block above.
    #[default]
    Auto,
    /// Always dense.
    Dense,
    /// Always sparse block-row.
    SparseBlock,
}

/// Number of sparse block patterns kept for active sets seen before the current one.
pub const PATTERN_CACHE: usize = 8;

pub(crate) struct Assembly {
    pub n: usize,
    pub op: Option<Operator>,
    /// The active set whose sparse pattern `op` holds (empty for dense storage).
    key: Vec<InterId>,
    /// Sparse patterns of earlier active sets, most recent first.
    patterns: Vec<(Vec<InterId>, BlockCsr)>,
    pub q: Vec<f64>,
    pub z: Vec<f64>,
    pub w: Vec<f64>,
    /// `op` matches the active set of this generation and needs no refill.
    pub ready_generation: Option<u64>,
    /// Interaction id → block index in the active list.
    block: Vec<Option<usize>>,
}

impl Assembly {
    pub fn new(n_inters: usize) -> Self {
        Assembly {
            n: 0,
            op: None,
            key: Vec::new(),
            patterns: Vec::with_capacity(PATTERN_CACHE + 1),
            q: Vec::new(),
            z: Vec::new(),
            w: Vec::new(),
            ready_generation: None,
            block: vec![None; n_inters],
        }
    }

    /// Makes room for `n` interaction slots and forgets the cached sparse patterns (a reused slot
    /// may couple other systems than the interaction its id named before).
    pub fn reset_topology(&mut self, n_inters: usize) {
        if self.block.len() < n_inters {
            self.block.resize(n_inters, None);
        }
        self.patterns.clear();
        self.op = None;
        self.key.clear();
        self.ready_generation = None;
    }

    /// Resizes `q`, `z`, `w` to `n` (no allocation when the size does not grow).
    pub fn resize(&mut self, n: usize) {
        self.n = n;
        self.q.resize(n, 0.0);
        self.z.resize(n, 0.0);
        self.w.resize(n, 0.0);
    }

    /// Builds or refills `M` for the interactions `active` at offsets `pos`.
    pub fn assemble_matrix(
        &mut self,
        active: &[InterId],
        pos: &[Option<usize>],
        iws: &[InterWork],
        ds_to_inters: &[Vec<InterId>],
        sparse: bool,
        generation: u64,
    ) -> Result<(), NumericsError> {
        let n = self.n;
        let new_structure = self.ready_generation != Some(generation);
        if new_structure {
            self.block.iter_mut().for_each(|b| *b = None);
            for (k, id) in active.iter().enumerate() {
                self.block[id.index()] = Some(k);
            }
        }
        if !sparse {
            let reuse = matches!(&self.op, Some(Operator::Dense(m)) if m.shape() == (n, n));
            if !reuse {
                self.op = Some(Operator::Dense(DMatrix::zeros(n, n)));
            }
            let Some(Operator::Dense(m)) = &mut self.op else { unreachable!() };
            m.fill(0.0);
            for_each_coupling(active, iws, ds_to_inters, &self.block, |a, b, _, _| {
                let (ra, rb) = (pos[a.id.index()].unwrap_or(0), pos[b.id.index()].unwrap_or(0));
                add_block(a, b, m.view_mut((ra, rb), (a.m, b.m)));
            });
            return Ok(());
        }
        let reuse = !new_structure && matches!(&self.op, Some(Operator::BlockCsr(_)));
        if !reuse {
            self.park_pattern();
            if let Some(i) = self.patterns.iter().position(|(k, _)| k == active) {
                let (key, pattern) = self.patterns.remove(i);
                self.key = key;
                self.op = Some(Operator::BlockCsr(pattern));
            }
        }
        if !reuse && self.op.is_none() {
            self.key = active.to_vec();
            let sizes: Vec<usize> = active.iter().map(|id| iws[id.index()].m).collect();
            let mut trip = Vec::new();
            for_each_coupling(active, iws, ds_to_inters, &self.block, |a, b, ka, kb| {
                trip.push(BlockTriplet { row: ka, col: kb, values: vec![0.0; a.m * b.m] });
            });
            self.op = Some(Operator::BlockCsr(BlockCsr::from_triplets(&sizes, &sizes, trip)?));
        }
        let Some(Operator::BlockCsr(m)) = &mut self.op else { unreachable!() };
        for k in 0..m.n_blocks() {
            m.block_values_mut(k).iter_mut().for_each(|v| *v = 0.0);
        }
        for_each_coupling(active, iws, ds_to_inters, &self.block, |a, b, ka, kb| {
            if let Some(k) = m.find_block(ka, kb) {
                add_block(a, b, DMatrixViewMut::from_slice(m.block_values_mut(k), a.m, b.m));
            }
        });
        Ok(())
    }

    /// Moves the current sparse pattern into the cache (dropping the oldest one when full).
    fn park_pattern(&mut self) {
        if let Some(Operator::BlockCsr(pattern)) = self.op.take() {
            if self.patterns.len() == PATTERN_CACHE {
                self.patterns.pop();
            }
            self.patterns.insert(0, (std::mem::take(&mut self.key), pattern));
        }
    }

    pub fn mark_ready(&mut self, generation: u64) {
        self.ready_generation = Some(generation);
    }
}

/// Calls `f(a, b, block_a, block_b)` once per pair of active interactions sharing a system
/// (including `a` with itself), in a deterministic order (active order, then each system's list).
fn for_each_coupling<'a>(
    active: &[InterId],
    iws: &'a [InterWork],
    ds_to_inters: &[Vec<InterId>],
    block: &[Option<usize>],
    mut f: impl FnMut(&'a InterWork, &'a InterWork, usize, usize),
) {
    for (ka, ida) in active.iter().enumerate() {
        let a = &iws[ida.index()];
        for (j, d) in std::iter::once(a.ds.0).chain(a.ds.1).enumerate() {
            for idb in &ds_to_inters[d.index()] {
                let Some(kb) = block[idb.index()] else {
                    continue;
                };
                let b = &iws[idb.index()];
                // a pair sharing both systems of `a` is visited on the first system only
                if j == 1 && b.block_of(a.ds.0).is_some() {
                    continue;
                }
                f(a, b, ka, kb);
            }
        }
    }
}

/// `out += Σ_{ds shared by a and b} jac_a,ds winv_b_b,ds`, plus `D_a` on the diagonal block.
fn add_block(a: &InterWork, b: &InterWork, mut out: DMatrixViewMut<'_, f64>) {
    for d in std::iter::once(a.ds.0).chain(a.ds.1) {
        let (Some((ca, na)), Some((cb, _))) = (a.block_of(d), b.block_of(d)) else {
            continue;
        };
        out.gemm(1.0, &a.jac.columns(ca, na), &b.winv_b.rows(cb, na), 1.0);
    }
    if a.id == b.id && a.has_d {
        out += &a.d;
    }
}
