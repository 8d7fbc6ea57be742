//! Nonlinear complementarity problems and variational inequalities with user functions
//! (Siconos `NonlinearComplementarityProblem`, `MixedComplementarityProblem`,
//! `VariationalInequality`).
//!
//! * [`Ncp`]: find `z ∈ ℝⁿ` with `0 ≤ z ⊥ F(z) ≥ 0`.
//! * [`Mcp`] (Siconos's form): `z = (z_e, z_c)` with `n1` equations `F_e(z) = 0` (`z_e`
//!   free) and `n2` complementarity rows `0 ≤ z_c ⊥ F_c(z) ≥ 0`.
//! * [`BoxVi`]: find `x ∈ K = [l, u]` (bounds may be infinite) with `⟨F(x), y − x⟩ ≥ 0` for all
//!   `y ∈ K`; equivalently the box MCP `l ≤ x ≤ u ⊥ F(x)`: `x_i = l_i ⇒ F_i ≥ 0`,
//!   `x_i = u_i ⇒ F_i ≤ 0`, `l_i < x_i < u_i ⇒ F_i = 0`, i.e. `x = P_K(x − F(x))`.
//!   The NCP is the box `[0, ∞)ⁿ`, the MCP `ℝ^{n1} × [0, ∞)^{n2}`.
//! * [`Vi`]: the same on a closed convex set `K` given by its projection `P_K` ([`ConvexSet`]:
//!   a box, a ball, or a user projection).
//!
//! `F` and its Jacobian `∇F` (row `i` = `∇F_i`) are user functions ([`CpFunction`]); a failing
//! user function, or one returning NaN/inf, is a [`NumericsError::UserFunction`] naming the
//! iteration. Without a Jacobian, forward differences are used.
//!
//! Solvers ([`CpSolver`]): the semismooth Newton method on the (box) Fischer–Burmeister
//! function with an Armijo line search on its merit function (Siconos `NCP_NEWTON_FB_FBLSA`,
//! `MCP_NEWTON_FB_FBLSA`, `VI_BOX_QI`), the Newton method on the natural (min) map with the
//! same merit line search (`*_NEWTON_MIN_FBLSA`), and the projection methods for any convex
//! `K`: extragradient (`VI_EG`) and fixed-point projection (`VI_FPP`), both with Siconos's
//! self-adaptive step. See `docs/numerics-cp.md` for the equations.
//!
//! Error measures (Siconos's, reported as `SolveReport::residual` and used as the stopping test):
//! NCP `‖min(z, F(z))‖` (`ncp_compute_error`); MCP `‖F_e(z)‖ + ‖min(z_c, F_c(z))‖`
//! (`mcp_compute_error`); box VI `‖x − P_K(x − F(x))‖` (`variationalInequality_compute_error_box`);
//! general VI `‖x − P_K(x − F(x))‖ / ‖F(0)‖` (`variationalInequality_computeError`, the division
//! only when `‖F(0)‖ > ε`).

mod eval;
mod merit;
mod newton;
pub mod problems;
mod projection;
mod sets;

pub use merit::{fb, fb_box, natural_box, qi_box};
pub use sets::{ConvexSet, Projection};

use crate::error::{check_finite, check_len, NumericsError, Result};
pub use crate::ode::UserFnError;
use crate::report::{IterOptions, SolveReport};
use eval::Eval;
use nalgebra::DMatrix;
use std::time::Instant;

/// The user function `F` of a complementarity problem or VI, and optionally its Jacobian.
pub trait CpFunction {
    /// Writes `F(z)` into `f` (both of the problem's size).
    fn value(&mut self, z: &[f64], f: &mut [f64]) -> std::result::Result<(), UserFnError>;
    /// Writes `∇F(z)` into `jac` (`jac[(i, j)] = ∂F_i/∂z_j`). The default returns
    /// [`UserFnError::NotProvided`]: the solvers then use forward differences of `F`.
    fn jacobian(&mut self, _z: &[f64], _jac: &mut DMatrix<f64>) -> std::result::Result<(), UserFnError> {
        Err(UserFnError::NotProvided)
    }
}

impl<F> CpFunction for F
where
    F: FnMut(&[f64], &mut [f64]) -> std::result::Result<(), UserFnError>,
{
    fn value(&mut self, z: &[f64], f: &mut [f64]) -> std::result::Result<(), UserFnError> {
        self(z, f)
    }
}

