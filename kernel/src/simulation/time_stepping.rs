//! Time stepping (Siconos `TimeStepping`): `t_k = t0 + k h`, one Newton loop per step.

use super::assembly::Assembly;
use super::gosi::GosiWork;
use super::index_sets::IndexSets;
use super::interaction_work::InterWork;
use super::osi::{euler_moreau, DsWork, NewtonOptions, Osi};
use super::osnsp::{self, OnNonConvergence, Osnsp, OsnspOptions, OsnspState};
use super::proximity::{InteractionManager, ProximityManager};
use super::report::StepReport;
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::nsds::{InterId, Nsds};
use crate::model::nslaw::NonSmoothLaw;
use crate::model::relation::Relation;
use saltus_numerics::gmp::GmpBlock;

/// A time-stepping simulation of one [`Nsds`].
///
/// Build it from the model in the state it will start from; every (system, relation, law,
/// integrator, problem) combination is checked here, so [`TimeStepping::step`] never meets an
/// unsupported one. Each step runs the Siconos phases: `compute_free_state`,
/// `compute_jacobians`/`assemble`, `solve_osnsp`, `update_input`, `update_state`,
/// `update_output` (repeated by the Newton loop for nonlinear models), then `update_index_sets`.
pub struct TimeStepping {
    pub(crate) h: f64,
    t_start: f64,
    k: u64,
    pub(crate) osi: Osi,
    pub(crate) osnsp: Osnsp,
    pub(crate) options: OsnspOptions,
    newton: NewtonOptions,
    pub(crate) dsw: Vec<DsWork>,
    pub(crate) iws: Vec<InterWork>,
    pub(crate) sets: IndexSets,
    pub(crate) asm: Assembly,
    state: OsnspState,
    /// Every system and relation is linear: one Newton iteration is exact.
    pub(crate) linear: bool,
    /// Every block of `M` is constant while the active set is stable.
    pub(crate) constant_matrix: bool,
    /// The active set of the next step (level of the problem).
    pub(crate) level_set: usize,
    pub(crate) osnsp_size: usize,
    activation_threshold: f64,
    /// The global problem's buffers (MoreauJeanGOSI only).
    pub(crate) gosi: Option<GosiWork>,
    /// The [`Nsds::revision`] this simulation's workspaces match.
    pub(crate) revision: u64,
    /// A `FirstOrderNonLinearR` is present: its Jacobians are evaluated before the free
    /// state, whose `W` contains `−h K`.
    has_k: bool,
    /// The interaction managers run between steps (`proximity.rs`: Siconos
    /// `InteractionManager`), in the order installed.
    managers: Vec<Box<dyn InteractionManager>>,
}

