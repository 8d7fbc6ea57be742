//! One-step integrators (Siconos `OneStepIntegrator`): Moreau–Jean and semi-explicit Euler for
//! Lagrangian systems, Euler–Moreau for first-order systems.
//!
//! Both are θ-methods solved by a Newton loop whose iterate is the state held in the
//! [`crate::Nsds`]; each iteration computes a *free* state (the state the system would reach with
//! no nonsmooth input), the one-step problem gives the input, and the state is updated from the
//! free state and the input through the iteration matrix `W`.

pub(crate) mod bilbao;
pub(crate) mod euler_moreau;
pub(crate) mod moreau_jean;
pub mod rigid_body;
pub(crate) mod semi_explicit;
pub(crate) mod zoh;

pub use semi_explicit::VelocityUpdate;

use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::nsds::DsId;
use nalgebra::{DMatrix, DVector};
use saltus_numerics::mlcp::linalg::lu_factor;

/// The integrator used for every system of the simulation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Osi {
    /// Moreau–Jean (Siconos `MoreauJeanOSI`) for Lagrangian systems, velocity-level impact law:
    /// `W = M − hθ ∂F/∂v − h²θ² ∂F/∂q`, `v_free = v_i − W⁻¹ R_free(v_i)`,
    /// `v_{k+1} = v_free + W⁻¹ p_{k+1}`, `q_{k+1} = q_k + h((1−θ) v_k + θ v_{k+1})`.
    /// An interaction enters the one-step problem when `y_k + γ h ẏ_k ≤ 0` (first component).
    /// The energy balance of a step, and the two cases where the energy can increase for
    /// `e ≤ 1`, are in the documentation of the `moreau_jean` module (source).
    MoreauJean {
        /// θ ∈ [0, 1] (0.5: trapezoidal).
        theta: f64,
        /// Activation look-ahead γ ∈ [0, 1] (Siconos default 0.5).
        gamma: f64,
    },
    /// Global Moreau–Jean (Siconos `MoreauJeanGOSI`) for Lagrangian systems: the same θ-scheme
    /// and activation rule as [`Osi::MoreauJean`], but the one-step problem keeps the iteration
    /// matrices and the relations apart (a [`crate::Osnsp::GlobalFrictionContact`]):
    /// `W v_{k+1} = W v_free + Hᵀ λ`, `u = H v_{k+1} + e u_k`, `(u, λ)` in the friction law;
    /// `v_{k+1}` is the problem's global velocity and `q_{k+1} = q_k + h((1−θ) v_k + θ v_{k+1})`.
    MoreauJeanGosi {
        /// θ ∈ [0, 1].
        theta: f64,
        /// Activation look-ahead γ ∈ [0, 1] (Siconos default 0.5).
        gamma: f64,
    },
    /// Euler–Moreau (Siconos `EulerMoreauOSI`) for first-order systems:
    /// `M (x_{k+1} − x_k) = h θ f(t_{k+1}, x_{k+1}) + h (1−θ) f(t_k, x_k) + h r_{k+1}`,
    /// the input `r` fully implicit; every interaction is active. With `gamma = Some(γ)` (the
    /// θ-γ scheme, Siconos `EulerMoreauOSI(θ, γ)` with `setUseGammaForRelation(true)`), the
    /// relations are written at `x_{k+γ} = γ x_{k+1} + (1−γ) x_k`: `y = C x_{k+γ} + D λ + e`, so
    /// the one-step problem is `y = C(γ x_free + (1−γ) x_k) + e + (γ h C W⁻¹ B + D) λ`; linear
    /// systems and linear relations only (as in Siconos).
    EulerMoreau {
        /// θ ∈ [0, 1].
        theta: f64,
        /// γ ∈ [0, 1] of the θ-γ scheme (`None`: the relations at `x_{k+1}`, i.e. γ = 1).
        gamma: Option<f64>,
    },
    /// Semi-explicit (symplectic) Euler for Lagrangian systems, `q̇ = N(q) u`:
    /// `u_{k+1} = u_k + h M(q_k)⁻¹ F(t_k, q_k, u_k) + M(q_k)⁻¹ p_{k+1}` (or implicit in u,
    /// see [`VelocityUpdate`]), then `q_{k+1} = q_k + h N(q_k) u_{k+1}`. The impulse `p` comes
    /// from the same velocity-level one-step problem and activation rule as Moreau–Jean's
    /// (equations in the `semi_explicit` module documentation).
    SemiExplicitEuler {
        /// Activation look-ahead γ ∈ [0, 1] (`y_k + γ h ẏ_k ≤ 0`, default 0.5).
        gamma: f64,
        /// Explicit or implicit in u.
        update: VelocityUpdate,
    },
    /// Moreau–Jean–Bilbao (Siconos `MoreauJeanBilbaoOSI`) for diagonal linear Lagrangian
    /// systems (Siconos `LagrangianLinearDiagonalDS`: `M`, `C`, `K` diagonal): Bilbao's exact
    /// scheme for each mode, `W (v_{k+1} − v_k) = −h (K q_k − F) − 2h Σ* v_k + p`,
    /// `q_{k+1} = q_k + h v_{k+1}`, with `W = M + h²/2 (1 − Θ) K + h Σ*` and the per-mode `Θ`,
    /// `Σ*` that make a free damped oscillation exact at the step times (equations in the
    /// `bilbao` module documentation); impacts through the same velocity-level problem,
    /// activation rule of Moreau–Jean with `γ = ½`.
    MoreauJeanBilbao,
    /// Zero-order hold (Siconos `ZeroOrderHoldOSI`) for linear first-order systems with a
    /// constant `A` and an identity mass: the exact step `x_{k+1} = Φ x_k + Ψ (b + g)` with
    /// `Φ = exp(A h)`, `Ψ = ∫₀ʰ exp(A s) ds` and `b`, the control input `g` held over the step
    /// (`b(t)` at `t_{k+1}`); linear relations through `Ψ B λ_{k+1}` (equations in the `zoh` module
    /// documentation).
    ZeroOrderHold,
}

