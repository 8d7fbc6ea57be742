//! Zero-order hold (Siconos `ZeroOrderHoldOSI`) for linear first-order systems with a constant
//! `A`: the exact solution of `ẋ = A x + b + g` over a step with `b` and the control input `g`
//! held,
//!
//! ```text
//! x_{k+1} = Φ x_k + Ψ b + Ψ g,    Φ = exp(A h),    Ψ = ∫₀ʰ exp(A s) ds,
//! ```
//!
//! with `Φ` and `Ψ` computed once for the nominal step `h` ([`saltus_numerics::zoh`]). A `b(t)`
//! that is a function of time is held at its value at the step's end, `b(t_{k+1})`, as Siconos's
//! `ZeroOrderHoldOSI` evaluates it. The integrator of Siconos's `ControlZOHSimulation`: a
//! controller's input enters as the held term `g` ([`crate::TimeStepping::set_control_input`]).
//! Identity mass only, and no interaction (refused by the time stepping's checks).

use super::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::userfn::{MatOp, VecOp};
use nalgebra::{DMatrix, DVector};

/// `Φ`, `Ψ` and `Ψ b` of a system integrated by zero-order hold.
pub(crate) struct ZohMatrices {
    phi: DMatrix<f64>,
    psi: DMatrix<f64>,
    /// `Ψ b` of a constant `b` (zeros without one).
    psi_b: DVector<f64>,
}

/// `A` and the constant `b` (`None` when absent or a function of time) of a system zero-order
/// hold can integrate; the reason it cannot otherwise.
fn parts(ds: &DynamicalSystem) -> Result<(&DMatrix<f64>, Option<&DVector<f64>>), String> {
    let (mass, a, b) = match ds {
        DynamicalSystem::FirstOrderLinearTi(d) => (&d.mass, &d.a, d.b.as_ref()),
        DynamicalSystem::FirstOrderLinear(d) => {
            let MatOp::Constant(a) = &d.a else {
                return Err("ZeroOrderHoldOSI needs a constant A (b may depend on t)".into());
            };
            match &d.b {
                Some(VecOp::Constant(b)) => (&d.mass, a, Some(b)),
                Some(VecOp::Function(_)) | None => (&d.mass, a, None),
            }
        }
        _ => return Err(format!("{} cannot be integrated by ZeroOrderHoldOSI", ds.kind_name())),
    };
    if mass.is_some() {
        return Err("ZeroOrderHoldOSI needs an identity mass (write M⁻¹A and M⁻¹b)".into());
    }
    Ok((a, b))
}

/// `Φ = exp(A h)`, `Ψ` and `Ψ b` for the nominal step `h`; the system is linear (one Newton
/// iteration).
pub(crate) fn init(ds: &DynamicalSystem, w: &mut DsWork, h: f64) -> Result<(), KernelError> {
    let (a, b) = parts(ds).map_err(|reason| KernelError::UnsupportedSystem { ds: w.id, reason })?;
    let (phi, psi) = saltus_numerics::zoh::zoh_matrices(a, h).ok_or_else(|| KernelError::UnsupportedSystem {
        ds: w.id,
        reason: format!("exp(A h) is not finite for h = {h}"),
    })?;
    let psi_b = match b {
        Some(b) => &psi * b,
        None => DVector::zeros(a.nrows()),
    };
    w.linear = true;
    w.w_constant = true;
    w.zoh = Some(Box::new(ZohMatrices { phi, psi, psi_b }));
    Ok(())
}

/// Saves `x_k`.
pub(crate) fn begin_step(ds: &DynamicalSystem, w: &mut DsWork) {
    w.x_k.copy_from(ds.state());
}

/// `x_free = Φ x_k + Ψ b + Ψ b(t1) + Ψ g` (each product formed, then added, in that order).
pub(crate) fn compute_free_state(ds: &DynamicalSystem, w: &mut DsWork, t1: f64) -> Result<(), KernelError> {
    let Some(z) = w.zoh.as_deref() else {
        return Err(KernelError::UnsupportedSystem { ds: w.id, reason: "zero-order hold not initialized".into() });
    };
    w.free.gemv(1.0, &z.phi, &w.x_k, 0.0);
    w.free += &z.psi_b;
    if let DynamicalSystem::FirstOrderLinear(d) = ds {
        if let Some(b @ VecOp::Function(_)) = &d.b {
            b.eval(t1, w.tmp2.as_mut_slice()).map_err(user_err(t1, "b(t)", w.id.0))?;
            w.tmp.gemv(1.0, &z.psi, &w.tmp2, 0.0);
            w.free += &w.tmp;
        }
    }
    if let Some(g) = &w.control {
        w.tmp.gemv(1.0, &z.psi, g, 0.0);
        w.free += &w.tmp;
    }
    Ok(())
}

/// `x_{k+1} = x_free` (no interaction, no input); returns the max-norm change of `x`.
pub(crate) fn update_state(ds: &mut DynamicalSystem, w: &DsWork) -> f64 {
    let (x, _, _) = ds.state_mut();
    let mut delta: f64 = 0.0;
    for (xi, fi) in x.iter_mut().zip(w.free.iter()) {
        delta = delta.max((fi - *xi).abs());
        *xi = *fi;
    }
    delta
}
