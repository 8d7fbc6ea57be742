//! Exact 2D solver: the 2D Coulomb problem as an LCP, solved by lexicographic Lemke.
//!
//! Per contact α, unknowns `z_α = (r_N, β⁺, β⁻, λ)` with `r_T = β⁺ − β⁻`, and
//! * `w₁ = u_N ≥ 0 ⟂ r_N ≥ 0`,
//! * `w₂ = λ + u_T ≥ 0 ⟂ β⁺ ≥ 0`, `w₃ = λ − u_T ≥ 0 ⟂ β⁻ ≥ 0`,
//! * `w₄ = μ r_N − β⁺ − β⁻ ≥ 0 ⟂ λ ≥ 0` (λ = slip speed),
//!
//! with `u = W r + q`. Its solutions are exactly the 2D Coulomb (De Saxcé) solutions.
//! (Written here because `numerics::lcp` was not in `main` yet; switch to `lcp::solve` with
//! `LcpSolver::Lemke` once it lands.)

use super::nsgs::compute_u;
use super::options::LemkeOptions;
use super::residual::fc_error_with_u;
use super::FrictionContact;
use crate::error::{NumericsError, Result};
use crate::fc::NsgsOptions;
use crate::report::{FailReason, IterOptions, SolveReport, SolveStatus};
use nalgebra::DMatrix;
use std::time::Instant;

/// Builds `(M, q)` of the LCP reformulation.
pub fn lcp_reformulation(p: &FrictionContact) -> (DMatrix<f64>, Vec<f64>) {
    let nc = p.n_contacts();
    let w = p.w().to_dense();
    let n = 4 * nc;
    let mut m = DMatrix::zeros(n, n);
    let mut q = vec![0.0; n];
    for a in 0..nc {
        for b in 0..nc {
            let (wnn, wnt) = (w[(2 * a, 2 * b)], w[(2 * a, 2 * b + 1)]);
            let (wtn, wtt) = (w[(2 * a + 1, 2 * b)], w[(2 * a + 1, 2 * b + 1)]);
            m[(4 * a, 4 * b)] = wnn;
            m[(4 * a, 4 * b + 1)] = wnt;
            m[(4 * a, 4 * b + 2)] = -wnt;
            m[(4 * a + 1, 4 * b)] = wtn;
            m[(4 * a + 1, 4 * b + 1)] = wtt;
            m[(4 * a + 1, 4 * b + 2)] = -wtt;
            m[(4 * a + 2, 4 * b)] = -wtn;
            m[(4 * a + 2, 4 * b + 1)] = -wtt;
            m[(4 * a + 2, 4 * b + 2)] = wtt;
        }
        m[(4 * a + 1, 4 * a + 3)] = 1.0;
        m[(4 * a + 2, 4 * a + 3)] = 1.0;
        m[(4 * a + 3, 4 * a)] = p.mu()[a];
        m[(4 * a + 3, 4 * a + 1)] = -1.0;
        m[(4 * a + 3, 4 * a + 2)] = -1.0;
        q[4 * a] = p.q()[2 * a];
        q[4 * a + 1] = p.q()[2 * a + 1];
        q[4 * a + 2] = -p.q()[2 * a + 1];
    }
    (m, q)
}

/// Outcome of [`lemke`].
pub enum LemkeEnd {
    /// A solution `z`.
    Solution(Vec<f64>, usize),
    /// Secondary ray.
    Ray(usize),
    /// Pivot cap reached.
    Cap(usize),
}

