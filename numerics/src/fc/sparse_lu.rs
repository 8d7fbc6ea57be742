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
use faer::sparse::linalg::lu::{factorize_symbolic_lu, LuSymbolicParams, NumericLu, SymbolicLu};
use faer::sparse::linalg::SupernodalThreshold;
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
    /// Force faer's supernodal factorization (else faer picks simplicial or supernodal from
    /// its flop estimate).
    supernodal: bool,
}

impl SparseLu {
    /// Pattern of an `n × n` matrix from its entries' (row, column) (repeats allowed).
    /// `None` when an index is out of range.
    pub fn new(n: usize, entries: &[(usize, usize)]) -> Option<Self> {
        if entries.iter().any(|&(i, j)| i >= n || j >= n) {
            return None;
        }
        // Entries ordered by (column, row) with two stable counting sorts (rows, then columns):
        // O(nnz + n), then deduplicated.
        let by_row = counting_order(n, (0..entries.len()).map(|k| (k, entries[k].0)));
        let order = counting_order(n, by_row.iter().map(|&k| (k, entries[k].1)));
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
        Some(SparseLu {
            n,
            a,
            slot,
            symbolic: None,
            numeric: NumericLu::new(),
            buf: None,
            factored: false,
            supernodal: false,
        })
    }

    /// Always use the supernodal numeric factorization. Its symbolic analysis (elimination
    /// tree, supernodes) is done once; the simplicial one redoes a depth-first search per
    /// column at every factorization, which costs more on the Newton Jacobians of contact
    /// stacks (BoxesStack1 PROX: 162 → 78 M instructions; Capsules-i122: 437 → 355 M).
    pub fn supernodal(mut self) -> Self {
        self.supernodal = true;
        self
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
            let mut params = LuSymbolicParams::default();
            if self.supernodal {
                params.supernodal_flop_ratio_threshold = SupernodalThreshold::FORCE_SUPERNODAL;
            }
            self.symbolic = factorize_symbolic_lu(self.a.symbolic(), params).ok();
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

/// The items `(k, key)` (keys `< n_keys`) reordered by key, stable: a counting sort.
fn counting_order(n_keys: usize, items: impl Iterator<Item = (usize, usize)> + Clone) -> Vec<usize> {
    let mut start = vec![0usize; n_keys + 1];
    for (_, key) in items.clone() {
        start[key + 1] += 1;
    }
    for j in 0..n_keys {
        start[j + 1] += start[j];
    }
    let mut out = vec![0usize; start[n_keys]];
    for (k, key) in items {
        out[start[key]] = k;
        start[key] += 1;
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries given out of order and with repeats: the pattern merges them (values summed), and
    /// both the auto-selected and the supernodal factorization solve the system to round-off.
    #[test]
    fn unordered_repeated_entries_solve() {
        let n = 7;
        // A = 4 I + tridiagonal −1 (+ a far entry), each diagonal entry given as 3 + 1.
        let mut entries = Vec::new();
        let mut values = Vec::new();
        for i in (0..n).rev() {
            entries.push((i, i));
            values.push(3.0);
            if i + 1 < n {
                entries.push((i + 1, i));
                values.push(-1.0);
                entries.push((i, i + 1));
                values.push(-1.0);
            }
        }
        entries.push((0, n - 1));
        values.push(0.5);
        for i in 0..n {
            entries.push((i, i));
            values.push(1.0);
        }
        let dense = |x: &[f64]| {
            let mut y = vec![0.0; n];
            for (&(i, j), v) in entries.iter().zip(&values) {
                y[i] += v * x[j];
            }
            y
        };
        for supernodal in [false, true] {
            let mut lu = SparseLu::new(n, &entries).expect("pattern");
            if supernodal {
                lu = lu.supernodal();
            }
            assert!(lu.factorize(values.iter().copied()));
            let b: Vec<f64> = (0..n).map(|i| (i as f64 + 1.0).sin()).collect();
            let mut x = faer::Mat::<f64>::from_fn(n, 1, |i, _| b[i]);
            assert!(lu.solve_in_place(x.as_mut()));
            let xs: Vec<f64> = (0..n).map(|i| x[(i, 0)]).collect();
            let res = dense(&xs).iter().zip(&b).map(|(y, b)| (y - b).abs()).fold(0.0, f64::max);
            assert!(res < 1e-14, "supernodal {supernodal}: residual {res:e}");
            // matvec_add uses the merged values.
            let mut y = vec![0.0; n];
            lu.matvec_add(&xs, &mut y);
            assert!(y.iter().zip(&dense(&xs)).all(|(a, b)| (a - b).abs() < 1e-14));
        }
        assert!(SparseLu::new(n, &[(n, 0)]).is_none());
    }
}