impl TimeStepping {
    /// A simulation of `nsds` from its current time and state with step `h`, integrator `osi`
    /// and one-step problem `osnsp`. Checks every combination; errors name the interaction.
    pub fn new(nsds: &Nsds, h: f64, osi: Osi, osnsp: Osnsp) -> Result<Self, KernelError> {
        if !(h > 0.0 && h.is_finite()) {
            return Err(KernelError::InvalidOption {
                option: "h",
                reason: format!("time step must be finite and > 0, got {h}"),
            });
        }
        osi.validate()?;
        osnsp.validate()?;
        check_combinations(nsds, &osi, &osnsp)?;
        let t = nsds.t();
        let mut dsw: Vec<DsWork> = Vec::with_capacity(nsds.n_ds());
        for (i, ds) in nsds.systems().iter().enumerate() {
            let mut w = DsWork::new(crate::DsId(i as u32), (ds.dim_q(), ds.dim_v()), osi);
            osi.init(ds, &mut w, h, t)?;
            dsw.push(w);
        }
        let iws: Vec<InterWork> = nsds
            .interactions()
            .iter()
            .enumerate()
            .map(|(i, inter)| InterWork::new(nsds.handle(i), inter, nsds.systems(), h))
            .collect();
        // systems under a FirstOrderNonLinearR: W = M − hθ∇f − hK, rebuilt at every iterate
        let mut has_k = false;
        for iw in &iws {
            if nsds.linked(iw.id).is_some_and(|inter| matches!(inter.relation, Relation::FirstOrderNonLinear(_))) {
                has_k = true;
                for d in [Some(iw.ds.0), iw.ds.1].into_iter().flatten() {
                    euler_moreau::enable_k(&mut dsw[d.index()]);
                }
            }
        }
        let linear = dsw.iter().all(|w| w.linear) && nsds.interactions().iter().all(|i| i.relation.is_linear());
        let constant_matrix = dsw.iter().all(|w| w.w_constant) && iws.iter().all(|w| w.constant);
        let gosi = osi.is_global().then(|| GosiWork::new(&dsw));
        let mut ts = TimeStepping {
            h,
            t_start: t,
            k: 0,
            osi,
            osnsp,
            options: OsnspOptions::default(),
            newton: NewtonOptions::default(),
            dsw,
            iws,
            sets: IndexSets::new(nsds.n_interactions()),
            asm: Assembly::new(),
            state: OsnspState::default(),
            linear,
            constant_matrix,
            level_set: if osi.level() == 1 { 1 } else { 0 },
            osnsp_size: 0,
            activation_threshold: 0.0,
            gosi,
            revision: nsds.revision(),
            has_k,
            managers: Vec::new(),
        };
        // Initial outputs (kept in the workspace: the model's y stay 0 until the first step, as
        // in Siconos) and the first index set.
        for iw in ts.iws.iter_mut() {
            let Some(inter) = nsds.linked(iw.id) else { continue };
            iw.compute_jacobians(inter, nsds.systems(), t)?;
            iw.compute_extra(inter, nsds.systems(), t)?;
            iw.update_output(inter, nsds.systems(), t)?;
            iw.y_old = iw.y.clone();
        }
        ts.update_index_sets(nsds);
        Ok(ts)
    }

    /// Replaces the one-step problem options (storage, warm start, non-convergence policy).
    pub fn with_options(mut self, options: OsnspOptions) -> Result<Self, KernelError> {
        if options.sparse_threshold == 0 && options.storage == super::assembly::Storage::Auto {
            return Err(KernelError::InvalidOption { option: "sparse_threshold", reason: "must be > 0".into() });
        }
        self.options = options;
        Ok(self)
    }

    /// Holds the control input term `g` of system `ds` over the next steps, until set again
    /// (Siconos's actuators' `B u`, written by a control manager at its instants):
    /// `M ẋ = f(t, x) + g + r` (first order, added to the vector field at both ends of the θ
    /// step) or `M v̇ = F(t, q, v) + g + p` (Lagrangian, added to the forces). `g` has the size
    /// of `x` or of `v`; a non-finite entry is refused (the state never sees it).
    pub fn set_control_input(&mut self, ds: crate::DsId, g: &[f64]) -> Result<(), KernelError> {
        let Some(w) = self.dsw.get_mut(ds.index()) else {
            return Err(KernelError::InvalidModel { what: format!("system {ds:?}"), reason: "no such system".into() });
        };
        // the size of x (first order) or of v (Lagrangian: 6 for a rigid body whose q has 7)
        super::check_control_input(ds, g, w.v_k.len())?;
        match &mut w.control {
            Some(c) => c.as_mut_slice().copy_from_slice(g),
            None => w.control = Some(nalgebra::DVector::from_column_slice(g)),
        }
        Ok(())
    }

