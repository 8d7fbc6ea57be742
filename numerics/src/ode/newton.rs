//! The iteration matrix `P = I − h l0 J` of the BDF modified Newton corrector: Jacobian
//! evaluation (analytic, dense, banded or grouped sparse finite differences), LU factorization
//! (dense: nalgebra, or faer from 64 states, see [`super::dense_lu`]; banded; faer sparse), and
//! the reuse policy (new J every 20 steps or after a convergence failure with a stale J;
//! refactorization only when `h l0` changed by more than 30 %).

use nalgebra::{DMatrix, DVector};

use super::band::BandMatrix;
use super::dense_lu::DenseLu;
use super::options::JacobianKind;
use super::sparse::SparseNewton;
use super::stats::OdeStats;
use super::system::{OdeSystem, UserFnError};
use super::weights::UROUND;

/// Steps between forced Jacobian re-evaluations (ODEPACK's MSBP).
const MSBP: u64 = 20;
/// Relative change of `h l0` that forces a refactorization (CCMAX).
const CCMAX: f64 = 0.3;

/// Why setting up or solving with `P` failed.
#[derive(Debug)]
pub enum SetupFail {
    /// Recoverable (singular P, non-finite Jacobian, recoverable user error): reduce h.
    Recoverable,
    /// A fatal user error.
    Fatal(&'static str, UserFnError),
}

/// Jacobian, factorization and reuse state.
#[derive(Debug)]
pub struct Newton {
    kind: JacobianKind,
    /// Dense Jacobian (empty for banded storage).
    jac: DMatrix<f64>,
    lu: DenseLu,
    /// Banded storage: Jacobian, factored `P`, pivots.
    band: Option<(BandMatrix, BandMatrix, Option<Vec<usize>>)>,
    /// General sparse storage.
    sparse: Option<Box<SparseNewton>>,
    hl0_lu: f64,
    /// A new Jacobian is required before the next solve.
    pub need_jac: bool,
    /// The Jacobian was evaluated during the current step attempt.
    pub jac_current: bool,
    nst_jac: u64,
    /// Weighted norm of J (for the BDF → Adams switch), `max_i Σ_j |J_ij| ewt_j / ewt_i`.
    pub pdnorm: f64,
    ftem: Vec<f64>,
    ytmp: Vec<f64>,
    rhs: DVector<f64>,
}

impl Newton {
    /// Workspace for `n` states.
    pub fn new(n: usize, kind: JacobianKind) -> Self {
        let dense_n = if matches!(kind, JacobianKind::Banded { .. } | JacobianKind::Sparse(_)) { 0 } else { n };
        Newton {
            jac: DMatrix::zeros(dense_n, dense_n),
            lu: DenseLu::new(dense_n),
            band: match kind {
                JacobianKind::Banded { ml, mu } => {
                    Some((BandMatrix::zeros(n, ml, mu), BandMatrix::zeros(n, ml, mu), None))
                }
                _ => None,
            },
            sparse: match &kind {
                JacobianKind::Sparse(p) => Some(Box::new(SparseNewton::new(p.clone()))),
                _ => None,
            },
            kind,
            hl0_lu: 0.0,
            need_jac: true,
            jac_current: false,
            nst_jac: 0,
            pdnorm: 0.0,
            ftem: vec![0.0; n],
            ytmp: vec![0.0; n],
            rhs: DVector::zeros(n),
        }
    }

    /// Ratio `h l0 / (h l0 at the last factorization)`, 1 if none.
    pub fn gamma_ratio(&self, hl0: f64) -> f64 {
        if self.hl0_lu == 0.0 {
            1.0
        } else {
            hl0 / self.hl0_lu
        }
    }

