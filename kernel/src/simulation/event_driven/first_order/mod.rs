//! Event-driven simulation of first-order linear complementarity systems (circuits with ideal
//! diodes, relays): the engine of [`crate::EventDriven`] for models whose systems are all
//! `FirstOrderLinearDS` / `FirstOrderLinearTIDS`, with `FirstOrderLinearR` / `FirstOrderLinearTIR`
//! relations and `ComplementarityConditionNSL` / `RelayNSL` laws.
//!
//! Between events the mode is fixed and the linear ODE of the mode (module [`lcs`]) is
//! integrated by the LSODAR-class integrator; the mode's inequalities (`y ≥ 0` of blocking
//! components, `λ ≥ lb` and `λ ≤ ub` of free ones) are its root functions, so a mode switch is
//! located by root finding on `y` and `λ`. At a switch (and at `t0`) the next mode is chosen by
//! the one-step problem of a short implicit step (module [`mode`]); the state is continuous
//! (a relative-degree-one mode only removes the roundoff of the root location from `y_F`).

pub(crate) mod lcs;
pub(crate) mod mode;

use super::stepping::{EdStepper, Stop};
use super::{EventDrivenOptions, EventKind, EventReport, EventsManager};
use crate::model::ds::DynamicalSystem;
use crate::model::event::{UserEvent, UserEventHit};
use crate::model::nsds::{DsId, InterId, Nsds};
use crate::model::nslaw::NonSmoothLaw;
use crate::model::relation::Relation;
use crate::model::userfn::{MatOp, VecOp};
use crate::KernelError;
use lcs::{FoDs, FoInter, Lcs, Mats};
use mode::ModeData;
use nalgebra::{DMatrix, DVector};
use saltus_numerics::ode::{Integrator, OdeStats, OdeStop, RootTransition};
use std::cell::RefCell;

/// Whether `nsds` has first-order systems only (and at least one system).
pub(crate) fn is_first_order(nsds: &Nsds) -> bool {
    let fo = |d: &DynamicalSystem| {
        matches!(
            d,
            DynamicalSystem::FirstOrderLinear(_)
                | DynamicalSystem::FirstOrderLinearTi(_)
                | DynamicalSystem::FirstOrderNonLinear(_)
        )
    };
    nsds.n_ds() > 0 && nsds.systems().iter().all(fo)
}

fn ufe(t: f64, what: &str, e: saltus_numerics::ode::UserFnError) -> KernelError {
    KernelError::UserFn { t, owner: None, what: what.into(), source: crate::UserFnError::new(e.to_string()) }
}

fn ode_err(t: f64) -> impl Fn(saltus_numerics::ode::OdeError) -> KernelError {
    move |source| KernelError::Ode { t, source }
}

