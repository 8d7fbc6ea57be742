//! Typed options of the friction-contact solvers.

use crate::error::{NumericsError, Result};
use crate::report::IterOptions;

fn bad(option: &'static str, reason: String) -> NumericsError {
    NumericsError::InvalidOption { option, reason }
}

/// Options of the nonsmooth Gauss–Seidel sweep over contacts.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct NsgsOptions {
    /// Global tolerance on the normalized error and maximum number of sweeps.
    pub iter: IterOptions,
    /// Use `r` as given on entry (else start from 0).
    pub warm_start: bool,
    /// Over-relaxation `ω ∈ (0, 2)`: `r_α ← ω r_α^{local} + (1 − ω) r_α` (1 = none).
    pub relaxation: f64,
    /// Visit contacts in a random order drawn from this seed each sweep (deterministic PRNG).
    pub shuffle_seed: Option<u64>,
    /// Tolerance of the one-contact solver (on its own residual, relative).
    pub local_tol: f64,
    /// Iteration cap of the one-contact solver.
    pub local_max_iter: usize,
    /// Symmetric Gauss–Seidel: every second sweep visits the contacts in reverse order.
    pub symmetric: bool,
    /// Anderson acceleration of the sweep map with this memory (0 = plain NSGS); see
    /// `super::anderson`.
    pub anderson: usize,
    /// Visit the contacts colour by colour (greedy colouring of the contact graph: contacts of a
    /// colour share no body). With the `parallel` feature each colour's local problems are solved
    /// on rayon; the result is bitwise the same for any number of threads (and equals a
    /// sequential sweep in that colour order). Not combinable with `shuffle_seed`.
    pub colouring: bool,
    /// Stop a stagnating solve early, reported as not converged ([`FailReason::Stalled`]), when
    /// the full error has not dropped below `0.9 ×` its best value of this many sweeps ago
    /// (0 = off: sweep to the cap). The tolerance is unchanged; only the sweep budget of a solve
    /// that is not converging shrinks.
    ///
    /// [`FailReason::Stalled`]: crate::report::FailReason::Stalled
    pub stagnation_sweeps: usize,
    /// NSGS on subdomains for `domains` workers (0 or 1 = off). `domains = 2`: the contacts
    /// are cut into four slabs of consecutive breadth-first levels of the contact graph; every
    /// sweep visits the even slabs (mutually uncoupled: `W_αβ = 0` between them), two at a time,
    /// then the odd slabs. `domains ≥ 3`: a recursive bisection of the contact graph into about
    /// `16 × domains` parts of equal work, coloured so that parts of one colour are uncoupled;
    /// a sweep visits the colours in order, each part once its lower-coloured neighbours are
    /// done, on up to [`NsgsOptions::threads`] threads. Either way the result is a Gauss–Seidel
    /// sweep in that order, with the same bits for any number of threads. Used for 3D problems
    /// whose `W` is stored in 3 × 3 blocks; otherwise (or when the contact graph is too small to
    /// split) the plain sweep runs. Not combinable with `shuffle_seed`, `colouring`,
    /// `symmetric` or `anderson`.
    pub domains: usize,
    /// Threads of the subdomain sweep: 0 = the rayon pool's size with the `parallel` feature (one
    /// thread without it); never more than `domains` nor than the machine's cores. Changes the
    /// speed only, never the result.
    pub threads: usize,
    /// Which worker sweeps which part of a subdomain sweep ([`NsgsOptions::domains`] ≥ 3).
    /// Changes the speed only, never the result.
    pub schedule: PartSchedule,
    /// What happens to a problem the sweeps leave unsolved (at the cap, or stalled with
    /// [`NsgsOptions::stagnation_sweeps`]): nothing (Siconos's NSGS), or PROX from the sweeps'
    /// iterate ([`NsgsFallback`]). 3D only; ignored in 2D.
    pub fallback: NsgsFallback,
}