/// Lexicographic Lemke with covering vector `d = 1` on `w = M z + q`.
pub fn lemke(m: &DMatrix<f64>, q: &[f64], max_pivots: usize) -> LemkeEnd {
    let n = q.len();
    if q.iter().all(|&x| x >= 0.0) {
        return LemkeEnd::Solution(vec![0.0; n], 0);
    }
    // Tableau rows: [B⁻¹ (n) | B⁻¹(−M) (n) | B⁻¹(−d) | B⁻¹ q]; variables 0..n = w, n..2n = z, 2n = z0.
    let width = 2 * n + 2;
    let mut t = vec![0.0; n * width];
    for i in 0..n {
        let row = &mut t[i * width..(i + 1) * width];
        row[i] = 1.0;
        for j in 0..n {
            row[n + j] = -m[(i, j)];
        }
        row[2 * n] = -1.0;
        row[2 * n + 1] = q[i];
    }
    let mut basis: Vec<usize> = (0..n).collect();
    let rhs = 2 * n + 1;
    // First pivot: z0 enters, the row of the most negative q leaves (ties: lexicographic).
    let mut leave = 0;
    for i in 1..n {
        if q[i] < q[leave] {
            leave = i;
        }
    }
    let mut entering = 2 * n;
    let mut pivots = 0;
    loop {
        pivot(&mut t, n, width, leave, entering);
        let left = basis[leave];
        basis[leave] = entering;
        pivots += 1;
        if left == 2 * n {
            break;
        }
        if pivots >= max_pivots {
            return LemkeEnd::Cap(pivots);
        }
        entering = if left < n { left + n } else { left - n };
        // Lexicographic minimum ratio over rows with a positive entering coefficient.
        // Basic values move as x_B = rhs − θ·T[:, e]: rows with T[i, e] > 0 block the increase.
        let mut best: Option<usize> = None;
        for i in 0..n {
            let c = t[i * width + entering];
            if c <= 1e-12 {
                continue;
            }
            best = Some(match best {
                None => i,
                Some(b) => {
                    let cb = t[b * width + entering];
                    if lex_less(&t, width, n, rhs, i, c, b, cb) {
                        i
                    } else {
                        b
                    }
                }
            });
        }
        match best {
            Some(i) => leave = i,
            None => return LemkeEnd::Ray(pivots),
        }
    }
    let mut z = vec![0.0; n];
    for (i, &v) in basis.iter().enumerate() {
        if v >= n && v < 2 * n {
            z[v - n] = t[i * width + rhs].max(0.0);
        }
    }
    LemkeEnd::Solution(z, pivots)
}

#[allow(clippy::too_many_arguments)]
fn lex_less(t: &[f64], width: usize, n: usize, rhs: usize, i: usize, ci: f64, b: usize, cb: f64) -> bool {
    let (ri, rb) = (t[i * width + rhs] / ci, t[b * width + rhs] / cb);
    let scale = 1e-13 * (1.0 + ri.abs().max(rb.abs()));
    if (ri - rb).abs() > scale {
        return ri < rb;
    }
    for k in 0..n {
        let (a, bb) = (t[i * width + k] / ci, t[b * width + k] / cb);
        if (a - bb).abs() > 1e-13 * (1.0 + a.abs().max(bb.abs())) {
            return a < bb;
        }
    }
    false
}

/// Gauss–Jordan pivot on (row `pr`, column `pc`) of the system `T x = rhs`: column `pc`
/// becomes the unit vector of row `pr`.
fn pivot(t: &mut [f64], n: usize, width: usize, pr: usize, pc: usize) {
    let piv = t[pr * width + pc];
    let inv = 1.0 / piv;
    for k in 0..width {
        t[pr * width + k] *= inv;
    }
    let prow: Vec<f64> = t[pr * width..(pr + 1) * width].to_vec();
    for i in 0..n {
        if i == pr {
            continue;
        }
        let f = t[i * width + pc];
        if f == 0.0 {
            continue;
        }
        let row = &mut t[i * width..(i + 1) * width];
        for k in 0..width {
            row[k] -= f * prow[k];
        }
    }
}

