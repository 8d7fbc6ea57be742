//! Modes of the LCS: the equations of a mode, and the choice of the mode at an event.
//!
//! **A mode's multipliers.** With `F` the free components and `λ_B` the components at a bound:
//! * index 0 (`D_FF` nonsingular): `y_F = 0` is algebraic in λ,
//!   `D_FF λ_F = −(C_F x + D_FB λ_B + e_F)`;
//! * index 1 (`D_FF = 0`, `G = C_F M⁻¹ B_F` nonsingular, `C` and `e` constant): `y_F = 0` is
//!   kept by `ẏ_F = 0`, `G λ_F = −C_F M⁻¹ (A x + b + B_B λ_B)`; at the event the state is moved
//!   onto `y_F = 0` along the input directions, `x⁺ = x + M⁻¹ B_F μ` with `G μ = −y_F(x)` (the
//!   state jump of a relative-degree-one LCS; here only the roundoff of the root location).
//!
//! Any other mode (a singular `D_FF` that is not zero, a singular `G`, a time-varying `C` or `e`
//! in an index-1 mode) is [`KernelError::UnsupportedMode`].
//!
//! **Choosing the mode at an event.** At a switching state several modes are consistent with
//! `y` and `λ` (the components that reach the boundary have `y_k = 0` and `λ_k = lb_k`); the
//! one that the solution follows is decided by the direction the state moves in. The mode is
//! read from the one-step problem of a short implicit Euler step `δ` from the event state
//! (`δ = mode_probe`, far below the time scales of the system):
//! `(M − δA) x⁺ = M x + δ (b + B λ)`, `y⁺ = C x⁺ + D λ + e`, `−y⁺ ∈ N_[lb, ub](λ)`,
//! i.e. `y⁺ = W λ + q` with `W = D + δ C (M − δA)⁻¹ B`. For small `δ` its active set is the
//! lexicographic one (the sign of `y`, then of `ẏ`, …): a component that crosses its boundary
//! has `y⁺ = O(δ)` of the sign that the dynamics gives it. The relay bounds are written as an
//! LCP of size `m + #finite ub` (`λ = lb + z`, `w = y⁺ + z′ ⊥ z`, `ub − lb − z ⊥ z′`) solved by
//! the acceleration solver of the options (Lemke by default).

use super::lcs::{Comp, Lcs, Mats};
use crate::simulation::event_driven::acceleration::solve_lcp;
use crate::KernelError;
use nalgebra::{DMatrix, DVector};
use saltus_numerics::lcp::LcpSolver;
use saltus_numerics::ode::UserFnError;
use saltus_numerics::SolveReport;

/// Index of a mode's algebraic equations `y_F = 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModeKind {
    /// `D_FF` nonsingular.
    Index0,
    /// `D_FF = 0` and `C_F M⁻¹ B_F` nonsingular.
    Index1,
}

/// The current mode.
#[derive(Clone, Debug)]
pub(crate) struct ModeData {
    pub comps: Vec<Comp>,
    pub free: Vec<usize>,
    pub kind: ModeKind,
}

fn sub(m: &DMatrix<f64>, rows: &[usize], cols: &[usize]) -> DMatrix<f64> {
    DMatrix::from_fn(rows.len(), cols.len(), |r, c| m[(rows[r], cols[c])])
}

/// Singular values ratio test: `min σ > 1e-12 max σ`.
fn nonsingular(m: &DMatrix<f64>) -> bool {
    if m.is_empty() {
        return true;
    }
    let s = m.clone().singular_values();
    let (lo, hi) = s.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    hi > 0.0 && lo > 1e-12 * hi
}

impl ModeData {
    /// Every component at its lower bound (before the first mode selection).
    pub fn blocked(nl: usize) -> Self {
        ModeData { comps: vec![Comp::Lower; nl], free: Vec::new(), kind: ModeKind::Index0 }
    }

    /// Bound values `λ_B` of the components at a bound (free ones 0).
    fn bound_values(&self, lcs: &Lcs, lam: &mut [f64]) {
        for (k, (l, c)) in lam.iter_mut().zip(&self.comps).enumerate() {
            *l = match c {
                Comp::Lower => lcs.bounds[k].0,
                Comp::Upper => lcs.bounds[k].1,
                Comp::Free => 0.0,
            };
        }
    }

    /// The mode's `λ(x)` into `lam` and `y = C x + D λ + e` into `y` (see the module docs).
    pub fn solve(&self, lcs: &Lcs, m: &Mats, x: &[f64], lam: &mut [f64], y: &mut [f64]) -> Result<(), UserFnError> {
        self.bound_values(lcs, lam);
        let xv = DVector::from_column_slice(x);
        if !self.free.is_empty() {
            let f = &self.free;
            let lb = DVector::from_column_slice(lam);
            let rhs: DVector<f64> = match self.kind {
                ModeKind::Index0 => {
                    let r = &m.c * &xv + &m.d * &lb + &m.e;
                    DVector::from_iterator(f.len(), f.iter().map(|&k| r[k]))
                }
                ModeKind::Index1 => {
                    let xdot = &m.minv * (&m.a * &xv + &m.b + &m.bm * &lb);
                    let r = &m.c * xdot;
                    DVector::from_iterator(f.len(), f.iter().map(|&k| r[k]))
                }
            };
            let mat = match self.kind {
                ModeKind::Index0 => sub(&m.d, f, f),
                ModeKind::Index1 => {
                    let all: Vec<usize> = (0..lcs.n).collect();
                    sub(&m.c, f, &all) * &m.minv * sub(&m.bm, &all, f)
                }
            };
            let sol = mat
                .lu()
                .solve(&(-rhs))
                .filter(|s| s.iter().all(|v| v.is_finite()))
                .ok_or_else(|| UserFnError::Fatal("the mode's equations for λ became singular".into()))?;
            for (i, &k) in f.iter().enumerate() {
                lam[k] = sol[i];
            }
        }
        let yv = &m.c * &xv + &m.d * DVector::from_column_slice(lam) + &m.e;
        y.copy_from_slice(yv.as_slice());
        Ok(())
    }

