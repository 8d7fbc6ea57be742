//! Semi-explicit (symplectic) Euler as a kernel integrator (`Osi::SemiExplicitEuler`):
//! `u_{k+1} = u_k + h M⁻¹ F(t_k, q_k, u_k) + M⁻¹ p`, `q_{k+1} = q_k + h N(q_k) u_{k+1}`.
//! Checked against mathematics: the same numbers as the independent `numerics::ode` symplectic
//! Euler, first order against a DOPRI5 reference, bounded energy error without secular drift
//! over a long run, the exact drift law of a velocity-level bilateral constraint (O(h), growing
//! linearly in time) and its removal by the projection, the Newton impact law, the implicit
//! form with damping, and the kinematics map N(q).

mod common;

use nalgebra::{dvector, DMatrix};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::{
    ForceFn, KernelError, LagrangianDs, LagrangianLinearTiDs, Mass, Nsds, Osi, Osnsp, ProjectionOptions, TimeStepping,
    TimeSteppingDirectProjection, VelocityUpdate,
};
use saltus_numerics::ode::{Integrator, OdeMethod, OdeOptions, OdeSystem, UserFnError};

const G: f64 = 9.81;

/// The pendulum in its angle, `θ̈ = −g sin θ` (m = l = 1), as a `LagrangianDS` with
/// `F_int = g sin θ` (and an optional velocity term `c θ̇³`).
fn angle_pendulum(theta0: f64, v0: f64, c: f64) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let f = ForceFn::new(
        move |_, q, v, out| {
            out[0] = G * q[0].sin() + c * v[0].powi(3);
            Ok(())
        },
        |_, q, _, j| {
            j[(0, 0)] = G * q[0].cos();
            Ok(())
        },
        move |_, _, v, j| {
            j[(0, 0)] = 3.0 * c * v[0] * v[0];
            Ok(())
        },
    );
    let ds = LagrangianDs::new(dvector![theta0], dvector![v0], Mass::Constant(DMatrix::identity(1, 1))).with_f_int(f);
    nsds.add_ds("pendulum", ds).unwrap();
    nsds
}

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

/// Runs `nsds` for `n` steps, returning `(q, v)` after each step.
fn run(nsds: &mut Nsds, ts: &mut TimeStepping, n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|_| {
            ts.step(nsds).unwrap();
            let ds = &nsds.systems()[0];
            (ds.state()[0], ds.velocity().unwrap()[0])
        })
        .collect()
}

struct AnglePendulum;
impl OdeSystem for AnglePendulum {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        dy[0] = y[1];
        dy[1] = -G * y[0].sin();
        Ok(())
    }
}

/// The kernel integrator and `numerics::ode`'s `SymplecticEuler` (separate code, same scheme)
/// give the same trajectory.
#[test]
fn same_trajectory_as_the_numerics_symplectic_euler() {
    let h = 1e-2;
    let mut nsds = angle_pendulum(1.0, 0.0, 0.0);
    let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), lemke()).unwrap();
    let traj = run(&mut nsds, &mut ts, 500);
    let opts = OdeOptions { method: OdeMethod::SymplecticEuler { h, n_q: 1 }, ..Default::default() };
    let mut ode = Integrator::new(AnglePendulum, 0.0, &[1.0, 0.0], opts).unwrap();
    for (k, (q, v)) in traj.iter().enumerate() {
        ode.step_until((k + 1) as f64 * h).unwrap();
        let y = ode.y();
        assert!((q - y[0]).abs() <= 1e-12 && (v - y[1]).abs() <= 1e-12, "step {k}: ({q}, {v}) vs {y:?}");
    }
}

/// First order in h against a tight DOPRI5 reference (ratios of successive errors ≈ 2).
#[test]
fn first_order_against_a_reference() {
    let tf = 5.0;
    let mut opts = OdeOptions::with_tol(1e-12, 1e-12);
    opts.method = OdeMethod::Dopri5;
    let mut ode = Integrator::new(AnglePendulum, 0.0, &[1.0, 0.0], opts).unwrap();
    ode.step_until(tf).unwrap();
    let yref = ode.y().to_vec();
    let err = |h: f64| {
        let mut nsds = angle_pendulum(1.0, 0.0, 0.0);
        let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), lemke()).unwrap();
        let (q, v) = *run(&mut nsds, &mut ts, (tf / h).round() as usize).last().unwrap();
        (q - yref[0]).abs().max((v - yref[1]).abs())
    };
    let e = [err(4e-3), err(2e-3), err(1e-3)];
    eprintln!("errors at h = 4e-3, 2e-3, 1e-3: {e:?}");
    for w in e.windows(2) {
        let ratio = w[0] / w[1];
        assert!((ratio - 2.0).abs() < 0.2, "error ratio {ratio} ({:e} / {:e})", w[0], w[1]);
    }
}

