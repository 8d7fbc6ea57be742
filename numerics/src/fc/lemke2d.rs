//! Exact 2D solver: the 2D Coulomb problem as an LCP, solved by lexicographic Lemke.
//!
//! Per contact α, unknowns `z_α = (r_N, β⁺, β⁻, λ)` with `r_T = β⁺ − β⁻`, and
//! * `w₁ = u_N ≥ 0 ⟂ r_N ≥ 0`,
//! * `w₂ = λ + u_T ≥ 0 ⟂ β⁺ ≥ 0`, `w₃ = λ − u_T ≥ 0 ⟂ β⁻ ≥ 0`,
//! * `w₄ = μ r_N − β⁺ − β⁻ ≥ 0 ⟂ λ ≥ 0` (λ = slip speed),
//!
//! with `u = W r + q`. Its solutions are exactly the 2D Coulomb (De Saxcé) solutions.
//! The LCP is solved by `numerics::lcp` with `LcpSolver::Lemke` (lexicographic Lemke).

use super::nsgs::compute_u;
use super::options::LemkeOptions;
use super::residual::fc_error_with_u;
use super::FrictionContact;
use crate::error::{NumericsError, Result};
use crate::fc::NsgsOptions;
use crate::lcp::{Lcp, LcpSolver};
use crate::matrix::Operator;
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

/// Solves a 2D problem through its LCP reformulation.
pub fn solve(p: &FrictionContact, r: &mut [f64], u: &mut [f64], opts: &LemkeOptions) -> Result<SolveReport> {
    opts.validate()?;
    if p.dim() != 2 {
        return Err(NumericsError::Unsupported { solver: "lemke", what: format!("dimension {} (2D solver)", p.dim()) });
    }
    if p.n_contacts() > opts.max_contacts {
        return Err(NumericsError::Unsupported {
            solver: "lemke",
            what: format!("{} contacts (dense tableau; max_contacts = {})", p.n_contacts(), opts.max_contacts),
        });
    }
    let start = Instant::now();
    let (m, q) = lcp_reformulation(p);
    let n = q.len();
    let lcp = Lcp::new(Operator::Dense(m), q)?;
    let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
    let lo =
        crate::lcp::LemkeOptions { iter: IterOptions::new(opts.iter.tol, opts.iter.max_iter), ..Default::default() };
    let rep = crate::lcp::solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(lo))?;
    // The pivoting result is used whenever it ended on a complementary basis; its friction
    // error is judged below (the LCP driver's own status uses the LCP-scaled error).
    let (status, iterations) = match rep.status {
        SolveStatus::Failed(reason) => (SolveStatus::Failed(reason), rep.iterations),
        SolveStatus::MaxIterations => (SolveStatus::MaxIterations, rep.iterations),
        _ => (SolveStatus::Converged, rep.iterations),
    };
    if z.iter().all(|x| x.is_finite()) {
        for a in 0..p.n_contacts() {
            r[2 * a] = z[4 * a].max(0.0);
            r[2 * a + 1] = z[4 * a + 1] - z[4 * a + 2];
        }
    }
    if r.iter().any(|x| !x.is_finite()) {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    compute_u(p, r, u);
    let mut residual = fc_error_with_u(p, r, u);
    let mut status = status;
    let mut iterations = iterations;
    if residual > opts.iter.tol {
        // Pivoting is exact in exact arithmetic; roundoff (badly scaled or degenerate q) can
        // leave the normalized error above tol, or the LCP solver may stop early. Refine with warm-started exact-local NSGS sweeps
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
    use crate::fc::read_fc_file;

    #[test]
    fn lemke_on_collection_file() {
        let Some(dir) = crate::io::test_data_dir() else {
            eprintln!("test data absent: skipping");
            return;
        };
        // q is O(1e-15) in this file: the pivoting answer is exact only up to roundoff at that
        // scale, which the NSGS refinement inside `solve` repairs.
        let p = read_fc_file(&dir.join("numerics/fc2d/FrictionContactProblem00394.dat")).unwrap();
        let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let rep = solve(&p, &mut r, &mut u, &LemkeOptions::default()).unwrap();
        assert!(rep.status.converged() && crate::fc::fc_error(&p, &r) <= 1e-8, "{rep:?}");
        let p = read_fc_file(&dir.join("numerics/fc2d/FrictionContactProblem00071.dat")).unwrap();
        let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let rep = solve(&p, &mut r, &mut u, &LemkeOptions::default()).unwrap();
        assert!(rep.status.converged() && crate::fc::fc_error(&p, &r) <= 1e-8, "{rep:?}");
    }
}
