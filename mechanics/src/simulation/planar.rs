//! The one-step problem of a 2D scene ([`crate::planar`]): the step builds the contacts' 3D
//! rows in the frames `(n, t, z)` of [`crate::planar::planar_frame`] as for any scene; here the
//! rows `n`, `t` (and with rolling friction the relative angular velocity `u_R = ω₂ − ω₁`
//! about `z`) form the 2D friction-contact problem `u = W λ + q`, `W = H M⁻¹ Hᵀ` in 2 × 2
//! (rolling: 3 × 3) blocks, `q = H v_free + e u_{k,N} e_N`, solved by numerics
//! (`FrictionContact` of dimension 2 with the scene's solver, or the rolling NSGS of dimension
//! 3, Siconos `FRICTION_2D_NSGS` and `ROLLING_FRICTION_2D_NSGS`); then `v = v_free + M⁻¹Hᵀλ`.

use super::gosi::{self, Formulation};
use super::MechanicsSimulation;
use crate::assembly::NO_BODY;
use crate::body::BodyKind;
use crate::collision::ContactKey;
use crate::error::{MechanicsError, Result};
use nalgebra::{SMatrix, Vector3};
use saltus_kernel::OnNonConvergence;
use saltus_numerics::fc::global::Triplets;
use saltus_numerics::fc::rolling::global as rolling_global;
use saltus_numerics::fc::rolling::{
    solve as solve_rolling, GlobalRollingFrictionContact, RollingFrictionContact, RollingNsgsOptions,
};
use saltus_numerics::fc::{
    solve_global, solve_with_workspace, FcSolver, FrictionContact, GfcSolver, GlobalFrictionContact, NsgsOptions,
};
use saltus_numerics::matrix::{BlockCsrParts, CouplingGraph};
use saltus_numerics::{Operator, SolveReport};

type H3 = SMatrix<f64, 3, 6>;
type G3 = SMatrix<f64, 6, 3>;

/// Buffers of the 2D path kept between steps.
#[derive(Debug, Default, Clone)]
pub(crate) struct PlanarWork {
    /// Rolling impulses of the last step, by key (warm start; the `z` axis is the same in every
    /// frame).
    warm_roll: Vec<(ContactKey, f64)>,
    graph: CouplingGraph,
    parts: BlockCsrParts,
    /// Per active contact and side: `H` (rows n, t, z-roll) and `M⁻¹ Hᵀ`.
    rows: Vec<[(H3, G3); 2]>,
}

/// The checks of a 2D scene at the start of a simulation: gravity in the plane, no joints, the
/// local formulation, no contact projection, a solver of the 2D problem.
pub(super) fn check(sim: &MechanicsSimulation) -> Result<()> {
    if !sim.model.is_planar() {
        return Ok(());
    }
    let unsupported = |reason| Err(MechanicsError::Unsupported { feature: "2D scene", reason });
    if sim.model.gravity.z != 0.0 {
        return Err(MechanicsError::InvalidOption {
            option: "gravity",
            reason: "a 2D scene needs gravity in the plane (g_z = 0)".into(),
        });
    }
    if !sim.model.joints().is_empty() {
        return unsupported("joints are not yet available between 2D bodies");
    }
    if sim.opts.formulation.is_global() && global_solver_2d(&sim.opts.formulation).is_none() {
        return unsupported(
            "the global formulation (MoreauJeanGOSI) in 2D is solved by condensation and NSGS (Siconos \
             GFC2D_NSGS_WR, GLOBAL_ROLLING_FRICTION NSGS_WR): choose the global solver gfc3d-nsgs",
        );
    }
    let p = sim.opts.joint_projection;
    if p.enabled && p.contacts {
        return unsupported("the projection onto the contacts is not yet available in 2D");
    }
    if matches!(sim.opts.solver, FcSolver::Prox(_) | FcSolver::NewtonAc(_)) {
        return unsupported("the solver is 3D only: use an NSGS, ADMM, VI or 2D Lemke solver");
    }
    Ok(())
}

