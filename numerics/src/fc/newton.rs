//! Global semismooth Newton on the stacked Alart–Curnier function (3D).
//!
//! `Φ(r) = [Φ_AC(r_α, u_α)]_α` with `u = W r + q` (+ `ν (r − c)` for the proximal subproblems);
//! generalized Jacobian `J = A + B (W + ν I)` with `A = blockdiag(∂Φ_α/∂r_α)`,
//! `B = blockdiag(∂Φ_α/∂u_α)`. Step `J d = −Φ` (nalgebra dense LU, or faer sparse LU on a
//! block-sparse `W`: [`JacobianFactorization`]), non-monotone Armijo backtracking on `ψ = ½‖Φ‖²`.
//! A failed line search or a singular Jacobian is reported, never silently stepped over.

use super::local::alart_curnier::{function, rho_from_block};
use super::nsgs::compute_u;
use super::options::{JacobianFactorization, NewtonOptions};
use super::residual::fc_error_with_u;
use super::sparse_lu::SparseLu;
use super::FrictionContact;
use crate::error::Result;
use crate::matrix::Operator;
use crate::ode::dense_lu::DenseLu;
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use std::time::Instant;

/// The Alart–Curnier Jacobian blocks `(A_a, B_a)` per contact, filled when asked for.
type JacobianBlocks<'a> = (&'a mut Vec<Matrix3<f64>>, &'a mut Vec<Matrix3<f64>>);

/// What the Newton iteration stops on.
pub(crate) enum Stop {
    /// The canonical normalized error of the original problem `≤ tol`.
    Canonical(f64),
    /// `‖Φ‖ ≤ tol · max(‖r‖, 1e-300)` (inner proximal solves).
    Phi(f64),
}

/// What a Newton step does when no step length passes the line search.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineSearchFailure {
    /// Stop and report [`FailReason::LineSearch`] (PROX's inner solves: PROX then enlarges `ν`).
    Stop,
    /// Take the full Newton step anyway (what Siconos's `NSN_AC` does when its Goldstein–Price
    /// search fails) while the merit history lets the non-monotone rule recover; the iterate of
    /// least merit is kept and returned if the iteration does not converge.
    FullStep,
}

/// Outcome of [`newton_core`].
pub(crate) struct Outcome {
    pub status: SolveStatus,
    pub iterations: usize,
}

/// Size (unknowns) from which [`JacobianFactorization::Auto`] looks at the block density: below
/// it the dense LU (nalgebra's below 64, see `ode::dense_lu`) costs less than the sparse one's
/// fixed overhead.
const DENSITY_RULE_MIN_SIZE: usize = 64;

/// Linear-algebra workspace of [`newton_core`], reusable across calls on the same problem
/// (PROX runs one Newton solve per proximal step on the same Jacobian pattern).
pub(crate) struct Linear {
    /// Dense copy of `W` (dense path), made at construction.
    dense: Option<DMatrix<f64>>,
    /// Dense path: the Jacobian (refilled every step) and its LU (faer from 64 unknowns).
    jac: DMatrix<f64>,
    dense_lu: Option<DenseLu>,
    /// The blocks of `W` (sparse path).
    blocks: Vec<(usize, usize, Matrix3<f64>)>,
    /// Sparse LU of the Jacobian pattern (fixed: structural zeros are kept); its symbolic
    /// analysis is computed at the first Newton step and reused by every later one.
    sparse: Option<SparseLu>,
}

impl Linear {
    /// The workspace for `p` with the factorization chosen by `how` (see
    /// [`JacobianFactorization::Auto`] for `sparse_threshold` and `sparse_max_density`).
    pub fn new(
        p: &FrictionContact,
        how: JacobianFactorization,
        sparse_threshold: usize,
        sparse_max_density: f64,
    ) -> Self {
        let sparse = match how {
            JacobianFactorization::Dense => false,
            JacobianFactorization::Sparse => true,
            JacobianFactorization::Auto => match p.w() {
                Operator::Dense(_) => false,
                Operator::BlockCsr(w) => {
                    let nc = p.n_contacts().max(1) as f64;
                    p.size() > sparse_threshold
                        || (p.size() >= DENSITY_RULE_MIN_SIZE && w.n_blocks() as f64 <= sparse_max_density * nc * nc)
                }
            },
        };
        let n = if sparse { 0 } else { p.size() };
        let dense = (!sparse).then(|| p.w().to_dense());
        let dense_lu = (!sparse).then(|| DenseLu::new(n));
        Linear { dense, jac: DMatrix::zeros(n, n), dense_lu, blocks: Vec::new(), sparse: None }
    }
}