/// Symplectic: over 300 periods the energy error is an O(h) oscillation (halving h halves it)
/// whose envelope and mean do not drift (first and last 20 periods agree), while
/// Moreau–Jean θ = 1 (not symplectic) loses energy steadily at the same h.
#[test]
fn energy_bounded_without_secular_drift() {
    let energy = |(q, v): (f64, f64)| 0.5 * v * v - G * q.cos();
    let e0 = energy((1.0, 0.0));
    let errors = |h: f64, n: usize| -> Vec<f64> {
        let mut nsds = angle_pendulum(1.0, 0.0, 0.0);
        let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), lemke()).unwrap();
        run(&mut nsds, &mut ts, n).into_iter().map(|s| energy(s) - e0).collect()
    };
    let amax = |s: &[f64]| s.iter().fold(0.0f64, |a, e| a.max(e.abs()));
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    let (h, n) = (1e-2, 60_000); // T = 600 s, about 300 periods of 2.0 s
    let err = errors(h, n);
    let window = 4000; // 40 s, about 20 periods
    let (first, last) = (&err[..window], &err[n - window..]);
    let max = amax(&err);
    eprintln!(
        "max |E - E0| = {max:e}; first / last 40 s: max {:e} / {:e}, mean {:e} / {:e}",
        amax(first),
        amax(last),
        mean(first),
        mean(last)
    );
    assert!(max < h * G, "energy error {max:e} is not O(h)");
    let envelope = amax(last) / amax(first);
    assert!((envelope - 1.0).abs() < 0.05, "the oscillation grows or decays: {envelope}");
    assert!((mean(first) - mean(last)).abs() < 0.05 * max, "secular drift of the mean");
    // O(h): halving h halves the oscillation
    let half = amax(&errors(h / 2.0, 2 * window));
    assert!((amax(first) / half - 2.0).abs() < 0.1, "{:e} vs {half:e}", amax(first));
    // Moreau–Jean θ = 1 at the same h: a steady loss much larger than the symplectic oscillation
    let mut nsds = angle_pendulum(1.0, 0.0, 0.0);
    let mut ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(1.0), lemke()).unwrap();
    let last_mj = energy(*run(&mut nsds, &mut ts, 6000).last().unwrap()) - e0;
    assert!(last_mj < -10.0 * max, "theta = 1 after 60 s: {last_mj:e}");
}

/// Cartesian pendulum (m = l = 1, h(q) = (x² + y² − l²)/(2l) = 0, EqualityConditionNSL,
/// Equality problem), released at 60°.
fn cartesian_pendulum() -> Nsds {
    let a = 60f64.to_radians();
    common::cartesian_pendulum(dvector![a.sin(), -a.cos()])
}

fn rod(nsds: &Nsds) -> (f64, f64, f64) {
    let ds = &nsds.systems()[0];
    let (q, v) = (ds.state(), ds.velocity().unwrap());
    ((q[0] * q[0] + q[1] * q[1] - 1.0) / 2.0, q[0] * v[0] + q[1] * v[1], v[0] * v[0] + v[1] * v[1])
}

/// Without projection: `∇h(q_{k+1}) u_{k+1} = 0` and `q_{k+1} = q_k + h u_{k+1}` give exactly
/// `h(q_{k+1}) − h(q_k) = −h²|u_{k+1}|²/(2l)`: the rod shortens at every step, linearly in time
/// and by O(h) over a fixed horizon. Returns `h(q)` at T/2 and T.
fn drift(h: f64, t_end: f64) -> (f64, f64) {
    let mut nsds = cartesian_pendulum();
    let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), Osnsp::Equality).unwrap();
    let n = (t_end / h).round() as usize;
    let (mut law, mut half) = (0.0, 0.0);
    for k in 1..=n {
        ts.step(&mut nsds).unwrap();
        let (hq, hv, v2) = rod(&nsds);
        law -= h * h * v2 / 2.0;
        assert!(hv.abs() < 1e-9, "grad h . v = {hv:e} at step {k}");
        assert!((hq - law).abs() <= 1e-7 * law.abs() + 1e-13, "step {k}: h(q) = {hq:e}, law {law:e}");
        if k == n / 2 {
            half = hq;
        }
    }
    (half, rod(&nsds).0)
}

