//! The one-step problem of a scene with rolling friction (Siconos
//! `NewtonImpactRollingFrictionNSL` on `NewtonEuler5DR` relations): every active contact gets
//! five rows, `u = (u_N, u_T₁, u_T₂, u_R₁, u_R₂)`, the first three those of
//! [`crate::relation::SideJacobian`], the last two the relative angular velocity about the
//! tangents, `u_{R,i} = t_i · (ω₂ − ω₁)` (for body-frame `Ω`: the row `s (Rᵀ t_i)ᵀ`, no
//! translational part). `W = H M⁻¹ Hᵀ` in 5 × 5 blocks, `q = H v_free + e u_{k,N} e_N` (no
//! restitution on the rolling rows), solved by numerics' rolling NSGS; the impulse adds the
//! torque `r_R₁ t₁ + r_R₂ t₂` to body 2 and its opposite to body 1. Contacts whose law has
//! `μ_r = 0` take part with a zero rolling torque. Scenes without rolling laws never come here,
//! so their steps keep their bits.

use super::MechanicsSimulation;
use crate::assembly::NO_BODY;
use crate::collision::ContactKey;
use crate::error::{MechanicsError, Result};
use nalgebra::{Matrix3, SMatrix, Vector3};
use saltus_kernel::OnNonConvergence;
use saltus_numerics::fc::rolling::{solve, RollingFrictionContact, RollingNsgsOptions};
use saltus_numerics::fc::FcSolver;
use saltus_numerics::matrix::{BlockCsrParts, CouplingGraph};
use saltus_numerics::{IterOptions, Operator, SolveReport};

type H5 = SMatrix<f64, 5, 6>;
type G5 = SMatrix<f64, 6, 5>;

/// Buffers of the rolling path kept between steps.
#[derive(Debug, Default, Clone)]
pub(crate) struct RollingWork {
    /// Rolling impulses of the last step, world frame, sorted by key (warm start).
    warm: Vec<(ContactKey, Vector3<f64>)>,
    graph: CouplingGraph,
    parts: BlockCsrParts,
    /// Per active contact and side: `H` (5 × 6) and `M⁻¹ Hᵀ` (6 × 5).
    rows: Vec<[(H5, G5); 2]>,
}

impl RollingWork {
    /// Forgets the last step's rolling impulses (no contact was active).
    pub(super) fn forget(&mut self) {
        self.warm.clear();
    }

    /// The step's initial impulses, five per active contact: the normal and tangential ones of
    /// `r3` (three per contact, the step's warm start) and the last step's rolling impulse of the
    /// same contact (by `keys`) on the tangents of `frames` (zero for a new contact).
    pub(super) fn warm_impulses(
        &self,
        r3: &[f64],
        frames: &[Matrix3<f64>],
        keys: impl Iterator<Item = ContactKey>,
    ) -> Vec<f64> {
        let mut r = Vec::with_capacity(5 * frames.len());
        for (a, key) in keys.enumerate() {
            r.extend_from_slice(&r3[3 * a..3 * a + 3]);
            let w0 = match self.warm.binary_search_by_key(&key, |e| e.0) {
                Ok(i) => self.warm[i].1,
                Err(_) => Vector3::zeros(),
            };
            r.extend_from_slice(&[frames[a].column(1).dot(&w0), frames[a].column(2).dot(&w0)]);
        }
        r
    }

    /// Keeps the rolling impulses of `r` (five per active contact) in the world frame for the
    /// next step's warm start.
    pub(super) fn keep_warm(&mut self, r: &[f64], frames: &[Matrix3<f64>], keys: impl Iterator<Item = ContactKey>) {
        self.warm.clear();
        for (a, key) in keys.enumerate() {
            let f = &frames[a];
            self.warm.push((key, f.column(1) * r[5 * a + 3] + f.column(2) * r[5 * a + 4]));
        }
        self.warm.sort_unstable_by_key(|e| e.0);
    }
}

/// Tolerance and sweep cap of the scene's FC3D solver, used for the rolling NSGS.
pub(super) fn iter_options(s: &FcSolver) -> IterOptions {
    *s.iter()
}

