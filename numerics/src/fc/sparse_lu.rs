//! A sparse LU of a matrix whose pattern is fixed, refactorized numerically many times
//! (the Newton Jacobians of [`super::newton`], the mass matrix of [`super::global`]).
//!
//! The pattern is assembled once from (row, column) entries: duplicates are merged and each
//! entry remembers its slot in the compressed-column values, so a refactorization only
//! scatters new values (`A.values[slot[k]] += v_k`) and runs faer's numeric factorization with
//! the symbolic analysis (COLAMD ordering, supernodal structure) computed on the first call.
//! Every faer call runs with `Par::Seq`: the factors, hence the solutions, are the same bits
//! whatever the rayon thread count (faer's high-level solvers use its global parallelism,
//! which follows rayon's pool).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::LltRegularization;
use faer::sparse::linalg::cholesky::{factorize_symbolic_cholesky, LltRef, SymbolicCholesky, SymmetricOrdering};
use faer::sparse::linalg::lu::{factorize_symbolic_lu, NumericLu, SymbolicLu};
use faer::sparse::{SparseColMat, SymbolicSparseColMat};
use faer::{Conj, MatMut, Par, Side};

/// Fixed-pattern sparse matrix plus its (reused) LU factors. Crate-internal workspace.
pub(crate) struct SparseLu {
    n: usize,
    /// Compressed-column pattern; values refilled by [`SparseLu::factorize`].
    a: SparseColMat<usize, f64>,
    /// Slot in `a`'s values of each entry of the pattern given to [`SparseLu::new`].
    slot: Vec<usize>,
    symbolic: Option<SymbolicLu<usize>>,
    numeric: NumericLu<usize, f64>,
    buf: Option<MemBuffer>,
    factored: bool,
}

impl SparseLu {
    /// Pattern of an `n × n` matrix from its entries' (row, column) (repeats allowed).
    /// `None` when an index is out of range.
    pub fn new(n: usize, entries: &[(usize, usize)]) -> Option<Self> {
        if entries.iter().any(|&(i, j)| i >= n || j >= n) {
            return None;
        }
        // Column counts, then rows sorted and deduplicated per column.
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_unstable_by_key(|&k| (entries[k].1, entries[k].0));
        let mut col_ptr = vec![0usize; n + 1];
        let mut row_idx = Vec::with_capacity(entries.len());
        let mut slot = vec![0usize; entries.len()];
        let mut last: Option<(usize, usize)> = None;
        for &k in &order {
            let e = entries[k];
            if last != Some(e) {
                row_idx.push(e.0);
                col_ptr[e.1 + 1] += 1;
                last = Some(e);
            }
            slot[k] = row_idx.len() - 1;
        }
        for j in 0..n {
            col_ptr[j + 1] += col_ptr[j];
        }
        let nnz = row_idx.len();
        let sym = SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx);
        let a = SparseColMat::new(sym, vec![0.0; nnz]);
        Some(SparseLu { n, a, slot, symbolic: None, numeric: NumericLu::new(), buf: None, factored: false })
    }

    /// Sets the values (`values[k]` belongs to entry k of the pattern; repeats are summed) and
    /// factorizes. `false` when faer reports a failure (the factors are then unusable).
    pub fn factorize(&mut self, values: impl Iterator<Item = f64>) -> bool {
        self.factored = false;
        let vals = self.a.val_mut();
        vals.iter_mut().for_each(|x| *x = 0.0);
        for (k, v) in values.enumerate() {
            if let Some(&s) = self.slot.get(k) {
                vals[s] += v;
            }
        }
        if self.symbolic.is_none() {
            self.symbolic = factorize_symbolic_lu(self.a.symbolic(), Default::default()).ok();
            if let Some(sym) = self.symbolic.as_ref() {
                let need = sym.factorize_numeric_lu_scratch::<f64>(Par::Seq, Default::default());
                self.buf = MemBuffer::try_new(need).ok();
            }
        }
        let (Some(sym), Some(buf)) = (self.symbolic.as_ref(), self.buf.as_mut()) else { return false };
        self.factored = sym
            .factorize_numeric_lu(&mut self.numeric, self.a.as_ref(), Par::Seq, MemStack::new(buf), Default::default())
            .is_ok();
        self.factored
    }

    /// Solves `A x = rhs` in place with the last factorization (`false` if there is none).
    pub fn solve_in_place(&self, rhs: MatMut<'_, f64>) -> bool {
        let Some(sym) = self.symbolic.as_ref() else { return false };
        if !self.factored || rhs.nrows() != self.n {
            return false;
        }
        let Ok(mut buf) = MemBuffer::try_new(sym.solve_in_place_scratch::<f64>(rhs.ncols(), Par::Seq)) else {
            return false;
        };
        let lu = faer::sparse::linalg::lu::LuRef::new_unchecked(sym, &self.numeric);
        lu.solve_in_place_with_conj(Conj::No, rhs, Par::Seq, MemStack::new(&mut buf));
        true
    }

    /// `y += A x` with the current values.
    pub fn matvec_add(&self, x: &[f64], y: &mut [f64]) {
        let a = self.a.as_ref();
        let (cp, ri, v) = (a.col_ptr(), a.row_idx(), a.val());
        for j in 0..self.n {
            for k in cp[j]..cp[j + 1] {
                y[ri[k]] += v[k] * x[j];
            }
        }
    }
}

