//! LU factorization (partial pivoting) of the dense Newton iteration matrix `P = I − h l0 J`
//! (and of any dense square matrix: the friction-contact Newton Jacobians of `fc::newton`):
//! nalgebra below [`FAER_MIN_N`] states, faer's blocked in-place LU from there on (sequential,
//! `Par::Seq`, so results do not depend on the thread count). The faer path keeps its matrix,
//! pivots and scratch between factorizations, so neither factoring nor solving allocates.
//!
//! Crossover measured on this machine (2026-11-23, `I − c J`, factor + one solve, best of 7, two runs;
//! `cargo run --release -p saltus-numerics --example lu_crossover`):
//!
//! | n | 16 | 32 | 48 | 64 | 100 | 200 | 300 |
//! |---|---|---|---|---|---|---|---|
//! | nalgebra / faer time | 0.48 | 0.83–0.88 | 1.11–1.16 | 1.42–1.43 | 2.05–2.07 | 3.00 | 3.78 |
//!
//! faer's fixed overhead loses below about 40; from 64 on it is clearly ahead.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::lu::partial_pivoting::{factor as faer_factor, solve as faer_solve};
use faer::{MatMut, MatRef, Par};
use nalgebra::{DMatrix, DVector, Dyn, LU};

/// Number of states from which faer factors the dense iteration matrix.
pub(crate) const FAER_MIN_N: usize = 64;

/// Factorization of the dense iteration matrix.
#[derive(Debug)]
pub(crate) enum DenseLu {
    /// nalgebra, for small systems (`None` until factored or after a singular matrix).
    Nalgebra(Option<LU<f64, Dyn, Dyn>>),
    /// faer, for `n ≥ FAER_MIN_N`.
    Faer(Box<FaerLu>),
}

/// faer workspace: column-major LU factors, row permutation and scratch.
pub(crate) struct FaerLu {
    n: usize,
    a: Vec<f64>,
    piv: Vec<usize>,
    perm_inv: Vec<usize>,
    scratch: MemBuffer,
    factored: bool,
}

impl std::fmt::Debug for FaerLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FaerLu").field("n", &self.n).field("factored", &self.factored).finish_non_exhaustive()
    }
}

impl FaerLu {
    /// LU with partial pivoting of `self.a` in place; false on a zero or non-finite pivot.
    fn factor_in_place(&mut self) -> bool {
        let n = self.n;
        let m = MatMut::from_column_major_slice_mut(&mut self.a, n, n);
        faer_factor::lu_in_place(
            m,
            &mut self.piv,
            &mut self.perm_inv,
            Par::Seq,
            MemStack::new(&mut self.scratch),
            Default::default(),
        );
        self.factored = (0..n).all(|k| {
            let d = self.a[k * n + k];
            d != 0.0 && d.is_finite()
        });
        self.factored
    }
}

impl DenseLu {
    /// Workspace for an `n × n` iteration matrix (the backend is chosen by `n`).
    pub(crate) fn new(n: usize) -> Self {
        if n < FAER_MIN_N {
            return DenseLu::Nalgebra(None);
        }
        let req = faer_factor::lu_in_place_scratch::<usize, f64>(n, n, Par::Seq, Default::default())
            .or(faer_solve::solve_in_place_scratch::<usize, f64>(n, 1, Par::Seq));
        DenseLu::Faer(Box::new(FaerLu {
            n,
            a: vec![0.0; n * n],
            piv: vec![0; n],
            perm_inv: vec![0; n],
            scratch: MemBuffer::new(req),
            factored: false,
        }))
    }

    /// Whether a usable factorization is held.
    pub(crate) fn is_factored(&self) -> bool {
        match self {
            DenseLu::Nalgebra(lu) => lu.is_some(),
            DenseLu::Faer(f) => f.factored,
        }
    }

