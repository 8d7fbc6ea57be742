//! The interactions of a step (index set 1) from the detected contacts: contact frames,
//! Jacobians `H`, `M⁻¹ Hᵀ`, Moreau–Jean's activation rule, the free local velocity
//! `q_α = H_α v_free + e u_{k,N} e_N` and the warm start of the reaction.
//!
//! Each contact's row is a function of the bodies and their free velocities only, so the
//! contacts are processed in chunks on the current rayon pool (feature `parallel`) and the rows
//! appended in contact order: the same problem, bit for bit, on any number of threads.

use super::MechanicsSimulation;
use crate::assembly::{ContactRow, NO_BODY};
use crate::body::BodyKind;
use crate::collision::ContactKey;
use crate::relation::{contact_frame, SideJacobian};
use crate::RigidBody;
use nalgebra::{Matrix3, Vector3};
use saltus_kernel::simulation::index_sets::moreau_jean_active;
use std::convert::Infallible;

/// One active contact of the step, before it is split into the problem's arrays.
#[derive(Debug)]
pub(super) struct ActiveRow {
    /// Index of the contact in the step's contact list.
    k: u32,
    frame: Matrix3<f64>,
    row: ContactRow,
    q: Vector3<f64>,
    mu: f64,
    r0: Vector3<f64>,
}

/// `true` when the normal row of the contact's Delassus block, `W_NN = Σ_s H_{N,s} M_s⁺ H_{N,s}ᵀ`,
/// is positive: an impulse can change the normal velocity. With prescribed velocities on both
/// sides (or on a body against a static one) it can be zero, and the contact is left out.
fn responds_normally(
    jac: &[SideJacobian; 2],
    g: &[(Matrix3<f64>, Matrix3<f64>); 2],
    body: &[u32; 2],
    bodies: &[RigidBody],
) -> bool {
    let (mut w, mut scale) = (0.0, 0.0);
    for s in 0..2 {
        if body[s] != NO_BODY {
            w += (jac[s].ht.row(0) * g[s].0.column(0))[0] + (jac[s].hr.row(0) * g[s].1.column(0))[0];
            scale += bodies[body[s] as usize].inv_mass();
        }
    }
    w > 1e-12 * scale
}

/// The reaction of the last step for `key` (world frame), from `warm` sorted by key.
fn warm_start(warm: &[(ContactKey, Vector3<f64>)], key: ContactKey) -> Option<&Vector3<f64>> {
    let i = warm.partition_point(|e| e.0 < key);
    warm.get(i).filter(|e| e.0 == key).map(|e| &e.1)
}

impl MechanicsSimulation {
    /// Fills the step's interactions (`active`, `frames`, `asm.rows`, `q`, `μ`, the warm start
    /// `r`) from `contacts`, in contact order; marks each contact active or not and clears its
    /// impulse.
    pub(super) fn build_rows(&mut self) {
        let h = self.h;
        let (gamma, delta) = (self.opts.gamma, self.opts.activation_tol * self.model.margin);
        let theta = self.opts.theta;
        let velocity_cap = self.opts.activation_velocity.unwrap_or(f64::INFINITY);
        let (bodies, work, warm) = (&self.model.bodies, &self.work, &self.warm);
        let is_planar = self.model.is_planar();
        // reused between steps (a pile's rows are megabytes)
        let mut out = std::mem::take(&mut self.row_scratch);
        out.clear();
        let done: Result<(), Infallible> =
            crate::par::extend_by_chunks_mut(&mut self.contacts, &mut out, |first, chunk, out| {
                for (i, c) in chunk.iter_mut().enumerate() {
                    c.impulse = Vector3::zeros();
                    c.active = false;
                    let frame =
                        if is_planar { crate::planar::planar_frame(&c.normal) } else { contact_frame(&c.normal) };
                    let ids = [c.body1, c.body2];
                    let pts = [c.point1, c.point2];
                    let mut jac = [SideJacobian { ht: Matrix3::zeros(), hr: Matrix3::zeros() }; 2];
                    let mut body = [NO_BODY; 2];
                    let mut g = [(Matrix3::zeros(), Matrix3::zeros()); 2];
                    let mut u_k = Vector3::zeros();
                    let mut u_free = Vector3::zeros();
                    for s in 0..2 {
                        let b = &bodies[ids[s].index()];
                        if b.kind == BodyKind::Static {
                            continue;
                        }
                        let sign = if s == 0 { -1.0 } else { 1.0 };
                        jac[s] = SideJacobian::new(&frame, &pts[s], &b.state.position, &b.state.orientation, sign);
                        u_k += jac[s].apply(&b.state.v, &b.state.omega);
                        let w = &work[ids[s].index()];
                        u_free += jac[s].apply(&w.v, &w.omega);
                        if b.is_dynamic() {
                            body[s] = ids[s].0;
                            g[s] = b.inv_mass_jac(&jac[s].ht, &jac[s].hr);
                        }
                    }
                    // Index set 1: predicted closing within the step.
                    if !moreau_jean_active(c.gap, u_k.x, gamma, h, delta) || u_k.x > velocity_cap {
                        continue;
                    }
                    if ids.iter().any(|i| bodies[i.index()].boundary.is_some())
                        && !responds_normally(&jac, &g, &body, bodies)
                    {
                        continue; // prescribed along the normal on both sides: the prescription wins
                    }
                    c.active = true;
                    let r0 = warm_start(warm, c.key).map_or_else(Vector3::zeros, |lw| frame.transpose() * lw);
                    out.push(ActiveRow {
                        k: (first + i) as u32,
                        frame,
                        row: ContactRow { body, jac, g },
                        q: {
                            let mut q = Vector3::new(u_free.x + c.law.en * u_k.x, u_free.y, u_free.z);
                            let shift = c.law.tangential_shift(theta);
                            if shift != 0.0 {
                                q.y += shift * u_k.y;
                                q.z += shift * u_k.z;
                            }
                            q
                        },
                        mu: c.law.mu,
                        r0,
                    });
                }
                Ok(())
            });
        let Ok(()) = done;
        self.active.clear();
        self.frames.clear();
        self.asm.rows.clear();
        self.q.clear();
        self.mu.clear();
        self.r.clear();
        for a in out.drain(..) {
            self.active.push(a.k);
            self.frames.push(a.frame);
            self.asm.rows.push(a.row);
            self.q.extend_from_slice(a.q.as_slice());
            self.mu.push(a.mu);
            self.r.extend_from_slice(a.r0.as_slice());
        }
        self.row_scratch = out;
    }
}
