//! Variable-step, variable-order Nordsieck Adams/BDF stepping (the DSTODA part of LSODA, our
//! own code from the published algorithm): prediction by the Pascal matrix and exact
//! retraction, functional iteration (Adams) or modified Newton (BDF) correction, local error
//! test, step/order selection with LSODA's hold and ratio rules.

use super::coeffs::{self, MethodCoeffs, ADAMS_STAB};
use super::dense::DenseOutput;
use super::error::OdeError;
use super::history::History;
use super::newton::{Newton, SetupFail};
use super::options::{ErrorNorm, OdeMethod, OdeOptions, Tolerance};
use super::stats::OdeStats;
use super::system::{OdeSystem, UserFnError};
use super::weights::{fill_ewt, rel_tol, wnorm, UROUND};

/// The method family in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Adams–Moulton, functional iteration.
    Adams,
    /// BDF, modified Newton.
    Bdf,
}

/// Outcome of the corrector.
pub(super) enum CorrFail {
    /// Did not converge (or a recoverable RHS failure / non-finite value): reduce h.
    Retry,
    /// Fatal user error.
    Fatal(&'static str, f64, UserFnError),
}

/// Nordsieck history and step/order control.
#[derive(Debug)]
pub struct Nordsieck {
    pub(crate) n: usize,
    /// Columns `z_j = h^j y^(j) / j!`, j = 0..=12 (contiguous).
    pub(crate) zn: History,
    /// Time of `zn`.
    pub(crate) t: f64,
    /// Step size for the next step.
    pub(crate) h: f64,
    /// Current order.
    pub(crate) q: usize,
    pub(crate) family: Family,
    pub(super) mode: OdeMethod,
    pub(super) adams: MethodCoeffs,
    pub(super) bdf: MethodCoeffs,
    pub(super) el: [f64; 13],
    pub(super) tq: [f64; 3],
    pub(super) maxord_adams: usize,
    pub(super) maxord_bdf: usize,
    pub(super) tol: Tolerance,
    pub(super) norm: ErrorNorm,
    pub(super) hmin: f64,
    pub(super) hmax: f64,
    pub(crate) ewt: Vec<f64>,
    pub(super) acor: Vec<f64>,
    /// `acor` of the step before an order-increase test (valid if `acor_saved_valid`).
    pub(super) acor_saved: Vec<f64>,
    pub(super) acor_saved_valid: bool,
    pub(super) y: Vec<f64>,
    pub(super) savf: Vec<f64>,
    pub(super) tmp: Vec<f64>,
    pub(super) proj_delta: Vec<f64>,
    pub(super) projected: bool,
    pub(crate) ialth: usize,
    pub(super) rmax: f64,
    pub(super) crate_: f64,
    /// Last nonzero Lipschitz estimate from functional iteration.
    pub(crate) pdlast: f64,
    pub(super) pdest: f64,
    /// The last rescale was limited by the Adams stability cap.
    pub(crate) irflag: bool,
    /// Steps until the next switch test.
    pub(crate) icount: i64,
    pub(crate) newton: Newton,
    /// Time of the last method switch.
    pub(crate) tsw: f64,
    /// Dense output of the last accepted step.
    pub(crate) dense: DenseOutput,
    pub(super) first_step: bool,
}

impl Nordsieck {
    /// Workspace for `n` states with the given options (method must be Lsoda, Adams or Bdf).
    pub fn new(n: usize, opts: &OdeOptions) -> Self {
        let family = if opts.method == OdeMethod::Bdf { Family::Bdf } else { Family::Adams };
        let mut s = Nordsieck {
            n,
            zn: History::new(n),
            t: 0.0,
            h: 0.0,
            q: 1,
            family,
            mode: opts.method,
            adams: coeffs::adams(),
            bdf: coeffs::bdf(),
            el: [0.0; 13],
            tq: [0.0; 3],
            maxord_adams: opts.max_order_adams,
            maxord_bdf: opts.max_order_bdf,
            tol: opts.tolerance.clone(),
            norm: opts.norm,
            hmin: opts.hmin,
            hmax: opts.hmax,
            ewt: vec![1.0; n],
            acor: vec![0.0; n],
            acor_saved: vec![0.0; n],
            acor_saved_valid: false,
            y: vec![0.0; n],
            savf: vec![0.0; n],
            tmp: vec![0.0; n],
            proj_delta: vec![0.0; n],
            projected: false,
            ialth: 2,
            rmax: 1e4,
            crate_: 0.7,
            pdlast: 0.0,
            pdest: 0.0,
            irflag: false,
            icount: 20,
            newton: Newton::new(n, opts.jacobian.clone()),
            tsw: 0.0,
            dense: DenseOutput::default(),
            first_step: true,
        };
        s.set_coeffs();
        s
    }