    /// Classifies the mode of `comps` at `t` (index 0 or 1), or says why it is not supported.
    pub fn classify(lcs: &Lcs, m: &Mats, comps: Vec<Comp>, t: f64) -> Result<Self, KernelError> {
        let free: Vec<usize> = comps.iter().enumerate().filter(|(_, c)| **c == Comp::Free).map(|(k, _)| k).collect();
        let dff = sub(&m.d, &free, &free);
        let unsupported = |reason: String| KernelError::UnsupportedMode { t, free: free.clone(), reason };
        let kind = if nonsingular(&dff) {
            ModeKind::Index0
        } else if dff.iter().all(|&v| v == 0.0) {
            let all: Vec<usize> = (0..lcs.n).collect();
            let g = sub(&m.c, &free, &all) * &m.minv * sub(&m.bm, &all, &free);
            if !nonsingular(&g) {
                return Err(unsupported(
                    "D_FF = 0 and C_F M⁻¹ B_F is singular: the mode has relative degree > 1".into(),
                ));
            }
            if !lcs.c_constant {
                return Err(unsupported("a mode of relative degree 1 needs constant C and e".into()));
            }
            ModeKind::Index1
        } else {
            return Err(unsupported("D_FF is singular but not zero (mixed relative degree)".into()));
        };
        Ok(ModeData { comps, free, kind })
    }

    /// Index-1 modes: moves `x` onto `y_F = 0` along `M⁻¹ B_F` (see the module docs).
    pub fn project(&self, lcs: &Lcs, m: &Mats, x: &mut [f64]) -> Result<(), UserFnError> {
        if self.kind != ModeKind::Index1 || self.free.is_empty() {
            return Ok(());
        }
        let (mut lam, mut y) = (vec![0.0; lcs.nl], vec![0.0; lcs.nl]);
        self.bound_values(lcs, &mut lam);
        let yv = &m.c * DVector::from_column_slice(x) + &m.d * DVector::from_column_slice(&lam) + &m.e;
        y.copy_from_slice(yv.as_slice());
        let f = &self.free;
        let all: Vec<usize> = (0..lcs.n).collect();
        let mb = &m.minv * sub(&m.bm, &all, f);
        let g = sub(&m.c, f, &all) * &mb;
        let yf = DVector::from_iterator(f.len(), f.iter().map(|&k| -y[k]));
        let mu = g.lu().solve(&yf).ok_or_else(|| UserFnError::Fatal("singular C_F M⁻¹ B_F".into()))?;
        let dx = mb * mu;
        x.iter_mut().zip(dx.iter()).for_each(|(o, d)| *o += d);
        Ok(())
    }
}

/// Chooses the mode at `(t, x)` from the one-step problem of an implicit Euler step `delta`
/// (see the module docs). Returns the components' positions and the solver report.
pub(crate) fn select(
    lcs: &Lcs,
    m: &Mats,
    t: f64,
    x: &[f64],
    delta: f64,
    solver: &LcpSolver,
) -> Result<(Vec<Comp>, SolveReport), KernelError> {
    let nl = lcs.nl;
    let k = &m.m - &m.a * delta;
    let klu = k.lu();
    let rhs = &m.m * DVector::from_column_slice(x) + &m.b * delta;
    let (xf, kb) = match (klu.solve(&rhs), klu.solve(&m.bm)) {
        (Some(a), Some(b)) => (a, b),
        _ => {
            return Err(KernelError::UnsupportedMode {
                t,
                free: Vec::new(),
                reason: format!("M − δA is singular for the mode probe δ = {delta}"),
            })
        }
    };
    let w = &m.d + &m.c * kb * delta;
    let lb = DVector::from_iterator(nl, lcs.bounds.iter().map(|b| b.0));
    let q = &m.c * xf + &m.e + &w * &lb;
    let fin: Vec<usize> = (0..nl).filter(|&k| lcs.bounds[k].1.is_finite()).collect();
    let size = nl + fin.len();
    let mut big = DMatrix::zeros(size, size);
    big.view_mut((0, 0), (nl, nl)).copy_from(&w);
    let mut qq = vec![0.0; size];
    qq[..nl].copy_from_slice(q.as_slice());
    for (j, &k) in fin.iter().enumerate() {
        big[(k, nl + j)] = 1.0;
        big[(nl + j, k)] = -1.0;
        qq[nl + j] = lcs.bounds[k].1 - lcs.bounds[k].0;
    }
    let (z, wv, report) = solve_lcp(t, big, qq, solver)?;
    let scale = z.iter().fold(1.0f64, |a, v| a.max(v.abs()));
    let tiny = 1e-14 * scale;
    let mut comps = vec![Comp::Lower; nl];
    for (kk, c) in comps.iter_mut().enumerate() {
        if z[kk] <= tiny {
            continue;
        }
        *c = match fin.iter().position(|&f| f == kk) {
            Some(j) if wv[nl + j] <= tiny => Comp::Upper,
            _ => Comp::Free,
        };
    }
    Ok((comps, report))
}