/// The NSGS options of a global formulation in 2D: the condensed NSGS (its tolerance and sweep
/// cap, warm-started); `None` for the other global solvers and the local formulation.
fn global_solver_2d(f: &Formulation) -> Option<NsgsOptions> {
    match f {
        Formulation::Global(GfcSolver::Condensed(
            FcSolver::NsgsAc(o) | FcSolver::NsgsFb(o) | FcSolver::NsgsProj(o),
        )) => {
            let mut o = o.clone();
            o.warm_start = true;
            Some(o)
        }
        _ => None,
    }
}

impl MechanicsSimulation {
    /// Solves the 2D problem over the active contacts (rows, frames, 3-stride `q` and warm start
    /// built by the step): impulses into `self.contacts`, velocities into `self.work`. `None`
    /// when no contact is active.
    pub(super) fn solve_planar(&mut self) -> Result<Option<SolveReport>> {
        check(self)?; // bodies or joints may have been added since `new`
        let (t, h) = (self.t, self.h);
        let rolling = self.model.has_rolling();
        let d = if rolling { 3 } else { 2 };
        let n = self.active.len();
        let pw = &mut self.planar;
        if n == 0 {
            pw.warm_roll.clear();
            return Ok(None);
        }
        let num = |source| MechanicsError::Numerics { t, source };
        let bodies = &self.model.bodies;
        pw.rows.clear();
        let mut q = Vec::with_capacity(d * n);
        let mut r = Vec::with_capacity(d * n);
        for (a, &k) in self.active.iter().enumerate() {
            let c = &self.contacts[k as usize];
            let row = &self.asm.rows[a];
            let mut sides = [(H3::zeros(), G3::zeros()); 2];
            let mut u_roll = 0.0;
            for (s, id) in [c.body1, c.body2].into_iter().enumerate() {
                let b = &bodies[id.index()];
                if b.kind == BodyKind::Static {
                    continue;
                }
                let sign = if s == 0 { -1.0 } else { 1.0 };
                let mut hm = H3::zeros();
                hm.fixed_view_mut::<2, 3>(0, 0).copy_from(&row.jac[s].ht.fixed_rows::<2>(0));
                hm.fixed_view_mut::<2, 3>(0, 3).copy_from(&row.jac[s].hr.fixed_rows::<2>(0));
                // u_R = s ω_z; Ω is in the body frame, whose z is the world's
                hm[(2, 5)] = sign;
                u_roll += sign * self.work[id.index()].omega.z;
                let g = if row.body[s] != NO_BODY {
                    let ht = hm.transpose();
                    let mut g = G3::zeros();
                    g.fixed_view_mut::<3, 3>(0, 0).copy_from(&(ht.fixed_view::<3, 3>(0, 0) * b.inv_mass));
                    g.fixed_view_mut::<3, 3>(3, 0).copy_from(&(b.inv_inertia * ht.fixed_view::<3, 3>(3, 0)));
                    g
                } else {
                    G3::zeros()
                };
                sides[s] = (hm, g);
            }
            pw.rows.push(sides);
            q.extend_from_slice(&self.q[3 * a..3 * a + 2]);
            r.extend_from_slice(&self.r[3 * a..3 * a + 2]);
            if rolling {
                q.push(u_roll);
                let w0 = match pw.warm_roll.binary_search_by_key(&c.key, |e| e.0) {
                    Ok(i) => pw.warm_roll[i].1,
                    Err(_) => 0.0,
                };
                r.push(w0);
            }
        }
        if let Some(o) = global_solver_2d(&self.opts.formulation) {
            return self.solve_planar_global(d, &q, r, o).map(Some);
        }
        pw.graph.build(bodies.len(), self.asm.rows.iter().map(|r| r.body)).map_err(num)?;
        let rows = &pw.rows;
        let w = pw
            .graph
            .block_csr(
                |_| d,
                std::mem::take(&mut pw.parts),
                |c, values| {
                    let mut w = SMatrix::<f64, 3, 3>::zeros();
                    for &(s, t) in c.sides() {
                        w += rows[c.row][s as usize].0 * rows[c.col][t as usize].1;
                    }
                    for j in 0..d {
                        values.extend_from_slice(&w.column(j).as_slice()[..d]);
                    }
                },
            )
            .map_err(num)?;
        let mu = self.mu[..n].to_vec();
        let mut u = vec![0.0; d * n];
        let rep = if rolling {
            let mu_r = self.active.iter().map(|&k| self.contacts[k as usize].law.mu_r).collect();
            let p = RollingFrictionContact::new(3, Operator::BlockCsr(w), q, mu, mu_r).map_err(num)?;
            let mut opts = RollingNsgsOptions::with_iter(super::rolling::iter_options(&self.opts.solver));
            opts.warm_start = true;
            let rep = solve_rolling(&p, &mut r, &mut u, &opts).map_err(num)?;
            if let (Operator::BlockCsr(w), ..) = p.into_parts() {
                pw.parts = w.into_parts();
            }
            rep
        } else {
            let p = FrictionContact::new(2, Operator::BlockCsr(w), q, mu).map_err(num)?;
            let r0 = if self.capture { r.clone() } else { Vec::new() };
            let rep = solve_with_workspace(&mut self.fc_ws, &p, &mut r, &mut u, &self.opts.solver).map_err(num)?;
            if self.capture {
                self.captured = Some(super::Captured {
                    t: t + h,
                    problem: super::CapturedProblem::Local(p.clone()),
                    r0,
                    r: r.clone(),
                    u: u.clone(),
                    v: Vec::new(),
                    iterations: rep.iterations,
                });
            }
            if let (Operator::BlockCsr(w), ..) = p.into_parts() {
                pw.parts = w.into_parts();
            }
            rep
        };
        if !rep.status.converged() && self.opts.on_non_convergence == OnNonConvergence::Fail {
            return Err(num(saltus_numerics::NumericsError::InvalidOption {
                option: "on_non_convergence",
                reason: format!("2D solver did not converge: {:?}, residual {:e}", rep.status, rep.residual),
            }));
        }
        if let Some(i) = r.iter().position(|x| !x.is_finite()) {
            return Err(MechanicsError::NonFiniteState {
                t: t + h,
                body: self.contacts[self.active[i / d] as usize].body2,
            });
        }
        // v = v_free + M⁻¹ Hᵀ λ
        pw.warm_roll.clear();
        for (a, sides) in pw.rows.iter().enumerate() {
            let lam = Vector3::new(r[d * a], r[d * a + 1], if rolling { r[d * a + 2] } else { 0.0 });
            super::add_side_impulses(&mut self.work, self.asm.rows[a].body, sides, &lam);
            let c = &mut self.contacts[self.active[a] as usize];
            c.impulse = Vector3::new(lam[0], lam[1], 0.0);
            if rolling {
                pw.warm_roll.push((c.key, lam[2]));
            }
        }
        pw.warm_roll.sort_unstable_by_key(|e| e.0);
        Ok(Some(rep))
    }
}