    /// Attaches integrator `osi` to system `ds` instead of the simulation's (Siconos
    /// `simulation.associate(osi, ds)`, one `OneStepIntegrator` per system): a model may mix
    /// Moreau–Jean with different θ or γ and the semi-explicit Euler, or Euler–Moreau schemes,
    /// as long as every system's integrator works at the level of the one problem and with its
    /// assembly (local or global, see [`Osi::shares_problem_with`]). The interactions of `ds`
    /// take the activation rule of the integrator of their first system. Before the first step.
    pub fn with_integrator(mut self, nsds: &Nsds, ds: crate::DsId, osi: Osi) -> Result<Self, KernelError> {
        osi.validate()?;
        let Some(old) = self.dsw.get(ds.index()) else {
            return Err(KernelError::InvalidModel { what: format!("system {ds:?}"), reason: "no such system".into() });
        };
        if self.k > 0 {
            return Err(KernelError::InvalidOption {
                option: "integrator",
                reason: format!("the integrator of system {ds:?} is chosen before the first step"),
            });
        }
        if !osi.shares_problem_with(&self.osi) {
            return Err(KernelError::UnsupportedSystem {
                ds,
                reason: format!(
                    "{} cannot share the one-step problem of {} (level {} {} against level {} {})",
                    osi.kind_name(),
                    self.osi.kind_name(),
                    osi.level(),
                    if osi.is_global() { "global" } else { "local" },
                    self.osi.level(),
                    if self.osi.is_global() { "global" } else { "local" },
                ),
            });
        }
        check_system(nsds, ds, &osi)?;
        let system = &nsds.systems()[ds.index()];
        let mut w = DsWork::new(ds, (system.dim_q(), system.dim_v()), osi);
        osi.init(system, &mut w, self.h, nsds.t())?;
        if old.has_k {
            euler_moreau::enable_k(&mut w);
        }
        let old = std::mem::replace(&mut self.dsw[ds.index()], w);
        let w = &mut self.dsw[ds.index()];
        w.control = old.control;
        self.linear = self.dsw.iter().all(|w| w.linear) && nsds.interactions().iter().all(|i| i.relation.is_linear());
        self.constant_matrix = self.dsw.iter().all(|w| w.w_constant) && self.iws.iter().all(|w| w.constant);
        if self.gosi.is_some() {
            self.gosi = Some(GosiWork::new(&self.dsw));
        }
        self.update_index_sets(nsds);
        Ok(self)
    }

    /// The first system integrator without the property `has` (`None`: every one has it).
    pub(crate) fn integrator_lacking(&self, has: fn(&Osi) -> bool) -> Option<Osi> {
        self.dsw.iter().map(|w| w.osi).find(|o| !has(o))
    }

    /// The integrator attached to system `ds` (see [`TimeStepping::with_integrator`]).
    pub fn integrator(&self, ds: crate::DsId) -> Option<&Osi> {
        self.dsw.get(ds.index()).map(|w| &w.osi)
    }

    /// Replaces the Newton loop options.
    pub fn with_newton(mut self, newton: NewtonOptions) -> Result<Self, KernelError> {
        newton.validate()?;
        self.newton = newton;
        Ok(self)
    }

    /// Moreau–Jean activation threshold `s`: a unilateral interaction enters the problem when
    /// `y + γ h ẏ ≤ s` (Siconos `MoreauJeanOSI::setConstraintActivationThreshold`, default 0).
    /// A small `s > 0` keeps resting contacts active despite round-off separations left by
    /// iterative solvers.
    pub fn with_activation_threshold(mut self, s: f64, nsds: &Nsds) -> Result<Self, KernelError> {
        if !s.is_finite() {
            return Err(KernelError::InvalidOption {
                option: "activation_threshold",
                reason: format!("must be finite, got {s}"),
            });
        }
        self.activation_threshold = s;
        self.update_index_sets(nsds);
        Ok(self)
    }

    /// Installs the interactions declared with an activation distance (see [`ProximityManager`]):
    /// those already within their distance are linked now, the others after the step that brings
    /// them close. Only with [`Osi::MoreauJean`] (the integrators whose workspaces follow links).
    pub fn with_proximity(self, mut manager: ProximityManager, nsds: &mut Nsds) -> Result<Self, KernelError> {
        if manager.is_empty() {
            return Ok(self);
        }
        let first = manager.declared().next().map(|i| i.name.clone()).unwrap_or_default();
        self.check_follows_links(&first, "interactions with an activation distance")?;
        let mut ts = self;
        manager.update(&mut ts, nsds)?;
        manager.clear_dormant_outputs();
        ts.managers.push(Box::new(manager));
        Ok(ts)
    }

    /// Installs an interaction manager (Siconos `insertInteractionManager`): it runs once now
    /// and after every step, linking and removing interactions (see [`InteractionManager`]).
    /// Only with [`Osi::MoreauJean`] (the integrators whose workspaces follow links).
    pub fn with_interaction_manager(
        mut self,
        mut manager: Box<dyn InteractionManager>,
        nsds: &mut Nsds,
    ) -> Result<Self, KernelError> {
        self.check_follows_links("", "an interaction manager")?;
        manager.update_interactions(&mut self, nsds)?;
        self.managers.push(manager);
        Ok(self)
    }

