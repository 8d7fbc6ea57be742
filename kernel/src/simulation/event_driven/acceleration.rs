//! The acceleration-level problem (Siconos `SICONOS_OSNSP_ED_SMOOTH_ACC`).
//!
//! For a set `S` of closed contacts, with `a_free = M⁻¹ F` and `J_i = ∇h_i(q)`:
//! `ÿ_S = W λ + b`, `W_ij = J_i M⁻¹ J_jᵀ`, `b_i = J_i a_free + J̇_i v`.
//! * At an event, the LCP `0 ≤ ÿ_S ⊥ λ ≥ 0` decides which contacts stay closed (λ > 0) and
//!   which separate (ÿ > 0): [`super::contact_lcp::acceleration_lcp`], with Coulomb friction
//!   in Pfeiffer and Glocker's form.
//! * Between events the contacts of I2 are held closed, `ÿ_{I2} = 0` (a linear system for λ):
//!   [`Accel::bilateral`]. A frictional contact of I2 adds its tangential mode: sticking, the row
//!   `ÿ_T = 0` and the unknown `λ_T`; slipping in direction `s`, no row, and its normal force acts
//!   along `(J_N − μ s J_T)ᵀ` (module [`super::friction`]). Its multipliers are the root functions of I2 — a detachment is the
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
    /// `λ_i` (normal) per contact (0 outside I2).
    pub lambda: Vec<f64>,
    /// `λ_T,i` (tangential) per contact (0 outside I2 and for frictionless contacts).
    pub lambda_t: Vec<f64>,
}

/// The assembled problem over constraint rows and force columns (see [`assemble_rc`]).
pub(crate) struct AccProblem {
    /// `W_rj = J_r M⁻¹ c_jᵀ`.
    pub w: DMatrix<f64>,
    /// `b_r = J_r x (+ J̇_r v)` per row.
    pub b: Vec<f64>,
    /// `M⁻¹ c_jᵀ` (global length) per column.
    pub mj: Vec<Vec<f64>>,
    /// `c_j` (global length) per column: the generalized force of a unit multiplier.
    pub cols: Vec<Vec<f64>>,
}

/// A constraint row of a contact: `J_N` (the gap's rate) or `J_T` (the sliding velocity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RowSpec {
    pub contact: usize,
    pub tangent: bool,
}

/// A force direction `c = n J_N + s J_T` of a contact (normal: `(1, 0)`, tangent: `(0, 1)`,
/// normal force of a contact slipping in direction `s`: `(1, −μ s)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ColSpec {
    pub contact: usize,
    pub n: f64,
    pub t: f64,
}

impl RowSpec {
    pub fn normal(contact: usize) -> Self {
        RowSpec { contact, tangent: false }
    }
    pub fn tangent(contact: usize) -> Self {
        RowSpec { contact, tangent: true }
    }
}

impl ColSpec {
    pub fn normal(contact: usize) -> Self {
        ColSpec { contact, n: 1.0, t: 0.0 }
    }
    pub fn tangent(contact: usize) -> Self {
        ColSpec { contact, n: 0.0, t: 1.0 }
    }
}

impl Accel {
    pub fn new(n: usize) -> Self {
        Accel { a: vec![0.0; n], lambda: Vec::new(), lambda_t: Vec::new() }
    }

    pub fn lambda_of(&self, i: usize) -> f64 {
        self.lambda.get(i).copied().unwrap_or(0.0)
    }

    /// `a = a_free + M⁻¹ Σ c_jᵀ λ_j` with `W λ = −b` (contacts of I2 held closed, sticking
    /// contacts held at `ÿ_T = 0`, slipping ones pushed along `J_N − μ s J_T`).
    pub fn bilateral(d: &Dynamics, t: f64, q: &[f64], v: &[f64], f: &[f64], w: &mut Work) -> Result<(), UserFnError> {
        w.accel.a.copy_from_slice(f);
        d.minv(t, q, &mut w.accel.a)?;
        let nc = d.contacts.len();
        for l in [&mut w.accel.lambda, &mut w.accel.lambda_t] {
            l.clear();
            l.resize(nc, 0.0);
        }
        if !d.in_i2.iter().any(|&b| b) {
            return Ok(());
        }
        let (rows, cols) = d.held_problem();
        let a_free = w.accel.a.clone();
        let p = assemble_rc(d, t, q, v, &a_free, &rows, &cols, true, w)?;
        let lam =
            p.w.clone()
                .lu()
                .solve(&DVector::from_iterator(rows.len(), p.b.iter().map(|x| -x)))
                .filter(|l| l.iter().all(|x| x.is_finite()))
                .ok_or_else(|| UserFnError::Fatal("singular acceleration problem on I2 (redundant contacts)".into()))?;
        for (k, c) in cols.iter().enumerate() {
            if c.n == 0.0 {
                w.accel.lambda_t[c.contact] = lam[k];
            } else {
                w.accel.lambda[c.contact] = lam[k];
                w.accel.lambda_t[c.contact] = c.t * lam[k];
            }
            for (o, m) in w.accel.a.iter_mut().zip(&p.mj[k]) {
                *o += m * lam[k];
            }
        }
        Ok(())
    }
}

