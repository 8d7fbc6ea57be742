//! Euler–Moreau θ-scheme for first-order systems (Siconos `EulerMoreauOSI`).
//!
//! `M (x_{k+1} − x_k) = h θ f(t_{k+1}, x_{k+1}) + h (1−θ) f(t_k, x_k) + h r_{k+1}`, with the input
//! `r` fully implicit (no θ weighting, as in Siconos). At the iterate `x` (`x = x_k` at the first
//! one; linear systems need only that one), with `W = M − hθ ∇f(t_{k+1}, x)`:
//! `R_free = M(x − x_k) − h(1−θ) f(t_k, x_k) − hθ f(t_{k+1}, x)`, `x_free = x − W⁻¹ R_free` and
//! `x = W⁻¹(h r) + x_free`.
//!
//! `h` is the step's length `t_{k+1} − t_k` (Siconos's `timeStep()`), which differs from the
//! nominal step by the rounding of `t_k = t0 + k h`; a constant `W` is rebuilt when it changes.
//! Together with the order of operations above (Siconos's `computeResidu`, `computeFreeState`,
//! `updateState`) this gives Siconos 4.4's states bit for bit (test on its `DiodeBridge`), while
//! the one-step problem's `h C W⁻¹ B` of a constant relation is built once, at the first step.
//!
//! A system under a `FirstOrderNonLinearR` (input `r = g(t, x, λ)`, `K = ∇ₓg`) takes the Newton
//! form whatever its vector field: `W = M − hθ ∇f(t_{k+1}, x_i) − h K_i` (Σ over its
//! relations), with `r_i − B λ_i − K (x − x_i)` moved into `W`, so `x = x_free + h W⁻¹ (g_i − B λ_i + B λ)`.

use super::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::userfn::check_finite_out;
use nalgebra::{DMatrix, DVector};

fn set_mass(w: &mut DMatrix<f64>, m: &Option<DMatrix<f64>>) {
    match m {
        Some(m) => w.copy_from(m),
        None => w.fill_with_identity(),
    }
}

/// Marks a system under a `FirstOrderNonLinearR`: its `W` includes `−h K` and changes with
/// the Newton iterate.
pub(crate) fn enable_k(w: &mut DsWork) {
    let n = w.x_k.len();
    w.has_k = true;
    w.k_sum = DMatrix::zeros(n, n);
    w.w_constant = false;
    w.linear = false;
}

/// Builds `W` once when constant and flags linear systems.
pub(crate) fn init(ds: &DynamicalSystem, w: &mut DsWork, h: f64, theta: f64, t: f64) -> Result<(), KernelError> {
    match ds {
        DynamicalSystem::FirstOrderLinearTi(d) => {
            set_mass(&mut w.w, &d.mass);
            super::mat_axpy(&mut w.w, -h * theta, &d.a);
            w.w_constant = true;
            w.h_w = h;
            w.linear = true;
            w.factor(t)
        }
        DynamicalSystem::FirstOrderLinear(d) => {
            w.linear = true;
            if let crate::model::userfn::MatOp::Constant(a) = &d.a {
                set_mass(&mut w.w, &d.mass);
                super::mat_axpy(&mut w.w, -h * theta, a);
                w.w_constant = true;
                w.h_w = h;
                w.factor(t)?;
            }
            Ok(())
        }
        DynamicalSystem::FirstOrderNonLinear(_) => Ok(()),
        _ => Err(super::unsupported(ds, w, "EulerMoreauOSI")),
    }
}

/// Saves `x_k` and evaluates `f(t_k, x_k)` (with the held control term `g`) into `w.f_k` (not
/// needed for linear TI systems).
pub(crate) fn begin_step(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64) -> Result<(), KernelError> {
    w.x_k.copy_from(ds.state());
    let evaluated = field_at_start(ds, w, t_k)?;
    if let (true, Some(g)) = (evaluated, &w.control) {
        w.f_k += g;
    }
    Ok(())
}