    /// Refuses a manager (`what`) when an integrator's workspaces cannot follow links.
    fn check_follows_links(&self, name: &str, what: &str) -> Result<(), KernelError> {
        let Some(other) = self.integrator_lacking(Osi::follows_links) else {
            return Ok(());
        };
        Err(KernelError::InvalidCombination {
            name: name.to_string(),
            id: InterId::new(u32::MAX, 0),
            reason: format!("{what} needs MoreauJeanOSI, not {}", other.kind_name()),
        })
    }

    /// The interactions declared with an activation distance, if any.
    pub fn proximity(&self) -> Option<&ProximityManager> {
        self.managers.iter().find_map(|m| m.as_proximity())
    }

    /// The time step `h`.
    pub fn h(&self) -> f64 {
        self.h
    }
    /// Steps done.
    pub fn k(&self) -> u64 {
        self.k
    }
    /// Time of the current state, `t0 + k h`.
    pub fn t(&self) -> f64 {
        self.t_start + self.k as f64 * self.h
    }
    /// Time at the end of the next step.
    pub fn next_time(&self) -> f64 {
        self.t_start + (self.k + 1) as f64 * self.h
    }
    /// The integrator.
    pub fn osi(&self) -> &Osi {
        &self.osi
    }
    /// The one-step problem.
    pub fn osnsp(&self) -> &Osnsp {
        &self.osnsp
    }
    /// Index sets (the active set of the next step is `index_sets().set(1)` for Moreau–Jean).
    pub fn index_sets(&self) -> &IndexSets {
        &self.sets
    }

    /// Advances `nsds` by one step. On error the model is left at the previous step.
    pub fn step(&mut self, nsds: &mut Nsds) -> Result<StepReport, KernelError> {
        let t_k = self.t();
        let t1 = self.next_time();
        // links and removals made on the model since the last step (its change log)
        self.consume_changes(nsds)?;
        let report = match self.step_inner(nsds, t_k, t1) {
            Ok(r) => r,
            Err(e) => {
                self.rollback(nsds);
                return Err(e);
            }
        };
        // links and removals between this step and the next (Siconos tutorials: between
        // `computeOneStep` and `nextStep`)
        let mut managers = std::mem::take(&mut self.managers);
        let res = managers.iter_mut().try_for_each(|m| m.update_interactions(self, nsds));
        self.managers = managers;
        res?;
        Ok(report)
    }