/// How the workers of a subdomain sweep share its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PartSchedule {
    /// Each part goes to the next free worker, in sweep order (a shared counter): the load
    /// balances itself, but a part moves between cores (and caches) from one sweep to the next.
    #[default]
    Shared,
    /// Worker `t` of `W` sweeps the parts `t, t + W, t + 2W, …` of the sweep order, every sweep:
    /// each part's rows stay in one core's cache.
    Owned,
    /// A queue of the parts whose lower-coloured neighbours are done: a free worker takes the
    /// first ready part, so no worker waits while a ready part is left.
    Ready,
}

/// What NSGS does with a problem its sweeps have not solved ([`NsgsOptions::fallback`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum NsgsFallback {
    /// Return the sweeps' iterate, reported as not converged (what Siconos's NSGS does).
    #[default]
    None,
    /// Run PROX ([`super::prox`]) from the sweeps' iterate, to NSGS's tolerance, with these
    /// options' cap on proximal steps, σ, α, inner Newton steps and factorization (their own
    /// warm-ups, tolerance and warm start are ignored: PROX starts from the sweeps' `r`).
    /// The report counts the sweeps plus the proximal steps.
    Prox(ProxOptions),
    /// PROX on the patch of contacts that holds the residual, then sweeps again, round after
    /// round ([`PatchOptions`]); PROX on the whole problem if the rounds do not converge.
    Patch(PatchOptions),
}

/// Options of [`NsgsFallback::Patch`], the local correction of a stalled NSGS (`fc::patch`).
///
/// A round: the contacts whose natural-map terms `‖r_α − P_K(r_α − û_α)‖²` sum to the share
/// `share` of the squared residual (largest first), grown by `layers` layers of neighbours in
/// the contact graph (`W_αβ ≠ 0`), form a sub-problem `W_SS r_S + q̃_S` with
/// `q̃_S = q_S + Σ_{β∉S} W_Sβ r_β` (the other reactions frozen); PROX solves it from `r_S`, then
/// NSGS sweeps the whole problem (at most `sweeps`, stopping on stagnation).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PatchOptions {
    /// Share of the squared residual the seed contacts hold, in (0, 1].
    pub share: f64,
    /// Layers of neighbours added around the seed contacts.
    pub layers: usize,
    /// Rounds before PROX runs on the whole problem.
    pub rounds: usize,
    /// Cap on the NSGS sweeps after each patch solve.
    pub sweeps: usize,
    /// Options of PROX on the patches and, at the end, on the whole problem (its tolerance,
    /// warm start and warm-ups are set by the method).
    pub prox: ProxOptions,
}

impl Default for PatchOptions {
    fn default() -> Self {
        let mut prox = ProxOptions::default();
        prox.iter.max_iter = 1000;
        prox.inner_max_iter = 3;
        PatchOptions { share: 0.999, layers: 2, rounds: 10, sweeps: 100, prox }
    }
}

impl PatchOptions {
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        if !(self.share > 0.0 && self.share <= 1.0) {
            return Err(bad("share", format!("must be in (0, 1], got {}", self.share)));
        }
        self.prox.validate()
    }
}

impl Default for NsgsOptions {
    fn default() -> Self {
        NsgsOptions {
            iter: IterOptions::new(1e-8, 10_000),
            warm_start: false,
            relaxation: 1.0,
            shuffle_seed: None,
            local_tol: 1e-14,
            local_max_iter: 50,
            symmetric: false,
            anderson: 0,
            colouring: false,
            stagnation_sweeps: 0,
            domains: 0,
            threads: 0,
            schedule: PartSchedule::Shared,
            fallback: NsgsFallback::None,
        }
    }
}

