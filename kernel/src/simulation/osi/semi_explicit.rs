//! Semi-explicit (symplectic) Euler for Lagrangian systems, a one-step integrator next to
//! Moreau–Jean (`events-accuracy-projection.md` §7), with the impulses of the active
//! interactions from the same velocity-level one-step problem as Moreau–Jean's.
//!
//! With `M(q) u̇ = F(t, q, u) + p` (`F = F_ext − F_int − F_gyr`, or `F_ext − C u − K q`) and the
//! kinematics `q̇ = N(q) u` (`N = I` for Lagrangian coordinates, see
//! [`crate::LagrangianDs::kinematics`]), one step from `(q_k, u_k)`:
//!
//! ```text
//! explicit in u:  W = M(q_k),                u_free = u_k + h W⁻¹ F(t_k, q_k, u_k)
//! implicit in u:  W = M(q_k) − h ∂F/∂u,      M(q_k)(u_free − u_k) = h F(t_k, q_k, u_free)   (Newton)
//!                 u_{k+1} = u_free + W⁻¹ p_{k+1}       (p = Σ Hᵀ λ from the one-step problem)
//!                 q_{k+1} = q_k + h N(q_k) u_{k+1}
//! ```
//!
//! The explicit form (game engines' form) is symplectic when `F` does not depend on `u`; the
//! implicit-in-u form is the correct one with damping (for `LagrangianLinearTIDS`,
//! `W = M + h C` and one linear solve is exact). Interactions are activated as by Moreau–Jean
//! (`y_k + γ h ẏ_k ≤ 0`) and the impact law is imposed on `ẏ_{k+1} = H u_{k+1}`, so the
//! velocity is that of Moreau–Jean with θ = 0 for the smooth forces; the position update
//! uses the new velocity (θ = 1 for the kinematics). First order in `h`; no error estimate.
//! With equality constraints only the velocity level `H u_{k+1} = 0` is imposed, so `h(q)`
//! drifts by O(h) over a fixed horizon; [`crate::TimeSteppingDirectProjection`] removes it.

use super::moreau_jean::forces;
use super::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::{DynamicalSystem, Mass};
use crate::model::userfn::check_finite_out;

/// How the smooth forces enter the velocity update of [`crate::Osi::SemiExplicitEuler`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VelocityUpdate {
    /// `u_free = u_k + h M(q_k)⁻¹ F(t_k, q_k, u_k)`: one force evaluation, symplectic when `F`
    /// does not depend on `u`.
    #[default]
    Explicit,
    /// `M(q_k)(u_free − u_k) = h F(t_k, q_k, u_free)`, solved by the Newton loop of the time
    /// stepping (exact in one iteration when `F` is linear in `u`).
    Implicit,
}

/// `M(q_k)` of a system with a mass function, written into `w.mat3`.
fn mass_at(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64) -> Result<(), KernelError> {
    if let DynamicalSystem::Lagrangian(d) = ds {
        if let Mass::Function(mf) = &d.mass {
            w.mat3.fill(0.0);
            mf(t_k, w.x_k.as_slice(), &mut w.mat3).map_err(user_err(t_k, "M(q)", w.id.0))?;
            check_finite_out(w.mat3.as_slice()).map_err(user_err(t_k, "M(q)", w.id.0))?;
        }
    }
    Ok(())
}

/// Builds `W` once when it is constant; flags the systems whose free velocity does not
/// depend on the Newton iterate (`w.linear`: every system but implicit-in-u with a nonlinear
/// force).
pub(crate) fn init(
    ds: &DynamicalSystem,
    w: &mut DsWork,
    h: f64,
    update: VelocityUpdate,
    t: f64,
) -> Result<(), KernelError> {
    let implicit = update == VelocityUpdate::Implicit;
    match ds {
        DynamicalSystem::LagrangianLinearTi(d) => {
            w.w.copy_from(&d.mass);
            if let (true, Some(c)) = (implicit, &d.c) {
                w.w += c * h;
            }
            w.w_constant = true;
            w.linear = true;
            w.factor(t)
        }
        // the other integrators that take a kinematics map are Moreau–Jean's, which integrate
        // the rigid-body family in its momentum form (`rigid_body.rs`)
        DynamicalSystem::Lagrangian(d) if d.rigid.is_some() => Err(KernelError::UnsupportedSystem {
            ds: w.id,
            reason: "a rigid body (LagrangianDs::rigid_body) is integrated by MoreauJean in its family's momentum \
                     form; the semi-explicit Euler would drop its gyroscopic term"
                .into(),
        }),
        DynamicalSystem::Lagrangian(d) => {
            let v_dep = d.f_int.is_some() || d.f_gyr.is_some();
            w.linear = !(implicit && v_dep);
            w.w_constant = w.linear && matches!(d.mass, Mass::Constant(_));
            if let (true, Mass::Constant(m)) = (w.w_constant, &d.mass) {
                w.w.copy_from(m);
                w.factor(t)?;
            }
            if matches!(d.mass, Mass::Function(_)) {
                w.m_k = nalgebra::DMatrix::zeros(ds.dim_v(), ds.dim_v());
            }
            Ok(())
        }
        _ => Err(super::unsupported(ds, w, "SemiExplicitEuler")),
    }
}

