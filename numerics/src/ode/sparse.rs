//! General sparse Jacobians for large systems: the sparsity pattern of `J = ∂f/∂y`, the
//! Curtis–Powell–Reid column grouping for finite differences, and the BDF Newton matrix
//! `P = I − h l0 J` factored by faer's sparse LU (symbolic analysis once, numeric factorization
//! on every refactorization; sequential, so results are bit-identical for any thread count).

use std::sync::Arc;

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::sparse::linalg::lu::{factorize_symbolic_lu, NumericLu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use faer::{Conj, MatMut, Par};

use crate::{NumericsError, Result};

/// The sparsity pattern of an `n × n` Jacobian in compressed sparse column (CSC) form:
/// the rows of the structural nonzeros of column `j` are `row_idx[col_ptr[j]..col_ptr[j + 1]]`,
/// strictly increasing. Entry `k` of this order is `values[k]` in
/// [`crate::ode::OdeSystem::sparse_jacobian`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparsityPattern {
    n: usize,
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
}

fn invalid(reason: impl Into<String>) -> NumericsError {
    NumericsError::InvalidOption { option: "jacobian.pattern", reason: reason.into() }
}

impl SparsityPattern {
    /// From CSC arrays (`col_ptr` of length `n + 1`, rows strictly increasing in each column).
    pub fn from_csc(n: usize, col_ptr: Vec<usize>, row_idx: Vec<usize>) -> Result<Self> {
        crate::error::check_len("jacobian.pattern col_ptr", n + 1, col_ptr.len())?;
        if col_ptr[0] != 0 || col_ptr[n] != row_idx.len() {
            return Err(invalid(format!(
                "col_ptr must start at 0 and end at nnz = {}, got {} .. {}",
                row_idx.len(),
                col_ptr[0],
                col_ptr[n]
            )));
        }
        for j in 0..n {
            if col_ptr[j] > col_ptr[j + 1] {
                return Err(invalid(format!("col_ptr decreases at column {j}")));
            }
            let rows = &row_idx[col_ptr[j]..col_ptr[j + 1]];
            for (k, &i) in rows.iter().enumerate() {
                if i >= n {
                    return Err(invalid(format!("row index {i} in column {j} is out of range 0..{n}")));
                }
                if k > 0 && rows[k - 1] >= i {
                    return Err(invalid(format!("row indices of column {j} are not strictly increasing")));
                }
            }
        }
        Ok(SparsityPattern { n, col_ptr, row_idx })
    }

    /// From CSR arrays (`row_ptr` of length `n + 1`, columns strictly increasing in each row);
    /// stored transposed as CSC.
    pub fn from_csr(n: usize, row_ptr: Vec<usize>, col_idx: Vec<usize>) -> Result<Self> {
        // the CSR arrays of A are the CSC arrays of Aᵀ: validate them as such, then transpose
        let t = SparsityPattern::from_csc(n, row_ptr, col_idx).map_err(|e| match e {
            NumericsError::InvalidOption { reason, .. } => {
                invalid(format!("CSR arrays read as CSC of the transpose (rows <-> columns): {reason}"))
            }
            other => other,
        })?;
        Ok(t.transpose())
    }

    /// From a list of `(row, column)` positions (any order, duplicates merged).
    pub fn from_entries(n: usize, entries: &[(usize, usize)]) -> Result<Self> {
        let mut cols: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(i, j) in entries {
            if i >= n || j >= n {
                return Err(invalid(format!("entry ({i}, {j}) is out of range for n = {n}")));
            }
            cols[j].push(i);
        }
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::with_capacity(entries.len());
        col_ptr.push(0);
        for mut c in cols {
            c.sort_unstable();
            c.dedup();
            row_idx.extend(c);
            col_ptr.push(row_idx.len());
        }
        Ok(SparsityPattern { n, col_ptr, row_idx })
    }