impl NsgsOptions {
    /// Default options with the given tolerance and sweep cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        NsgsOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.relaxation > 0.0 && self.relaxation < 2.0) {
            return Err(bad("relaxation", format!("must be in (0, 2), got {}", self.relaxation)));
        }
        if !(self.local_tol > 0.0 && self.local_tol.is_finite()) || self.local_max_iter == 0 {
            return Err(bad("local_tol/local_max_iter", "local tolerance must be > 0 and the local cap > 0".into()));
        }
        if self.colouring && self.shuffle_seed.is_some() {
            return Err(bad("colouring", "a coloured sweep has its own order: unset shuffle_seed".into()));
        }
        if self.anderson > 64 {
            return Err(bad("anderson", format!("memory must be at most 64, got {}", self.anderson)));
        }
        if self.domains > 1 && (self.shuffle_seed.is_some() || self.colouring || self.symmetric || self.anderson > 0) {
            return Err(bad(
                "domains",
                "the subdomain sweep has its own order: unset shuffle_seed, colouring, symmetric and anderson".into(),
            ));
        }
        if self.domains > 1024 {
            return Err(bad("domains", format!("at most 1024 subdomains, got {}", self.domains)));
        }
        Ok(())
    }
}

/// How the Newton solvers ([`super::newton`], [`super::prox`]) factorize their Jacobian
/// `J = A + B (W + ν I)` at every step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JacobianFactorization {
    /// Sparse LU when `W` is stored in sparse blocks and either the problem has more than
    /// `sparse_threshold` unknowns, or it has at least 64 unknowns and the block density of `W`
    /// (stored 3×3 blocks over `n_contacts²`) is at most `sparse_max_density`; dense LU
    /// otherwise. Default 0.25: on the collection, BoxesStack1 (156 unknowns, density 0.22) and
    /// Confeti-ex03 (162, 0.14) factor faster sparse, the OneObject files (69–75, 0.28–0.33)
    /// dense (`numerics/benches/siconos/README.md`).
    #[default]
    Auto,
    /// Always the dense LU (a dense copy of `W`, `O(n³)` per step).
    Dense,
    /// Always the fixed-pattern sparse LU (faer, symbolic analysis reused across steps).
    Sparse,
}

/// Options of the global semismooth Newton method on the Alart–Curnier function.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct NewtonOptions {
    /// Tolerance on the normalized error and maximum number of Newton steps.
    pub iter: IterOptions,
    /// Use `r` as given on entry.
    pub warm_start: bool,
    /// Maximum number of backtracking halvings of the Armijo line search.
    pub max_line_search: usize,
    /// Dense or sparse LU of the Jacobian (see [`JacobianFactorization::Auto`]).
    pub factorization: JacobianFactorization,
    /// With `Auto`: above this many unknowns the Jacobian is factorized with faer's sparse LU.
    pub sparse_threshold: usize,
    /// With `Auto`: at most this block density of `W` also selects the sparse LU.
    pub sparse_max_density: f64,
}

impl Default for NewtonOptions {
    fn default() -> Self {
        NewtonOptions {
            iter: IterOptions::new(1e-8, 200),
            warm_start: false,
            max_line_search: 30,
            factorization: JacobianFactorization::Auto,
            sparse_threshold: 300,
            sparse_max_density: 0.25,
        }
    }
}

impl NewtonOptions {
    /// Default options with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        NewtonOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()
    }
}