/// `F` and `∇F` given as two closures.
pub struct WithJacobian<F, J>(pub F, pub J);

impl<F, J> CpFunction for WithJacobian<F, J>
where
    F: FnMut(&[f64], &mut [f64]) -> std::result::Result<(), UserFnError>,
    J: FnMut(&[f64], &mut DMatrix<f64>) -> std::result::Result<(), UserFnError>,
{
    fn value(&mut self, z: &[f64], f: &mut [f64]) -> std::result::Result<(), UserFnError> {
        (self.0)(z, f)
    }
    fn jacobian(&mut self, z: &[f64], jac: &mut DMatrix<f64>) -> std::result::Result<(), UserFnError> {
        (self.1)(z, jac)
    }
}

/// The NCP `0 ≤ z ⊥ F(z) ≥ 0` of size `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ncp {
    n: usize,
}

impl Ncp {
    /// An NCP of size `n ≥ 1`.
    pub fn new(n: usize) -> Result<Self> {
        if n == 0 {
            return Err(NumericsError::InvalidOption {
                option: "n",
                reason: "the NCP needs at least one unknown".into(),
            });
        }
        Ok(Ncp { n })
    }
    /// The size `n`.
    pub fn size(&self) -> usize {
        self.n
    }
}

/// Siconos's MCP: `F_i(z) = 0` for `i < n1` (`z_i` free), `0 ≤ z_i ⊥ F_i(z) ≥ 0` for the `n2`
/// rows after them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mcp {
    n1: usize,
    n2: usize,
}

impl Mcp {
    /// An MCP with `n1` equations and `n2` complementarity rows (`n1 + n2 ≥ 1`).
    pub fn new(n1: usize, n2: usize) -> Result<Self> {
        if n1 + n2 == 0 {
            return Err(NumericsError::InvalidOption { option: "n1 + n2", reason: "the MCP has no unknown".into() });
        }
        Ok(Mcp { n1, n2 })
    }
    /// Number of equations.
    pub fn n1(&self) -> usize {
        self.n1
    }
    /// Number of complementarity rows.
    pub fn n2(&self) -> usize {
        self.n2
    }
    /// `n1 + n2`.
    pub fn size(&self) -> usize {
        self.n1 + self.n2
    }
}

/// The VI on the box `K = [l, u]` (infinite bounds allowed), the box MCP `l ≤ x ≤ u ⊥ F(x)`.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxVi {
    lb: Vec<f64>,
    ub: Vec<f64>,
}

impl BoxVi {
    /// Checks sizes, no NaN, `lb_i < ∞`, `ub_i > −∞` and `lb ≤ ub`.
    pub fn new(lb: Vec<f64>, ub: Vec<f64>) -> Result<Self> {
        check_len("ub", lb.len(), ub.len())?;
        if lb.is_empty() {
            return Err(NumericsError::InvalidOption { option: "lb", reason: "the box has no dimension".into() });
        }
        for i in 0..lb.len() {
            if lb[i].is_nan() || lb[i] == f64::INFINITY {
                return Err(NumericsError::NonFinite { what: "lb", index: i });
            }
            if ub[i].is_nan() || ub[i] == f64::NEG_INFINITY {
                return Err(NumericsError::NonFinite { what: "ub", index: i });
            }
            if lb[i] > ub[i] {
                return Err(NumericsError::InvalidOption {
                    option: "lb/ub",
                    reason: format!("lb[{i}] = {} > ub[{i}] = {}", lb[i], ub[i]),
                });
            }
        }
        Ok(BoxVi { lb, ub })
    }
    /// Lower bounds.
    pub fn lb(&self) -> &[f64] {
        &self.lb
    }
    /// Upper bounds.
    pub fn ub(&self) -> &[f64] {
        &self.ub
    }
    /// The dimension.
    pub fn size(&self) -> usize {
        self.lb.len()
    }
}

/// The VI on a closed convex set `K` given by its projection.
#[derive(Debug)]
pub struct Vi {
    /// The set `K`.
    pub set: ConvexSet,
}

impl Vi {
    /// The VI on `set`.
    pub fn new(set: ConvexSet) -> Self {
        Vi { set }
    }
    /// The dimension.
    pub fn size(&self) -> usize {
        self.set.size()
    }
}

