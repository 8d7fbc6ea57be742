//! Time stepping of a [`MechanicsModel`]: collision detection → interaction update →
//! Moreau–Jean free velocities → sparse `W = H M⁻¹ Hᵀ` → FC3D solve → velocity and pose update.

use crate::assembly::Assembly;
use crate::body::{BodyKind, BodyState};
use crate::collision::{CollisionDetector, ContactKey, ContactPoint};
use crate::error::{MechanicsError, Result};
use crate::joints::projection::ProjectionReport;
use crate::joints::step::JointWorkspace;
use crate::joints::JointProjection;
use crate::model::MechanicsModel;
use crate::moreau_jean::{free_angular_velocity, free_angular_velocity_bc, free_velocity, predicted, update_pose};
use crate::BodyId;
use nalgebra::{Matrix3, Vector3};
use saltus_kernel::OnNonConvergence;
use saltus_numerics::fc::{solve_with_workspace, FcSolver, FcWorkspace, FrictionContact, NsgsOptions};
use saltus_numerics::gmp::GmpOptions;
use saltus_numerics::matrix::Operator;
use saltus_numerics::{IterOptions, SolveReport};
use std::time::{Duration, Instant};

mod capture;
mod energy;
mod events;
mod gosi;
mod joint_path;
mod order;
mod planar;
mod rolling;
mod rows;

pub use capture::{Captured, CapturedProblem};
pub use energy::StepEnergy;
pub use gosi::Formulation;
pub use order::ContactOrder;

/// Options of the Moreau–Jean time stepping of rigid bodies.
#[derive(Debug, Clone, PartialEq)]
pub struct MoreauJeanOptions {
    /// θ of the scheme, in `[½, 1]` (½: energy-conserving free flight; Siconos scenes use 0.50001).
    pub theta: f64,
    /// Activation: a contact enters the problem (index set 1) when `g + γ h u_N ≤ δ` at the
    /// start of the step (Siconos's rule, γ = ½).
    pub gamma: f64,
    /// `δ` of the activation rule relative to the model's margin (default 1e-6): contacts at
    /// rest with a gap at round-off level (a box face on a plane: `g = 0`, `u_N = ±1e-16`) stay
    /// active instead of flickering.
    pub activation_tol: f64,
    /// Siconos `activate_with_negative_relative_velocity` with `constraint_activation_threshold_velocity`
    /// (`Some(s_v)`): a contact also needs its normal relative velocity at the start of the step
    /// `u_N ≤ s_v` to enter the problem, so a contact within reach that is opening is left out.
    /// `None` (default): the gap rule alone.
    pub activation_velocity: Option<f64>,
    /// The FC3D solver; default NSGS (Alart–Curnier local solver) with warm start,
    /// tolerance 1e-6 and 1000 sweeps.
    pub solver: FcSolver,
    /// What to do when the solver does not converge.
    pub on_non_convergence: OnNonConvergence,
    /// Relative tolerance of the gyroscopic fixed point.
    pub gyro_tol: f64,
    /// Iteration cap of the gyroscopic fixed point.
    pub gyro_max_iter: usize,
    /// Solver of the one-step problem when the model has joints (block Gauss–Seidel over one
    /// equality block and the contacts; default tolerance 1e-6 and 1000 sweeps, as the FC3D
    /// solver; without contacts one sweep solves the joints exactly).
    pub joint_solver: GmpOptions,
    /// Projection onto the joints (and, with `contacts`, the contacts) after each step.
    pub joint_projection: JointProjection,
    /// Order of the active contacts in the friction-contact problem (the NSGS sweep order).
    pub contact_order: ContactOrder,
    /// Local (`W = H M⁻¹ Hᵀ`, [`MoreauJeanOptions::solver`]) or global (`M`, `H` kept apart,
    /// Siconos `MoreauJeanGOSI`) one-step problem; default local.
    pub formulation: Formulation,
}