/// Saves `(q_k, u_k)`, evaluates `F(t_k, q_k, u_k)` into `w.f_k` and, when the free velocity
/// does not depend on the iterate, computes it: `u_free = u_k + h W⁻¹ F_k`.
pub(crate) fn begin_step(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64, h: f64) -> Result<(), KernelError> {
    let id = w.id.0;
    match ds {
        DynamicalSystem::LagrangianLinearTi(d) => {
            w.x_k.copy_from(&d.q);
            w.v_k.copy_from(&d.v);
            w.f_k.fill(0.0);
            if let Some(f) = &d.f_ext {
                f.eval(t_k, w.f_k.as_mut_slice()).map_err(user_err(t_k, "F_ext", id))?;
            }
            if let Some(g) = &w.control {
                w.f_k += g;
            }
            if let Some(c) = &d.c {
                w.f_k.gemv(-1.0, c, &w.v_k, 1.0);
            }
            if let Some(k) = &d.k {
                w.f_k.gemv(-1.0, k, &w.x_k, 1.0);
            }
        }
        DynamicalSystem::Lagrangian(d) => {
            w.x_k.copy_from(&d.q);
            w.v_k.copy_from(&d.v);
            forces(d, w, t_k, d.q.as_slice(), d.v.as_slice(), false)?;
            w.f_k.copy_from(&w.tmp);
            super::kinematics_at_start(ds, w, t_k)?;
            if matches!(d.mass, Mass::Function(_)) {
                mass_at(ds, w, t_k)?;
                w.m_k.copy_from(&w.mat3);
                if w.linear {
                    w.w.copy_from(&w.m_k);
                    w.factor(t_k)?;
                }
            }
        }
        _ => return Ok(()),
    }
    if w.linear {
        w.free.copy_from(&w.f_k);
        w.lu.solve(w.free.as_mut_slice(), t_k)?;
        w.free *= h;
        w.free += &w.v_k;
    }
    Ok(())
}

/// Implicit in u with a nonlinear force, at the Newton iterate `u_i` (the system's velocity):
/// `R = M(q_k)(u_i − u_k) − h F(t_k, q_k, u_i)`, `W = M(q_k) − h ∂F/∂u`, `u_free = u_i − W⁻¹ R`.
/// Nothing to do otherwise (the free velocity is the one of `begin_step`).
pub(crate) fn compute_free_state(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64, h: f64) -> Result<(), KernelError> {
    let DynamicalSystem::Lagrangian(d) = ds else { return Ok(()) };
    if w.linear {
        return Ok(());
    }
    let q_k = std::mem::take(&mut w.x_k);
    let res = forces(d, w, t_k, q_k.as_slice(), d.v.as_slice(), true);
    w.x_k = q_k;
    res?;
    // w.tmp = F(t_k, q_k, u_i), w.mat2 = ∂F/∂u
    w.tmp2.copy_from(&d.v);
    w.tmp2 -= &w.v_k;
    match &d.mass {
        Mass::Constant(m) => {
            w.res.gemv(1.0, m, &w.tmp2, 0.0);
            w.w.copy_from(m);
        }
        Mass::Function(_) => {
            w.res.gemv(1.0, &w.m_k, &w.tmp2, 0.0);
            w.w.copy_from(&w.m_k);
        }
    }
    w.res.axpy(-h, &w.tmp, 1.0);
    super::mat_axpy(&mut w.w, -h, &w.mat2);
    w.factor(t_k)?;
    w.lu.solve(w.res.as_mut_slice(), t_k)?;
    w.free.copy_from(&d.v);
    w.free -= &w.res;
    Ok(())
}

/// `u = u_free + W⁻¹ p`, `q = q_k + h N(q_k) u` (`N = I` unless the system has a kinematics
/// map, [`crate::LagrangianDs::kinematics`]); returns the max-norm change of `u` (the Newton
/// increment).
pub(crate) fn update_state(ds: &mut DynamicalSystem, w: &mut DsWork, h: f64, t_k: f64) -> Result<f64, KernelError> {
    w.winv_input(t_k)?;
    // N(q_k) was evaluated by `begin_step`
    let kinematics = ds.kinematics().is_some();
    let (q, v, input) = ds.state_mut();
    let Some(v) = v else { return Ok(0.0) };
    let mut delta: f64 = 0.0;
    for i in 0..v.len() {
        let nv = w.free[i] + w.tmp[i];
        delta = delta.max((nv - v[i]).abs());
        v[i] = nv;
    }
    if kinematics {
        // q_i: a coordinates-sized buffer (the Newton iterate of q is not used by this integrator)
        w.q_i.gemv(1.0, &w.n_k, v, 0.0);
        for i in 0..q.len() {
            q[i] = w.x_k[i] + h * w.q_i[i];
        }
    } else {
        for i in 0..q.len() {
            q[i] = w.x_k[i] + h * v[i];
        }
    }
    input.copy_from(&w.input);
    ds.normalize_q();
    Ok(delta)
}