    /// Makes `P = I − hl0 J(t, y)` current. `f0 = f(t, y)` is already evaluated.
    #[allow(clippy::too_many_arguments)]
    pub fn prepare<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        f0: &[f64],
        hl0: f64,
        h: f64,
        ewt: &[f64],
        stats: &mut OdeStats,
    ) -> Result<(), SetupFail> {
        self.jac_current = false;
        let factored = match (&self.band, &self.sparse) {
            (Some((_, _, piv)), _) => piv.is_some(),
            (_, Some(sp)) => sp.factored,
            _ => self.lu.is_factored(),
        };
        let mut refactor = !factored || (self.gamma_ratio(hl0) - 1.0).abs() > CCMAX;
        if self.need_jac || stats.steps >= self.nst_jac + MSBP {
            self.eval_jac(sys, t, y, f0, h, ewt, stats)?;
            self.need_jac = false;
            self.jac_current = true;
            self.nst_jac = stats.steps;
            refactor = true;
        }
        if refactor {
            if let Some(sp) = &mut self.sparse {
                stats.lu_decomps += 1;
                if !sp.factor(hl0) {
                    self.need_jac = true;
                    return Err(SetupFail::Recoverable);
                }
                self.hl0_lu = hl0;
                return Ok(());
            }
            if let Some((jac, p, piv)) = &mut self.band {
                jac.identity_minus(hl0, p);
                stats.lu_decomps += 1;
                *piv = p.factor();
                if piv.is_none() {
                    self.need_jac = true;
                    return Err(SetupFail::Recoverable);
                }
                self.hl0_lu = hl0;
                return Ok(());
            }
            stats.lu_decomps += 1;
            if !self.lu.factor(&self.jac, hl0) {
                self.need_jac = true;
                return Err(SetupFail::Recoverable);
            }
            self.hl0_lu = hl0;
        }
        Ok(())
    }

    /// Solves `P x = r` in place, scaled by `2 / (1 + γ/γ_lu)` to compensate a stale `h l0`.
    pub fn solve(&mut self, r: &mut [f64], hl0: f64) -> bool {
        if let Some(sp) = &mut self.sparse {
            self.rhs.as_mut_slice().copy_from_slice(r);
            if !sp.solve(self.rhs.as_mut_slice()) {
                return false;
            }
        } else if let Some((_, p, piv)) = &self.band {
            let Some(piv) = piv else { return false };
            self.rhs.as_mut_slice().copy_from_slice(r);
            p.solve(piv, self.rhs.as_mut_slice());
        } else {
            if !self.lu.is_factored() {
                return false;
            }
            self.rhs.as_mut_slice().copy_from_slice(r);
            if !self.lu.solve(&mut self.rhs) {
                return false;
            }
        }
        let g = self.gamma_ratio(hl0);
        let scale = if (g - 1.0).abs() > 1e-12 { 2.0 / (1.0 + g) } else { 1.0 };
        for (x, v) in r.iter_mut().zip(self.rhs.iter()) {
            *x = v * scale;
        }
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn eval_jac<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        f0: &[f64],
        h: f64,
        ewt: &[f64],
        stats: &mut OdeStats,
    ) -> Result<(), SetupFail> {
        let n = y.len();
        stats.jac_evals += 1;
        let analytic = matches!(self.kind, JacobianKind::Auto) && sys.has_jacobian();
        if let Some(sp) = self.sparse.as_mut().filter(|_| sys.has_sparse_jacobian()) {
            sp.jac.fill(0.0);
            match sys.sparse_jacobian(t, y, &mut sp.jac) {
                Ok(()) => {}
                Err(UserFnError::Fatal(m)) => return Err(SetupFail::Fatal("jacobian", UserFnError::Fatal(m))),
                Err(_) => return Err(SetupFail::Recoverable),
            }
            self.pdnorm = sp.weighted_norm(ewt).ok_or(SetupFail::Recoverable)?;
            return Ok(());
        }
        if analytic {
            self.jac.fill(0.0);
            match sys.jacobian(t, y, &mut self.jac) {
                Ok(()) => {}
                Err(UserFnError::Fatal(m)) => return Err(SetupFail::Fatal("jacobian", UserFnError::Fatal(m))),
                Err(_) => return Err(SetupFail::Recoverable),
            }
        } else {
            // increment of column j: max(sqrt(uround) |y_j|, r0 ewt_j),
            // r0 = 1000 |h| uround n ‖f0‖ (1 if that is 0)
            let fnorm = f0.iter().zip(ewt).fold(0.0f64, |m, (f, w)| m.max((f / w).abs()));
            let mut r0 = 1000.0 * h.abs() * UROUND * n as f64 * fnorm;
            if r0 == 0.0 || !r0.is_finite() {
                r0 = 1.0;
            }
            let srur = UROUND.sqrt();
            let incr = |j: usize| {
                let d = (srur * y[j].abs()).max(r0 * ewt[j]);
                if d.is_finite() && d > 0.0 {
                    d
                } else {
                    srur.max(srur * y[j].abs())
                }
            };
            self.ytmp.copy_from_slice(y);
            match self.kind {
                JacobianKind::Sparse(_) => {
                    let mut sp = self.sparse.take().expect("sparse storage");
                    let res = self.sparse_fd(&mut sp, sys, t, y, f0, &incr, stats);
                    self.ytmp.copy_from_slice(y);
                    let norm = res.and_then(|()| sp.weighted_norm(ewt).ok_or(SetupFail::Recoverable));
                    self.sparse = Some(sp);
                    self.pdnorm = norm?;
                    return Ok(());
                }
                JacobianKind::Banded { ml, mu } => {
                    let width = ml + mu + 1;
                    let mut band = self.band.take().expect("banded storage");
                    band.0.fill_zero();
                    for g in 0..width.min(n) {
                        for j in (g..n).step_by(width) {
                            self.ytmp[j] = y[j] + incr(j);
                        }
                        stats.jac_rhs_evals += 1;
                        if let Err(e) = self.call_rhs(sys, t, stats) {
                            self.ytmp.copy_from_slice(y);
                            self.band = Some(band);
                            return Err(e);
                        }
                        for j in (g..n).step_by(width) {
                            let d = self.ytmp[j] - y[j];
                            self.ytmp[j] = y[j];
                            let lo = j.saturating_sub(mu);
                            let hi = (j + ml).min(n - 1);
                            for i in lo..=hi {
                                band.0.set(i, j, (self.ftem[i] - f0[i]) / d);
                            }
                        }
                    }
                    let mut pd = 0.0f64;
                    let mut finite = true;
                    for i in 0..n {
                        let mut row = 0.0;
                        for j in band.0.row_cols(i) {
                            let v = band.0.get(i, j);
                            finite &= v.is_finite();
                            row += v.abs() * ewt[j];
                        }
                        pd = pd.max(row / ewt[i]);
                    }
                    self.band = Some(band);
                    if !finite {
                        return Err(SetupFail::Recoverable);
                    }
                    self.pdnorm = pd;
                    return Ok(());
                }
                _ => {
                    for j in 0..n {
                        self.ytmp[j] = y[j] + incr(j);
                        let d = self.ytmp[j] - y[j];
                        stats.jac_rhs_evals += 1;
                        self.call_rhs(sys, t, stats)?;
                        self.ytmp[j] = y[j];
                        for i in 0..n {
                            self.jac[(i, j)] = (self.ftem[i] - f0[i]) / d;
                        }
                    }
                }
            }
        }
        if self.jac.iter().any(|x| !x.is_finite()) {
            return Err(SetupFail::Recoverable);
        }
        let mut pd = 0.0f64;
        for i in 0..n {
            let row: f64 = (0..n).map(|j| self.jac[(i, j)].abs() * ewt[j]).sum();
            pd = pd.max(row / ewt[i]);
        }
        self.pdnorm = pd;
        Ok(())
    }