/// Options of the proximal-point method around the semismooth Newton solver.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ProxOptions {
    /// Tolerance on the normalized error and maximum number of proximal (outer) steps.
    pub iter: IterOptions,
    /// Use `r` as given on entry.
    pub warm_start: bool,
    /// Proximal weight `ν_k = sigma · mean(diag W) · e_k^alpha` (e_k the current error).
    pub sigma: f64,
    /// Exponent of the error in the proximal weight.
    pub alpha: f64,
    /// Newton steps per proximal subproblem.
    pub inner_max_iter: usize,
    /// NSGS-AC sweeps run first (cheap on easy problems; a warm start for the proximal steps).
    /// 0 disables the warm-up.
    pub warmup_sweeps: usize,
    /// On problems above `admm_min_size` unknowns, up to this many ADMM iterations run first
    /// (returns at once if they converge — one sparse Cholesky of `W + ρ I` instead of a
    /// sparse LU per Newton step). They stop as soon as the error fails to drop tenfold over 10
    /// iterations, and their point is then discarded (a worse start for the Newton steps than
    /// the NSGS one on the Capsules files). 0 disables.
    pub admm_warmup: usize,
    /// Size (unknowns) from which the ADMM warm-up runs.
    pub admm_min_size: usize,
    /// Dense or sparse LU of the inner Newton Jacobians (see [`JacobianFactorization::Auto`]).
    pub factorization: JacobianFactorization,
    /// With `Auto`: above this many unknowns the inner Newton steps use the sparse LU.
    pub sparse_threshold: usize,
    /// With `Auto`: at most this block density of `W` also selects the sparse LU.
    pub sparse_max_density: f64,
}

impl Default for ProxOptions {
    fn default() -> Self {
        ProxOptions {
            iter: IterOptions::new(1e-8, 200),
            warm_start: false,
            sigma: 0.2,
            alpha: 1.0,
            inner_max_iter: 30,
            warmup_sweeps: 30,
            admm_warmup: 50,
            admm_min_size: 300,
            factorization: JacobianFactorization::Auto,
            sparse_threshold: 300,
            sparse_max_density: 0.25,
        }
    }
}

impl ProxOptions {
    /// Default options with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        ProxOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        let sigma_ok = self.sigma > 0.0 && self.sigma.is_finite();
        if !sigma_ok || !(self.alpha >= 0.0) || self.inner_max_iter == 0 {
            return Err(bad("sigma/alpha/inner_max_iter", "need sigma > 0, alpha >= 0, inner_max_iter > 0".into()));
        }
        Ok(())
    }
}

/// Options of the projection (variational-inequality) solvers.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ViOptions {
    /// Tolerance on the normalized error and maximum number of iterations.
    pub iter: IterOptions,
    /// Use `r` as given on entry.
    pub warm_start: bool,
    /// Initial step `ρ` (≤ 0: `1 / max diag W`).
    pub rho0: f64,
    /// Step acceptance: `ρ ‖F(r̄) − F(r)‖ ≤ l_max ‖r̄ − r‖`.
    pub l_max: f64,
    /// The step grows (×1/`tau`) when the ratio above falls below `l_min`.
    pub l_min: f64,
    /// Step reduction factor in `(0, 1)`.
    pub tau: f64,
}

impl Default for ViOptions {
    fn default() -> Self {
        ViOptions {
            iter: IterOptions::new(1e-8, 20_000),
            warm_start: false,
            rho0: -1.0,
            l_max: 0.9,
            l_min: 0.3,
            tau: 2.0 / 3.0,
        }
    }
}

impl ViOptions {
    /// Default options with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        ViOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.l_max > 0.0
            && self.l_max < 1.0
            && self.l_min >= 0.0
            && self.l_min < self.l_max
            && self.tau > 0.0
            && self.tau < 1.0)
        {
            return Err(bad("l_max/l_min/tau", "need 0 <= l_min < l_max < 1 and 0 < tau < 1".into()));
        }
        Ok(())
    }
}

/// Options of the 2D pivoting solver (lexicographic Lemke on the LCP reformulation).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LemkeOptions {
    /// Tolerance on the normalized error of the result; `max_iter` caps the pivots.
    pub iter: IterOptions,
    /// Largest number of contacts accepted (the tableau is dense, 4·nc × 8·nc).
    pub max_contacts: usize,
    /// NSGS sweeps (exact 2D local solve, warm-started) used to refine a pivoting answer whose
    /// normalized error exceeds tol because of roundoff.
    pub refine_sweeps: usize,
}

impl Default for LemkeOptions {
    fn default() -> Self {
        LemkeOptions { iter: IterOptions::new(1e-8, 100_000), max_contacts: 800, refine_sweeps: 100 }
    }
}

