//! Time stepping with direct projection (Siconos `TimeSteppingDirectProjection`): after the
//! Moreau–Jean step, the positions are projected onto the bilateral constraints `h(q) = 0`
//! (`EqualityConditionNSL`) and the violated unilateral ones `y ≥ 0` (normal component of the
//! impact laws), in the metric of the mass matrix.
//!
//! Gauss–Newton projection (position level, the core shared with the joints of
//! `saltus_mechanics`: [`gauss_newton`]), repeated with the relations re-evaluated until the
//! violation `max(max_e |h_e(q)|, max_u max(0, −h_u(q))) ≤ tol` or `max_iter` iterations:
//!
//! ```text
//! G = H M⁻¹ Hᵀ,   w = G μ + h(q),   w_e = 0 (μ_e free),   0 ≤ w_u ⊥ μ_u ≥ 0,
//! q ← q ⊕ M⁻¹ Hᵀ μ
//! ```
//!
//! (`q + δq` for generalized coordinates; on a system with a kinematics map `q̇ = N(q) v`, whose
//! `H = C N`, the correction is a velocity `δv` retracted onto the coordinates: the exponential
//! map for a rigid body, `q + N(q) δv` with the unit quaternion renormalized otherwise)
//!
//! over the equality rows and the unilateral rows with `h_u(q) < tol`, solved exactly by
//! principal pivoting (module `pivot`: Murty's least-index method). Then, unless disabled, the velocities are projected onto the
//! tangent space of the bilateral constraints at the projected positions (Siconos's
//! `TimeSteppingCombinedProjection` does the same at velocity level):
//! `v ← v + M⁻¹ Hₑᵀ ν` with `Hₑ M⁻¹ Hₑᵀ ν = −Hₑ v`, the mass-weighted orthogonal projection, which
//! never increases the kinetic energy. Unilateral velocities are left to the impact law.
//! With [`ProjectionOptions::accuracy`] the stopping test is Simmath's constraint accuracy
//! instead, `‖T c‖ ≤ α` with `T = diag(1/t_i)` and `c` the violations above (a unilateral row
//! is a candidate when `h_u(q) < α t_i`). After [`crate::Osi::SemiExplicitEuler`] this is the
//! CPODES-style coordinate projection of positions then velocities.
//! Every workspace is sized in [`TimeSteppingDirectProjection::new`]; a projection allocates
//! nothing unless a user function does.

pub mod gauss_newton;
mod pivot;

use super::constraint_accuracy::ConstraintAccuracy;
use super::osi::Osi;
use super::osnsp::{OnNonConvergence, Osnsp};
use super::report::{ProjectionReport, StepReport};
use super::time_stepping::TimeStepping;
use crate::error::KernelError;
use crate::model::ds::{DynamicalSystem, Mass};
use crate::model::nsds::Nsds;
use crate::model::nslaw::NonSmoothLaw;
use gauss_newton::{
    project_positions, project_velocities, ConstraintSet, Evaluation, GaussNewton, Level, ProjectionFailure,
};
use nalgebra::{DMatrix, DVector};
use pivot::{cholesky_in_place, cholesky_solve, PivotError};
use saltus_numerics::matrix::{CouplingGraph, NO_SYSTEM};
use saltus_numerics::{NumericsError, SolveReport, SolveStatus};
use std::time::Instant;

/// Options of the position projection.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectionOptions {
    /// Accepted constraint violation: `|h(q)|` on bilateral rows, `max(0, −h(q))` on unilateral
    /// rows (max norm; unused when `accuracy` is set).
    pub tol: f64,
    /// The stopping test `‖T c‖ ≤ α` of Simmath's constraint tolerances instead of `tol`; the
    /// rows `i` of `t_i` are the components of the constrained interactions (equality, then
    /// unilateral laws alike) in declaration order.
    pub accuracy: Option<ConstraintAccuracy>,
    /// Gauss–Newton iterations per step (1 is exact for linear relations).
    pub max_iter: usize,
    /// Also project the velocities onto `∇h(q) v = 0` for the bilateral constraints.
    pub project_velocity: bool,
    /// [`OnNonConvergence::Accept`]: keep the last iterate and report `converged = false`;
    /// [`OnNonConvergence::Fail`]: return [`KernelError::NotConverged`].
    pub on_non_convergence: OnNonConvergence,
}

