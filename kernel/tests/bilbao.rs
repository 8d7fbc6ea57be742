//! Moreau–Jean–Bilbao (Siconos `MoreauJeanBilbaoOSI`) on diagonal linear systems: the free
//! damped oscillation `q̈ + 2σ q̇ + ω² q = 0` is exact at the step times for any `h` (under-,
//! critically and over-damped modes, an undamped one and a pure damper, `M ≠ I`), a constant
//! force only shifts the equilibrium (exact too), impacts obey Newton's law, and the integrator
//! sits beside Moreau–Jean in one simulation (the guitar of Siconos's Music tutorial: a modal
//! string by Bilbao, the frets' bodies by Moreau–Jean).

use nalgebra::{DMatrix, DVector};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::{
    DsId, KernelError, LagrangianDs, LagrangianLinearTiDs, LagrangianLinearTiR, Mass, NonSmoothLaw, Nsds, Osi, Osnsp,
    Relation, TimeStepping, VecOp,
};

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

/// Exact `q(t)` of `q̈ + 2σ q̇ + ω² q = 0`, `q(0) = q0`, `q̇(0) = v0`.
fn exact(omega2: f64, sigma: f64, q0: f64, v0: f64, t: f64) -> f64 {
    let d = sigma * sigma - omega2;
    let decay = (-sigma * t).exp();
    if d.abs() < 1e-14 {
        decay * (q0 + (v0 + sigma * q0) * t)
    } else if d > 0.0 {
        let r = d.sqrt();
        decay * (q0 * (r * t).cosh() + (v0 + sigma * q0) / r * (r * t).sinh())
    } else {
        let w = (-d).sqrt();
        decay * (q0 * (w * t).cos() + (v0 + sigma * q0) / w * (w * t).sin())
    }
}

#[test]
fn free_damped_modes_are_exact_at_every_step() {
    // (M, K, C) per mode: ω² = K/M, σ = C/(2M); ω h up to 2 (far beyond Moreau–Jean's accuracy)
    let modes = [(2.0, 2.0 * 1600.0, 2.0 * 2.0 * 3.0), (1.0, 400.0, 0.0), (0.5, 0.5 * 25.0, 0.5 * 2.0 * 5.0)];
    let modes = [modes[0], modes[1], modes[2], (1.5, 1.5 * 9.0, 1.5 * 2.0 * 7.0), (1.0, 0.0, 2.0 * 4.0)];
    let h = 0.05;
    let q0 = [1.0, -0.5, 0.3, 0.8, 0.0];
    let vexact = [2.0, 1.0, -1.0, 0.5, 3.0];
    // the scheme's velocity is the backward difference (q_k − q_{k−1}) / h: start from the exact one
    let v0: Vec<f64> = (0..5)
        .map(|i| {
            let (m, k, c) = modes[i];
            (q0[i] - exact(k / m, c / (2.0 * m), q0[i], vexact[i], -h)) / h
        })
        .collect();
    let diag = |f: fn(&(f64, f64, f64)) -> f64| DMatrix::from_diagonal(&DVector::from_iterator(5, modes.iter().map(f)));
    let ds = LagrangianLinearTiDs::new(DVector::from_row_slice(&q0), DVector::from_row_slice(&v0), diag(|m| m.0))
        .with_k(diag(|m| m.1))
        .with_c(diag(|m| m.2));
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("modes", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::MoreauJeanBilbao, lemke()).unwrap();
    for k in 1..=400 {
        ts.step(&mut nsds).unwrap();
        let q = nsds.systems()[0].state();
        for i in 0..5 {
            let (m, kk, c) = modes[i];
            let e = exact(kk / m, c / (2.0 * m), q0[i], vexact[i], k as f64 * h);
            assert!((q[i] - e).abs() <= 1e-11 * (1.0 + e.abs()), "mode {i}, step {k}: {} vs exact {e}", q[i]);
        }
    }
    // Moreau–Jean θ = ½ on the same stiff mode is far off (the check can fail)
    let ds = LagrangianLinearTiDs::new(DVector::from_row_slice(&[1.0]), DVector::from_row_slice(&[v0[0]]), diag1(2.0))
        .with_k(diag1(3200.0))
        .with_c(diag1(12.0));
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("mode", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut worst: f64 = 0.0;
    for k in 1..=40 {
        ts.step(&mut nsds).unwrap();
        worst = worst.max((nsds.systems()[0].state()[0] - exact(1600.0, 3.0, 1.0, 2.0, k as f64 * h)).abs());
    }
    assert!(worst > 1e-2, "Moreau–Jean {worst}");
}

fn diag1(x: f64) -> DMatrix<f64> {
    DMatrix::from_element(1, 1, x)
}

/// A constant force shifts the equilibrium to `F/K`: the motion about it stays exact.
#[test]
fn constant_force_shifts_the_equilibrium_exactly() {
    let (m, k, c, f, h) = (2.0, 50.0, 1.0, 10.0, 0.1);
    let (omega2, sigma, qs) = (k / m, c / (2.0 * m), f / k);
    let (q0, v_true) = (0.0, 0.0);
    let v0 = (q0 - (qs + exact(omega2, sigma, q0 - qs, v_true, -h))) / h;
    let ds = LagrangianLinearTiDs::new(DVector::from_element(1, q0), DVector::from_element(1, v0), diag1(m))
        .with_k(diag1(k))
        .with_c(diag1(c))
        .with_f_ext(VecOp::Constant(DVector::from_element(1, f)));
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("m", ds).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::MoreauJeanBilbao, lemke()).unwrap();
    for n in 1..=200 {
        ts.step(&mut nsds).unwrap();
        let e = qs + exact(omega2, sigma, q0 - qs, v_true, n as f64 * h);
        assert!((nsds.systems()[0].state()[0] - e).abs() <= 1e-12, "step {n}");
    }
}