impl MechanicsSimulation {
    /// The 2D problem in the global formulation (Siconos `MoreauJeanGOSI` in 2D): over the free
    /// twist components of the dynamic bodies of the active contacts, `M v = M v_free + Hᵀ r`,
    /// `u = H v + b` with the rows `n`, `t` (and the rolling row) of [`PlanarWork::rows`] and
    /// `b = q − H v_free` (the restitution term and the known velocities of kinematic bodies and
    /// prescribed components, which the step's `q` holds); solved by condensation and NSGS
    /// (`GlobalFrictionContact` of dimension 2), or the rolling NSGS (`GlobalRollingFrictionContact`
    /// of dimension 3). The global velocity is the new twist. Its condensed form is the local 2D
    /// problem, so both formulations give the same motion to the solver's tolerance.
    fn solve_planar_global(&mut self, d: usize, q: &[f64], mut r: Vec<f64>, o: NsgsOptions) -> Result<SolveReport> {
        let (t, h) = (self.t, self.h);
        let num = |source| MechanicsError::Numerics { t, source };
        let bodies = &self.model.bodies;
        let n_active = self.active.len();
        // unknowns: the free components of the dynamic bodies of the active contacts
        let mut offset = vec![u32::MAX; bodies.len()];
        let mut members: Vec<(usize, [u8; 6], u8)> = Vec::new();
        let mut n = 0usize;
        for row in &self.asm.rows {
            for &b in &row.body {
                if b != NO_BODY && offset[b as usize] == u32::MAX {
                    let (comps, k) = gosi::free_components(&bodies[b as usize]);
                    offset[b as usize] = n as u32;
                    n += k as usize;
                    members.push((b as usize, comps, k));
                }
            }
        }
        members.sort_unstable_by_key(|m| offset[m.0]);
        let mut m_entries = Vec::new();
        let mut qg = vec![0.0; n];
        for &(i, comps, k) in &members {
            let off = offset[i] as usize;
            gosi::mass_block(&bodies[i], &self.work[i], off, &comps[..k as usize], &mut m_entries, &mut qg);
        }
        let mut h_entries = Vec::new();
        let mut b = q.to_vec();
        for (a, sides) in self.planar.rows.iter().enumerate() {
            for (s, &body) in self.asm.rows[a].body.iter().enumerate() {
                if body == NO_BODY {
                    continue;
                }
                let (i, hm) = (body as usize, &sides[s].0);
                let (comps, k) = gosi::free_components(&bodies[i]);
                let w = &self.work[i];
                for (j, &cc) in comps[..k as usize].iter().enumerate() {
                    let tw = gosi::twist(&w.v, &w.omega, cc as usize);
                    for row in 0..d {
                        let x = hm[(row, cc as usize)];
                        if x != 0.0 {
                            h_entries.push((offset[i] as usize + j, d * a + row, x));
                            b[d * a + row] -= x * tw;
                        }
                    }
                }
            }
        }
        let m_t = Triplets { nrows: n, ncols: n, entries: m_entries };
        let h_t = Triplets { nrows: n, ncols: d * n_active, entries: h_entries };
        let (mut u, mut v) = (vec![0.0; d * n_active], vec![0.0; n]);
        let mu = self.mu[..n_active].to_vec();
        let rep = if d == 3 {
            let mu_r = self.active.iter().map(|&k| self.contacts[k as usize].law.mu_r).collect();
            let p = GlobalRollingFrictionContact::new(3, m_t, h_t, qg, b, mu, mu_r).map_err(num)?;
            let mut opts = RollingNsgsOptions::with_iter(o.iter);
            opts.warm_start = true;
            rolling_global::solve_global(&p, &mut r, &mut u, &mut v, &opts).map_err(num)?
        } else {
            let p = GlobalFrictionContact::new(2, m_t, h_t, qg, b, mu).map_err(num)?;
            solve_global(&p, &mut r, &mut u, &mut v, &GfcSolver::Condensed(FcSolver::Nsgs2d(o))).map_err(num)?
        };
        if !rep.status.converged() && self.opts.on_non_convergence == OnNonConvergence::Fail {
            return Err(num(saltus_numerics::NumericsError::InvalidOption {
                option: "on_non_convergence",
                reason: format!("2D global solver did not converge: {:?}, residual {:e}", rep.status, rep.residual),
            }));
        }
        if let Some(i) = r.iter().chain(&v).position(|x| !x.is_finite()) {
            let a = (i / d).min(n_active - 1);
            return Err(MechanicsError::NonFiniteState {
                t: t + h,
                body: self.contacts[self.active[a] as usize].body2,
            });
        }
        for &(i, comps, k) in &members {
            let (off, w) = (offset[i] as usize, &mut self.work[i]);
            for (j, &cc) in comps[..k as usize].iter().enumerate() {
                let cc = cc as usize;
                if cc < 3 {
                    w.v[cc] = v[off + j];
                } else {
                    w.omega[cc - 3] = v[off + j];
                }
            }
        }
        let pw = &mut self.planar;
        pw.warm_roll.clear();
        for a in 0..n_active {
            let c = &mut self.contacts[self.active[a] as usize];
            c.impulse = Vector3::new(r[d * a], r[d * a + 1], 0.0);
            if d == 3 {
                pw.warm_roll.push((c.key, r[d * a + 2]));
            }
        }
        pw.warm_roll.sort_unstable_by_key(|e| e.0);
        Ok(rep)
    }
}
