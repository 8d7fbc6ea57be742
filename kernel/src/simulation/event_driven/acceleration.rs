//! The acceleration-level problem (Siconos `SICONOS_OSNSP_ED_SMOOTH_ACC`).
//!
//! For a set `S` of closed contacts, with `a_free = M⁻¹ F` and `J_i = ∇h_i(q)`:
//! `ÿ_S = W λ + b`, `W_ij = J_i M⁻¹ J_jᵀ`, `b_i = J_i a_free + J̇_i v`.
//! * At an event, the LCP `0 ≤ ÿ_S ⊥ λ ≥ 0` decides which contacts stay closed (λ > 0) and
//!   which separate (ÿ > 0): [`acceleration_lcp`].
//! * Between events the contacts of I2 are held closed, `ÿ_{I2} = 0` (a linear system for λ):
//!   [`Accel::bilateral`]. Its multipliers are the root functions of I2 — a detachment is the
//!   event λ_i falling through 0. (Siconos solves the LCP inside `computef`; holding the set
//!   fixed keeps the right-hand side smooth, so the integrator keeps its order and the root
//!   finder sees a sign change instead of a λ that touches 0 and stays there.)

use super::dynamics::{Dynamics, Work};
use crate::KernelError;
use nalgebra::{DMatrix, DVector};
use saltus_numerics::lcp::{self, Lcp, LcpSolver};
use saltus_numerics::ode::UserFnError;
use saltus_numerics::{Operator, SolveReport, SolveStatus};

/// Accelerations and contact forces of the last evaluation.
pub(crate) struct Accel {
    /// `v̇` of all coordinates.
    pub a: Vec<f64>,
    /// `λ_i` per contact (0 outside I2).
    pub lambda: Vec<f64>,
}

/// The assembled problem over a contact set.
pub(crate) struct AccProblem {
    pub w: DMatrix<f64>,
    pub b: Vec<f64>,
    /// `M⁻¹ J_iᵀ` (global length) per contact of the set.
    pub mj: Vec<Vec<f64>>,
}

impl Accel {
    pub fn new(n: usize) -> Self {
        Accel { a: vec![0.0; n], lambda: Vec::new() }
    }

    pub fn lambda_of(&self, i: usize) -> f64 {
        self.lambda.get(i).copied().unwrap_or(0.0)
    }

    /// `a = a_free + M⁻¹ J_{I2}ᵀ λ` with `W λ = −b` (contacts of I2 held closed).
    pub fn bilateral(d: &Dynamics, t: f64, q: &[f64], v: &[f64], f: &[f64], w: &mut Work) -> Result<(), UserFnError> {
        w.accel.a.copy_from_slice(f);
        d.minv(t, q, &mut w.accel.a)?;
        w.accel.lambda.clear();
        w.accel.lambda.resize(d.contacts.len(), 0.0);
        if !d.in_i2.iter().any(|&b| b) {
            return Ok(());
        }
        let set: Vec<usize> = (0..d.contacts.len()).filter(|&i| d.in_i2[i]).collect();
        let a_free = w.accel.a.clone();
        let p = assemble(d, t, q, v, &a_free, &set, true, w)?;
        let lam =
            p.w.clone()
                .lu()
                .solve(&DVector::from_iterator(set.len(), p.b.iter().map(|x| -x)))
                .filter(|l| l.iter().all(|x| x.is_finite()))
                .ok_or_else(|| UserFnError::Fatal("singular acceleration problem on I2 (redundant contacts)".into()))?;
        for (k, &i) in set.iter().enumerate() {
            w.accel.lambda[i] = lam[k];
            for (o, m) in w.accel.a.iter_mut().zip(&p.mj[k]) {
                *o += m * lam[k];
            }
        }
        Ok(())
    }
}

/// Assembles `W`, `b` and `M⁻¹ J_iᵀ` over the contacts `set`: `b_i = J_i x (+ J̇_i v if
/// `dotjac`)`, with `x = a_free = M⁻¹ F` (acceleration level) or `x = v` (impact level).
#[allow(clippy::too_many_arguments)]
pub(crate) fn assemble(
    d: &Dynamics,
    t: f64,
    q: &[f64],
    v: &[f64],
    a_free: &[f64],
    set: &[usize],
    dotjac: bool,
    w: &mut Work,
) -> Result<AccProblem, UserFnError> {
    let m = set.len();
    let mut jrows = Vec::with_capacity(m);
    let mut mj = Vec::with_capacity(m);
    let mut b = Vec::with_capacity(m);
    for &i in set {
        let c = &d.contacts[i];
        let mut jl = vec![0.0; c.idx.len()];
        d.jac(i, t, q, w, &mut jl)?;
        let mut g = vec![0.0; d.n];
        for (k, &j) in c.idx.iter().enumerate() {
            g[j] += jl[k];
        }
        let jdv = if dotjac { d.dotjac_v(i, t, q, v, w)? } else { 0.0 };
        b.push(g.iter().zip(a_free).map(|(x, y)| x * y).sum::<f64>() + jdv);
        let mut mg = g.clone();
        d.minv(t, q, &mut mg)?;
        jrows.push(g);
        mj.push(mg);
    }
    let w = DMatrix::from_fn(m, m, |r, c| jrows[r].iter().zip(&mj[c]).map(|(x, y)| x * y).sum());
    Ok(AccProblem { w, b, mj })
}

/// Solves an LCP `0 ≤ W z + q ⊥ z ≥ 0`, checking the status and finiteness.
pub(crate) fn solve_lcp(
    t: f64,
    w: DMatrix<f64>,
    q: Vec<f64>,
    solver: &LcpSolver,
) -> Result<(Vec<f64>, Vec<f64>, SolveReport), KernelError> {
    let n = q.len();
    let p = Lcp::new(Operator::Dense(w), q).map_err(|source| KernelError::Numerics { t, source })?;
    let (mut z, mut r) = (vec![0.0; n], vec![0.0; n]);
    let report = lcp::solve(&p, &mut z, &mut r, solver).map_err(|source| KernelError::Numerics { t, source })?;
    if !matches!(report.status, SolveStatus::Converged) {
        return Err(KernelError::NotConverged { t, report });
    }
    if z.iter().chain(&r).any(|x| !x.is_finite()) {
        return Err(KernelError::NonFinite { t, what: "multiplier λ", interaction: None });
    }
    Ok((z, r, report))
}

/// The acceleration LCP over the candidate set: returns `(λ, ÿ, report)` in set order.
pub(crate) fn acceleration_lcp(
    d: &Dynamics,
    t: f64,
    q: &[f64],
    v: &[f64],
    set: &[usize],
    solver: &LcpSolver,
) -> Result<(Vec<f64>, Vec<f64>, SolveReport), KernelError> {
    let ufe = |e: UserFnError| KernelError::UserFn {
        t,
        what: "acceleration problem".into(),
        source: crate::UserFnError::new(e.to_string()),
    };
    let mut w = d.work.borrow_mut();
    let mut a_free = vec![0.0; d.n];
    d.forces(t, q, v, &mut a_free).map_err(ufe)?;
    d.minv(t, q, &mut a_free).map_err(ufe)?;
    let p = assemble(d, t, q, v, &a_free, set, true, &mut w).map_err(ufe)?;
    drop(w);
    solve_lcp(t, p.w, p.b, solver)
}
