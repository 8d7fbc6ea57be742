//! TEMPORARY stand-in for `saltus_numerics::lcp` until the `lcp` branch is merged (same API
//! subset). Delete this file and point `crate::solvers::lcp` at `saltus_numerics::lcp` then.
#![allow(missing_docs, dead_code)]

use nalgebra::DMatrix;
use saltus_numerics::{IterOptions, NumericsError, Operator, Result, SolveReport, SolveStatus};

#[derive(Debug, Clone, PartialEq)]
pub struct Lcp {
    m: Operator,
    q: Vec<f64>,
}

impl Lcp {
    pub fn new(m: Operator, q: Vec<f64>) -> Result<Lcp> {
        if m.nrows() != q.len() {
            return Err(NumericsError::DimensionMismatch { what: "q", expected: m.nrows(), found: q.len() });
        }
        Ok(Lcp { m, q })
    }
    pub fn m(&self) -> &Operator {
        &self.m
    }
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    pub fn size(&self) -> usize {
        self.q.len()
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Opts {
    pub iter: IterOptions,
    pub warm_start: bool,
}
impl Default for Opts {
    fn default() -> Self {
        Opts { iter: IterOptions::new(1e-8, 10_000), warm_start: false }
    }
}
pub type LemkeOptions = Opts;
pub type PgsOptions = Opts;
pub type EnumOptions = Opts;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LcpSolver {
    Lemke(LemkeOptions),
    Pgs(PgsOptions),
    Enumerative(EnumOptions),
}

#[derive(Debug, Default)]
pub struct LcpSolverState;

pub fn lcp_error(m: &Operator, q: &[f64], z: &[f64]) -> f64 {
    let mut w = q.to_vec();
    m.matvec_add(1.0, z, &mut w);
    let e: f64 = z.iter().zip(&w).map(|(a, b)| (a - (a - b).max(0.0)).powi(2)).sum::<f64>().sqrt();
    let nq = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    if nq > 1e-12 {
        e / nq
    } else {
        e
    }
}

pub fn solve_with(_s: &mut LcpSolverState, lcp: &Lcp, z: &mut [f64], w: &mut [f64], solver: &LcpSolver) -> Result<SolveReport> {
    let n = lcp.size();
    let q = &lcp.q;
    if q.iter().all(|&x| x >= 0.0) {
        z.fill(0.0);
        w.copy_from_slice(q);
        return Ok(SolveReport::trivial(0.0));
    }
    if n == 1 {
        let mut d = [0.0];
        lcp.m.diag_block(0, 1, &mut d);
        z[0] = -q[0] / d[0];
        w[0] = 0.0;
        return Ok(SolveReport::trivial(0.0));
    }
    let mut iters = 0;
    match solver {
        LcpSolver::Pgs(o) => {
            if !o.warm_start {
                z.fill(0.0);
            }
            let mut d = [0.0];
            let mut r = [0.0];
            for it in 0..o.iter.max_iter {
                iters = it + 1;
                for i in 0..n {
                    lcp.m.block_row_times(i, 1, z, true, &mut r);
                    lcp.m.diag_block(i, 1, &mut d);
                    z[i] = (-(q[i] + r[0]) / d[0]).max(0.0);
                }
                if lcp_error(&lcp.m, q, z) <= o.iter.tol {
                    break;
                }
            }
        }
        _ => {
            let m = lcp.m.to_dense();
            for mask in 0u32..(1u32 << n) {
                iters += 1;
                let idx: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
                let k = idx.len();
                let sub = DMatrix::from_fn(k, k, |i, j| m[(idx[i], idx[j])]);
                let rhs = nalgebra::DVector::from_fn(k, |i, _| -q[idx[i]]);
                let sol = if k == 0 { Some(rhs) } else { sub.lu().solve(&rhs) };
                let Some(sol) = sol else { continue };
                z.fill(0.0);
                for (i, &j) in idx.iter().enumerate() {
                    z[j] = sol[i];
                }
                w.copy_from_slice(q);
                lcp.m.matvec_add(1.0, z, w);
                if z.iter().all(|&x| x >= -1e-12) && w.iter().all(|&x| x >= -1e-12) {
                    break;
                }
            }
        }
    }
    w.copy_from_slice(q);
    lcp.m.matvec_add(1.0, z, w);
    let residual = lcp_error(&lcp.m, q, z);
    Ok(SolveReport { status: if residual < 1e-8 { SolveStatus::Converged } else { SolveStatus::MaxIterations }, iterations: iters, residual, elapsed: Default::default() })
}

pub fn into_parts(lcp: Lcp) -> (Operator, Vec<f64>) {
    (lcp.m, lcp.q)
}
