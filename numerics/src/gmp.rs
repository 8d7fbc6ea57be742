//! Generic mechanical problem (Siconos `GenericMechanicalProblem`): one problem `w = W z + q`
//! whose unknowns are split into blocks of different kinds,
//!
//! * [`GmpBlock::Equality`]: `w_b = 0` (`z_b` free; bilateral constraints),
//! * [`GmpBlock::Complementarity`]: `0 ≤ w_b ⊥ z_b ≥ 0` row by row (unilateral contacts, Newton
//!   impacts),
//! * [`GmpBlock::FrictionContact`]: `K ∋ z_b ⟂ ŵ_b ∈ K*` (Coulomb cone, De Saxcé velocity, 2D or 3D),
//! * [`GmpBlock::Relay`]: one row with `−w ∈ N_[lb, ub](z)` (Siconos `RelayNSL`; a 1D Coulomb
//!   friction with a given bound, e.g. a joint friction),
//!
//! solved by a block Gauss–Seidel that calls the solver of each block's kind on
//! `w_b = W_bb z_b + q̃_b`, `q̃_b = q_b + Σ_{c≠b} W_bc z_c`: a dense LU for an equality block
//! (LU with complete pivoting on its independent rows when redundant constraints make it
//! singular, [`rank`]), the
//! exact one-row solution `z = max(0, −q̃/W_ii)` for each complementarity row, the one-contact
//! friction solvers of [`crate::fc::local`] for a contact, `z = proj_[lb, ub](−q̃/W_ii)` for a
//! relay row.
//!
//! Error (normalized as Siconos's friction error): `sqrt(Σ_b e_b²) / max(‖q‖, ‖z‖, ‖w‖)` with
//! `e_b = ‖w_b‖` (equality), `‖z_b − max(0, z_b − w_b)‖` (complementarity, the min-map), the natural
//! map residual of the cone (friction), `|z − proj_[lb, ub](z − w)|` (relay).

// Rows of a block are indexed together in several arrays (z, q̃, the diagonal block).
#![allow(clippy::needless_range_loop)]

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::fc::local::{self, LocalSolver};
use crate::fc::residual::natural_map_residual;
use crate::matrix::Operator;
use crate::mlcp::linalg::{lu_factor, lu_solve, max_abs};
use crate::report::{IterOptions, SolveReport, SolveStatus};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};
use std::time::Instant;

pub mod rank;
use rank::RankFactor;

/// The factor of an equality block's diagonal block.
enum EqFactor {
    /// LU with partial pivoting (a nonsingular block).
    Lu(Vec<f64>, Vec<usize>),
    /// LU with complete pivoting stopped at the numerical rank (redundant bilateral rows,
    /// [`rank`]).
    Rank(RankFactor),
}

/// The kind and size of one block of unknowns (blocks are consecutive, in this order).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GmpBlock {
    /// `size` rows with `w = 0`.
    Equality(usize),
    /// `size` rows with `0 ≤ w ⊥ z ≥ 0`.
    Complementarity(usize),
    /// One contact of dimension `dim` (2 or 3) with friction coefficient `mu`.
    FrictionContact {
        /// 2 or 3.
        dim: usize,
        /// Friction coefficient ≥ 0.
        mu: f64,
    },
    /// One row with `−w ∈ N_[lb, ub](z)`: `z ∈ [lb, ub]`, `w ≥ 0` at `z = lb`, `w ≤ 0` at
    /// `z = ub`, `w = 0` in between (`lb ≤ ub`, either may be infinite).
    Relay {
        /// Lower bound of `z`.
        lb: f64,
        /// Upper bound of `z`.
        ub: f64,
    },
}

impl GmpBlock {
    /// Number of unknowns.
    pub fn size(&self) -> usize {
        match self {
            GmpBlock::Equality(n) | GmpBlock::Complementarity(n) => *n,
            GmpBlock::FrictionContact { dim, .. } => *dim,
            GmpBlock::Relay { .. } => 1,
        }
    }
}

/// The problem `w = W z + q` with its blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct GenericMechanical {
    w: Operator,
    q: Vec<f64>,
    blocks: Vec<GmpBlock>,
}