impl Default for MoreauJeanOptions {
    fn default() -> Self {
        MoreauJeanOptions {
            theta: 0.5,
            gamma: 0.5,
            activation_tol: 1e-6,
            activation_velocity: None,
            solver: nsgs(1e-6, 1000),
            on_non_convergence: OnNonConvergence::Accept,
            gyro_tol: 1e-15,
            gyro_max_iter: 50,
            joint_solver: GmpOptions::with_iter(IterOptions::new(1e-6, 1000)),
            joint_projection: JointProjection::default(),
            contact_order: ContactOrder::Key,
            formulation: Formulation::Local,
        }
    }
}

/// Anderson memory of the default mechanics solver ([`nsgs`]): 0, plain sweeps. On
/// `spheres_in_a_box` N = 125 the safeguarded acceleration (memory 3) takes a third fewer sweeps,
/// but at N = 1000 it cost 16 % more CPU time in one run and it lets the 10-box stack drift by
/// 7 µm in 2 s (`mechanics/benches/README.md`), so it stays opt-in (`anderson` in the XML).
pub const NSGS_ANDERSON_MEMORY: usize = 0;

/// NSGS (Alart–Curnier local solver) with warm start, Anderson memory [`NSGS_ANDERSON_MEMORY`],
/// the given tolerance and sweep cap.
pub fn nsgs(tol: f64, max_iter: usize) -> FcSolver {
    let mut o = NsgsOptions::with_iter(IterOptions::new(tol, max_iter));
    o.warm_start = true;
    o.anderson = NSGS_ANDERSON_MEMORY;
    FcSolver::NsgsAc(o)
}

/// What happened in one step.
#[derive(Debug, Clone, PartialEq)]
pub struct MechanicsStepReport {
    /// Time at the end of the step.
    pub t: f64,
    /// Contacts closer than the margin (index set 0).
    pub n_contacts: usize,
    /// Contacts in the friction-contact problem (index set 1).
    pub n_active: usize,
    /// Candidate pairs of the broad phase.
    pub n_pairs: usize,
    /// The one-step solver's report: the FC3D solve, or with joints the GenericMechanical solve
    /// (joints and contacts together); `None` when there was nothing to solve.
    pub solver: Option<SolveReport>,
    /// Bodies whose gyroscopic fixed point hit its cap (0 normally).
    pub gyro_not_converged: usize,
    /// The projection after the step (`None` without projection, or without joints when the
    /// contacts are not projected).
    pub projection: Option<ProjectionReport>,
    /// Kinetic energy at the step's end and the work of its forces and contact impulses
    /// (Siconos `output_energy_work`).
    pub energy: StepEnergy,
    /// Wall time of the step's phases.
    pub phases: StepPhases,
}

/// Wall time of the phases of one step (for profiles; the solve's own time is also in
/// [`SolveReport::elapsed`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepPhases {
    /// Broad and narrow phase.
    pub collision: Duration,
    /// Free velocities, the active contacts' rows and `W = H M⁻¹ Hᵀ`.
    pub assembly: Duration,
    /// The one-step problem's solve (with the solver's own set-up: partition, copies).
    pub solve: Duration,
    /// Velocities from the impulses, poses, warm start of the next step, projection.
    pub update: Duration,
}

/// Per-body scratch of a step.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BodyWork {
    pub(crate) v: Vector3<f64>,
    pub(crate) omega: Vector3<f64>,
    /// `τ_θ`, the θ-weighted torque of the step (dynamic bodies).
    pub(crate) tau: Vector3<f64>,
    pub(crate) next: Option<BodyState>,
    /// The smooth forces' impulse of the step, `(m (v_free − v_k), I (Ω_free − Ω_k))`
    /// (dynamic bodies; the step's work, [`energy`]).
    pub(crate) smooth: [Vector3<f64>; 2],
}

/// `v_b += (M⁻¹ Hᵀ)_b λ` for each dynamic side `b` of a row with `C` unknowns: `sides[s].1` is
/// side `s`'s `M⁻¹ Hᵀ` (6 × C: translation then rotation), `body[s]` its body or `NO_BODY`.
fn add_side_impulses<H, const C: usize>(
    work: &mut [BodyWork],
    body: [u32; 2],
    sides: &[(H, nalgebra::SMatrix<f64, 6, C>); 2],
    lam: &nalgebra::SVector<f64, C>,
) {
    for (s, side) in sides.iter().enumerate() {
        if body[s] != crate::assembly::NO_BODY {
            let dv = side.1 * lam;
            let w = &mut work[body[s] as usize];
            w.v += dv.fixed_rows::<3>(0);
            w.omega += dv.fixed_rows::<3>(3);
        }
    }
}