impl LemkeOptions {
    /// Default options with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        LemkeOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()
    }
}

/// Options of the ADMM solver ([`super::admm`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AdmmOptions {
    /// Tolerance on the normalized error and maximum number of iterations.
    pub iter: IterOptions,
    /// Use `r` as given on entry (projected on the cone).
    pub warm_start: bool,
    /// Initial penalty `ρ` (≤ 0: the mean of `|diag W|`).
    pub rho0: f64,
    /// Adapt `ρ` by residual balancing.
    pub adaptive_rho: bool,
    /// Balancing threshold: `ρ` changes when one relative residual exceeds `balance` times the other.
    pub balance: f64,
    /// Factor by which `ρ` is multiplied or divided (> 1).
    pub rho_factor: f64,
    /// The balancing test runs every this many iterations (each change refactorizes `W + ρ I`).
    pub rho_every: usize,
    /// Nesterov extrapolation with restart (fast ADMM).
    pub acceleration: bool,
    /// Restart factor `η ∈ (0, 1]`: momentum continues while the combined residual drops below `η` times the last.
    pub restart: f64,
    /// Above this many unknowns a block-sparse `W` is factorized with a sparse Cholesky (below: dense).
    pub sparse_threshold: usize,
    /// Early exit (status `Failed(Stalled)`) when, over a window of this many iterations, the
    /// error did not drop by `stall_factor` (0 = never; PROX uses it for its ADMM warm-up).
    pub stall_window: usize,
    /// Decrease factor required over each `stall_window` (> 1).
    pub stall_factor: f64,
}

impl Default for AdmmOptions {
    fn default() -> Self {
        AdmmOptions {
            iter: IterOptions::new(1e-8, 20_000),
            warm_start: false,
            rho0: -1.0,
            adaptive_rho: true,
            balance: 10.0,
            rho_factor: 2.0,
            rho_every: 5,
            acceleration: true,
            restart: 0.999,
            sparse_threshold: 300,
            stall_window: 0,
            stall_factor: 10.0,
        }
    }
}

impl AdmmOptions {
    /// Default options with the given tolerance and cap.
    pub fn with_iter(iter: IterOptions) -> Self {
        AdmmOptions { iter, ..Default::default() }
    }
    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        self.iter.validate()?;
        if !(self.balance > 1.0
            && self.rho_factor > 1.0
            && self.rho_every > 0
            && self.restart > 0.0
            && self.restart <= 1.0
            && self.stall_factor > 1.0
            && self.rho0.is_finite())
        {
            return Err(bad(
                "balance/rho_factor/rho_every/restart/rho0",
                "need balance > 1, rho_factor > 1, rho_every > 0, 0 < restart <= 1, finite rho0".into(),
            ));
        }
        Ok(())
    }
}

/// What every friction solver's options have: the tolerance and cap, and, for the solvers that
/// can start from a given `r`, the warm start.
pub trait FcOptions {
    /// Tolerance and iteration cap.
    fn iter(&self) -> &IterOptions;
    /// Tolerance and iteration cap, to change them.
    fn iter_mut(&mut self) -> &mut IterOptions;
    /// The warm-start switch (`None`: the solver always starts from scratch, as pivoting does).
    fn warm_start_mut(&mut self) -> Option<&mut bool>;
}

/// `impl FcOptions` for an options struct with an `iter` field, and a `warm_start` field when
/// named.
macro_rules! fc_options {
    ($ty:ty $(, $ws:ident)?) => {
        impl $crate::fc::options::FcOptions for $ty {
            fn iter(&self) -> &$crate::report::IterOptions {
                &self.iter
            }
            fn iter_mut(&mut self) -> &mut $crate::report::IterOptions {
                &mut self.iter
            }
            fn warm_start_mut(&mut self) -> Option<&mut bool> {
                $crate::fc::options::fc_options!(@ws self $(, $ws)?)
            }
        }
    };
    (@ws $s:ident, $ws:ident) => {
        Some(&mut $s.$ws)
    };
    (@ws $s:ident) => {
        None
    };
}
pub(crate) use fc_options;

