//! The stepping API shared by all methods: [`Integrator::step_until`] advances to a target
//! time or to the first event, answering report times by dense output.

use super::dense::DenseOutput;
use super::dopri5::Dopri5;
use super::error::OdeError;
use super::nordsieck::{Family, Nordsieck};
use super::options::{OdeMethod, OdeOptions};
use super::projection::Projector;
use super::root::{RootFinder, RootTransition};
use super::stats::OdeStats;
use super::symplectic::SymplecticEuler;
use super::system::OdeSystem;
use crate::NumericsError;

/// Why [`Integrator::step_until`] returned.
#[derive(Debug, Clone, PartialEq)]
pub enum OdeStop {
    /// The target time was reached; the state there is [`Integrator::y`].
    Reached(f64),
    /// Root functions changed sign in a declared direction inside `(t_low, t]`.
    /// [`Integrator::y`] holds the (interpolated) state at `t`, right after the transitions.
    Root {
        /// Right end of the localization window: the transitions have happened here.
        t: f64,
        /// Left end of the window: none of them had happened here.
        t_low: f64,
        /// Indices of the root functions reported together (ascending).
        which: Vec<usize>,
        /// The sign transitions, one per entry of `which`.
        transitions: Vec<RootTransition>,
    },
}

/// The method currently in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodInUse {
    /// Nordsieck Adams.
    Adams,
    /// Nordsieck BDF.
    Bdf,
    /// Dormand–Prince 5(4).
    Dopri5,
    /// Symplectic Euler.
    SymplecticEuler,
}

#[derive(Debug)]
enum Core {
    Nordsieck(Box<Nordsieck>),
    Dopri5(Box<Dopri5>),
    Euler(Box<SymplecticEuler>),
}

impl Core {
    fn t(&self) -> f64 {
        match self {
            Core::Nordsieck(c) => c.t,
            Core::Dopri5(c) => c.t,
            Core::Euler(c) => c.t,
        }
    }
    fn dense(&self) -> &DenseOutput {
        match self {
            Core::Nordsieck(c) => &c.dense,
            Core::Dopri5(c) => &c.dense,
            Core::Euler(c) => &c.dense,
        }
    }
}

/// An initial-value integrator for `y' = f(t, y)` with events and optional projection.
///
/// ```
/// use saltus_numerics::ode::{Integrator, OdeOptions, OdeStop, OdeSystem, UserFnError};
/// struct Decay;
/// impl OdeSystem for Decay {
///     fn dim(&self) -> usize { 1 }
///     fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> { dy[0] = -y[0]; Ok(()) }
/// }
/// let mut ode = Integrator::new(Decay, 0.0, &[1.0], OdeOptions::with_tol(1e-8, 1e-10)).unwrap();
/// assert_eq!(ode.step_until(1.0).unwrap(), OdeStop::Reached(1.0));
/// assert!((ode.y()[0] - (-1.0f64).exp()).abs() < 1e-6);
/// ```
#[derive(Debug)]
pub struct Integrator<S: OdeSystem> {
    sys: S,
    opts: OdeOptions,
    core: Core,
    roots: RootFinder,
    proj: Option<Projector>,
    t: f64,
    y: Vec<f64>,
    started: bool,
    stats: OdeStats,
}

