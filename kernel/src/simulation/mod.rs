//! Simulations: time stepping with Moreau–Jean / Euler–Moreau / semi-explicit Euler, the one-step problems, and
//! helpers to run and record.

pub mod assembly;
mod compliant;
pub mod constraint_accuracy;
mod dynamic_topology;
pub mod event_driven;
mod gosi;
pub mod index_sets;
pub(crate) mod interaction_work;
pub mod nullspace;
pub mod osi;
pub mod osnsp;
mod phases;
pub mod projection;
pub mod proximity;
pub mod recorder;
mod relation_residuals;
pub mod report;
pub mod time_stepping;
pub mod user_events;

/// Checks a control input term `g` for system `ds` whose input has `n` entries (the size of `x`,
/// or of `v` for a Lagrangian system): the size, then every entry finite. Shared by the
/// simulations' `set_control_input`.
pub(crate) fn check_control_input(ds: crate::DsId, g: &[f64], n: usize) -> Result<(), crate::KernelError> {
    if g.len() != n {
        return Err(crate::KernelError::UnsupportedSystem {
            ds,
            reason: format!("a control input of {} entries for a system of dimension {n}", g.len()),
        });
    }
    if let Some(i) = g.iter().position(|v| !v.is_finite()) {
        return Err(crate::KernelError::UnsupportedSystem {
            ds,
            reason: format!("control input entry {i} is not finite ({})", g[i]),
        });
    }
    Ok(())
}
