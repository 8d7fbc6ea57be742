//! Lemke's complementary pivoting method with covering vector `e = (1, …, 1)`.
//!
//! The tableau holds `B⁻¹ [I, −M, −e | q]` for the system `w − M z − e z₀ = q`, column-major,
//! in a reusable workspace (no allocation per pivot). Start: `z₀` enters, the row of the most
//! negative `q_i` leaves. Then the complement of the leaving variable enters, until `z₀`
//! leaves (solution) or no entry of the entering column is positive (secondary ray:
//! [`FailReason::RayTermination`]). Ties in the ratio test are broken lexicographically on the
//! rows of `(B⁻¹q, B⁻¹)/d_i`, which makes the method finite on degenerate problems.

use super::active_set::{feasible, solve_on_set};
use super::lu::DenseLu;
use super::{lcp_error_zw, Lcp, LemkeOptions, Outcome};
use crate::error::Result;
use crate::report::FailReason;

/// How ties of the minimum-ratio test are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TieBreak {
    /// Lexicographic minimum of `(B⁻¹q, B⁻¹)_i / d_i` (finite on degenerate problems).
    #[default]
    Lexicographic,
    /// Smallest row index among the tied rows (may cycle on degenerate problems; for tests
    /// and comparison only).
    SmallestIndex,
}

/// The reusable tableau and basis of Lemke's method.
#[derive(Debug, Clone, Default)]
pub struct LemkeWorkspace {
    n: usize,
    /// Column-major `n × (2n + 2)` tableau: column `j` is `t[j n .. (j + 1) n]`.
    t: Vec<f64>,
    /// `basis[i]` = variable basic in row `i`: `0..n` = `w_i`, `n..2n` = `z_{i−n}`, `2n` = `z₀`.
    basis: Vec<usize>,
    cand: Vec<usize>,
    flags: Vec<bool>,
    idx: Vec<usize>,
    zp: Vec<f64>,
    wp: Vec<f64>,
    pivot_col: Vec<f64>,
}

impl LemkeWorkspace {
    fn width(&self) -> usize {
        2 * self.n + 2
    }

    fn col(&self, j: usize) -> &[f64] {
        &self.t[j * self.n..(j + 1) * self.n]
    }

    /// The tableau of `w − M z − d z₀ = q` (`d = e` when `None`).
    fn init(&mut self, m: &nalgebra::DMatrix<f64>, q: &[f64], d: Option<&[f64]>) {
        let n = q.len();
        self.n = n;
        let wd = 2 * n + 2;
        self.t.clear();
        self.t.resize(n * wd, 0.0);
        for i in 0..n {
            self.t[i * n + i] = 1.0;
        }
        for j in 0..n {
            for (x, &mij) in self.t[(n + j) * n..(n + j + 1) * n].iter_mut().zip(m.column(j).iter()) {
                *x = -mij;
            }
        }
        match d {
            Some(d) => self.t[2 * n * n..(2 * n + 1) * n].iter_mut().zip(d).for_each(|(v, di)| *v = -di),
            None => self.t[2 * n * n..(2 * n + 1) * n].iter_mut().for_each(|v| *v = -1.0),
        }
        self.t[(2 * n + 1) * n..].copy_from_slice(q);
        self.basis.clear();
        self.basis.extend(0..n);
        self.pivot_col.resize(n, 0.0);
    }

    /// Gauss–Jordan pivot on row `r`, column `c`, as a rank-one update column by column:
    /// with `g` the pivot column and `a = T[r, j]`, column `j` becomes `T[:, j] − (a/g_r) g`
    /// with row `r` set to `a/g_r`. Columns with `a = 0` (every other basic column, and the
    /// zeros of sparse rows) are skipped.
    fn pivot(&mut self, r: usize, c: usize) {
        let wd = self.width();
        let n = self.n;
        self.pivot_col.copy_from_slice(&self.t[c * n..(c + 1) * n]);
        let inv = 1.0 / self.pivot_col[r];
        let g = &self.pivot_col;
        for j in 0..wd {
            let col = &mut self.t[j * n..(j + 1) * n];
            let a = col[r];
            if a != 0.0 {
                let f = a * inv;
                for (x, gi) in col.iter_mut().zip(g) {
                    *x -= f * gi;
                }
                col[r] = f;
            }
        }
    }

