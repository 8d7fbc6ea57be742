//! Moreau–Jean θ-scheme for Lagrangian systems (Siconos `MoreauJeanOSI`).
//!
//! With `F(t, q, v) = F_ext(t) − F_int(t, q, v) − F_gyr(q, v)` (and `− C v − K q` for
//! `LagrangianLinearTIDS`), the Newton iterate `v_i` and `q_i = q_k + h((1−θ) v_k + θ v_i)`:
//! `R_free(v_i) = M(q_i)(v_i − v_k) − h(1−θ) F(t_k, q_k, v_k) − hθ F(t_{k+1}, q_i, v_i)`,
//! `W = M − hθ ∂F/∂v − h²θ² ∂F/∂q`, `v_free = v_i − W⁻¹ R_free`,
//! `v_{i+1} = v_free + W⁻¹ p`, `q_{i+1} = q_k + h((1−θ) v_k + θ v_{i+1})`.
//! A `LagrangianDS` with a kinematics map `q̇ = N(q) v` moves by `q = q_k + h N(q_k) v_θ`, with
//! `W = M − hθ ∂F/∂v − h²θ² ∂F/∂q N(q_k)` (`N` taken at `q_k` over the step).
//! For `LagrangianLinearTIDS` this is the explicit formula of Siconos 4.4:
//! `v_free = v_k − W⁻¹[h C v_k + h K q_k + h²θ K v_k − h((1−θ) F_ext(t_k) + θ F_ext(t_{k+1}))]`.
//!
//! # Energy
//!
//! For constant `M` and constant forces `F` (no `K`, `C`), with `E = ½ vᵀMv − Fᵀq`, one step
//! changes the energy by exactly
//! `E_{k+1} − E_k = ½ pᵀ(v_k + v_{k+1}) − (θ − ½) h Fᵀ(v_{k+1} − v_k)`, and with the Newton law
//! (`ẏ_{k+1} = −e ẏ_k` on every contact with `λ > 0`) `½ pᵀ(v_k + v_{k+1}) = ½ Σ λ (1 − e) ẏ_k`.
//! So for `e ≤ 1` the energy does **not** always decrease; it can increase in two cases, both
//! properties of the scheme shared by Siconos's `MoreauJeanOSI`:
//! * a contact that already separates (`ẏ_k > 0`) but is still penetrated enough to be
//!   activated (`y_k + γ h ẏ_k ≤ 0`) receives an impulse (possible for `e < 1`): `E` grows by
//!   `½ λ (1 − e) ẏ_k`, the price of pushing the body out of the obstacle;
//! * for `θ > ½`, an impulse opposing the force (landing under gravity) adds
//!   `−(θ − ½) h Fᵀ M⁻¹ p > 0`: for θ = 1 a unit mass hitting at speed `s` gains
//!   `e g h s − ½ (1 − e²) s²` (positive for small `s`, always for `e = 1`), while each free step
//!   loses `(θ − ½) h² FᵀM⁻¹F`. The discrete energy `Ẽ = E + (θ − ½) h Fᵀ v` obeys
//!   `Ẽ_{k+1} − Ẽ_k = ½ pᵀ(v_k + v_{k+1})` and only the first case increases it.
//!
//! Otherwise (approaching or resting contacts, free flight) the energy never increases; for
//! θ = ½ and `e = 1` it is conserved exactly (`tests/energy.rs`).

use super::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::{DynamicalSystem, LagrangianDs, Mass};
use crate::model::userfn::check_finite_out;
use nalgebra::DVector;

/// Builds `W` once when it is constant and flags linear systems.
pub(crate) fn init(ds: &DynamicalSystem, w: &mut DsWork, h: f64, theta: f64, t: f64) -> Result<(), KernelError> {
    match ds {
        DynamicalSystem::LagrangianLinearTi(d) => {
            w.w.copy_from(&d.mass);
            if let Some(c) = &d.c {
                w.w += c * (h * theta);
            }
            if let Some(k) = &d.k {
                w.w += k * (h * h * theta * theta);
            }
            w.w_constant = true;
            w.linear = true;
            w.factor(t)
        }
        DynamicalSystem::Lagrangian(d) => {
            let constant = matches!(d.mass, Mass::Constant(_)) && d.f_int.is_none() && d.f_gyr.is_none();
            w.w_constant = constant;
            w.linear = constant;
            if let (true, Mass::Constant(m)) = (constant, &d.mass) {
                w.w.copy_from(m);
                w.factor(t)?;
            }
            Ok(())
        }
        _ => Err(super::unsupported(ds, w, "MoreauJeanOSI")),
    }
}

