//! The control toolbox refuses bad input with typed errors (what and where) and never lets a
//! non-finite value into the state.

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_control::{
    CommonSmc, ControlError, ControlZohSimulation, Controller, ExplicitTwisting, LuenbergerObserver, Pid, Sensor,
    SensorId,
};
use saltus_kernel::FirstOrderLinearTiDs;

fn double_integrator() -> FirstOrderLinearTiDs {
    FirstOrderLinearTiDs::new(dvector![1.0, 0.0], dmatrix![0.0, 1.0; 0.0, 0.0])
}

fn sim() -> ControlZohSimulation {
    ControlZohSimulation::new(&double_integrator(), 0.0, 1.0, 1e-3).unwrap()
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
fn plant_and_time_checks() {
    let p = double_integrator().with_mass(dmatrix![1.0, 0.0; 0.0, 1.0]);
    invalid(ControlZohSimulation::new(&p, 0.0, 1.0, 1e-3).map(|_| ()), "mass");
    invalid(ControlZohSimulation::new(&double_integrator(), 0.0, 1.0, 0.0).map(|_| ()), "h > 0");
    invalid(ControlZohSimulation::new(&double_integrator(), 1.0, 0.0, 1e-3).map(|_| ()), "t0 <= T");
    let nan = FirstOrderLinearTiDs::new(dvector![f64::NAN, 0.0], dmatrix![0.0, 1.0; 0.0, 0.0]);
    invalid(ControlZohSimulation::new(&nan, 0.0, 1.0, 1e-3).map(|_| ()), "finite");
    let huge = FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![1e300]);
    invalid(ControlZohSimulation::new(&huge, 0.0, 1.0, 1.0).map(|_| ()), "not finite");
}

#[test]
fn controller_checks() {
    let mut s = sim();
    let y = s.manager_mut().add_sensor(Sensor::State, 1e-2).unwrap();
    invalid(s.manager_mut().add_sensor(Sensor::State, 1.5e-3), "multiple of the plant step");
    invalid(s.manager_mut().add_sensor(Sensor::Linear(dmatrix![1.0, 0.0, 0.0]), 1e-2), "columns");
    invalid(s.manager_mut().add_actuator("a", smc(dmatrix![1.0, 0.0], dmatrix![0.0; 1.0], 1.0), y, 1e-2), "Csurface B");
    invalid(s.manager_mut().add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 0.0), y, 1e-2), "alpha");
    invalid(s.manager_mut().add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![1.0], 1.0), y, 1e-2), "B is 1x1");
    let mut theta = CommonSmc::new(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 1.0);
    theta.theta = 2.0;
    invalid(s.manager_mut().add_actuator("a", Controller::LinearSmc(theta), y, 1e-2), "theta");
    let pid = Pid { k: [1.0, f64::NAN, 0.0], reference: 0.0, b: dmatrix![0.0; 1.0], delta_t: None };
    invalid(s.manager_mut().add_actuator("p", Controller::Pid(pid), y, 1e-2), "finite");
    let tw = ExplicitTwisting { gain: 1.0, beta: 1.0 };
    invalid(s.manager_mut().add_actuator("t", Controller::ExplicitTwisting(tw), y, 1e-2), "beta");
    let obs = LuenbergerObserver { c: dmatrix![1.0, 0.0], l: dmatrix![1.0, 0.0], xhat0: dvector![0.0, 0.0] };
    invalid(s.manager_mut().add_observer("o", obs, y, 1e-2), "L 2x2");
    invalid(
        s.manager_mut().add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 1.0), SensorId(7), 1e-2),
        "no sensor 7",
    );
    // a partial sensor cannot feed a sliding-mode controller
    let part = s.manager_mut().add_sensor(Sensor::Linear(dmatrix![1.0, 0.0]), 1e-2).unwrap();
    invalid(
        s.manager_mut().add_actuator("a", smc(dmatrix![1.0, 1.0], dmatrix![0.0; 1.0], 1.0), part, 1e-2),
        "full state",
    );
    // nothing can be added once the run started
    s.advance().unwrap();
    invalid(s.manager_mut().add_sensor(Sensor::State, 1e-2), "after the simulation started");
}

#[test]
fn a_diverging_run_stops_with_a_typed_error_and_finite_state() {
    // ẋ = 400 x from x0 = 1 over 10 s: e^4000 overflows; the state stays at the last finite step.
    let p = FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![400.0]);
    let mut s = ControlZohSimulation::new(&p, 0.0, 10.0, 0.01).unwrap();
    let err = loop {
        match s.advance() {
            Ok(true) => continue,
            Ok(false) => panic!("the run should overflow"),
            Err(e) => break e,
        }
    };
    assert!(matches!(err, ControlError::NonFinite { .. }), "{err}");
    assert!(err.to_string().contains("plant state"), "{err}");
    assert!(s.state().iter().all(|v| v.is_finite()));
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