    /// Factors `P = I − hl0 J`. Returns false (and holds no factorization) if `P` is singular.
    pub(crate) fn factor(&mut self, jac: &DMatrix<f64>, hl0: f64) -> bool {
        match self {
            DenseLu::Nalgebra(slot) => {
                let mut p = jac * (-hl0);
                for i in 0..p.nrows() {
                    p[(i, i)] += 1.0;
                }
                let lu = p.lu();
                *slot = lu.is_invertible().then_some(lu);
                slot.is_some()
            }
            DenseLu::Faer(f) => {
                let n = f.n;
                // P = J (−hl0) + I, elementwise as the nalgebra path forms it
                for (p, j) in f.a.iter_mut().zip(jac.as_slice()) {
                    *p = j * (-hl0);
                }
                for i in 0..n {
                    f.a[i * n + i] += 1.0;
                }
                f.factor_in_place()
            }
        }
    }

    /// Factors the square matrix `a` itself (same backends as [`DenseLu::factor`]; `a` must be
    /// `n × n` for the `n` given to [`DenseLu::new`]). False if `a` is singular.
    pub(crate) fn factor_matrix(&mut self, a: &DMatrix<f64>) -> bool {
        match self {
            DenseLu::Nalgebra(slot) => {
                let lu = a.clone().lu();
                *slot = lu.is_invertible().then_some(lu);
                slot.is_some()
            }
            DenseLu::Faer(f) => {
                if a.nrows() != f.n || a.ncols() != f.n {
                    f.factored = false;
                    return false;
                }
                f.a.copy_from_slice(a.as_slice());
                f.factor_in_place()
            }
        }
    }

    /// Solves `P x = r` in place. False if no factorization is held.
    pub(crate) fn solve(&mut self, r: &mut DVector<f64>) -> bool {
        match self {
            DenseLu::Nalgebra(Some(lu)) => lu.solve_mut(r),
            DenseLu::Nalgebra(None) => false,
            DenseLu::Faer(f) => {
                if !f.factored {
                    return false;
                }
                let n = f.n;
                let lu = MatRef::from_column_major_slice(&f.a, n, n);
                // piv / perm_inv were written by lu_in_place and form a valid permutation
                let perm = faer::perm::PermRef::new_checked(&f.piv, &f.perm_inv, n);
                let rhs = MatMut::from_column_major_slice_mut(r.as_mut_slice(), n, 1);
                faer_solve::solve_in_place(lu, lu, perm, rhs, Par::Seq, MemStack::new(&mut f.scratch));
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A well-conditioned `J` with a deterministic pattern (no RNG dependency).
    fn jac(n: usize) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |i, j| ((i * 7 + j * 13) % 11) as f64 / 11.0 - 0.5 + if i == j { -3.0 } else { 0.0 })
    }

    /// Both backends solve `(I − hl0 J) x = r` to round-off, checked by the residual.
    #[test]
    fn both_backends_solve_the_iteration_matrix() {
        for n in [5, FAER_MIN_N - 1, FAER_MIN_N, 150] {
            let (j, hl0) = (jac(n), 0.3);
            let mut lu = DenseLu::new(n);
            assert_eq!(matches!(lu, DenseLu::Faer(_)), n >= FAER_MIN_N);
            assert!(!lu.is_factored());
            assert!(lu.factor(&j, hl0));
            let r = DVector::from_fn(n, |i, _| (i as f64).sin());
            let mut x = r.clone();
            assert!(lu.solve(&mut x));
            let p = DMatrix::identity(n, n) - &j * hl0;
            let res = (&p * &x - &r).amax();
            assert!(res < 1e-12, "n = {n}: residual {res:e}");
            // The same matrix given as is.
            let mut lu2 = DenseLu::new(n);
            assert!(lu2.factor_matrix(&p));
            let mut y = r.clone();
            assert!(lu2.solve(&mut y));
            let res = (&p * &y - &r).amax();
            assert!(res < 1e-12, "n = {n}: residual {res:e} (factor_matrix)");
        }
    }

    /// A singular `P` is reported, and no solve happens with it.
    #[test]
    fn singular_matrix_is_reported() {
        for n in [3, FAER_MIN_N + 1] {
            // P = I − 1·J with J = I is the zero matrix
            let mut lu = DenseLu::new(n);
            assert!(!lu.factor(&DMatrix::identity(n, n), 1.0));
            let mut x = DVector::from_element(n, 1.0);
            assert!(!lu.solve(&mut x));
            assert!(!lu.factor_matrix(&DMatrix::zeros(n, n)));
            assert!(!lu.solve(&mut x));
        }
    }
}