impl Default for ProjectionOptions {
    fn default() -> Self {
        ProjectionOptions {
            tol: 1e-10,
            accuracy: None,
            max_iter: 10,
            project_velocity: true,
            on_non_convergence: OnNonConvergence::Accept,
        }
    }
}

impl ProjectionOptions {
    /// `tol` finite and > 0, `max_iter` > 0 (the accuracy is checked against the rows when
    /// the projection is built).
    pub fn validate(&self) -> Result<(), KernelError> {
        if !(self.tol > 0.0 && self.tol.is_finite()) || self.max_iter == 0 {
            return Err(KernelError::InvalidOption {
                option: "projection",
                reason: format!(
                    "tol must be finite and > 0 and max_iter > 0, got tol = {}, max_iter = {}",
                    self.tol, self.max_iter
                ),
            });
        }
        Ok(())
    }
}

/// A constrained scalar row: component `comp` of interaction `inter`.
#[derive(Debug, Clone, Copy)]
struct Row {
    inter: usize,
    comp: usize,
    /// Index in declaration order (the row of its constraint tolerance).
    decl: usize,
}

/// The Cholesky factor of a system's mass matrix.
struct MassWork {
    chol: DMatrix<f64>,
    constant: bool,
    ready: bool,
}

/// Moreau–Jean time stepping followed by a projection of the positions (and of the velocities
/// onto the bilateral constraints).
pub struct TimeSteppingDirectProjection {
    inner: TimeStepping,
    options: ProjectionOptions,
    /// Equality rows first, then the unilateral ones.
    rows: Vec<Row>,
    n_eq_rows: usize,
    mass: Vec<MassWork>,
    /// Per interaction: `M⁻¹ Hᵀ` (stacked over its one or two systems).
    minv_ht: Vec<DMatrix<f64>>,
    need: Vec<bool>,
    cand: Vec<usize>,
    /// Coupling graph of the candidate rows (for `G`).
    graph: CouplingGraph,
    /// The Gauss–Newton workspace (no shift: redundant constraints are an error).
    gn: GaussNewton,
    saved: Vec<(DVector<f64>, DVector<f64>)>,
    /// Per system with a kinematics map: its correction in velocity space (`dim_v`; empty for
    /// the others), and `N(q)`.
    dv: Vec<DVector<f64>>,
    nbuf: DMatrix<f64>,
}

impl TimeSteppingDirectProjection {
    /// As [`TimeStepping::new`] (Moreau–Jean only) followed by the projection with `options`.
    pub fn new(nsds: &Nsds, h: f64, osi: Osi, osnsp: Osnsp, options: ProjectionOptions) -> Result<Self, KernelError> {
        if !osi.allows_projection() {
            return Err(no_projection(&osi));
        }
        options.validate()?;
        let inner = TimeStepping::new(nsds, h, osi, osnsp)?;
        Self::from_time_stepping(nsds, inner, options)
    }

