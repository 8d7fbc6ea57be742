//! Sensors, actuators (controllers) and observers, as Siconos `control` names them.
//!
//! Every piece runs at its own sampling period (a multiple of the plant step) of the simulation
//! that owns the [`crate::ControlManager`]; at a control instant the sensors capture first, then the
//! observers process, then the actuators compute their new input `u`, held constant until their
//! next instant (zero-order hold).

use nalgebra::{DMatrix, DVector};
use saltus_numerics::lcp::LemkeOptions;
use saltus_numerics::relay::RelaySolver;

/// A sensor (Siconos `ControlSensor`): what the controllers and observers see of the plant.
#[derive(Debug, Clone, PartialEq)]
pub enum Sensor {
    /// `y = x`: the full state (a Siconos `LinearSensor` with `C = I`).
    State,
    /// `y = C x` (Siconos `LinearSensor`); `C` is `p × n`.
    Linear(DMatrix<f64>),
}

/// Parameters shared by the linear sliding-mode controllers (Siconos `CommonSMC`).
///
/// The sliding variable is `σ = C_s x` (`C_s`: `m × n`), the input enters the plant as `B u`
/// (`B`: `n × m`, `C_s B` invertible). The control is `u = u^eq + u^s`:
///
/// * the equivalent part `u^eq = −Π ((1 − θ) x_k + θ x̃_{k+1})`, `Π = (C_s B)⁻¹ C_s A`, where
///   `x̃_{k+1} = Φ x_k + Γ u^eq` is the zero-order-hold prediction with `u^eq` alone
///   (`(I + θ Γ Π) x̃_{k+1} = Φ x_k − (1 − θ) Γ Π x_k`; `Φ = exp(A h_c)`, `Γ = ∫₀^{h_c} exp(As) ds B`);
/// * the discontinuous part `u^s ∈ −α Sgn(σ)`.
#[derive(Debug, Clone)]
pub struct CommonSmc {
    /// `C_s` (`m × n`), the sliding surface `σ = C_s x`.
    pub csurface: DMatrix<f64>,
    /// `B` (`n × m`), how `u` enters the plant.
    pub b: DMatrix<f64>,
    /// The gain `α > 0` of `u^s ∈ −α Sgn(σ)` (Siconos `setAlpha`, default 1).
    pub alpha: f64,
    /// `θ ∈ [0, 1]` of the equivalent part (Siconos `setTheta`, default ½).
    pub theta: f64,
    /// Leave out `u^eq` (Siconos `noUeq`).
    pub no_ueq: bool,
    /// Saturation `D` (`m × m`, Siconos `setSaturationMatrix`): implicit `σ_{k+1} = C_s x_{k+1} + D λ`;
    /// explicit `u^s_i = −σ_i / D_ii` inside the band `|σ_i| ≤ D_ii`.
    pub saturation: Option<DMatrix<f64>>,
    /// The solver of the implicit form's relay problem (Lemke by default: exact pivoting).
    pub solver: RelaySolver,
}

impl CommonSmc {
    /// `σ = C_s x`, input matrix `B`, gain `α`; `θ = ½`, no saturation, Lemke.
    pub fn new(csurface: DMatrix<f64>, b: DMatrix<f64>, alpha: f64) -> Self {
        CommonSmc {
            csurface,
            b,
            alpha,
            theta: 0.5,
            no_ueq: false,
            saturation: None,
            solver: RelaySolver::Lemke(LemkeOptions::default()),
        }
    }
}

/// A discrete PID (Siconos `PID`) on the first sensor output, in velocity form:
///
/// `u_k = u_{k−1} + (K_p + K_i Δt + K_d/Δt) e_k − (K_p + 2 K_d/Δt) e_{k−1} + (K_d/Δt) e_{k−2}`,
/// `e_k = r − y_k[0]`, `e_{−1} = e_{−2} = 0`, `u_{−1} = 0`; the input enters the plant as `B u`.
#[derive(Debug, Clone, PartialEq)]
pub struct Pid {
    /// `(K_p, K_i, K_d)`.
    pub k: [f64; 3],
    /// The reference `r`.
    pub reference: f64,
    /// `B` (`n × 1`).
    pub b: DMatrix<f64>,
    /// `Δt` of the formula (Siconos `setDeltaT`); the controller's sampling period when `None`.
    pub delta_t: Option<f64>,
}

/// Explicit twisting (Siconos `ExplicitTwisting`) for a 2-state plant:
/// `u = (sgn(−y₀), sgn(−y₁))` (`sgn(0) = −1`, as `copysign(1, −0)`), entering as `B u` with
/// `B = [[0, 0], [G, G β]]`, `0 < β < 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExplicitTwisting {
    /// The gain `G`.
    pub gain: f64,
    /// `β ∈ (0, 1)`.
    pub beta: f64,
}

