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
pub mod tfp;
pub mod vi;

pub use fclib::{
    read_fclib_global, read_fclib_local, read_fclib_solution, write_fclib_global, write_fclib_local, FclibInfo,
    FclibSolution,
};
pub use global::{gfc_error, gfc_solver_by_name, solve_global, GfcSolver, GlobalFrictionContact, GFC_SOLVERS};
pub use io::{read_fc, read_fc_file, read_gfc, read_gfc_file};
pub use local::LocalSolver;
pub use options::{
    AdmmOptions, FcOptions, JacobianFactorization, LemkeOptions, NewtonOptions, NsgsFallback, NsgsOptions,
    PartSchedule, PatchOptions, ProxOptions, ViOptions,
};
pub use problem::FrictionContact;
pub use residual::{fc_error, fc_error_with_u};

use crate::by_name::SetByName;
use crate::error::{check_len, NumericsError, Result};
use crate::report::{IterOptions, SolveReport};

/// What the registration declares of a friction-contact solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FcSolverDecl {
    /// Name on the command line, in `saltus solvers` and in Python (`nsgs-ac`).
    pub name: &'static str,
    /// Element name in model files (`<NsgsAc …/>`).
    pub element: &'static str,
    /// The one problem dimension it accepts, if it is restricted.
    pub dim: Option<usize>,
    /// One line for the catalogue.
    pub description: &'static str,
    /// Its options settable by name (the element's attributes, [`SetByName::NAMES`]).
    pub options: &'static [&'static str],
}

