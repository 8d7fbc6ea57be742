//! Cao–Ferris pivoting for `AVI(K, M, q)`, `K = {z : H z ≥ k}` (Cao and Ferris, "A pivotal method
//! for affine variational inequalities", Math. Oper. Res. 21, 1996).
//!
//! 1. Elimination at a vertex: `n` linearly independent rows `B` of `H` (`G = H_B`, chosen in row
//!    order by Gram–Schmidt) give `z = G⁻¹(k_B + s)`, `s ≥ 0` the slacks of `B`, and the vertex
//!    `z̄ = G⁻¹ k_B`. With `μ_B = G⁻ᵀ(M z + q − H_Nᵀ μ_N)` the KKT system becomes the LCP in
//!    `ζ = (s, μ_N)`, `w = (μ_B, t_N)` (`t_N = H_N z − k_N` the slacks of the other rows):
//!    ```text
//!      μ_B = G⁻ᵀ M G⁻¹ s − G⁻ᵀ H_Nᵀ μ_N + G⁻ᵀ(M z̄ + q)
//!      t_N = H_N G⁻¹ s                    + (H_N z̄ − k_N)
//!    ```
//! 2. Lemke's method on it with the covering vector `d = (e, d_N)`, `d_N,i = 1` only on the rows
//!    of `K` that `z̄` violates: when `z̄ ∈ K` the rows of `K` are never covered, the whole path
//!    stays in `K`, and for a bounded `K` the method ends at a solution for every `M` (a
//!    secondary ray would need `s = 0` and `μ_N = 0`). For a box at its lower vertex this is
//!    the relay solver `AviCaoFerris`.

use super::Avi;
use crate::error::Result;
use crate::lcp::{Lcp, LcpSolverState, LemkeOptions};
use crate::matrix::Operator;
use crate::report::FailReason;
use nalgebra::DMatrix;

/// The first `n` linearly independent rows of `h` (fewer when its rank is below `n`), by
/// modified Gram–Schmidt with a relative threshold of `1e-10`.
pub(crate) fn basis_rows(h: &DMatrix<f64>) -> Vec<usize> {
    let n = h.ncols();
    let mut picked = Vec::with_capacity(n);
    let mut ortho: Vec<Vec<f64>> = Vec::with_capacity(n);
    for i in 0..h.nrows() {
        if picked.len() == n {
            break;
        }
        let mut r: Vec<f64> = h.row(i).iter().copied().collect();
        let norm0 = r.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm0 == 0.0 {
            continue;
        }
        for u in &ortho {
            let dot: f64 = r.iter().zip(u).map(|(a, b)| a * b).sum();
            r.iter_mut().zip(u).for_each(|(a, b)| *a -= dot * b);
        }
        let norm = r.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 1e-10 * norm0 {
            r.iter_mut().for_each(|a| *a /= norm);
            ortho.push(r);
            picked.push(i);
        }
    }
    picked
}

/// Solves `p`; writes `z` and the multipliers `mu` (one per row of `H`); returns (pivots, failure).
pub(crate) fn solve(
    state: &mut LcpSolverState,
    p: &Avi,
    z: &mut [f64],
    mu: &mut Vec<f64>,
    o: &LemkeOptions,
) -> Result<(usize, Option<FailReason>)> {
    let (n, rows) = (p.size(), p.h().nrows());
    let b = basis_rows(p.h());
    let mut in_b = vec![false; rows];
    b.iter().for_each(|&i| in_b[i] = true);
    let others: Vec<usize> = (0..rows).filter(|&i| !in_b[i]).collect();
    let g = DMatrix::from_fn(n, n, |i, j| p.h()[(b[i], j)]);
    let g_inv =
        g.clone().try_inverse().ok_or(crate::NumericsError::Singular { what: "H_B (AVI vertex basis)", index: 0 })?;
    let zbar = &g_inv * nalgebra::DVector::from_iterator(n, b.iter().map(|&i| p.k()[i]));
    // G⁻ᵀ M G⁻¹, G⁻ᵀ H_Nᵀ, H_N G⁻¹
    let h_n = DMatrix::from_fn(others.len(), n, |i, j| p.h()[(others[i], j)]);
    let gt_inv = g_inv.transpose();
    let a = &gt_inv * p.m() * &g_inv;
    let c = &h_n * &g_inv;
    let dim = n + others.len();
    let mut big = DMatrix::zeros(dim, dim);
    big.view_mut((0, 0), (n, n)).copy_from(&a);
    big.view_mut((0, n), (n, others.len())).copy_from(&(-(&gt_inv * h_n.transpose())));
    big.view_mut((n, 0), (others.len(), n)).copy_from(&c);
    let q = nalgebra::DVector::from_column_slice(p.q());
    let q_b = &gt_inv * (p.m() * &zbar + q);
    let q_n = &h_n * &zbar - nalgebra::DVector::from_iterator(others.len(), others.iter().map(|&i| p.k()[i]));
    let mut ql = Vec::with_capacity(dim);
    ql.extend(q_b.iter());
    ql.extend(q_n.iter());
    let cover: Vec<f64> = (0..dim).map(|i| if i < n || ql[i] < 0.0 { 1.0 } else { 0.0 }).collect();
    let lcp = Lcp::new(Operator::Dense(big), ql)?;
    let mut zeta = vec![0.0; dim];
    let out = crate::lcp::lemke_covering(state, &lcp, &cover, &mut zeta, &LemkeOptions { warm_start: false, ..*o })?;
    // z = z̄ + G⁻¹ s; μ_B = (M_lcp ζ + q_lcp)_B, μ_N = ζ_N
    let s = nalgebra::DVector::from_column_slice(&zeta[..n]);
    let zv = &zbar + &g_inv * s;
    z.copy_from_slice(zv.as_slice());
    let mut wl = lcp.q().to_vec();
    lcp.m().matvec_add(1.0, &zeta, &mut wl);
    mu.clear();
    mu.resize(rows, 0.0);
    for (r, &i) in b.iter().enumerate() {
        mu[i] = wl[r].max(0.0);
    }
    for (r, &i) in others.iter().enumerate() {
        mu[i] = zeta[n + r];
    }
    Ok((out.iterations, out.failure))
}