    /// Banded pattern: `J_ij` may be nonzero for `−ml ≤ j − i ≤ mu`.
    pub fn banded(n: usize, ml: usize, mu: usize) -> Self {
        let mut col_ptr = vec![0];
        let mut row_idx = Vec::new();
        for j in 0..n {
            row_idx.extend(j.saturating_sub(mu)..=(j + ml).min(n.saturating_sub(1)));
            col_ptr.push(row_idx.len());
        }
        SparsityPattern { n, col_ptr, row_idx }
    }

    fn transpose(&self) -> Self {
        let n = self.n;
        let mut count = vec![0usize; n + 1];
        for &i in &self.row_idx {
            count[i + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let col_ptr = count.clone();
        let mut next = count;
        let mut row_idx = vec![0; self.row_idx.len()];
        for j in 0..n {
            for &i in self.rows(j) {
                row_idx[next[i]] = j;
                next[i] += 1;
            }
        }
        SparsityPattern { n, col_ptr, row_idx }
    }

    /// Dimension `n`.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Number of structural nonzeros.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// CSC column pointers (length `n + 1`).
    pub fn col_ptr(&self) -> &[usize] {
        &self.col_ptr
    }

    /// CSC row indices (length `nnz`).
    pub fn row_idx(&self) -> &[usize] {
        &self.row_idx
    }

    /// Rows of the structural nonzeros of column `j`.
    pub fn rows(&self, j: usize) -> &[usize] {
        &self.row_idx[self.col_ptr[j]..self.col_ptr[j + 1]]
    }

    /// Position of entry `(i, j)` in the CSC value order, if structurally nonzero.
    pub fn entry_index(&self, i: usize, j: usize) -> Option<usize> {
        if j >= self.n {
            return None;
        }
        self.rows(j).binary_search(&i).ok().map(|k| self.col_ptr[j] + k)
    }

    /// Curtis–Powell–Reid column grouping: a greedy colouring of the columns (in natural
    /// order, each takes the smallest colour not used by a column sharing a row with it), so
    /// that columns of one colour have disjoint row sets and one RHS evaluation with all of
    /// them perturbed gives all their finite differences. Returns `(n_colours, colour of j)`.
    pub fn column_colouring(&self) -> (usize, Vec<usize>) {
        let n = self.n;
        let rows_t = self.transpose(); // columns of each row
        let mut colour = vec![usize::MAX; n];
        let mut mark = vec![usize::MAX; n + 1]; // mark[c] == j: colour c is forbidden for j
        let mut n_colours = 0;
        for j in 0..n {
            for &i in self.rows(j) {
                for &k in rows_t.rows(i) {
                    if colour[k] != usize::MAX {
                        mark[colour[k]] = j;
                    }
                }
            }
            let c = (0..=n).find(|&c| mark[c] != j).unwrap_or(n);
            colour[j] = c;
            n_colours = n_colours.max(c + 1);
        }
        (n_colours, colour)
    }
}

/// Sparse Jacobian values, column groups and the factored Newton matrix (internal).
pub(crate) struct SparseNewton {
    pub pattern: Arc<SparsityPattern>,
    /// Columns grouped by colour: columns of colour c are `groups[gptr[c]..gptr[c + 1]]`.
    pub gptr: Vec<usize>,
    pub groups: Vec<usize>,
    /// Jacobian values in the pattern's CSC order.
    pub jac: Vec<f64>,
    /// Pattern of `P` (the Jacobian's plus the diagonal), values, and index maps.
    p_sym: SymbolicSparseColMat<usize>,
    p_val: Vec<f64>,
    j_to_p: Vec<usize>,
    diag_p: Vec<usize>,
    lu_sym: Option<SymbolicLu<usize>>,
    lu_num: NumericLu<usize, f64>,
    mem: MemBuffer,
    pub factored: bool,
}

impl std::fmt::Debug for SparseNewton {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseNewton")
            .field("n", &self.pattern.dim())
            .field("nnz", &self.pattern.nnz())
            .field("colours", &self.n_colours())
            .field("factored", &self.factored)
            .finish_non_exhaustive()
    }
}

impl SparseNewton {
    /// Workspace for the given pattern (colouring and the pattern of `P` computed here).
    pub fn new(pattern: Arc<SparsityPattern>) -> Self {
        let n = pattern.dim();
        let (nc, colour) = pattern.column_colouring();
        let mut gptr = vec![0usize; nc + 1];
        for &c in &colour {
            gptr[c + 1] += 1;
        }
        for c in 0..nc {
            gptr[c + 1] += gptr[c];
        }
        let mut next = gptr.clone();
        let mut groups = vec![0; n];
        for (j, &c) in colour.iter().enumerate() {
            groups[next[c]] = j;
            next[c] += 1;
        }
        let mut col_ptr = vec![0usize];
        let mut row_idx = Vec::with_capacity(pattern.nnz() + n);
        let mut j_to_p = Vec::with_capacity(pattern.nnz());
        let mut diag_p = vec![0; n];
        for j in 0..n {
            let mut diag_done = false;
            for &i in pattern.rows(j) {
                if i > j && !diag_done {
                    diag_p[j] = row_idx.len();
                    row_idx.push(j);
                    diag_done = true;
                }
                if i == j {
                    diag_p[j] = row_idx.len();
                    diag_done = true;
                }
                j_to_p.push(row_idx.len());
                row_idx.push(i);
            }
            if !diag_done {
                diag_p[j] = row_idx.len();
                row_idx.push(j);
            }
            col_ptr.push(row_idx.len());
        }
        let nnz_p = row_idx.len();
        let p_sym = SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx);
        SparseNewton {
            jac: vec![0.0; pattern.nnz()],
            pattern,
            gptr,
            groups,
            p_sym,
            p_val: vec![0.0; nnz_p],
            j_to_p,
            diag_p,
            lu_sym: None,
            lu_num: NumericLu::new(),
            mem: MemBuffer::new(StackReq::EMPTY),
            factored: false,
        }
    }