    /// Adds the projection to a configured time stepping (its one-step problem and Newton
    /// options are kept) of the same `nsds`.
    pub fn from_time_stepping(
        nsds: &Nsds,
        inner: TimeStepping,
        options: ProjectionOptions,
    ) -> Result<Self, KernelError> {
        if let Some(osi) = inner.integrator_lacking(Osi::allows_projection) {
            return Err(no_projection(&osi));
        }
        options.validate()?;
        let (mut eq, mut uni) = (Vec::new(), Vec::new());
        for (k, inter) in nsds.interactions().iter().enumerate() {
            if !inter.relation.is_lagrangian() {
                continue;
            }
            if inter.relation.is_compliant() {
                return Err(KernelError::InvalidCombination {
                    name: inter.name.clone(),
                    id: nsds.handle(k),
                    reason: format!(
                        "a {} contact rests at a negative rigid gap, which the direct projection would remove: \
                         use plain MoreauJeanOSI time stepping",
                        inter.relation.kind_name()
                    ),
                });
            }
            let decl = eq.len() + uni.len();
            match &inter.law {
                NonSmoothLaw::EqualityCondition { size } => {
                    eq.extend((0..*size).map(|comp| Row { inter: k, comp, decl: decl + comp }))
                }
                NonSmoothLaw::ComplementarityCondition { size } => {
                    uni.extend((0..*size).map(|comp| Row { inter: k, comp, decl: decl + comp }))
                }
                NonSmoothLaw::NewtonImpact { .. } | NonSmoothLaw::NewtonImpactFriction { .. } => {
                    uni.push(Row { inter: k, comp: 0, decl })
                }
                _ => {}
            }
        }
        if let Some(a) = &options.accuracy {
            a.validate(eq.len() + uni.len())?;
        }
        let n_eq_rows = eq.len();
        let mut rows = eq;
        rows.extend(uni);
        let n = rows.len();
        let mass = nsds
            .systems()
            .iter()
            .map(|ds| MassWork {
                chol: DMatrix::zeros(ds.dim_v(), ds.dim_v()),
                constant: !matches!(
                    ds,
                    DynamicalSystem::Lagrangian(d) if matches!(d.mass, Mass::Function(_))
                ),
                ready: false,
            })
            .collect();
        let minv_ht = inner.iws.iter().map(|iw| DMatrix::zeros(iw.n1 + iw.n2, iw.m)).collect();
        let saved = nsds.systems().iter().map(|ds| (DVector::zeros(ds.dim_q()), DVector::zeros(ds.dim_v()))).collect();
        let dv = nsds
            .systems()
            .iter()
            .map(|ds| DVector::zeros(if ds.kinematics().is_some() { ds.dim_v() } else { 0 }))
            .collect();
        Ok(TimeSteppingDirectProjection {
            need: vec![false; nsds.n_interactions()],
            inner,
            options,
            rows,
            n_eq_rows,
            mass,
            minv_ht,
            cand: Vec::with_capacity(n),
            graph: CouplingGraph::default(),
            gn: GaussNewton::new(n, 0.0),
            saved,
            dv,
            nbuf: DMatrix::zeros(0, 0),
        })
    }

    /// The inner time stepping, to hold a control input between steps.
    pub fn time_stepping_mut(&mut self) -> &mut TimeStepping {
        &mut self.inner
    }

    /// The inner time stepping.
    pub fn time_stepping(&self) -> &TimeStepping {
        &self.inner
    }

    /// The projection options.
    pub fn options(&self) -> &ProjectionOptions {
        &self.options
    }

    /// As [`TimeStepping::run`]: steps until `t_k` reaches `until`, calling `f` after each step.
    pub fn run(
        &mut self,
        nsds: &mut Nsds,
        until: f64,
        f: &mut impl FnMut(&Nsds, &StepReport),
    ) -> Result<u64, KernelError> {
        let (h, k) = (self.inner.h(), self.inner.k());
        let t0 = self.inner.t() - k as f64 * h;
        let total = ((until - t0) / h).round().max(0.0) as u64;
        let mut done = 0;
        while self.inner.k() < total {
            let rep = self.step(nsds)?;
            f(nsds, &rep);
            done += 1;
        }
        Ok(done)
    }