/// A mode pushed against a stop (`y = q + 0.1 ≥ 0`, `e = ½`): Newton's law at the impact step,
/// and the stop holds.
#[test]
fn impacts_on_a_stop_follow_newtons_law() {
    let h = 1e-3;
    let ds = LagrangianLinearTiDs::new(DVector::from_element(1, 0.0), DVector::from_element(1, -2.0), diag1(1.0))
        .with_k(diag1(100.0));
    let mut nsds = Nsds::new(0.0);
    let d = nsds.add_ds("mode", ds).unwrap();
    let rel = LagrangianLinearTiR::new(diag1(1.0)).with_b(DVector::from_element(1, 0.1));
    nsds.link("stop", d, None, Relation::LagrangianLinearTi(rel), NonSmoothLaw::NewtonImpact { e: 0.5 }).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, Osi::MoreauJeanBilbao, lemke()).unwrap();
    let mut impacts = 0;
    for _ in 0..2000 {
        let v_before = nsds.systems()[0].velocity().unwrap()[0];
        ts.step(&mut nsds).unwrap();
        let v_after = nsds.systems()[0].velocity().unwrap()[0];
        let lam = nsds.interactions()[0].lambda(1).unwrap()[0];
        assert!(lam >= -1e-12);
        if lam > 1e-9 {
            assert!((v_after + 0.5 * v_before).abs() <= 1e-10, "{v_after} after {v_before}");
            impacts += 1;
        }
        assert!(nsds.systems()[0].state()[0] + 0.1 >= -h * 2.0, "through the stop");
    }
    assert!(impacts >= 1);
}

/// One simulation, two integrators (Siconos's guitar: the string's modes by Bilbao, another
/// body by Moreau–Jean); refused on a system it cannot integrate, by name.
#[test]
fn beside_moreau_jean_and_refused_where_it_does_not_apply() {
    let h = 0.05;
    let mut nsds = Nsds::new(0.0);
    let v0 = (1.0 - exact(400.0, 0.0, 1.0, 0.0, -h)) / h;
    let string = LagrangianLinearTiDs::new(DVector::from_element(1, 1.0), DVector::from_element(1, v0), diag1(1.0))
        .with_k(diag1(400.0));
    nsds.add_ds("string", string).unwrap();
    let body = LagrangianLinearTiDs::new(DVector::from_element(1, 0.0), DVector::from_element(1, 1.0), diag1(1.0));
    nsds.add_ds("body", body).unwrap();
    let ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut ts = ts.with_integrator(&nsds, DsId(0), Osi::MoreauJeanBilbao).unwrap();
    for k in 1..=100 {
        ts.step(&mut nsds).unwrap();
        let q = nsds.systems()[0].state()[0];
        assert!((q - exact(400.0, 0.0, 1.0, 0.0, k as f64 * h)).abs() <= 1e-11, "step {k}");
        assert!((nsds.systems()[1].state()[0] - k as f64 * h).abs() <= 1e-12);
    }
    // not diagonal, not linear time-invariant
    let full = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
    let ds = LagrangianLinearTiDs::new(DVector::zeros(2), DVector::zeros(2), DMatrix::identity(2, 2)).with_k(full);
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("coupled", ds).unwrap();
    let Err(KernelError::UnsupportedSystem { reason, .. }) =
        TimeStepping::new(&nsds, h, Osi::MoreauJeanBilbao, lemke())
    else {
        panic!("a non-diagonal K accepted")
    };
    assert!(reason.contains("K is not diagonal"), "{reason}");
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("nl", LagrangianDs::new(DVector::zeros(1), DVector::zeros(1), Mass::Constant(diag1(1.0)))).unwrap();
    let Err(KernelError::UnsupportedSystem { reason, .. }) =
        TimeStepping::new(&nsds, h, Osi::MoreauJeanBilbao, lemke())
    else {
        panic!("a LagrangianDS accepted")
    };
    assert!(reason.contains("MoreauJeanBilbaoOSI"), "{reason}");
}
