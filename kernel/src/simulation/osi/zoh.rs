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
//!
//! Interactions (relays, complementarity conditions) enter as Siconos's `ZeroOrderHoldOSI` takes
//! them: the input `r = B λ_{k+1}` is held over the step, `x_{k+1} = x_free + Ψ r`, so the one-step
//! problem sees `y_{k+1} = C x_free + (C Ψ B + D) λ_{k+1}` (Siconos's `Bd = Ψ B`). In the kernel's
//! first-order assembly, where the input acts through `h W⁻¹`, that is the iteration matrix
//! `W = h Ψ⁻¹`, factored once: Euler–Moreau's update and problem assembly then serve both.
//! Identity mass only.

use super::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::userfn::{MatOp, VecOp};
use nalgebra::{DMatrix, DVector};

/// The largest condition number `‖Ψ‖ ‖Ψ⁻¹‖` (Frobenius) of a `Ψ` that carries the input of
/// interactions through `W = h Ψ⁻¹` (beyond it `Ψ r` would lose more than 4 of its 16 digits).
pub const PSI_MAX_CONDITION: f64 = 1e12;

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
    // W = h Ψ⁻¹, so that h W⁻¹ r = Ψ r; a Ψ that is singular or nearly so (ω h a multiple of 2π
    // for an eigenvalue i ω of A: Ψ r cannot be recovered through its inverse) leaves W
    // unfactored, and an input on the system is then a typed error (`SingularW`)
    match psi.clone().try_inverse().filter(|inv| inv.norm() * psi.norm() < PSI_MAX_CONDITION) {
        Some(inv) => {
            w.w.copy_from(&(inv * h));
            w.refactor(0.0)?;
        }
        None => w.w.fill(f64::NAN),
    }
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

/// `x_{k+1} = x_free + Ψ r` (`r = B λ_{k+1}`, the input of the interactions): Euler–Moreau's
/// update with `W = h Ψ⁻¹`; returns the max-norm change of `x`.
pub(crate) fn update_state(ds: &mut DynamicalSystem, w: &mut DsWork, t_k: f64, t1: f64) -> Result<f64, KernelError> {
    super::euler_moreau::update_state(ds, w, t_k, t1)
}
