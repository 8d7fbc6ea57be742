//! The zero-order hold (`Osi::ZeroOrderHold`, Siconos `ZeroOrderHoldOSI`): the exact flow of a
//! linear system over each step with `b` and the control input held, checked against closed
//! forms (a rotation, a double integrator under piecewise-constant inputs, the right-endpoint
//! rule of a time-dependent `b`), and its refusals.

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::model::userfn::{MatOp, TimeVecFn, VecOp};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::{
    DsId, FirstOrderLinearDs, FirstOrderLinearTiDs, FirstOrderLinearTiR, Interaction, KernelError,
    LagrangianLinearTiDs, NonSmoothLaw, Nsds, Osi, Osnsp, Relation, TimeStepping,
};
use std::sync::Arc;

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

fn zoh(nsds: &Nsds, h: f64) -> Result<TimeStepping, KernelError> {
    TimeStepping::new(nsds, h, Osi::ZeroOrderHold, lemke())
}

fn one(ds: impl Into<saltus_kernel::DynamicalSystem>) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("plant", ds).unwrap();
    nsds
}

fn x(nsds: &Nsds) -> &DVector<f64> {
    nsds.systems()[0].state()
}

/// `ẋ = [[0, ω], [−ω, 0]] x` is a rotation by `ω t`: exact at every step, whatever `h` (a θ-scheme
/// would be off by `O(h²)` per unit time: 1e-3 at `h = 0.1`).
#[test]
fn a_rotation_is_exact_at_any_step() {
    let w = 3.0;
    for h in [0.1, 0.01] {
        let mut nsds = one(FirstOrderLinearTiDs::new(dvector![1.0, 0.0], dmatrix![0.0, w; -w, 0.0]));
        let mut ts = zoh(&nsds, h).unwrap();
        let steps = (5.0 / h) as usize;
        for k in 1..=steps {
            ts.step(&mut nsds).unwrap();
            let t = k as f64 * h;
            let (c, s) = ((w * t).cos(), (w * t).sin());
            assert!((x(&nsds)[0] - c).abs() < 1e-12 && (x(&nsds)[1] + s).abs() < 1e-12, "h = {h}, t = {t}");
        }
        // the rotation keeps the norm
        assert!((x(&nsds).norm() - 1.0).abs() < 1e-12);
    }
}

/// A falling mass `ẍ = −g + u` (`b = (0, −g)`, control input `(0, u)`) under an input switched
/// between held values: the state is the parabola of each piece, to round-off, at every step.
#[test]
fn a_held_input_and_drift_are_integrated_exactly() {
    let (h, g) = (0.05, 9.81);
    let plant = FirstOrderLinearTiDs::new(dvector![1.0, 2.0], dmatrix![0.0, 1.0; 0.0, 0.0]).with_b(dvector![0.0, -g]);
    let mut nsds = one(plant);
    let mut ts = zoh(&nsds, h).unwrap();
    let (mut x0, mut v0) = (1.0, 2.0);
    for (u, n) in [(12.0, 20), (-3.0, 30), (0.0, 10)] {
        ts.set_control_input(DsId(0), &[0.0, u]).unwrap();
        let a = u - g;
        for k in 1..=n {
            ts.step(&mut nsds).unwrap();
            let t = k as f64 * h;
            let (xe, ve) = (x0 + v0 * t + 0.5 * a * t * t, v0 + a * t);
            let s = x(&nsds);
            assert!((s[0] - xe).abs() < 1e-12 * (1.0 + xe.abs()), "u = {u}, step {k}: {} vs {xe}", s[0]);
            assert!((s[1] - ve).abs() < 1e-12 * (1.0 + ve.abs()), "u = {u}, step {k}: {} vs {ve}", s[1]);
        }
        (x0, v0) = (x(&nsds)[0], x(&nsds)[1]);
    }
}

/// A `b(t)` that depends on time is held at the step's end (Siconos `ZeroOrderHoldOSI`): with
/// `A = 0`, `x_{k+1} = x_k + h b(t_{k+1})`, the right-endpoint rule, and not the exact integral.
#[test]
fn a_time_dependent_drift_is_held_at_the_step_end() {
    let h = 0.1;
    let b: TimeVecFn = Arc::new(|t: f64, out: &mut [f64]| {
        out[0] = t;
        Ok(())
    });
    let mut nsds = one(FirstOrderLinearDs::new(dvector![0.0], DMatrix::zeros(1, 1)).with_b(VecOp::Function(b)));
    let mut ts = zoh(&nsds, h).unwrap();
    let mut sum = 0.0;
    for k in 1..=10 {
        ts.step(&mut nsds).unwrap();
        sum += h * (k as f64 * h);
        assert!((x(&nsds)[0] - sum).abs() < 1e-15, "step {k}");
    }
    // Σ h t_k = h² n(n+1)/2 = 0.55 at t = 1, where ∫ t dt = 0.5
    assert!((x(&nsds)[0] - 0.55).abs() < 1e-14);
}

fn refused(r: Result<TimeStepping, KernelError>, needle: &str) {
    match r {
        Err(e) => assert!(e.to_string().contains(needle), "`{e}` lacks `{needle}`"),
        Ok(_) => panic!("expected an error containing `{needle}`"),
    }
}

#[test]
fn what_it_cannot_integrate_is_refused_by_name() {
    let a = dmatrix![0.0, 1.0; 0.0, 0.0];
    let with_mass = FirstOrderLinearTiDs::new(dvector![1.0, 0.0], a.clone()).with_mass(dmatrix![2.0, 0.0; 0.0, 1.0]);
    refused(zoh(&one(with_mass), 0.01), "identity mass");
    let a_of_t = MatOp::function(2, 2, |_t, m| {
        m.fill(0.0);
        Ok(())
    });
    refused(zoh(&one(FirstOrderLinearDs::new(dvector![1.0, 0.0], a_of_t)), 0.01), "constant A");
    let lagrangian = LagrangianLinearTiDs::new(dvector![0.0], dvector![0.0], dmatrix![1.0]);
    refused(zoh(&one(lagrangian), 0.01), "cannot be integrated by ZeroOrderHoldOSI");
    refused(zoh(&one(FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![1e300])), 1.0), "exp(A h) is not finite");
    // a relation on a system integrated by zero-order hold: a controller closes the loop instead
    let mut nsds = one(FirstOrderLinearTiDs::new(dvector![1.0, 0.0], a));
    let rel = Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0, 0.0], dmatrix![0.0; 1.0]));
    nsds.add_interaction(Interaction::new(
        "relay",
        DsId(0),
        None,
        rel,
        NonSmoothLaw::Relay { lb: dvector![-1.0], ub: dvector![1.0] },
    ))
    .unwrap();
    refused(zoh(&nsds, 0.01), "without interactions");
}

/// A run that overflows stops with a typed error at the step whose state is not finite; the
/// state stays the last finite one.
#[test]
fn an_overflowing_run_stops_with_a_typed_error_and_a_finite_state() {
    // ẋ = 400 x from 1: e^{4 t} per step of 0.01, past f64::MAX before t = 1.8
    let mut nsds = one(FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![400.0]));
    let mut ts = zoh(&nsds, 0.01).unwrap();
    let err = loop {
        match ts.step(&mut nsds) {
            Ok(_) if ts.t() < 10.0 => continue,
            Ok(_) => panic!("the run should overflow"),
            Err(e) => break e,
        }
    };
    assert!(matches!(err, KernelError::NonFinite { .. }), "{err}");
    assert!(x(&nsds).iter().all(|v| v.is_finite()) && x(&nsds)[0] > 1e300);
}
