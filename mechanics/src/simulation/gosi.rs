//! The global formulation of the one-step problem (Siconos `MoreauJeanGOSI` with
//! `GlobalFrictionContact`) for rigid bodies.
//!
//! The step is the one of [`super::MechanicsSimulation::step`] up to the problem: the same
//! detection, index set, free twists, contact frames and Jacobian blocks (`ContactRow::jac`).
//! Instead of the condensed `u = W λ + q` with `W = H M⁻¹ Hᵀ`, the problem keeps the mass matrix
//! and the relations apart, over the unknown twists `v` of the dynamic bodies that take part in
//! an active contact:
//! ```text
//!   M v = M v_free + Hᵀ r,           M = blockdiag(m 1₃, I)   (v world, Ω body frame)
//!   u = H v + b,                     b_α = e u_{α,N,k} e_N + (H ṽ)_α
//!   K_α ∋ r_α ⟂ û_α ∈ K_α*           (Coulomb cone, De Saxcé velocity)
//! ```
//! which is numerics' [`GlobalFrictionContact`] (`M v = H' r + q` with `q = M v_free` and
//! numerics' `H' = Hᵀ`, n × 3 n_c). `ṽ` holds the velocities that are not unknowns: kinematic
//! bodies' prescribed twists, and the prescribed components of a body with a
//! [`crate::BoundaryCondition`] (those components are infinitely heavy: they are left out of `v`,
//! `M` keeps the free block `M_FF`, as the local path's reduced inverse `M⁺`). The problem's
//! global velocity is the new twist of those bodies; the others keep their free twist. Its
//! condensed form `W = H M⁻¹ Hᵀ`, `q_loc = H v_free + b` is exactly the local problem, so both
//! formulations give the same impulses and velocities to the solver's tolerance.
//!
//! Not combined (yet) with joints or rolling friction: numerics has no global generic-mechanical
//! or global rolling solver ([`MechanicsError::Unsupported`]).

use super::capture::{Captured, CapturedProblem};
use super::MechanicsSimulation;
use crate::assembly::NO_BODY;
use crate::body::BodyKind;
use crate::error::{MechanicsError, Result};
use nalgebra::Vector3;
use saltus_kernel::OnNonConvergence;
use saltus_numerics::fc::global::Triplets;
use saltus_numerics::fc::{gfc_solver_by_name, solve_global, FcSolver, GfcSolver, GlobalFrictionContact};
use saltus_numerics::IterOptions;
use saltus_numerics::SolveReport;

/// The formulation of the one-step friction-contact problem (a property of its assembly, not of
/// the time stepping: detection, index set, free twists and pose update are shared).
// One value per simulation: the size of the solver options does not matter, matching them does.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Formulation {
    /// `u = W λ + q`, `W = H M⁻¹ Hᵀ` assembled in 3×3 blocks and solved by
    /// [`super::MoreauJeanOptions::solver`] (Siconos `MoreauJeanOSI` + `FrictionContact`).
    #[default]
    Local,
    /// `M v = M v_free + Hᵀ r`, `u = H v + b`, solved by numerics' global solver (Siconos
    /// `MoreauJeanGOSI` + `GlobalFrictionContact`); [`super::MoreauJeanOptions::solver`] is then
    /// not used.
    Global(GfcSolver),
}

impl Formulation {
    /// The global formulation with the mechanics default solver: condensed (Siconos
    /// `GFC3D_NSGS_WR`), NSGS with warm start, tolerance `tol`, `max_iter` sweeps.
    pub fn global_nsgs_wr(tol: f64, max_iter: usize) -> Self {
        Formulation::Global(GfcSolver::Condensed(super::nsgs(tol, max_iter)))
    }
    /// The global formulation with numerics' global solver `name` (a name of
    /// [`saltus_numerics::fc::GFC_SOLVERS`]: `gfc3d-nsgs`, `gfc3d-nsgs-global`, …), warm-started
    /// from the previous step's impulses as the local path; `None` for an unknown name.
    pub fn global_by_name(name: &str, tol: f64, max_iter: usize) -> Option<Self> {
        let mut s = gfc_solver_by_name(name, IterOptions::new(tol, max_iter))?;
        match &mut s {
            GfcSolver::Nsgs(o) => o.warm_start = true,
            GfcSolver::Condensed(f) => match f {
                FcSolver::NsgsAc(o) | FcSolver::NsgsFb(o) | FcSolver::NsgsProj(o) | FcSolver::Nsgs2d(o) => {
                    o.warm_start = true
                }
                FcSolver::Prox(o) => o.warm_start = true,
                FcSolver::NewtonAc(o) => o.warm_start = true,
                FcSolver::ViFp(o) | FcSolver::ViEg(o) => o.warm_start = true,
                FcSolver::Admm(o) => o.warm_start = true,
                FcSolver::Lemke2d(_) => {}
            },
        }
        Some(Formulation::Global(s))
    }
    /// `true` for [`Formulation::Global`].
    pub fn is_global(&self) -> bool {
        matches!(self, Formulation::Global(_))
    }
    /// The Siconos names of the integrator and of the one-step problem.
    pub fn siconos_names(&self) -> (&'static str, &'static str) {
        match self {
            Formulation::Local => ("MoreauJeanOSI", "FrictionContact"),
            Formulation::Global(_) => ("MoreauJeanGOSI", "GlobalFrictionContact"),
        }
    }
    /// Tolerance of the solver of the global problem (the local one's for [`Formulation::Local`]).
    pub(crate) fn global_tol(&self) -> Option<f64> {
        match self {
            Formulation::Local => None,
            Formulation::Global(GfcSolver::Condensed(s)) => Some(s.tol()),
            Formulation::Global(GfcSolver::Nsgs(o)) => Some(o.iter.tol),
        }
    }
}