impl GenericMechanical {
    /// Checks that the blocks cover `q` and `W` (square), friction dims and `μ ≥ 0`, relay bounds
    /// (`lb ≤ ub`, neither NaN, not both at the same infinity), finiteness.
    pub fn new(w: Operator, q: Vec<f64>, blocks: Vec<GmpBlock>) -> Result<Self> {
        if w.nrows() != w.ncols() {
            return Err(NumericsError::NotSquare { what: "W", rows: w.nrows(), cols: w.ncols() });
        }
        check_len("q", w.nrows(), q.len())?;
        check_len("sum of the block sizes", q.len(), blocks.iter().map(GmpBlock::size).sum())?;
        for (i, b) in blocks.iter().enumerate() {
            if let GmpBlock::FrictionContact { dim, mu } = b {
                if (*dim != 2 && *dim != 3) || !(*mu >= 0.0 && mu.is_finite()) {
                    return Err(NumericsError::InvalidOption {
                        option: "friction block",
                        reason: format!("block {i}: dim must be 2 or 3 and mu finite >= 0 (dim {dim}, mu {mu})"),
                    });
                }
            }
            if let GmpBlock::Relay { lb, ub } = b {
                if !(lb <= ub) || *lb == f64::INFINITY || *ub == f64::NEG_INFINITY {
                    return Err(NumericsError::InvalidOption {
                        option: "relay block",
                        reason: format!("block {i}: bounds must satisfy lb <= ub (lb {lb}, ub {ub})"),
                    });
                }
            }
        }
        if let Some(index) = w.first_non_finite() {
            return Err(NumericsError::NonFinite { what: "W", index });
        }
        check_finite("q", &q)?;
        Ok(GenericMechanical { w, q, blocks })
    }
    /// `W`.
    pub fn w(&self) -> &Operator {
        &self.w
    }
    /// `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// The blocks.
    pub fn blocks(&self) -> &[GmpBlock] {
        &self.blocks
    }
    /// Gives back `(W, q, blocks)`.
    pub fn into_parts(self) -> (Operator, Vec<f64>, Vec<GmpBlock>) {
        (self.w, self.q, self.blocks)
    }
}

/// Options of the block Gauss–Seidel.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct GmpOptions {
    /// Tolerance on the normalized error and sweep cap.
    pub iter: IterOptions,
    /// Use `z` as given on entry (else start from 0).
    pub warm_start: bool,
    /// Tolerance and cap of the one-contact friction solver.
    pub local_tol: f64,
    /// Iteration cap of the one-contact friction solver.
    pub local_max_iter: usize,
}

crate::set_by_name!(GmpOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "local_tol" => local_tol,
    "local_max_iter" => local_max_iter,
});

/// The generic mechanical problem's one solver, declared as the other families' solvers are
/// (its model-file element `<GaussSeidel>` takes [`GmpOptions`]' names).
pub const GMP_SOLVERS: &[crate::by_name::SolverDecl] = &[crate::by_name::SolverDecl {
    name: "gauss-seidel",
    element: "GaussSeidel",
    description: "block Gauss-Seidel calling each block's solver (LU, one-row LCP, one-contact Alart-Curnier)",
    options: <GmpOptions as crate::by_name::SetByName>::NAMES,
}];

impl Default for GmpOptions {
    fn default() -> Self {
        GmpOptions { iter: IterOptions::new(1e-10, 10_000), warm_start: false, local_tol: 1e-14, local_max_iter: 50 }
    }
}

impl GmpOptions {
    /// Default options with the given tolerance and sweep cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        GmpOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.local_tol > 0.0 && self.local_tol.is_finite()) || self.local_max_iter == 0 {
            return Err(NumericsError::InvalidOption {
                option: "local_tol/local_max_iter",
                reason: "local tolerance must be > 0 and the local cap > 0".into(),
            });
        }
        Ok(())
    }
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The normalized error of `(z, w)` (`w = W z + q` given).
pub fn gmp_error(p: &GenericMechanical, z: &[f64], w: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut off = 0;
    for b in &p.blocks {
        let n = b.size();
        let (zb, wb) = (&z[off..off + n], &w[off..off + n]);
        match b {
            GmpBlock::Equality(_) => s += wb.iter().map(|x| x * x).sum::<f64>(),
            GmpBlock::Complementarity(_) => {
                s += zb.iter().zip(wb).map(|(z, w)| (z - (z - w).max(0.0)).powi(2)).sum::<f64>();
            }
            GmpBlock::FrictionContact { dim, mu } => s += natural_map_residual(*dim, &[*mu], zb, wb).powi(2),
            GmpBlock::Relay { lb, ub } => s += (zb[0] - (zb[0] - wb[0]).clamp(*lb, *ub)).powi(2),
        }
        off += n;
    }
    let scale = norm(&p.q).max(norm(z)).max(norm(w));
    if scale > f64::EPSILON {
        s.sqrt() / scale
    } else {
        s.sqrt()
    }
}