/// The reformulation `Φ(z) = 0` of the box MCP whose merit `½‖Φ‖²` the line search decreases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BoxFunction {
    /// The nested Fischer–Burmeister function of Billups ([`fb_box`]); on `[0, ∞)` rows it is
    /// the plain Fischer–Burmeister function of the NCP solvers.
    #[default]
    FischerBurmeister,
    /// Qi's box function ([`qi_box`]), Siconos's `VI_BOX_QI`.
    Qi,
}

/// Options of the semismooth Newton methods (defaults: Siconos's `*_FBLSA` tolerance 1e-10 and
/// cap 1000; Armijo `σ = 1e-4`, step halved, down to `1e-16`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct NewtonOptions {
    /// Tolerance on the problem's error measure and iteration cap.
    pub iter: IterOptions,
    /// The box reformulation and merit.
    pub function: BoxFunction,
    /// Projected ("arc") search: the trial points are `P_[l,u](z + t d)`, so the iterates stay
    /// in the box (Siconos forces it for `VI_BOX_QI`). Off: `z + t d`.
    pub arc_search: bool,
    /// Armijo constant: accept `t` when `Ψ(z + t d) ≤ Ψ(z) + σ t ∇Ψᵀd`.
    pub sigma: f64,
    /// The first step `t₀` of the line search (then `t₀β`, `t₀β²`, …).
    pub first_step: f64,
    /// `Some(κ)`: take the full Newton step without a line search when `Ψ(z + d) ≤ κ Ψ(z)`
    /// (Siconos's `newton_LSA`, κ = 0.9).
    pub newton_acceptance: Option<f64>,
    /// When no step passes the line search, take the last (smallest) one and go on, as Siconos's
    /// `newton_LSA` does, instead of stopping with `Failed(LineSearch)`.
    pub continue_after_search_failure: bool,
    /// Step reduction factor of the line search, in (0, 1).
    pub beta: f64,
    /// Smallest step before the line search fails.
    pub min_step: f64,
    /// The Newton direction is replaced by `−∇Ψ` unless `∇Ψᵀd ≤ −ρ ‖d‖^p` (ρ).
    pub descent_rho: f64,
    /// The exponent `p > 2` of that test.
    pub descent_p: f64,
}

impl Default for NewtonOptions {
    fn default() -> Self {
        NewtonOptions {
            iter: IterOptions::new(1e-10, 1000),
            function: BoxFunction::FischerBurmeister,
            arc_search: false,
            sigma: 1e-4,
            first_step: 1.0,
            newton_acceptance: None,
            continue_after_search_failure: false,
            beta: 0.5,
            min_step: 1e-16,
            descent_rho: 1e-8,
            descent_p: 2.1,
        }
    }
}

impl NewtonOptions {
    /// Defaults with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        NewtonOptions { iter, ..Default::default() }
    }
    /// Qi's box function with the projected search (iterates stay in the box).
    pub fn box_qi(iter: IterOptions) -> Self {
        NewtonOptions { iter, function: BoxFunction::Qi, arc_search: true, ..Default::default() }
    }
    /// Siconos 4.4's `VI_BOX_QI` iteration (`newton_LSA`): Qi's box function; the full Newton
    /// step when it decreases the merit to 0.9 of its value or less; else (after the descent
    /// test) an unprojected Armijo search from `t = 2`, whose smallest step is taken when none
    /// passes. With `σ = 10⁻⁴` these rules reproduce Siconos 4.4's iterates bit for bit on the
    /// steps of `ZhuravlevIvanovVI.py` we checked (see `docs/numerics-cp.md`).
    pub fn siconos_box_qi(iter: IterOptions) -> Self {
        NewtonOptions {
            iter,
            function: BoxFunction::Qi,
            arc_search: false,
            first_step: 2.0,
            newton_acceptance: Some(0.9),
            continue_after_search_failure: true,
            ..Default::default()
        }
    }
    fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        let bad = |option: &'static str, v: f64| NumericsError::InvalidOption {
            option,
            reason: format!("out of range: {v}"),
        };
        if !(self.sigma > 0.0 && self.sigma < 1.0) {
            return Err(bad("sigma", self.sigma));
        }
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(bad("beta", self.beta));
        }
        if !(self.min_step > 0.0 && self.min_step < 1.0) {
            return Err(bad("min_step", self.min_step));
        }
        if !(self.first_step > 0.0 && self.first_step.is_finite()) {
            return Err(bad("first_step", self.first_step));
        }
        if let Some(k) = self.newton_acceptance {
            if !(k > 0.0 && k < 1.0) {
                return Err(bad("newton_acceptance", k));
            }
        }
        if !(self.descent_rho >= 0.0 && self.descent_p > 2.0) {
            return Err(bad("descent_rho/descent_p", self.descent_rho));
        }
        Ok(())
    }
}