/// Builds the stacked LCS of `nsds`, or a typed error naming what is not supported.
fn build(nsds: &Nsds) -> Result<Lcs, KernelError> {
    let mut ds = Vec::with_capacity(nsds.n_ds());
    let mut off = 0;
    let mut zs = Vec::new();
    for (i, d) in nsds.systems().iter().enumerate() {
        let n = d.dim_q();
        let m = match d {
            DynamicalSystem::FirstOrderLinear(l) => {
                FoDs { off, n, a: l.a.clone(), b: l.b.clone(), mass: l.mass.clone(), control: None }
            }
            DynamicalSystem::FirstOrderLinearTi(l) => FoDs {
                off,
                n,
                a: MatOp::Constant(l.a.clone()),
                b: l.b.clone().map(VecOp::Constant),
                mass: l.mass.clone(),
                control: None,
            },
            other => {
                return Err(KernelError::UnsupportedSystem {
                    ds: DsId(i as u32),
                    reason: format!(
                        "EventDriven supports first-order linear systems (FirstOrderLinearDS, \
                         FirstOrderLinearTIDS) or Lagrangian systems, not {}",
                        other.kind_name()
                    ),
                })
            }
        };
        if let Some(mm) = &m.mass {
            if mm.clone().try_inverse().is_none() {
                return Err(KernelError::SingularW { t: nsds.t(), ds: DsId(i as u32) });
            }
        }
        zs.push(d.z().to_vec());
        off += n;
        ds.push(m);
    }
    let mut inters = Vec::with_capacity(nsds.n_interactions());
    let mut bounds = Vec::new();
    let (mut constant, mut c_constant) =
        (ds.iter().all(|d| d.a.is_constant() && d.b.iter().all(|b| b.is_constant())), true);
    for (i, inter) in nsds.interactions().iter().enumerate() {
        let id = nsds.handle(i);
        if !nsds.is_linked(id) {
            continue; // a removed slot
        }
        let bad = |reason: String| KernelError::InvalidCombination { name: inter.name.clone(), id, reason };
        let m = inter.size();
        match &inter.law {
            NonSmoothLaw::ComplementarityCondition { .. } => {
                bounds.extend(std::iter::repeat_n((0.0, f64::INFINITY), m))
            }
            NonSmoothLaw::Relay { lb, ub } => bounds.extend(lb.iter().zip(ub.iter()).map(|(&l, &u)| (l, u))),
            other => {
                return Err(bad(format!(
                    "EventDriven on first-order systems supports ComplementarityConditionNSL and RelayNSL, not {}",
                    other.kind_name()
                )))
            }
        }
        let mut cols = Vec::new();
        let mut z = Vec::new();
        for d in inter.ds_ids() {
            let s = &ds[d.index()];
            cols.extend(s.off..s.off + s.n);
            z.extend_from_slice(&zs[d.index()]);
        }
        let (c, d, b, e, f) = match &inter.relation {
            Relation::FirstOrderLinearTi(r) => (
                MatOp::Constant(r.c.clone()),
                r.d.clone().map(MatOp::Constant),
                MatOp::Constant(r.b.clone()),
                r.e.clone().map(VecOp::Constant),
                r.f.clone(),
            ),
            Relation::FirstOrderLinear(r) => (r.c.clone(), r.d.clone(), r.b.clone(), r.e.clone(), r.f.clone()),
            other => {
                return Err(bad(format!(
                    "EventDriven on first-order systems supports FirstOrderLinearTIR and FirstOrderLinearR, not {}",
                    other.kind_name()
                )))
            }
        };
        let fz = match f {
            Some(f) if f.ncols() == z.len() && f.nrows() == m => Some(f * DVector::from_vec(z)),
            Some(f) => {
                return Err(bad(format!(
                    "F is {}x{} but the relation has {m} rows and the systems' z has {} entries",
                    f.nrows(),
                    f.ncols(),
                    z.len()
                )))
            }
            None => None,
        };
        let ce = c.is_constant() && e.iter().all(|e| e.is_constant());
        c_constant &= ce;
        constant &= ce && b.is_constant() && d.iter().all(|d| d.is_constant());
        inters.push(FoInter { id, row: bounds.len() - m, m, cols, c, d, b, e, fz });
    }
    let (n, nl) = (off, bounds.len());
    let zero = Mats {
        m: DMatrix::zeros(n, n),
        minv: DMatrix::zeros(n, n),
        a: DMatrix::zeros(n, n),
        b: DVector::zeros(n),
        c: DMatrix::zeros(nl, n),
        d: DMatrix::zeros(nl, nl),
        bm: DMatrix::zeros(n, nl),
        e: DVector::zeros(nl),
    };
    let mut lcs = Lcs {
        n,
        nl,
        ds,
        inters,
        bounds,
        constant,
        c_constant,
        mode: ModeData::blocked(nl),
        user: Vec::new(),
        mats: RefCell::new((f64::NAN, zero.clone())),
    };
    let t0 = nsds.t();
    let mut mats = zero;
    lcs.assemble(t0, &mut mats).map_err(|e| ufe(t0, "first-order model", e))?;
    lcs.mats = RefCell::new((t0, mats));
    Ok(lcs)
}

/// The first-order engine (see the module docs).
pub(crate) struct FirstOrderEd {
    opts: EventDrivenOptions,
    ode: Integrator<Lcs>,
    pub(crate) events: EventsManager,
    started: bool,
    x: Vec<f64>,
    /// `λ` and `y` of the current mode at the last event.
    lam: Vec<f64>,
    y: Vec<f64>,
    n_ns: u64,
    t_event: f64,
    ns_since_td: u64,
}

impl FirstOrderEd {
    /// Checks the model and the options (already validated by the caller), with user events:
    /// their trigger functions of a system's state `x` are root functions of the integrator
    /// (after the mode's), located to their window; see [`Self::advance`].
    pub fn with_events(nsds: &Nsds, opts: EventDrivenOptions, events: Vec<UserEvent>) -> Result<Self, KernelError> {
        for e in &events {
            e.validate(nsds)?;
        }
        let mut lcs = build(nsds)?;
        lcs.user = events;
        let mut x = vec![0.0; lcs.n];
        for (d, m) in nsds.systems().iter().zip(&lcs.ds) {
            x[m.off..m.off + m.n].copy_from_slice(d.state().as_slice());
        }
        let nl = lcs.nl;
        let t0 = nsds.t();
        let ode = Integrator::new(lcs, t0, &x, opts.ode.clone()).map_err(ode_err(t0))?;
        let events = EventsManager::new(t0, opts.h, opts.merge_tol);
        Ok(FirstOrderEd {
            opts,
            ode,
            events,
            started: false,
            x,
            lam: vec![0.0; nl],
            y: vec![0.0; nl],
            n_ns: 0,
            t_event: t0,
            ns_since_td: 0,
        })
    }