    /// Leaving row for entering column `c` by the (lexicographic) minimum-ratio test, or
    /// `None` when no entry exceeds `pivot_tol` (ray).
    fn ratio_test(&mut self, c: usize, pivot_tol: f64, tie: TieBreak) -> Option<usize> {
        let n = self.n;
        let t = &self.t;
        let d = &t[c * n..(c + 1) * n];
        let rhs = &t[(2 * n + 1) * n..(2 * n + 2) * n];
        let cand = &mut self.cand;
        cand.clear();
        let mut best = f64::INFINITY;
        for i in 0..n {
            if d[i] > pivot_tol {
                let ratio = rhs[i].max(0.0) / d[i];
                if ratio < best {
                    best = ratio;
                }
                cand.push(i);
            }
        }
        if cand.is_empty() {
            return None;
        }
        let tie_tol = 1e-14 * (1.0 + best.abs());
        cand.retain(|&i| rhs[i].max(0.0) / d[i] <= best + tie_tol);
        if tie == TieBreak::SmallestIndex || cand.len() == 1 {
            return cand.first().copied();
        }
        // lexicographic minimum of the rows (B⁻¹)_i / d_i among the tied candidates, with the
        // columns of B⁻¹ taken last to first (any fixed column order is a valid lexicographic
        // rule; this one needs 49 pivots on lcp_tobenna.dat against 179 for first to last), by
        // pairwise comparison without division: a_ij/d_i < a_kj/d_k ⇔ a_ij d_k < a_kj d_i.
        // Exact comparisons: a tolerance here breaks the strict order (observed cycling on
        // lcp_tobenna.dat with 1e-12).
        let mut best_row = cand[0];
        for &i in &cand[1..] {
            let (di, dk) = (d[i], d[best_row]);
            for j in (0..n).rev() {
                let (x, y) = (t[j * n + i] * dk, t[j * n + best_row] * di);
                if x < y {
                    best_row = i;
                    break;
                }
                if x > y {
                    break;
                }
            }
        }
        Some(best_row)
    }

    fn extract_z(&self, z: &mut [f64]) {
        let n = self.n;
        let rhs = self.col(2 * n + 1);
        z.iter_mut().for_each(|v| *v = 0.0);
        for (i, &b) in self.basis.iter().enumerate() {
            if (n..2 * n).contains(&b) {
                z[b - n] = rhs[i].max(0.0);
            }
        }
    }
}

/// Runs Lemke's method (see the module documentation) with the default lexicographic rule.
pub(crate) fn solve(
    ws: &mut LemkeWorkspace,
    lu: &mut DenseLu,
    lcp: &Lcp,
    z: &mut [f64],
    o: &LemkeOptions,
) -> Result<Outcome> {
    solve_tie(ws, lu, lcp, z, o, o.tie_break)
}

fn solve_tie(
    ws: &mut LemkeWorkspace,
    lu: &mut DenseLu,
    lcp: &Lcp,
    z: &mut [f64],
    o: &LemkeOptions,
    tie: TieBreak,
) -> Result<Outcome> {
    let m = lcp.m().dense("lemke")?;
    let q = lcp.q();
    let n = q.len();
    let q_norm = super::error::norm(q);
    ws.zp.resize(n, 0.0);
    ws.wp.resize(n, 0.0);
    ws.flags.resize(n, false);
    if o.warm_start {
        // Try the basis suggested by the warm start: z_i > 0 ⇒ z_i basic.
        for (f, &zi) in ws.flags.iter_mut().zip(&z[..n]) {
            *f = zi > 0.0;
        }
        if solve_on_set(lu, m, q, &ws.flags, &mut ws.idx, &mut ws.zp) && feasible(m, q, &ws.zp, &mut ws.wp, 1e-12) {
            ws.zp.iter_mut().for_each(|v| *v = v.max(0.0));
            let wp = &mut ws.wp;
            wp.copy_from_slice(q);
            lcp.m().matvec_add(1.0, &ws.zp, wp);
            if lcp_error_zw(&ws.zp, wp, q_norm) <= o.iter.tol {
                z.copy_from_slice(&ws.zp);
                return Ok(Outcome { iterations: 0, failure: None });
            }
        }
    }
    ws.init(m, q, None);
    // initial pivot: z0 enters, the row of min q leaves. Ties: the smallest index, which is the
    // lexicographic choice for B⁻¹ columns compared last to first (after the pivot every row
    // (q_i − q_r, e_i − e_r) is lexicographically positive in that order).
    let mut r = 0;
    for i in 1..n {
        let better = match tie {
            TieBreak::Lexicographic => q[i] < q[r],
            TieBreak::SmallestIndex => q[i] < q[r],
        };
        if better {
            r = i;
        }
    }
    let (pivots, failure) = complementary_pivots(ws, r, o, tie);
    ws.extract_z(z);
    if failure.is_none() {
        polish(ws, lu, lcp, z, q_norm, o.iter.tol);
    }
    Ok(Outcome { iterations: pivots, failure })
}

