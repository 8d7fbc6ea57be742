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
//! With rolling friction (Siconos `NewtonImpactRollingFrictionNSL`, `GlobalRollingFrictionContact`)
//! every contact has five rows, the last two the relative angular velocity about the tangents
//! (the rows of the local rolling path, `rolling.rs`), and the problem is numerics'
//! [`GlobalRollingFrictionContact`], solved by condensation and the rolling NSGS (Siconos
//! `GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`, the one global rolling solver Siconos has).
//!
//! Not combined (yet) with joints: numerics has no global generic-mechanical solver
//! ([`MechanicsError::Unsupported`]).

use super::capture::{Captured, CapturedProblem};
use super::MechanicsSimulation;
use crate::assembly::NO_BODY;
use crate::body::BodyKind;
use crate::error::{MechanicsError, Result};
use nalgebra::Vector3;
use saltus_kernel::OnNonConvergence;
use saltus_numerics::fc::global::Triplets;
use saltus_numerics::fc::rolling::{self as rolling_fc, GlobalRollingFrictionContact, RollingNsgsOptions};
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
            GfcSolver::Condensed(f) => {
                if let Some(w) = f.warm_start_mut() {
                    *w = true
                }
            }
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
        return Ok(()); // the 2D path's checks (`planar::check`)
    }
    if sim.model.has_rolling() && rolling_options(&sim.opts.formulation).is_none() {
        return Err(MechanicsError::Unsupported {
            feature: "the global formulation (MoreauJeanGOSI + GlobalFrictionContact) with rolling friction",
            reason: "rolling friction (mu_r > 0) is solved globally by condensation and the rolling NSGS (Siconos \
                     GLOBAL_ROLLING_FRICTION_3D_NSGS_WR): choose the global solver gfc3d-nsgs",
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

/// The rolling NSGS options of a global formulation that can solve rolling contacts: the
/// condensed NSGS (Siconos `GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`), its tolerance and sweep cap,
/// warm-started; `None` for the other global solvers and the local formulation.
pub(super) fn rolling_options(f: &Formulation) -> Option<RollingNsgsOptions> {
    match f {
        Formulation::Global(GfcSolver::Condensed(
            s @ (FcSolver::NsgsAc(_) | FcSolver::NsgsFb(_) | FcSolver::NsgsProj(_)),
        )) => {
            let mut o = RollingNsgsOptions::with_iter(super::rolling::iter_options(s));
            o.warm_start = true;
            Some(o)
        }
        _ => None,
    }
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
pub(super) fn free_components(b: &crate::RigidBody) -> ([u8; 6], u8) {
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

/// The block of `M = blockdiag(m 1₃, I)` restricted to the free components `comps` of body `b`
/// (its unknowns from `off` on) into `entries`, and `M v_free` into `q`.
pub(super) fn mass_block(
    b: &crate::RigidBody,
    w: &super::BodyWork,
    off: usize,
    comps: &[u8],
    entries: &mut Vec<(usize, usize, f64)>,
    q: &mut [f64],
) {
    for (a, &ca) in comps.iter().enumerate() {
        for (c, &cc) in comps.iter().enumerate() {
            let (ca, cc) = (ca as usize, cc as usize);
            let x = match (ca < 3, cc < 3) {
                (true, true) if ca == cc => b.mass(),
                (false, false) => b.inertia()[(ca - 3, cc - 3)],
                _ => 0.0,
            };
            if x != 0.0 {
                entries.push((off + a, off + c, x));
                q[off + a] += x * twist(&w.v, &w.omega, cc);
            }
        }
    }
}

/// Component `c` (0–2 `v`, 3–5 `Ω`) of a twist.
#[inline]
pub(super) fn twist(v: &Vector3<f64>, omega: &Vector3<f64>, c: usize) -> f64 {
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
            let off = gw.offset[i as usize] as usize;
            mass_block(&bodies[i as usize], &self.work[i as usize], off, &comps[..k as usize], &mut m_entries, &mut q);
        }
        // H (numerics: n × d n_c, the transpose of the contact Jacobian) and b; with rolling
        // friction d = 5, rows 3–4 the relative angular velocity about the tangents (as the
        // local rolling path, `rolling.rs`).
        let rolling = self.model.has_rolling();
        let d = if rolling { 5 } else { 3 };
        let mut h_entries = Vec::with_capacity(12 * d * n_active);
        let mut b_vec = vec![0.0; d * n_active];
        for (a, row) in self.asm.rows.iter().enumerate() {
            let c = &self.contacts[self.active[a] as usize];
            let mut u_k = Vector3::zeros();
            let mut known = [0.0; 5];
            for (s, id) in [c.body1, c.body2].into_iter().enumerate() {
                let body = &bodies[id.index()];
                if body.kind == BodyKind::Static {
                    continue;
                }
                let jac = &row.jac[s];
                u_k += jac.apply(&body.state.v, &body.state.omega);
                let w = &self.work[id.index()];
                // the contact's rows against twist component cc (0–2 v, 3–5 Ω body frame)
                let sign = if s == 0 { -1.0 } else { 1.0 };
                let tangent = |i: usize| {
                    body.state.orientation.inverse_transform_vector(&self.frames[a].column(i + 1).into_owned()) * sign
                };
                let roll = if rolling { [tangent(0), tangent(1)] } else { [Vector3::zeros(); 2] };
                if row.body[s] == NO_BODY {
                    // kinematic: its prescribed twist
                    let kv = jac.apply(&w.v, &w.omega);
                    known.iter_mut().zip(kv.iter()).for_each(|(kn, x)| *kn += x);
                    known[3] += roll[0].dot(&w.omega);
                    known[4] += roll[1].dot(&w.omega);
                    continue;
                }
                let col = |cc: usize| -> [f64; 5] {
                    let t = if cc < 3 { jac.ht.column(cc) } else { jac.hr.column(cc - 3) };
                    let (r0, r1) = if cc < 3 { (0.0, 0.0) } else { (roll[0][cc - 3], roll[1][cc - 3]) };
                    [t[0], t[1], t[2], r0, r1]
                };
                let (comps, k) = free_components(body);
                let free = &comps[..k as usize];
                let off = gw.offset[id.index()] as usize;
                for cc in 0..6 {
                    let x = col(cc);
                    match free.iter().position(|&f| f as usize == cc) {
                        Some(j) => {
                            for (r, &xr) in x[..d].iter().enumerate() {
                                if xr != 0.0 {
                                    h_entries.push((off + j, d * a + r, xr));
                                }
                            }
                        }
                        // a prescribed component's known twist
                        None => {
                            let tw = twist(&w.v, &w.omega, cc);
                            known.iter_mut().zip(x).for_each(|(kn, xr)| *kn += xr * tw);
                        }
                    }
                }
            }
            b_vec[d * a..d * a + d].copy_from_slice(&known[..d]);
            b_vec[d * a] += c.law.en * u_k.x;
            let shift = c.law.tangential_shift(self.opts.theta);
            if shift != 0.0 {
                for (r, uk) in [u_k.y, u_k.z].into_iter().enumerate().take(d - 1) {
                    b_vec[d * a + 1 + r] += shift * uk;
                }
            }
        }
        let m_t = Triplets { nrows: n, ncols: n, entries: m_entries };
        let h_t = Triplets { nrows: n, ncols: d * n_active, entries: h_entries };
        gw.v.clear();
        gw.v.resize(n, 0.0);
        gw.u.clear();
        gw.u.resize(d * n_active, 0.0);
        let rep = if rolling {
            let opts = rolling_options(&self.opts.formulation).unwrap_or_default();
            let mu_r = self.active.iter().map(|&k| self.contacts[k as usize].law.mu_r).collect();
            let p = GlobalRollingFrictionContact::new(5, m_t, h_t, q, b_vec, self.mu.clone(), mu_r).map_err(num)?;
            let mut r = self.rolling.warm_impulses(
                &self.r,
                &self.frames,
                self.active.iter().map(|&k| self.contacts[k as usize].key),
            );
            let rep = rolling_fc::global::solve_global(&p, &mut r, &mut gw.u, &mut gw.v, &opts).map_err(num)?;
            self.rolling.keep_warm(&r, &self.frames, self.active.iter().map(|&k| self.contacts[k as usize].key));
            self.r.clear();
            self.r.extend(r.chunks_exact(5).flat_map(|c| [c[0], c[1], c[2]]));
            rep
        } else {
            let p = GlobalFrictionContact::new(3, m_t, h_t, q, b_vec, self.mu.clone()).map_err(num)?;
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
            rep
        };
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
