//! What each controller does at its control instant (Siconos `Actuator::actuate`), with the
//! matrices it precomputes once.

use crate::controller::{CommonSmc, Controller};
use crate::error::{invalid, ControlError, Result};
use crate::manager::LinearModel;
use nalgebra::{DMatrix, DVector};
use saltus_numerics::matrix::Operator;
use saltus_numerics::relay::{self, Relay, RelaySolverState};
use saltus_numerics::zoh::zoh_matrices;
use saltus_numerics::{SolveReport, SolveStatus};

/// Precomputed matrices of a linear SMC at its sampling period `h_c`.
#[derive(Debug, Clone)]
pub(crate) struct SmcMatrices {
    /// `Φ = exp(A h_c)`.
    phi: DMatrix<f64>,
    /// `Γ = Ψ(h_c) B`.
    gamma: DMatrix<f64>,
    /// `Π = (C_s B)⁻¹ C_s A`.
    pi: DMatrix<f64>,
    /// LU of `W = I + θ Γ Π`.
    w: nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>,
    /// `Γ Π`.
    gamma_pi: DMatrix<f64>,
    /// `M = C_s Γ + D` of the relay problem.
    m: DMatrix<f64>,
}

/// The runtime state of one controller.
#[derive(Debug, Clone)]
pub(crate) enum ActuatorState {
    Smc { mat: Box<SmcMatrices>, relay: Box<RelaySolverState>, ueq: DVector<f64>, us: DVector<f64> },
    Pid { err: [f64; 3], delta_t: f64 },
    Twisting,
    Ot2 { phi: DMatrix<f64>, psi: DMatrix<f64>, psi_b: DVector<f64>, kappa: f64, xhat: Option<DVector<f64>> },
}

fn check_shape(what: &str, name: &str, m: &DMatrix<f64>, rows: usize, cols: usize) -> Result<()> {
    if m.nrows() != rows || m.ncols() != cols {
        return Err(invalid(what, format!("{name} is {}x{}, expected {rows}x{cols}", m.nrows(), m.ncols())));
    }
    if m.iter().any(|v| !v.is_finite()) {
        return Err(invalid(what, format!("{name} has a non-finite entry")));
    }
    Ok(())
}

fn smc_matrices(what: &str, c: &CommonSmc, a: &DMatrix<f64>, hc: f64) -> Result<SmcMatrices> {
    let n = a.nrows();
    let m = c.csurface.nrows();
    check_shape(what, "Csurface", &c.csurface, m, n)?;
    check_shape(what, "B", &c.b, n, m)?;
    if let Some(d) = &c.saturation {
        check_shape(what, "D (saturation)", d, m, m)?;
    }
    if !(c.alpha.is_finite() && c.alpha > 0.0) {
        return Err(invalid(what, format!("alpha = {} must be finite and > 0", c.alpha)));
    }
    if !(0.0..=1.0).contains(&c.theta) {
        return Err(invalid(what, format!("theta = {} must be in [0, 1]", c.theta)));
    }
    c.solver.validate().map_err(|e| invalid(what, format!("relay solver: {e}")))?;
    let singular = |matrix| ControlError::Singular { what: what.to_string(), matrix };
    let (phi, psi) = zoh_matrices(a, hc).ok_or_else(|| invalid(what, "exp(A h_c) is not finite"))?;
    let gamma = &psi * &c.b;
    let cb_inv = (&c.csurface * &c.b).try_inverse().ok_or_else(|| singular("Csurface B"))?;
    let pi = cb_inv * &c.csurface * a;
    let gamma_pi = &gamma * &pi;
    let w = (DMatrix::identity(n, n) + &gamma_pi * c.theta).lu();
    if !w.is_invertible() {
        return Err(singular("I + theta Gamma Pi"));
    }
    let mut mm = &c.csurface * &gamma;
    if let Some(d) = &c.saturation {
        mm += d;
    }
    Ok(SmcMatrices { phi, gamma, pi, w, gamma_pi, m: mm })
}

