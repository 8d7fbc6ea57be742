//! The stacked linear complementarity system (LCS) integrated between events, as an
//! [`OdeSystem`] whose mode (which components of λ are free) is fixed between two events.
//!
//! All systems' states are stacked in `x` (length `N`), all interactions' multipliers in `λ`
//! (length `m`):
//!
//! `M ẋ = A(t) x + b(t) + B(t) λ`,  `y = C(t) x + D(t) λ + F z + e(t)`,
//!
//! with `A`, `M` block diagonal per system and `C`, `D`, `B` block-sparse per interaction. Every
//! component `k` obeys `−y_k ∈ N_[lb_k, ub_k](λ_k)`: a complementarity condition
//! `0 ≤ y_k ⊥ λ_k ≥ 0` is the bounds `[0, ∞)`, a relay the bounds `[lb_k, ub_k]`. A mode puts
//! each component at a bound (`λ_k = lb_k` with `y_k ≥ 0`, or `λ_k = ub_k` with `y_k ≤ 0`) or
//! free (`y_k = 0`, `lb_k ≤ λ_k ≤ ub_k`); the free multipliers solve the mode's linear
//! equations (see [`super::mode`]), and the root functions watch the inequalities the mode must
//! keep: `y_k` (at `lb`), `−y_k` (at `ub`), `λ_k − lb_k` and `ub_k − λ_k` (free), each an event
//! when it falls through 0.

use super::mode::ModeData;
use crate::model::event::UserEvent;
use crate::model::userfn::{MatOp, VecOp};
use nalgebra::{DMatrix, DVector};
use saltus_numerics::ode::{OdeSystem, RootDirection, RootKind, UserFnError};
use std::cell::RefCell;

/// Where component `k` of λ sits in a mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comp {
    /// `λ_k = lb_k`, `y_k ≥ 0` (a blocking diode; a relay saturated low).
    Lower,
    /// `λ_k = ub_k`, `y_k ≤ 0` (a relay saturated high).
    Upper,
    /// `y_k = 0`, `lb_k ≤ λ_k ≤ ub_k` (a conducting diode; a sticking relay).
    Free,
}

/// One first-order linear system: rows `off..off + n` of `x`.
pub(crate) struct FoDs {
    pub off: usize,
    pub n: usize,
    pub a: MatOp,
    pub b: Option<VecOp>,
    pub mass: Option<DMatrix<f64>>,
    /// The held control input term `g` (added to `b`), `None` when no controller acts.
    pub control: Option<DVector<f64>>,
}

/// One interaction: rows `row..row + m` of `λ`, columns `cols` of `x`.
pub(crate) struct FoInter {
    /// Its handle in the model.
    pub id: crate::model::nsds::InterId,
    pub row: usize,
    pub m: usize,
    pub cols: Vec<usize>,
    pub c: MatOp,
    pub d: Option<MatOp>,
    pub b: MatOp,
    /// `e(t)`.
    pub e: Option<VecOp>,
    /// `F z` (constant).
    pub fz: Option<DVector<f64>>,
}

/// The global matrices at one time.
#[derive(Clone)]
pub(crate) struct Mats {
    pub m: DMatrix<f64>,
    pub minv: DMatrix<f64>,
    pub a: DMatrix<f64>,
    pub b: DVector<f64>,
    pub c: DMatrix<f64>,
    pub d: DMatrix<f64>,
    pub bm: DMatrix<f64>,
    pub e: DVector<f64>,
}

/// The LCS with its current mode.
pub(crate) struct Lcs {
    pub n: usize,
    pub nl: usize,
    pub ds: Vec<FoDs>,
    pub inters: Vec<FoInter>,
    /// Bounds `(lb_k, ub_k)` of every component of λ.
    pub bounds: Vec<(f64, f64)>,
    /// Whether every matrix and vector is constant (assembled once).
    pub constant: bool,
    /// Whether `C` and `e` are constant (needed by modes of index 1).
    pub c_constant: bool,
    pub mode: ModeData,
    /// User events: root functions `2 m + k` (after the mode's), of a system's state `x`.
    pub user: Vec<UserEvent>,
    /// The matrices at the last assembly time.
    pub mats: RefCell<(f64, Mats)>,
}

fn uerr(what: &str, e: impl std::fmt::Display) -> UserFnError {
    UserFnError::Recoverable(format!("{what}: {e}"))
}