/// The registration of the friction-contact solvers, in catalogue order: the 3D catalogue, then
/// the 2D one. A line is `Variant(Options) = "cli-name", "Element", dimension, "description",
/// |ws, p, r, u, o| solve` (the options implement [`FcOptions`] and [`SetByName`]; the solve
/// expression reads the workspace, problem, `r`, `u` and options by those names). It makes
/// [`FcSolver`], [`FC_SOLVERS`], [`SOLVERS_3D`], [`SOLVERS_2D`], [`SOLVERS`], [`solver_by_name`]
/// and the dispatch of [`solve_with_workspace`]: a new solver is its module plus one line here
/// (and its element in the schema, which a test checks against [`FC_SOLVERS`]).
macro_rules! fc_solvers {
    (
        dim3 { $($v3:ident($o3:ty) = $n3:literal, $e3:literal, $d3:expr, $desc3:literal,
                 |$ws3:ident, $p3:ident, $r3:ident, $u3:ident, $x3:ident| $solve3:expr;)* }
        dim2 { $($v2:ident($o2:ty) = $n2:literal, $e2:literal, $d2:expr, $desc2:literal,
                 |$ws2:ident, $p2:ident, $r2:ident, $u2:ident, $x2:ident| $solve2:expr;)* }
    ) => {
        /// The friction-contact solvers (each variant carries its typed options).
        #[derive(Debug, Clone, PartialEq)]
        pub enum FcSolver {
            $(#[doc = $desc3] $v3($o3),)*
            $(#[doc = $desc2] $v2($o2),)*
        }

        /// Every solver's declaration: the 3D catalogue, then the 2D one.
        pub const FC_SOLVERS: &[FcSolverDecl] = &[
            $(FcSolverDecl { name: $n3, element: $e3, dim: $d3, description: $desc3, options: <$o3 as SetByName>::NAMES },)*
            $(FcSolverDecl { name: $n2, element: $e2, dim: $d2, description: $desc2, options: <$o2 as SetByName>::NAMES },)*
        ];

        /// Solver catalogue of the 3D local problem: (CLI name, description).
        pub const SOLVERS_3D: &[(&str, &str)] = &[$(($n3, $desc3)),*];

        /// Solver catalogue of the 2D local problem: (CLI name, description).
        pub const SOLVERS_2D: &[(&str, &str)] = &[$(($n2, $desc2)),*];

        /// Every local solver: [`SOLVERS_3D`] then [`SOLVERS_2D`].
        pub const SOLVERS: &[(&str, &str)] = &[$(($n3, $desc3),)* $(($n2, $desc2)),*];

        /// The solver called `name` in [`SOLVERS`] with default options and the given tolerance/cap.
        pub fn solver_by_name(name: &str, it: IterOptions) -> Option<FcSolver> {
            Some(match name {
                $($n3 => FcSolver::$v3(<$o3>::with_iter(it)),)*
                $($n2 => FcSolver::$v2(<$o2>::with_iter(it)),)*
                _ => return None,
            })
        }

        impl FcSolver {
            /// The solver whose model-file element is `element`, with default options.
            pub fn from_element(element: &str) -> Option<FcSolver> {
                Some(match element {
                    $($e3 => FcSolver::$v3(<$o3>::default()),)*
                    $($e2 => FcSolver::$v2(<$o2>::default()),)*
                    _ => return None,
                })
            }

            /// Its declaration (the entry of [`FC_SOLVERS`]).
            pub fn decl(&self) -> &'static FcSolverDecl {
                match self {
                    $(FcSolver::$v3(_) => &FcSolverDecl { name: $n3, element: $e3, dim: $d3, description: $desc3, options: <$o3 as SetByName>::NAMES },)*
                    $(FcSolver::$v2(_) => &FcSolverDecl { name: $n2, element: $e2, dim: $d2, description: $desc2, options: <$o2 as SetByName>::NAMES },)*
                }
            }

            fn opts(&self) -> &dyn FcOptions {
                match self {
                    $(FcSolver::$v3(o) => o,)*
                    $(FcSolver::$v2(o) => o,)*
                }
            }

            fn opts_mut(&mut self) -> &mut dyn FcOptions {
                match self {
                    $(FcSolver::$v3(o) => o,)*
                    $(FcSolver::$v2(o) => o,)*
                }
            }

            /// Sets the option `name` from text ([`SetByName`] of the variant's options).
            pub fn set_by_name(&mut self, name: &str, value: &str) -> std::result::Result<bool, String> {
                match self {
                    $(FcSolver::$v3(o) => o.set_by_name(name, value),)*
                    $(FcSolver::$v2(o) => o.set_by_name(name, value),)*
                }
            }

            /// Checks the options' ranges.
            pub fn validate(&self) -> Result<()> {
                match self {
                    $(FcSolver::$v3(o) => o.validate(),)*
                    $(FcSolver::$v2(o) => o.validate(),)*
                }
            }

            fn dispatch(&self, ws: &mut FcWorkspace, p: &FrictionContact, r: &mut [f64], u: &mut [f64]) -> Result<SolveReport> {
                match self {
                    $(FcSolver::$v3($x3) => {
                        let ($ws3, $p3, $r3, $u3) = (ws, p, r, u);
                        $solve3
                    })*
                    $(FcSolver::$v2($x2) => {
                        let ($ws2, $p2, $r2, $u2) = (ws, p, r, u);
                        $solve2
                    })*
                }
            }
        }
    };
}

fc_solvers! {
    dim3 {
        NsgsAc(NsgsOptions) = "nsgs-ac", "NsgsAc", None, "3D nonsmooth Gauss-Seidel, Alart-Curnier Newton per contact",
            |ws, p, r, u, o| {
                let rep = nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::AlartCurnier)?;
                fallback::after_nsgs(p, r, u, o, rep)
            };
        NsgsFb(NsgsOptions) = "nsgs-fb", "NsgsFb", None, "3D nonsmooth Gauss-Seidel, Fischer-Burmeister Newton per contact",
            |ws, p, r, u, o| nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::FischerBurmeister);
        NsgsProj(NsgsOptions) = "nsgs-proj", "NsgsProj", None, "3D nonsmooth Gauss-Seidel, projection on the cone per contact",
            |ws, p, r, u, o| nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::Projection);
        Prox(ProxOptions) = "prox", "Prox", Some(3), "3D proximal point around the Alart-Curnier semismooth Newton",
            |_ws, p, r, u, o| prox::solve(p, r, u, o);
        NewtonAc(NewtonOptions) = "newton-ac", "NewtonAc", Some(3), "3D global semismooth Newton on the Alart-Curnier function, line search",
            |_ws, p, r, u, o| newton::solve(p, r, u, o);
        ViFp(ViOptions) = "vi-fp", "ViFp", None, "fixed-point projection (VI) with self-adaptive step",
            |_ws, p, r, u, o| vi::solve(p, r, u, o, false);
        ViEg(ViOptions) = "vi-eg", "ViEg", None, "extragradient (VI) with self-adaptive step",
            |_ws, p, r, u, o| vi::solve(p, r, u, o, true);
        Admm(AdmmOptions) = "admm", "Admm", Some(3), "ADMM: Cholesky of W + rho I, cone projection, adaptive rho, restarted acceleration",
            |_ws, p, r, u, o| admm::solve(p, r, u, o);
        Tfp(tfp::TfpOptions) = "tfp", "Tfp", Some(3), "Tresca fixed point: Tresca problems (cylinder) by Gauss-Seidel, slip bounds mu r_N updated",
            |_ws, p, r, u, o| tfp::solve(p, r, u, o);
    }
    dim2 {
        Nsgs2d(NsgsOptions) = "nsgs", "Nsgs2d", Some(2), "2D nonsmooth Gauss-Seidel with the exact one-contact solution",
            |ws, p, r, u, o| nsgs::solve_with(&mut ws.nsgs, p, r, u, o, LocalSolver::AlartCurnier);
        Lemke2d(LemkeOptions) = "lemke", "Lemke2d", Some(2), "2D lexicographic Lemke on the LCP reformulation (exact pivoting)",
            |_ws, p, r, u, o| lemke2d::solve(p, r, u, o);
    }
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
        self.decl().name
    }
    /// The global tolerance of the options.
    pub fn tol(&self) -> f64 {
        self.opts().iter().tol
    }
    /// Tolerance and iteration cap.
    pub fn iter(&self) -> &IterOptions {
        self.opts().iter()
    }
    /// Tolerance and iteration cap, to change them.
    pub fn iter_mut(&mut self) -> &mut IterOptions {
        self.opts_mut().iter_mut()
    }
    /// The warm-start switch (`None` for a solver that always starts from scratch).
    pub fn warm_start_mut(&mut self) -> Option<&mut bool> {
        self.opts_mut().warm_start_mut()
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
    if let Some(dim) = solver.decl().dim {
        if p.dim() != dim {
            return Err(NumericsError::Unsupported {
                solver: solver.name(),
                what: format!("dimension {} ({dim}D solver)", p.dim()),
            });
        }
    }
    if p.is_trivial() {
        r.iter_mut().for_each(|x| *x = 0.0);
        u.copy_from_slice(p.q());
        return Ok(SolveReport::trivial(0.0));
    }
    if r.iter().any(|x| !x.is_finite()) {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    solver.dispatch(ws, p, r, u)
}
