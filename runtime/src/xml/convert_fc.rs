//! `<FrictionContact>` solver elements -> `numerics::fc::FcSolver` with typed options, checked
//! (ranges and the solver/dimension match) before the run.

use super::schema::*;
use saltus_kernel::solvers::fc::{self, FcSolver, GfcSolver};
use saltus_numerics::by_name::SetByName;

/// Sets the element's attributes on `solver`'s options, in the order the options declare them
/// (so that NSGS's `fallback` comes before its `fallback_*`), and checks the ranges.
fn apply(spec: &SolverSpec, solver: &mut FcSolver) -> Result<(), String> {
    let names = solver.decl().options;
    apply_to(spec, |name, value| solver.set_by_name(name, value), names)?;
    solver.validate().map_err(|e| e.to_string())
}

/// Calls `set` for each attribute of `spec`, in the order of `names`; the reason names the
/// element and the attribute.
pub(super) fn apply_to(
    spec: &SolverSpec,
    mut set: impl FnMut(&str, &str) -> Result<bool, String>,
    names: &[&str],
) -> Result<(), String> {
    for name in names {
        for (k, v) in spec.attributes.iter().filter(|(k, _)| k == name) {
            match set(k, v) {
                Ok(true) => {}
                Ok(false) => return Err(format!("`{k}` is not an option of <{}>", spec.element)),
                Err(e) => return Err(format!("`{k}`: {e}")),
            }
        }
    }
    Ok(())
}

/// The solver of a `<FrictionContact dim=..>` element, or the reason it is rejected (a dimension
/// other than 2 or 3, a solver restricted to the other dimension, an option out of range).
pub fn fc_solver(spec: &FrictionContactSpec) -> Result<FcSolver, String> {
    fc_solver_with(spec, |_| {})
}

/// [`fc_solver`] with the context's defaults: `defaults` changes the solver's default options
/// before the element's attributes are set (a `<Mechanics>` scene warm-starts by default).
pub fn fc_solver_with(spec: &FrictionContactSpec, defaults: impl FnOnce(&mut FcSolver)) -> Result<FcSolver, String> {
    let dim = spec.dim;
    if dim != 2 && dim != 3 {
        return Err(format!("dim = {dim}: a friction-contact problem has dimension 2 or 3"));
    }
    let element = spec.solver.element;
    let mut solver = FcSolver::from_element(element).ok_or_else(|| format!("no solver <{element}>"))?;
    if let Some(need) = solver.decl().dim {
        if need != dim {
            return Err(format!("the solver {element} is for dimension {need} only, the problem has dim = {dim}"));
        }
    }
    defaults(&mut solver);
    apply(&spec.solver, &mut solver)?;
    Ok(solver)
}

/// The solver of a `<GlobalFrictionContact dim=..>` element, or the reason it is rejected;
/// `warm_start` is the NSGS options' default.
pub fn gfc_solver(spec: &GlobalFrictionContactSpec, warm_start: Option<bool>) -> Result<GfcSolver, String> {
    if spec.dim != 2 && spec.dim != 3 {
        return Err(format!("dim = {}: a friction-contact problem has dimension 2 or 3", spec.dim));
    }
    let mut o = fc::NsgsOptions::default();
    if let Some(w) = warm_start {
        o.warm_start = w;
    }
    let s = &spec.solver.0;
    apply_to(s, |k, v| saltus_numerics::by_name::SetByName::set_by_name(&mut o, k, v), fc::NsgsOptions::NAMES)?;
    o.validate().map_err(|e| e.to_string())?;
    Ok(match s.element {
        "NsgsWr" => GfcSolver::Condensed(FcSolver::NsgsAc(o)),
        _ => {
            for (name, off) in [("anderson", o.anderson == 0), ("domains", o.domains <= 1)] {
                if !off {
                    return Err(format!("Nsgs: `{name}` is not available in the global NSGS (use <NsgsWr>)"));
                }
            }
            if o.fallback != fc::NsgsFallback::None {
                return Err("Nsgs: `fallback` is not available in the global NSGS (use <NsgsWr>)".into());
            }
            GfcSolver::Nsgs(o)
        }
    })
}

/// The solver of a `<GenericMechanical>` element, or the reason it is rejected.
pub fn gmp_solver(spec: &GenericMechanicalSpec) -> Result<saltus_kernel::solvers::gmp::GmpOptions, String> {
    let mut o = saltus_kernel::solvers::gmp::GmpOptions::default();
    apply_to(&spec.solver, |k, v| o.set_by_name(k, v), saltus_kernel::solvers::gmp::GmpOptions::NAMES)?;
    o.validate().map_err(|e| e.to_string())?;
    Ok(o)
}
