//! The contact LCP of an event, with planar Coulomb friction (Pfeiffer and Glocker's LCP).
//!
//! For a set of closed contacts, each entering as
//! * [`Entry::Normal`] (frictionless): `0 ≤ w_N ⊥ λ_N ≥ 0`, force `J_Nᵀ λ_N`;
//! * [`Entry::Slip`] (frictional, slipping in direction `s`): the same with the force
//!   `(J_N − μ s J_T)ᵀ λ_N` (Coulomb's law with a known sliding direction);
//! * [`Entry::Cone`] (frictional, tangential velocity zero or unknown direction): Coulomb's law
//!   `|λ_T| ≤ μ λ_N`, `w_T > 0 ⇒ λ_T = −μ λ_N`, `w_T < 0 ⇒ λ_T = μ λ_N`, written as an LCP with
//!   `λ_R = μ λ_N + λ_T` and `w_T = w_R − w_L`:
//!   `0 ≤ w_R = w_T + w_L ⊥ λ_R ≥ 0`, `0 ≤ 2 μ λ_N − λ_R ⊥ w_L ≥ 0`,
//!   force `J_Nᵀ λ_N + J_Tᵀ λ_T = (J_N − μ J_T)ᵀ λ_N + J_Tᵀ λ_R`;
//! * [`Entry::Bilateral`] (a bilateral constraint, `EqualityConditionNSL`): the equation `w = 0`
//!   with a multiplier of any sign, force `Jᵀ λ`. The equations are eliminated before the LCP
//!   is solved: with `E` the equations and `C` the complementarity rows of `w = A z + b`,
//!   `z_E = −A_EE⁻¹ (A_EC z_C + b_E)` and the LCP `w_C = (A_CC − A_CE A_EE⁻¹ A_EC) z_C +
//!   b_C − A_CE A_EE⁻¹ b_E` (a mixed LCP by its Schur complement);
//!
//! with `w_r = J_r M⁻¹ Σ c_jᵀ z_j + b_r`. At acceleration level `w` is the relative acceleration
//! (`b = J a_free + J̇ v`); at an impact it is `ẏ⁺ + e ẏ⁻` (`b = (1 + e) J v⁻`, the multipliers are
//! impulses). Without friction the problem is exactly the frictionless LCP `w = W λ + b`.

use super::acceleration::{assemble_rc, solve_lcp, AccProblem, ColSpec, RowSpec};
use super::dynamics::Dynamics;
use crate::KernelError;
use nalgebra::DMatrix;
use saltus_numerics::lcp::LcpSolver;
use saltus_numerics::ode::UserFnError;
use saltus_numerics::SolveReport;

/// How a closed contact enters the LCP (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Entry {
    /// Frictionless.
    Normal(usize),
    /// Frictional, slipping in direction `s = ±1` (`v_T` of that sign).
    Slip(usize, f64),
    /// Frictional, Coulomb's cone (stick, or slip in the direction the problem decides).
    Cone(usize),
    /// A bilateral constraint: an equation, its multiplier free.
    Bilateral(usize),
}

impl Entry {
    /// The contact.
    pub fn contact(&self) -> usize {
        match *self {
            Entry::Normal(i) | Entry::Slip(i, _) | Entry::Cone(i) | Entry::Bilateral(i) => i,
        }
    }
}

/// Solution of the contact LCP, per entry of the set.
pub(crate) struct ContactSolution {
    /// Normal multiplier `λ_N` (force or impulse).
    pub lambda_n: Vec<f64>,
    /// Tangential multiplier `λ_T` (0 without friction).
    pub lambda_t: Vec<f64>,
    /// Cone entries: the tangential `w_T = w_R − w_L` (0 for the others).
    pub w_t: Vec<f64>,
    /// `Σ c_jᵀ z_j`: the generalized force (or impulse) on all coordinates.
    pub generalized: Vec<f64>,
    /// `M⁻¹ Σ c_jᵀ z_j`: the change of acceleration (or velocity).
    pub delta: Vec<f64>,
    /// `max |b_r|` (the scale of `w`, for thresholds on `w_T`).
    pub b_scale: f64,
    pub report: SolveReport,
}

fn ufe(t: f64, what: &'static str) -> impl Fn(UserFnError) -> KernelError {
    move |e| KernelError::UserFn { t, owner: None, what: what.into(), source: crate::UserFnError::new(e.to_string()) }
}