/// Solves a 2D problem through its LCP reformulation.
pub fn solve(p: &FrictionContact, r: &mut [f64], u: &mut [f64], opts: &LemkeOptions) -> Result<SolveReport> {
    opts.validate()?;
    if p.dim() != 2 {
        return Err(NumericsError::Unsupported { solver: "lemke", what: format!("dimension {} (2D solver)", p.dim()) });
    }
    if p.n_contacts() > opts.max_contacts {
        return Err(NumericsError::Unsupported { solver: "lemke", what: format!("{} contacts (dense tableau; max_contacts = {})", p.n_contacts(), opts.max_contacts) });
    }
    let start = Instant::now();
    let (m, q) = lcp_reformulation(p);
    let (status, iterations) = match lemke(&m, &q, opts.iter.max_iter) {
        LemkeEnd::Solution(z, k) => {
            for a in 0..p.n_contacts() {
                r[2 * a] = z[4 * a];
                r[2 * a + 1] = z[4 * a + 1] - z[4 * a + 2];
            }
            (SolveStatus::Converged, k)
        }
        LemkeEnd::Ray(k) => (SolveStatus::Failed(FailReason::RayTermination), k),
        LemkeEnd::Cap(k) => (SolveStatus::MaxIterations, k),
    };
    if r.iter().any(|x| !x.is_finite()) {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    compute_u(p, r, u);
    let mut residual = fc_error_with_u(p, r, u);
    let mut status = status;
    let mut iterations = iterations;
    if status.converged() && residual > opts.iter.tol {
        // Pivoting is exact in exact arithmetic; roundoff (badly scaled or degenerate q) can
        // leave the normalized error above tol. Refine with warm-started exact-local NSGS sweeps
        // (counted in `iterations`).
        let mut o = NsgsOptions::with_iter(IterOptions::new(opts.iter.tol, opts.refine_sweeps.max(1)));
        o.warm_start = true;
        let rep = crate::fc::nsgs::solve(p, r, u, &o, crate::fc::LocalSolver::AlartCurnier)?;
        iterations += rep.iterations;
        residual = rep.residual;
        status = if rep.status.converged() { SolveStatus::Converged } else { SolveStatus::Failed(FailReason::Stalled) };
    }
    Ok(SolveReport { status, iterations, residual, elapsed: start.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fc::{read_fc_file, residual::fc_error};

    fn check_lcp(m: &DMatrix<f64>, q: &[f64], z: &[f64]) -> f64 {
        let n = q.len();
        let mut worst: f64 = 0.0;
        for i in 0..n {
            let w: f64 = q[i] + (0..n).map(|j| m[(i, j)] * z[j]).sum::<f64>();
            worst = worst.max(z[i].min(w).abs()).max((-w).max(0.0)).max((-z[i]).max(0.0));
        }
        worst
    }

    #[test]
    fn lemke_solves_positive_definite_lcps() {
        let mut s = 12345u64;
        let mut rnd = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        for n in [1, 2, 5, 12, 30] {
            let a = DMatrix::from_fn(n, n, |_, _| rnd());
            let m = &a * a.transpose() + DMatrix::identity(n, n) * 0.1;
            let q: Vec<f64> = (0..n).map(|_| rnd()).collect();
            match lemke(&m, &q, 10_000) {
                LemkeEnd::Solution(z, _) => assert!(check_lcp(&m, &q, &z) < 1e-10, "n = {n}"),
                _ => panic!("Lemke must solve a P-matrix LCP (n = {n})"),
            }
        }
    }

    #[test]
    fn lemke_on_collection_file() {
        let Some(dir) = crate::io::test_data_dir() else { return };
        let p = read_fc_file(&dir.join("numerics/fc2d/FrictionContactProblem00394.dat")).unwrap();
        let (m, q) = lcp_reformulation(&p);
        match lemke(&m, &q, 10_000) {
            LemkeEnd::Solution(z, _) => {
                assert!(check_lcp(&m, &q, &z) < 1e-9, "LCP residual {}", check_lcp(&m, &q, &z));
                let mut r = vec![0.0; p.size()];
                for a in 0..p.n_contacts() {
                    r[2 * a] = z[4 * a];
                    r[2 * a + 1] = z[4 * a + 1] - z[4 * a + 2];
                }
                // q is O(1e-15) in this file: the pivoting answer is exact only up to roundoff
                // at that scale, hence the NSGS refinement inside `solve`.
                assert!(fc_error(&p, &r).is_finite());
                let (mut r2, mut u2) = (vec![0.0; p.size()], vec![0.0; p.size()]);
                let rep = solve(&p, &mut r2, &mut u2, &LemkeOptions::default()).unwrap();
                assert!(rep.status.converged(), "{rep:?}");
                let solver = crate::fc::solver_by_name("lemke", crate::IterOptions::new(1e-8, 10_000)).unwrap();
                let rep = crate::fc::solve(&p, &mut r2, &mut u2, &solver).unwrap();
                assert!(rep.status.converged(), "driver: {rep:?}");
            }
            _ => panic!("no solution"),
        }
    }
}