/// Sparse Cholesky `A = L Lᵀ` (AMD ordering, only the lower triangle of `A` read) of a symmetric
/// positive definite matrix of fixed pattern, refactorized numerically when its values change
/// (ADMM's `W + ρ I` when `ρ` adapts). Sequential (`Par::Seq`), like [`SparseLu`].
pub(crate) struct SparseLlt {
    n: usize,
    a: SparseColMat<usize, f64>,
    symbolic: SymbolicCholesky<usize>,
    l_values: Vec<f64>,
    factor_buf: MemBuffer,
    solve_buf: MemBuffer,
    factored: bool,
    slot: Vec<usize>,
}

impl SparseLlt {
    /// Pattern from (row, column) entries (repeats allowed; the upper triangle is ignored by
    /// the factorization). `None` on an index out of range or a failed analysis.
    pub fn new(n: usize, entries: &[(usize, usize)]) -> Option<Self> {
        let lu = SparseLu::new(n, entries)?;
        let symbolic =
            factorize_symbolic_cholesky(lu.a.symbolic(), Side::Lower, SymmetricOrdering::Amd, Default::default())
                .ok()?;
        let factor_buf =
            MemBuffer::try_new(symbolic.factorize_numeric_llt_scratch::<f64>(Par::Seq, Default::default())).ok()?;
        let solve_buf = MemBuffer::try_new(symbolic.solve_in_place_scratch::<f64>(1, Par::Seq)).ok()?;
        let l_values = vec![0.0; symbolic.len_val()];
        Some(SparseLlt { n, a: lu.a, symbolic, l_values, factor_buf, solve_buf, factored: false, slot: lu.slot })
    }

    /// Sets the values (entry order of [`SparseLlt::new`], repeats summed) and factorizes;
    /// `false` when the matrix is not numerically positive definite.
    pub fn factorize(&mut self, values: impl Iterator<Item = f64>) -> bool {
        let vals = self.a.val_mut();
        vals.iter_mut().for_each(|x| *x = 0.0);
        for (k, v) in values.enumerate() {
            if let Some(&s) = self.slot.get(k) {
                vals[s] += v;
            }
        }
        let res = self.symbolic.factorize_numeric_llt(
            &mut self.l_values,
            self.a.as_ref(),
            Side::Lower,
            LltRegularization::default(),
            Par::Seq,
            MemStack::new(&mut self.factor_buf),
            Default::default(),
        );
        self.factored = res.is_ok();
        self.factored
    }

    /// Solves `A x = rhs` in place (one column); `false` without a factorization.
    pub fn solve_in_place(&mut self, rhs: &mut [f64]) -> bool {
        if !self.factored || rhs.len() != self.n {
            return false;
        }
        let n = self.n;
        let llt = LltRef::new(&self.symbolic, &self.l_values);
        llt.solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(rhs, n, 1),
            Par::Seq,
            MemStack::new(&mut self.solve_buf),
        );
        true
    }
}
