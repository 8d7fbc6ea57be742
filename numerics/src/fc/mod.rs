//! Coulomb friction contact, 2D and 3D: the reduced (local) problem [`FrictionContact`]
//! `u = W r + q`, `K_α ∋ r_α ⟂ û_α ∈ K_α*` (De Saxcé), the global problem
//! [`GlobalFrictionContact`] `M v = H r + q`, `u = Hᵀ v + b`, their `.dat` readers, the
//! Siconos error measure and the solvers.
//!
//! Every solver runs behind the driver shortcut of Siconos (all `q_N ≥ −DBL_EPSILON` gives
//! `r = 0`, 0 iterations), never panics, never returns non-finite values, and says in its
//! [`SolveReport`] whether it converged (`residual` is always the normalized error of
//! [`fc_error`] on the returned `r`).

pub mod admm;
mod anderson;
mod block_diag;
pub mod cone;
mod fallback;
pub mod fclib;
pub mod generate;
pub mod global;
pub mod global_nsgs;
pub mod io;
pub mod lemke2d;
pub mod local;
pub mod newton;
pub mod nsgs;
pub mod options;
mod patch;
mod problem;
pub mod prox;
pub mod residual;
pub mod rolling;
mod sparse_lu;
pub mod vi;

pub use fclib::{
    read_fclib_global, read_fclib_local, read_fclib_solution, write_fclib_global, write_fclib_local, FclibInfo,
    FclibSolution,
};
pub use global::{gfc_error, gfc_solver_by_name, solve_global, GfcSolver, GlobalFrictionContact, GFC_SOLVERS};
pub use io::{read_fc, read_fc_file, read_gfc, read_gfc_file};
pub use local::LocalSolver;
pub use options::{
    AdmmOptions, JacobianFactorization, LemkeOptions, NewtonOptions, NsgsFallback, NsgsOptions, PartSchedule,
    PatchOptions, ProxOptions, ViOptions,
};
pub use problem::FrictionContact;
pub use residual::{fc_error, fc_error_with_u};

use crate::error::{check_len, NumericsError, Result};
use crate::report::{IterOptions, SolveReport};

/// The friction-contact solvers (each variant carries its typed options).
#[derive(Debug, Clone, PartialEq)]
pub enum FcSolver {
    /// NSGS with the Alart–Curnier Newton one-contact solver (3D; exact local solve in 2D).
    NsgsAc(NsgsOptions),
    /// NSGS with the Fischer–Burmeister Newton one-contact solver.
    NsgsFb(NsgsOptions),
    /// NSGS with the projection one-contact solver.
    NsgsProj(NsgsOptions),
    /// Proximal point around the global Alart–Curnier Newton (3D).
    Prox(ProxOptions),
    /// Global semismooth Newton on the Alart–Curnier function with line search (3D).
    NewtonAc(NewtonOptions),
    /// Fixed-point projection `r ← P_K(r − ρ F(r))` with self-adaptive `ρ`.
    ViFp(ViOptions),
    /// Extragradient with self-adaptive `ρ`.
    ViEg(ViOptions),
    /// 2D NSGS with the exact one-contact solution.
    Nsgs2d(NsgsOptions),
    /// ADMM: sparse Cholesky of `W + ρ I`, cone projection, adaptive `ρ`, fast-ADMM restart (2D/3D).
    Admm(AdmmOptions),
    /// 2D exact pivoting: lexicographic Lemke on the LCP reformulation of the 2D cone.
    Lemke2d(LemkeOptions),
}

/// Solver catalogue of the 3D local problem: (CLI name, description).
pub const SOLVERS_3D: &[(&str, &str)] = &[
    ("nsgs-ac", "3D nonsmooth Gauss-Seidel, Alart-Curnier Newton per contact"),
    ("nsgs-fb", "3D nonsmooth Gauss-Seidel, Fischer-Burmeister Newton per contact"),
    ("nsgs-proj", "3D nonsmooth Gauss-Seidel, projection on the cone per contact"),
    ("prox", "3D proximal point around the Alart-Curnier semismooth Newton"),
    ("newton-ac", "3D global semismooth Newton on the Alart-Curnier function, line search"),
    ("vi-fp", "fixed-point projection (VI) with self-adaptive step"),
    ("vi-eg", "extragradient (VI) with self-adaptive step"),
    ("admm", "ADMM: Cholesky of W + rho I, cone projection, adaptive rho, restarted acceleration"),
];

/// Solver catalogue of the 2D local problem: (CLI name, description).
pub const SOLVERS_2D: &[(&str, &str)] = &[
    ("nsgs", "2D nonsmooth Gauss-Seidel with the exact one-contact solution"),
    ("lemke", "2D lexicographic Lemke on the LCP reformulation (exact pivoting)"),
];

/// Every local solver: [`SOLVERS_3D`] then [`SOLVERS_2D`].
pub const SOLVERS: &[(&str, &str)] = &[
    SOLVERS_3D[0],
    SOLVERS_3D[1],
    SOLVERS_3D[2],
    SOLVERS_3D[3],
    SOLVERS_3D[4],
    SOLVERS_3D[5],
    SOLVERS_3D[6],
    SOLVERS_3D[7],
    SOLVERS_2D[0],
    SOLVERS_2D[1],
];