fc_options!(NsgsOptions, warm_start);
fc_options!(ProxOptions, warm_start);
fc_options!(NewtonOptions, warm_start);
fc_options!(ViOptions, warm_start);
fc_options!(AdmmOptions, warm_start);
fc_options!(LemkeOptions);

// The options a model file sets by name (`<NsgsAc tol=".." …/>`): declared once here.
crate::set_by_name!(NsgsOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "relaxation" => relaxation,
    "shuffle_seed" => shuffle_seed,
    "local_tol" => local_tol,
    "local_max_iter" => local_max_iter,
    "anderson" => anderson,
    "domains" => domains,
    "threads" => threads,
    "stagnation_sweeps" => stagnation_sweeps,
} extra ["fallback", "fallback_layers", "fallback_max_iter", "fallback_inner_max_iter"] => set_fallback);

crate::set_by_name!(ProxOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "sigma" => sigma,
    "alpha" => alpha,
    "inner_max_iter" => inner_max_iter,
    "warmup_sweeps" => warmup_sweeps,
    "admm_warmup" => admm_warmup,
    "admm_min_size" => admm_min_size,
});

crate::set_by_name!(NewtonOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "max_line_search" => max_line_search,
    "sparse_threshold" => sparse_threshold,
});

crate::set_by_name!(ViOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "rho0" => rho0,
    "l_max" => l_max,
    "l_min" => l_min,
    "tau" => tau,
});

crate::set_by_name!(LemkeOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "max_contacts" => max_contacts,
    "refine_sweeps" => refine_sweeps,
});

crate::set_by_name!(AdmmOptions {
    "tol" => iter.tol,
    "max_iter" => iter.max_iter,
    "warm_start" => warm_start,
    "rho0" => rho0,
    "adaptive_rho" => adaptive_rho,
    "acceleration" => acceleration,
    "sparse_threshold" => sparse_threshold,
});

/// NSGS's `fallback` (`none`, `prox` — PROX with [`PatchOptions`]' default caps, 1000 proximal
/// steps of 3 Newton steps — or `patch`) and the fallback's `fallback_layers` (patch),
/// `fallback_max_iter` and `fallback_inner_max_iter` (its PROX), which need the fallback set
/// first (a model file's attributes are applied in declaration order).
fn set_fallback(o: &mut NsgsOptions, name: &str, value: &str) -> std::result::Result<bool, String> {
    use crate::by_name::FromText;
    fn prox<'a>(f: &'a mut NsgsFallback, name: &str) -> std::result::Result<&'a mut ProxOptions, String> {
        match f {
            NsgsFallback::Prox(p) => Ok(p),
            NsgsFallback::Patch(p) => Ok(&mut p.prox),
            NsgsFallback::None => Err(format!("{name} needs fallback=\"prox\" or \"patch\"")),
        }
    }
    match name {
        "fallback" => {
            o.fallback = match value.trim() {
                "none" => NsgsFallback::None,
                "prox" => NsgsFallback::Prox(PatchOptions::default().prox),
                "patch" => NsgsFallback::Patch(PatchOptions::default()),
                v => return Err(format!("`{v}` is not none, prox or patch")),
            }
        }
        "fallback_layers" => match &mut o.fallback {
            NsgsFallback::Patch(p) => p.layers = usize::from_text(value)?,
            _ => return Err("fallback_layers needs fallback=\"patch\"".into()),
        },
        "fallback_max_iter" => prox(&mut o.fallback, name)?.iter.max_iter = usize::from_text(value)?,
        "fallback_inner_max_iter" => prox(&mut o.fallback, name)?.inner_max_iter = usize::from_text(value)?,
        _ => return Ok(false),
    }
    Ok(true)
}