/// Block Gauss–Seidel; on exit `w = W z + q`. Never panics; non-convergence is a status.
pub fn solve(p: &GenericMechanical, z: &mut [f64], w: &mut [f64], opts: &GmpOptions) -> Result<SolveReport> {
    opts.validate()?;
    let n = p.q.len();
    check_len("z", n, z.len())?;
    check_len("w", n, w.len())?;
    let start = Instant::now();
    if !opts.warm_start || z.iter().any(|x| !x.is_finite()) {
        z.iter_mut().for_each(|x| *x = 0.0);
    }
    // block starts and the LU factors of the diagonal blocks of the equality blocks
    let mut starts = Vec::with_capacity(p.blocks.len() + 1);
    let mut off = 0;
    for b in &p.blocks {
        starts.push(off);
        off += b.size();
    }
    starts.push(off);
    let mut factors: Vec<Option<EqFactor>> = Vec::with_capacity(p.blocks.len());
    let mut diag: Vec<Vec<f64>> = Vec::with_capacity(p.blocks.len());
    for (k, b) in p.blocks.iter().enumerate() {
        let m = b.size();
        let mut d = vec![0.0; m * m];
        diag_block(&p.w, starts[k], m, &mut d);
        if let GmpBlock::Equality(_) = b {
            let mut a = d.clone();
            let mut piv = vec![0; m];
            let tiny = 1e-14 * max_abs(&a);
            let f = match lu_factor(&mut a, m, &mut piv, tiny) {
                Ok(()) => EqFactor::Lu(a, piv),
                // redundant rows (a closed loop of joints): solved on the independent ones
                Err(_) => EqFactor::Rank(RankFactor::new(&d, m)),
            };
            factors.push(Some(f));
        } else {
            factors.push(None);
        }
        diag.push(d);
    }
    let mut qt = vec![0.0; n];
    let mut status = SolveStatus::MaxIterations;
    let mut iterations = 0;
    let mut error = f64::INFINITY;
    for sweep in 1..=opts.iter.max_iter {
        iterations = sweep;
        let mut change = 0.0;
        for (k, b) in p.blocks.iter().enumerate() {
            let (s, m) = (starts[k], b.size());
            // q̃_b = q_b + Σ_c W_bc z_c − W_bb z_b
            row_times(&p.w, s, m, z, &mut qt[..m]);
            for i in 0..m {
                qt[i] += p.q[s + i];
                for j in 0..m {
                    qt[i] -= diag[k][i + j * m] * z[s + j];
                }
            }
            let old: [f64; 3] = std::array::from_fn(|i| if i < m && m <= 3 { z[s + i] } else { 0.0 });
            match b {
                GmpBlock::Equality(_) => {
                    let Some(f) = factors[k].as_ref() else { continue };
                    let mut x: Vec<f64> = qt[..m].iter().map(|v| -v).collect();
                    match f {
                        EqFactor::Lu(a, piv) => lu_solve(a, m, piv, &mut x),
                        EqFactor::Rank(r) => r.solve(&mut x),
                    }
                    for i in 0..m {
                        change += (x[i] - z[s + i]).powi(2);
                        if x[i].is_finite() {
                            z[s + i] = x[i];
                        }
                    }
                    continue;
                }
                GmpBlock::Complementarity(_) => {
                    // row by row (projected Gauss–Seidel inside the block)
                    for i in 0..m {
                        let mut r = qt[i];
                        for j in 0..m {
                            if j != i {
                                r += diag[k][i + j * m] * z[s + j];
                            }
                        }
                        let a = diag[k][i + i * m];
                        let x = if a > 0.0 { (-r / a).max(0.0) } else { z[s + i] };
                        change += (x - z[s + i]).powi(2);
                        z[s + i] = x;
                    }
                    continue;
                }
                GmpBlock::Relay { lb, ub } => {
                    let a = diag[k][0];
                    let x = if a > 0.0 { -qt[0] / a } else { z[s] }.clamp(*lb, *ub);
                    change += (x - z[s]).powi(2);
                    z[s] = x;
                    continue;
                }
                GmpBlock::FrictionContact { dim: 3, mu } => {
                    let wm = Matrix3::from_column_slice(&diag[k]);
                    let mut x = Vector3::new(old[0], old[1], old[2]);
                    let q = Vector3::new(qt[0], qt[1], qt[2]);
                    local::solve_3d(
                        LocalSolver::AlartCurnier,
                        &wm,
                        &q,
                        *mu,
                        &mut x,
                        opts.local_tol,
                        opts.local_max_iter,
                    );
                    if x.iter().all(|v| v.is_finite()) {
                        z[s..s + 3].copy_from_slice(x.as_slice());
                    }
                }
                GmpBlock::FrictionContact { mu, .. } => {
                    let wm = Matrix2::from_column_slice(&diag[k]);
                    if let Some(x) = local::solve_2d(&wm, &Vector2::new(qt[0], qt[1]), *mu) {
                        if x.iter().all(|v| v.is_finite()) {
                            z[s..s + 2].copy_from_slice(x.as_slice());
                        }
                    }
                }
            }
            change += (0..m).map(|i| (z[s + i] - old[i]).powi(2)).sum::<f64>();
        }
        let zn = norm(z);
        let light = if zn > f64::EPSILON { change.sqrt() / zn } else { change.sqrt() };
        if light < opts.iter.tol || sweep % 10 == 0 || sweep == opts.iter.max_iter {
            compute_w(p, z, w);
            error = gmp_error(p, z, w);
            if error <= opts.iter.tol {
                status = SolveStatus::Converged;
                break;
            }
        }
    }
    compute_w(p, z, w);
    if !error.is_finite() || status == SolveStatus::MaxIterations {
        error = gmp_error(p, z, w);
    }
    Ok(SolveReport { status, iterations, residual: error, elapsed: start.elapsed() })
}