impl MechanicsSimulation {
    /// Solves the step's rolling friction-contact problem over the active contacts (the rows,
    /// frames and 3-component `q` and warm start already built by the step): impulses into
    /// `self.contacts` (normal and tangential) and velocities into `self.work`. `None` when no
    /// contact is active.
    pub(super) fn solve_rolling(&mut self) -> Result<Option<SolveReport>> {
        let t = self.t;
        if !self.model.joints().is_empty() {
            return Err(MechanicsError::InvalidModel {
                what: "rolling friction".into(),
                reason: "laws with rolling friction (mu_r > 0) are not yet combined with joints".into(),
            });
        }
        let n = self.active.len();
        let rw = &mut self.rolling;
        if n == 0 {
            rw.warm.clear();
            return Ok(None);
        }
        let num = |source| MechanicsError::Numerics { t, source };
        let bodies = &self.model.bodies;
        rw.rows.clear();
        let mut q = Vec::with_capacity(5 * n);
        let mut mu_r = Vec::with_capacity(n);
        for (a, &k) in self.active.iter().enumerate() {
            let c = &self.contacts[k as usize];
            let frame = &self.frames[a];
            let row = &self.asm.rows[a];
            let mut sides = [(H5::zeros(), G5::zeros()); 2];
            let mut u_roll = [0.0; 2];
            for (s, id) in [c.body1, c.body2].into_iter().enumerate() {
                let b = &bodies[id.index()];
                if b.kind == crate::body::BodyKind::Static {
                    continue;
                }
                let sign = if s == 0 { -1.0 } else { 1.0 };
                let mut h = H5::zeros();
                h.fixed_view_mut::<3, 3>(0, 0).copy_from(&row.jac[s].ht);
                h.fixed_view_mut::<3, 3>(0, 3).copy_from(&row.jac[s].hr);
                for (i, ur) in u_roll.iter_mut().enumerate() {
                    let ti = b.state.orientation.inverse_transform_vector(&frame.column(i + 1).into_owned()) * sign;
                    h.fixed_view_mut::<1, 3>(3 + i, 3).copy_from(&ti.transpose());
                    *ur += ti.dot(&self.work[id.index()].omega);
                }
                if row.body[s] != NO_BODY {
                    let mut minv_ht = G5::zeros();
                    let ht = h.transpose();
                    minv_ht.fixed_view_mut::<3, 5>(0, 0).copy_from(&(ht.fixed_view::<3, 5>(0, 0) * b.inv_mass));
                    let rot: Matrix3<f64> = b.inv_inertia;
                    minv_ht.fixed_view_mut::<3, 5>(3, 0).copy_from(&(rot * ht.fixed_view::<3, 5>(3, 0)));
                    sides[s] = (h, minv_ht);
                } else {
                    sides[s] = (h, G5::zeros());
                }
            }
            rw.rows.push(sides);
            q.extend_from_slice(&self.q[3 * a..3 * a + 3]);
            q.extend_from_slice(&u_roll);
            mu_r.push(c.law.mu_r);
        }
        let keys = || self.active.iter().map(|&k| self.contacts[k as usize].key);
        let mut r = rw.warm_impulses(&self.r, &self.frames, keys());
        rw.graph.build(bodies.len(), self.asm.rows.iter().map(|r| r.body)).map_err(num)?;
        let rows = &rw.rows;
        let w = rw
            .graph
            .block_csr(
                |_| 5,
                std::mem::take(&mut rw.parts),
                |c, values| {
                    let mut w = SMatrix::<f64, 5, 5>::zeros();
                    for &(s, t) in c.sides() {
                        w += rows[c.row][s as usize].0 * rows[c.col][t as usize].1;
                    }
                    values.extend_from_slice(w.as_slice());
                },
            )
            .map_err(num)?;
        let mu = self.mu[..n].to_vec();
        let p = RollingFrictionContact::new(5, Operator::BlockCsr(w), q, mu, mu_r).map_err(num)?;
        let mut u = vec![0.0; 5 * n];
        let mut opts = RollingNsgsOptions::with_iter(iter_options(&self.opts.solver));
        opts.warm_start = true;
        let rep = solve(&p, &mut r, &mut u, &opts).map_err(num)?;
        if let (Operator::BlockCsr(w), ..) = p.into_parts() {
            rw.parts = w.into_parts();
        }
        if !rep.status.converged() && self.opts.on_non_convergence == OnNonConvergence::Fail {
            return Err(num(saltus_numerics::NumericsError::InvalidOption {
                option: "on_non_convergence",
                reason: format!("rolling NSGS did not converge: {:?}, residual {:e}", rep.status, rep.residual),
            }));
        }
        if let Some(i) = r.iter().position(|x| !x.is_finite()) {
            return Err(MechanicsError::NonFiniteState {
                t: t + self.h,
                body: self.contacts[self.active[i / 5] as usize].body2,
            });
        }
        // v = v_free + M⁻¹ Hᵀ λ; the warm start of the rolling impulses in the world frame.
        for (a, sides) in rw.rows.iter().enumerate() {
            let lam = SMatrix::<f64, 5, 1>::from_column_slice(&r[5 * a..5 * a + 5]);
            super::add_side_impulses(&mut self.work, self.asm.rows[a].body, sides, &lam);
            self.contacts[self.active[a] as usize].impulse = Vector3::new(lam[0], lam[1], lam[2]);
        }
        rw.keep_warm(&r, &self.frames, self.active.iter().map(|&k| self.contacts[k as usize].key));
        Ok(Some(rep))
    }
}