/// Options of the projection methods (defaults: Siconos's `VI_EG`/`VI_FPP`: tolerance 1e-3,
/// 20 000 iterations, self-adaptive `ρ` from 1 with `τ = 2/3`, `1/τ = 1.5`, `L = 0.9`,
/// `L_min = 0.3`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct ProjectionOptions {
    /// Tolerance on the problem's error measure and iteration cap.
    pub iter: IterOptions,
    /// Initial step `ρ > 0`.
    pub rho: f64,
    /// Adapt `ρ` (`false`: fixed `ρ`, the plain method).
    pub adaptive: bool,
    /// `ρ ← τ ρ` while `ρ ‖F(x̄) − F(x)‖ > L ‖x̄ − x‖`.
    pub tau: f64,
    /// `ρ ← τ_inv ρ` after a step whose ratio `ρ ‖F(x̄) − F(x)‖ / ‖x̄ − x‖` is below `L_min`.
    pub tau_inv: f64,
    /// The acceptance ratio `L < 1`.
    pub l: f64,
    /// The ratio under which `ρ` grows.
    pub l_min: f64,
    /// Most step reductions per iteration.
    pub max_reductions: usize,
}

impl Default for ProjectionOptions {
    fn default() -> Self {
        ProjectionOptions {
            iter: IterOptions::new(1e-3, 20_000),
            rho: 1.0,
            adaptive: true,
            tau: 2.0 / 3.0,
            tau_inv: 1.5,
            l: 0.9,
            l_min: 0.3,
            max_reductions: 100,
        }
    }
}

impl ProjectionOptions {
    /// Defaults with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        ProjectionOptions { iter, ..Default::default() }
    }
    fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        let bad = |option: &'static str, v: f64| NumericsError::InvalidOption {
            option,
            reason: format!("out of range: {v}"),
        };
        if !(self.rho > 0.0 && self.rho.is_finite()) {
            return Err(bad("rho", self.rho));
        }
        if !(self.tau > 0.0 && self.tau < 1.0) {
            return Err(bad("tau", self.tau));
        }
        if !(self.tau_inv >= 1.0 && self.tau_inv.is_finite()) {
            return Err(bad("tau_inv", self.tau_inv));
        }
        if !(self.l > 0.0 && self.l < 1.0 && self.l_min >= 0.0 && self.l_min <= self.l) {
            return Err(bad("l/l_min", self.l));
        }
        Ok(())
    }
}

/// The solvers of complementarity problems and VIs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CpSolver {
    /// Semismooth Newton on the (box) Fischer–Burmeister function `Φ`, Armijo line search on
    /// `Ψ = ½‖Φ‖²` (Siconos `NCP_NEWTON_FB_FBLSA`, `MCP_NEWTON_FB_FBLSA`; with
    /// [`NewtonOptions::box_qi`], Qi's function and the projected search: `VI_BOX_QI`).
    NewtonFb(NewtonOptions),
    /// Newton direction of the natural map `z − P_K(z − F(z))`, the same line search on the
    /// Fischer–Burmeister merit (Siconos `*_NEWTON_MIN_FBLSA`).
    NewtonMin(NewtonOptions),
    /// Extragradient (Korpelevich) with the self-adaptive step (Siconos `VI_EG`).
    ExtraGradient(ProjectionOptions),
    /// Fixed-point projection `x ← P_K(x − ρ F(x))` with the self-adaptive step (`VI_FPP`).
    FixedPointProjection(ProjectionOptions),
}

impl CpSolver {
    /// Tolerance and cap.
    pub fn iter_options(&self) -> IterOptions {
        match self {
            CpSolver::NewtonFb(o) | CpSolver::NewtonMin(o) => o.iter,
            CpSolver::ExtraGradient(o) | CpSolver::FixedPointProjection(o) => o.iter,
        }
    }
    fn validate(&self) -> Result<()> {
        match self {
            CpSolver::NewtonFb(o) | CpSolver::NewtonMin(o) => o.validate(),
            CpSolver::ExtraGradient(o) | CpSolver::FixedPointProjection(o) => o.validate(),
        }
    }
}