/// The solver called `name` in [`SOLVERS`] with default options and the given tolerance/cap.
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<FcSolver> {
    Some(match name {
        "nsgs-ac" => FcSolver::NsgsAc(NsgsOptions::with_iter(it)),
        "nsgs-fb" => FcSolver::NsgsFb(NsgsOptions::with_iter(it)),
        "nsgs-proj" => FcSolver::NsgsProj(NsgsOptions::with_iter(it)),
        "prox" => FcSolver::Prox(ProxOptions::with_iter(it)),
        "newton-ac" => FcSolver::NewtonAc(NewtonOptions::with_iter(it)),
        "vi-fp" => FcSolver::ViFp(ViOptions::with_iter(it)),
        "vi-eg" => FcSolver::ViEg(ViOptions::with_iter(it)),
        "admm" => FcSolver::Admm(AdmmOptions::with_iter(it)),
        "nsgs" => FcSolver::Nsgs2d(NsgsOptions::with_iter(it)),
        "lemke" => FcSolver::Lemke2d(LemkeOptions::with_iter(it)),
        _ => return None,
    })
}

impl FcSolver {
    /// Capability: the solver needs `W` as a dense matrix. None does: the sweeps read block rows,
    /// Newton and PROX factor dense or sparse as `W`'s storage and density say
    /// (`JacobianFactorization`), and the 2D Lemke solver densifies its own LCP.
    pub fn needs_dense(&self) -> bool {
        false
    }
    /// Short name as in [`SOLVERS`].
    pub fn name(&self) -> &'static str {
        match self {
            FcSolver::NsgsAc(_) => "nsgs-ac",
            FcSolver::NsgsFb(_) => "nsgs-fb",
            FcSolver::NsgsProj(_) => "nsgs-proj",
            FcSolver::Prox(_) => "prox",
            FcSolver::NewtonAc(_) => "newton-ac",
            FcSolver::ViFp(_) => "vi-fp",
            FcSolver::ViEg(_) => "vi-eg",
            FcSolver::Nsgs2d(_) => "nsgs",
            FcSolver::Admm(_) => "admm",
            FcSolver::Lemke2d(_) => "lemke",
        }
    }
    /// The global tolerance of the options.
    pub fn tol(&self) -> f64 {
        match self {
            FcSolver::NsgsAc(o) | FcSolver::NsgsFb(o) | FcSolver::NsgsProj(o) | FcSolver::Nsgs2d(o) => o.iter.tol,
            FcSolver::Prox(o) => o.iter.tol,
            FcSolver::NewtonAc(o) => o.iter.tol,
            FcSolver::ViFp(o) | FcSolver::ViEg(o) => o.iter.tol,
            FcSolver::Lemke2d(o) => o.iter.tol,
            FcSolver::Admm(o) => o.iter.tol,
        }
    }
}

/// Solves `p` with `solver`. `r` holds the warm start on entry (when the options ask for it);
/// on exit `(r, u)` hold the answer with `u = W r + q`. Shortcut first: if every
/// `q_{α,N} ≥ −DBL_EPSILON`, `r = 0`, `u = q`, 0 iterations.
pub fn solve(p: &FrictionContact, r: &mut [f64], u: &mut [f64], solver: &FcSolver) -> Result<SolveReport> {
    solve_with_workspace(&mut FcWorkspace::default(), p, r, u, solver)
}

/// Reusable buffers of the friction-contact solvers, kept by a time-stepping loop across
/// steps: the NSGS solvers (`nsgs-ac`, `nsgs-fb`, `nsgs-proj`, 2D `nsgs`) do not allocate once
/// it has grown; the other solvers do not use it yet.
#[derive(Debug, Clone, Default)]
pub struct FcWorkspace {
    nsgs: nsgs::NsgsWorkspace,
}

impl FcWorkspace {
    /// How the workers spent the last NSGS solve on subdomains (see [`nsgs::TeamTimes`]);
    /// `None` when the last solve was not one.
    pub fn last_team_times(&self) -> Option<&nsgs::TeamTimes> {
        self.nsgs.last_team_times()
    }
}

/// [`solve`] reusing the buffers of `ws`.
pub fn solve_with_workspace(
    ws: &mut FcWorkspace,
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    solver: &FcSolver,
) -> Result<SolveReport> {
    check_len("r", p.size(), r.len())?;
    check_len("u", p.size(), u.len())?;
    let need = |name: &'static str, dim: usize| -> Result<()> {
        if p.dim() != dim {
            return Err(NumericsError::Unsupported {
                solver: name,
                what: format!("dimension {} ({dim}D solver)", p.dim()),
            });
        }
        Ok(())
    };
    match solver {
        FcSolver::Nsgs2d(_) => need("nsgs", 2)?,
        FcSolver::Lemke2d(_) => need("lemke", 2)?,
        FcSolver::Prox(_) => need("prox", 3)?,
        FcSolver::NewtonAc(_) => need("newton-ac", 3)?,
        _ => {}
    }
    if p.is_trivial() {
        r.iter_mut().for_each(|x| *x = 0.0);
        u.copy_from_slice(p.q());
        return Ok(SolveReport::trivial(0.0));
    }
    if r.iter().any(|x| !x.is_finite()) {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    match solver {
        FcSolver::NsgsAc(o) => {
            let rep = nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::AlartCurnier)?;
            fallback::after_nsgs(p, r, u, o, rep)
        }
        FcSolver::NsgsFb(o) => nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::FischerBurmeister),
        FcSolver::NsgsProj(o) => nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::Projection),
        FcSolver::Nsgs2d(o) => nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::AlartCurnier),
        FcSolver::Prox(o) => prox::solve(p, r, u, o),
        FcSolver::NewtonAc(o) => newton::solve(p, r, u, o),
        FcSolver::ViFp(o) => vi::solve(p, r, u, o, false),
        FcSolver::ViEg(o) => vi::solve(p, r, u, o, true),
        FcSolver::Lemke2d(o) => lemke2d::solve(p, r, u, o),
        FcSolver::Admm(o) => admm::solve(p, r, u, o),
    }
}
