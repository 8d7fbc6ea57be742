//! Sliding-mode control of the double integrator `ẍ = u`, `σ = x + ẋ`, `α = 2`
//! (samples/smc_double_integrator): the mathematics (finite-time reaching, the implicit form
//! is chattering-free, the explicit one chatters with amplitude O(h_c)) and Siconos 4.4.

mod common;
use common::{max_diff, read_csv, sample_file, ZohPlant};
use nalgebra::{dmatrix, dvector, DVector};
use saltus_control::{CommonSmc, Controller, LinearModel, Sensor};
use saltus_kernel::FirstOrderLinearTiDs;

const H: f64 = 1e-3;
const HC: f64 = 1e-2;

fn run(implicit: bool) -> Vec<Vec<f64>> {
    run_sat(implicit, None)
}

/// With `Some(d)`: the saturation matrix `D = [d]`.
fn run_sat(implicit: bool, d: Option<f64>) -> Vec<Vec<f64>> {
    let a = dmatrix![0.0, 1.0; 0.0, 0.0];
    let plant = FirstOrderLinearTiDs::new(dvector![1.0, 0.0], a.clone());
    let mut sim = ZohPlant::new(plant, LinearModel { a, b: DVector::zeros(2) }, H);
    let s = sim.manager.add_sensor(Sensor::State, HC).unwrap();
    let mut smc = CommonSmc::new(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 2.0);
    smc.saturation = d.map(|d| dmatrix![d]);
    let ctrl = if implicit { Controller::LinearSmc(smc) } else { Controller::ExplicitLinearSmc(smc) };
    sim.manager.add_actuator("smc", ctrl, s, HC).unwrap();
    let rows = sim.run(3000);
    assert_eq!(sim.manager.report().not_converged, 0);
    rows
}

fn sigma(r: &[f64]) -> f64 {
    r[1] + r[2]
}

/// Reaching phase: with |u| = α = 2 and σ(0) = 1, σ̇ = ẋ + u; the surface is reached before
/// the bound t_r ≤ σ(0) / (α − max|ẋ|) of the reaching condition σσ̇ ≤ −(α − |ẋ|)|σ|.
#[test]
fn implicit_smc_reaches_the_surface_and_stays_at_round_off() {
    let rows = run(true);
    let every = (HC / H).round() as usize;
    // first control instant with |σ| at round-off
    let reach = rows.iter().step_by(every).position(|r| sigma(r).abs() < 1e-12).expect("surface reached");
    let t_reach = rows[reach * every][0];
    let vmax = rows.iter().map(|r| r[2].abs()).fold(0.0, f64::max);
    assert!(vmax < 2.0);
    assert!(t_reach > 0.0 && t_reach <= 1.0 / (2.0 - vmax) + HC, "t_reach = {t_reach}, bound {}", 1.0 / (2.0 - vmax));
    // after reaching, σ at every control instant stays at round-off (no chattering) ...
    for r in rows.iter().step_by(every).skip(reach) {
        assert!(sigma(r).abs() < 1e-13, "t = {}: σ = {:e}", r[0], sigma(r));
    }
    // ... and between instants the held input leaves only the O(h_c²) drift of σ̇ = ẋ + u.
    for r in &rows[reach * every..] {
        assert!(sigma(r).abs() < HC * HC, "t = {}: σ = {:e}", r[0], sigma(r));
    }
    // on the surface ẋ = −x: x decays like e^{−t}
    let last = rows.last().unwrap();
    let at_reach = &rows[reach * every];
    let expect = at_reach[1] * (-(last[0] - at_reach[0])).exp();
    assert!((last[1] - expect).abs() < 1e-3 * at_reach[1].abs(), "x(T) = {}, e^(-t) law {}", last[1], expect);
}

#[test]
fn explicit_smc_chatters_with_amplitude_of_order_hc() {
    let rows = run(false);
    let tail = &rows[rows.len() / 2..];
    let amp = tail.iter().map(|r| sigma(r).abs()).fold(0.0, f64::max);
    // chattering: σ keeps switching sign, with |σ| between ~α h_c / 4 and a few α h_c
    let switches = tail.windows(2).filter(|w| sigma(&w[0]) * sigma(&w[1]) < 0.0).count();
    assert!(switches > 20, "switches {switches}");
    assert!(amp > 0.25 * 2.0 * HC && amp < 4.0 * 2.0 * HC, "amplitude {amp:e}");
    let us: Vec<f64> = tail.iter().map(|r| r[3]).collect();
    assert!(us.iter().any(|&u| u > 1.0) && us.iter().any(|&u| u < -1.0), "the input keeps switching");
}

/// Same algorithms as Siconos 4.4 (`ControlZOHSimulation`, `LinearSMC`/`ExplicitLinearSMC`, with
/// and without the saturation matrix `D`; the sample's `siconos_compare.py`): trajectories and
/// inputs agree to 1e-9.
#[test]
fn matches_siconos_4_4() {
    for (implicit, d, file) in [
        (true, None, "siconos_implicit.csv"),
        (false, None, "siconos_explicit.csv"),
        (true, Some(0.05), "siconos_implicit_sat.csv"),
        (false, Some(0.05), "siconos_explicit_sat.csv"),
    ] {
        let theirs = read_csv(&sample_file("smc_double_integrator", file));
        let ours = run_sat(implicit, d);
        let d = max_diff(&ours, &theirs, 4);
        println!("{file}: max |diff| = {d:e}");
        assert!(d < 1e-9, "{file}: max |diff| = {d:e}");
    }
}

/// With the saturation `D` (boundary layer `|σ| ≤ D`), the explicit law is linear inside the
/// layer, `u^s = −σ/D`: no chattering, σ contracts at every sample.
#[test]
fn saturated_explicit_smc_does_not_chatter() {
    let rows = run_sat(false, Some(0.05));
    let tail = &rows[rows.len() / 2..];
    let switches = tail.windows(2).filter(|w| (w[0][3] - w[1][3]).abs() > 0.5).count();
    assert_eq!(switches, 0, "the input jumps");
    let amp = tail.iter().map(|r| sigma(r).abs()).fold(0.0, f64::max);
    assert!(amp < 1e-2 * HC, "|σ| = {amp:e}");
}