impl Osi {
    /// Moreau–Jean with the Siconos default `γ = 1/2`.
    pub fn moreau_jean(theta: f64) -> Self {
        Osi::MoreauJean { theta, gamma: 0.5 }
    }
    /// Global Moreau–Jean with the Siconos default `γ = 1/2`.
    pub fn moreau_jean_gosi(theta: f64) -> Self {
        Osi::MoreauJeanGosi { theta, gamma: 0.5 }
    }
    /// Euler–Moreau.
    pub fn euler_moreau(theta: f64) -> Self {
        Osi::EulerMoreau { theta, gamma: None }
    }
    /// The θ-γ Euler–Moreau scheme (relations at `x_{k+γ}`; see [`Osi::EulerMoreau`]).
    pub fn euler_moreau_theta_gamma(theta: f64, gamma: f64) -> Self {
        Osi::EulerMoreau { theta, gamma: Some(gamma) }
    }
    /// γ of the θ-γ Euler–Moreau scheme (`None` for the other integrators and plain Euler–Moreau).
    pub fn relation_gamma(&self) -> Option<f64> {
        match self {
            Osi::EulerMoreau { gamma, .. } => *gamma,
            _ => None,
        }
    }
    /// Semi-explicit Euler, explicit in u, with `γ = 1/2`.
    pub fn semi_explicit_euler() -> Self {
        Osi::SemiExplicitEuler { gamma: 0.5, update: VelocityUpdate::Explicit }
    }
    /// Siconos class name (Saltus's for the semi-explicit Euler, which Siconos lacks).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Osi::MoreauJean { .. } => "MoreauJeanOSI",
            Osi::MoreauJeanGosi { .. } => "MoreauJeanGOSI",
            Osi::EulerMoreau { .. } => "EulerMoreauOSI",
            Osi::SemiExplicitEuler { .. } => "SemiExplicitEuler",
            Osi::MoreauJeanBilbao => "MoreauJeanBilbaoOSI",
            Osi::ZeroOrderHold => "ZeroOrderHoldOSI",
        }
    }
    /// θ (1 for the semi-explicit Euler and Moreau–Jean–Bilbao: the positions move with the
    /// new velocity; 1 for the zero-order hold, exact, whose input is held at the step's end).
    pub fn theta(&self) -> f64 {
        match self {
            Osi::MoreauJean { theta, .. } | Osi::MoreauJeanGosi { theta, .. } | Osi::EulerMoreau { theta, .. } => {
                *theta
            }
            Osi::SemiExplicitEuler { .. } | Osi::MoreauJeanBilbao | Osi::ZeroOrderHold => 1.0,
        }
    }
    /// `true` for the integrators of Lagrangian systems (Moreau–Jean, global or not, the
    /// semi-explicit Euler, Moreau–Jean–Bilbao).
    pub fn is_lagrangian(&self) -> bool {
        !matches!(self, Osi::EulerMoreau { .. } | Osi::ZeroOrderHold)
    }
    /// The level of `(y, λ)` the one-step problem works at: 1 for Moreau–Jean and the
    /// semi-explicit Euler, 0 for Euler–Moreau and the zero-order hold.
    pub fn level(&self) -> usize {
        match self {
            Osi::MoreauJean { .. }
            | Osi::MoreauJeanGosi { .. }
            | Osi::SemiExplicitEuler { .. }
            | Osi::MoreauJeanBilbao => 1,
            Osi::EulerMoreau { .. } | Osi::ZeroOrderHold => 0,
        }
    }
    /// Checks θ and γ are in [0, 1].
    pub fn validate(&self) -> Result<(), KernelError> {
        let chk = |option: &'static str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(KernelError::InvalidOption { option, reason: format!("{v} is outside [0, 1]") })
            }
        };
        match self {
            Osi::MoreauJean { theta, gamma } | Osi::MoreauJeanGosi { theta, gamma } => {
                chk("theta", *theta).and(chk("gamma", *gamma))
            }
            Osi::EulerMoreau { theta, gamma } => chk("theta", *theta).and(gamma.map_or(Ok(()), |g| chk("gamma", g))),
            Osi::SemiExplicitEuler { gamma, .. } => chk("gamma", *gamma),
            Osi::MoreauJeanBilbao | Osi::ZeroOrderHold => Ok(()),
        }
    }
}

