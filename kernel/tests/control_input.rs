//! The control input term of a time stepping (`TimeStepping::set_control_input`, Siconos's
//! actuators' `B u`): held over the steps until set again, added to the vector field of a
//! first-order system or to the forces of a Lagrangian one. Checked against closed forms: the
//! θ = ½ schemes integrate a double integrator under a piecewise-constant input exactly
//! (the solution is a quadratic in t), the semi-explicit Euler follows its own recurrence.

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::{
    FirstOrderLinearTiDs, KernelError, LagrangianDs, LagrangianLinearTiDs, Mass, Nsds, Osi, Osnsp, TimeStepping,
};

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

/// Exact double integrator `ẍ = a` piecewise: `(x, v)` after `t` from `(x0, v0)`.
fn exact(x0: f64, v0: f64, a: f64, t: f64) -> (f64, f64) {
    (x0 + v0 * t + 0.5 * a * t * t, v0 + a * t)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

/// Runs 20 steps under `a1`, then 30 under `a2`, checking every step against the exact motion;
/// `state` reads `(x, v)` of system 0.
fn piecewise(
    nsds: &mut Nsds,
    ts: &mut TimeStepping,
    h: f64,
    input: impl Fn(f64) -> Vec<f64>,
    state: impl Fn(&Nsds) -> (f64, f64),
) {
    let (a1, a2) = (0.7, -1.3);
    let (mut x0, mut v0) = state(nsds);
    let ds = saltus_kernel::DsId(0);
    for (a, n) in [(a1, 20), (a2, 30)] {
        ts.set_control_input(ds, &input(a)).unwrap();
        for k in 1..=n {
            ts.step(nsds).unwrap();
            let (x, v) = state(nsds);
            let (xe, ve) = exact(x0, v0, a, k as f64 * h);
            assert!(close(x, xe) && close(v, ve), "a = {a}, step {k}: ({x}, {v}) vs ({xe}, {ve})");
        }
        (x0, v0) = state(nsds);
    }
}

#[test]
fn euler_moreau_half_integrates_a_held_input_exactly() {
    let h = 0.05;
    let mut nsds = Nsds::new(0.0);
    let ds = FirstOrderLinearTiDs::new(dvector![1.0, -0.5], dmatrix![0.0, 1.0; 0.0, 0.0]);
    nsds.add_ds("plant", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::euler_moreau(0.5), lemke()).unwrap();
    let x = |n: &Nsds| (n.systems()[0].state()[0], n.systems()[0].state()[1]);
    piecewise(&mut nsds, &mut ts, h, |a| vec![0.0, a], x);
}

#[test]
fn moreau_jean_half_adds_the_input_to_the_forces() {
    let h = 0.05;
    let m = 2.0;
    let qv = |n: &Nsds| (n.systems()[0].state()[0], n.systems()[0].velocity().unwrap()[0]);
    // linear time-invariant, with a constant F_ext the input adds to
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![0.3], dvector![2.0], DMatrix::from_element(1, 1, m))
        .with_f_ext(saltus_kernel::VecOp::Constant(dvector![0.5 * m]));
    nsds.add_ds("ball", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lemke()).unwrap();
    // F_ext / m = 0.5 plus g / m = a − 0.5
    piecewise(&mut nsds, &mut ts, h, |a| vec![(a - 0.5) * m], qv);
    // the nonlinear form (Newton loop)
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianDs::new(dvector![0.3], dvector![2.0], Mass::Constant(DMatrix::from_element(1, 1, m)));
    nsds.add_ds("ball", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lemke()).unwrap();
    piecewise(&mut nsds, &mut ts, h, |a| vec![a * m], qv);
}

/// Semi-explicit Euler: `v_{k+1} = v_k + h g/m`, `q_{k+1} = q_k + h v_{k+1}`.
#[test]
fn semi_explicit_euler_takes_the_input_at_the_start_of_the_step() {
    let h = 0.01;
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![0.0], dvector![1.0], DMatrix::from_element(1, 1, 4.0));
    nsds.add_ds("ball", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), lemke()).unwrap();
    ts.set_control_input(saltus_kernel::DsId(0), &[8.0]).unwrap();
    let n = 100;
    for _ in 0..n {
        ts.step(&mut nsds).unwrap();
    }
    let (q, v) = (nsds.systems()[0].state()[0], nsds.systems()[0].velocity().unwrap()[0]);
    let nf = n as f64;
    assert!(close(v, 1.0 + nf * h * 2.0), "v = {v}");
    assert!(close(q, nf * h + h * h * 2.0 * nf * (nf + 1.0) / 2.0), "q = {q}");
}

#[test]
fn a_wrong_or_non_finite_input_is_refused_and_names_the_system() {
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("plant", FirstOrderLinearTiDs::new(dvector![1.0, 0.0], DMatrix::zeros(2, 2))).unwrap();
    let mut ts = TimeStepping::new(&nsds, 0.1, Osi::euler_moreau(0.5), lemke()).unwrap();
    let ds = saltus_kernel::DsId(0);
    for bad in [vec![1.0], vec![0.0, f64::NAN]] {
        match ts.set_control_input(ds, &bad) {
            Err(KernelError::UnsupportedSystem { ds: d, .. }) => assert_eq!(d, ds),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    assert!(ts.set_control_input(saltus_kernel::DsId(3), &[0.0, 0.0]).is_err());
    // the state is untouched by a refused input
    ts.step(&mut nsds).unwrap();
    assert_eq!(nsds.systems()[0].state().as_slice(), &[1.0, 0.0]);
}