/// Assembles `W`, `b` and `M⁻¹ J_iᵀ` over the normal rows of the contacts `set` (see
/// [`assemble_rc`]).
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
    let rows: Vec<RowSpec> = set.iter().map(|&i| RowSpec::normal(i)).collect();
    let cols: Vec<ColSpec> = set.iter().map(|&i| ColSpec::normal(i)).collect();
    assemble_rc(d, t, q, v, a_free, &rows, &cols, dotjac, w)
}

/// `H_r = J_r N(q)` (global length, over the velocities) of one constraint row.
fn global_row(d: &Dynamics, r: RowSpec, t: f64, q: &[f64], w: &mut Work) -> Result<Vec<f64>, UserFnError> {
    let c = &d.contacts[r.contact];
    let mut jl = vec![0.0; c.vidx.len()];
    d.h_row(r.contact, usize::from(r.tangent), t, q, w, &mut jl)?;
    let mut g = vec![0.0; d.n];
    for (k, &j) in c.vidx.iter().enumerate() {
        g[j] += jl[k];
    }
    Ok(g)
}

/// Assembles `W_rj = J_r M⁻¹ c_jᵀ`, `b_r = J_r x (+ J̇_r v if `dotjac`)` and `M⁻¹ c_jᵀ` over the
/// constraint rows `rows` and force directions `cols`, with `x = a_free = M⁻¹ F` (acceleration
/// level) or `x = v` (impact level).
#[allow(clippy::too_many_arguments)]
pub(crate) fn assemble_rc(
    d: &Dynamics,
    t: f64,
    q: &[f64],
    v: &[f64],
    a_free: &[f64],
    rows: &[RowSpec],
    cols: &[ColSpec],
    dotjac: bool,
    w: &mut Work,
) -> Result<AccProblem, UserFnError> {
    let mut jrows = Vec::with_capacity(rows.len());
    let mut b = Vec::with_capacity(rows.len());
    for &r in rows {
        let g = global_row(d, r, t, q, w)?;
        let jdv = if dotjac { d.dotjac_v(r.contact, usize::from(r.tangent), t, q, v, w)? } else { 0.0 };
        b.push(g.iter().zip(a_free).map(|(x, y)| x * y).sum::<f64>() + jdv);
        jrows.push(g);
    }
    let mut mj = Vec::with_capacity(cols.len());
    let mut cg = Vec::with_capacity(cols.len());
    for (k, &c) in cols.iter().enumerate() {
        // a pure normal or tangent direction is the Jacobian row itself (no arithmetic on it)
        let pure = match (c.n, c.t) {
            (1.0, 0.0) => Some(RowSpec::normal(c.contact)),
            (0.0, 1.0) => Some(RowSpec::tangent(c.contact)),
            _ => None,
        };
        let g = match pure {
            Some(r) if rows.get(k) == Some(&r) => jrows[k].clone(),
            Some(r) => global_row(d, r, t, q, w)?,
            None => {
                let (n, s) = (c.n, c.t);
                let gn = global_row(d, RowSpec::normal(c.contact), t, q, w)?;
                let gt = global_row(d, RowSpec::tangent(c.contact), t, q, w)?;
                gn.iter().zip(&gt).map(|(a, b)| n * a + s * b).collect()
            }
        };
        let mut mg = g.clone();
        d.minv(t, q, &mut mg)?;
        mj.push(mg);
        cg.push(g);
    }
    let w = DMatrix::from_fn(rows.len(), cols.len(), |r, c| jrows[r].iter().zip(&mj[c]).map(|(x, y)| x * y).sum());
    Ok(AccProblem { w, b, mj, cols: cg })
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