/// The per-system integrator contract (Siconos `OneStepIntegrator`: `initializeWorkVectorsForDS`,
/// `computeFreeState`, `updateState`, `levelMinForOutput`…): every time step calls these on the
/// integrator attached to each system (`DsWork::osi`); the time stepping never asks which
/// integrator a system has. A model may mix integrators of one level (Moreau–Jean with different
/// θ, the semi-explicit Euler for a system with `q̇ = N(q) u`), each system keeping its own.
impl Osi {
    /// Builds the workspace of `ds` for this integrator at `t` (a constant `W` factored once).
    pub(crate) fn init(&self, ds: &DynamicalSystem, w: &mut DsWork, h: f64, t: f64) -> Result<(), KernelError> {
        match *self {
            Osi::MoreauJean { theta, .. } | Osi::MoreauJeanGosi { theta, .. } => moreau_jean::init(ds, w, h, theta, t),
            Osi::EulerMoreau { theta, .. } => euler_moreau::init(ds, w, h, theta, t),
            Osi::SemiExplicitEuler { update, .. } => semi_explicit::init(ds, w, h, update, t),
            Osi::MoreauJeanBilbao => bilbao::init(ds, w, h, t),
            Osi::ZeroOrderHold => zoh::init(ds, w, h),
        }
    }

    /// Saves the state at `t_k` and evaluates the forces or the vector field there.
    pub(crate) fn begin_step(&self, ds: &DynamicalSystem, w: &mut DsWork, t_k: f64, h: f64) -> Result<(), KernelError> {
        match self {
            Osi::MoreauJean { .. } | Osi::MoreauJeanGosi { .. } => moreau_jean::begin_step(ds, w, t_k),
            Osi::EulerMoreau { .. } => euler_moreau::begin_step(ds, w, t_k),
            Osi::SemiExplicitEuler { .. } => semi_explicit::begin_step(ds, w, t_k, h),
            Osi::MoreauJeanBilbao => bilbao::begin_step(ds, w, t_k, h),
            Osi::ZeroOrderHold => {
                zoh::begin_step(ds, w);
                Ok(())
            }
        }
    }

    /// The free state `w.free` (the state without nonsmooth input) at the current Newton
    /// iterate of the step `[t_k, t1]`, and `W` when it is not constant.
    pub(crate) fn compute_free_state(
        &self,
        ds: &DynamicalSystem,
        w: &mut DsWork,
        t_k: f64,
        t1: f64,
        h: f64,
    ) -> Result<(), KernelError> {
        match *self {
            Osi::MoreauJean { theta, .. } | Osi::MoreauJeanGosi { theta, .. } => {
                moreau_jean::compute_free_state(ds, w, t1, h, theta)
            }
            Osi::EulerMoreau { theta, .. } => euler_moreau::compute_free_state(ds, w, t_k, t1, theta),
            Osi::SemiExplicitEuler { .. } => semi_explicit::compute_free_state(ds, w, t_k, h),
            Osi::MoreauJeanBilbao => Ok(()), // linear: the free velocity of `begin_step`
            Osi::ZeroOrderHold => zoh::compute_free_state(ds, w, t1),
        }
    }