/// A running simulation: the model, the time, the options and every buffer reused between steps.
#[derive(Debug)]
pub struct MechanicsSimulation {
    /// The scene (bodies carry the current state).
    pub model: MechanicsModel,
    /// The time of the state, `t0 + k h` (exact decimal step times, as the kernel's and
    /// Siconos's `TimeDiscretisation`: no running sum).
    t: f64,
    t0: f64,
    k: u64,
    h: f64,
    opts: MoreauJeanOptions,
    detector: CollisionDetector,
    contacts: Vec<ContactPoint>,
    /// Impulses of the last step in the world frame, by key (warm start).
    warm: Vec<(ContactKey, Vector3<f64>)>,
    next_warm: Vec<(ContactKey, Vector3<f64>)>,
    active: Vec<u32>,
    frames: Vec<Matrix3<f64>>,
    work: Vec<BodyWork>,
    asm: Assembly,
    /// Scratch of [`MechanicsSimulation::build_rows`].
    row_scratch: Vec<rows::ActiveRow>,
    q: Vec<f64>,
    mu: Vec<f64>,
    r: Vec<f64>,
    u: Vec<f64>,
    fc_ws: FcWorkspace,
    capture: bool,
    captured: Option<Captured>,
    joint_ws: JointWorkspace,
    joint_vel: Vec<(Vector3<f64>, Vector3<f64>)>,
    joint_mid: Vec<(Vector3<f64>, Vector3<f64>)>,
    rolling: rolling::RollingWork,
    global: gosi::GlobalWork,
    planar: planar::PlanarWork,
}

impl MechanicsSimulation {
    /// A simulation starting at `t0` with step `h`.
    pub fn new(model: MechanicsModel, t0: f64, h: f64, opts: MoreauJeanOptions) -> Result<Self> {
        if !(h > 0.0 && h.is_finite() && t0.is_finite()) {
            return Err(MechanicsError::InvalidOption { option: "h", reason: format!("step must be > 0, got {h}") });
        }
        if !(0.5..=1.0).contains(&opts.theta) {
            return Err(MechanicsError::InvalidOption {
                option: "theta",
                reason: format!("must be in [0.5, 1], got {}", opts.theta),
            });
        }
        if !(0.0..=1.0).contains(&opts.gamma) {
            return Err(MechanicsError::InvalidOption {
                option: "gamma",
                reason: format!("must be in [0, 1], got {}", opts.gamma),
            });
        }
        if opts.activation_velocity.is_some_and(|v| !v.is_finite()) {
            return Err(MechanicsError::InvalidOption {
                option: "activation_velocity",
                reason: format!("must be finite, got {:?}", opts.activation_velocity),
            });
        }
        if !(0.0..1.0).contains(&opts.activation_tol) {
            return Err(MechanicsError::InvalidOption {
                option: "activation_tol",
                reason: format!("must be in [0, 1), got {}", opts.activation_tol),
            });
        }
        if opts.solver.tol().is_nan() || opts.gyro_max_iter == 0 || !(opts.gyro_tol > 0.0) {
            return Err(MechanicsError::InvalidOption {
                option: "gyro_tol",
                reason: "tolerances must be > 0 and caps > 0".into(),
            });
        }
        opts.joint_projection.validate()?;
        let mut sim = MechanicsSimulation {
            model,
            t: t0,
            t0,
            k: 0,
            h,
            opts,
            detector: CollisionDetector::default(),
            contacts: Vec::new(),
            warm: Vec::new(),
            next_warm: Vec::new(),
            active: Vec::new(),
            frames: Vec::new(),
            work: Vec::new(),
            asm: Assembly::default(),
            row_scratch: Vec::new(),
            q: Vec::new(),
            mu: Vec::new(),
            r: Vec::new(),
            u: Vec::new(),
            fc_ws: FcWorkspace::default(),
            capture: false,
            captured: None,
            joint_ws: JointWorkspace::default(),
            joint_vel: Vec::new(),
            joint_mid: Vec::new(),
            rolling: Default::default(),
            global: Default::default(),
            planar: Default::default(),
        };
        gosi::check_global(&sim)?;
        planar::check(&sim)?;
        sim.project_initial_velocities()?;
        Ok(sim)
    }
    /// Current time.
    pub fn time(&self) -> f64 {
        self.t
    }
    /// Time step.
    pub fn step_size(&self) -> f64 {
        self.h
    }
    /// The options.
    pub fn options(&self) -> &MoreauJeanOptions {
        &self.opts
    }
    /// Replaces the one-step solver of the local formulation from the next step on (Siconos:
    /// changing the solver options of the one-step nonsmooth problem between steps); its options
    /// are checked when it runs, and a bad option makes that step return an error. With
    /// [`Formulation::Global`] the global solver of [`MoreauJeanOptions::formulation`] is used.
    pub fn set_solver(&mut self, solver: FcSolver) {
        self.opts.solver = solver;
    }
    /// Removes body `id` from the next step on (Siconos `removeDynamicalSystem` between steps):
    /// its time of death becomes the current time, so it is frozen and collides with nothing
    /// (it keeps its `BodyId`, as a body past its `death`). A body already removed stays so.
    pub fn remove_body(&mut self, id: BodyId) -> Result<()> {
        let t = self.t;
        let b = self.model.bodies.get_mut(id.index()).ok_or_else(|| MechanicsError::InvalidModel {
            what: format!("{id:?}"),
            reason: "no such body to remove".into(),
        })?;
        b.lifetime.death = b.lifetime.death.min(t);
        Ok(())
    }
    /// Adds a body between steps (Siconos `insertDynamicalSystem` during a run): it exists from
    /// the current time on (its time of birth, if earlier, becomes now), collides from the next
    /// step, and is numbered after every body so far.
    pub fn add_body(&mut self, mut d: crate::BodyDesc) -> Result<BodyId> {
        d.lifetime.birth = d.lifetime.birth.max(self.t);
        self.model.add_body(d)
    }
    /// How the threads spent the last step's NSGS solve on subdomains (time in parts per
    /// worker, the rest spent waiting); `None` when it was not one.
    pub fn last_team_times(&self) -> Option<&saltus_numerics::fc::nsgs::TeamTimes> {
        self.fc_ws.last_team_times()
    }