fn compute_w(p: &GenericMechanical, z: &[f64], w: &mut [f64]) {
    w.copy_from_slice(&p.q);
    p.w.matvec_add(1.0, z, w);
}

/// `out = W[s..s+m, :] z` (all columns).
fn row_times(w: &Operator, s: usize, m: usize, z: &[f64], out: &mut [f64]) {
    match w {
        Operator::Dense(a) => {
            for i in 0..m {
                out[i] = (0..a.ncols()).map(|j| a[(s + i, j)] * z[j]).sum();
            }
        }
        Operator::BlockCsr(b) => {
            out.iter_mut().for_each(|x| *x = 0.0);
            // rows s..s+m may span several block rows
            let rs = b.row_starts();
            let cs = b.col_starts();
            let first = rs.partition_point(|&x| x <= s).saturating_sub(1);
            for r in first..b.n_block_rows() {
                let (r0, r1) = (rs[r], rs[r + 1]);
                if r0 >= s + m {
                    break;
                }
                if r1 <= s {
                    continue;
                }
                let h = r1 - r0;
                for k in b.row_blocks(r) {
                    let c = b.block_col(k);
                    let vals = b.block_values(k);
                    for jj in 0..cs[c + 1] - cs[c] {
                        for ii in 0..h {
                            let row = r0 + ii;
                            if row >= s && row < s + m {
                                out[row - s] += vals[ii + jj * h] * z[cs[c] + jj];
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The diagonal block `W[s..s+m, s..s+m]`, column-major.
fn diag_block(w: &Operator, s: usize, m: usize, out: &mut [f64]) {
    let mut e = vec![0.0; w.ncols()];
    let mut col = vec![0.0; m];
    for j in 0..m {
        e[s + j] = 1.0;
        row_times(w, s, m, &e, &mut col);
        out[j * m..(j + 1) * m].copy_from_slice(&col);
        e[s + j] = 0.0;
    }
}
