//! The null-space basis `D(q)` (n×r, `C_J D = 0`, `r = n − m`): numeric (QR charts) or given
//! by the user (for example generated symbolically).
//!
//! # The numeric basis: QR charts
//!
//! A chart is a fixed orthonormal `D_ref` (n×r), the complement of `C_Jᵀ` at the chart's origin
//! `q_c`, taken from the QR factorization of `[C_J(q_c)ᵀ | I]`. Inside the chart the basis is the
//! unique `D(q)` with
//!
//! ```text
//! C_J(q) D = 0,   D_refᵀ D = I        i.e.   D = A(q)⁻¹ [0; I],   A(q) = [C_J(q); D_refᵀ]
//! ```
//!
//! a smooth function of `q` (so the integrator sees an ODE, not a history-dependent basis), equal
//! to `D_ref` at `q_c`. It is the Procrustes-aligned choice: `D` is the projection of `D_ref` onto
//! the null space, rescaled so that the coordinates `u = D_refᵀ q̇` do not change with `q` — which
//! also gives `Ḋ u` without differentiating `D`: `C_J Ḋ u = −γ`, `D_refᵀ Ḋ u = 0`. The chart
//! degenerates when `D_ref` becomes nearly orthogonal to the null space; its distortion
//! `δ(q) = ‖D‖_F / √r` (1 at the origin) is a root function, and when it reaches
//! [`ChartOptions::max_distortion`] a new chart is taken there (the integrator restarts, `q̇` is
//! kept, `u` changes to the new coordinates).

use crate::model::userfn::{PairVecFn, StateMatFn, UserResult};
use nalgebra::DMatrix;
use std::sync::Arc;

/// Options of the numeric (QR chart) basis.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartOptions {
    /// A new chart is taken when the distortion `‖D‖_F / √r` reaches this value (> 1; default 2).
    pub max_distortion: f64,
    /// `C_J` counts as rank deficient when a diagonal entry of its QR factor is below this
    /// fraction of the largest (default 1e-10).
    pub rank_tol: f64,
}

impl Default for ChartOptions {
    fn default() -> Self {
        ChartOptions { max_distortion: 2.0, rank_tol: 1e-10 }
    }
}

/// A basis given by the user: `D(t, q)` (n×r with `C_J D = 0`, full column rank) and
/// `Ḋ u = (∂D/∂q · q̇) u` at `q̇ = D u`. Only for scleronomous constraints.
#[derive(Clone)]
pub struct UserBasis {
    /// Number of independent velocities `r = n − m`.
    pub dof: usize,
    /// `D(t, q)` (n×r, zeroed on entry).
    pub d: StateMatFn,
    /// `Ḋ u` at `(t, q, u)` (n).
    pub d_dot_u: PairVecFn,
}

impl UserBasis {
    /// A basis of dimension `dof` from two closures.
    pub fn new(
        dof: usize,
        d: impl Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        d_dot_u: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        UserBasis { dof, d: Arc::new(d), d_dot_u: Arc::new(d_dot_u) }
    }
}

impl std::fmt::Debug for UserBasis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "UserBasis {{ dof: {} }}", self.dof)
    }
}

/// Where `D(q)` comes from.
#[derive(Debug, Clone)]
pub enum Basis {
    /// QR charts (see the module documentation).
    Numeric(ChartOptions),
    /// A user (generated) basis.
    User(UserBasis),
}

impl Default for Basis {
    fn default() -> Self {
        Basis::Numeric(ChartOptions::default())
    }
}

/// The orthonormal complement of the rows of `jac` (m×n), or `None` when `jac` has rank below
/// `m` (relative tolerance `rank_tol`).
pub(crate) fn orthonormal_complement(jac: &DMatrix<f64>, rank_tol: f64) -> Option<DMatrix<f64>> {
    let (m, n) = jac.shape();
    let mut a = DMatrix::zeros(n, m + n);
    a.view_mut((0, 0), (n, m)).copy_from(&jac.transpose());
    a.view_mut((0, m), (n, n)).fill_with_identity();
    let qr = a.qr();
    let r = qr.r();
    let big = (0..m).map(|i| r[(i, i)].abs()).fold(0.0f64, f64::max);
    if m > 0 && (0..m).any(|i| r[(i, i)].abs() <= rank_tol * big || r[(i, i)].is_nan()) {
        return None;
    }
    let q = qr.q();
    Some(q.columns(m, n - m).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_is_orthonormal_and_orthogonal_to_the_rows() {
        let j = DMatrix::from_row_slice(2, 4, &[1.0, 2.0, 0.0, -1.0, 0.0, 1.0, 3.0, 1.0]);
        let d = orthonormal_complement(&j, 1e-10).unwrap();
        assert_eq!(d.shape(), (4, 2));
        assert!((&j * &d).amax() < 1e-14);
        assert!((d.transpose() * &d - DMatrix::identity(2, 2)).amax() < 1e-14);
        // a repeated row has rank 1 < 2
        let k = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 2.0, 4.0, 6.0]);
        assert!(orthonormal_complement(&k, 1e-10).is_none());
    }
}
