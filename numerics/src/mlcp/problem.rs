//! The MLCP problem in the general `M` form and its Siconos `(A, B, C, D, a, b)` form.

use crate::error::{check_finite, check_len, NumericsError, Result};
use nalgebra::DMatrix;

/// A mixed linear complementarity problem with `n_eq` leading equality rows.
///
/// With `z = [u; v]` (`u ∈ Rⁿᵉᑫ` free, `v ∈ Rᵐ`) and `w = M z + q`:
/// `w_eq = 0` for the first `n_eq` rows and `0 <= v ⊥ w_c >= 0` for the other `m` rows.
/// In the Siconos form `M = [[A, C], [D, B]]`, `q = [a; b]`:
/// `A u + C v + a = 0`, `0 <= v ⊥ D u + B v + b >= 0`.
#[derive(Debug, Clone, PartialEq)]
pub struct Mlcp {
    m: DMatrix<f64>,
    q: Vec<f64>,
    n_eq: usize,
}

impl Mlcp {
    /// The MLCP `w = M z + q` with the first `n_eq` rows equalities. Checks that `M` is square,
    /// `q` has its size, `n_eq <= size` and every entry is finite.
    pub fn new(m: DMatrix<f64>, q: Vec<f64>, n_eq: usize) -> Result<Self> {
        if m.nrows() != m.ncols() {
            return Err(NumericsError::NotSquare { what: "M", rows: m.nrows(), cols: m.ncols() });
        }
        let size = m.nrows();
        check_len("q", size, q.len())?;
        if n_eq > size {
            return Err(NumericsError::DimensionMismatch {
                what: "n_eq (at most the size of M)",
                expected: size,
                found: n_eq,
            });
        }
        check_finite("M", m.as_slice())?;
        check_finite("q", &q)?;
        Ok(Mlcp { m, q, n_eq })
    }

    /// The Siconos form: `A` (n×n), `B` (m×m), `C` (n×m), `D` (m×n), `a` (n), `b` (m), assembled
    /// into `M = [[A, C], [D, B]]`, `q = [a; b]`, `n_eq = n`.
    pub fn from_abcd(
        a: DMatrix<f64>,
        b: DMatrix<f64>,
        c: DMatrix<f64>,
        d: DMatrix<f64>,
        a_vec: Vec<f64>,
        b_vec: Vec<f64>,
    ) -> Result<Self> {
        if a.nrows() != a.ncols() {
            return Err(NumericsError::NotSquare { what: "A", rows: a.nrows(), cols: a.ncols() });
        }
        if b.nrows() != b.ncols() {
            return Err(NumericsError::NotSquare { what: "B", rows: b.nrows(), cols: b.ncols() });
        }
        let (n, m) = (a.nrows(), b.nrows());
        check_len("C rows", n, c.nrows())?;
        check_len("C columns", m, c.ncols())?;
        check_len("D rows", m, d.nrows())?;
        check_len("D columns", n, d.ncols())?;
        check_len("a", n, a_vec.len())?;
        check_len("b", m, b_vec.len())?;
        let mut big = DMatrix::zeros(n + m, n + m);
        big.view_mut((0, 0), (n, n)).copy_from(&a);
        big.view_mut((0, n), (n, m)).copy_from(&c);
        big.view_mut((n, 0), (m, n)).copy_from(&d);
        big.view_mut((n, n), (m, m)).copy_from(&b);
        let mut q = a_vec;
        q.extend_from_slice(&b_vec);
        Mlcp::new(big, q, n)
    }

    /// The matrix `M`.
    pub fn m(&self) -> &DMatrix<f64> {
        &self.m
    }
    /// The vector `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// Number of equality rows (free variables), `n` in Siconos.
    pub fn n_eq(&self) -> usize {
        self.n_eq
    }
    /// Number of complementarity rows, `m` in Siconos.
    pub fn n_comp(&self) -> usize {
        self.q.len() - self.n_eq
    }
    /// Gives back `(M, q)` (lets a time-stepping loop reuse the buffers without allocating).
    pub fn into_parts(self) -> (DMatrix<f64>, Vec<f64>) {
        (self.m, self.q)
    }
    /// Total size `n_eq + n_comp`.
    pub fn size(&self) -> usize {
        self.q.len()
    }

    /// `w = M z + q`.
    pub fn compute_w(&self, z: &[f64], w: &mut [f64]) {
        w.copy_from_slice(&self.q);
        let n = self.size();
        for (j, &zj) in z.iter().enumerate().take(n) {
            if zj != 0.0 {
                let col = &self.m.as_slice()[j * n..(j + 1) * n];
                for (wi, &mij) in w.iter_mut().zip(col) {
                    *wi += mij * zj;
                }
            }
        }
    }
}