impl<S: OdeSystem> Integrator<S> {
    /// A new integrator at `(t0, y0)`. Fails on invalid options or non-finite initial data.
    pub fn new(sys: S, t0: f64, y0: &[f64], opts: OdeOptions) -> Result<Self, OdeError> {
        let n = sys.dim();
        crate::error::check_len("y0", n, y0.len())?;
        crate::error::check_finite("y0", y0)?;
        if !t0.is_finite() {
            return Err(NumericsError::NonFinite { what: "t0", index: 0 }.into());
        }
        opts.validate(n)?;
        let core = match opts.method {
            OdeMethod::Lsoda | OdeMethod::Adams | OdeMethod::Bdf => Core::Nordsieck(Box::new(Nordsieck::new(n, &opts))),
            OdeMethod::Dopri5 => Core::Dopri5(Box::new(Dopri5::new(n, &opts))),
            OdeMethod::SymplecticEuler { h, n_q } => Core::Euler(Box::new(SymplecticEuler::new(n, h, n_q))),
            OdeMethod::SymplecticEulerImplicit { h, n_q, tol, max_iter } => {
                Core::Euler(Box::new(SymplecticEuler::new_implicit(n, h, n_q, tol, max_iter)))
            }
        };
        let proj = match &opts.projection {
            Some(p) => {
                let m = sys.n_constraints();
                if m == 0 {
                    return Err(NumericsError::InvalidOption {
                        option: "projection",
                        reason: "the system has no constraints".into(),
                    }
                    .into());
                }
                if !p.constraint_tol.is_empty() {
                    crate::error::check_len("projection.constraint_tol", m, p.constraint_tol.len())?;
                }
                if !matches!(core, Core::Nordsieck(_)) {
                    return Err(NumericsError::Unsupported {
                        solver: "projection",
                        what: "methods other than Adams/BDF/LSODA".into(),
                    }
                    .into());
                }
                Some(Projector::new(m, n, p.clone(), opts.norm))
            }
            None => None,
        };
        let roots = RootFinder::new(&sys, opts.root_sampling);
        Ok(Integrator {
            sys,
            opts,
            core,
            roots,
            proj,
            t: t0,
            y: y0.to_vec(),
            started: false,
            stats: OdeStats::default(),
        })
    }

    /// Time of the last returned state (target, root, or initial time).
    pub fn t(&self) -> f64 {
        self.t
    }

    /// The state at [`Self::t`].
    pub fn y(&self) -> &[f64] {
        &self.y
    }

    /// Time of the last accepted internal step (≥ [`Self::t`]).
    pub fn t_step(&self) -> f64 {
        if self.started {
            self.core.t()
        } else {
            self.t
        }
    }

    /// Counters.
    pub fn stats(&self) -> OdeStats {
        self.stats
    }

    /// The system.
    pub fn system(&self) -> &S {
        &self.sys
    }

    /// Mutable access to the system (change parameters between calls, then [`Self::reinit`]).
    pub fn system_mut(&mut self) -> &mut S {
        &mut self.sys
    }

    /// The method of the last step.
    pub fn method_in_use(&self) -> MethodInUse {
        match &self.core {
            Core::Nordsieck(c) => match c.family() {
                Family::Adams => MethodInUse::Adams,
                Family::Bdf => MethodInUse::Bdf,
            },
            Core::Dopri5(_) => MethodInUse::Dopri5,
            Core::Euler(_) => MethodInUse::SymplecticEuler,
        }
    }

    /// Time of the last Adams ↔ BDF switch (LSODA's `tsw`), if any.
    pub fn last_switch_time(&self) -> Option<f64> {
        match &self.core {
            Core::Nordsieck(c) if self.stats.switches > 0 => Some(c.tsw),
            _ => None,
        }
    }

    /// Current order (Nordsieck methods), else None.
    pub fn order(&self) -> Option<usize> {
        match &self.core {
            Core::Nordsieck(c) => Some(c.q),
            _ => None,
        }
    }

    /// Dense output: writes `y(t)` for `t` inside the last accepted step.
    pub fn y_at(&self, t: f64, out: &mut [f64]) -> Result<(), OdeError> {
        crate::error::check_len("out", self.y.len(), out.len())?;
        if !self.started {
            if t == self.t {
                out.copy_from_slice(&self.y);
                return Ok(());
            }
            return Err(OdeError::OutsideInterval { t, lo: self.t, hi: self.t });
        }
        let d = self.core.dense();
        if !d.covers(t) {
            return Err(OdeError::OutsideInterval { t, lo: d.t_start(), hi: d.t });
        }
        d.eval(t, out);
        Ok(())
    }