    /// Contacts of the last step (index set 0, sorted by key) with their impulses.
    pub fn contacts(&self) -> &[ContactPoint] {
        &self.contacts
    }

    /// Free velocities of every body into `self.work` (prescribed velocity at `t + h` for
    /// kinematic bodies, zero for static ones). Returns the number of gyroscopic fixed points
    /// that hit their cap.
    fn free_velocities(&mut self) -> Result<usize> {
        let (t0, h, theta) = (self.t, self.h, self.opts.theta);
        let t1 = self.next_time();
        let g = self.model.gravity;
        self.work.clear();
        let mut gyro_fail = 0;
        for (i, b) in self.model.bodies.iter_mut().enumerate() {
            let id = BodyId(i as u32);
            let s = &b.state;
            let w = match b.kind {
                BodyKind::Static => BodyWork::default(),
                BodyKind::Kinematic => {
                    let m = b.motion.as_ref().expect("checked at add_body");
                    let next = m(t1);
                    if !next.is_finite() {
                        return Err(MechanicsError::NonFiniteUserValue { t: t1, what: "prescribed motion", body: id });
                    }
                    BodyWork { v: next.v, omega: next.omega, next: Some(next), ..Default::default() }
                }
                BodyKind::Dynamic => {
                    let (mut f0, mut f1) = (b.force + g * b.mass, b.force + g * b.mass);
                    if let Some(fc) = &b.control_force {
                        (f0, f1) = (f0 + fc, f1 + fc);
                    }
                    let (mut tau0, mut tau1) = (b.torque, b.torque);
                    if let Some(ff) = &b.force_fn {
                        let fail =
                            |t, message| MechanicsError::UserFunction { t, what: "external force", body: id, message };
                        let (fa, ta) = ff(t0, s).map_err(|m| fail(t0, m))?;
                        let (fb, tb) = ff(t1, &predicted(s, h)).map_err(|m| fail(t1, m))?;
                        if ![fa, ta, fb, tb].iter().all(|v| v.iter().all(|x| x.is_finite())) {
                            return Err(MechanicsError::NonFiniteUserValue { t: t0, what: "external force", body: id });
                        }
                        (f0, f1, tau0, tau1) = (f0 + fa, f1 + fb, tau0 + ta, tau1 + tb);
                    }
                    let mut v = free_velocity(&s.v, b.inv_mass, &f0, &f1, h, theta);
                    let tau = tau1 * theta + tau0 * (1.0 - theta);
                    let (omega, ok) = match &mut b.boundary {
                        None => free_angular_velocity(
                            (&b.inertia, &b.inv_inertia, b.isotropic),
                            &s.omega,
                            &tau,
                            (h, theta),
                            (self.opts.gyro_tol, self.opts.gyro_max_iter),
                        ),
                        Some(bc) => {
                            bc.evaluate(t1).map_err(|message| MechanicsError::UserFunction {
                                t: t1,
                                what: "prescribed velocity",
                                body: id,
                                message,
                            })?;
                            bc.impose_v(&mut v);
                            let (gt, gi) = (self.opts.gyro_tol, self.opts.gyro_max_iter);
                            free_angular_velocity_bc(&b.inertia, b.isotropic, bc, &s.omega, &tau, (h, theta), (gt, gi))
                        }
                    };
                    gyro_fail += usize::from(!ok);
                    let smooth = [(v - s.v) * b.mass, b.inertia * (omega - s.omega)];
                    BodyWork { v, omega, tau, next: None, smooth }
                }
            };
            self.work.push(w);
        }
        Ok(gyro_fail)
    }