/// The solver catalogue: (name, description).
pub const SOLVERS: &[(&str, &str)] = &[
    (
        "newton-fb",
        "semismooth Newton on the Fischer-Burmeister function, Armijo line search (NEWTON_FB_FBLSA, VI_BOX_QI)",
    ),
    ("newton-min", "Newton on the natural (min) map, line search on the FB merit (NEWTON_MIN_FBLSA)"),
    ("newton-qi", "semismooth Newton on Qi's box function, projected line search"),
    ("siconos-box-qi", "Siconos 4.4's VI_BOX_QI iteration: Qi's box function, its newton_LSA step rules"),
    ("extragradient", "extragradient with self-adaptive step, any convex set (VI_EG)"),
    ("fixed-point", "fixed-point projection with self-adaptive step, any convex set (VI_FPP)"),
];

/// The solver called `name` with its defaults and `it` as tolerance/cap.
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<CpSolver> {
    match name {
        "newton-fb" => Some(CpSolver::NewtonFb(NewtonOptions::with_iter(it))),
        "newton-min" => Some(CpSolver::NewtonMin(NewtonOptions::with_iter(it))),
        "newton-qi" => Some(CpSolver::NewtonFb(NewtonOptions::box_qi(it))),
        "siconos-box-qi" => Some(CpSolver::NewtonFb(NewtonOptions::siconos_box_qi(it))),
        "extragradient" => Some(CpSolver::ExtraGradient(ProjectionOptions::with_iter(it))),
        "fixed-point" => Some(CpSolver::FixedPointProjection(ProjectionOptions::with_iter(it))),
        _ => None,
    }
}

/// Which error measure (Siconos's, per problem type).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Measure {
    Ncp,
    Mcp { n1: usize },
    BoxVi,
    Vi,
}

/// The common form every problem is solved in: `x ∈ K ⊥ F(x)` with `K` a box or a set given by
/// its projection.
struct Setting<'a> {
    set: SetRef<'a>,
    measure: Measure,
}

enum SetRef<'a> {
    Bounds { lb: std::borrow::Cow<'a, [f64]>, ub: std::borrow::Cow<'a, [f64]> },
    General(&'a mut ConvexSet),
}

/// Solves the NCP. `z` holds the starting point and receives the solution, `w` receives
/// `F(z)`; the report's residual is `‖min(z, F(z))‖`.
pub fn solve_ncp(
    p: &Ncp,
    f: &mut dyn CpFunction,
    z: &mut [f64],
    w: &mut [f64],
    solver: &CpSolver,
) -> Result<SolveReport> {
    let n = p.size();
    let lb = vec![0.0; n];
    let ub = vec![f64::INFINITY; n];
    let set = SetRef::Bounds { lb: lb.into(), ub: ub.into() };
    run(Setting { set, measure: Measure::Ncp }, n, f, z, w, solver)
}

/// Solves Siconos's MCP (`n1` equations first). `z` start and solution, `w = F(z)`; residual
/// `‖F_e(z)‖ + ‖min(z_c, F_c(z))‖`.
pub fn solve_mcp(
    p: &Mcp,
    f: &mut dyn CpFunction,
    z: &mut [f64],
    w: &mut [f64],
    solver: &CpSolver,
) -> Result<SolveReport> {
    let n = p.size();
    let lb: Vec<f64> = (0..n).map(|i| if i < p.n1 { f64::NEG_INFINITY } else { 0.0 }).collect();
    let ub = vec![f64::INFINITY; n];
    let set = SetRef::Bounds { lb: lb.into(), ub: ub.into() };
    run(Setting { set, measure: Measure::Mcp { n1: p.n1 } }, n, f, z, w, solver)
}

/// Solves the box VI (box MCP). `x` start and solution, `w = F(x)`; residual
/// `‖x − P_K(x − F(x))‖`.
pub fn solve_box_vi(
    p: &BoxVi,
    f: &mut dyn CpFunction,
    x: &mut [f64],
    w: &mut [f64],
    solver: &CpSolver,
) -> Result<SolveReport> {
    let set = SetRef::Bounds { lb: (&p.lb[..]).into(), ub: (&p.ub[..]).into() };
    run(Setting { set, measure: Measure::BoxVi }, p.size(), f, x, w, solver)
}