/// Validates `ctrl` against the plant (`n` states, its model's `A` if it has one), the sensor
/// output size `p` and the period; returns its initial state.
pub(crate) fn init_state(
    what: &str,
    ctrl: &Controller,
    n: usize,
    model: Option<&LinearModel>,
    p: usize,
    hc: f64,
) -> Result<ActuatorState> {
    let a = model.map(|m| &m.a);
    match ctrl {
        Controller::LinearSmcOt2(o) => {
            let model = model.ok_or_else(|| {
                invalid(what, "LinearSMCOT2 predicts with a linear model of the plant (A, b), and this plant has none")
            })?;
            if p != n {
                return Err(invalid(
                    what,
                    format!("LinearSMCOT2 needs the full state: sensor gives {p} values, the plant has {n}"),
                ));
            }
            let m = o.b.ncols();
            check_shape(what, "B", &o.b, n, m)?;
            if m == 0 || o.csurface.nrows() == 0 {
                return Err(invalid(what, "B and Csurface need at least one column and one row"));
            }
            check_shape(what, "Csurface", &o.csurface, o.csurface.nrows(), n)?;
            let sum: f64 = o.csurface.row(0).iter().sum();
            if sum == 0.0 {
                return Err(invalid(what, "the first row of Csurface sums to 0 (its gain is -1/(sum h_c))"));
            }
            let (phi, psi) = zoh_matrices(&model.a, hc).ok_or_else(|| invalid(what, "exp(A h_c) is not finite"))?;
            let psi_b = &psi * &model.b;
            Ok(ActuatorState::Ot2 { phi, psi, psi_b, kappa: -1.0 / (sum * hc), xhat: None })
        }
        Controller::LinearSmc(c) | Controller::ExplicitLinearSmc(c) => {
            let a = a.ok_or_else(|| {
                invalid(
                    what,
                    "a sliding-mode controller (its equivalent control) needs a linear model of the plant (A, b), \
                     and this plant has none",
                )
            })?;
            if p != n {
                return Err(invalid(
                    what,
                    format!(
                        "a sliding-mode controller needs the full state: sensor gives {p} values, the plant has {n}"
                    ),
                ));
            }
            let mat = smc_matrices(what, c, a, hc)?;
            let m = c.csurface.nrows();
            Ok(ActuatorState::Smc {
                mat: Box::new(mat),
                relay: Box::new(RelaySolverState::new()),
                ueq: DVector::zeros(m),
                us: DVector::zeros(m),
            })
        }
        Controller::Pid(pid) => {
            check_shape(what, "B", &pid.b, n, 1)?;
            if pid.k.iter().chain([&pid.reference]).any(|v| !v.is_finite()) {
                return Err(invalid(what, "K and the reference must be finite"));
            }
            if p == 0 {
                return Err(invalid(what, "the sensor gives no output"));
            }
            let delta_t = pid.delta_t.unwrap_or(hc);
            if !(delta_t.is_finite() && delta_t > 0.0) {
                return Err(invalid(what, format!("delta_t = {delta_t} must be finite and > 0")));
            }
            Ok(ActuatorState::Pid { err: [0.0; 3], delta_t })
        }
        Controller::ExplicitTwisting(t) => {
            if n != 2 || p != 2 {
                return Err(invalid(
                    what,
                    format!("twisting needs a 2-state plant and a 2-output sensor (plant {n}, sensor {p})"),
                ));
            }
            if !(t.gain.is_finite() && t.beta > 0.0 && t.beta < 1.0) {
                return Err(invalid(what, format!("gain {} must be finite and beta {} in (0, 1)", t.gain, t.beta)));
            }
            Ok(ActuatorState::Twisting)
        }
    }
}

/// The outcome of one `actuate`: the relay solver's report for the implicit SMC.
pub(crate) type ActuateReport = Option<SolveReport>;

