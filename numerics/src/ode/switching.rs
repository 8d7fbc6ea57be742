//! LSODA's automatic Adams ↔ BDF switching (Petzold 1983), tested after accepted steps once 20
//! steps have passed since the last switch. Adams → BDF needs a 5× larger step; BDF → Adams
//! needs only parity (hysteresis). Adams step ratios are capped by the stability limit
//! `SM1(q) / (|h| L)` with `L` the Lipschitz estimate of the functional iteration (Adams) or the
//! weighted Jacobian norm (BDF).

use super::coeffs::{ADAMS_STAB, BDF_MAX};
use super::nordsieck::{Family, Nordsieck};
use super::stats::OdeStats;
use super::weights::UROUND;

/// Required advantage of BDF before switching to it.
const RATIO: f64 = 5.0;
/// Required advantage of Adams before switching back (LSODA: 1).
const RATIO_BACK: f64 = 1.3;

impl Nordsieck {
    /// Tests for a switch after an accepted step with normalized error `dsm`; performs it
    /// (coefficients, order cap, history rescale) and returns true if it switched.
    pub(crate) fn try_switch(&mut self, dsm: f64, stats: &mut OdeStats) -> bool {
        self.icount -= 1;
        if self.icount >= 0 {
            return false;
        }
        let q = self.q;
        let exsm = 1.0 / (q + 1) as f64;
        let pnorm = self.wnorm(self.zn.col(0));
        let cm_a = self.adams_cm(q);
        match self.family {
            Family::Adams => {
                if q > BDF_MAX.min(self.bdf_maxord()) {
                    return false;
                }
                let cm_b = self.bdf_cm(q);
                let rh2;
                if dsm > 100.0 * pnorm * UROUND && self.pdest_last() != 0.0 {
                    let mut rh1 = 1.0 / (1.2 * dsm.powf(exsm) + 1.2e-6);
                    let mut rh1it = 2.0 * rh1;
                    let pdh = self.pdlast * self.h.abs();
                    if pdh * rh1 > 1e-5 {
                        rh1it = ADAMS_STAB[q] / pdh;
                    }
                    rh1 = rh1.min(rh1it);
                    let dsm2 = dsm * (cm_a / cm_b);
                    let r2 = 1.0 / (1.2 * dsm2.powf(exsm) + 1.2e-6);
                    if r2 < RATIO * rh1 {
                        return false;
                    }
                    rh2 = r2;
                } else {
                    // error at roundoff: switch only if the step was stability-limited
                    if !self.irflag {
                        return false;
                    }
                    rh2 = 2.0;
                }
                self.family = Family::Bdf;
                self.pdlast = 0.0;
                self.newton.need_jac = true;
                self.finish_switch(rh2, stats);
                true
            }
            Family::Bdf => {
                let cm_b = self.bdf_cm(q);
                let dm1 = dsm * (cm_b / cm_a);
                let mut rh1 = 1.0 / (1.2 * dm1.powf(exsm) + 1.2e-6);
                let mut rh1it = 2.0 * rh1;
                let pdh = self.newton.pdnorm * self.h.abs();
                if pdh * rh1 > 1e-5 {
                    rh1it = ADAMS_STAB[q] / pdh;
                }
                rh1 = rh1.min(rh1it);
                let rh2 = 1.0 / (1.2 * dsm.powf(exsm) + 1.2e-6);
                if rh1 < RATIO_BACK * rh2 {
                    return false;
                }
                // the Adams step would be at roundoff level: stay
                let alpha = rh1.max(0.001);
                if alpha.powf(1.0 / exsm) * dm1 <= 1000.0 * UROUND * pnorm {
                    return false;
                }
                self.family = Family::Adams;
                self.pdlast = 0.0;
                self.pdest_reset();
                self.finish_switch(rh1, stats);
                true
            }
        }
    }

    fn finish_switch(&mut self, rh: f64, stats: &mut OdeStats) {
        stats.switches += 1;
        self.tsw = self.t;
        self.icount = 20;
        self.set_coeffs();
        let rh = rh.max(self.hmin_ratio());
        self.rescale(rh);
        self.reset_order_memory();
        self.ialth = self.q + 1;
    }
}