    fn step_inner(&mut self, nsds: &mut Nsds, t_k: f64, t1: f64) -> Result<StepReport, KernelError> {
        // the step's length (first-order input terms): `self.h` up to the rounding of `t_k`
        let h = t1 - t_k;
        self.begin_step(nsds, t_k)?;
        let active_set = self.level_set;
        let n_active = self.sets.set(active_set).len();
        let n = self.osnsp_size;
        self.asm.resize(n);
        let sparse = self.options.sparse_for(&self.osnsp, n);
        let mut report = StepReport {
            k: self.k + 1,
            t: t1,
            newton_iterations: 0,
            newton_residual: 0.0,
            newton_converged: true,
            osnsp: None,
            osnsp_size: n,
            active: n_active,
            projection: None,
        };
        let mut iter = 0;
        loop {
            iter += 1;
            if self.has_k {
                self.compute_k(nsds, t1)?;
            }
            self.compute_free_state(nsds, t1)?;
            // relations at the iterate (Jacobians, linearization, F z + e(t))
            let nonlinear_fo = self.compute_relations(nsds, t1)?;
            if nonlinear_fo {
                self.linearization_shift(h, t1)?;
            }
            // assemble + solve_osnsp
            for w in self.dsw.iter_mut() {
                w.input.fill(0.0);
            }
            if let Some(g) = self.gosi.as_mut() {
                g.solved = false;
            }
            if n > 0 {
                let rep =
                    if self.gosi.is_some() { self.solve_gfc(nsds, t1)? } else { self.solve_osnsp(nsds, t1, sparse)? };
                report.osnsp = Some(rep);
            }
            self.update_input(nsds, nonlinear_fo);
            let (delta, scale_x) = self.update_state(nsds, t1)?;
            self.update_output(nsds, t1)?;
            report.newton_iterations = iter;
            if self.linear {
                break;
            }
            let tol = self.newton.tol;
            let (res_y, res_r) = if nonlinear_fo && (self.newton.residu_y || self.newton.residu_r) {
                let (y, r) = self.relation_residuals(nsds, t1, self.newton.residu_r)?;
                (if self.newton.residu_y { y } else { 0.0 }, r)
            } else {
                (0.0, 0.0)
            };
            report.newton_residual = delta.max(res_y).max(res_r);
            if delta <= tol * (1.0 + scale_x) && res_y <= tol && res_r <= tol {
                break;
            }
            if iter >= self.newton.max_iter {
                if self.options.on_non_convergence == OnNonConvergence::Fail {
                    return Err(KernelError::NewtonNotConverged { t: t1, iterations: iter, residual: delta });
                }
                report.newton_converged = false;
                break;
            }
            for iw in self.iws.iter_mut() {
                iw.lambda_i.copy_from(&iw.lambda);
            }
        }
        if let (Some(rep), OnNonConvergence::Fail) = (&report.osnsp, self.options.on_non_convergence) {
            if !rep.status.converged() {
                return Err(KernelError::NotConverged { t: t1, report: rep.clone() });
            }
        }
        self.commit(nsds, t1);
        self.k += 1;
        self.update_index_sets(nsds);
        Ok(report)
    }

    /// Relation Jacobians and constant terms at the current iterate; `W⁻¹ B` for the active
    /// interactions. Returns `true` if a nonlinear first-order relation is present.
    fn compute_relations(&mut self, nsds: &Nsds, t1: f64) -> Result<bool, KernelError> {
        // first order: the input enters x = x_free + h W⁻¹ r, seen by the relations at x_(k+γ)
        let mut nonlinear_fo = false;
        let h = t1 - self.t();
        for iw in self.iws.iter_mut() {
            let Some(inter) = nsds.linked(iw.id) else { continue };
            let osi = self.dsw[iw.ds.0.index()].osi;
            let scale = if osi.level() == 0 { h * osi.relation_gamma().unwrap_or(1.0) } else { 1.0 };
            let fresh = matches!(inter.relation, Relation::FirstOrderNonLinear(_)); // by compute_k
            if (!iw.constant || self.k == 0) && !fresh {
                iw.compute_jacobians(inter, nsds.systems(), t1)?;
            }
            iw.compute_extra(inter, nsds.systems(), t1)?;
            nonlinear_fo |= matches!(
                inter.relation,
                Relation::FirstOrderType1(_) | Relation::FirstOrderType2(_) | Relation::FirstOrderNonLinear(_)
            );
            if self.sets.position(iw.id).is_some() {
                iw.compute_winv_b(&self.dsw, scale, t1)?;
            }
        }
        Ok(nonlinear_fo)
    }

    /// Jacobians of every `FirstOrderNonLinearR` at the iterate, and `Σ K` per system.
    fn compute_k(&mut self, nsds: &Nsds, t1: f64) -> Result<(), KernelError> {
        for w in self.dsw.iter_mut().filter(|w| w.has_k) {
            w.k_sum.fill(0.0);
        }
        for iw in self.iws.iter_mut() {
            let inter = nsds.linked(iw.id);
            if let Some(inter) = inter.filter(|i| matches!(i.relation, Relation::FirstOrderNonLinear(_))) {
                iw.compute_jacobians(inter, nsds.systems(), t1)?;
                iw.add_k(&mut self.dsw);
            }
        }
        Ok(())
    }

