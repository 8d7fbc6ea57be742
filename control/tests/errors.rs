//! The control toolbox refuses bad input with typed errors (what and where) and never lets a
//! non-finite value into the state.

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_control::{
    CommonSmc, ControlError, ControlManager, Controller, ExplicitTwisting, LinearModel, LuenbergerObserver, Pid,
    Sensor, SensorId,
};

/// The controllers of the double integrator `ẍ = u` with plant step 1e-3.
fn manager() -> ControlManager {
    let model = LinearModel { a: dmatrix![0.0, 1.0; 0.0, 0.0], b: dvector![0.0, 0.0] };
    ControlManager::new(2, 1e-3, Some(model)).unwrap()
}

fn invalid<T: std::fmt::Debug>(r: Result<T, ControlError>, needle: &str) {
    match r {
        Err(e @ (ControlError::Invalid { .. } | ControlError::Singular { .. })) => {
            assert!(e.to_string().contains(needle), "`{e}` lacks `{needle}`")
        }
        other => panic!("expected an error containing `{needle}`, got {other:?}"),
    }
}

fn smc(cs: DMatrix<f64>, b: DMatrix<f64>, alpha: f64) -> Controller {
    Controller::LinearSmc(CommonSmc::new(cs, b, alpha))
}

#[test]
fn period_checks() {
    invalid(ControlManager::new(2, 0.0, None).map(|_| ()), "h");
    let mut m = manager();
    invalid(m.add_sensor(Sensor::State, 0.0), "multiple of the plant step");
}

#[test]
fn controller_checks() {
    let mut m = manager();
    let y = m.add_sensor(Sensor::State, 1e-2).unwrap();
    invalid(m.add_sensor(Sensor::State, 1.5e-3), "multiple of the plant step");
    invalid(m.add_sensor(Sensor::Linear(dmatrix![1.0, 0.0, 0.0]), 1e-2), "columns");
    invalid(m.add_actuator("a", smc(dmatrix![1.0, 0.0], dmatrix![0.0; 1.0], 1.0), y, 1e-2), "Csurface B");
    invalid(m.add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 0.0), y, 1e-2), "alpha");
    invalid(m.add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![1.0], 1.0), y, 1e-2), "B is 1x1");
    let mut theta = CommonSmc::new(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 1.0);
    theta.theta = 2.0;
    invalid(m.add_actuator("a", Controller::LinearSmc(theta), y, 1e-2), "theta");
    let pid = Pid { k: [1.0, f64::NAN, 0.0], reference: 0.0, b: dmatrix![0.0; 1.0], delta_t: None };
    invalid(m.add_actuator("p", Controller::Pid(pid), y, 1e-2), "finite");
    let tw = ExplicitTwisting { gain: 1.0, beta: 1.0 };
    invalid(m.add_actuator("t", Controller::ExplicitTwisting(tw), y, 1e-2), "beta");
    let obs = LuenbergerObserver { c: dmatrix![1.0, 0.0], l: dmatrix![1.0, 0.0], xhat0: dvector![0.0, 0.0] };
    invalid(m.add_observer("o", obs, y, 1e-2), "L 2x2");
    invalid(m.add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 1.0), SensorId(7), 1e-2), "no sensor 7");
    // a partial sensor cannot feed a sliding-mode controller
    let part = m.add_sensor(Sensor::Linear(dmatrix![1.0, 0.0]), 1e-2).unwrap();
    invalid(m.add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 1.0), part, 1e-2), "full state");
    // nothing can be added once the run started
    m.instant(0, 0.0, &dvector![1.0, 0.0]).unwrap();
    invalid(m.add_sensor(Sensor::State, 1e-2), "after the simulation started");
}

/// A plant without a linear model (a rigid body's nonlinear dynamics, a nonlinear system) takes
/// a PID or a twisting controller, never a model-based one: the sliding-mode controllers and the
/// observers are refused by name.
#[test]
fn model_based_pieces_need_a_linear_model() {
    use saltus_control::ControlManager;
    let mut m = ControlManager::new(2, 1e-3, None).unwrap();
    let y = m.add_sensor(Sensor::State, 1e-2).unwrap();
    invalid(m.add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 1.0), y, 1e-2), "linear model");
    let obs = LuenbergerObserver {
        c: dmatrix![1.0, 0.0; 0.0, 1.0],
        l: dmatrix![1.0, 0.0; 0.0, 1.0],
        xhat0: dvector![0.0, 0.0],
    };
    invalid(m.add_observer("o", obs, y, 1e-2), "linear model");
    let pid = Pid { k: [1.0, 0.0, 0.0], reference: 0.0, b: dmatrix![0.0; 1.0], delta_t: None };
    m.add_actuator("p", Controller::Pid(pid), y, 1e-2).unwrap();
    invalid(
        ControlManager::new(2, 1e-3, Some(saltus_control::LinearModel { a: dmatrix![1.0], b: dvector![0.0] }))
            .map(|_| ()),
        "plant model",
    );
}