    pub fn options(&self) -> &EventDrivenOptions {
        &self.opts
    }
    /// Continues the time-discretisation schedule `events` and the nonsmooth-event count of the
    /// engine this one replaces (a topology change between events).
    pub(crate) fn resume(&mut self, events: EventsManager, n_ns: u64) {
        self.events = events;
        self.n_ns = n_ns;
    }
    pub fn t(&self) -> f64 {
        self.t_event
    }
    /// The held control input terms, by system (`None`: no term).
    pub(crate) fn controls(&self) -> Vec<Option<DVector<f64>>> {
        self.ode.system().ds.iter().map(|d| d.control.clone()).collect()
    }
    pub fn n_nonsmooth(&self) -> u64 {
        self.n_ns
    }
    pub fn ode_stats(&self) -> OdeStats {
        self.ode.stats()
    }
    /// The user events (root functions after the mode's).
    pub fn user_events(&self) -> &[UserEvent] {
        &self.ode.system().user
    }
    /// Number of free components (conducting diodes, sticking relays) of interaction `id`.
    pub fn n_free(&self, id: InterId) -> usize {
        let lcs = self.ode.system();
        lcs.inters
            .get(id.index())
            .map_or(0, |it| (it.row..it.row + it.m).filter(|&k| lcs.mode.comps[k] == lcs::Comp::Free).count())
    }
    /// Number of interactions.
    pub fn n_interactions(&self) -> usize {
        self.ode.system().inters.len()
    }
    /// `λ` of interaction `id` at the last event.
    pub fn lambda(&self, id: InterId) -> &[f64] {
        let it = &self.ode.system().inters[id.index()];
        &self.lam[it.row..it.row + it.m]
    }

    /// Holds the control input term `g` (`n` entries, added to `b` of system `ds`:
    /// `M ẋ = A x + b + g + B λ`) from the last processed event on. Where `g` changes, the mode
    /// is chosen again at that event (a new input may open a diode or unstick a relay) and the
    /// integrator restarts there (its history holds the old right-hand side).
    pub fn set_control_input(&mut self, ds: DsId, g: &[f64]) -> Result<(), KernelError> {
        let t = self.t_event;
        let Some(d) = self.ode.system().ds.get(ds.index()) else {
            return Err(KernelError::InvalidModel { what: format!("system {ds:?}"), reason: "no such system".into() });
        };
        crate::simulation::check_control_input(ds, g, d.n)?;
        if d.control.as_ref().is_some_and(|c| c.as_slice() == g) {
            return Ok(());
        }
        self.ode.system_mut().set_control(ds.index(), g).map_err(|e| ufe(t, "control input", e))?;
        if self.started {
            let mut x = self.x.clone();
            self.switch(t, &mut x)?;
            self.ode.reinit(t, &x).map_err(ode_err(t))?;
            self.x = x;
        }
        Ok(())
    }

    /// Chooses the mode at `(t, x)`, moves `x` onto a relative-degree-one mode's manifold.
    fn switch(&mut self, t: f64, x: &mut [f64]) -> Result<SolveReportOpt, KernelError> {
        let delta = self.opts.mode_probe * self.opts.h;
        let lcs = self.ode.system();
        let (report, mode) = lcs
            .with_mats(t, |m| -> Result<_, KernelError> {
                let (comps, report) = mode::select(lcs, m, t, x, delta, &self.opts.acceleration)?;
                let mode = ModeData::classify(lcs, m, comps, t)?;
                mode.project(lcs, m, x).map_err(|e| ufe(t, "mode projection", e))?;
                Ok((report, mode))
            })
            .map_err(|e| ufe(t, "first-order model", e))??;
        self.ode.system_mut().mode = mode;
        Ok(Some(report))
    }