fn mu_of(d: &Dynamics, i: usize) -> f64 {
    d.contacts[i].friction.map_or(0.0, |f| f.mu)
}

/// Positions of the cone entries in `set`.
fn cone_positions(set: &[Entry]) -> Vec<usize> {
    (0..set.len()).filter(|&k| matches!(set[k], Entry::Cone(_))).collect()
}

/// Rows (normal of every entry, then tangent of the cones) and force columns (normal of every
/// entry, then tangent of the cones) of the set.
fn specs(d: &Dynamics, set: &[Entry]) -> (Vec<RowSpec>, Vec<ColSpec>) {
    let mut rows: Vec<RowSpec> = set.iter().map(|e| RowSpec::normal(e.contact())).collect();
    let mut cols: Vec<ColSpec> = set
        .iter()
        .map(|e| match *e {
            Entry::Normal(i) | Entry::Bilateral(i) => ColSpec::normal(i),
            Entry::Slip(i, s) => ColSpec { contact: i, n: 1.0, t: -mu_of(d, i) * s },
            Entry::Cone(i) => ColSpec { contact: i, n: 1.0, t: -mu_of(d, i) },
        })
        .collect();
    for e in set {
        if let Entry::Cone(i) = *e {
            rows.push(RowSpec::tangent(i));
            cols.push(ColSpec::tangent(i));
        }
    }
    (rows, cols)
}

/// Builds and solves the LCP of the module docs from the assembled `p` (whose `b` the caller has
/// set), over `set`.
fn solve(
    d: &Dynamics,
    t: f64,
    set: &[Entry],
    p: AccProblem,
    solver: &LcpSolver,
) -> Result<ContactSolution, KernelError> {
    let m = set.len();
    let cones = cone_positions(set);
    let nk = cones.len();
    let b_scale = p.b.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let (w, b) = if nk == 0 {
        (p.w, p.b)
    } else {
        let size = m + 2 * nk;
        let mut w = DMatrix::zeros(size, size);
        w.view_mut((0, 0), (m + nk, m + nk)).copy_from(&p.w);
        let mut b = p.b.clone();
        b.resize(size, 0.0);
        for (k, &j) in cones.iter().enumerate() {
            w[(m + k, m + nk + k)] = 1.0;
            w[(m + nk + k, j)] = 2.0 * mu_of(d, set[j].contact());
            w[(m + nk + k, m + k)] = -1.0;
        }
        (w, b)
    };
    let equations: Vec<usize> = (0..m).filter(|&k| matches!(set[k], Entry::Bilateral(_))).collect();
    let (z, r, report) = match equations.is_empty() {
        true => solve_lcp(t, w, b, solver)?,
        false => solve_mixed(t, &w, &b, &equations, solver)?,
    };
    let mut sol = ContactSolution {
        lambda_n: z[..m].to_vec(),
        lambda_t: vec![0.0; m],
        w_t: vec![0.0; m],
        generalized: vec![0.0; d.n],
        delta: vec![0.0; d.n],
        b_scale,
        report,
    };
    for (k, e) in set.iter().enumerate() {
        if let Entry::Slip(i, s) = *e {
            sol.lambda_t[k] = -mu_of(d, i) * s * z[k];
        }
    }
    for (k, &j) in cones.iter().enumerate() {
        sol.lambda_t[j] = z[m + k] - mu_of(d, set[j].contact()) * z[j];
        sol.w_t[j] = r[m + k] - z[m + nk + k];
    }
    for (c, zc) in z[..m + nk].iter().enumerate() {
        for (o, g) in sol.generalized.iter_mut().zip(&p.cols[c]) {
            *o += g * zc;
        }
        for (o, g) in sol.delta.iter_mut().zip(&p.mj[c]) {
            *o += g * zc;
        }
    }
    Ok(sol)
}

