//! Euler–Moreau θ-scheme for first-order systems (Siconos `EulerMoreauOSI`).
//!
//! `M (x_{k+1} − x_k) = h θ f(t_{k+1}, x_{k+1}) + h (1−θ) f(t_k, x_k) + h r_{k+1}`, with the input
//! `r` fully implicit (no θ weighting, as in Siconos). Linear systems (`f = A(t) x + b(t)`):
//! `W = M − hθ A(t_{k+1})`, `x_free = W⁻¹[M x_k + h(1−θ)(A(t_k) x_k + b(t_k)) + hθ b(t_{k+1})]`.
//! Nonlinear systems, Newton iterate `x_i`: `W = M − hθ ∇f(t_{k+1}, x_i)`,
//! `x_free = x_i − W⁻¹[M(x_i − x_k) − hθ f(t_{k+1}, x_i) − h(1−θ) f(t_k, x_k)]`.
//! In both cases `x = x_free + h W⁻¹ r`.

use super::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::userfn::check_finite_out;
use nalgebra::DMatrix;

fn set_mass(w: &mut DMatrix<f64>, m: &Option<DMatrix<f64>>) {
    match m {
        Some(m) => w.copy_from(m),
        None => w.fill_with_identity(),
    }
}

/// Builds `W` once when constant and flags linear systems.
pub(crate) fn init(
    ds: &DynamicalSystem,
    w: &mut DsWork,
    h: f64,
    theta: f64,
    t: f64,
) -> Result<(), KernelError> {
    match ds {
        DynamicalSystem::FirstOrderLinearTi(d) => {
            set_mass(&mut w.w, &d.mass);
            super::mat_axpy(&mut w.w, -h * theta, &d.a);
            w.w_constant = true;
            w.linear = true;
            w.factor(t)
        }
        DynamicalSystem::FirstOrderLinear(d) => {
            w.linear = true;
            if let crate::model::userfn::MatOp::Constant(a) = &d.a {
                set_mass(&mut w.w, &d.mass);
                super::mat_axpy(&mut w.w, -h * theta, a);
                w.w_constant = true;
                w.factor(t)?;
            }
            Ok(())
        }
        DynamicalSystem::FirstOrderNonLinear(_) => Ok(()),
        _ => Err(KernelError::UnsupportedSystem {
            ds: w.id,
            reason: format!("{} cannot be integrated by EulerMoreauOSI", ds.kind_name()),
        }),
    }
}

/// Saves `x_k` and evaluates `f(t_k, x_k)` into `w.f_k` (not needed for linear TI systems).
pub(crate) fn begin_step(
    ds: &DynamicalSystem,
    w: &mut DsWork,
    t_k: f64,
) -> Result<(), KernelError> {
    let id = w.id.0;
    w.x_k.copy_from(ds.state());
    match ds {
        DynamicalSystem::FirstOrderLinear(d) => {
            d.a.eval(t_k, &mut w.mat)
                .map_err(user_err(t_k, "A(t)", id))?;
            w.f_k.gemv(1.0, &w.mat, &w.x_k, 0.0);
            if let Some(b) = &d.b {
                b.eval(t_k, w.tmp.as_mut_slice())
                    .map_err(user_err(t_k, "b(t)", id))?;
                w.f_k += &w.tmp;
            }
            Ok(())
        }
        DynamicalSystem::FirstOrderNonLinear(d) => {
            (d.f)(t_k, w.x_k.as_slice(), w.f_k.as_mut_slice())
                .map_err(user_err(t_k, "f(t, x)", id))?;
            check_finite_out(w.f_k.as_slice()).map_err(user_err(t_k, "f(t, x)", id))
        }
        _ => Ok(()),
    }
}

/// Computes `W` (when not constant) and the free state `w.free`.
pub(crate) fn compute_free_state(
    ds: &DynamicalSystem,
    w: &mut DsWork,
    t1: f64,
    h: f64,
    theta: f64,
) -> Result<(), KernelError> {
    let id = w.id.0;
    let mut rhs = std::mem::take(&mut w.free);
    match ds {
        DynamicalSystem::FirstOrderLinearTi(d) => {
            // rhs = M x_k + h(1−θ) A x_k + h b
            match &d.mass {
                Some(m) => rhs.gemv(1.0, m, &w.x_k, 0.0),
                None => rhs.copy_from(&w.x_k),
            }
            rhs.gemv(h * (1.0 - theta), &d.a, &w.x_k, 1.0);
            if let Some(b) = &d.b {
                rhs.axpy(h, b, 1.0);
            }
        }
        DynamicalSystem::FirstOrderLinear(d) => {
            if !w.w_constant {
                d.a.eval(t1, &mut w.mat).map_err(user_err(t1, "A(t)", id))?;
                set_mass(&mut w.w, &d.mass);
                super::mat_axpy(&mut w.w, -h * theta, &w.mat);
                w.factor(t1)?;
            }
            match &d.mass {
                Some(m) => rhs.gemv(1.0, m, &w.x_k, 0.0),
                None => rhs.copy_from(&w.x_k),
            }
            rhs.axpy(h * (1.0 - theta), &w.f_k, 1.0);
            if let Some(b) = &d.b {
                b.eval(t1, w.tmp.as_mut_slice())
                    .map_err(user_err(t1, "b(t)", id))?;
                rhs.axpy(h * theta, &w.tmp, 1.0);
            }
        }
        DynamicalSystem::FirstOrderNonLinear(d) => {
            let x_i = &d.x;
            // R = M(x_i − x_k) − hθ f(t1, x_i) − h(1−θ) f_k
            w.tmp.copy_from(x_i);
            w.tmp -= &w.x_k;
            match &d.mass {
                Some(m) => rhs.gemv(1.0, m, &w.tmp, 0.0),
                None => rhs.copy_from(&w.tmp),
            }
            (d.f)(t1, x_i.as_slice(), w.tmp.as_mut_slice()).map_err(user_err(t1, "f(t, x)", id))?;
            check_finite_out(w.tmp.as_slice()).map_err(user_err(t1, "f(t, x)", id))?;
            rhs.axpy(-h * theta, &w.tmp, 1.0);
            rhs.axpy(-h * (1.0 - theta), &w.f_k, 1.0);
            (d.jac_f)(t1, x_i.as_slice(), &mut w.mat).map_err(user_err(t1, "Jacobian of f", id))?;
            set_mass(&mut w.w, &d.mass);
            super::mat_axpy(&mut w.w, -h * theta, &w.mat);
            w.factor(t1)?;
            w.solve_in_place(&mut rhs, t1)?;
            // x_free = x_i − W⁻¹ R
            rhs.neg_mut();
            rhs += x_i;
            w.free = rhs;
            return Ok(());
        }
        _ => {}
    }
    let res = w.solve_in_place(&mut rhs, t1);
    w.free = rhs;
    res
}

/// `x = x_free + h W⁻¹ r` (with `r = w.input`); returns the max-norm change of `x`.
pub(crate) fn update_state(
    ds: &mut DynamicalSystem,
    w: &mut DsWork,
    h: f64,
    t1: f64,
) -> Result<f64, KernelError> {
    w.tmp.copy_from(&w.input);
    let mut r = std::mem::take(&mut w.tmp);
    let res = w.solve_in_place(&mut r, t1);
    w.tmp = r;
    res?;
    let (x, _, input) = ds.state_mut();
    let mut delta: f64 = 0.0;
    for i in 0..x.len() {
        let nx = w.free[i] + h * w.tmp[i];
        delta = delta.max((nx - x[i]).abs());
        x[i] = nx;
    }
    input.copy_from(&w.input);
    Ok(delta)
}