/// Solves the VI on a convex set. A box set is solved as [`solve_box_vi`] (every solver; the box
/// error measure); another set only by the projection methods (the Newton methods need a box:
/// `Unsupported`). Residual `‖x − P_K(x − F(x))‖ / ‖F(0)‖` (division when `‖F(0)‖ > ε`).
pub fn solve_vi(
    p: &mut Vi,
    f: &mut dyn CpFunction,
    x: &mut [f64],
    w: &mut [f64],
    solver: &CpSolver,
) -> Result<SolveReport> {
    let n = p.size();
    if let ConvexSet::Box { lb, ub } = &p.set {
        let b = BoxVi::new(lb.clone(), ub.clone())?;
        return solve_box_vi(&b, f, x, w, solver);
    }
    if matches!(solver, CpSolver::NewtonFb(_) | CpSolver::NewtonMin(_)) {
        return Err(NumericsError::Unsupported {
            solver: "newton-fb/newton-min",
            what: "a convex set other than a box (use extragradient or fixed-point)".into(),
        });
    }
    run(Setting { set: SetRef::General(&mut p.set), measure: Measure::Vi }, n, f, x, w, solver)
}

fn run(
    mut s: Setting<'_>,
    n: usize,
    f: &mut dyn CpFunction,
    z: &mut [f64],
    w: &mut [f64],
    solver: &CpSolver,
) -> Result<SolveReport> {
    let start = Instant::now();
    solver.validate()?;
    check_len("z", n, z.len())?;
    check_len("w", n, w.len())?;
    check_finite("z (starting point)", z)?;
    if let SetRef::General(set) = &s.set {
        check_len("convex set", n, set.size())?;
    }
    let mut ev = Eval::new(f, n);
    let it = solver.iter_options();
    let (iterations, failure) = match solver {
        CpSolver::NewtonFb(o) | CpSolver::NewtonMin(o) => {
            let SetRef::Bounds { lb, ub } = &s.set else {
                unreachable!("solve_vi sends non-box sets to the projection methods only")
            };
            let min_dir = matches!(solver, CpSolver::NewtonMin(_));
            newton::solve(&mut ev, lb, ub, s.measure, z, o, min_dir)?
        }
        CpSolver::ExtraGradient(o) => projection::solve(&mut ev, &mut s, z, o, true)?,
        CpSolver::FixedPointProjection(o) => projection::solve(&mut ev, &mut s, z, o, false)?,
    };
    let fin = ev.iteration();
    ev.value(z, w, fin)?;
    let residual = error(&mut s, &mut ev, z, w, fin)?;
    let status = crate::lcp::status_of(residual, failure, iterations, it);
    Ok(SolveReport { status, iterations, residual, elapsed: start.elapsed() })
}

/// The problem's error measure at `z` with `fz = F(z)` (see the module docs).
fn error(s: &mut Setting<'_>, ev: &mut Eval<'_>, z: &[f64], fz: &[f64], iteration: usize) -> Result<f64> {
    let sq = |v: f64| v * v;
    Ok(match (&mut s.set, s.measure) {
        (_, Measure::Ncp) => z.iter().zip(fz).map(|(&a, &b)| sq(a.min(b))).sum::<f64>().sqrt(),
        (_, Measure::Mcp { n1 }) => {
            let eq = fz[..n1].iter().map(|&v| v * v).sum::<f64>().sqrt();
            let c = z[n1..].iter().zip(&fz[n1..]).map(|(&a, &b)| sq(a.min(b))).sum::<f64>().sqrt();
            eq + c
        }
        (SetRef::Bounds { lb, ub }, _) => {
            (0..z.len()).map(|i| sq(z[i] - (z[i] - fz[i]).max(lb[i]).min(ub[i]))).sum::<f64>().sqrt()
        }
        (SetRef::General(set), _) => {
            let norm0 = ev.norm_f0(iteration)?;
            let y: Vec<f64> = z.iter().zip(fz).map(|(a, b)| a - b).collect();
            let mut p = vec![0.0; z.len()];
            set.project(&y, &mut p).map_err(|e| eval::user_err("projection", iteration, e))?;
            check_user_finite("projection", iteration, &p)?;
            let e = z.iter().zip(&p).map(|(a, b)| sq(a - b)).sum::<f64>().sqrt();
            if norm0 > f64::EPSILON {
                e / norm0
            } else {
                e
            }
        }
    })
}

fn check_user_finite(what: &'static str, iteration: usize, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(i) => Err(NumericsError::UserFunction {
            what,
            iteration,
            message: format!("returned a non-finite value ({}) at index {i}", v[i]),
        }),
        None => Ok(()),
    }
}