    /// The new state from the free state and the input `w.input` (or, for
    /// [`Osi::MoreauJeanGosi`], from the global problem's velocity `global` when it was
    /// solved); returns the max-norm change (the Newton increment).
    pub(crate) fn update_state(
        &self,
        ds: &mut DynamicalSystem,
        w: &mut DsWork,
        h: f64,
        (t_k, t1): (f64, f64),
        global: Option<&[f64]>,
    ) -> Result<f64, KernelError> {
        match (*self, global) {
            (Osi::MoreauJeanGosi { theta, .. }, Some(v)) => {
                Ok(crate::simulation::gosi::update_state_global(ds, w, v, h, theta))
            }
            (Osi::MoreauJean { theta, .. } | Osi::MoreauJeanGosi { theta, .. }, _) => {
                moreau_jean::update_state(ds, w, h, theta, t1)
            }
            (Osi::EulerMoreau { .. }, _) => euler_moreau::update_state(ds, w, t_k, t1),
            (Osi::SemiExplicitEuler { .. }, _) => semi_explicit::update_state(ds, w, h, t_k),
            // the semi-explicit Euler's update: `v = v_free + W⁻¹ p`, `q = q_k + h v`
            (Osi::MoreauJeanBilbao, _) => semi_explicit::update_state(ds, w, h, t_k),
            (Osi::ZeroOrderHold, _) => zoh::update_state(ds, w, t_k, t1),
        }
    }

    /// The look-ahead γ of the activation rule of the interactions this integrator's systems
    /// carry: a unilateral interaction enters the problem when `y + γ h ẏ ≤ s` (first
    /// component); `None` for Euler–Moreau, whose problem holds every interaction.
    pub fn activation_gamma(&self) -> Option<f64> {
        match *self {
            Osi::MoreauJean { gamma, .. }
            | Osi::MoreauJeanGosi { gamma, .. }
            | Osi::SemiExplicitEuler { gamma, .. } => Some(gamma),
            Osi::MoreauJeanBilbao => Some(0.5),
            Osi::EulerMoreau { .. } | Osi::ZeroOrderHold => None,
        }
    }

    /// `true` for [`Osi::MoreauJeanGosi`]: the one-step problem is assembled globally
    /// (`W` and `H` kept apart).
    pub fn is_global(&self) -> bool {
        matches!(self, Osi::MoreauJeanGosi { .. })
    }

    /// `true` for the integrators whose positions the direct projection may correct after
    /// the step (the velocity-level Lagrangian ones, local: Moreau–Jean, the semi-explicit Euler,
    /// Moreau–Jean–Bilbao).
    pub fn allows_projection(&self) -> bool {
        matches!(self, Osi::MoreauJean { .. } | Osi::SemiExplicitEuler { .. } | Osi::MoreauJeanBilbao)
    }

    /// `true` for the integrators that move positions by a kinematics map `q̇ = N(q) u`
    /// (the semi-explicit Euler, and Moreau–Jean, local or global, with `N` taken at `q_k` over
    /// the step).
    pub fn takes_kinematics(&self) -> bool {
        matches!(self, Osi::SemiExplicitEuler { .. } | Osi::MoreauJean { .. } | Osi::MoreauJeanGosi { .. })
    }

    /// `true` for the integrators whose systems take linear first-order relations only: the θ-γ
    /// Euler–Moreau scheme (relations at `x_(k+γ)`) and the zero-order hold (`Bd = Ψ B`), as in
    /// Siconos.
    pub fn linear_relations_only(&self) -> bool {
        matches!(self, Osi::ZeroOrderHold) || self.relation_gamma().is_some()
    }

    /// `true` for the integrators whose workspaces follow interactions linked or removed during
    /// a run (Moreau–Jean).
    pub fn follows_links(&self) -> bool {
        matches!(self, Osi::MoreauJean { .. })
    }

