//! Explicit Dormand–Prince 5(4) with FSAL, Hairer's step-size controller (with a small PI
//! term) and the quartic continuous extension (Hairer, Nørsett & Wanner, *Solving ODEs I*,
//! §II.5–6; our own code).

use super::dense::{DenseKind, DenseOutput};
use super::error::OdeError;
use super::options::{ErrorNorm, OdeOptions, Tolerance};
use super::stats::OdeStats;
use super::system::{OdeSystem, UserFnError};
use super::weights::{fill_ewt, rel_tol, wnorm};

const C2: f64 = 1.0 / 5.0;
const C3: f64 = 3.0 / 10.0;
const C4: f64 = 4.0 / 5.0;
const C5: f64 = 8.0 / 9.0;
const A21: f64 = 1.0 / 5.0;
const A31: f64 = 3.0 / 40.0;
const A32: f64 = 9.0 / 40.0;
const A41: f64 = 44.0 / 45.0;
const A42: f64 = -56.0 / 15.0;
const A43: f64 = 32.0 / 9.0;
const A51: f64 = 19372.0 / 6561.0;
const A52: f64 = -25360.0 / 2187.0;
const A53: f64 = 64448.0 / 6561.0;
const A54: f64 = -212.0 / 729.0;
const A61: f64 = 9017.0 / 3168.0;
const A62: f64 = -355.0 / 33.0;
const A63: f64 = 46732.0 / 5247.0;
const A64: f64 = 49.0 / 176.0;
const A65: f64 = -5103.0 / 18656.0;
const A71: f64 = 35.0 / 384.0;
const A73: f64 = 500.0 / 1113.0;
const A74: f64 = 125.0 / 192.0;
const A75: f64 = -2187.0 / 6784.0;
const A76: f64 = 11.0 / 84.0;
const E1: f64 = 71.0 / 57600.0;
const E3: f64 = -71.0 / 16695.0;
const E4: f64 = 71.0 / 1920.0;
const E5: f64 = -17253.0 / 339200.0;
const E6: f64 = 22.0 / 525.0;
const E7: f64 = -1.0 / 40.0;
const D1: f64 = -12715105075.0 / 11282082432.0;
const D3: f64 = 87487479700.0 / 32700410799.0;
const D4: f64 = -10690763975.0 / 1880347072.0;
const D5: f64 = 701980252875.0 / 199316789632.0;
const D6: f64 = -1453857185.0 / 822651844.0;
const D7: f64 = 69997945.0 / 29380423.0;

/// Dormand–Prince state.
#[derive(Debug)]
pub struct Dopri5 {
    n: usize,
    pub(crate) t: f64,
    pub(crate) y: Vec<f64>,
    h: f64,
    k: [Vec<f64>; 7],
    ytmp: Vec<f64>,
    y1: Vec<f64>,
    err: Vec<f64>,
    ewt: Vec<f64>,
    tol: Tolerance,
    norm: ErrorNorm,
    hmax: f64,
    hmin: f64,
    facold: f64,
    last_rejected: bool,
    pub(crate) dense: DenseOutput,
}

impl Dopri5 {
    /// Workspace for `n` states.
    pub fn new(n: usize, opts: &OdeOptions) -> Self {
        Dopri5 {
            n,
            t: 0.0,
            y: vec![0.0; n],
            h: 0.0,
            k: std::array::from_fn(|_| vec![0.0; n]),
            ytmp: vec![0.0; n],
            y1: vec![0.0; n],
            err: vec![0.0; n],
            ewt: vec![1.0; n],
            tol: opts.tolerance.clone(),
            norm: opts.norm,
            hmax: opts.hmax,
            hmin: opts.hmin,
            facold: 1e-4,
            last_rejected: false,
            dense: DenseOutput::default(),
        }
    }

    fn rhs<S: OdeSystem + ?Sized>(
        sys: &S,
        t: f64,
        y: &[f64],
        out: &mut [f64],
        stats: &mut OdeStats,
    ) -> Result<bool, OdeError> {
        stats.rhs_evals += 1;
        match sys.rhs(t, y, out) {
            Ok(()) => Ok(out.iter().all(|x| x.is_finite())),
            Err(UserFnError::Fatal(m)) => {
                Err(OdeError::UserFn { what: "rhs", t, source: UserFnError::Fatal(m), stats: Box::new(*stats) })
            }
            Err(_) => Ok(false),
        }
    }

