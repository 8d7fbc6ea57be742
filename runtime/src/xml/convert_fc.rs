//! `<FrictionContact>` solver elements -> `numerics::fc::FcSolver` with typed options, checked
//! (ranges and the solver/dimension match) before the run.

use super::schema::*;
use saltus_kernel::solvers::fc::{self, FcSolver, GfcSolver};
use saltus_numerics::IterOptions;

fn set_iter(it: &mut IterOptions, tol: Option<f64>, max_iter: Option<usize>) {
    if let Some(t) = tol {
        it.tol = t;
    }
    if let Some(n) = max_iter {
        it.max_iter = n;
    }
}

fn nsgs(o: &FcNsgsSpec) -> fc::NsgsOptions {
    let mut x = fc::NsgsOptions::default();
    set_iter(&mut x.iter, o.tol, o.max_iter);
    if let Some(v) = o.warm_start {
        x.warm_start = v;
    }
    if let Some(v) = o.relaxation {
        x.relaxation = v;
    }
    if o.shuffle_seed.is_some() {
        x.shuffle_seed = o.shuffle_seed;
    }
    if let Some(v) = o.local_tol {
        x.local_tol = v;
    }
    if let Some(v) = o.local_max_iter {
        x.local_max_iter = v;
    }
    if let Some(v) = o.anderson {
        x.anderson = v;
    }
    if let Some(v) = o.domains {
        x.domains = v;
    }
    if let Some(v) = o.threads {
        x.threads = v;
    }
    if let Some(v) = o.stagnation_sweeps {
        x.stagnation_sweeps = v;
    }
    x.fallback = match o.fallback {
        None | Some(FallbackSpec::None) => fc::NsgsFallback::None,
        Some(FallbackSpec::Prox) => fc::NsgsFallback::Prox(fallback_prox(o)),
        Some(FallbackSpec::Patch) => {
            let mut p = fc::PatchOptions::default();
            p.prox = fallback_prox(o);
            if let Some(l) = o.fallback_layers {
                p.layers = l;
            }
            fc::NsgsFallback::Patch(p)
        }
    };
    x
}

/// The PROX options of `fallback="prox"` (and of the patches of `fallback="patch"`): [`NSGS_FALLBACK_PROX_MAX_ITER`] proximal steps of
/// [`NSGS_FALLBACK_PROX_INNER`] Newton steps unless given.
fn fallback_prox(o: &FcNsgsSpec) -> fc::ProxOptions {
    let mut p = fc::ProxOptions::default();
    p.iter.max_iter = o.fallback_max_iter.unwrap_or(NSGS_FALLBACK_PROX_MAX_ITER);
    p.inner_max_iter = o.fallback_inner_max_iter.unwrap_or(NSGS_FALLBACK_PROX_INNER);
    p
}

/// Default cap on PROX's proximal steps after the sweeps (`fallback_max_iter`).
pub const NSGS_FALLBACK_PROX_MAX_ITER: usize = 1000;
/// Default Newton steps per proximal step after the sweeps (`fallback_inner_max_iter`).
pub const NSGS_FALLBACK_PROX_INNER: usize = 3;

fn vi(o: &FcViSpec) -> fc::ViOptions {
    let mut x = fc::ViOptions::default();
    set_iter(&mut x.iter, o.tol, o.max_iter);
    if let Some(v) = o.warm_start {
        x.warm_start = v;
    }
    if let Some(v) = o.rho0 {
        x.rho0 = v;
    }
    if let Some(v) = o.l_max {
        x.l_max = v;
    }
    if let Some(v) = o.l_min {
        x.l_min = v;
    }
    if let Some(v) = o.tau {
        x.tau = v;
    }
    x
}

