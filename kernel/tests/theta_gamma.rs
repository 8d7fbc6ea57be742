//! The θ-γ Euler–Moreau scheme (Siconos `EulerMoreauOSI(θ, γ)` with
//! `setUseGammaForRelation(true)`) on the diode bridge: the complementarity holds at
//! `x_{k+γ} = γ x_{k+1} + (1−γ) x_k`, not at `x_{k+1}`; with θ = γ = 1/2 the diodes dissipate
//! over every step (the energy balance of the trapezoidal rule with the power at the mid-point);
//! γ = 1 is plain Euler–Moreau, bit for bit.
mod common;

use nalgebra::{dmatrix, DVector};
use saltus_kernel::{solvers::lcp::LcpSolver, KernelError, Osi, Osnsp, TimeStepping};

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

/// The diode bridge's `y = C x + D λ` (no `e`), with `common::diode_bridge`'s matrices.
fn output(x: &DVector<f64>, lam: &DVector<f64>) -> DVector<f64> {
    let r = 1e3;
    let cm = dmatrix![0.0, 0.0; 0.0, 0.0; -1.0, 0.0; 1.0, 0.0];
    let d = dmatrix![1.0 / r, 1.0 / r, -1.0, 0.0; 1.0 / r, 1.0 / r, 0.0, -1.0; 1.0, 0.0, 0.0, 0.0; 0.0, 1.0, 0.0, 0.0];
    cm * x + d * lam
}

#[test]
fn complementarity_at_x_k_plus_gamma_and_midpoint_dissipation() {
    let (l, c, h, gamma) = (1e-2, 1e-6, 1e-6, 0.5);
    let energy = |x: &DVector<f64>| 0.5 * c * x[0] * x[0] + 0.5 * l * x[1] * x[1];
    let mut nsds = common::diode_bridge();
    let mut sim = TimeStepping::new(&nsds, h, Osi::euler_moreau_theta_gamma(0.5, gamma), lemke()).unwrap();
    let mut off_at_end = 0.0f64;
    for _ in 0..5000 {
        let x_k = nsds.systems()[0].state().clone();
        let rep = sim.step(&mut nsds).unwrap();
        assert!(rep.osnsp.as_ref().unwrap().status.converged());
        let x1 = nsds.systems()[0].state().clone();
        let lam = nsds.interactions()[0].lambda(0).unwrap().clone();
        let x_g = &x1 * gamma + &x_k * (1.0 - gamma);
        let y_g = output(&x_g, &lam);
        for i in 0..4 {
            assert!(
                y_g[i] >= -1e-9 && lam[i] >= 0.0 && (y_g[i] * lam[i]).abs() <= 1e-12,
                "complementarity at x_(k+γ), t = {}: y = {y_g}, λ = {lam}",
                rep.t
            );
        }
        // the same λ against x_(k+1): not a solution in general (the scheme differs)
        let y1 = output(&x1, &lam);
        off_at_end = off_at_end.max((0..4).map(|i| (y1[i] * lam[i]).abs()).fold(0.0, f64::max));
        // trapezoidal energy balance, E_(k+1) − E_k = h vC_mid (λ3 − λ2); at the mid-point
        // the diodes' power is ≤ 0 by complementarity (γ = 1/2): the energy never grows
        let power = lam[3] - lam[2];
        let e_diff = energy(&x1) - energy(&x_k);
        assert!((e_diff - h * x_g[0] * power).abs() <= 1e-12 * energy(&x_k).max(1e-12), "energy balance at {}", rep.t);
        assert!(x_g[0] * power <= 1e-12, "the diodes dissipate at the mid-point, t = {}", rep.t);
    }
    assert!(off_at_end > 1e-8, "the complementarity at x_(k+1) differs ({off_at_end:e}): γ is not used");
}

#[test]
fn gamma_one_is_plain_euler_moreau() {
    let run = |osi| {
        let mut nsds = common::diode_bridge();
        let mut sim = TimeStepping::new(&nsds, 1e-6, osi, lemke()).unwrap();
        for _ in 0..2000 {
            sim.step(&mut nsds).unwrap();
        }
        let x = nsds.systems()[0].state().clone();
        x.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    };
    assert_eq!(run(Osi::euler_moreau(0.5)), run(Osi::euler_moreau_theta_gamma(0.5, 1.0)));
}

#[test]
fn gamma_outside_the_unit_interval_is_refused() {
    let nsds = common::diode_bridge();
    let Err(err) = TimeStepping::new(&nsds, 1e-6, Osi::euler_moreau_theta_gamma(0.5, 1.5), lemke()) else {
        panic!("γ = 1.5 accepted")
    };
    assert!(matches!(err, KernelError::InvalidOption { option: "gamma", .. }), "{err}");
}