/// Saves `(q_k, v_k)` and evaluates the forces at `t_k` (`F_ext(t_k)` for linear TI systems,
/// the full `F(t_k, q_k, v_k)` otherwise) into `w.f_k`.
pub(crate) fn begin_step(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64) -> Result<(), KernelError> {
    let id = w.id.0;
    match ds {
        DynamicalSystem::LagrangianLinearTi(d) => {
            w.x_k.copy_from(&d.q);
            w.v_k.copy_from(&d.v);
            match &d.f_ext {
                Some(f) => f.eval(t_k, w.f_k.as_mut_slice()).map_err(user_err(t_k, "F_ext", id)),
                None => Ok(()),
            }
        }
        DynamicalSystem::Lagrangian(d) => {
            w.x_k.copy_from(&d.q);
            w.v_k.copy_from(&d.v);
            forces(d, w, t_k, d.q.as_slice(), d.v.as_slice(), false)?;
            w.f_k.copy_from(&w.tmp);
            super::kinematics_at_start(ds, w, t_k)
        }
        _ => Ok(()),
    }
}

/// `w.tmp = F(t, q, v)`; with `jac`, also `w.mat = ∂F/∂q`, `w.mat2 = ∂F/∂v`.
pub(super) fn forces(
    d: &LagrangianDs,
    w: &mut DsWork,
    t: f64,
    q: &[f64],
    v: &[f64],
    jac: bool,
) -> Result<(), KernelError> {
    let id = w.id.0;
    w.tmp.fill(0.0);
    if let Some(f) = &d.f_ext {
        f.eval(t, w.tmp.as_mut_slice()).map_err(user_err(t, "F_ext", id))?;
    }
    if let Some(g) = &w.control {
        w.tmp += g;
    }
    if jac {
        w.mat.fill(0.0);
        w.mat2.fill(0.0);
    }
    for (name, force) in [("F_int", &d.f_int), ("F_gyr", &d.f_gyr)] {
        let Some(force) = force else { continue };
        w.tmp2.fill(0.0);
        (force.f)(t, q, v, w.tmp2.as_mut_slice()).map_err(user_err(t, name, id))?;
        check_finite_out(w.tmp2.as_slice()).map_err(user_err(t, name, id))?;
        w.tmp -= &w.tmp2;
        if jac {
            w.mat_q.fill(0.0);
            (force.jac_q)(t, q, v, &mut w.mat_q).map_err(user_err(t, "Jacobian of a force wrt q", id))?;
            w.mat -= &w.mat_q;
            w.mat3.fill(0.0);
            (force.jac_v)(t, q, v, &mut w.mat3).map_err(user_err(t, "Jacobian of a force wrt v", id))?;
            w.mat2 -= &w.mat3;
        }
    }
    Ok(())
}

/// Computes `W` (when not constant) and the free velocity `w.free` at the current iterate.
pub(crate) fn compute_free_state(
    ds: &DynamicalSystem,
    w: &mut DsWork,
    t1: f64,
    h: f64,
    theta: f64,
) -> Result<(), KernelError> {
    let id = w.id.0;
    match ds {
        DynamicalSystem::LagrangianLinearTi(d) => {
            // R = h C v_k + h K q_k + h²θ K v_k − h((1−θ) F_ext(t_k) + θ F_ext(t_{k+1}))
            w.tmp.fill(0.0);
            if let Some(f) = &d.f_ext {
                if f.is_constant() {
                    w.tmp.copy_from(&w.f_k);
                    w.tmp *= -h;
                } else {
                    f.eval(t1, w.tmp2.as_mut_slice()).map_err(user_err(t1, "F_ext", id))?;
                    w.tmp.copy_from(&w.f_k);
                    w.tmp *= -h * (1.0 - theta);
                    w.tmp.axpy(-h * theta, &w.tmp2, 1.0);
                }
            }
            if let Some(g) = &w.control {
                w.tmp.axpy(-h, g, 1.0);
            }
            if let Some(c) = &d.c {
                w.tmp.gemv(h, c, &w.v_k, 1.0);
            }
            if let Some(k) = &d.k {
                w.tmp.gemv(h, k, &w.x_k, 1.0);
                w.tmp.gemv(h * h * theta, k, &w.v_k, 1.0);
            }
            w.lu.solve(w.tmp.as_mut_slice(), t1)?;
            w.free.copy_from(&w.v_k);
            w.free -= &w.tmp;
            Ok(())
        }
        DynamicalSystem::Lagrangian(d @ LagrangianDs { rigid: Some(rigid), .. }) => {
            super::rigid_body::free_state(d, rigid, w, t1, h, theta)
        }
        DynamicalSystem::Lagrangian(d) => {
            // the iterate (q_i, v_i) is taken out of the workspace while the forces are
            // evaluated into it, and put back whatever happens
            let mut q_i = std::mem::take(&mut w.q_i);
            let mut v_i = std::mem::take(&mut w.v_i);
            v_i.copy_from(&d.v);
            q_i.copy_from(&w.x_k);
            if d.kinematics.is_some() {
                // q_i = q_k + h N(q_k) v_θ (v_θ in `res`, overwritten by the free state)
                w.res.copy_from(&w.v_k);
                w.res *= 1.0 - theta;
                w.res.axpy(theta, &v_i, 1.0);
                q_i.gemv(h, &w.n_k, &w.res, 1.0);
            } else {
                q_i.axpy(h * (1.0 - theta), &w.v_k, 1.0);
                q_i.axpy(h * theta, &v_i, 1.0);
            }
            let res = lagrangian_free_state(d, w, t1, h, theta, &q_i, &v_i);
            w.q_i = q_i;
            w.v_i = v_i;
            res
        }
        _ => Ok(()),
    }
}