    /// One Moreau–Jean step, then the projection. If the projection fails, the model is left at
    /// the unprojected Moreau–Jean state of the step's end.
    pub fn step(&mut self, nsds: &mut Nsds) -> Result<StepReport, KernelError> {
        if nsds.revision() != self.inner.revision {
            // the constraint rows and their mass factors are built once, at construction
            return Err(KernelError::InvalidOption {
                option: "nsds",
                reason: format!(
                    "at t = {}: the model's topology changed during a run with the direct projection, whose \
                     constraint rows are fixed at construction; build a new simulation from the changed model",
                    self.inner.t()
                ),
            });
        }
        let mut rep = self.inner.step(nsds)?;
        for (ds, (q, v)) in nsds.systems().iter().zip(self.saved.iter_mut()) {
            q.copy_from(ds.state());
            if let Some(vel) = ds.velocity() {
                v.copy_from(vel);
            }
        }
        match self.project(nsds, rep.t) {
            Ok(p) => {
                rep.projection = Some(p);
                Ok(rep)
            }
            Err(e) => {
                let (systems, _) = nsds.parts_mut();
                for (ds, (q, v)) in systems.iter_mut().zip(&self.saved) {
                    let (x, vel, _) = ds.state_mut();
                    x.copy_from(q);
                    if let Some(vel) = vel {
                        vel.copy_from(v);
                    }
                }
                // Best effort: the outputs of the restored state (the original error wins).
                let _ = refresh(&mut self.inner, nsds, rep.t);
                Err(e)
            }
        }
    }

    fn project(&mut self, nsds: &mut Nsds, t: f64) -> Result<ProjectionReport, KernelError> {
        let start = Instant::now();
        for m in self.mass.iter_mut() {
            m.ready &= m.constant;
        }
        let mut set = Manifold {
            inner: &mut self.inner,
            options: &self.options,
            rows: &self.rows,
            n_eq_rows: self.n_eq_rows,
            mass: &mut self.mass,
            minv_ht: &mut self.minv_ht,
            need: &mut self.need,
            cand: &mut self.cand,
            graph: &mut self.graph,
            dv: &mut self.dv,
            nbuf: &mut self.nbuf,
            nsds,
            t,
        };
        let failure = |e| match e {
            ProjectionFailure::Constraints(e) => e,
            ProjectionFailure::Pivot(e) => pivot_error(e, t),
        };
        let out = project_positions(&mut set, &mut self.gn, self.options.max_iter).map_err(failure)?;
        let mut report = ProjectionReport {
            iterations: out.iterations,
            violation: out.violation,
            active: out.active,
            converged: out.converged,
            velocity_violation: 0.0,
        };
        if !report.converged && self.options.on_non_convergence == OnNonConvergence::Fail {
            return Err(KernelError::NotConverged {
                t,
                report: SolveReport {
                    status: SolveStatus::MaxIterations,
                    iterations: report.iterations,
                    residual: report.violation,
                    elapsed: start.elapsed(),
                },
            });
        }
        if self.options.project_velocity && self.n_eq_rows > 0 {
            project_velocities(&mut set, &mut self.gn).map_err(failure)?;
        }
        report.velocity_violation = self.rows[..self.n_eq_rows]
            .iter()
            .map(|row| self.inner.iws[row.inter].y[1][row.comp].abs())
            .fold(0.0, f64::max);
        Ok(report)
    }
}

/// The interactions' constraint rows as the [`ConstraintSet`] of the Gauss–Newton projection.
struct Manifold<'a> {
    inner: &'a mut TimeStepping,
    options: &'a ProjectionOptions,
    rows: &'a [Row],
    n_eq_rows: usize,
    mass: &'a mut [MassWork],
    minv_ht: &'a mut [DMatrix<f64>],
    need: &'a mut [bool],
    /// The rows (indices into `rows`) of the current correction.
    cand: &'a mut Vec<usize>,
    graph: &'a mut CouplingGraph,
    dv: &'a mut [DVector<f64>],
    nbuf: &'a mut DMatrix<f64>,
    nsds: &'a mut Nsds,
    t: f64,
}

