//! The zero-order hold (`Osi::ZeroOrderHold`, Siconos `ZeroOrderHoldOSI`): the exact flow of a
//! linear system over each step with `b` and the control input held, checked against closed
//! forms (a rotation, a double integrator under piecewise-constant inputs, the right-endpoint
//! rule of a time-dependent `b`), a relay on it (the exact sliding and sticking of a mass under
//! Coulomb friction), and its refusals.

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
}

fn zoh_relay(nsds: &Nsds, h: f64) -> Result<TimeStepping, KernelError> {
    let relay = Osnsp::Relay(saltus_kernel::solvers::relay::RelaySolver::Lemke(Default::default()));
    TimeStepping::new(nsds, h, Osi::ZeroOrderHold, relay)
}

/// `ẋ₁ = x₂`, `ẋ₂ = b + λ` with Coulomb friction as a relay on `y = x₂`, `λ ∈ [−F, F]`.
fn friction(b: f64, f: f64, a: DMatrix<f64>) -> Nsds {
    let mut nsds = one(FirstOrderLinearTiDs::new(dvector![1.0, 0.0], a).with_b(dvector![0.0, b]));
    let rel = Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![0.0, 1.0], dmatrix![0.0; 1.0]));
    let law = NonSmoothLaw::Relay { lb: dvector![-f], ub: dvector![f] };
    nsds.add_interaction(Interaction::new("friction", DsId(0), None, rel, law)).unwrap();
    nsds
}

/// Interactions on a system integrated by zero-order hold (Siconos `ZeroOrderHoldOSI` with
/// relations: `x_{k+1} = x_free + Ψ B λ_{k+1}`, the input held over the step). A mass pushed by
/// `b = −1` against a friction `F = ½` slides with `ẍ = −½` from rest; the held `λ = F` is the
/// exact input, so every step is the parabola to round-off. Pushed by `b = −0.3 < F` it sticks,
/// `λ = 0.3`. A `Ψ` that is (nearly) singular (a rotation with `ω h = 2π` beside an integrator)
/// cannot carry an input: a typed error at the first step, not a wrong state.
#[test]
fn a_relay_on_a_zero_order_hold_system_gives_the_exact_sliding_and_sticking() {
    let double_integrator = dmatrix![0.0, 1.0; 0.0, 0.0];
    let h = 0.01;
    let mut nsds = friction(-1.0, 0.5, double_integrator.clone());
    let mut ts = zoh_relay(&nsds, h).unwrap();
    for k in 1..=200 {
        ts.step(&mut nsds).unwrap();
        let t = k as f64 * h;
        assert!((x(&nsds)[1] + 0.5 * t).abs() < 1e-13, "t = {t}: v = {}", x(&nsds)[1]);
        assert!((x(&nsds)[0] - (1.0 - 0.25 * t * t)).abs() < 1e-13, "t = {t}: x = {}", x(&nsds)[0]);
        assert!((nsds.interactions()[0].lambda(0).unwrap()[0] - 0.5).abs() < 1e-13);
    }
    let mut nsds = friction(-0.3, 0.5, double_integrator);
    let mut ts = zoh_relay(&nsds, h).unwrap();
    for _ in 0..50 {
        ts.step(&mut nsds).unwrap();
        assert!(x(&nsds)[1].abs() < 1e-15 && (x(&nsds)[0] - 1.0).abs() < 1e-15, "{}", x(&nsds));
        assert!((nsds.interactions()[0].lambda(0).unwrap()[0] - 0.3).abs() < 1e-13);
    }
    // a rotation with ω h = 2π beside an integrator: Ψ = diag(h, ≈ 0) cannot be inverted
    let w = 2.0 * std::f64::consts::PI / h;
    let a = dmatrix![0.0, 0.0, 0.0; 0.0, 0.0, w; 0.0, -w, 0.0];
    let mut nsds = one(FirstOrderLinearTiDs::new(dvector![1.0, 0.0, 0.0], a).with_b(dvector![-1.0, 0.0, 0.0]));
    let rel = Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0, 0.0, 0.0], dmatrix![1.0; 0.0; 0.0]));
    let law = NonSmoothLaw::Relay { lb: dvector![-0.5], ub: dvector![0.5] };
    nsds.add_interaction(Interaction::new("friction", DsId(0), None, rel, law)).unwrap();
    let mut ts = zoh_relay(&nsds, h).unwrap();
    match ts.step(&mut nsds) {
        Err(KernelError::SingularW { ds, .. }) => assert_eq!(ds, DsId(0)),
        other => panic!("{other:?}"),
    }
    assert_eq!(x(&nsds).as_slice(), &[1.0, 0.0, 0.0], "the state is untouched");
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