#[test]
fn bilateral_drift_is_first_order_and_grows_linearly() {
    let (half1, full1) = drift(1e-3, 4.3);
    let (_, full2) = drift(5e-4, 4.3);
    eprintln!("h(q) at T: {full1:e} (h = 1e-3), {full2:e} (h = 5e-4); at T/2 {half1:e}");
    let order = (full1 / full2).log2();
    assert!((order - 1.0).abs() < 0.05, "drift order {order}");
    // linear growth: the mean of |v|² over a whole period is constant (T/2 ≈ one period, 2.15 s)
    let growth = full1 / half1;
    assert!((growth - 2.0).abs() < 0.1, "drift(T) / drift(T/2) = {growth}");
}

/// With the projection (positions then velocities) the violation stays ≤ tol at every step;
/// a looser tolerance leaves a larger violation (the stopping test is honoured, not exceeded).
#[test]
fn projection_holds_the_constraint_to_its_tolerance() {
    let worst = |tol: f64| {
        let mut nsds = cartesian_pendulum();
        let opts = ProjectionOptions { tol, ..Default::default() };
        let mut sim =
            TimeSteppingDirectProjection::new(&nsds, 2e-3, Osi::semi_explicit_euler(), Osnsp::Equality, opts).unwrap();
        let mut worst: f64 = 0.0;
        for _ in 0..2000 {
            let rep = sim.step(&mut nsds).unwrap();
            let (hq, hv, _) = rod(&nsds);
            assert!(hq.abs() <= tol, "|h(q)| = {hq:e} > {tol:e}");
            assert!(hv.abs() <= 1e-12, "grad h . v = {hv:e}");
            assert!(rep.projection.unwrap().converged);
            worst = worst.max(hq.abs());
        }
        worst
    };
    let (tight, loose) = (worst(1e-12), worst(1e-6));
    eprintln!("max |h(q)| with tol 1e-12: {tight:e}, with tol 1e-6: {loose:e}");
    assert!(loose > 1e3 * tight);
}

/// A ball dropped on the ground (Newton impact law, e = 0.5): the impact step gives
/// `ẏ_{k+1} = −e ẏ_k`; as with Moreau–Jean (same activation `y + γ h ẏ ≤ 0`), the ball sinks
/// by at most `(1 − γ) h |ẏ|` before the impact.
#[test]
fn newton_impact_through_the_one_step_problem() {
    let (h, e) = (1e-3, 0.5);
    let (mut nsds, _, _) = saltus_kernel::presets::lagrangian_contact(
        DMatrix::identity(1, 1),
        dvector![0.5],
        dvector![0.0],
        DMatrix::identity(1, 1),
        None,
        e,
        Some(dvector![-G]),
    )
    .unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), lemke()).unwrap();
    let mut impacts = 0;
    let mut v_prev = 0.0;
    for _ in 0..1500 {
        let rep = ts.step(&mut nsds).unwrap();
        let (q, v) = (nsds.systems()[0].state()[0], nsds.systems()[0].velocity().unwrap()[0]);
        assert!(q > -0.5 * h * (2.0 * G * 0.5f64).sqrt() - G * h * h, "penetration {q:e}");
        if rep.osnsp.is_some() && nsds.interactions()[0].lambda(1).unwrap()[0] > 0.0 {
            assert!((v + e * v_prev).abs() <= 1e-12, "post-impact {v} vs -e * {v_prev}");
            impacts += 1;
        }
        v_prev = v;
    }
    assert!(impacts >= 2, "{impacts} impacts");
}

/// Damping `M u̇ = −C u` with `h C/M = 5`: the explicit form multiplies u by `1 − hC/M = −4`
/// per step (unstable), the implicit-in-u form by `1/(1 + hC/M) = 1/6`.
#[test]
fn implicit_in_u_is_stable_with_damping() {
    let (h, c) = (0.05, 100.0);
    let factor = |update| {
        let mut nsds = Nsds::new(0.0);
        let ds = LagrangianLinearTiDs::new(dvector![0.0], dvector![1.0], DMatrix::identity(1, 1))
            .with_c(DMatrix::from_element(1, 1, c));
        nsds.add_ds("d", ds).unwrap();
        let mut ts =
            TimeStepping::new(&nsds, h, Osi::SemiExplicitEuler { gamma: 0.5, update }, Osnsp::Equality).unwrap();
        ts.step(&mut nsds).unwrap();
        let v1 = nsds.systems()[0].velocity().unwrap()[0];
        let q1 = nsds.systems()[0].state()[0];
        assert_eq!(q1, h * v1, "q_1 = q_0 + h u_1");
        v1
    };
    assert!((factor(VelocityUpdate::Explicit) + 4.0).abs() < 1e-14);
    assert!((factor(VelocityUpdate::Implicit) - 1.0 / 6.0).abs() < 1e-14);
    // a force nonlinear in u (c θ̇³): the implicit equation M(u1 − u0) = h F(q0, u1) is solved
    let mut nsds = angle_pendulum(1.0, 3.0, 2.0);
    let update = VelocityUpdate::Implicit;
    let mut ts = TimeStepping::new(&nsds, 0.1, Osi::SemiExplicitEuler { gamma: 0.5, update }, lemke()).unwrap();
    ts.step(&mut nsds).unwrap();
    let (q1, u1) = (nsds.systems()[0].state()[0], nsds.systems()[0].velocity().unwrap()[0]);
    let residual = (u1 - 3.0) - 0.1 * (-G * 1f64.sin() - 2.0 * u1.powi(3));
    assert!(residual.abs() < 1e-9, "implicit residual {residual:e}");
    assert!((q1 - (1.0 + 0.1 * u1)).abs() < 1e-15);
}