/// `LagrangianDS` at the iterate `(q_i, v_i)`: `R = M(q_i)(v_i − v_k) − h(1−θ) F_k − hθ F`,
/// `W = M(q_i) − hθ ∂F/∂v − h²θ² ∂F/∂q` (when not constant), `v_free = v_i − W⁻¹ R`.
fn lagrangian_free_state(
    d: &LagrangianDs,
    w: &mut DsWork,
    t1: f64,
    h: f64,
    theta: f64,
    q_i: &DVector<f64>,
    v_i: &DVector<f64>,
) -> Result<(), KernelError> {
    let id = w.id.0;
    forces(d, w, t1, q_i.as_slice(), v_i.as_slice(), !w.w_constant)?;
    // dv = v_i − v_k (in tmp2, free after `forces`)
    w.tmp2.copy_from(v_i);
    w.tmp2 -= &w.v_k;
    match &d.mass {
        Mass::Constant(m) => w.res.gemv(1.0, m, &w.tmp2, 0.0),
        Mass::Function(mf) => {
            w.mat3.fill(0.0);
            mf(t1, q_i.as_slice(), &mut w.mat3).map_err(user_err(t1, "M(q)", id))?;
            check_finite_out(w.mat3.as_slice()).map_err(user_err(t1, "M(q)", id))?;
            w.res.gemv(1.0, &w.mat3, &w.tmp2, 0.0);
        }
    }
    w.res.axpy(-h * (1.0 - theta), &w.f_k, 1.0);
    w.res.axpy(-h * theta, &w.tmp, 1.0);
    if !w.w_constant {
        match &d.mass {
            Mass::Constant(m) => w.w.copy_from(m),
            Mass::Function(_) => w.w.copy_from(&w.mat3),
        }
        // W = M − hθ ∂F/∂v − h²θ² ∂F/∂q N(q_k)   (N = I without a kinematics map)
        super::mat_axpy(&mut w.w, -h * theta, &w.mat2);
        if d.kinematics.is_some() {
            w.mat3.gemm(1.0, &w.mat, &w.n_k, 0.0);
            super::mat_axpy(&mut w.w, -h * h * theta * theta, &w.mat3);
        } else {
            super::mat_axpy(&mut w.w, -h * h * theta * theta, &w.mat);
        }
        w.factor(t1)?;
    }
    w.lu.solve(w.res.as_mut_slice(), t1)?;
    w.free.copy_from(v_i);
    w.free -= &w.res;
    Ok(())
}

/// `v = v_free + W⁻¹ p` (with `p = w.input`), `q = q_k + h N((1−θ) v_k + θ v)` (`N = I`, or
/// `N(q_k)` of a kinematics map); returns the max-norm change of `v` (the Newton increment).
pub(crate) fn update_state(
    ds: &mut DynamicalSystem,
    w: &mut DsWork,
    h: f64,
    theta: f64,
    t1: f64,
) -> Result<f64, KernelError> {
    w.winv_input(t1)?;
    let (_, v, _) = ds.state_mut();
    let Some(v) = v else { return Ok(0.0) };
    let mut delta: f64 = 0.0;
    for i in 0..v.len() {
        let nv = w.free[i] + w.tmp[i];
        delta = delta.max((nv - v[i]).abs());
        v[i] = nv;
    }
    update_coordinates(ds, w, h, theta);
    Ok(delta)
}

/// The coordinates at the end of the step from the new velocity `v` (already in the system) and
/// `v_θ = (1−θ) v_k + θ v`: `q = q_k + h v_θ`, or `q_k + h N(q_k) v_θ` with a kinematics map (a
/// unit quaternion then renormalized), or the rigid-body family's exponential-map pose; the
/// input `p` is stored. Shared by the local and the global (`MoreauJeanGOSI`) Moreau–Jean.
pub(crate) fn update_coordinates(ds: &mut DynamicalSystem, w: &mut DsWork, h: f64, theta: f64) {
    let kinematics = ds.kinematics().is_some();
    let rigid = ds.rigid_body().is_some();
    let (q, v, input) = ds.state_mut();
    let Some(v) = v else { return };
    input.copy_from(&w.input);
    if rigid {
        // the rigid-body family: the pose by the exponential map of h Ω_θ (renormalized there)
        let (x_k, v_k) = (w.x_k.as_slice(), w.v_k.as_slice());
        super::rigid_body::update_coordinates(q.as_mut_slice(), x_k, v_k, v.as_slice(), h, theta);
        return;
    }
    if kinematics {
        // q = q_k + h N(q_k) v_θ (v_θ in `tmp2`)
        for i in 0..v.len() {
            w.tmp2[i] = (1.0 - theta) * w.v_k[i] + theta * v[i];
        }
        q.copy_from(&w.x_k);
        q.gemv(h, &w.n_k, &w.tmp2, 1.0);
    } else {
        for i in 0..v.len() {
            q[i] = w.x_k[i] + h * ((1.0 - theta) * w.v_k[i] + theta * v[i]);
        }
    }
    ds.normalize_q();
}