/// `w.f_k = f(t_k, x_k)`; `false` when not needed (linear TI systems outside the Newton form).
fn field_at_start(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64) -> Result<bool, KernelError> {
    let id = w.id.0;
    match ds {
        DynamicalSystem::FirstOrderLinear(d) => {
            d.a.eval(t_k, &mut w.mat).map_err(user_err(t_k, "A(t)", id))?;
            w.f_k.gemv(1.0, &w.mat, &w.x_k, 0.0);
            if let Some(b) = &d.b {
                b.eval(t_k, w.tmp.as_mut_slice()).map_err(user_err(t_k, "b(t)", id))?;
                w.f_k += &w.tmp;
            }
            Ok(true)
        }
        DynamicalSystem::FirstOrderNonLinear(d) => {
            (d.f)(t_k, w.x_k.as_slice(), w.f_k.as_mut_slice()).map_err(user_err(t_k, "f(t, x)", id))?;
            check_finite_out(w.f_k.as_slice()).map_err(user_err(t_k, "f(t, x)", id))?;
            Ok(true)
        }
        DynamicalSystem::FirstOrderLinearTi(d) => {
            w.f_k.gemv(1.0, &d.a, &w.x_k, 0.0);
            if let Some(b) = &d.b {
                w.f_k += b;
            }
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// The mass matrix of a first-order system (`None` = identity).
fn mass_of(ds: &DynamicalSystem) -> &Option<DMatrix<f64>> {
    match ds {
        DynamicalSystem::FirstOrderLinearTi(d) => &d.mass,
        DynamicalSystem::FirstOrderLinear(d) => &d.mass,
        DynamicalSystem::FirstOrderNonLinear(d) => &d.mass,
        _ => &None,
    }
}

/// `w.mat = ∇f(t1, x)` and `w.tmp = f(t1, x)` for any first-order system (`f = A x + b` for
/// the linear ones).
fn field_and_jacobian(ds: &DynamicalSystem, w: &mut DsWork, t1: f64, x: &DVector<f64>) -> Result<(), KernelError> {
    let id = w.id.0;
    match ds {
        DynamicalSystem::FirstOrderLinearTi(d) => {
            w.mat.copy_from(&d.a);
            w.tmp.gemv(1.0, &d.a, x, 0.0);
            if let Some(b) = &d.b {
                w.tmp += b;
            }
        }
        DynamicalSystem::FirstOrderLinear(d) => {
            d.a.eval(t1, &mut w.mat).map_err(user_err(t1, "A(t)", id))?;
            w.tmp.gemv(1.0, &w.mat, x, 0.0);
            if let Some(b) = &d.b {
                b.eval(t1, w.tmp2.as_mut_slice()).map_err(user_err(t1, "b(t)", id))?;
                w.tmp += &w.tmp2;
            }
        }
        DynamicalSystem::FirstOrderNonLinear(d) => {
            (d.jac_f)(t1, x.as_slice(), &mut w.mat).map_err(user_err(t1, "Jacobian of f", id))?;
            check_finite_out(w.mat.as_slice()).map_err(user_err(t1, "Jacobian of f", id))?;
            (d.f)(t1, x.as_slice(), w.tmp.as_mut_slice()).map_err(user_err(t1, "f(t, x)", id))?;
            check_finite_out(w.tmp.as_slice()).map_err(user_err(t1, "f(t, x)", id))?;
        }
        _ => {}
    }
    Ok(())
}

/// The Newton form at the iterate `x_i` (the system's current state):
/// `W = M − hθ ∇f(t1, x_i) − h K`, then [`free_from_residual`].
fn newton_free_state(ds: &DynamicalSystem, w: &mut DsWork, t1: f64, h: f64, theta: f64) -> Result<(), KernelError> {
    let mass = mass_of(ds);
    field_and_jacobian(ds, w, t1, ds.state())?;
    if let Some(g) = &w.control {
        w.tmp += g;
    }
    set_mass(&mut w.w, mass);
    super::mat_axpy(&mut w.w, -h * theta, &w.mat);
    if w.has_k {
        super::mat_axpy(&mut w.w, -h, &w.k_sum);
    }
    w.factor(t1)?;
    free_from_residual(ds, w, h, theta, t1)
}

/// With `w.tmp = f(t1, x)` at the iterate `x`, `w.f_k = f(t_k, x_k)` and `W` factored:
/// `R_free = M(x − x_k) − h(1−θ) f_k − hθ f(t1, x)` and `x_free = x − W⁻¹ R_free`, in Siconos's
/// order (`EulerMoreauOSI::computeResidu`, `computeFreeState`).
fn free_from_residual(ds: &DynamicalSystem, w: &mut DsWork, h: f64, theta: f64, t1: f64) -> Result<(), KernelError> {
    let x = ds.state();
    w.tmp2.copy_from(x);
    w.tmp2 -= &w.x_k;
    mass_times(&mut w.free, mass_of(ds), &w.tmp2);
    w.free.axpy(-(h * (1.0 - theta)), &w.f_k, 1.0);
    w.free.axpy(-(h * theta), &w.tmp, 1.0);
    w.lu.solve(w.free.as_mut_slice(), t1)?;
    w.free.neg_mut();
    w.free += x;
    Ok(())
}

/// `out = M x` (`M = I` when `None`).
fn mass_times(out: &mut DVector<f64>, m: &Option<DMatrix<f64>>, x: &DVector<f64>) {
    match m {
        Some(m) => out.gemv(1.0, m, x, 0.0),
        None => out.copy_from(x),
    }
}

/// Rebuilds a constant `W = M − hθ A` when the step's length `h` is not the one it was built
/// with, and refactors it when that changes one of its entries (most changes of `h` by an ulp
/// vanish in the rounding of `hθ A`).
fn rebuild_constant_w(
    w: &mut DsWork,
    mass: &Option<DMatrix<f64>>,
    a: &DMatrix<f64>,
    h: f64,
    theta: f64,
    t1: f64,
) -> Result<(), KernelError> {
    if w.h_w == h {
        return Ok(());
    }
    w.h_w = h;
    set_mass(&mut w.mat2, mass);
    super::mat_axpy(&mut w.mat2, -h * theta, a);
    if w.mat2 == w.w {
        return Ok(());
    }
    std::mem::swap(&mut w.w, &mut w.mat2);
    w.refactor(t1)
}

/// Computes `W` (when not constant, or for a new step length) and the free state `w.free` over
/// the step `[t_k, t1]`.
pub(crate) fn compute_free_state(
    ds: &DynamicalSystem,
    w: &mut DsWork,
    t_k: f64,
    t1: f64,
    theta: f64,
) -> Result<(), KernelError> {
    let id = w.id.0;
    let h = t1 - t_k;
    if w.has_k {
        return newton_free_state(ds, w, t1, h, theta);
    }
    let x = ds.state();
    match ds {
        DynamicalSystem::FirstOrderLinearTi(d) => {
            rebuild_constant_w(w, &d.mass, &d.a, h, theta, t1)?;
            w.tmp.gemv(1.0, &d.a, x, 0.0);
            if let Some(b) = &d.b {
                w.tmp += b;
            }
        }
        DynamicalSystem::FirstOrderLinear(d) => {
            match &d.a {
                crate::model::userfn::MatOp::Constant(a) if w.w_constant => {
                    rebuild_constant_w(w, &d.mass, a, h, theta, t1)?;
                    w.tmp.gemv(1.0, a, x, 0.0);
                }
                _ => {
                    d.a.eval(t1, &mut w.mat).map_err(user_err(t1, "A(t)", id))?;
                    set_mass(&mut w.w, &d.mass);
                    super::mat_axpy(&mut w.w, -h * theta, &w.mat);
                    w.factor(t1)?;
                    w.tmp.gemv(1.0, &w.mat, x, 0.0);
                }
            }
            if let Some(b) = &d.b {
                b.eval(t1, w.tmp2.as_mut_slice()).map_err(user_err(t1, "b(t)", id))?;
                w.tmp += &w.tmp2;
            }
        }
        DynamicalSystem::FirstOrderNonLinear(_) => return newton_free_state(ds, w, t1, h, theta),
        _ => return Ok(()),
    }
    if let Some(g) = &w.control {
        w.tmp += g;
    }
    free_from_residual(ds, w, h, theta, t1)
}

/// `x = W⁻¹(h r) + x_free` (with `r = w.input`, `h = t1 − t_k`; Siconos's
/// `EulerMoreauOSI::updateState`); returns the max-norm change of `x`.
pub(crate) fn update_state(ds: &mut DynamicalSystem, w: &mut DsWork, t_k: f64, t1: f64) -> Result<f64, KernelError> {
    let h = t1 - t_k;
    if w.input.iter().all(|&r| r == 0.0) {
        // no input: W⁻¹ 0 = 0 without the solve
        w.tmp.fill(0.0);
    } else {
        w.tmp.copy_from(&w.input);
        w.tmp *= h;
        w.lu.solve(w.tmp.as_mut_slice(), t1)?;
    }
    let (x, _, input) = ds.state_mut();
    let mut delta: f64 = 0.0;
    for i in 0..x.len() {
        let nx = w.tmp[i] + w.free[i];
        delta = delta.max((nx - x[i]).abs());
        x[i] = nx;
    }
    input.copy_from(&w.input);
    Ok(delta)
}