impl ConstraintSet for Manifold<'_> {
    type Error = KernelError;

    /// The violation `max(max_e |h_e(q)|, max_u max(0, −h_u(q)))` (or the constraint accuracy)
    /// and the candidates: every equality row, the unilateral rows with `h_u(q) < tol`.
    fn evaluate(&mut self) -> Result<Evaluation, KernelError> {
        let tol = self.options.tol;
        self.cand.clear();
        let mut n_eq = 0;
        let mut viol: f64 = 0.0;
        for (r, row) in self.rows.iter().enumerate() {
            let y = self.inner.iws[row.inter].y[0][row.comp];
            if r < self.n_eq_rows {
                viol = viol.max(y.abs());
                self.cand.push(r);
                n_eq += 1;
            } else {
                viol = viol.max(-y);
                let row_tol = self.options.accuracy.as_ref().map_or(tol, |a| a.alpha * a.tol_of(row.decl));
                if y < row_tol {
                    self.cand.push(r);
                }
            }
        }
        let converged = match &self.options.accuracy {
            None => viol <= tol,
            Some(a) => {
                let iws = &self.inner.iws;
                let n_eq_rows = self.n_eq_rows;
                let c = self.rows.iter().enumerate().map(|(r, row)| {
                    let y = iws[row.inter].y[0][row.comp];
                    (row.decl, if r < n_eq_rows { y } else { (-y).max(0.0) })
                });
                a.measure(c) <= a.alpha
            }
        };
        Ok(Evaluation { rows: self.cand.len(), n_eq, violation: viol, converged })
    }

    fn velocity_rows(&mut self) -> usize {
        self.cand.clear();
        self.cand.extend(0..self.n_eq_rows);
        self.n_eq_rows
    }

    fn gram(&mut self, level: Level, g: &mut DMatrix<f64>, y: &mut [f64]) -> Result<(), KernelError> {
        self.compute_minv_ht()?;
        self.assemble_g(g)?;
        let l = if level == Level::Position { 0 } else { 1 };
        for (a, &r) in self.cand.iter().enumerate() {
            let row = self.rows[r];
            y[a] = self.inner.iws[row.inter].y[l][row.comp];
        }
        Ok(())
    }

    fn correct(&mut self, level: Level, mu: &[f64]) -> Result<(), KernelError> {
        self.apply(mu, level == Level::Position)?;
        refresh(self.inner, self.nsds, self.t)
    }
}