/// The solver of a `<FrictionContact dim=..>` element, or the reason it is rejected (a dimension
/// other than 2 or 3, a solver restricted to the other dimension, an option out of range).
pub fn fc_solver(spec: &FrictionContactSpec) -> Result<FcSolver, String> {
    let dim = spec.dim;
    if dim != 2 && dim != 3 {
        return Err(format!("dim = {dim}: a friction-contact problem has dimension 2 or 3"));
    }
    if let Some(need) = spec.solver.required_dim() {
        if need != dim {
            return Err(format!(
                "the solver {} is for dimension {need} only, the problem has dim = {dim}",
                spec.solver.kind_name()
            ));
        }
    }
    let (solver, check) = match &spec.solver {
        FcSolverSpec::NsgsAc(o) | FcSolverSpec::NsgsFb(o) | FcSolverSpec::NsgsProj(o) | FcSolverSpec::Nsgs2d(o) => {
            let x = nsgs(o);
            let c = x.validate();
            let s = match &spec.solver {
                FcSolverSpec::NsgsAc(_) => FcSolver::NsgsAc(x),
                FcSolverSpec::NsgsFb(_) => FcSolver::NsgsFb(x),
                FcSolverSpec::NsgsProj(_) => FcSolver::NsgsProj(x),
                _ => FcSolver::Nsgs2d(x),
            };
            (s, c)
        }
        FcSolverSpec::ViFp(o) | FcSolverSpec::ViEg(o) => {
            let x = vi(o);
            let c = x.validate();
            (if matches!(spec.solver, FcSolverSpec::ViFp(_)) { FcSolver::ViFp(x) } else { FcSolver::ViEg(x) }, c)
        }
        FcSolverSpec::Prox(o) => {
            let mut x = fc::ProxOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(v) = o.warm_start {
                x.warm_start = v;
            }
            if let Some(v) = o.sigma {
                x.sigma = v;
            }
            if let Some(v) = o.alpha {
                x.alpha = v;
            }
            if let Some(v) = o.inner_max_iter {
                x.inner_max_iter = v;
            }
            if let Some(v) = o.warmup_sweeps {
                x.warmup_sweeps = v;
            }
            if let Some(v) = o.admm_warmup {
                x.admm_warmup = v;
            }
            if let Some(v) = o.admm_min_size {
                x.admm_min_size = v;
            }
            let c = x.validate();
            (FcSolver::Prox(x), c)
        }
        FcSolverSpec::NewtonAc(o) => {
            let mut x = fc::NewtonOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(v) = o.warm_start {
                x.warm_start = v;
            }
            if let Some(v) = o.max_line_search {
                x.max_line_search = v;
            }
            if let Some(v) = o.sparse_threshold {
                x.sparse_threshold = v;
            }
            let c = x.validate();
            (FcSolver::NewtonAc(x), c)
        }
        FcSolverSpec::Lemke2d(o) => {
            let mut x = fc::LemkeOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(v) = o.max_contacts {
                x.max_contacts = v;
            }
            if let Some(v) = o.refine_sweeps {
                x.refine_sweeps = v;
            }
            let c = x.validate();
            (FcSolver::Lemke2d(x), c)
        }
        FcSolverSpec::Admm(o) => {
            let mut x = fc::AdmmOptions::default();
            set_iter(&mut x.iter, o.tol, o.max_iter);
            if let Some(v) = o.warm_start {
                x.warm_start = v;
            }
            if let Some(v) = o.rho0 {
                x.rho0 = v;
            }
            if let Some(v) = o.adaptive_rho {
                x.adaptive_rho = v;
            }
            if let Some(v) = o.acceleration {
                x.acceleration = v;
            }
            if let Some(v) = o.sparse_threshold {
                x.sparse_threshold = v;
            }
            let c = x.validate();
            (FcSolver::Admm(x), c)
        }
    };
    check.map_err(|e| format!("{}: {e}", spec.solver.kind_name()))?;
    Ok(solver)
}

/// The solver of a `<GlobalFrictionContact dim=..>` element, or the reason it is rejected.
pub fn gfc_solver(spec: &GlobalFrictionContactSpec) -> Result<GfcSolver, String> {
    if spec.dim != 2 && spec.dim != 3 {
        return Err(format!("dim = {}: a friction-contact problem has dimension 2 or 3", spec.dim));
    }
    let (solver, o) = match &spec.solver {
        GfcSolverSpec::NsgsWr(o) => (GfcSolver::Condensed(FcSolver::NsgsAc(nsgs(o))), nsgs(o)),
        GfcSolverSpec::Nsgs(o) => {
            if o.anderson.is_some_and(|m| m > 0) {
                return Err("Nsgs: `anderson` is not available in the global NSGS (use <NsgsWr>)".into());
            }
            if o.domains.is_some_and(|p| p > 1) {
                return Err("Nsgs: `domains` is not available in the global NSGS (use <NsgsWr>)".into());
            }
            if o.fallback.is_some_and(|f| f != FallbackSpec::None) {
                return Err("Nsgs: `fallback` is not available in the global NSGS (use <NsgsWr>)".into());
            }
            (GfcSolver::Nsgs(nsgs(o)), nsgs(o))
        }
    };
    o.validate().map_err(|e| e.to_string())?;
    Ok(solver)
}

/// The solver of a `<GenericMechanical>` element, or the reason it is rejected.
pub fn gmp_solver(spec: &GenericMechanicalSpec) -> Result<saltus_kernel::solvers::gmp::GmpOptions, String> {
    let GmpSolverSpec::GaussSeidel(o) = &spec.solver;
    let mut x = saltus_kernel::solvers::gmp::GmpOptions::default();
    set_iter(&mut x.iter, o.tol, o.max_iter);
    if let Some(v) = o.warm_start {
        x.warm_start = v;
    }
    if let Some(v) = o.local_tol {
        x.local_tol = v;
    }
    if let Some(v) = o.local_max_iter {
        x.local_max_iter = v;
    }
    x.validate().map_err(|e| e.to_string())?;
    Ok(x)
}