/// Computes the new `u` from the sensor output `y` at time `t`.
pub(crate) fn actuate(
    what: &str,
    t: f64,
    ctrl: &Controller,
    state: &mut ActuatorState,
    y: &DVector<f64>,
    u: &mut DVector<f64>,
) -> Result<ActuateReport> {
    match (ctrl, state) {
        (Controller::LinearSmc(c), ActuatorState::Smc { mat, relay, ueq, us }) => {
            compute_ueq(what, c, mat, y, ueq)?;
            // x_free = Φ x_k + Γ u^eq ; σ_{k+1} = C_s x_free + M λ
            let x_free = &mat.phi * y + &mat.gamma * &*ueq;
            let q = &c.csurface * x_free;
            let m = q.len();
            let problem =
                Relay::new(Operator::Dense(mat.m.clone()), q.as_slice().to_vec(), vec![-c.alpha; m], vec![c.alpha; m])
                    .map_err(|source| ControlError::Numerics { t, what: what.to_string(), source })?;
            let mut z = vec![0.0; m];
            let mut w = vec![0.0; m];
            let report = relay::solve_with(relay, &problem, &mut z, &mut w, &c.solver)
                .map_err(|source| ControlError::Numerics { t, what: what.to_string(), source })?;
            us.copy_from(&DVector::from_vec(z));
            u.copy_from(&(&*us + &*ueq));
            Ok(Some(report))
        }
        (Controller::ExplicitLinearSmc(c), ActuatorState::Smc { mat, ueq, us, .. }) => {
            compute_ueq(what, c, mat, y, ueq)?;
            let sigma = &c.csurface * y;
            for i in 0..sigma.len() {
                let s = sigma[i];
                us[i] = match &c.saturation {
                    Some(d) if s.abs() <= d[(i, i)] && d[(i, i)] != 0.0 => -s / d[(i, i)],
                    Some(d) if s.abs() <= d[(i, i)] => 0.0,
                    _ if s > 0.0 => -c.alpha,
                    _ if s < 0.0 => c.alpha,
                    _ => 0.0,
                };
            }
            u.copy_from(&(&*us + &*ueq));
            Ok(None)
        }
        (Controller::Pid(p), ActuatorState::Pid { err, delta_t }) => {
            err.rotate_right(1);
            err[0] = p.reference - y[0];
            let [kp, ki, kd] = p.k;
            let dt = *delta_t;
            u[0] += (kp + kd / dt + ki * dt) * err[0] + (-kp - 2.0 * kd / dt) * err[1] + kd / dt * err[2];
            Ok(None)
        }
        (Controller::LinearSmcOt2(o), ActuatorState::Ot2 { phi, psi, psi_b, kappa, xhat }) => {
            let x = y;
            let prev = xhat.get_or_insert_with(|| x.clone());
            let x_phi = &*phi * x + &*psi_b;
            let d = (x_phi + x - &*prev) * *kappa;
            let ueq: f64 = o.csurface.row(0).iter().zip(d.iter()).map(|(c, v)| c * v).sum();
            let last = u.len() - 1;
            u[last] = ueq.clamp(-2.0, 2.0);
            *prev = &*phi * x + &*psi * (&o.b * &*u);
            Ok(None)
        }
        (Controller::ExplicitTwisting(_), ActuatorState::Twisting) => {
            u[0] = 1f64.copysign(-y[0]);
            u[1] = 1f64.copysign(-y[1]);
            Ok(None)
        }
        _ => Err(invalid(what, "controller and its state disagree (internal)")),
    }
}

/// `u^eq = −Π ((1 − θ) x_k + θ x̃_{k+1})` with `(I + θ Γ Π) x̃_{k+1} = Φ x_k − (1 − θ) Γ Π x_k`.
fn compute_ueq(what: &str, c: &CommonSmc, mat: &SmcMatrices, x: &DVector<f64>, ueq: &mut DVector<f64>) -> Result<()> {
    if c.no_ueq {
        ueq.fill(0.0);
        return Ok(());
    }
    let th = c.theta;
    let rhs = &mat.phi * x - &mat.gamma_pi * x * (1.0 - th);
    // W was found invertible when the simulation was built
    let xt = mat
        .w
        .solve(&rhs)
        .ok_or_else(|| ControlError::Singular { what: what.to_string(), matrix: "I + theta Gamma Pi" })?;
    ueq.copy_from(&(-(&mat.pi * x) * (1.0 - th) - &mat.pi * xt * th));
    Ok(())
}

/// `true` if the report says the relay solver converged.
pub(crate) fn converged(r: &SolveReport) -> bool {
    matches!(r.status, SolveStatus::Converged)
}