    /// Whether a system integrated by `self` and one integrated by `other` can share one
    /// one-step problem: the same level of `(y, λ)` and the same assembly (local or global).
    pub fn shares_problem_with(&self, other: &Osi) -> bool {
        self.level() == other.level() && self.is_global() == other.is_global()
    }
}

/// Options of the Newton loop run for nonlinear systems or relations (linear models take
/// exactly one iteration, which is exact).
///
/// The increment test alone stops as soon as the state no longer moves, which a nonlinear
/// first-order relation can reach with `λ` still far from a solution (a relay holding `y = 0`
/// pins `x` while its `λ` iterates): Siconos's `setComputeResiduY`/`setComputeResiduR` add the
/// residuals of the relations, which [`NewtonOptions::residu_y`] and
/// [`NewtonOptions::residu_r`] mirror.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonOptions {
    /// Convergence when `‖x_{i+1} − x_i‖∞ ≤ tol (1 + ‖x_{i+1}‖∞)` over all states (and the
    /// residuals below when asked for).
    pub tol: f64,
    /// Iteration cap.
    pub max_iter: usize,
    /// Also require, for every nonlinear first-order relation (`FirstOrderType1R`, `Type2R`,
    /// `FirstOrderNonLinearR`), `‖h(x_{i+1}, λ_{i+1}) − ŷ‖₂ ≤ tol` where
    /// `ŷ = h_i + C (x_{i+1} − x_i) + D (λ_{i+1} − λ_i)` is the output the one-step problem
    /// solved with (Siconos `setComputeResiduY`).
    pub residu_y: bool,
    /// Also require `‖g(x_{i+1}, λ_{i+1}) − r̂‖₂ ≤ tol` with the linearized input
    /// `r̂ = g_i + K (x_{i+1} − x_i) + B (λ_{i+1} − λ_i)` (Siconos `setComputeResiduR`).
    pub residu_r: bool,
}

impl Default for NewtonOptions {
    fn default() -> Self {
        NewtonOptions { tol: 1e-10, max_iter: 50, residu_y: false, residu_r: false }
    }
}

impl NewtonOptions {
    /// Checks `tol > 0` and `max_iter > 0`.
    pub fn validate(&self) -> Result<(), KernelError> {
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return Err(KernelError::InvalidOption {
                option: "newton.tol",
                reason: format!("must be finite and > 0, got {}", self.tol),
            });
        }
        if self.max_iter == 0 {
            return Err(KernelError::InvalidOption { option: "newton.max_iter", reason: "must be > 0".into() });
        }
        Ok(())
    }
}

/// Per-system workspace of an integrator.
pub(crate) struct DsWork {
    pub id: DsId,
    /// The integrator attached to this system (Siconos `OneStepIntegrator` per system).
    pub osi: Osi,
    /// `W` and its LU factors (kept across steps when `w_constant`).
    pub w: DMatrix<f64>,
    pub lu: DenseLu,
    pub w_constant: bool,
    /// The step length a constant `W` was last built with (Euler–Moreau rebuilds it when the
    /// step `t_{k+1} − t_k` differs from it by rounding).
    pub h_w: f64,
    /// `true` when one Newton iteration is exact for this system.
    pub linear: bool,
    /// State at the start of the step (`x_k` or `q_k`) and `v_k` (Lagrangian).
    pub x_k: DVector<f64>,
    pub v_k: DVector<f64>,
    /// Free state (`x_free` or `v_free`).
    pub free: DVector<f64>,
    /// The free state seen by the one-step problem (differs from `free` for nonlinear
    /// first-order relations, see `euler_moreau`).
    pub free_osnsp: DVector<f64>,
    /// Forces / vector field at `t_k`, evaluated once per step.
    pub f_k: DVector<f64>,
    /// Input accumulated from the interactions (`p` or `r`), and its value at `t_k`.
    pub input: DVector<f64>,
    pub input_k: DVector<f64>,
    pub tmp: DVector<f64>,
    pub tmp2: DVector<f64>,
    /// Newton iterate `(q_i, v_i)` and the residual `R_free` (Moreau–Jean, `LagrangianDS`).
    pub q_i: DVector<f64>,
    pub v_i: DVector<f64>,
    pub res: DVector<f64>,
    pub mat: DMatrix<f64>,
    /// Scratch for a force's `∂F/∂q` (`dim_v × dim_q`).
    pub mat_q: DMatrix<f64>,
    pub mat2: DMatrix<f64>,
    /// Scratch for user matrices (`M(q)`, force Jacobians).
    pub mat3: DMatrix<f64>,
    /// The system is under a `FirstOrderNonLinearR`: `W` includes `−h k_sum`.
    pub has_k: bool,
    /// `Σ K` over its `FirstOrderNonLinearR`s at the Newton iterate (its own diagonal blocks;
    /// empty unless `has_k`).
    pub k_sum: DMatrix<f64>,
    /// `M(q_k)` of a system with a mass function (semi-explicit Euler; empty otherwise).
    pub m_k: DMatrix<f64>,
    /// `N(q_k)` of a system with a kinematics map `q̇ = N(q) u` (`dim_q × dim_v`; empty otherwise).
    pub n_k: DMatrix<f64>,
    /// The control input term `g` held over the step (Siconos's actuators' `B u`): added to the
    /// vector field (`ẋ = f(t, x) + g + r`) or to the forces (`M v̇ = F + g + p`).
    pub control: Option<DVector<f64>>,
    /// Moreau–Jean–Bilbao: per coordinate `(h K_kk, 2 h Σ*_kk)` (empty for the other integrators).
    pub modal: Vec<(f64, f64)>,
    /// Zero-order hold: `Φ`, `Ψ`, `Ψ b` (`None` for the other integrators).
    pub zoh: Option<Box<zoh::ZohMatrices>>,
}