    /// For nonlinear first-order relations: the one-step problem sees
    /// `x_free + h W⁻¹ Σ (g(λ_i) − B λ_i)`.
    fn linearization_shift(&mut self, h: f64, t1: f64) -> Result<(), KernelError> {
        for w in self.dsw.iter_mut() {
            w.input.fill(0.0);
        }
        for iw in &self.iws {
            for (d, off, n) in [(Some(iw.ds.0), 0, iw.n1), (iw.ds.1, iw.n1, iw.n2)] {
                if let Some(d) = d {
                    self.dsw[d.index()].input += &iw.r_lin.rows(off, n);
                }
            }
        }
        for w in self.dsw.iter_mut() {
            w.lu.solve(w.input.as_mut_slice(), t1)?;
            w.free_osnsp.axpy(h, &w.input, 1.0);
        }
        Ok(())
    }

    fn solve_osnsp(&mut self, nsds: &Nsds, t1: f64, sparse: bool) -> Result<saltus_numerics::SolveReport, KernelError> {
        let set = self.sets.set(self.level_set);
        // q: free outputs; z: warm start
        for id in set {
            let off = self.sets.position(*id).unwrap_or(0);
            let iw = &mut self.iws[id.index()];
            let inter = &nsds.interactions()[id.index()];
            iw.free_output(inter, nsds.systems(), &self.dsw, &mut self.asm.q[off..off + iw.m]);
            let z = &mut self.asm.z[off..off + iw.m];
            if self.options.warm_start {
                z.copy_from_slice(iw.lambda.as_slice());
            } else {
                z.fill(0.0);
            }
        }
        let gen = self.sets.generation;
        if self.asm.ready_generation != Some(gen) {
            row_data(&mut self.state, &self.sets, self.level_set, nsds);
            if matches!(self.osnsp, Osnsp::Avi(_)) {
                let laws =
                    set.iter().map(|id| (self.sets.position(*id).unwrap_or(0), &nsds.interactions()[id.index()].law));
                osnsp::fill_polyhedron(&mut self.state, self.asm.n, laws);
            }
        }
        if !(self.constant_matrix && self.asm.ready_generation == Some(gen)) {
            self.asm
                .assemble_matrix(set, &self.iws, nsds.n_ds(), sparse, gen)
                .map_err(|source| KernelError::Numerics { t: t1, source })?;
            self.asm.mark_ready(gen);
        }
        let rep = osnsp::solve(&self.osnsp, &mut self.asm, &mut self.state)
            .map_err(|source| KernelError::Numerics { t: t1, source })?;
        // non-finite output never enters the state
        if let Some(i) = self.asm.z.iter().position(|v| !v.is_finite()) {
            let inter = set.iter().find(|id| {
                let off = self.sets.position(**id).unwrap_or(0);
                i >= off && i < off + self.iws[id.index()].m
            });
            return Err(KernelError::NonFinite { t: t1, what: "multiplier λ", interaction: inter.copied() });
        }
        for id in set {
            let off = self.sets.position(*id).unwrap_or(0);
            let iw = &mut self.iws[id.index()];
            iw.lambda.as_mut_slice().copy_from_slice(&self.asm.z[off..off + iw.m]);
        }
        Ok(rep)
    }

    /// update_index_sets: Moreau–Jean (and the semi-explicit Euler) activates a unilateral interaction when
    /// `y₀ + γ h ẏ₀ ≤ 0` (first component) and always activates equality-type laws;
    /// Euler–Moreau uses every interaction.
    pub(crate) fn update_index_sets(&mut self, nsds: &Nsds) {
        // I0: the live interactions (removed slots are tombstones)
        let changed0 = self.sets.update(0, self.iws.iter().map(|iw| (iw.id, nsds.is_linked(iw.id))));
        let changed0 = changed0 && self.level_set == 0;
        let changed = self.level_set == 1 && {
            let (h, s) = (self.h, self.activation_threshold);
            let (iws, dsw) = (&self.iws, &self.dsw);
            let active = iws.iter().map(|iw| {
                // the rule of the integrator of the interaction's first system (as Siconos)
                let on = match (nsds.linked(iw.id), dsw[iw.ds.0.index()].osi.activation_gamma()) {
                    (None, _) => false,
                    (Some(inter), Some(gamma)) if inter.law.is_unilateral() => {
                        super::index_sets::moreau_jean_active(iw.y[0][0], iw.y[1][0], gamma, h, s)
                    }
                    _ => true,
                };
                (iw.id, on)
            });
            self.sets.update(1, active)
        };
        if changed || changed0 || self.sets.generation == 0 {
            let iws = &self.iws;
            self.osnsp_size = self.sets.place(self.level_set, |id| iws[id.index()].m);
        }
    }

