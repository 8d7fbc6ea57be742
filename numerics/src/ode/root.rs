//! Root (event) localization on the dense output of the last step (LSODAR's DRCHEK/DROOTS
//! ideas, CVODE's masking and direction filter; our own code).
//!
//! Each root function has a *base* sign state from the left end of the search interval. A
//! component *triggers* at time τ when its sign there differs from the base in a declared
//! direction (undeclared transitions are ignored inside the search, so a restart just below a
//! surface never produces an opposite-direction root). The earliest trigger over all components
//! is bracketed by an Illinois-modified secant on the interpolant until the bracket is shorter
//! than the window; the root is reported at the right end of the bracket (where the transition
//! has happened), together with every component that triggered there.
//!
//! Continuous triggers that are exactly zero at the start (or after landing on zero) are masked
//! until they leave zero; leaving zero is never reported. Discrete-zero triggers use zero as a
//! third sign state.

use super::dense::DenseOutput;
use super::error::OdeError;
use super::stats::OdeStats;
use super::system::{OdeSystem, RootKind};
use super::weights::UROUND;

/// One reported transition of a root function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootTransition {
    /// Index of the root function.
    pub index: usize,
    /// Sign before (−1, 0 or 1).
    pub from: i8,
    /// Sign after (−1, 0 or 1).
    pub to: i8,
}

/// A localized event: it had not happened at `t_low` and had at `t`.
#[derive(Debug, Clone, PartialEq)]
pub struct RootHit {
    /// Right end of the window (first time where the transitions are seen).
    pub t: f64,
    /// Left end of the window.
    pub t_low: f64,
    /// The transitions reported together (ascending index).
    pub transitions: Vec<RootTransition>,
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Root-search state carried between steps: the declared transitions of each function, the base
/// signs, the masks (see the module docs and `events-accuracy-projection.md` §4). The integrator
/// uses it on its dense output; other steppers ([`RootFinder::with_kinds`],
/// [`RootFinder::search_with`]) use it on their own interpolant.
#[derive(Debug, Clone)]
pub struct RootFinder {
    kinds: Vec<RootKind>,
    /// Base sign per component (continuous: ±1, or 0 = masked; discrete: −1, 0, 1).
    base: Vec<i8>,
    /// Continuous component that landed exactly on zero and was reported: zero values do not
    /// trigger again until it has left zero.
    hold: Vec<bool>,
    /// Left end of the unsearched interval (g is known there).
    pub t_lo: f64,
    g_lo: Vec<f64>,
    g_hi: Vec<f64>,
    g_m: Vec<f64>,
    y: Vec<f64>,
    sampling: bool,
}

impl RootFinder {
    /// Root finder for the system's root functions.
    pub(crate) fn new<S: OdeSystem + ?Sized>(sys: &S, sampling: bool) -> Self {
        let mut r = Self::with_kinds((0..sys.n_roots()).map(|i| sys.root_kind(i)).collect(), sampling);
        r.y = vec![0.0; sys.dim()];
        r
    }

    /// Root finder for `kinds.len()` functions of a state of size `n` evaluated through a closure
    /// ([`Self::start_with`], [`Self::search_with`]): the same transition rules for callers that
    /// have their own interpolant (e.g. a time-stepping scheme's linear one).
    pub fn with_kinds(kinds: Vec<RootKind>, sampling: bool) -> Self {
        let m = kinds.len();
        RootFinder {
            kinds,
            base: vec![0; m],
            hold: vec![false; m],
            t_lo: 0.0,
            g_lo: vec![0.0; m],
            g_hi: vec![0.0; m],
            g_m: vec![0.0; m],
            y: Vec::new(),
            sampling,
        }
    }

    /// (Re)starts at `t` with the root function values `g` there (see `Self::start`).
    pub fn start_with(&mut self, t: f64, g: &[f64]) {
        self.g_lo.copy_from_slice(g);
        for (b, g) in self.base.iter_mut().zip(&self.g_lo) {
            *b = sign(*g);
        }
        self.hold.fill(false);
        self.t_lo = t;
    }

    /// Number of root functions.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether there are no root functions.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    fn eval<S: OdeSystem + ?Sized>(
        sys: &S,
        t: f64,
        y: &[f64],
        g: &mut [f64],
        stats: &mut OdeStats,
    ) -> Result<(), OdeError> {
        stats.root_evals += 1;
        sys.roots(t, y, g).map_err(|e| OdeError::UserFn { what: "roots", t, source: e, stats: Box::new(*stats) })?;
        if g.iter().any(|x| !x.is_finite()) {
            return Err(OdeError::NonFinite { what: "root functions", t, stats: Box::new(*stats) });
        }
        Ok(())
    }