/// Newton iteration on `Φ(r; ν, c)` from the current `r`.
/// `lin` caches the dense copy of `W` / the symbolic sparse LU between calls on the same problem.
#[allow(clippy::too_many_arguments)]
pub(crate) fn newton_core(
    p: &FrictionContact,
    r: &mut [f64],
    nu: f64,
    center: &[f64],
    max_iter: usize,
    max_ls: usize,
    on_ls_failure: LineSearchFailure,
    stop: Stop,
    lin: &mut Linear,
) -> Outcome {
    let n = p.size();
    let nc = p.n_contacts();
    let mut rho = Vec::with_capacity(nc);
    let mut blk = [0.0; 9];
    let mut diag_scale = 0.0;
    for a in 0..nc {
        p.w().diag_block(a, 3, &mut blk);
        diag_scale += (blk[0].abs() + blk[4].abs() + blk[8].abs()) / (3 * nc) as f64;
        let mut w = Matrix3::from_column_slice(&blk);
        w += Matrix3::identity() * nu;
        rho.push(rho_from_block(&w));
    }
    let mut u = vec![0.0; n];
    let mut phi = vec![0.0; n];
    let mut a_blocks = vec![Matrix3::zeros(); nc];
    let mut b_blocks = vec![Matrix3::zeros(); nc];
    let eval = |r: &[f64], u: &mut [f64], phi: &mut [f64], ab: Option<JacobianBlocks<'_>>| -> f64 {
        compute_u(p, r, u);
        if nu != 0.0 {
            for i in 0..n {
                u[i] += nu * (r[i] - center[i]);
            }
        }
        let mut ab = ab;
        let mut s = 0.0;
        for a in 0..nc {
            let ra = Vector3::new(r[3 * a], r[3 * a + 1], r[3 * a + 2]);
            let ua = Vector3::new(u[3 * a], u[3 * a + 1], u[3 * a + 2]);
            let (f, am, bm) = function(&ra, &ua, p.mu()[a], rho[a].0, rho[a].1);
            phi[3 * a..3 * a + 3].copy_from_slice(f.as_slice());
            s += f.norm_squared();
            if let Some((ref mut av, ref mut bv)) = ab {
                av[a] = am;
                bv[a] = bm;
            }
        }
        0.5 * s
    };
    let stop_now = |r: &[f64], u: &[f64], phi: &[f64]| -> bool {
        match stop {
            Stop::Canonical(tol) => {
                if nu != 0.0 {
                    let mut uo = vec![0.0; n];
                    compute_u(p, r, &mut uo);
                    fc_error_with_u(p, r, &uo) <= tol
                } else {
                    fc_error_with_u(p, r, u) <= tol
                }
            }
            Stop::Phi(tol) => {
                let rn = r.iter().map(|x| x * x).sum::<f64>().sqrt();
                phi.iter().map(|x| x * x).sum::<f64>().sqrt() <= tol * rn.max(1e-300)
            }
        }
    };
    let mut psi = eval(r, &mut u, &mut phi, Some((&mut a_blocks, &mut b_blocks)));
    let mut trial = vec![0.0; n];
    let mut u2 = vec![0.0; n];
    let mut phi2 = vec![0.0; n];
    // Non-monotone Armijo rule (Grippo–Lampariello–Lucidi): compare with the largest merit of
    // the last 10 accepted iterates.
    let mut hist: std::collections::VecDeque<f64> = std::collections::VecDeque::with_capacity(10);
    // the iterate of least merit (FullStep only: full steps may increase the merit)
    let mut best = Best::default();
    for it in 0..max_iter {
        if hist.len() == 10 {
            hist.pop_front();
        }
        hist.push_back(psi);
        let psi_ref = hist.iter().cloned().fold(psi, f64::max);
        if stop_now(r, &u, &phi) {
            return Outcome { status: SolveStatus::Converged, iterations: it };
        }
        // A singular generalized Jacobian (rank-deficient W) is regularized: J + δ I with
        // δ growing from 1e-10 to 1e-4 times the mean |diag W|.
        let mut d = newton_direction(p, lin, &a_blocks, &b_blocks, nu, &phi, 0.0);
        let mut delta = 1e-10 * diag_scale;
        while d.is_none() && delta <= 1e-4 * diag_scale {
            d = newton_direction(p, lin, &a_blocks, &b_blocks, nu, &phi, delta);
            delta *= 100.0;
        }
        let Some(d) = d else {
            best.restore(r);
            return Outcome { status: SolveStatus::Failed(FailReason::SingularSystem), iterations: it };
        };
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..max_ls {
            for i in 0..n {
                trial[i] = r[i] + t * d[i];
            }
            let psi2 = eval(&trial, &mut u2, &mut phi2, None);
            if psi2 <= psi_ref - 2.0e-4 * t * 2.0 * psi {
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        if !accepted {
            match on_ls_failure {
                LineSearchFailure::Stop => {
                    return Outcome { status: SolveStatus::Failed(FailReason::LineSearch), iterations: it + 1 };
                }
                LineSearchFailure::FullStep => {
                    for i in 0..n {
                        trial[i] = r[i] + d[i];
                    }
                    if trial.iter().any(|x| !x.is_finite()) {
                        best.restore(r);
                        return Outcome { status: SolveStatus::Failed(FailReason::LineSearch), iterations: it + 1 };
                    }
                    best.start_or_keep(psi, r);
                }
            }
        }
        r.copy_from_slice(&trial);
        psi = eval(r, &mut u, &mut phi, Some((&mut a_blocks, &mut b_blocks)));
        best.keep(psi, r);
    }
    if stop_now(r, &u, &phi) {
        return Outcome { status: SolveStatus::Converged, iterations: max_iter };
    }
    if best.merit().is_some_and(|m| m < psi) {
        best.restore(r);
    }
    Outcome { status: SolveStatus::MaxIterations, iterations: max_iter }
}

/// The iterate of least merit `ψ`, kept from the first full step on (before it every accepted
/// step passed the line search); its buffer is allocated once and then overwritten.
#[derive(Default)]
struct Best {
    kept: Option<(f64, Vec<f64>)>,
}

impl Best {
    /// Starts keeping (with `r` of merit `psi`), or keeps `r` if it beats the kept one.
    fn start_or_keep(&mut self, psi: f64, r: &[f64]) {
        match &mut self.kept {
            None => self.kept = Some((psi, r.to_vec())),
            Some(_) => self.keep(psi, r),
        }
    }
    /// Once keeping: replaces the kept iterate by `r` if `psi` is lower.
    fn keep(&mut self, psi: f64, r: &[f64]) {
        if let Some((m, v)) = &mut self.kept {
            if psi < *m {
                *m = psi;
                v.copy_from_slice(r);
            }
        }
    }
    fn merit(&self) -> Option<f64> {
        self.kept.as_ref().map(|(m, _)| *m)
    }
    /// Copies the kept iterate back into `r` (nothing when none is kept).
    fn restore(&self, r: &mut [f64]) {
        if let Some((_, v)) = &self.kept {
            r.copy_from_slice(v);
        }
    }
}

fn newton_direction(
    p: &FrictionContact,
    lin: &mut Linear,
    a: &[Matrix3<f64>],
    b: &[Matrix3<f64>],
    nu: f64,
    phi: &[f64],
    delta: f64,
) -> Option<Vec<f64>> {
    let n = p.size();
    let nc = p.n_contacts();
    if let (Some(w), Some(lu)) = (&lin.dense, lin.dense_lu.as_mut()) {
        // J = A + B (W + ν I), row block α: B_α W[α, :] plus A_α + ν B_α on the diagonal.
        let j = &mut lin.jac;
        for al in 0..nc {
            j.rows_mut(3 * al, 3).gemm(1.0, &b[al], &w.rows(3 * al, 3), 0.0);
            let mut d = j.view_mut((3 * al, 3 * al), (3, 3));
            d += a[al] + b[al] * nu + Matrix3::identity() * delta;
        }
        let rhs = DVector::from_iterator(n, phi.iter().map(|x| -x));
        let mut d = rhs.clone();
        if !lu.factor_matrix(j) || !lu.solve(&mut d) {
            return None;
        }
        let res = (&*j * &d - &rhs).norm();
        let ok = d.iter().all(|x| x.is_finite()) && res <= 1e-6 * rhs.norm().max(1e-300);
        return ok.then(|| d.as_slice().to_vec());
    }
    if lin.sparse.is_none() {
        lin.blocks = w_blocks(p);
        let mut entries = Vec::with_capacity(9 * (lin.blocks.len() + nc));
        let diag = (0..nc).map(|al| (al, al));
        for (al, be) in lin.blocks.iter().map(|b| (b.0, b.1)).chain(diag) {
            for jj in 0..3 {
                for ii in 0..3 {
                    entries.push((3 * al + ii, 3 * be + jj));
                }
            }
        }
        // Always holds the diagonal blocks (duplicates are summed), so the pattern is fixed.
        lin.sparse = Some(SparseLu::new(n, &entries)?.supernodal());
    }
    let blocks = &lin.blocks;
    let lu = lin.sparse.as_mut()?;
    let off = blocks.iter().map(|(al, _, w)| b[*al] * w);
    let on = (0..nc).map(|al| a[al] + b[al] * nu + Matrix3::identity() * delta);
    if !lu.factorize(off.chain(on).flat_map(|m| m.data.0.into_iter().flatten())) {
        return None;
    }
    let mut rhs = faer::Mat::<f64>::from_fn(n, 1, |i, _| -phi[i]);
    if !lu.solve_in_place(rhs.as_mut()) {
        return None;
    }
    let d: Vec<f64> = (0..n).map(|i| rhs[(i, 0)]).collect();
    // faer's LU does not report a zero pivot: reject a step that does not solve the system.
    let mut res: Vec<f64> = phi.to_vec();
    lu.matvec_add(&d, &mut res);
    let rn = res.iter().map(|x| x * x).sum::<f64>().sqrt();
    let pn = phi.iter().map(|x| x * x).sum::<f64>().sqrt();
    if rn.is_nan() || rn > 1e-6 * pn.max(1e-300) {
        return None;
    }
    d.iter().all(|x| x.is_finite()).then_some(d)
}

/// The 3×3 blocks `(α, β, W_αβ)` of `W` (every block of a dense `W`), row block by row block.
fn w_blocks(p: &FrictionContact) -> Vec<(usize, usize, Matrix3<f64>)> {
    let nc = p.n_contacts();
    let mut out = Vec::new();
    match p.w() {
        Operator::BlockCsr(w) => {
            for al in 0..nc {
                for k in w.row_blocks(al) {
                    out.push((al, w.block_col(k), Matrix3::from_column_slice(w.block_values(k))));
                }
            }
        }
        Operator::Dense(w) => {
            for al in 0..nc {
                for be in 0..nc {
                    out.push((al, be, w.fixed_view::<3, 3>(3 * al, 3 * be).into_owned()));
                }
            }
        }
    }
    out
}

/// Global Newton–Alart–Curnier solver on the original problem.
pub fn solve(p: &FrictionContact, r: &mut [f64], u: &mut [f64], opts: &NewtonOptions) -> Result<SolveReport> {
    opts.validate()?;
    let start = Instant::now();
    if !opts.warm_start {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    let center = vec![0.0; p.size()];
    let out = newton_core(
        p,
        r,
        0.0,
        &center,
        opts.iter.max_iter,
        opts.max_line_search,
        LineSearchFailure::FullStep,
        Stop::Canonical(opts.iter.tol),
        &mut Linear::new(p, opts.factorization, opts.sparse_threshold, opts.sparse_max_density),
    );
    if r.iter().any(|x| !x.is_finite()) {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    compute_u(p, r, u);
    let residual = fc_error_with_u(p, r, u);
    Ok(SolveReport { status: out.status, iterations: out.iterations, residual, elapsed: start.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use JacobianFactorization::{Auto, Dense, Sparse};

    #[test]
    fn auto_chooses_by_size_and_block_density() {
        // 40 contacts, 120 unknowns, block-tridiagonal: 118 of 1600 blocks stored (7.4 %).
        let p = crate::fc::generate::sphere_column(40, 7).expect("generated problem");
        let sparse = |how, threshold, density| Linear::new(&p, how, threshold, density).dense.is_none();
        assert!(!sparse(Auto, 300, 0.0));
        assert!(sparse(Auto, 119, 0.0));
        assert!(!sparse(Auto, 120, 0.0));
        assert!(sparse(Auto, 300, 0.075));
        assert!(!sparse(Auto, 300, 0.073));
        assert!(sparse(Sparse, 300, 0.0));
        assert!(!sparse(Dense, 0, 1.0));
        // Below DENSITY_RULE_MIN_SIZE unknowns the density is not looked at.
        let small = crate::fc::generate::sphere_column(10, 7).expect("generated problem");
        assert!(Linear::new(&small, Auto, 300, 1.0).dense.is_some());
        assert!(Linear::new(&small, Auto, 29, 0.0).dense.is_none());
        // A dense W stays dense under Auto whatever its size.
        let (w, q, mu) = p.clone().into_parts();
        let pd = FrictionContact::new(3, Operator::Dense(w.to_dense()), q, mu).expect("same problem, dense W");
        assert!(Linear::new(&pd, Auto, 0, 1.0).dense.is_some());
    }
}