    pub(super) fn maxord(&self) -> usize {
        match self.family {
            Family::Adams => self.maxord_adams,
            Family::Bdf => self.maxord_bdf,
        }
    }

    fn coeffs(&self) -> &MethodCoeffs {
        match self.family {
            Family::Adams => &self.adams,
            Family::Bdf => &self.bdf,
        }
    }

    pub(crate) fn set_coeffs(&mut self) {
        let (l, tq) = {
            let c = self.coeffs();
            (c.l[self.q], c.tq[self.q])
        };
        self.el = l;
        self.tq = tq;
    }

    pub(crate) fn wnorm(&self, v: &[f64]) -> f64 {
        wnorm(self.norm, v, &self.ewt)
    }

    /// Starts (or restarts) at `(t0, y0)` heading towards `tout`: order 1, initial step from
    /// LSODA's formula `h0 = 1/sqrt(1/(tol w0²) + tol ‖f0‖²)` unless given.
    pub fn init<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t0: f64,
        y0: &[f64],
        tout: f64,
        h0: Option<f64>,
        stats: &mut OdeStats,
    ) -> Result<(), OdeError> {
        self.t = t0;
        self.zn.col_mut(0).copy_from_slice(y0);
        stats.rhs_evals += 1;
        sys.rhs(t0, y0, &mut self.savf).map_err(|e| OdeError::UserFn {
            what: "rhs",
            t: t0,
            source: e,
            stats: Box::new(*stats),
        })?;
        if self.savf.iter().any(|x| !x.is_finite()) {
            return Err(OdeError::NonFinite { what: "rhs at the initial point", t: t0, stats: Box::new(*stats) });
        }
        if !fill_ewt(&self.tol, y0, &mut self.ewt) {
            return Err(OdeError::Invalid(crate::NumericsError::InvalidOption {
                option: "tolerance",
                reason: format!("non-positive error weight at t = {t0}"),
            }));
        }
        let tdist = (tout - t0).abs();
        let dir = if tout >= t0 { 1.0 } else { -1.0 };
        let mut h = match h0 {
            Some(h) => h.abs(),
            None => {
                // independent of the report time: w0 from t0 and the unit time scale
                let w0 = t0.abs().max(1.0);
                let tol = rel_tol(&self.tol).clamp(100.0 * UROUND, 1e-3);
                let fnorm = self.wnorm(&self.savf);
                let sum = 1.0 / (tol * w0 * w0).max(f64::MIN_POSITIVE) + tol * fnorm * fnorm;
                1.0 / sum.sqrt()
            }
        };
        h = h.min(self.hmax).max(self.hmin);
        if !(h > 0.0 && h.is_finite()) {
            h = (tdist * 1e-6).max(1e-12 * (1.0 + t0.abs()));
        }
        self.h = dir * h;
        let h = self.h;
        for (z, f) in self.zn.col_mut(1).iter_mut().zip(&self.savf) {
            *z = h * f;
        }
        self.q = 1;
        self.family = if self.mode == OdeMethod::Bdf { Family::Bdf } else { Family::Adams };
        self.set_coeffs();
        self.ialth = 2;
        self.rmax = 1e4;
        self.crate_ = 0.7;
        self.pdlast = 0.0;
        self.pdest = 0.0;
        self.irflag = false;
        self.icount = 20;
        self.acor_saved_valid = false;
        self.newton.need_jac = true;
        self.first_step = true;
        self.dense.set_nordsieck(t0, 0.0, self.n, y0);
        Ok(())
    }

