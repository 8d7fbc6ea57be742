//! Mechanical energy of Moreau–Jean (θ-scheme, velocity-level Newton impact law) for systems
//! with constant mass and constant external forces (`LagrangianLinearTIDS` without `K`, `C`):
//! the bouncing ball for `e ∈ {0, 0.5, 0.9, 1}` and `θ ∈ {1/2, 1}`, and a falling column of beads.
//!
//! With `M (v_{k+1} − v_k) = h F + p`, `q_{k+1} = q_k + h((1−θ) v_k + θ v_{k+1})` and
//! `E = ½ vᵀ M v − Fᵀ q`, one step changes the energy by exactly
//!
//! ```text
//! E_{k+1} − E_k = ½ pᵀ(v_k + v_{k+1}) − (θ − ½) h Fᵀ(v_{k+1} − v_k)
//!               = ½ Σ_α λ_α (ẏ_{α,k} + ẏ_{α,k+1}) − (θ − ½) h Fᵀ M⁻¹ (h F + p).
//! ```
//!
//! * Without impulse (`p = 0`) the step is energy-neutral for θ = ½ and dissipates
//!   `(θ − ½) h² FᵀM⁻¹F ≥ 0` for θ > ½: the energy never increases.
//! * With an impulse the Newton law gives `ẏ_{k+1} = −e ẏ_k` on every contact with `λ > 0`, so the
//!   impulse term is `½ Σ λ_α (1 − e) ẏ_{α,k}`: `≤ 0` for contacts that approach (`ẏ_k ≤ 0`).
//!   It is **positive** when a contact that already separates (`ẏ_k > 0`, but `y_k + γ h ẏ_k ≤ 0`
//!   after a penetration) is activated and receives an impulse (possible only for `e < 1`):
//!   the velocity-level scheme then pushes the body out and corrects the drift, at the cost of
//!   `½ λ (1 − e) ẏ_k` of energy. Siconos's `MoreauJeanOSI` is the same scheme and shares it.
//! * For θ > ½ the second term adds `−(θ − ½) h Fᵀ M⁻¹ p`, which is **positive** when the impulse
//!   opposes the force (a ball landing under gravity: `+(θ − ½) h g λ`). So for θ = 1 the
//!   mechanical energy `E` increases at impact steps (by `e g h s − ½(1 − e²) s²` for a ball of
//!   unit mass hitting at speed `s`), and the energy that never increases is the discrete
//!   (shadow) energy `Ẽ = E + (θ − ½) h Fᵀ v`, for which `Ẽ_{k+1} − Ẽ_k = ½ pᵀ(v_k + v_{k+1})`
//!   exactly.
//!
//! So, asserted here at every step, up to round-off: the exact balance above; `E` never
//! increases on a step without impulse; `Ẽ` (equal to `E` for θ = ½) never increases unless a
//! separating contact was activated, and then by exactly `½ Σ λ (1 − e) ẏ_k`.
mod common;

use nalgebra::DVector;
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::*;

/// `(M, F)` of every system (constant mass, constant external force).
fn mass_and_force(nsds: &Nsds) -> Vec<(nalgebra::DMatrix<f64>, DVector<f64>)> {
    nsds.systems()
        .iter()
        .map(|ds| match ds {
            DynamicalSystem::LagrangianLinearTi(d) => {
                assert!(d.k.is_none() && d.c.is_none());
                let f = match &d.f_ext {
                    Some(VecOp::Constant(f)) => f.clone(),
                    None => DVector::zeros(d.q0.len()),
                    Some(VecOp::Function(_)) => panic!("constant forces only"),
                };
                (d.mass.clone(), f)
            }
            _ => panic!("LagrangianLinearTIDS only"),
        })
        .collect()
}

/// `(E, Fᵀv)`: the mechanical energy `Σ ½ vᵀMv − Fᵀq` and the power of the forces.
fn energy(nsds: &Nsds, mf: &[(nalgebra::DMatrix<f64>, DVector<f64>)]) -> (f64, f64) {
    let (mut e, mut fv) = (0.0, 0.0);
    for (ds, (m, f)) in nsds.systems().iter().zip(mf) {
        let (q, v) = (ds.state(), ds.velocity().unwrap());
        e += 0.5 * v.dot(&(m * v)) - f.dot(q);
        fv += f.dot(v);
    }
    (e, fv)
}

struct Summary {
    /// Steps where a separating contact was activated and received an impulse.
    separating_activations: usize,
    /// Steps where `E` increased beyond round-off.
    e_increases: usize,
    e0: f64,
    e_end: f64,
}