    /// Grouped finite differences: for each colour, perturb all its columns, one RHS call,
    /// `J_ij = (f_i(y + Σ d_k e_k) − f_i(y)) / d_j` for the rows `i` of each column `j`.
    #[allow(clippy::too_many_arguments)]
    fn sparse_fd<S: OdeSystem + ?Sized>(
        &mut self,
        sp: &mut SparseNewton,
        sys: &S,
        t: f64,
        y: &[f64],
        f0: &[f64],
        incr: &dyn Fn(usize) -> f64,
        stats: &mut OdeStats,
    ) -> Result<(), SetupFail> {
        let pat = sp.pattern.clone();
        for c in 0..sp.n_colours() {
            for &j in sp.group(c) {
                self.ytmp[j] = y[j] + incr(j);
            }
            self.call_rhs(sys, t, stats)?;
            stats.jac_rhs_evals += 1;
            for gi in sp.gptr[c]..sp.gptr[c + 1] {
                let j = sp.groups[gi];
                let d = self.ytmp[j] - y[j];
                self.ytmp[j] = y[j];
                for k in pat.col_ptr()[j]..pat.col_ptr()[j + 1] {
                    let i = pat.row_idx()[k];
                    sp.jac[k] = (self.ftem[i] - f0[i]) / d;
                }
            }
        }
        Ok(())
    }

    fn call_rhs<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, stats: &mut OdeStats) -> Result<(), SetupFail> {
        stats.rhs_evals += 1;
        match sys.rhs(t, &self.ytmp, &mut self.ftem) {
            Ok(()) => Ok(()),
            Err(UserFnError::Fatal(m)) => Err(SetupFail::Fatal("rhs", UserFnError::Fatal(m))),
            Err(_) => Err(SetupFail::Recoverable),
        }
    }
}