    /// Pascal-matrix prediction `z ← A z` (all columns up to q).
    pub(super) fn predict(&mut self) {
        self.zn.predict(self.q);
    }

    /// Exact undo of [`Self::predict`].
    pub(super) fn retract(&mut self) {
        self.zn.retract(self.q);
    }

    /// Changes h by the ratio `rh` (columns j scaled by rh^j), after applying `rmax`, `hmax` and,
    /// for Adams, the stability cap `|h| pdlast ≤ SM1(q)`.
    pub(crate) fn rescale(&mut self, rh: f64) {
        let mut rh = rh.min(self.rmax);
        rh /= (self.h.abs() * rh / self.hmax).max(1.0);
        self.irflag = false;
        if self.family == Family::Adams && self.pdlast > 0.0 {
            let pdh = (self.h.abs() * self.pdlast).max(1e-6);
            if rh * pdh * 1.00001 >= ADAMS_STAB[self.q] {
                rh = ADAMS_STAB[self.q] / pdh;
                self.irflag = true;
            }
        }
        self.scale_history(rh);
    }

    /// Unconditional history rescale by `rh`.
    pub(crate) fn scale_history(&mut self, rh: f64) {
        self.zn.scale(self.q, rh);
        self.h *= rh;
    }

    pub(super) fn call_rhs<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        stats: &mut OdeStats,
    ) -> Result<(), CorrFail> {
        stats.rhs_evals += 1;
        match sys.rhs(t, &self.y, &mut self.savf) {
            Ok(()) if self.savf.iter().all(|x| x.is_finite()) => Ok(()),
            Ok(()) => Err(CorrFail::Retry),
            Err(UserFnError::Fatal(m)) => Err(CorrFail::Fatal("rhs", t, UserFnError::Fatal(m))),
            Err(_) => Err(CorrFail::Retry),
        }
    }

    /// Corrector at `self.t` (already advanced) from the predicted history. Returns `‖acor‖`.
    pub(super) fn correct<S: OdeSystem + ?Sized>(&mut self, sys: &S, stats: &mut OdeStats) -> Result<f64, CorrFail> {
        let t = self.t;
        let h = self.h;
        let hl0 = h * self.el[0];
        let el0 = self.el[0];
        self.y.copy_from_slice(self.zn.col(0));
        self.call_rhs(sys, t, stats)?;
        if self.family == Family::Bdf {
            match self.newton.prepare(sys, t, &self.y, &self.savf, hl0, h, &self.ewt, stats) {
                Ok(()) => {}
                Err(SetupFail::Recoverable) => return Err(CorrFail::Retry),
                Err(SetupFail::Fatal(w, e)) => return Err(CorrFail::Fatal(w, t, e)),
            }
            if self.newton.jac_current {
                self.crate_ = 0.7;
            }
        }
        self.acor.fill(0.0);
        let pnorm = self.wnorm(self.zn.col(0));
        // Adams: a second iteration is always made, so that the ratio of successive corrections
        // estimates the Lipschitz constant (stiffness detection, stability cap). Skipping it on
        // most steps was measured: fewer RHS calls per step but more steps (PEC instead of
        // PECE) and lower accuracy per RHS call, so LSODA's choice is kept.
        let force_second = self.family == Family::Adams;
        let mut rate_max = 0.0f64;
        let mut roundoff_rate = false;
        self.pdest = 0.0;
        let conit = 0.5 / (self.q + 2) as f64;
        let mut delp = 0.0;
        let mut m = 0;
        loop {
            let del;
            match self.family {
                Family::Adams => {
                    let (z0, z1) = (self.zn.col(0), self.zn.col(1));
                    for i in 0..self.n {
                        let s = h * self.savf[i] - z1[i];
                        self.tmp[i] = s - self.acor[i];
                        self.y[i] = z0[i] + el0 * s;
                        self.acor[i] = s;
                    }
                    del = wnorm(self.norm, &self.tmp, &self.ewt);
                }
                Family::Bdf => {
                    let z1 = self.zn.col(1);
                    for i in 0..self.n {
                        self.tmp[i] = h * self.savf[i] - (z1[i] + self.acor[i]);
                    }
                    if !self.newton.solve(&mut self.tmp, hl0) {
                        return Err(CorrFail::Retry);
                    }
                    del = wnorm(self.norm, &self.tmp, &self.ewt);
                    let z0 = self.zn.col(0);
                    for i in 0..self.n {
                        self.acor[i] += self.tmp[i];
                        self.y[i] = z0[i] + el0 * self.acor[i];
                    }
                }
            }
            if !del.is_finite() {
                return Err(CorrFail::Retry);
            }
            // correction at roundoff level: converged (Adams still makes its second iteration,
            // otherwise the Lipschitz estimate, and with it the stability cap, goes stale)
            if del <= 100.0 * pnorm * UROUND && !(m == 0 && force_second) {
                if self.family == Family::Adams {
                    self.update_lipschitz(rate_max, true, hl0);
                }
                return Ok(if m == 0 { del } else { wnorm(self.norm, &self.acor, &self.ewt) });
            }
            if m > 0 {
                let rate = if del <= 1024.0 * delp { del / delp } else { 1024.0 };
                // a ratio of corrections at roundoff level says nothing about stiffness
                if delp > 1000.0 * pnorm * UROUND {
                    rate_max = rate_max.max(rate);
                } else {
                    roundoff_rate = true;
                }
                self.crate_ = (0.2 * self.crate_).max(rate);
            }
            let dcon = del * (1.5 * self.crate_).min(1.0) / (self.tq[1] * conit);
            if dcon <= 1.0 && !(m == 0 && force_second) {
                if self.family == Family::Adams {
                    self.update_lipschitz(rate_max, roundoff_rate, hl0);
                }
                return Ok(if m == 0 { del } else { wnorm(self.norm, &self.acor, &self.ewt) });
            }
            m += 1;
            if m == 3 || (m >= 2 && del > 2.0 * delp) {
                return Err(CorrFail::Retry);
            }
            delp = del;
            self.call_rhs(sys, t, stats)?;
        }
    }

    /// Lipschitz estimate `pdest = rate / |h l0|` from the Adams corrections of this step.
    fn update_lipschitz(&mut self, rate_max: f64, roundoff: bool, hl0: f64) {
        self.pdest = self.pdest.max(rate_max / hl0.abs());
        if self.pdest != 0.0 {
            self.pdlast = self.pdest;
        } else if roundoff {
            // no usable estimate: relax the stability cap gradually instead of keeping a stale
            // one (which can pin h at a tiny value)
            self.pdlast *= 0.5;
        }
    }

    pub(crate) fn adams_cm(&self, q: usize) -> f64 {
        self.adams.cm[q]
    }

    pub(crate) fn bdf_cm(&self, q: usize) -> f64 {
        self.bdf.cm[q]
    }

    pub(crate) fn bdf_maxord(&self) -> usize {
        self.maxord_bdf
    }

    pub(crate) fn pdest_reset(&mut self) {
        self.pdest = 0.0;
    }

    pub(crate) fn pdest_last(&self) -> f64 {
        self.pdest
    }

    pub(crate) fn hmin_ratio(&self) -> f64 {
        if self.h == 0.0 {
            0.0
        } else {
            self.hmin / self.h.abs()
        }
    }

    pub(crate) fn reset_order_memory(&mut self) {
        self.acor_saved_valid = false;
    }

    /// The method used for the last step.
    pub fn family(&self) -> Family {
        self.family
    }
}