impl Lcs {
    /// Writes the global matrices at `t` into `out`.
    pub fn assemble(&self, t: f64, out: &mut Mats) -> Result<(), UserFnError> {
        out.m.fill(0.0);
        out.minv.fill(0.0);
        out.a.fill(0.0);
        out.b.fill(0.0);
        out.c.fill(0.0);
        out.d.fill(0.0);
        out.bm.fill(0.0);
        out.e.fill(0.0);
        for d in &self.ds {
            let r = d.off..d.off + d.n;
            let mut a = DMatrix::zeros(d.n, d.n);
            d.a.eval(t, &mut a).map_err(|e| uerr("A(t)", e))?;
            out.a.view_mut((d.off, d.off), (d.n, d.n)).copy_from(&a);
            if let Some(b) = &d.b {
                b.eval(t, &mut out.b.as_mut_slice()[r.clone()]).map_err(|e| uerr("b(t)", e))?;
            }
            if let Some(g) = &d.control {
                out.b.rows_mut(d.off, d.n).iter_mut().zip(g.iter()).for_each(|(o, v)| *o += v);
            }
            let m = d.mass.clone().unwrap_or_else(|| DMatrix::identity(d.n, d.n));
            let mi = m.clone().try_inverse().ok_or_else(|| UserFnError::Fatal("singular mass matrix".into()))?;
            out.m.view_mut((d.off, d.off), (d.n, d.n)).copy_from(&m);
            out.minv.view_mut((d.off, d.off), (d.n, d.n)).copy_from(&mi);
        }
        for it in &self.inters {
            let nc = it.cols.len();
            let mut c = DMatrix::zeros(it.m, nc);
            it.c.eval(t, &mut c).map_err(|e| uerr("C(t)", e))?;
            let mut b = DMatrix::zeros(nc, it.m);
            it.b.eval(t, &mut b).map_err(|e| uerr("B(t)", e))?;
            for (k, &j) in it.cols.iter().enumerate() {
                for r in 0..it.m {
                    out.c[(it.row + r, j)] += c[(r, k)];
                    out.bm[(j, it.row + r)] += b[(k, r)];
                }
            }
            if let Some(dop) = &it.d {
                let mut d = DMatrix::zeros(it.m, it.m);
                dop.eval(t, &mut d).map_err(|e| uerr("D(t)", e))?;
                out.d.view_mut((it.row, it.row), (it.m, it.m)).copy_from(&d);
            }
            let es = &mut out.e.as_mut_slice()[it.row..it.row + it.m];
            if let Some(e) = &it.e {
                e.eval(t, es).map_err(|e| uerr("e(t)", e))?;
            }
            if let Some(fz) = &it.fz {
                es.iter_mut().zip(fz.iter()).for_each(|(o, v)| *o += v);
            }
        }
        Ok(())
    }

    /// Runs `f` with the matrices at `t` (re-assembled unless constant or already at `t`).
    pub fn with_mats<R>(&self, t: f64, f: impl FnOnce(&Mats) -> R) -> Result<R, UserFnError> {
        let mut cache = self.mats.borrow_mut();
        if !self.constant && cache.0 != t {
            let mut m = cache.1.clone();
            self.assemble(t, &mut m)?;
            *cache = (t, m);
        }
        Ok(f(&cache.1))
    }

    /// Holds `g` in the `b` of system `k` and re-assembles the cached matrices (also when
    /// they are constant: `g` is part of `b`).
    pub fn set_control(&mut self, k: usize, g: &[f64]) -> Result<(), UserFnError> {
        self.ds[k].control = Some(DVector::from_column_slice(g));
        let (t, mut m) = self.mats.get_mut().clone();
        self.assemble(t, &mut m)?;
        *self.mats.get_mut() = (t, m);
        Ok(())
    }

    /// `λ(t, x)` of the current mode into `lam`, and `y = C x + D λ + e` into `y`.
    pub fn outputs(&self, t: f64, x: &[f64], lam: &mut [f64], y: &mut [f64]) -> Result<(), UserFnError> {
        self.with_mats(t, |m| self.mode.solve(self, m, x, lam, y))?
    }

    /// The state `x` of system `k` within the stacked `x` (a user event's state `s`).
    pub fn state_of<'a>(&self, k: usize, x: &'a [f64]) -> &'a [f64] {
        let d = &self.ds[k];
        &x[d.off..d.off + d.n]
    }

    /// `ẋ = M⁻¹ (A x + b + B λ)` for a given λ.
    pub fn field(m: &Mats, x: &[f64], lam: &[f64], dx: &mut [f64]) {
        let xv = DVector::from_column_slice(x);
        let lv = DVector::from_column_slice(lam);
        let f = &m.a * xv + &m.b + &m.bm * lv;
        dx.copy_from_slice((&m.minv * f).as_slice());
    }
}

impl OdeSystem for Lcs {
    fn dim(&self) -> usize {
        self.n
    }

    /// `ẋ = M⁻¹ (A x + b + B λ(x))` with `λ(x)` the current mode's multipliers.
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) -> Result<(), UserFnError> {
        let (mut lam, mut y) = (vec![0.0; self.nl], vec![0.0; self.nl]);
        self.outputs(t, x, &mut lam, &mut y)?;
        self.with_mats(t, |m| Self::field(m, x, &lam, dx))?;
        if dx.iter().any(|v| !v.is_finite()) {
            return Err(UserFnError::Recoverable("non-finite ẋ".into()));
        }
        Ok(())
    }

    fn n_roots(&self) -> usize {
        2 * self.nl + self.user.len()
    }

    /// Per component `k`: `g_2k = y_k` (at `lb`), `−y_k` (at `ub`) or `λ_k − lb_k` (free);
    /// `g_2k+1 = ub_k − λ_k` when free with a finite `ub_k`, else 1.
    fn roots(&self, t: f64, x: &[f64], g: &mut [f64]) -> Result<(), UserFnError> {
        let (mut lam, mut y) = (vec![0.0; self.nl], vec![0.0; self.nl]);
        self.outputs(t, x, &mut lam, &mut y)?;
        for (k, &(lb, ub)) in self.bounds.iter().enumerate() {
            let (g0, g1) = match self.mode.comps[k] {
                Comp::Lower => (y[k], 1.0),
                Comp::Upper => (-y[k], 1.0),
                Comp::Free => (lam[k] - lb, if ub.is_finite() { ub - lam[k] } else { 1.0 }),
            };
            g[2 * k] = g0;
            g[2 * k + 1] = g1;
        }
        for (e, gi) in self.user.iter().zip(&mut g[2 * self.nl..]) {
            *gi =
                e.value(t, self.state_of(e.ds.index(), x)).map_err(|err| uerr(&format!("event `{}`", e.name), err))?;
        }
        Ok(())
    }

    fn root_kind(&self, i: usize) -> RootKind {
        match i.checked_sub(2 * self.nl) {
            Some(k) => self.user[k].kind,
            None => RootKind { direction: RootDirection::Falling, ..Default::default() },
        }
    }
}
