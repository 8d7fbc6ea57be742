//! Assembly of the one-step problem `w = M λ + q` over the active interactions (Siconos
//! `OSNSMatrix`): `M_ab = D_a δ_ab + Σ_{ds shared by a and b} jac_a,ds (W_ds⁻¹ bmat_b,ds)`
//! (times `h` for first-order systems), `q_a` = the free output of `a`.
//!
//! Storage is dense or sparse block-row ([`BlockCsr`], one block row per interaction). The
//! coupling pattern (the line graph of Siconos) and the fills are numerics' [`CouplingGraph`]
//! (the systems of each active interaction, rebuilt when the active set changes), shared with
//! the mechanics contacts and joints; only the block formula is here. The matrix is rebuilt
//! only when the active set changes or a relation / `W` is not constant; its buffers are
//! reused, so a stable active set allocates nothing. With sparse
//! storage the block patterns of the last [`PATTERN_CACHE`] active sets are kept: an active set
//! that comes back (a contact that closes and opens again) reuses its pattern instead of
//! building a new one.

use super::interaction_work::InterWork;
use crate::model::nsds::InterId;
use nalgebra::{DMatrix, DMatrixViewMut};
use saltus_numerics::matrix::{BlockCsrParts, Coupling, CouplingGraph, NO_SYSTEM};
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
    /// Coupling graph of the active interactions (systems: the DS).
    graph: CouplingGraph,
}

impl Assembly {
    pub fn new() -> Self {
        Assembly {
            n: 0,
            op: None,
            key: Vec::new(),
            patterns: Vec::with_capacity(PATTERN_CACHE + 1),
            q: Vec::new(),
            z: Vec::new(),
            w: Vec::new(),
            ready_generation: None,
            graph: CouplingGraph::default(),
        }
    }

    /// Forgets the cached sparse patterns (a reused interaction slot may couple other systems
    /// than the interaction its id named before).
    pub fn reset_topology(&mut self) {
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

    /// Builds or refills `M` for the interactions `active` (at consecutive offsets, in this
    /// order) over `n_ds` systems.
    pub fn assemble_matrix(
        &mut self,
        active: &[InterId],
        iws: &[InterWork],
        n_ds: usize,
        sparse: bool,
        generation: u64,
    ) -> Result<(), NumericsError> {
        let new_structure = self.ready_generation != Some(generation);
        if new_structure {
            let systems = |id: &InterId| {
                let ds = iws[id.index()].ds;
                [ds.0 .0, ds.1.map_or(NO_SYSTEM, |d| d.0)]
            };
            self.graph.build(n_ds, active.iter().map(systems))?;
        }
        let size = |k: usize| iws[active[k].index()].m;
        let pair = |c: &Coupling| (&iws[active[c.row].index()], &iws[active[c.col].index()]);
        if !sparse {
            let n = self.n;
            if !matches!(&self.op, Some(Operator::Dense(m)) if m.shape() == (n, n)) {
                self.op = Some(Operator::Dense(DMatrix::zeros(n, n)));
            }
            if let Some(Operator::Dense(m)) = &mut self.op {
                self.graph.fill_dense(size, m.as_view_mut(), |c, out| {
                    let (a, b) = pair(c);
                    add_block(a, b, c, out);
                })?;
            }
            return Ok(());
        }
        let block = |c: &Coupling, out: &mut [f64]| {
            let (a, b) = pair(c);
            add_block(a, b, c, DMatrixViewMut::from_slice(out, a.m, b.m));
        };
        let reuse = !new_structure && matches!(&self.op, Some(Operator::BlockCsr(_)));
        if !reuse {
            self.park_pattern();
            if let Some(i) = self.patterns.iter().position(|(k, _)| k == active) {
                let (key, pattern) = self.patterns.remove(i);
                self.key = key;
                self.op = Some(Operator::BlockCsr(pattern));
            }
        }
        match &mut self.op {
            Some(Operator::BlockCsr(m)) => self.graph.refill_block_csr(m, block),
            _ => {
                self.key = active.to_vec();
                let append = |c: &Coupling, values: &mut Vec<f64>| {
                    let start = values.len();
                    values.resize(start + size(c.row) * size(c.col), 0.0);
                    block(c, &mut values[start..]);
                };
                let m = self.graph.block_csr(size, BlockCsrParts::default(), append)?;
                self.op = Some(Operator::BlockCsr(m));
                Ok(())
            }
        }
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

/// `out += Σ_{(s, t) in c} jac_a,s winv_b_b,t` over the sides of `a` and `b` on a shared
/// system, plus `D_a` on the diagonal block.
fn add_block(a: &InterWork, b: &InterWork, c: &Coupling, mut out: DMatrixViewMut<'_, f64>) {
    for &(s, t) in c.sides() {
        let (ca, na) = a.side_block(s);
        let (cb, _) = b.side_block(t);
        out.gemm(1.0, &a.jac.columns(ca, na), &b.winv_b.rows(cb, na), 1.0);
    }
    if c.row == c.col && a.has_d {
        out += &a.d;
    }
}