impl Manifold<'_> {
    /// `M⁻¹ Hᵀ` of the interactions of the candidate rows, at the current positions. The mass
    /// matrices are factored once (constant) or once per projection (`M(q)`, at its start).
    fn compute_minv_ht(&mut self) -> Result<(), KernelError> {
        let (nsds, t) = (&*self.nsds, self.t);
        self.need.fill(false);
        for &r in self.cand.iter() {
            self.need[self.rows[r].inter] = true;
        }
        for (k, inter) in nsds.interactions().iter().enumerate() {
            if !self.need[k] {
                continue;
            }
            let iw = &self.inner.iws[k];
            let out = &mut self.minv_ht[k];
            let n = iw.n1 + iw.n2;
            for d in inter.ds_ids() {
                let Some((off, nd)) = iw.block_of(d) else { continue };
                let mw = &mut self.mass[d.index()];
                if !mw.ready {
                    factor_mass(&nsds.systems()[d.index()], mw, t, d)?;
                }
                for c in 0..iw.m {
                    for i in 0..nd {
                        out[(off + i, c)] = iw.jac[(c, off + i)];
                    }
                    let col = &mut out.as_mut_slice()[c * n + off..c * n + off + nd];
                    cholesky_solve(&mw.chol, nd, col);
                }
            }
        }
        Ok(())
    }

    /// `g[a, b] = H_a M⁻¹ H_bᵀ` over the `c` candidate rows (`g[..c, ..c]`), over the couplings
    /// of the rows' systems.
    fn assemble_g(&mut self, g: &mut DMatrix<f64>) -> Result<(), KernelError> {
        let (rows, cand, iws, minv_ht) = (self.rows, &*self.cand, &self.inner.iws, &*self.minv_ht);
        let systems = |&r: &usize| {
            let ds = iws[rows[r].inter].ds;
            [ds.0 .0, ds.1.map_or(NO_SYSTEM, |d| d.0)]
        };
        let (t, c) = (self.t, cand.len());
        let num = |source| KernelError::Numerics { t, source };
        self.graph.build(self.nsds.n_ds(), cand.iter().map(systems)).map_err(num)?;
        self.graph
            .fill_dense(
                |_| 1,
                g.view_mut((0, 0), (c, c)),
                |c, mut out| {
                    let (ra, rb) = (rows[cand[c.row]], rows[cand[c.col]]);
                    let (ia, ib, mb) = (&iws[ra.inter], &iws[rb.inter], &minv_ht[rb.inter]);
                    let mut s = 0.0;
                    for &(sa, sb) in c.sides() {
                        let ((ca, na), (cb, _)) = (ia.side_block(sa), ib.side_block(sb));
                        for i in 0..na {
                            s += ia.jac[(ra.comp, ca + i)] * mb[(cb + i, rb.comp)];
                        }
                    }
                    out[(0, 0)] = s;
                },
            )
            .map_err(num)
    }

    /// `q ⊕ M⁻¹ Hᵀ μ` (positions) or `v += M⁻¹ Hᵀ μ` (velocities) over the candidates. On a
    /// system with a kinematics map `q̇ = N(q) v` the position correction is a velocity-space
    /// `δv = M⁻¹ Hᵀ μ` (`H = C N`), retracted onto the coordinates: `(x + δx, q ⊗ exp(δΩ))` for a
    /// rigid body (the retraction of `mechanics`' joint projection), `q + N(q) δv` with the unit
    /// quaternion renormalized otherwise (Siconos's `MoreauJeanDirectProjectionOSI` for
    /// `NewtonEulerDS`).
    fn apply(&mut self, mu: &[f64], positions: bool) -> Result<(), KernelError> {
        let t = self.t;
        let (systems, _) = self.nsds.parts_mut();
        for (a, &r) in self.cand.iter().enumerate() {
            let row = self.rows[r];
            let iw = &self.inner.iws[row.inter];
            let mt = &self.minv_ht[row.inter];
            for (d, off, nd) in [(Some(iw.ds.0), 0, iw.n1), (iw.ds.1, iw.n1, iw.n2)] {
                let Some(d) = d else { continue };
                let dv = &mut self.dv[d.index()];
                let (q, v, _) = systems[d.index()].state_mut();
                let target = match (positions, dv.len()) {
                    (true, 0) => Some(q),
                    (true, _) => Some(dv),
                    (false, _) => v,
                };
                if let Some(x) = target {
                    for i in 0..nd {
                        x[i] += mt[(off + i, row.comp)] * mu[a];
                    }
                }
            }
        }
        if positions {
            for (i, dv) in self.dv.iter_mut().enumerate().filter(|(_, dv)| !dv.is_empty()) {
                retract(&mut systems[i], dv, self.nbuf, t, i as u32)?;
                dv.fill(0.0);
            }
        }
        if systems.iter().any(|ds| {
            ds.state().iter().any(|x| !x.is_finite()) || ds.velocity().is_some_and(|v| v.iter().any(|x| !x.is_finite()))
        }) {
            return Err(KernelError::NonFinite {
                t,
                what: if positions { "projected positions" } else { "projected velocities" },
                interaction: None,
            });
        }
        Ok(())
    }
}