/// Runs `steps` steps and checks the energy statements of the module documentation.
fn check_energy(mut nsds: Nsds, mut sim: TimeStepping, e: f64, steps: usize) -> Summary {
    let mf = mass_and_force(&nsds);
    let (h, theta) = (sim.h(), sim.osi().theta());
    let (e0, _) = energy(&nsds, &mf);
    let tol = 1e-12 * (1.0 + e0.abs());
    let mut summary = Summary { separating_activations: 0, e_increases: 0, e0, e_end: e0 };
    for _ in 0..steps {
        let (e_k, fv_k) = energy(&nsds, &mf);
        let v_k: Vec<DVector<f64>> = nsds.systems().iter().map(|d| d.velocity().unwrap().clone()).collect();
        // ẏ_k of every interaction (the model holds the outputs of the last step)
        let ydot_k: Vec<f64> = nsds.interactions().iter().map(|i| i.y(1).unwrap()[0]).collect();
        sim.step(&mut nsds).unwrap();
        let (e_k1, fv_k1) = energy(&nsds, &mf);
        // ½ Σ pᵀ(v_k + v_{k+1})
        let impulse_work: f64 =
            nsds.systems().iter().zip(&v_k).map(|(d, v0)| 0.5 * d.input().dot(&(v0 + d.velocity().unwrap()))).sum();
        let shadow = |e: f64, fv: f64| e + (theta - 0.5) * h * fv;
        let d_shadow = shadow(e_k1, fv_k1) - shadow(e_k, fv_k);
        assert!(
            (d_shadow - impulse_work).abs() <= tol,
            "discrete energy balance at t = {}: {d_shadow:e} vs {impulse_work:e}",
            nsds.t()
        );
        let mut separating = false;
        let mut newton_term = 0.0;
        for (inter, yd) in nsds.interactions().iter().zip(&ydot_k) {
            let lambda = inter.lambda(1).unwrap()[0];
            if lambda > 0.0 {
                // a separating contact (beyond velocity round-off) with an impulse
                separating |= *yd > 1e-12;
                newton_term += 0.5 * lambda * (1.0 - e) * yd;
            }
        }
        if separating {
            summary.separating_activations += 1;
        }
        assert!((impulse_work - newton_term).abs() <= tol, "impulse work ½ λ (1 − e) ẏ_k at t = {}", nsds.t());
        assert!(
            d_shadow <= tol || separating,
            "Ẽ increased by {d_shadow:e} at t = {} without a separating activation",
            nsds.t()
        );
        let no_impulse = nsds.systems().iter().all(|d| d.input().amax() == 0.0);
        if no_impulse {
            assert!(e_k1 - e_k <= tol, "E increased without impulse, t = {}", nsds.t());
        }
        if theta == 0.5 {
            assert!(e_k1 - e_k <= tol || separating, "E increased, t = {}", nsds.t());
        }
        if e_k1 - e_k > tol {
            summary.e_increases += 1;
        }
    }
    summary.e_end = energy(&nsds, &mf).0;
    summary
}

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

#[test]
fn bouncing_ball_energy() {
    for theta in [0.5, 1.0] {
        for e in [0.0, 0.5, 0.9, 1.0] {
            let nsds = common::ball(e);
            let sim = TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(theta), lemke()).unwrap();
            let s = check_energy(nsds, sim, e, 2000);
            println!(
                "ball θ = {theta}, e = {e}: E {:.6} -> {:.6}, E increased on {} steps, \
                 separating activations {}",
                s.e0, s.e_end, s.e_increases, s.separating_activations
            );
            if theta == 0.5 && e == 1.0 {
                assert_eq!(s.e_increases, 0, "θ = ½, e = 1: E never increases");
                assert!((s.e_end - s.e0).abs() <= 1e-9, "θ = ½, e = 1 conserves E");
            }
            if e < 1.0 {
                assert!(s.e_end < 0.05 * s.e0, "θ = {theta}, e = {e}: energy dissipated");
            }
        }
    }
}

#[test]
fn column_of_beads_energy() {
    for theta in [0.5, 1.0] {
        let nsds = presets::column_of_beads(10, 0.05, 1.0, 9.81, 0.5, 0.01).unwrap();
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(theta), lemke()).unwrap();
        let s = check_energy(nsds, sim, 0.5, 1000);
        println!(
            "beads θ = {theta}: E {:.6} -> {:.6}, E increased on {} steps, separating \
             activations {}",
            s.e0, s.e_end, s.e_increases, s.separating_activations
        );
        assert!(s.e_end < s.e0);
    }
}