    /// Starts at `(t0, y0)` heading to `tout`, with Hairer's initial-step estimate.
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
        self.y.copy_from_slice(y0);
        if !Self::rhs(sys, t0, y0, &mut self.k[0], stats)? {
            return Err(OdeError::NonFinite { what: "rhs at the initial point", t: t0, stats: Box::new(*stats) });
        }
        if !fill_ewt(&self.tol, y0, &mut self.ewt) {
            return Err(OdeError::Invalid(crate::NumericsError::InvalidOption {
                option: "tolerance",
                reason: format!("non-positive error weight at t = {t0}"),
            }));
        }
        let dir = if tout >= t0 { 1.0 } else { -1.0 };
        let h = if let Some(h) = h0 {
            h.abs()
        } else {
            let d0 = wnorm(ErrorNorm::Rms, y0, &self.ewt);
            let d1 = wnorm(ErrorNorm::Rms, &self.k[0], &self.ewt);
            let mut h0 = if d0 < 1e-5 || d1 < 1e-5 { 1e-6 } else { 0.01 * d0 / d1 };
            h0 = h0.min(self.hmax).min((tout - t0).abs().max(1e-300));
            for i in 0..self.n {
                self.ytmp[i] = y0[i] + dir * h0 * self.k[0][i];
            }
            let (k0, rest) = self.k.split_at_mut(1);
            if !Self::rhs(sys, t0 + dir * h0, &self.ytmp, &mut rest[0], stats)? {
                h0
            } else {
                for i in 0..self.n {
                    self.err[i] = (rest[0][i] - k0[0][i]) / h0;
                }
                let d2 = wnorm(ErrorNorm::Rms, &self.err, &self.ewt);
                let m = d1.max(d2);
                let h1 = if m <= 1e-15 { (h0 * 1e-3).max(1e-6) } else { (0.01 / m).powf(0.2) };
                (100.0 * h0).min(h1)
            }
        };
        let _ = rel_tol(&self.tol);
        self.h = dir * h.min(self.hmax).max(self.hmin.max(f64::MIN_POSITIVE));
        self.facold = 1e-4;
        self.last_rejected = false;
        self.dense = DenseOutput { t: t0, h: 0.0, kind: DenseKind::Linear(y0.to_vec(), y0.to_vec()) };
        Ok(())
    }

    /// One accepted step, not past `tstop`.
    pub fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        tstop: Option<f64>,
        stats: &mut OdeStats,
    ) -> Result<(), OdeError> {
        let n = self.n;
        let mut nfail = 0u32;
        loop {
            let mut h = self.h;
            if let Some(ts) = tstop {
                if (self.t + h - ts) * h > 0.0 && ts != self.t {
                    h = ts - self.t;
                }
            }
            let t = self.t;
            if t + h == t {
                return Err(OdeError::StepSizeTooSmall { t, h, stats: Box::new(*stats) });
            }
            let y = &self.y;
            let k = &mut self.k;
            let yt = &mut self.ytmp;
            let mut ok = true;
            macro_rules! stage {
                ($dst:expr, $c:expr, $($a:expr => $ki:expr),+) => {
                    if ok {
                        for i in 0..n { yt[i] = y[i] + h * (0.0 $(+ $a * k[$ki][i])+); }
                        let (lo, hi) = k.split_at_mut($dst);
                        let _ = &lo;
                        ok = Self::rhs(sys, t + $c * h, yt, &mut hi[0], stats)?;
                    }
                };
            }
            stage!(1, C2, A21 => 0);
            stage!(2, C3, A31 => 0, A32 => 1);
            stage!(3, C4, A41 => 0, A42 => 1, A43 => 2);
            stage!(4, C5, A51 => 0, A52 => 1, A53 => 2, A54 => 3);
            if ok {
                for i in 0..n {
                    self.y1[i] =
                        y[i] + h * (A61 * k[0][i] + A62 * k[1][i] + A63 * k[2][i] + A64 * k[3][i] + A65 * k[4][i]);
                }
                let (_, hi) = k.split_at_mut(5);
                ok = Self::rhs(sys, t + h, &self.y1, &mut hi[0], stats)?;
            }
            if ok {
                for i in 0..n {
                    yt[i] = y[i] + h * (A71 * k[0][i] + A73 * k[2][i] + A74 * k[3][i] + A75 * k[4][i] + A76 * k[5][i]);
                }
                let (_, hi) = k.split_at_mut(6);
                ok = Self::rhs(sys, t + h, yt, &mut hi[0], stats)?;
            }
            let mut errn = f64::INFINITY;
            if ok {
                for i in 0..n {
                    self.err[i] =
                        h * (E1 * k[0][i] + E3 * k[2][i] + E4 * k[3][i] + E5 * k[4][i] + E6 * k[5][i] + E7 * k[6][i]);
                    self.y1[i] = ewt_at(&self.tol, &self.ewt, i, y[i], yt[i]);
                }
                errn = wnorm(self.norm, &self.err, &self.y1);
                if !errn.is_finite() {
                    errn = f64::INFINITY;
                }
            }
            // controller (Hairer's dopri5: expo 0.2 − 0.75 β, β = 0.04, safety 0.9)
            let fac11 = errn.powf(0.17);
            if errn <= 1.0 {
                let mut fac = fac11 / self.facold.powf(0.04);
                fac = (fac / 0.9).clamp(0.1, 5.0);
                let mut hnew = h / fac;
                self.facold = errn.max(1e-4);
                if self.last_rejected {
                    hnew = if h > 0.0 { hnew.min(h) } else { hnew.max(h) };
                }
                self.last_rejected = false;
                stats.steps += 1;
                // dense output coefficients
                let mut r: [Vec<f64>; 5] = std::array::from_fn(|_| vec![0.0; n]);
                for i in 0..n {
                    let ydiff = yt[i] - y[i];
                    let bspl = h * k[0][i] - ydiff;
                    r[0][i] = y[i];
                    r[1][i] = ydiff;
                    r[2][i] = bspl;
                    r[3][i] = ydiff - h * k[6][i] - bspl;
                    r[4][i] =
                        h * (D1 * k[0][i] + D3 * k[2][i] + D4 * k[3][i] + D5 * k[4][i] + D6 * k[5][i] + D7 * k[6][i]);
                }
                self.dense = DenseOutput { t: t + h, h, kind: DenseKind::Dopri(r) };
                self.y.copy_from_slice(yt);
                let (a, b) = self.k.split_at_mut(6);
                a[0].copy_from_slice(&b[0]);
                self.t = t + h;
                let hmag = hnew.abs().min(self.hmax);
                self.h = hnew.signum() * hmag;
                fill_ewt(&self.tol, &self.y, &mut self.ewt);
                return Ok(());
            }
            stats.rejected += 1;
            stats.error_test_failures += 1;
            nfail += 1;
            if nfail >= 50 {
                return Err(OdeError::ErrorTestFailures { t, h, count: nfail, stats: Box::new(*stats) });
            }
            let shrink = if errn.is_finite() { (fac11 / 0.9).clamp(1.0, 10.0) } else { 10.0 };
            self.h = h / shrink.max(1.0 + 1e-3);
            self.last_rejected = true;
            if self.h.abs() <= self.hmin {
                return Err(OdeError::StepSizeTooSmall { t, h: self.h, stats: Box::new(*stats) });
            }
        }
    }
}

/// Error weight of component i with `max(|y0|, |y1|)` in the relative part.
fn ewt_at(tol: &Tolerance, ewt: &[f64], i: usize, y0: f64, y1: f64) -> f64 {
    match tol {
        Tolerance::RelAbs { rtol, atol } => {
            let a = match atol {
                super::options::Atol::Scalar(a) => *a,
                super::options::Atol::Vector(v) => v[i],
            };
            rtol * y0.abs().max(y1.abs()) + a
        }
        Tolerance::Accuracy { .. } => ewt[i],
    }
}
