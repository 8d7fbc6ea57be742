//! Lemke's method on the Schur-complement LCP (Siconos `MLCP_LCP_LEMKE` reformulation).
//!
//! With `M = [[A, C], [D, B]]`, `q = [a; b]` and `A` invertible, the equalities give
//! `u = −A⁻¹(C v + a)`, and `v` solves the LCP `w = S v + s`, `0 <= v ⊥ w >= 0` with
//! `S = B − D A⁻¹ C`, `s = b − D A⁻¹ a`. That LCP is solved by Lemke's complementary pivoting
//! (covering vector `e = 1`) on a compact (Tucker exchange) tableau of size `m × (m + 2)`.

use super::error::mlcp_compute_error;
use super::linalg::{lu_factor, lu_solve, max_abs};
use super::options::LemkeOptions;
use super::problem::Mlcp;
use crate::error::{NumericsError, Result};
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::DMatrix;

/// Solves `p` by Schur reduction and Lemke's method. `Err(Singular)` when the equality block
/// `A` is singular.
pub fn solve_lemke(p: &Mlcp, z: &mut [f64], w: &mut [f64], opts: &LemkeOptions) -> Result<SolveReport> {
    let (ne, m) = (p.n_eq(), p.n_comp());
    let mm = p.m();
    let q = p.q();
    // Schur complement with the allocation-free LU of `linalg` (X = A⁻¹[C a], S = B − D X).
    let size = p.size();
    let ms = mm.as_slice();
    let mut s_mat = DMatrix::zeros(m, m);
    let mut s_vec = q[ne..].to_vec();
    let mut x = vec![0.0; ne * (m + 1)];
    if ne > 0 {
        let mut a = vec![0.0; ne * ne];
        for j in 0..ne {
            a[j * ne..(j + 1) * ne].copy_from_slice(&ms[j * size..j * size + ne]);
        }
        let mut piv = vec![0; ne];
        let tiny = 1e-14 * (1.0 + max_abs(&a));
        lu_factor(&mut a, ne, &mut piv, tiny)
            .map_err(|k| NumericsError::Singular { what: "A (equality block eliminated by lemke)", index: k })?;
        for j in 0..=m {
            let col = &mut x[j * ne..(j + 1) * ne];
            if j < m {
                col.copy_from_slice(&ms[(ne + j) * size..(ne + j) * size + ne]);
            } else {
                col.copy_from_slice(&q[..ne]);
            }
            lu_solve(&a, ne, &piv, col);
        }
        if !x.iter().all(|v| v.is_finite()) {
            return Err(NumericsError::Singular { what: "A (equality block eliminated by lemke)", index: 0 });
        }
    }
    {
        let ss = s_mat.as_mut_slice();
        for j in 0..m {
            ss[j * m..(j + 1) * m].copy_from_slice(&ms[(ne + j) * size + ne..(ne + j + 1) * size]);
        }
        for j in 0..=m {
            for k in 0..ne {
                let xkj = x[j * ne + k];
                if xkj == 0.0 {
                    continue;
                }
                let dcol = &ms[k * size + ne..(k + 1) * size];
                let target = if j < m { &mut ss[j * m..(j + 1) * m] } else { &mut s_vec[..] };
                for (t, d) in target.iter_mut().zip(dcol) {
                    *t -= xkj * d;
                }
            }
        }
    }
    let (v, pivots, status) = lemke_lcp(&s_mat, &s_vec, opts.max_pivots);
    z[ne..].copy_from_slice(&v);
    for i in 0..ne {
        let mut ui = -x[m * ne + i];
        for (j, vj) in v.iter().enumerate() {
            ui -= x[j * ne + i] * vj;
        }
        z[i] = ui;
    }
    let e = mlcp_compute_error(p, z, w);
    let status = match status {
        None if e <= opts.tol => SolveStatus::Converged,
        None => SolveStatus::Failed(FailReason::Stalled),
        Some(s) => s,
    };
    Ok(SolveReport { status, iterations: pivots, residual: e, elapsed: Default::default() })
}