    /// Restarts at `(t, y)` (after an event handler changed the state): history is discarded, the
    /// next step starts at order 1; root functions that are exactly zero at `t` are masked.
    /// Counters are kept.
    pub fn reinit(&mut self, t: f64, y: &[f64]) -> Result<(), OdeError> {
        crate::error::check_len("y", self.y.len(), y.len())?;
        crate::error::check_finite("y", y)?;
        if !t.is_finite() {
            return Err(NumericsError::NonFinite { what: "t", index: 0 }.into());
        }
        self.t = t;
        self.y.copy_from_slice(y);
        self.started = false;
        Ok(())
    }

    fn start(&mut self, tout: f64) -> Result<(), OdeError> {
        let (t0, sys) = (self.t, &self.sys);
        match &mut self.core {
            Core::Nordsieck(c) => c.init(sys, t0, &self.y, tout, self.opts.h0, &mut self.stats)?,
            Core::Dopri5(c) => c.init(sys, t0, &self.y, tout, self.opts.h0, &mut self.stats)?,
            Core::Euler(c) => c.init(t0, &self.y),
        }
        self.roots.start(sys, t0, &self.y, &mut self.stats)?;
        self.started = true;
        Ok(())
    }

    /// Integrates forward until `t_out` or the first event before it, whichever comes first.
    /// Report times are answered by interpolation and never change the step sequence.
    /// On error the integrator keeps the last accepted step: [`Self::t`]/[`Self::y`] still hold
    /// the last returned state and [`Self::y_at`] serves the last step.
    pub fn step_until(&mut self, t_out: f64) -> Result<OdeStop, OdeError> {
        if !t_out.is_finite() || t_out < self.t {
            return Err(OdeError::OutsideInterval { t: t_out, lo: self.t, hi: f64::INFINITY });
        }
        if t_out == self.t && self.started {
            return Ok(OdeStop::Reached(t_out));
        }
        if !self.started {
            self.start(t_out)?;
        }
        let mut nsteps = 0u64;
        loop {
            let t_core = self.core.t();
            let t_hi = t_core.min(t_out);
            if t_hi > self.roots.t_lo {
                if let Some(hit) = self.roots.search(&self.sys, self.core.dense(), t_hi, &mut self.stats)? {
                    self.t = hit.t;
                    self.core.dense().eval(hit.t, &mut self.y);
                    return Ok(OdeStop::Root {
                        t: hit.t,
                        t_low: hit.t_low,
                        which: hit.transitions.iter().map(|r| r.index).collect(),
                        transitions: hit.transitions,
                    });
                }
            }
            if t_core >= t_out {
                self.t = t_out;
                if t_core == t_out {
                    let y = match &self.core {
                        Core::Nordsieck(c) => c.zn.col(0),
                        Core::Dopri5(c) => &c.y,
                        Core::Euler(c) => &c.y,
                    };
                    self.y.copy_from_slice(y);
                } else {
                    self.core.dense().eval(t_out, &mut self.y);
                }
                return Ok(OdeStop::Reached(t_out));
            }
            if nsteps >= self.opts.max_steps {
                return Err(OdeError::TooManySteps {
                    t: t_core,
                    max: self.opts.max_steps,
                    stats: Box::new(self.stats),
                });
            }
            nsteps += 1;
            let tstop = self.opts.tcrit.filter(|&tc| tc > t_core);
            let sys = &self.sys;
            match &mut self.core {
                Core::Nordsieck(c) => c.step(sys, self.proj.as_mut(), tstop, &mut self.stats)?,
                Core::Dopri5(c) => c.step(sys, tstop, &mut self.stats)?,
                Core::Euler(c) => c.step(sys, tstop, &mut self.stats)?,
            }
        }
    }
}