/// `q̇ = N(q) u` with a user map on the system (`LagrangianDs::with_kinematics`):
/// `q_{k+1} = q_k + h N(q_k) u_{k+1}`; refused by Moreau–Jean–Bilbao, and a compliant relation
/// on such a system is refused by the model (its linearization is written in `q̇ = v`).
#[test]
fn kinematics_map() {
    let h = 0.1;
    let mut nsds = Nsds::new(0.0);
    // N(q) = [[q1, 0], [1, 2]]
    let n_map = |_: f64, q: &[f64], n: &mut DMatrix<f64>| {
        n[(0, 0)] = q[1];
        n[(1, 0)] = 1.0;
        n[(1, 1)] = 2.0;
        Ok(())
    };
    let ds = LagrangianDs::new(dvector![1.0, 2.0], dvector![0.5, -1.0], Mass::Constant(DMatrix::identity(2, 2)))
        .with_f_ext(dvector![1.0, 0.0])
        .with_kinematics(n_map);
    let id = nsds.add_ds("free", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), Osnsp::Equality).unwrap();
    let (mut q, mut u) = ([1.0, 2.0], [0.5, -1.0]);
    for _ in 0..5 {
        ts.step(&mut nsds).unwrap();
        u[0] += h * 1.0;
        q = [q[0] + h * q[1] * u[0], q[1] + h * (u[0] + 2.0 * u[1])];
        let ds = &nsds.systems()[0];
        assert!((ds.state()[0] - q[0]).abs() < 1e-14 && (ds.state()[1] - q[1]).abs() < 1e-14);
        assert!((ds.velocity().unwrap()[0] - u[0]).abs() < 1e-14);
    }
    let bilbao = TimeStepping::new(&nsds, h, Osi::MoreauJeanBilbao, Osnsp::Equality);
    assert!(matches!(bilbao, Err(KernelError::UnsupportedSystem { .. })), "{:?}", bilbao.err());
    let ground = nsds
        .add_ds("ground", LagrangianDs::new(dvector![0.0], dvector![0.0], Mass::Constant(DMatrix::identity(1, 1))))
        .unwrap();
    let rel = saltus_kernel::Relation::LagrangianCompliantLinearTi(saltus_kernel::LagrangianCompliantLinearTiR::new(
        DMatrix::from_row_slice(1, 3, &[1.0, 0.0, -1.0]),
        DMatrix::from_element(1, 1, 1e-3),
    ));
    // a compliant relation acts through H = C N(q) as a rigid one does
    nsds.link("tie", id, Some(ground), rel, saltus_kernel::NonSmoothLaw::EqualityCondition { size: 1 }).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::semi_explicit_euler(), Osnsp::Equality).unwrap();
    ts.step(&mut nsds).unwrap();
}

/// γ outside [0, 1] and a first-order system are refused before the run.
#[test]
fn validation() {
    let nsds = angle_pendulum(1.0, 0.0, 0.0);
    let bad = Osi::SemiExplicitEuler { gamma: 2.0, update: VelocityUpdate::Explicit };
    assert!(TimeStepping::new(&nsds, 1e-3, bad, lemke()).is_err());
    let mut fo = Nsds::new(0.0);
    fo.add_ds("x", saltus_kernel::FirstOrderLinearTiDs::new(dvector![1.0], DMatrix::identity(1, 1))).unwrap();
    let err = TimeStepping::new(&fo, 1e-3, Osi::semi_explicit_euler(), lemke()).err().unwrap();
    assert!(err.to_string().contains("SemiExplicitEuler"), "{err}");
}