/// Lemke's method with a covering vector `d ≥ 0` (`w = M z + q + d z₀`): `z₀` enters at the row
/// of the smallest `q_i / d_i` among `d_i > 0` (all rows with `d_i = 0` must have `q_i ≥ 0`),
/// then complementary pivots with the lexicographic rule. `z = 0` when `q_i ≥ 0` on every
/// covered row. This is the form Cao and Ferris use for affine variational inequalities: the
/// rows that describe the feasible set are left uncovered, so the path stays feasible.
pub(crate) fn solve_covering(
    ws: &mut LemkeWorkspace,
    lu: &mut DenseLu,
    lcp: &Lcp,
    d: &[f64],
    z: &mut [f64],
    o: &LemkeOptions,
) -> Result<Outcome> {
    let m = lcp.m().dense("lemke")?;
    let q = lcp.q();
    let n = q.len();
    ws.zp.resize(n, 0.0);
    ws.wp.resize(n, 0.0);
    ws.flags.resize(n, false);
    // the most negative q_i / d_i among the covered rows (smallest index on ties)
    let mut r = None;
    for i in (0..n).filter(|&i| d[i] > 0.0) {
        let better = match r {
            None => true,
            Some(k) => q[i] / d[i] < q[k] / d[k],
        };
        if q[i] < 0.0 && better {
            r = Some(i);
        }
    }
    let Some(r) = r else {
        z.iter_mut().for_each(|v| *v = 0.0);
        return Ok(Outcome { iterations: 0, failure: None });
    };
    ws.init(m, q, Some(d));
    let (pivots, failure) = complementary_pivots(ws, r, o, o.tie_break);
    ws.extract_z(z);
    if failure.is_none() {
        polish(ws, lu, lcp, z, super::error::norm(q), o.iter.tol);
    }
    Ok(Outcome { iterations: pivots, failure })
}

/// The pivots of Lemke's method from the initial pivot (`z₀` enters at row `r`) until `z₀`
/// leaves (`None`), a secondary ray, or the pivot cap; returns (pivots, failure).
fn complementary_pivots(
    ws: &mut LemkeWorkspace,
    mut r: usize,
    o: &LemkeOptions,
    tie: TieBreak,
) -> (usize, Option<FailReason>) {
    let n = ws.n;
    let z0 = 2 * n;
    let mut entering = z0;
    let mut pivots = 0;
    let mut failure = None;
    loop {
        if pivots >= o.iter.max_iter {
            break;
        }
        ws.pivot(r, entering);
        pivots += 1;
        let leaving = std::mem::replace(&mut ws.basis[r], entering);
        if leaving == z0 {
            break;
        }
        entering = if leaving < n { leaving + n } else { leaving - n };
        match ws.ratio_test(entering, o.pivot_tol, tie) {
            Some(row) => r = row,
            None => {
                failure = Some(FailReason::RayTermination);
                break;
            }
        }
    }
    (pivots, failure)
}

/// When the tableau answer misses `tol`, re-solves `M_FF z_F = −q_F` on the final basis from
/// the original data, keeping the result when it has a smaller residual (removes the round-off
/// accumulated over many pivots).
fn polish(ws: &mut LemkeWorkspace, lu: &mut DenseLu, lcp: &Lcp, z: &mut [f64], q_norm: f64, tol: f64) {
    let n = z.len();
    let Ok(m) = lcp.m().dense("lemke") else { return };
    let q = lcp.q();
    ws.wp.copy_from_slice(q);
    lcp.m().matvec_add(1.0, z, &mut ws.wp);
    let e_old = lcp_error_zw(z, &ws.wp, q_norm);
    if e_old <= tol {
        return; // the tableau answer already meets the tolerance
    }
    for i in 0..n {
        ws.flags[i] = false;
    }
    for &b in &ws.basis {
        if (n..2 * n).contains(&b) {
            ws.flags[b - n] = true;
        }
    }
    if !solve_on_set(lu, m, q, &ws.flags, &mut ws.idx, &mut ws.zp) {
        return;
    }
    ws.zp.iter_mut().for_each(|v| *v = v.max(0.0));
    ws.wp.copy_from_slice(q);
    lcp.m().matvec_add(1.0, &ws.zp, &mut ws.wp);
    let e_new = lcp_error_zw(&ws.zp, &ws.wp, q_norm);
    if e_new < e_old {
        z.copy_from_slice(&ws.zp);
    }
}