/// Siconos `LinearSMCOT2`: a sliding-mode control with a one-period disturbance predictor
/// (Siconos 4.4's algorithm, `control/src/Controller/LinearSMCOT2.cpp`). At each control instant
/// `t_k`, with the measured state `x_k`:
///
/// * the free prediction `x^Φ = Φ x_k + Ψ b` over the period `h_c` (`Φ = exp(A h_c)`,
///   `Ψ = ∫₀^{h_c} exp(As) ds`; `b` the plant's constant drift, without a time-dependent part);
/// * `u_eq = c · (κ (x^Φ + x_k − x̂_k))` with `c` the first row of `C_s` and `κ = −1/(Σ_j c_j h_c)`,
///   where `x̂_k` is the prediction made at `t_{k−1}` (`x̂_0 = x_0`), so `x_k − x̂_k` is the effect of the
///   unknown disturbance over the last period;
/// * the last entry of `u` is `u_eq` clipped to `[−2, 2]` (Siconos's fixed bounds), the others stay 0;
/// * the next prediction `x̂_{k+1} = Φ x_k + Ψ B u`.
///
/// Siconos integrates its two internal copies of the plant with LSODAR; Saltus uses the exact
/// zero-order-hold matrices (the plant is linear and the inputs are held). Siconos's copy keeps a
/// plant's C-plugin `b(t)` (an overridden `computeb` is dropped): Saltus predicts without it, as
/// Siconos does for the overridden method.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearSmcOt2 {
    /// `C_s` (`m × n`; its first row is used).
    pub csurface: DMatrix<f64>,
    /// `B` (`n × m`), how `u` enters the plant.
    pub b: DMatrix<f64>,
}

/// An actuator: a controller computing `u` from a sensor (Siconos `Actuator` subclasses).
#[derive(Debug, Clone)]
pub enum Controller {
    /// Implicit linear sliding-mode control (Siconos `LinearSMC`): `u^s = λ` solves the
    /// one-step relay problem `σ_{k+1} = C_s(Φ x_k + Γ u^eq) + (C_s Γ + D) λ`,
    /// `−σ_{k+1} ∈ N_[−α, α](λ)`: the sliding variable is driven to zero within one sampling
    /// period whenever `|λ| < α` suffices, with no chattering.
    LinearSmc(CommonSmc),
    /// Explicit linear sliding-mode control (Siconos `ExplicitLinearSMC`): `u^s = −α sgn(C_s x_k)`
    /// (`0` when `σ = 0`), chattering with amplitude `O(α h_c)`.
    ExplicitLinearSmc(CommonSmc),
    /// PID.
    Pid(Pid),
    /// Explicit twisting.
    ExplicitTwisting(ExplicitTwisting),
    /// Sliding-mode control with a disturbance predictor (Siconos `LinearSMCOT2`).
    LinearSmcOt2(LinearSmcOt2),
}

impl Controller {
    /// The input matrix `B` (`n × m`) through which `u` enters the plant.
    pub fn input_matrix(&self) -> DMatrix<f64> {
        match self {
            Controller::LinearSmc(c) | Controller::ExplicitLinearSmc(c) => c.b.clone(),
            Controller::Pid(p) => p.b.clone(),
            Controller::LinearSmcOt2(o) => o.b.clone(),
            Controller::ExplicitTwisting(t) => {
                let mut b = DMatrix::zeros(2, 2);
                b[(1, 0)] = t.gain;
                b[(1, 1)] = t.gain * t.beta;
                b
            }
        }
    }
    /// Siconos's class name.
    pub fn siconos_name(&self) -> &'static str {
        match self {
            Controller::LinearSmc(_) => "LinearSMC",
            Controller::ExplicitLinearSmc(_) => "ExplicitLinearSMC",
            Controller::Pid(_) => "PID",
            Controller::ExplicitTwisting(_) => "ExplicitTwisting",
            Controller::LinearSmcOt2(_) => "LinearSMCOT2",
        }
    }
}

/// A Luenberger observer (Siconos `LuenbergerObserver`) of a linear plant from `y = C x`:
///
/// `dx̂/dt = A x̂ + b + B u + L (C x̂ − y)`, discretised by zero-order hold over the observer's
/// period with `u` and `e = C x̂_k − y_k` held; the estimate at `t_{k+1}` uses the measurement
/// of `t_k` (as Siconos). The error `x̂ − x` obeys `ė = (A + L C) e`: choose `L` so that
/// `A + L C` is Hurwitz.
#[derive(Debug, Clone, PartialEq)]
pub struct LuenbergerObserver {
    /// `C` (`p × n`); must match the sensor's output size.
    pub c: DMatrix<f64>,
    /// The gain `L` (`n × p`).
    pub l: DMatrix<f64>,
    /// The initial estimate `x̂(t₀)`.
    pub xhat0: DVector<f64>,
}