/// Refuses the combinations the global formulation does not have.
pub(super) fn check_global(sim: &MechanicsSimulation) -> Result<()> {
    if !sim.opts.formulation.is_global() {
        return Ok(());
    }
    if !sim.model.joints().is_empty() {
        return Err(MechanicsError::Unsupported {
            feature: "the global formulation (MoreauJeanGOSI + GlobalFrictionContact)",
            reason: "a scene with joints solves one GenericMechanical problem per step, and numerics has no \
                     global generic-mechanical solver: use the local formulation",
        });
    }
    if sim.model.is_planar() {
        return Err(MechanicsError::Unsupported {
            feature: "the global formulation (MoreauJeanGOSI + GlobalFrictionContact)",
            reason: "not yet available in 2D scenes: use the local formulation",
        });
    }
    if sim.model.has_rolling() {
        return Err(MechanicsError::Unsupported {
            feature: "the global formulation (MoreauJeanGOSI + GlobalFrictionContact)",
            reason: "rolling friction (mu_r > 0) needs a global rolling friction-contact solver, which numerics \
                     does not have: use the local formulation",
        });
    }
    if matches!(sim.opts.formulation.global_tol(), Some(t) if !(t > 0.0)) {
        return Err(MechanicsError::InvalidOption {
            option: "formulation",
            reason: "the global solver's tolerance must be > 0".into(),
        });
    }
    Ok(())
}

/// Buffers of the global problem kept between steps.
#[derive(Debug, Default, Clone)]
pub(crate) struct GlobalWork {
    /// Offset of each body's unknowns in the global velocity (`u32::MAX`: not in the problem).
    offset: Vec<u32>,
    /// Per body in the problem: (body index, its free twist components, how many).
    bodies: Vec<(u32, [u8; 6], u8)>,
    v: Vec<f64>,
    u: Vec<f64>,
}

/// The free twist components of a body (all six without a boundary condition).
fn free_components(b: &crate::RigidBody) -> ([u8; 6], u8) {
    let mask = b.boundary_condition().map_or([false; 6], |bc| bc.mask());
    let mut comps = [0u8; 6];
    let mut n = 0;
    for (i, &prescribed) in mask.iter().enumerate() {
        if !prescribed {
            comps[n as usize] = i as u8;
            n += 1;
        }
    }
    (comps, n)
}

/// Component `c` (0–2 `v`, 3–5 `Ω`) of a twist.
#[inline]
fn twist(v: &Vector3<f64>, omega: &Vector3<f64>, c: usize) -> f64 {
    if c < 3 {
        v[c]
    } else {
        omega[c - 3]
    }
}

