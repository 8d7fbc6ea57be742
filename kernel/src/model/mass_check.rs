//! Checks of mass matrices: a Lagrangian mass `M` in `M v̇ = F` must be symmetric positive
//! definite (kinetic energy `½ vᵀ M v > 0` for every `v ≠ 0`); the mass `M` of a first-order
//! system `M ẋ = f(t, x) + r` may be singular (a differential-algebraic system) but must be
//! symmetric positive semidefinite.
//!
//! Symmetry is checked to a relative tolerance `|M_ij − M_ji| ≤ 1e-10 · max|M|`; definiteness
//! by the eigenvalues of `(M + Mᵀ)/2`: positive definite needs `λ_min > n·ε·λ_max`, positive
//! semidefinite `λ_min ≥ −n·ε·λ_max` (ε the machine epsilon), so round-off does not decide.

use nalgebra::DMatrix;

/// What a mass matrix must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MassRequirement {
    /// Symmetric positive definite (Lagrangian systems).
    PositiveDefinite,
    /// Symmetric positive semidefinite (first-order systems, where a singular `M` makes a DAE).
    PositiveSemidefinite,
}

/// Why a mass matrix is refused. Indices are 0-based.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MassError {
    /// Not square.
    #[error("the mass matrix is {rows}×{cols}: it must be square")]
    NotSquare {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// An entry is NaN or infinite.
    #[error("entry ({row}, {col}) of the mass matrix is not finite")]
    NonFinite {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
    /// A diagonal entry is negative (or zero where definiteness is required): a negative mass.
    #[error("diagonal entry {index} of the mass matrix is {value}: a mass must be {}", if *.zero_allowed { "≥ 0" } else { "> 0" })]
    NonPositiveDiagonal {
        /// Index of the diagonal entry.
        index: usize,
        /// Its value.
        value: f64,
        /// Whether 0 is allowed (positive semidefinite requirement).
        zero_allowed: bool,
    },
    /// `M_ij ≠ M_ji` beyond the tolerance.
    #[error("the mass matrix is not symmetric: entry ({row}, {col}) is {a}, entry ({col}, {row}) is {b}")]
    NotSymmetric {
        /// Row of the first entry.
        row: usize,
        /// Column of the first entry.
        col: usize,
        /// `M[row, col]`.
        a: f64,
        /// `M[col, row]`.
        b: f64,
    },
    /// The smallest eigenvalue is too small.
    #[error("the mass matrix is not positive {}definite: its smallest eigenvalue is {min_eigenvalue} (largest {max_eigenvalue})", if *.semi { "semi" } else { "" })]
    NotDefinite {
        /// Smallest eigenvalue.
        min_eigenvalue: f64,
        /// Largest eigenvalue.
        max_eigenvalue: f64,
        /// Whether the requirement was positive semidefinite.
        semi: bool,
    },
}

/// Checks `m` against `req` (see the module documentation for the tolerances).
pub fn check_mass(m: &DMatrix<f64>, req: MassRequirement) -> Result<(), MassError> {
    let (rows, cols) = m.shape();
    if rows != cols {
        return Err(MassError::NotSquare { rows, cols });
    }
    let n = rows;
    for j in 0..n {
        for i in 0..n {
            if !m[(i, j)].is_finite() {
                return Err(MassError::NonFinite { row: i, col: j });
            }
        }
    }
    let semi = req == MassRequirement::PositiveSemidefinite;
    for i in 0..n {
        let d = m[(i, i)];
        if d < 0.0 || (!semi && d == 0.0) {
            return Err(MassError::NonPositiveDiagonal { index: i, value: d, zero_allowed: semi });
        }
    }
    let scale = m.amax();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (m[(i, j)], m[(j, i)]);
            if (a - b).abs() > 1e-10 * scale {
                return Err(MassError::NotSymmetric { row: i, col: j, a, b });
            }
        }
    }
    if is_diagonal(m) {
        // The eigenvalues are the diagonal, already checked above.
        return Ok(());
    }
    let sym = (m + m.transpose()) * 0.5;
    let eig = sym.symmetric_eigenvalues();
    let (min, max) = eig.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &e| (lo.min(e), hi.max(e)));
    let tol = n as f64 * f64::EPSILON * max.abs();
    let ok = if semi { min >= -tol } else { min > tol };
    if !ok {
        return Err(MassError::NotDefinite { min_eigenvalue: min, max_eigenvalue: max, semi });
    }
    Ok(())
}

fn is_diagonal(m: &DMatrix<f64>) -> bool {
    m.iter().enumerate().all(|(k, &v)| v == 0.0 || k % m.nrows() == k / m.nrows())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    const PD: MassRequirement = MassRequirement::PositiveDefinite;
    const PSD: MassRequirement = MassRequirement::PositiveSemidefinite;

    #[test]
    fn positive_definite_matrices_pass() {
        assert_eq!(check_mass(&dmatrix![1.0, 0.0; 0.0, 0.004], PD), Ok(()));
        // eigenvalues 1 and 3
        assert_eq!(check_mass(&dmatrix![2.0, 1.0; 1.0, 2.0], PD), Ok(()));
        assert_eq!(check_mass(&dmatrix![1.0, 0.0; 0.0, 0.0], PSD), Ok(()));
        // rank one, eigenvalues 0 and 2: semidefinite only
        assert_eq!(check_mass(&dmatrix![1.0, 1.0; 1.0, 1.0], PSD), Ok(()));
    }

    #[test]
    fn a_negative_mass_is_named_by_its_index() {
        let e = check_mass(&dmatrix![1.0, 0.0; 0.0, -2.0], PD).unwrap_err();
        assert_eq!(e, MassError::NonPositiveDiagonal { index: 1, value: -2.0, zero_allowed: false });
        assert!(check_mass(&dmatrix![0.0], PD).is_err(), "a zero mass is not positive definite");
        assert!(check_mass(&dmatrix![-1.0], PSD).is_err());
    }

    #[test]
    fn asymmetry_and_indefiniteness_are_refused() {
        let e = check_mass(&dmatrix![1.0, 0.5; 0.0, 1.0], PD).unwrap_err();
        assert_eq!(e, MassError::NotSymmetric { row: 0, col: 1, a: 0.5, b: 0.0 });
        // eigenvalues -1 and 3 with a positive diagonal
        match check_mass(&dmatrix![1.0, 2.0; 2.0, 1.0], PD).unwrap_err() {
            MassError::NotDefinite { min_eigenvalue, max_eigenvalue, semi: false } => {
                assert!((min_eigenvalue + 1.0).abs() < 1e-12 && (max_eigenvalue - 3.0).abs() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
        // singular: semidefinite but not definite
        assert!(matches!(check_mass(&dmatrix![1.0, 1.0; 1.0, 1.0], PD), Err(MassError::NotDefinite { .. })));
        assert!(matches!(
            check_mass(&dmatrix![1.0, 2.0; 2.0, 1.0], PSD),
            Err(MassError::NotDefinite { semi: true, .. })
        ));
        assert!(matches!(check_mass(&dmatrix![1.0, 2.0], PD), Err(MassError::NotSquare { rows: 1, cols: 2 })));
        assert!(matches!(check_mass(&dmatrix![f64::NAN], PD), Err(MassError::NonFinite { row: 0, col: 0 })));
    }

    #[test]
    fn round_off_asymmetry_is_tolerated() {
        let m = dmatrix![2.0, 1.0 + 1e-15; 1.0, 2.0];
        assert_eq!(check_mass(&m, PD), Ok(()));
    }
}