    /// (Re)starts at `(t, y)`: records base signs; continuous components that are exactly zero
    /// are masked.
    pub(crate) fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        stats: &mut OdeStats,
    ) -> Result<(), OdeError> {
        if self.is_empty() {
            self.t_lo = t;
            return Ok(());
        }
        let mut g = std::mem::take(&mut self.g_lo);
        let r = Self::eval(sys, t, y, &mut g, stats);
        self.g_lo = g;
        r?;
        let g = self.g_lo.clone();
        self.start_with(t, &g);
        Ok(())
    }

    fn triggered(&self, i: usize, g: f64) -> bool {
        let k = &self.kinds[i];
        let b = self.base[i];
        let s = sign(g);
        if k.discrete_zero {
            s != b && k.direction.accepts(b, s)
        } else {
            if b == 0 || (s == 0 && self.hold[i]) {
                return false;
            }
            // a landing on zero counts as the crossing
            let to = if s == 0 { -b } else { s };
            to != b && k.direction.accepts(b, to)
        }
    }

    fn any_triggered(&self, g: &[f64]) -> bool {
        (0..g.len()).any(|i| self.triggered(i, g[i]))
    }

    /// Advances the base over `(t_lo, t_hi]` without events: unmask components that left zero,
    /// follow undeclared transitions.
    fn advance_base(&mut self, t_hi: f64) {
        for i in 0..self.base.len() {
            let s = sign(self.g_hi[i]);
            if self.kinds[i].discrete_zero || s != 0 {
                self.base[i] = s;
                self.hold[i] = false;
            }
        }
        self.t_lo = t_hi;
        self.g_lo.copy_from_slice(&self.g_hi);
    }

    /// Searches `(t_lo, t_hi]` on the dense output `dense` (which must cover it). On a hit, the
    /// search state moves to the hit time; otherwise to `t_hi`.
    pub(crate) fn search<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        dense: &DenseOutput,
        t_hi: f64,
        stats: &mut OdeStats,
    ) -> Result<Option<RootHit>, OdeError> {
        let mut y = std::mem::take(&mut self.y);
        let r = self.search_with(t_hi, dense.h, |t, g| {
            dense.eval(t, &mut y);
            Self::eval(sys, t, &y, g, stats)
        });
        self.y = y;
        r
    }

    /// Searches `(t_lo, t_hi]` with `eval(t, g)` writing the root functions at `t` (on the
    /// caller's interpolant; it must return an error for non-finite values). `h` is the length
    /// of the step the interpolant covers (for the roundoff window). On a hit, the search state
    /// moves to the hit time; otherwise to `t_hi`.
    pub fn search_with<E>(
        &mut self,
        t_hi: f64,
        h: f64,
        mut eval: impl FnMut(f64, &mut [f64]) -> Result<(), E>,
    ) -> Result<Option<RootHit>, E> {
        if self.is_empty() || t_hi <= self.t_lo {
            self.t_lo = self.t_lo.max(t_hi);
            return Ok(None);
        }
        let mut b = t_hi;
        eval(b, &mut self.g_hi)?;
        if !self.any_triggered(&self.g_hi) {
            let hidden = if self.sampling { self.sample_hidden(t_hi, &mut eval)? } else { None };
            match hidden {
                Some(tm) => {
                    b = tm;
                    // g_hi already holds g(tm)
                }
                None => {
                    self.advance_base(t_hi);
                    return Ok(None);
                }
            }
        }
        // roundoff window: 10 uround (|t| + |h|), ten times tighter than LSODAR's
        let hmin = 10.0 * UROUND * (t_hi.abs() + h.abs());
        let window = (0..self.len())
            .filter(|&i| self.triggered(i, self.g_hi[i]))
            .filter_map(|i| self.kinds[i].window)
            .fold(f64::INFINITY, f64::min);
        let tol = if window.is_finite() { window.max(hmin) } else { hmin };
        let mut a = self.t_lo;
        let mut ga = self.g_lo.clone();
        let mut gb = self.g_hi.clone();
        // Illinois weights on the retained end
        let (mut wa, mut wb) = (1.0f64, 1.0f64);
        let mut last_side = 0i8;
        let mut gm = self.g_m.clone();
        let mut iters = 0;
        while b - a > tol && iters < 200 {
            iters += 1;
            // earliest linear root over triggering components
            let mut frac = f64::INFINITY;
            for i in 0..self.len() {
                if !self.triggered(i, gb[i]) {
                    continue;
                }
                let (x0, x1) = (wa * ga[i], wb * gb[i]);
                // zero base (discrete zero leaving zero) or no slope: bisect
                let f = if self.base[i] == 0 || x0 == x1 { 0.5 } else { (x0 / (x0 - x1)).clamp(0.0, 1.0) };
                frac = frac.min(f);
            }
            if !frac.is_finite() {
                frac = 0.5;
            }
            let width = b - a;
            let mut tm = a + frac * width;
            // keep the new point away from the ends
            let edge = 0.5 * tol;
            if tm - a < edge || b - tm < edge {
                let fi = width / tol;
                let sub = if fi <= 5.0 { 0.5 / fi } else { 0.1 };
                tm = if tm - a < edge { a + sub * width } else { b - sub * width };
            }
            if !(tm > a && tm < b) {
                tm = 0.5 * (a + b);
                if !(tm > a && tm < b) {
                    break;
                }
            }
            eval(tm, &mut gm)?;
            if self.any_triggered(&gm) {
                b = tm;
                gb.copy_from_slice(&gm);
                if last_side == 1 {
                    wa *= 0.5;
                } else {
                    wa = 1.0;
                }
                wb = 1.0;
                last_side = 1;
            } else {
                a = tm;
                ga.copy_from_slice(&gm);
                if last_side == -1 {
                    wb *= 0.5;
                } else {
                    wb = 1.0;
                }
                wa = 1.0;
                last_side = -1;
            }
        }
        let mut transitions = Vec::new();
        for i in 0..self.len() {
            if self.triggered(i, gb[i]) {
                let s = sign(gb[i]);
                let k = self.kinds[i];
                let to = if k.discrete_zero || s != 0 { s } else { -self.base[i] };
                transitions.push(RootTransition { index: i, from: self.base[i], to });
                // a continuous landing on zero counts as the crossing: the base moves to the far
                // side, and zero values are ignored until the function leaves zero
                self.base[i] = to;
                self.hold[i] = !k.discrete_zero && s == 0;
            }
        }
        self.t_lo = b;
        self.g_lo.copy_from_slice(&gb);
        self.g_m = gm;
        Ok(Some(RootHit { t: b, t_low: a, transitions }))
    }

    /// Looks for a pair of roots hidden inside `(t_lo, t_hi]` (no trigger at the ends): fits a
    /// parabola through g at the ends and the middle; if its extremum lies inside and is past
    /// zero (in a declared direction), evaluates g there. Returns a point where some component
    /// has triggered (g_hi then holds g at that point).
    fn sample_hidden<E>(
        &mut self,
        t_hi: f64,
        eval: &mut impl FnMut(f64, &mut [f64]) -> Result<(), E>,
    ) -> Result<Option<f64>, E> {
        let t_lo = self.t_lo;
        let width = t_hi - t_lo;
        if width <= 0.0 {
            return Ok(None);
        }
        let tm = t_lo + 0.5 * width;
        let mut gm = std::mem::take(&mut self.g_m);
        if let Err(e) = eval(tm, &mut gm) {
            self.g_m = gm;
            return Err(e);
        }
        let result = if self.any_triggered(&gm) {
            self.g_hi.copy_from_slice(&gm);
            Some(tm)
        } else {
            // candidate extremum times, earliest first
            let mut cands: Vec<f64> = Vec::new();
            for i in 0..self.len() {
                if self.base[i] == 0 && !self.kinds[i].discrete_zero {
                    continue;
                }
                let (g0, g5, g1) = (self.g_lo[i], gm[i], self.g_hi[i]);
                let c = 2.0 * (g1 - 2.0 * g5 + g0);
                let bq = g1 - g0 - c;
                if c == 0.0 {
                    continue;
                }
                let s = -bq / (2.0 * c);
                if s > 0.0 && s < 1.0 {
                    let pv = g0 - bq * bq / (4.0 * c);
                    if self.triggered(i, pv) {
                        cands.push(t_lo + s * width);
                    }
                }
            }
            cands.sort_by(|a, b| a.total_cmp(b));
            let mut found = None;
            for tc in cands {
                if let Err(e) = eval(tc, &mut self.g_hi) {
                    self.g_m = gm;
                    return Err(e);
                }
                if self.any_triggered(&self.g_hi) {
                    found = Some(tc);
                    break;
                }
            }
            if found.is_none() {
                // restore g at t_hi
                if let Err(e) = eval(t_hi, &mut self.g_hi) {
                    self.g_m = gm;
                    return Err(e);
                }
            }
            found
        };
        self.g_m = gm;
        Ok(result)
    }
}