/// `w = A z + b` with the rows `equations` equalities (`w_E = 0`, `z_E` free) and the others
/// complementarity conditions, solved by eliminating the equations (the module docs). Returns
/// `(z, w, report)` as [`solve_lcp`]; a singular `A_EE` (redundant bilateral constraints) is a
/// typed error.
fn solve_mixed(
    t: f64,
    a: &DMatrix<f64>,
    b: &[f64],
    equations: &[usize],
    solver: &LcpSolver,
) -> Result<(Vec<f64>, Vec<f64>, SolveReport), KernelError> {
    let n = b.len();
    let comp: Vec<usize> = (0..n).filter(|k| !equations.contains(k)).collect();
    let bv = nalgebra::DVector::from_column_slice(b);
    let (b_e, b_c) = (bv.select_rows(equations), bv.select_rows(&comp));
    let a_ee = a.select_rows(equations).select_columns(equations);
    let a_ec = a.select_rows(equations).select_columns(&comp);
    let a_ce = a.select_rows(&comp).select_columns(equations);
    let lu = a_ee.lu();
    let singular = || KernelError::NonFinite {
        t,
        what: "multiplier of a bilateral constraint (the constraints are redundant: J M⁻¹ Jᵀ is singular)",
        interaction: None,
    };
    let (x, y) = match (lu.solve(&a_ec), lu.solve(&b_e)) {
        (Some(x), Some(y)) if x.iter().chain(y.iter()).all(|v| v.is_finite()) => (x, y),
        _ => return Err(singular()),
    };
    let (z_c, w_c, report) = if comp.is_empty() {
        (Vec::new(), Vec::new(), SolveReport::trivial(0.0))
    } else {
        let schur = a.select_rows(&comp).select_columns(&comp) - &a_ce * &x;
        let q = &b_c - &a_ce * &y;
        solve_lcp(t, schur, q.as_slice().to_vec(), solver)?
    };
    let z_e = -(y + x * nalgebra::DVector::from_column_slice(&z_c));
    let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
    for (k, &i) in equations.iter().enumerate() {
        z[i] = z_e[k];
    }
    for (k, &i) in comp.iter().enumerate() {
        z[i] = z_c[k];
        w[i] = w_c[k];
    }
    if z.iter().any(|v| !v.is_finite()) {
        return Err(singular());
    }
    Ok((z, w, report))
}

/// The acceleration-level LCP over the candidates `set` at `(q, v)`: which contacts keep a
/// positive force, and, for the cones, whether they stick (`w_T = 0`) or slip.
pub(crate) fn acceleration_lcp(
    d: &Dynamics,
    t: f64,
    q: &[f64],
    v: &[f64],
    set: &[Entry],
    solver: &LcpSolver,
) -> Result<ContactSolution, KernelError> {
    let what = "acceleration problem";
    let mut a_free = vec![0.0; d.n];
    d.forces(t, q, v, &mut a_free).map_err(ufe(t, what))?;
    d.minv(t, q, &mut a_free).map_err(ufe(t, what))?;
    let (rows, cols) = specs(d, set);
    let p = {
        let mut w = d.work.borrow_mut();
        assemble_rc(d, t, q, v, &a_free, &rows, &cols, true, &mut w).map_err(ufe(t, what))?
    };
    solve(d, t, set, p, solver)
}

/// The impact LCP over `set` at `(q, v⁻)`: `b_r = (1 + e_r) J_r v⁻` with `e_r` from
/// `restitution(k, tangent, J_N v⁻)` for entry `k`. Returns the solution and the pre-impact `J_r v⁻`
/// (normal rows, in set order).
pub(crate) fn impact_lcp(
    d: &Dynamics,
    t: f64,
    q: &[f64],
    v: &[f64],
    set: &[Entry],
    restitution: &dyn Fn(usize, bool, f64) -> f64,
    solver: &LcpSolver,
) -> Result<(ContactSolution, Vec<f64>), KernelError> {
    let (rows, cols) = specs(d, set);
    let mut p = {
        let mut w = d.work.borrow_mut();
        assemble_rc(d, t, q, v, v, &rows, &cols, false, &mut w).map_err(ufe(t, "impact problem"))?
    };
    let ydot_pre = p.b[..set.len()].to_vec();
    let m = set.len();
    let cones = cone_positions(set);
    // rows: the normal row of every entry, then the tangent row of every cone
    for (r, b) in p.b.iter_mut().enumerate() {
        let (k, tangent) = if r < m { (r, false) } else { (cones[r - m], true) };
        *b *= 1.0 + restitution(k, tangent, ydot_pre[k]);
    }
    Ok((solve(d, t, set, p, solver)?, ydot_pre))
}