    /// `(λ, y)` of the current mode at `(t, x)`.
    fn outputs(&self, t: f64, x: &[f64]) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
        let lcs = self.ode.system();
        let (mut lam, mut y) = (vec![0.0; lcs.nl], vec![0.0; lcs.nl]);
        lcs.outputs(t, x, &mut lam, &mut y).map_err(|e| ufe(t, "mode multipliers", e))?;
        Ok((lam, y))
    }

    fn step_ode(&mut self, t_out: f64) -> Result<OdeStop, KernelError> {
        let t_last = self.ode.t();
        self.ode.step_until(t_out).map_err(ode_err(t_last))
    }

    /// One event (see [`crate::EventDriven::advance`]). A mode root switches the mode (a
    /// nonsmooth event); user events found at the same time are reported in
    /// [`EventReport::user`], their resets act on the located state, after which the mode is
    /// chosen again and the integrator restarts; record and stop events alone leave the state,
    /// the mode and the integrator's steps unchanged ([`EventKind::User`]).
    pub fn advance(&mut self, nsds: &mut Nsds) -> Result<EventReport, KernelError> {
        if !self.started {
            let t0 = self.t_event;
            let mut x = self.x.clone();
            self.switch(t0, &mut x)?;
            self.ode.reinit(t0, &x).map_err(ode_err(t0))?;
            self.x = x;
            self.started = true;
        }
        let Stop { t, t_low, which, transitions, td } = self.next_stop()?;
        let mut rep = EventReport::bare(t, EventKind::TimeDiscretisation, td);
        if which.is_some() {
            let n_mode = 2 * self.ode.system().nl;
            let mode_root = transitions.iter().any(|r| r.index < n_mode);
            let mut x = self.ode.y().to_vec();
            let user = self.handle_user(t, t_low, &transitions, &mut x)?;
            if mode_root || user.as_ref().is_some_and(|u| u.reset) {
                let (lam0, y0) = self.outputs(t, &x)?;
                rep.pre_lambda = Some(self.split(&lam0));
                rep.pre_y = Some(self.split(&y0));
                rep.acceleration = self.switch(t, &mut x)?;
                self.ode.reinit(t, &x).map_err(ode_err(t))?;
            }
            self.x = x;
            if mode_root {
                self.n_ns += 1;
                rep.kind = EventKind::NonSmooth;
            } else {
                rep.kind = EventKind::User;
            }
            rep.user = user;
        }
        let x = self.x.clone();
        let (lam, y) = self.outputs(t, &x)?;
        self.lam = lam;
        self.y = y;
        rep.closed = self.ode.system().mode.free.len();
        self.write_back(nsds, t)?;
        Ok(rep)
    }

    /// The user events among `transitions` (root indices `2 m + k`, after the mode's): see
    /// [`super::user_hit`]; a system's event state is its slice of `x`.
    fn handle_user(
        &self,
        t: f64,
        t_low: f64,
        transitions: &[RootTransition],
        x: &mut [f64],
    ) -> Result<Option<UserEventHit>, KernelError> {
        let lcs = self.ode.system();
        let gather = |k: usize, x: &[f64], s: &mut Vec<f64>| {
            s.clear();
            s.extend_from_slice(lcs.state_of(k, x));
        };
        let scatter = |k: usize, s: &[f64], x: &mut [f64]| {
            let d = &lcs.ds[k];
            x[d.off..d.off + d.n].copy_from_slice(s);
        };
        super::user_hit(&lcs.user, (2 * lcs.nl, lcs.ds.len()), (t, t_low), transitions, x, (gather, scatter))
    }

    fn split(&self, v: &[f64]) -> Vec<DVector<f64>> {
        self.ode.system().inters.iter().map(|it| DVector::from_column_slice(&v[it.row..it.row + it.m])).collect()
    }

    /// Writes `x`, `r = B λ`, `y`, `λ` and `t` into `nsds`.
    fn write_back(&self, nsds: &mut Nsds, t: f64) -> Result<(), KernelError> {
        let lcs = self.ode.system();
        let r = lcs.with_mats(t, |m| &m.bm * DVector::from_column_slice(&self.lam)).map_err(|e| ufe(t, "B(t)", e))?;
        let (systems, _) = nsds.parts_mut();
        for (ds, m) in systems.iter_mut().zip(&lcs.ds) {
            let (xs, _, rs) = ds.state_mut();
            xs.as_mut_slice().copy_from_slice(&self.x[m.off..m.off + m.n]);
            rs.as_mut_slice().copy_from_slice(&r.as_slice()[m.off..m.off + m.n]);
        }
        for it in &lcs.inters {
            let Some(inter) = nsds.linked_mut(it.id) else { continue };
            inter.y[0].as_mut_slice().copy_from_slice(&self.y[it.row..it.row + it.m]);
            inter.lambda[0].as_mut_slice().copy_from_slice(&self.lam[it.row..it.row + it.m]);
        }
        nsds.set_t(t);
        Ok(())
    }
}

crate::simulation::event_driven::stepping::impl_ed_stepper!(FirstOrderEd);

type SolveReportOpt = Option<saltus_numerics::SolveReport>;