/// The LU factors `P W = L U` of an iteration matrix, in place in buffers sized once, so that
/// refactoring a non-constant `W` at every Newton iteration does not allocate.
pub(crate) struct DenseLu {
    /// The system whose `W` this is (named in errors).
    id: DsId,
    n: usize,
    /// Column-major factors.
    a: Vec<f64>,
    piv: Vec<usize>,
    /// The factors are those of a regular matrix.
    ready: bool,
    /// `W` is diagonal (a common mass matrix): `solve` divides by `a[i, i]`, which gives the
    /// same numbers as the triangular solves (`L = I`, no row exchange) without their loops.
    diagonal: bool,
}

impl DenseLu {
    fn new(id: DsId, n: usize) -> Self {
        DenseLu { id, n, a: vec![0.0; n * n], piv: vec![0; n], ready: false, diagonal: false }
    }

    /// Factors `w` (`n × n`); `false` when a pivot is exactly zero (singular `W`).
    fn factor(&mut self, w: &DMatrix<f64>) -> bool {
        self.a.copy_from_slice(w.as_slice());
        let n = self.n;
        self.diagonal = (0..n).all(|j| (0..n).all(|i| i == j || self.a[j * n + i] == 0.0));
        self.ready = lu_factor(&mut self.a, self.n, &mut self.piv, 0.0).is_ok();
        self.ready
    }

    /// `b ← W⁻¹ b` for each column of the column-major `b` (an error before a successful
    /// factorization).
    pub fn solve(&self, b: &mut [f64], t: f64) -> Result<(), KernelError> {
        if !self.ready {
            return Err(KernelError::SingularW { t, ds: self.id });
        }
        if self.diagonal {
            for col in b.chunks_exact_mut(self.n) {
                for (i, x) in col.iter_mut().enumerate() {
                    *x /= self.a[i * self.n + i];
                }
            }
        } else if self.n > 0 {
            for col in b.chunks_exact_mut(self.n) {
                for (k, &p) in self.piv.iter().enumerate() {
                    col.swap(k, p);
                }
                let lu = nalgebra::DMatrixView::from_slice(&self.a, self.n, self.n);
                let mut x = nalgebra::DVectorViewMut::from_slice(col, self.n);
                lu.solve_lower_triangular_with_diag_mut(&mut x, 1.0);
                lu.solve_upper_triangular_mut(&mut x);
            }
        }
        Ok(())
    }
}

