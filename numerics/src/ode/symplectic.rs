//! Fixed-step semi-explicit (symplectic) Euler for `q' = N(q) u`, `u' = f(q, u)` with the state
//! `y = (q, u)` (`events-accuracy-projection.md` §7, first form):
//! `u1 = u0 + h f(t0, q0, u0)`, then `q1 = q0 + h N(q0) u1`.
//! Both halves come from the system's RHS: the `u` rows of `f(t0, (q0, u0))` and the `q` rows of
//! `f(t0, (q0, u1))` (valid because `q' = N(q) u` depends on `(q, u)` only). Dense output is
//! linear. Time is `t0 + k h` (no accumulated drift).

use super::dense::{DenseKind, DenseOutput};
use super::error::OdeError;
use super::stats::OdeStats;
use super::system::OdeSystem;

/// Symplectic Euler state.
#[derive(Debug)]
pub struct SymplecticEuler {
    n_q: usize,
    h: f64,
    t0: f64,
    k: u64,
    pub(crate) t: f64,
    pub(crate) y: Vec<f64>,
    f: Vec<f64>,
    y1: Vec<f64>,
    pub(crate) dense: DenseOutput,
}

impl SymplecticEuler {
    /// Fixed step `h`, `n_q` position coordinates, `n` states.
    pub fn new(n: usize, h: f64, n_q: usize) -> Self {
        SymplecticEuler {
            n_q,
            h,
            t0: 0.0,
            k: 0,
            t: 0.0,
            y: vec![0.0; n],
            f: vec![0.0; n],
            y1: vec![0.0; n],
            dense: DenseOutput::default(),
        }
    }

    /// Starts at `(t0, y0)`.
    pub fn init(&mut self, t0: f64, y0: &[f64]) {
        self.t0 = t0;
        self.k = 0;
        self.t = t0;
        self.y.copy_from_slice(y0);
        self.dense = DenseOutput { t: t0, h: 0.0, kind: DenseKind::Linear(y0.to_vec(), y0.to_vec()) };
    }

    fn rhs<S: OdeSystem + ?Sized>(sys: &S, t: f64, y: &[f64], f: &mut [f64], stats: &mut OdeStats) -> Result<(), OdeError> {
        stats.rhs_evals += 1;
        sys.rhs(t, y, f).map_err(|e| OdeError::UserFn { what: "rhs", t, source: e, stats: Box::new(*stats) })?;
        if f.iter().any(|x| !x.is_finite()) {
            return Err(OdeError::NonFinite { what: "rhs", t, stats: Box::new(*stats) });
        }
        Ok(())
    }

    /// One step of size h (shortened to land on `tstop`).
    pub fn step<S: OdeSystem + ?Sized>(&mut self, sys: &S, tstop: Option<f64>, stats: &mut OdeStats) -> Result<(), OdeError> {
        let t = self.t;
        let mut t1 = self.t0 + (self.k + 1) as f64 * self.h;
        let mut shortened = false;
        if let Some(ts) = tstop {
            if t1 > ts && ts > t {
                t1 = ts;
                shortened = true;
            }
        }
        let h = t1 - t;
        let nq = self.n_q;
        Self::rhs(sys, t, &self.y, &mut self.f, stats)?;
        self.y1.copy_from_slice(&self.y);
        for i in nq..self.y.len() {
            self.y1[i] = self.y[i] + h * self.f[i];
        }
        Self::rhs(sys, t, &self.y1, &mut self.f, stats)?;
        for i in 0..nq {
            self.y1[i] = self.y[i] + h * self.f[i];
        }
        let y0 = std::mem::replace(&mut self.y, self.y1.clone());
        stats.steps += 1;
        if shortened {
            // restart the grid at the stop time
            self.t0 = t1;
            self.k = 0;
        } else {
            self.k += 1;
        }
        self.t = t1;
        self.dense = DenseOutput { t: t1, h, kind: DenseKind::Linear(y0, self.y.clone()) };
        Ok(())
    }
}