    /// Recomputes every output from the current state (after a projection) and the next
    /// index set; writes `y` into the model.
    pub(crate) fn refresh_outputs(&mut self, nsds: &mut Nsds, t: f64) -> Result<(), KernelError> {
        for iw in self.iws.iter_mut() {
            let Some(inter) = nsds.linked(iw.id) else { continue };
            if !iw.constant && inter.relation.is_lagrangian() {
                iw.compute_jacobians(inter, nsds.systems(), t)?;
            }
            iw.update_output(inter, nsds.systems(), t)?;
            iw.y_old[0].copy_from(&iw.y[0]);
        }
        for iw in &self.iws {
            if let Some(inter) = nsds.linked_mut(iw.id) {
                inter.y[0].copy_from(&iw.y[0]);
            }
        }
        self.update_index_sets(nsds);
        Ok(())
    }

    /// Restores the state of every system at the start of the failed step.
    fn rollback(&mut self, nsds: &mut Nsds) {
        let (systems, _) = nsds.parts_mut();
        for (ds, w) in systems.iter_mut().zip(&self.dsw) {
            let lag = ds.is_lagrangian();
            let (x, v, input) = ds.state_mut();
            x.copy_from(&w.x_k);
            if let (Some(v), true) = (v, lag) {
                v.copy_from(&w.v_k);
            }
            input.copy_from(&w.input_k);
        }
    }
}

/// Checks every (system, relation, law, integrator, problem) combination.
fn check_combinations(nsds: &Nsds, osi: &Osi, osnsp: &Osnsp) -> Result<(), KernelError> {
    let lagrangian_osi = osi.is_lagrangian();
    let gosi = osi.is_global();
    let gfc = matches!(osnsp, Osnsp::GlobalFrictionContact { .. });
    if gosi && !gfc {
        return Err(KernelError::InvalidOption {
            option: "osnsp",
            reason: format!(
                "MoreauJeanGOSI needs the one-step problem GlobalFrictionContact, not {}",
                osnsp.kind_name()
            ),
        });
    }
    if gfc && !gosi {
        return Err(KernelError::InvalidOption {
            option: "osi",
            reason: format!(
                "the one-step problem GlobalFrictionContact needs MoreauJeanGOSI (it keeps M and H apart), not {}",
                osi.kind_name()
            ),
        });
    }
    for i in 0..nsds.n_ds() {
        check_system(nsds, crate::DsId(i as u32), osi)?;
    }
    for i in 0..nsds.n_interactions() {
        check_interaction(nsds, nsds.handle(i), lagrangian_osi, osnsp)?;
    }
    Ok(())
}

/// Checks that integrator `osi` can integrate system `ds` (its family; the θ-γ scheme needs a
/// linear first-order system whose relations are linear).
fn check_system(nsds: &Nsds, ds: crate::DsId, osi: &Osi) -> Result<(), KernelError> {
    let system = &nsds.systems()[ds.index()];
    if system.is_lagrangian() != osi.is_lagrangian() {
        return Err(KernelError::UnsupportedSystem {
            ds,
            reason: format!("{} cannot be integrated by {}", system.kind_name(), osi.kind_name()),
        });
    }
    if system.kinematics().is_some() && !osi.takes_kinematics() {
        return Err(KernelError::UnsupportedSystem {
            ds,
            reason: format!(
                "a kinematics map q̇ = N(q) v needs SemiExplicitEuler or MoreauJean, not {}",
                osi.kind_name()
            ),
        });
    }
    if !osi.linear_relations_only() {
        return Ok(());
    }
    let (scheme, option) = match osi.relation_gamma() {
        Some(_) => ("the θ-γ Euler–Moreau scheme", "gamma"),
        None => (osi.kind_name(), "osi"),
    };
    if !matches!(system, DynamicalSystem::FirstOrderLinearTi(_) | DynamicalSystem::FirstOrderLinear(_)) {
        return Err(KernelError::UnsupportedSystem {
            ds,
            reason: format!("{scheme} needs linear first-order systems, as in Siconos, not {}", system.kind_name()),
        });
    }
    for id in nsds.interactions_of(ds) {
        let inter = &nsds.interactions()[id.index()];
        if !matches!(inter.relation, Relation::FirstOrderLinearTi(_) | Relation::FirstOrderLinear(_)) {
            return Err(KernelError::InvalidOption {
                option,
                reason: format!(
                    "{scheme} needs linear relations (FirstOrderLinearR), as in Siconos; interaction {} has {}",
                    id.index(),
                    inter.relation.kind_name()
                ),
            });
        }
    }
    Ok(())
}