    /// The end of the coming step, `t0 + (k + 1) h`.
    fn next_time(&self) -> f64 {
        self.t0 + (self.k + 1) as f64 * self.h
    }

    /// Takes one step `t → t + h`.
    pub fn step(&mut self) -> Result<MechanicsStepReport> {
        let (h, theta) = (self.h, self.opts.theta);
        let t1 = self.next_time();
        self.captured = None;
        for b in &mut self.model.bodies {
            b.alive = b.lifetime.contains(self.t, h);
        }
        let clock = Instant::now();
        self.detector.detect(&self.model, self.t, &mut self.contacts)?;
        if let Some(hook) = &self.model.contact_hook {
            if self.model.is_planar() {
                return Err(MechanicsError::InvalidOption {
                    option: "contact hook",
                    reason: "a 2D scene keeps its normals in the plane: contact hooks are for 3D scenes".into(),
                });
            }
            crate::contact_hook::apply(hook, self.t, &self.model.bodies, &mut self.contacts)?;
        }
        let collision = clock.elapsed();
        let gyro_not_converged = self.free_velocities()?;
        self.build_rows();
        if self.opts.contact_order == ContactOrder::AlongGravity {
            self.order_along_gravity();
        }
        let bodies = &self.model.bodies;
        let n_active = self.active.len();
        let mut solver_report = None;
        // ends of the assembly and of the solve (set by the plain contact path)
        let (rows_done, mut assembled, mut solved) = (Instant::now(), None, None);
        if self.model.is_planar() {
            solver_report = self.solve_planar()?;
        } else if let Formulation::Global(solver) = &self.opts.formulation {
            gosi::check_global(self)?; // joints may have been added since `new`
            if n_active > 0 {
                let solver = solver.clone();
                solver_report = Some(self.solve_global(&solver)?);
            } else {
                self.rolling.forget();
            }
        } else if self.model.has_rolling() {
            solver_report = self.solve_rolling()?;
        } else if !self.model.joints().is_empty() {
            solver_report = Some(self.solve_with_joints()?);
        } else if n_active > 0 {
            let t = self.t;
            let num = |source| MechanicsError::Numerics { t, source };
            let w = self.asm.delassus(bodies.len()).map_err(num)?;
            let p = FrictionContact::new(
                3,
                Operator::BlockCsr(w),
                std::mem::take(&mut self.q),
                std::mem::take(&mut self.mu),
            )
            .map_err(num)?;
            assembled = Some(Instant::now());
            let r0 = if self.capture { self.r.clone() } else { Vec::new() };
            self.u.clear();
            self.u.resize(3 * n_active, 0.0);
            let rep =
                solve_with_workspace(&mut self.fc_ws, &p, &mut self.r, &mut self.u, &self.opts.solver).map_err(num)?;
            solved = Some(Instant::now());
            if self.capture {
                self.captured = Some(Captured {
                    t: t1,
                    problem: CapturedProblem::Local(p.clone()),
                    r0,
                    r: self.r.clone(),
                    u: self.u.clone(),
                    v: Vec::new(),
                    iterations: rep.iterations,
                });
            }
            let (w, q, mu) = p.into_parts();
            if let Operator::BlockCsr(w) = w {
                self.asm.parts = w.into_parts();
            }
            (self.q, self.mu) = (q, mu);
            if !rep.status.converged() && self.opts.on_non_convergence == OnNonConvergence::Fail {
                return Err(num(saltus_numerics::NumericsError::InvalidOption {
                    option: "on_non_convergence",
                    reason: format!(
                        "solver {} did not converge: {:?}, residual {:e}",
                        self.opts.solver.name(),
                        rep.status,
                        rep.residual
                    ),
                }));
            }
            if let Some(i) = self.r.iter().position(|x| !x.is_finite()) {
                return Err(MechanicsError::NonFiniteState {
                    t: t1,
                    body: self.contacts[self.active[i / 3] as usize].body2,
                });
            }
            // v = v_free + M⁻¹ Hᵀ λ.
            self.asm.add_impulses(&self.r, &mut self.work, |w| (&mut w.v, &mut w.omega));
            for (a, &k) in self.active.iter().enumerate() {
                self.contacts[k as usize].impulse = Vector3::new(self.r[3 * a], self.r[3 * a + 1], self.r[3 * a + 2]);
            }
            solver_report = Some(rep);
        }
        let mut energy = self.step_work();
        let solved = solved.unwrap_or_else(Instant::now);
        let assembled = assembled.unwrap_or(rows_done);
        // Poses; nothing is written before every new state is known to be finite.
        let bodies = &self.model.bodies;
        crate::par::extend_by_chunks_mut(&mut self.work, &mut Vec::<()>::new(), |first, chunk, _| {
            for (i, w) in chunk.iter_mut().enumerate() {
                let b = &bodies[first + i];
                if b.kind == BodyKind::Dynamic && b.alive {
                    let s = &b.state;
                    let v_th = s.v * (1.0 - theta) + w.v * theta;
                    let om_th = s.omega * (1.0 - theta) + w.omega * theta;
                    let (x1, q1) = update_pose(&s.position, &s.orientation, &v_th, &om_th, h);
                    let next = BodyState { position: x1, orientation: q1, v: w.v, omega: w.omega };
                    if !next.is_finite() {
                        return Err(MechanicsError::NonFiniteState { t: t1, body: BodyId((first + i) as u32) });
                    }
                    w.next = Some(next);
                }
            }
            Ok(())
        })?;
        for (b, w) in self.model.bodies.iter_mut().zip(&self.work) {
            if let Some(next) = w.next {
                b.state = next;
            }
        }
        // Warm start of the next step, in the world frame.
        self.next_warm.clear();
        for (a, &k) in self.active.iter().enumerate() {
            let c = &self.contacts[k as usize];
            self.next_warm.push((c.key, self.frames[a] * c.impulse));
        }
        if self.opts.contact_order != ContactOrder::Key {
            self.next_warm.sort_unstable_by_key(|e| e.0); // the warm start is merged by key
        }
        std::mem::swap(&mut self.warm, &mut self.next_warm);
        let projection = self.project_joints(t1)?;
        self.t = t1;
        self.k += 1;
        energy.kinetic = self.kinetic_of_the_step();
        Ok(MechanicsStepReport {
            t: t1,
            n_contacts: self.contacts.len(),
            n_active,
            n_pairs: self.detector.n_pairs(),
            solver: solver_report,
            gyro_not_converged,
            projection,
            energy,
            phases: StepPhases {
                collision,
                assembly: assembled - (clock + collision),
                solve: solved - assembled,
                update: solved.elapsed(),
            },
        })
    }
}
