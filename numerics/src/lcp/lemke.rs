//! Lemke's complementary pivoting method with covering vector `e = (1, …, 1)`.
//!
//! The tableau holds `B⁻¹ [I, −M, −e | q]` for the system `w − M z − e z₀ = q`, row-major,
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
    /// Row-major `n × (2n + 2)` tableau.
    t: Vec<f64>,
    /// `basis[i]` = variable basic in row `i`: `0..n` = `w_i`, `n..2n` = `z_{i−n}`, `2n` = `z₀`.
    basis: Vec<usize>,
    cand: Vec<usize>,
    flags: Vec<bool>,
    idx: Vec<usize>,
    zp: Vec<f64>,
    wp: Vec<f64>,
    pivot_row: Vec<f64>,
}

impl LemkeWorkspace {
    fn width(&self) -> usize {
        2 * self.n + 2
    }

    fn init(&mut self, m: &nalgebra::DMatrix<f64>, q: &[f64]) {
        let n = q.len();
        self.n = n;
        let wd = 2 * n + 2;
        self.t.clear();
        self.t.resize(n * wd, 0.0);
        for i in 0..n {
            let row = &mut self.t[i * wd..(i + 1) * wd];
            row[i] = 1.0;
            row[2 * n] = -1.0;
            row[2 * n + 1] = q[i];
        }
        for j in 0..n {
            for (i, &mij) in m.column(j).iter().enumerate() {
                self.t[i * wd + n + j] = -mij;
            }
        }
        self.basis.clear();
        self.basis.extend(0..n);
        self.pivot_row.resize(wd, 0.0);
    }

    /// Gauss–Jordan pivot on row `r`, column `c`.
    fn pivot(&mut self, r: usize, c: usize) {
        let wd = self.width();
        let n = self.n;
        let inv = 1.0 / self.t[r * wd + c];
        for v in &mut self.t[r * wd..(r + 1) * wd] {
            *v *= inv;
        }
        self.t[r * wd + c] = 1.0;
        self.pivot_row.copy_from_slice(&self.t[r * wd..(r + 1) * wd]);
        let pr = &self.pivot_row;
        for i in 0..n {
            if i == r {
                continue;
            }
            let row = &mut self.t[i * wd..(i + 1) * wd];
            let f = row[c];
            if f != 0.0 {
                for (x, p) in row.iter_mut().zip(pr) {
                    *x -= f * p;
                }
                row[c] = 0.0;
            }
        }
    }

    /// Leaving row for entering column `c` by the (lexicographic) minimum-ratio test, or
    /// `None` when no entry exceeds `pivot_tol` (ray).
    fn ratio_test(&mut self, c: usize, pivot_tol: f64, tie: TieBreak) -> Option<usize> {
        let wd = self.width();
        let n = self.n;
        let t = &self.t;
        self.cand.clear();
        let mut best = f64::INFINITY;
        for i in 0..n {
            let d = t[i * wd + c];
            if d > pivot_tol {
                let ratio = t[i * wd + 2 * n + 1].max(0.0) / d;
                if ratio < best {
                    best = ratio;
                }
                self.cand.push(i);
            }
        }
        if self.cand.is_empty() {
            return None;
        }
        let tie_tol = 1e-14 * (1.0 + best.abs());
        self.cand.retain(|&i| t[i * wd + 2 * n + 1].max(0.0) / t[i * wd + c] <= best + tie_tol);
        if tie == TieBreak::SmallestIndex || self.cand.len() == 1 {
            return self.cand.first().copied();
        }
        // lexicographic minimum of the rows (B⁻¹)_i / d_i among the tied candidates, by
        // pairwise comparison without division: a_ij/d_i < a_kj/d_k ⇔ a_ij d_k < a_kj d_i.
        // Exact comparisons: a tolerance here breaks the strict order (observed cycling on
        // lcp_tobenna.dat with 1e-12).
        let mut best_row = self.cand[0];
        for &i in &self.cand[1..] {
            let (di, dk) = (t[i * wd + c], t[best_row * wd + c]);
            let (ri, rk) = (&t[i * wd..i * wd + n], &t[best_row * wd..best_row * wd + n]);
            for (a, b) in ri.iter().zip(rk) {
                let (x, y) = (a * dk, b * di);
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
        let wd = self.width();
        z.iter_mut().for_each(|v| *v = 0.0);
        for (i, &b) in self.basis.iter().enumerate() {
            if (n..2 * n).contains(&b) {
                z[b - n] = self.t[i * wd + 2 * n + 1].max(0.0);
            }
        }
    }
}

/// Runs Lemke's method (see the module documentation) with the default lexicographic rule.
pub(crate) fn solve(ws: &mut LemkeWorkspace, lu: &mut DenseLu, lcp: &Lcp, z: &mut [f64], o: &LemkeOptions) -> Result<Outcome> {
    solve_tie(ws, lu, lcp, z, o, o.tie_break)
}

fn solve_tie(ws: &mut LemkeWorkspace, lu: &mut DenseLu, lcp: &Lcp, z: &mut [f64], o: &LemkeOptions, tie: TieBreak) -> Result<Outcome> {
    let m = lcp.m().dense("lemke")?;
    let q = lcp.q();
    let n = q.len();
    let q_norm = super::error::norm(q);
    ws.zp.resize(n, 0.0);
    ws.wp.resize(n, 0.0);
    ws.flags.resize(n, false);
    if o.warm_start {
        // Try the basis suggested by the warm start: z_i > 0 ⇒ z_i basic.
        for i in 0..n {
            ws.flags[i] = z[i] > 0.0;
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
    ws.init(m, q);
    // initial pivot: z0 enters, row of min q leaves (largest index among ties: lexicographic)
    let mut r = 0;
    for i in 1..n {
        let better = match tie {
            TieBreak::Lexicographic => q[i] <= q[r],
            TieBreak::SmallestIndex => q[i] < q[r],
        };
        if better {
            r = i;
        }
    }
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
    ws.extract_z(z);
    if failure.is_none() {
        polish(ws, lu, lcp, z, q_norm);
    }
    Ok(Outcome { iterations: pivots, failure })
}

/// Re-solves `M_FF z_F = −q_F` on the final basis from the original data, keeping the result
/// when it has a smaller residual (removes the round-off accumulated over many pivots).
fn polish(ws: &mut LemkeWorkspace, lu: &mut DenseLu, lcp: &Lcp, z: &mut [f64], q_norm: f64) {
    let n = z.len();
    let Ok(m) = lcp.m().dense("lemke") else { return };
    let q = lcp.q();
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
    ws.wp.copy_from_slice(q);
    lcp.m().matvec_add(1.0, z, &mut ws.wp);
    let e_old = lcp_error_zw(z, &ws.wp, q_norm);
    if e_new < e_old {
        z.copy_from_slice(&ws.zp);
    }
}