    /// Number of column groups (RHS evaluations per finite-difference Jacobian).
    pub fn n_colours(&self) -> usize {
        self.gptr.len() - 1
    }

    /// Columns of colour `c`.
    pub fn group(&self, c: usize) -> &[usize] {
        &self.groups[self.gptr[c]..self.gptr[c + 1]]
    }

    /// Weighted norm `max_i Σ_j |J_ij| ewt_j / ewt_i`, or None if J holds a non-finite value.
    pub fn weighted_norm(&self, ewt: &[f64]) -> Option<f64> {
        let n = self.pattern.dim();
        let mut row = vec![0.0; n];
        for j in 0..n {
            for k in self.pattern.col_ptr[j]..self.pattern.col_ptr[j + 1] {
                let v = self.jac[k];
                if !v.is_finite() {
                    return None;
                }
                row[self.pattern.row_idx[k]] += v.abs() * ewt[j];
            }
        }
        Some(row.iter().zip(ewt).fold(0.0f64, |m, (r, w)| m.max(r / w)))
    }

    /// Forms `P = I − hl0 J` and factors it (symbolic analysis on the first call only).
    /// Returns false if the factorization failed.
    pub fn factor(&mut self, hl0: f64) -> bool {
        self.factored = false;
        self.p_val.fill(0.0);
        for (k, &pk) in self.j_to_p.iter().enumerate() {
            self.p_val[pk] = -hl0 * self.jac[k];
        }
        for &d in &self.diag_p {
            self.p_val[d] += 1.0;
        }
        let n = self.pattern.dim();
        if n == 0 {
            self.factored = true;
            return true;
        }
        if self.lu_sym.is_none() {
            let Ok(sym) = factorize_symbolic_lu(self.p_sym.as_ref(), Default::default()) else { return false };
            let req = StackReq::any_of(&[
                sym.factorize_numeric_lu_scratch::<f64>(Par::Seq, Default::default()),
                sym.solve_in_place_scratch::<f64>(1, Par::Seq),
            ]);
            let Ok(mem) = MemBuffer::try_new(req) else { return false };
            self.mem = mem;
            self.lu_sym = Some(sym);
        }
        let Some(sym) = &self.lu_sym else { return false };
        let a = SparseColMatRef::new(self.p_sym.as_ref(), &self.p_val);
        let stack = MemStack::new(&mut self.mem);
        self.factored = sym.factorize_numeric_lu(&mut self.lu_num, a, Par::Seq, stack, Default::default()).is_ok();
        self.factored
    }