/// `q ← q ⊕ δv` on a system with a kinematics map (see [`Manifold::apply`]).
fn retract(
    ds: &mut DynamicalSystem,
    dv: &DVector<f64>,
    nbuf: &mut DMatrix<f64>,
    t: f64,
    id: u32,
) -> Result<(), KernelError> {
    if ds.rigid_body().is_some() {
        let q = ds.state_mut().0;
        let x = nalgebra::Vector3::new(q[0], q[1], q[2]);
        let quat = nalgebra::UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(q[3], q[4], q[5], q[6]));
        let (dx, dw) = (dv.fixed_rows::<3>(0).into_owned(), dv.fixed_rows::<3>(3).into_owned());
        let (x1, q1) = super::osi::rigid_body::update_pose(&x, &quat, &dx, &dw, 1.0);
        q.rows_mut(0, 3).copy_from(&x1);
        let c = q1.quaternion().coords; // (x, y, z, w)
        q.rows_mut(3, 4).copy_from_slice(&[c[3], c[0], c[1], c[2]]);
        return Ok(());
    }
    let Some(n_map) = ds.kinematics().cloned() else { return Ok(()) };
    if nbuf.shape() != (ds.dim_q(), ds.dim_v()) {
        *nbuf = DMatrix::zeros(ds.dim_q(), ds.dim_v());
    }
    nbuf.fill(0.0);
    n_map(t, ds.state().as_slice(), nbuf).map_err(super::osi::user_err(t, "kinematics N(q)", id))?;
    ds.state_mut().0.gemv(1.0, nbuf, dv, 1.0);
    ds.normalize_q();
    Ok(())
}

/// Outputs (both levels) and index sets from the current state, written into the model.
fn refresh(inner: &mut TimeStepping, nsds: &mut Nsds, t: f64) -> Result<(), KernelError> {
    inner.refresh_outputs(nsds, t)?;
    for iw in inner.iws.iter_mut() {
        iw.y_old[1].copy_from(&iw.y[1]);
        if let Some(inter) = nsds.linked_mut(iw.id) {
            inter.y[1].copy_from(&iw.y[1]);
        }
    }
    Ok(())
}

/// Evaluates (for `M(q)`) and factors the mass matrix of `ds` into `mw.chol`.
fn factor_mass(ds: &DynamicalSystem, mw: &mut MassWork, t: f64, id: crate::DsId) -> Result<(), KernelError> {
    match ds {
        DynamicalSystem::LagrangianLinearTi(d) => mw.chol.copy_from(&d.mass),
        DynamicalSystem::Lagrangian(d) => match &d.mass {
            Mass::Constant(m) => mw.chol.copy_from(m),
            Mass::Function(f) => {
                f(t, d.q.as_slice(), &mut mw.chol).map_err(super::osi::user_err(t, "mass matrix M(q)", id.0))?
            }
        },
        _ => {
            return Err(KernelError::UnsupportedSystem {
                ds: id,
                reason: format!("{} cannot be projected (no mass matrix)", ds.kind_name()),
            })
        }
    }
    let n = mw.chol.nrows();
    cholesky_in_place(&mut mw.chol, n).map_err(|i| KernelError::UnsupportedSystem {
        ds: id,
        reason: format!(
            "at t = {t}: the mass matrix is not symmetric positive definite (pivot {i}); the projection needs M⁻¹"
        ),
    })?;
    mw.ready = true;
    Ok(())
}

fn pivot_error(e: PivotError, t: f64) -> KernelError {
    match e {
        PivotError::Singular(index) => KernelError::Numerics {
            t,
            source: NumericsError::Singular { what: "projection matrix H M⁻¹ Hᵀ (redundant constraints)", index },
        },
        PivotError::Cycling => KernelError::NotConverged {
            t,
            report: SolveReport {
                status: SolveStatus::Failed(saltus_numerics::FailReason::Stalled),
                iterations: 0,
                residual: f64::INFINITY,
                elapsed: std::time::Duration::ZERO,
            },
        },
    }
}

/// The error for an integrator whose positions the direct projection cannot correct.
fn no_projection(osi: &Osi) -> KernelError {
    KernelError::InvalidOption {
        option: "osi",
        reason: format!("direct projection needs MoreauJeanOSI or SemiExplicitEuler, not {}", osi.kind_name()),
    }
}
