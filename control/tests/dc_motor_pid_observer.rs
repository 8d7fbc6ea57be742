//! PID speed control of a DC motor with a Luenberger observer of the unmeasured current
//! (samples/dc_motor_pid_observer): the mathematics (zero steady-state error of the integral
//! action, observer error contracting by exactly `Φ + Ψ L C` per period at the rate of the
//! slowest observer pole) and Siconos 4.4.

mod common;
use common::{max_diff, read_csv, sample_file, ZohPlant};
use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_control::{Controller, LinearModel, LuenbergerObserver, Pid, Sensor};
use saltus_kernel::FirstOrderLinearTiDs;
use saltus_numerics::zoh::zoh_matrices;

const H: f64 = 1e-3;
const HC: f64 = 1e-2;
const J: f64 = 0.01;
const BF: f64 = 0.1;
const K: f64 = 0.01;
const R: f64 = 1.0;
const L: f64 = 0.5;

fn a() -> DMatrix<f64> {
    dmatrix![-BF / J, K / J; -K / L, -R / L]
}
/// `A + L C` has eigenvalues −20 and −30.
fn l_obs() -> DMatrix<f64> {
    dmatrix![-38.0; -503.98]
}

fn run() -> Vec<Vec<f64>> {
    let plant = FirstOrderLinearTiDs::new(dvector![0.0, 0.0], a());
    let mut sim = ZohPlant::new(plant, LinearModel { a: a(), b: DVector::zeros(2) }, H);
    let c = dmatrix![1.0, 0.0];
    let s = sim.manager.add_sensor(Sensor::Linear(c.clone()), HC).unwrap();
    let pid = Pid { k: [100.0, 200.0, 1.0], reference: 1.0, b: dmatrix![0.0; 1.0 / L], delta_t: None };
    sim.manager.add_actuator("pid", Controller::Pid(pid), s, HC).unwrap();
    let obs = LuenbergerObserver { c, l: l_obs(), xhat0: dvector![0.5, -1.0] };
    sim.manager.add_observer("obs", obs, s, HC).unwrap();
    sim.run(2000)
}

#[test]
fn pid_removes_the_steady_state_error() {
    let rows = run();
    let last = rows.last().unwrap();
    // steady state of the motor at ω = 1: i = b ω / K = 10, V = R i + K ω = 10.01
    assert!((last[1] - 1.0).abs() < 1e-4, "ω(T) = {}", last[1]);
    assert!((last[2] - BF / K).abs() < 1e-3, "i(T) = {}", last[2]);
    assert!((last[3] - (R * BF / K + K)).abs() < 1e-2, "V(T) = {}", last[3]);
}

#[test]
fn observer_error_contracts_at_the_observer_pole_rate() {
    let rows = run();
    let every = (HC / H).round() as usize;
    let (phi, psi) = zoh_matrices(&a(), HC).unwrap();
    let m = &phi + &psi * l_obs() * dmatrix![1.0, 0.0];
    let err = |r: &Vec<f64>| dvector![r[4] - r[1], r[5] - r[2]];
    let inst: Vec<_> = rows.iter().step_by(every).collect();
    // e_{k+1} = (Φ + Ψ L C) e_k exactly: the input cancels between plant and observer
    for w in inst.windows(2).take(60) {
        let (e0, e1) = (err(w[0]), err(w[1]));
        assert!((&e1 - &m * &e0).amax() < 1e-11 * (1.0 + e0.amax()), "t = {}", w[1][0]);
    }
    // asymptotic rate: −ln(‖e_{k+1}‖/‖e_k‖)/h_c → the slowest pole, 20 (ZOH: within O(h_c))
    let (e40, e60) = (err(inst[40]).norm(), err(inst[60]).norm());
    let rate = -(e60 / e40).ln() / (20.0 * HC);
    assert!((rate - 20.0).abs() < 0.1 * 20.0, "decay rate {rate}");
    assert!(err(inst[150]).amax() < 1e-9 * err(inst[0]).amax().max(1.0), "estimate converged");
}

/// Same algorithms as Siconos 4.4 (`PID`, `LuenbergerObserver`, `ControlZOHSimulation`; the
/// sample's `siconos_compare.py`): plant, input and estimate agree to 1e-9.
#[test]
fn matches_siconos_4_4() {
    let theirs = read_csv(&sample_file("dc_motor_pid_observer", "siconos.csv"));
    let ours = run();
    let d = max_diff(&ours, &theirs, 6);
    println!("max |diff| = {d:e}");
    // relative to the largest magnitudes (u reaches ~200)
    assert!(d < 1e-9 * 202.0, "max |diff| = {d:e}");
}