/// Checks the (systems, relation, law, problem) combination of interaction `id`.
pub(crate) fn check_interaction(
    nsds: &Nsds,
    id: InterId,
    lagrangian_osi: bool,
    osnsp: &Osnsp,
) -> Result<(), KernelError> {
    let inter = &nsds.interactions()[id.index()];
    let err = |reason: String| KernelError::InvalidCombination { name: inter.name.clone(), id, reason };
    for d in inter.ds_ids() {
        let ds = &nsds.systems()[d.index()];
        if ds.is_lagrangian() != inter.relation.is_lagrangian() {
            return Err(err(format!(
                "relation {} cannot act on the {} `{}`",
                inter.relation.kind_name(),
                ds.kind_name(),
                nsds.ds_name(d).unwrap_or("?")
            )));
        }
    }
    if matches!(inter.law, NonSmoothLaw::NewtonImpact { .. } | NonSmoothLaw::NewtonImpactFriction { .. })
        && !lagrangian_osi
    {
        return Err(err(format!("{} needs Lagrangian systems and MoreauJeanOSI", inter.law.kind_name())));
    }
    osnsp.accepts(&inter.law, inter.relation.is_lagrangian()).map_err(err)?;
    if inter.relation.is_compliant() && matches!(osnsp, Osnsp::GlobalFrictionContact { .. }) {
        return Err(err(format!(
            "{} needs its compliance D/h² in the condensed matrix H W⁻¹ Hᵀ: use MoreauJeanOSI with LCP, MLCP, \
             FrictionContact or GenericMechanical, not GlobalFrictionContact",
            inter.relation.kind_name()
        )));
    }
    Ok(())
}

/// Per-row data of the problem for the current active set: relay bounds, MLCP row order.
fn row_data(st: &mut OsnspState, sets: &IndexSets, level_set: usize, nsds: &Nsds) {
    st.lb.clear();
    st.mu.clear();
    st.ub.clear();
    st.perm.clear();
    let laws = || {
        sets.set(level_set).iter().map(|id| {
            let off = sets.position(*id).unwrap_or(0);
            (off, &nsds.interactions()[id.index()].law)
        })
    };
    for (off, law) in laws() {
        // equality rows first
        st.perm.extend(off..off + law.n_equalities());
        for j in 0..law.size() {
            if let (0, NonSmoothLaw::NewtonImpactFriction { mu, .. }) = (j, law) {
                st.mu.push(*mu);
            }
            if let NonSmoothLaw::Relay { lb, ub } = law {
                st.lb.push(lb[j]);
                st.ub.push(ub[j]);
            }
        }
    }
    st.n_eq = st.perm.len();
    st.gmp.clear();
    for (_, law) in laws() {
        match law {
            NonSmoothLaw::EqualityCondition { size } => st.gmp.push(GmpBlock::Equality(*size)),
            NonSmoothLaw::NewtonImpactFriction { mu, dim, .. } => {
                st.gmp.push(GmpBlock::FrictionContact { dim: *dim, mu: *mu })
            }
            // one relay block per row: −w_j ∈ N_[lb_j, ub_j](λ_j)
            NonSmoothLaw::Relay { lb, ub } => {
                st.gmp.extend(lb.iter().zip(ub.iter()).map(|(&lb, &ub)| GmpBlock::Relay { lb, ub }))
            }
            other => st.gmp.push(GmpBlock::Complementarity(other.size())),
        }
    }
    for (off, law) in laws() {
        st.perm.extend(off + law.n_equalities()..off + law.size());
    }
}
