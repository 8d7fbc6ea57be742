//! Solving an LCP on a guessed active set: the building block of enumeration, of the Lemke
//! warm start and of Lemke's final polishing.
//!
//! For a set `F` of indices where `z` is basic (`w_F = 0`) and `z_i = 0` elsewhere:
//! `M_FF z_F = −q_F`, then `w = M z + q`. The guess is complementary-feasible when
//! `z_F ≥ 0` and `w_i ≥ 0` off `F`.

use super::lu::DenseLu;
use nalgebra::DMatrix;

/// Relative pivot threshold of the reduced factorizations.
const PIVOT_REL_TOL: f64 = 1e-13;

/// Fills `z` from the active set `basic` (`basic[i]` ⇔ `z_i` basic). Returns `false` when
/// `M_FF` is numerically singular (then `z` is unspecified).
pub(crate) fn solve_on_set(
    lu: &mut DenseLu,
    m: &DMatrix<f64>,
    q: &[f64],
    basic: &[bool],
    idx: &mut Vec<usize>,
    z: &mut [f64],
) -> bool {
    idx.clear();
    idx.extend((0..q.len()).filter(|&i| basic[i]));
    let k = idx.len();
    z.iter_mut().for_each(|v| *v = 0.0);
    if k == 0 {
        return true;
    }
    let a = lu.matrix_mut(k);
    for (jj, &j) in idx.iter().enumerate() {
        let col = m.column(j);
        for (ii, &i) in idx.iter().enumerate() {
            a[ii + jj * k] = col[i];
        }
    }
    if lu.factor(PIVOT_REL_TOL).is_err() {
        return false;
    }
    // reuse the tail of z as right-hand side storage: gather −q_F into z[0..k] then scatter
    for (ii, &i) in idx.iter().enumerate() {
        z[ii] = -q[i];
    }
    lu.solve(&mut z[..k]);
    // scatter backwards (idx is increasing, so idx[ii] >= ii and no value is overwritten early)
    for ii in (0..k).rev() {
        let v = z[ii];
        z[ii] = 0.0;
        z[idx[ii]] = v;
    }
    true
}

/// `true` when `z ≥ −ε` and `w = M z + q ≥ −ε` (ε relative to `‖q‖∞`), `w` written out.
pub(crate) fn feasible(m: &DMatrix<f64>, q: &[f64], z: &[f64], w: &mut [f64], eps_rel: f64) -> bool {
    let scale = q.iter().fold(1.0f64, |a, x| a.max(x.abs()));
    let eps = eps_rel * scale;
    if z.iter().any(|&v| !(v >= -eps)) {
        return false;
    }
    w.copy_from_slice(q);
    for (j, &zj) in z.iter().enumerate() {
        if zj != 0.0 {
            for (wi, mij) in w.iter_mut().zip(m.column(j).iter()) {
                *wi += mij * zj;
            }
        }
    }
    w.iter().all(|&v| v >= -eps)
}