impl DsWork {
    /// The workspace of a system with `dim_q` coordinates (or states) and `dim_v` velocities:
    /// `x_k` and `q_i` hold coordinates, the other vectors and `W` are of the velocity's size
    /// ([`DynamicalSystem::dim_v`](crate::model::ds::DynamicalSystem::dim_v)).
    pub fn new(id: DsId, (dim_q, n): (usize, usize), osi: Osi) -> Self {
        let z = DVector::zeros(n);
        DsWork {
            id,
            osi,
            w: DMatrix::zeros(n, n),
            lu: DenseLu::new(id, n),
            w_constant: false,
            h_w: f64::NAN,
            linear: false,
            x_k: DVector::zeros(dim_q),
            v_k: z.clone(),
            free: z.clone(),
            free_osnsp: z.clone(),
            f_k: z.clone(),
            input: z.clone(),
            input_k: z.clone(),
            tmp: z.clone(),
            tmp2: z.clone(),
            q_i: DVector::zeros(dim_q),
            v_i: z.clone(),
            res: z,
            mat: DMatrix::zeros(n, dim_q),
            mat_q: DMatrix::zeros(n, dim_q),
            mat2: DMatrix::zeros(n, n),
            mat3: DMatrix::zeros(n, n),
            has_k: false,
            k_sum: DMatrix::zeros(0, 0),
            m_k: DMatrix::zeros(0, 0),
            n_k: DMatrix::zeros(0, 0),
            control: None,
            modal: Vec::new(),
            zoh: None,
        }
    }

    /// Factors `self.w` (unless constant and already factored). Errors name the system.
    pub fn factor(&mut self, t: f64) -> Result<(), KernelError> {
        if self.w_constant && self.lu.ready {
            return Ok(());
        }
        self.refactor(t)
    }

    /// Factors `self.w`, constant or not. Errors name the system.
    pub fn refactor(&mut self, t: f64) -> Result<(), KernelError> {
        if self.w.iter().any(|x| !x.is_finite()) {
            return Err(KernelError::NonFinite { t, what: "iteration matrix W", interaction: None });
        }
        if !self.lu.factor(&self.w) {
            return Err(KernelError::SingularW { t, ds: self.id });
        }
        Ok(())
    }

    /// `b ← W⁻¹ b` for a matrix right-hand side (after [`DsWork::factor`]).
    pub fn solve_mat_in_place(&self, b: &mut DMatrix<f64>, t: f64) -> Result<(), KernelError> {
        self.lu.solve(b.as_mut_slice(), t)
    }

    /// `tmp = W⁻¹ input`: the state change per unit of input of `update_state`.
    pub fn winv_input(&mut self, t: f64) -> Result<(), KernelError> {
        if self.lu.ready && self.input.iter().all(|&p| p == 0.0) {
            // no impulse (free flight): W⁻¹ 0 = 0 without the solve
            self.tmp.fill(0.0);
            return Ok(());
        }
        self.tmp.copy_from(&self.input);
        self.lu.solve(self.tmp.as_mut_slice(), t)
    }
}

/// The error for a system the integrator `osi` (Siconos class name) cannot integrate.
pub(crate) fn unsupported(ds: &crate::model::ds::DynamicalSystem, w: &DsWork, osi: &str) -> KernelError {
    KernelError::UnsupportedSystem { ds: w.id, reason: format!("{} cannot be integrated by {osi}", ds.kind_name()) }
}

/// `w.n_k = N(t_k, q_k)` (`w.x_k` holds `q_k`) for a system with a kinematics map `q̇ = N(q) v`,
/// sized `dim_q × dim_v` at the first call; nothing without a map.
pub(crate) fn kinematics_at_start(ds: &DynamicalSystem, w: &mut DsWork, t_k: f64) -> Result<(), KernelError> {
    let Some(n_map) = ds.kinematics() else { return Ok(()) };
    if w.n_k.shape() != (ds.dim_q(), ds.dim_v()) {
        w.n_k = DMatrix::zeros(ds.dim_q(), ds.dim_v());
    }
    w.n_k.fill(0.0);
    let id = w.id.0;
    n_map(t_k, w.x_k.as_slice(), &mut w.n_k).map_err(user_err(t_k, "kinematics N(q)", id))?;
    crate::model::userfn::check_finite_out(w.n_k.as_slice()).map_err(user_err(t_k, "kinematics N(q)", id))
}

/// `KernelError::UserFn` for a failed evaluation of `what` (of system or interaction `id`) at
/// `t`; builds the message only on failure.
pub(crate) fn user_err(
    t: f64,
    what: &'static str,
    id: u32,
) -> impl FnOnce(crate::model::userfn::UserFnError) -> KernelError {
    move |source| KernelError::UserFn { t, what: what.to_string(), owner: Some(id), source }
}

/// `w += alpha a` for matrices.
pub(crate) fn mat_axpy(w: &mut DMatrix<f64>, alpha: f64, a: &DMatrix<f64>) {
    w.zip_apply(a, |x, y| *x += alpha * y);
}