    /// Solves `P x = b` in place; false if not factored or the result is not finite (faer does
    /// not report a zero pivot, so a singular `P` shows up as a non-finite solution).
    pub fn solve(&mut self, b: &mut [f64]) -> bool {
        let n = b.len();
        if n == 0 {
            return true;
        }
        if !self.factored {
            return false;
        }
        let Some(sym) = &self.lu_sym else { return false };
        let lu = faer::sparse::linalg::lu::LuRef::new_unchecked(sym, &self.lu_num);
        let stack = MemStack::new(&mut self.mem);
        lu.solve_in_place_with_conj(Conj::No, MatMut::from_column_major_slice_mut(b, n, 1), Par::Seq, stack);
        b.iter().all(|x| x.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colouring_groups_columns_with_disjoint_rows() {
        // tridiagonal: 3 colours; every pair of columns of one colour shares no row
        let p = SparsityPattern::banded(10, 1, 1);
        let (nc, colour) = p.column_colouring();
        assert_eq!(nc, 3);
        for a in 0..10 {
            for b in a + 1..10 {
                if colour[a] == colour[b] {
                    assert!(p.rows(a).iter().all(|i| !p.rows(b).contains(i)), "{a} {b}");
                }
            }
        }
    }

    #[test]
    fn csr_and_csc_agree_and_bad_patterns_are_rejected() {
        // A = [[1, 1, 0], [0, 1, 0], [1, 0, 1]]
        let csr = SparsityPattern::from_csr(3, vec![0, 2, 3, 5], vec![0, 1, 1, 0, 2]).unwrap();
        let csc = SparsityPattern::from_entries(3, &[(0, 0), (0, 1), (1, 1), (2, 0), (2, 2)]).unwrap();
        assert_eq!(csr, csc);
        assert_eq!(csc.entry_index(2, 0), Some(1));
        assert!(SparsityPattern::from_csc(3, vec![0, 1, 2], vec![0, 1]).is_err());
        assert!(SparsityPattern::from_csc(2, vec![0, 1, 2], vec![0, 5]).is_err());
        assert!(SparsityPattern::from_csc(2, vec![0, 2, 2], vec![1, 0]).is_err());
        assert!(SparsityPattern::from_entries(2, &[(2, 0)]).is_err());
    }

    #[test]
    fn sparse_newton_solves_like_dense() {
        let p = Arc::new(SparsityPattern::from_entries(4, &[(0, 1), (1, 0), (2, 3), (3, 2), (3, 0)]).unwrap());
        let mut s = SparseNewton::new(p.clone());
        s.jac.copy_from_slice(&[2.0, -1.0, 3.0, 0.5, 4.0]);
        assert!(s.factor(0.7));
        let mut dense = nalgebra::DMatrix::<f64>::identity(4, 4);
        for j in 0..4 {
            for (k, &i) in p.rows(j).iter().enumerate() {
                dense[(i, j)] -= 0.7 * s.jac[p.col_ptr()[j] + k];
            }
        }
        let b = [1.0, -2.0, 0.5, 3.0];
        let x_dense = dense.lu().solve(&nalgebra::DVector::from_column_slice(&b)).unwrap();
        let mut x = b;
        assert!(s.solve(&mut x));
        for i in 0..4 {
            assert!((x[i] - x_dense[i]).abs() < 1e-13, "{i}");
        }
    }
}