impl MechanicsSimulation {
    /// Assembles and solves the global problem over the active contacts (rows, frames, `μ` and
    /// warm start already built by the step): new twists into `self.work`, impulses into
    /// `self.contacts`. The contacts' local `q` is not used: `b` and `M v_free` are rebuilt from
    /// the Jacobian blocks.
    pub(super) fn solve_global(&mut self, solver: &GfcSolver) -> Result<SolveReport> {
        let t = self.t;
        let num = |source| MechanicsError::Numerics { t, source };
        let bodies = &self.model.bodies;
        let n_active = self.active.len();
        let gw = &mut self.global;
        // The unknowns: the free components of the dynamic bodies of the active contacts.
        gw.offset.clear();
        gw.offset.resize(bodies.len(), u32::MAX);
        for row in &self.asm.rows {
            for &b in &row.body {
                if b != NO_BODY {
                    gw.offset[b as usize] = 0;
                }
            }
        }
        gw.bodies.clear();
        let mut n = 0u32;
        for (i, off) in gw.offset.iter_mut().enumerate() {
            if *off == 0 {
                let (comps, k) = free_components(&bodies[i]);
                *off = n;
                n += u32::from(k);
                gw.bodies.push((i as u32, comps, k));
            }
        }
        let n = n as usize;
        // M = blockdiag(m 1, I)_FF and q = M v_free.
        let mut m_entries = Vec::with_capacity(6 * gw.bodies.len());
        let mut q = vec![0.0; n];
        for &(i, comps, k) in &gw.bodies {
            let b = &bodies[i as usize];
            let w = &self.work[i as usize];
            let off = gw.offset[i as usize] as usize;
            let comps = &comps[..k as usize];
            for (a, &ca) in comps.iter().enumerate() {
                for (c, &cc) in comps.iter().enumerate() {
                    let (ca, cc) = (ca as usize, cc as usize);
                    let x = match (ca < 3, cc < 3) {
                        (true, true) if ca == cc => b.mass(),
                        (false, false) => b.inertia()[(ca - 3, cc - 3)],
                        _ => 0.0,
                    };
                    if x != 0.0 {
                        m_entries.push((off + a, off + c, x));
                        q[off + a] += x * twist(&w.v, &w.omega, cc);
                    }
                }
            }
        }
        // H (numerics: n × 3 n_c, the transpose of the contact Jacobian) and b.
        let mut h_entries = Vec::with_capacity(36 * n_active);
        let mut b_vec = vec![0.0; 3 * n_active];
        for (a, row) in self.asm.rows.iter().enumerate() {
            let c = &self.contacts[self.active[a] as usize];
            let mut u_k = Vector3::zeros();
            let mut known = Vector3::zeros();
            for (s, id) in [c.body1, c.body2].into_iter().enumerate() {
                let body = &bodies[id.index()];
                if body.kind == BodyKind::Static {
                    continue;
                }
                let jac = &row.jac[s];
                u_k += jac.apply(&body.state.v, &body.state.omega);
                let w = &self.work[id.index()];
                let col = |cc: usize| if cc < 3 { jac.ht.column(cc) } else { jac.hr.column(cc - 3) };
                if row.body[s] == NO_BODY {
                    known += jac.apply(&w.v, &w.omega); // kinematic: its prescribed twist
                    continue;
                }
                let (comps, k) = free_components(body);
                let free = &comps[..k as usize];
                let off = gw.offset[id.index()] as usize;
                for cc in 0..6 {
                    match free.iter().position(|&f| f as usize == cc) {
                        Some(j) => {
                            for r in 0..3 {
                                let x = col(cc)[r];
                                if x != 0.0 {
                                    h_entries.push((off + j, 3 * a + r, x));
                                }
                            }
                        }
                        None => known += col(cc) * twist(&w.v, &w.omega, cc),
                    }
                }
            }
            b_vec[3 * a] = known.x + c.law.en * u_k.x;
            b_vec[3 * a + 1] = known.y;
            b_vec[3 * a + 2] = known.z;
        }
        let p = GlobalFrictionContact::new(
            3,
            Triplets { nrows: n, ncols: n, entries: m_entries },
            Triplets { nrows: n, ncols: 3 * n_active, entries: h_entries },
            q,
            b_vec,
            self.mu.clone(),
        )
        .map_err(num)?;
        gw.v.clear();
        gw.v.resize(n, 0.0);
        gw.u.clear();
        gw.u.resize(3 * n_active, 0.0);
        let r0 = if self.capture { self.r.clone() } else { Vec::new() };
        let rep = solve_global(&p, &mut self.r, &mut gw.u, &mut gw.v, solver).map_err(num)?;
        if self.capture {
            self.captured = Some(Captured {
                t: t + self.h,
                problem: CapturedProblem::Global(p.clone()),
                r0,
                r: self.r.clone(),
                u: gw.u.clone(),
                v: gw.v.clone(),
                iterations: rep.iterations,
            });
        }
        if !rep.status.converged() && self.opts.on_non_convergence == OnNonConvergence::Fail {
            let name = match solver {
                GfcSolver::Condensed(s) => s.name(),
                GfcSolver::Nsgs(_) => "gfc3d-nsgs-global",
            };
            return Err(num(saltus_numerics::NumericsError::InvalidOption {
                option: "on_non_convergence",
                reason: format!("global solver {name} did not converge: {:?}, residual {:e}", rep.status, rep.residual),
            }));
        }
        if let Some(i) = self.r.iter().position(|x| !x.is_finite()) {
            return Err(MechanicsError::NonFiniteState {
                t: t + self.h,
                body: self.contacts[self.active[i / 3] as usize].body2,
            });
        }
        if let Some(i) = gw.v.iter().position(|x| !x.is_finite()) {
            let body = gw.bodies.iter().rev().find(|e| gw.offset[e.0 as usize] as usize <= i).map_or(0, |e| e.0);
            return Err(MechanicsError::NonFiniteState { t: t + self.h, body: crate::BodyId(body) });
        }
        // The global velocity is the new twist; the prescribed components keep their value.
        for &(i, comps, k) in &gw.bodies {
            let off = gw.offset[i as usize] as usize;
            let w = &mut self.work[i as usize];
            for (j, &cc) in comps[..k as usize].iter().enumerate() {
                let cc = cc as usize;
                if cc < 3 {
                    w.v[cc] = gw.v[off + j];
                } else {
                    w.omega[cc - 3] = gw.v[off + j];
                }
            }
        }
        for a in 0..n_active {
            self.contacts[self.active[a] as usize].impulse =
                Vector3::new(self.r[3 * a], self.r[3 * a + 1], self.r[3 * a + 2]);
        }
        Ok(rep)
    }
}