/// Lemke's method on the LCP `w = S v + s`. Returns `(v, pivots, None)` on success or the
/// failure status (ray termination, pivot cap).
pub fn lemke_lcp(s_mat: &DMatrix<f64>, s: &[f64], max_pivots: usize) -> (Vec<f64>, usize, Option<SolveStatus>) {
    let m = s.len();
    let mut v = vec![0.0; m];
    if s.iter().all(|&x| x >= 0.0) {
        return (v, 0, None);
    }
    // Tableau, column-major m × (m+2): basic_r = Σ_c T[r,c] x_c + T[r,m+1], nonbasic x_c.
    let ld = m;
    let nc = m + 2;
    let mut t = vec![0.0; m * nc];
    t[..m * m].copy_from_slice(s_mat.as_slice());
    t[m * m..m * (m + 1)].iter_mut().for_each(|x| *x = 1.0);
    t[m * (m + 1)..].copy_from_slice(s);
    // Labels: 0..m = w_i, m..2m = v_i, 2m = z0.
    let z0 = 2 * m;
    let mut basic: Vec<usize> = (0..m).collect();
    let mut nonbasic: Vec<usize> = (m..2 * m).chain(std::iter::once(z0)).collect();
    let mut col_of = vec![usize::MAX; 2 * m + 1];
    for (c, &l) in nonbasic.iter().enumerate() {
        col_of[l] = c;
    }
    let rhs = m + 1;
    // First pivot: z0 enters, the most negative s_r leaves.
    let mut r = (0..m).fold(0, |b, i| if s[i] < s[b] { i } else { b });
    let mut c = m;
    let mut pivots = 0;
    let mut pcol = vec![0.0; m];
    let mut prow = vec![0.0; nc];
    loop {
        pivots += 1;
        // Exchange (r, c).
        let p = t[c * ld + r];
        pcol.copy_from_slice(&t[c * ld..c * ld + m]);
        for k in 0..nc {
            prow[k] = t[k * ld + r];
        }
        for k in 0..nc {
            if k == c {
                continue;
            }
            let f = prow[k] / p;
            if f != 0.0 {
                let col = &mut t[k * ld..k * ld + m];
                for (x, &pc) in col.iter_mut().zip(&pcol) {
                    *x -= f * pc;
                }
            }
            t[k * ld + r] = -prow[k] / p;
        }
        for (i, x) in t[c * ld..c * ld + m].iter_mut().enumerate() {
            *x = if i == r { 1.0 / p } else { pcol[i] / p };
        }
        let leaving = basic[r];
        let entering = nonbasic[c];
        basic[r] = entering;
        nonbasic[c] = leaving;
        col_of[leaving] = c;
        col_of[entering] = usize::MAX;
        if leaving == z0 {
            break;
        }
        if pivots >= max_pivots {
            return (extract(&t, &basic, m, rhs), pivots, Some(SolveStatus::MaxIterations));
        }
        // Entering: the complement of the variable that left.
        let comp = if leaving < m { leaving + m } else { leaving - m };
        c = col_of[comp];
        // Ratio test over rows with T[i,c] < 0; prefer z0's row on ties.
        let mut best: Option<(usize, f64)> = None;
        for i in 0..m {
            let a = t[c * ld + i];
            if a < -1e-12 {
                let ratio = t[rhs * ld + i].max(0.0) / -a;
                match best {
                    None => best = Some((i, ratio)),
                    Some((bi, br)) => {
                        let tie = (ratio - br).abs() <= 1e-12 * (1.0 + br.abs());
                        if (!tie && ratio < br) || (tie && basic[i] == z0 && basic[bi] != z0) {
                            best = Some((i, ratio));
                        }
                    }
                }
            }
        }
        match best {
            Some((i, _)) => r = i,
            None => {
                return (extract(&t, &basic, m, rhs), pivots, Some(SolveStatus::Failed(FailReason::RayTermination)))
            }
        }
    }
    v = extract(&t, &basic, m, rhs);
    (v, pivots, None)
}

fn extract(t: &[f64], basic: &[usize], m: usize, rhs: usize) -> Vec<f64> {
    let mut v = vec![0.0; m];
    for (r, &l) in basic.iter().enumerate() {
        if (m..2 * m).contains(&l) {
            v[l - m] = t[rhs * m + r].max(0.0);
        }
    }
    v
}
