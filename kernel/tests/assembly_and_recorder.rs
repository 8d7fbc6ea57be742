//! Sparse block assembly agrees with dense assembly (interactions between two systems), time-
//! dependent relations, and the recorder.
mod common;

use nalgebra::{dmatrix, dvector, DVector};
use saltus_kernel::solvers::lcp::{LcpSolver, PgsOptions};
use saltus_kernel::*;
use std::sync::Arc;

fn run_beads(osnsp: Osnsp, storage: Storage) -> Vec<f64> {
    let mut nsds = presets::column_of_beads(20, 0.05, 1.0, 9.81, 0.3, 0.01).unwrap();
    let opts = OsnspOptions { storage, ..Default::default() };
    let mut sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), osnsp).unwrap().with_options(opts).unwrap();
    let mut out = Vec::new();
    let mut max_active = 0;
    sim.run(&mut nsds, 0.5, &mut |n, rep| {
        max_active = max_active.max(rep.active);
        if let Some(r) = &rep.osnsp {
            assert!(r.status.converged(), "{r:?}");
        }
        out.extend(n.systems().iter().map(|d| d.state()[0]));
    })
    .unwrap();
    assert!(max_active >= 5, "the beads must stack ({max_active} active contacts)");
    out
}

#[test]
fn sparse_pgs_and_dense_lemke_give_the_same_column_of_beads() {
    let dense = run_beads(Osnsp::Lcp(LcpSolver::Lemke(Default::default())), Storage::Dense);
    let mut pgs = PgsOptions::default();
    pgs.iter = saltus_numerics::IterOptions::new(1e-12, 100_000);
    pgs.warm_start = true;
    let sparse = run_beads(Osnsp::Lcp(LcpSolver::Pgs(pgs)), Storage::SparseBlock);
    let dense_pgs = run_beads(Osnsp::Lcp(LcpSolver::Pgs(pgs)), Storage::Dense);
    let diff = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    assert!(diff(&dense, &sparse) <= 1e-8, "dense Lemke vs sparse PGS: {:e}", diff(&dense, &sparse));
    assert!(diff(&sparse, &dense_pgs) <= 1e-9, "sparse vs dense storage, same solver: {:e}", diff(&sparse, &dense_pgs));
}

/// Rheonomous relation: a ball resting on a plate that rises at speed c from t = 0
/// (y = q − c t, ẏ = v − c). With e = 0 the ball leaves with the plate's velocity.
#[test]
fn rheonomous_moving_plate_carries_the_ball() {
    let c = 0.5;
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![0.0], dvector![0.0], dmatrix![1.0])
        .with_f_ext(VecOp::Constant(dvector![-9.81]));
    let id = nsds.add_ds("ball", ds).unwrap();
    let rel = LagrangianRheonomousR {
        size: 1,
        h: Arc::new(move |t, q, y| {
            y[0] = q[0] - c * t;
            Ok(())
        }),
        jac_q: Arc::new(|_, _, j| {
            j[(0, 0)] = 1.0;
            Ok(())
        }),
        dot_h: Arc::new(move |_, _, d| {
            d[0] = -c;
            Ok(())
        }),
    };
    nsds.link("plate", id, None, Relation::LagrangianRheonomous(rel), NonSmoothLaw::NewtonImpact { e: 0.0 }).unwrap();
    let mut sim =
        TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
            .unwrap();
    sim.run(&mut nsds, 1.0, &mut |n, rep| {
        let v = n.systems()[0].velocity().unwrap()[0];
        let y1 = n.interactions()[0].y(1).unwrap()[0];
        // the contact stays active and the relative velocity is 0: v = c
        assert_eq!(rep.active, 1, "t = {}", rep.t);
        assert!((v - c).abs() <= 1e-12 && y1.abs() <= 1e-12, "t = {}: v = {v}", rep.t);
        // impulse per step balances gravity: λ = m g h
        assert!((n.interactions()[0].lambda(1).unwrap()[0] - 9.81e-3).abs() <= 1e-12 || rep.k == 1);
    })
    .unwrap();
    assert!((nsds.systems()[0].state()[0] - c * 1.0).abs() <= 1e-3);
}

/// Time-dependent linear system: ẋ = a(t) x + b(t), a = −1, b(t) = sin t, with a never active
/// complementarity (y = x + 10 ≥ 0): the θ = 1/2 scheme converges with order 2 to
/// x(t) = (sin t − cos t)/2 + 1.5 e^{−t}.
#[test]
fn time_dependent_first_order_linear_system() {
    let solve = |h: f64| {
        let mut nsds = Nsds::new(0.0);
        let ds = FirstOrderLinearDs::new(
            dvector![1.0],
            MatOp::function(1, 1, |_, a| {
                a[(0, 0)] = -1.0;
                Ok(())
            }),
        )
        .with_b(VecOp::function(|t, b| {
            b[0] = t.sin();
            Ok(())
        }));
        let id = nsds.add_ds("x", ds).unwrap();
        let rel = FirstOrderLinearR {
            c: MatOp::Constant(dmatrix![1.0]),
            b: MatOp::Constant(dmatrix![1.0]),
            d: None,
            f: None,
            e: Some(VecOp::Constant(dvector![10.0])),
        };
        nsds.link("far", id, None, Relation::FirstOrderLinear(rel), NonSmoothLaw::ComplementarityCondition { size: 1 })
            .unwrap();
        let mut sim =
            TimeStepping::new(&nsds, h, Osi::euler_moreau(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
                .unwrap();
        sim.run(&mut nsds, 1.0, &mut |n, _| assert_eq!(n.interactions()[0].lambda(0).unwrap()[0], 0.0)).unwrap();
        nsds.systems()[0].state()[0]
    };
    let exact = (1f64.sin() - 1f64.cos()) / 2.0 + 1.5 * (-1f64).exp();
    let e1 = (solve(0.01) - exact).abs();
    let e2 = (solve(0.005) - exact).abs();
    assert!(e1 < 1e-4 && ((e1 / e2).log2() - 2.0).abs() < 0.1, "errors {e1:e}, {e2:e}");
}

#[test]
fn recorder_rows_match_the_header_and_the_model() {
    let mut nsds = common::bouncing_ball();
    let mut sim =
        TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
            .unwrap();
    let mut rec = Recorder::new(&nsds);
    rec.record(&nsds);
    let steps = run(&mut sim, &mut nsds, 1.0, &mut |n, _| rec.record(n)).unwrap();
    assert_eq!(steps, 200);
    assert_eq!(rec.rows().len(), 201);
    let h = rec.header();
    assert!(rec.rows().iter().all(|r| r.len() == h.len()));
    let iq = h.iter().position(|c| c == "body.q0").unwrap();
    let il = h.iter().position(|c| c == "contact0.lambda1_0").unwrap();
    let last = rec.rows().last().unwrap();
    assert_eq!(last[0], nsds.t());
    assert_eq!(last[iq], nsds.systems()[0].state()[0]);
    assert_eq!(last[il], nsds.interactions()[0].lambda(1).unwrap()[0]);
    let mut csv = Vec::new();
    rec.write_csv(&mut csv).unwrap();
    assert_eq!(String::from_utf8(csv).unwrap().lines().count(), 202);
    let _ = DVector::<f64>::zeros(0);
}

/// An interaction between two first-order systems gives the same trajectory as one system
/// holding both states (the relation acts on the concatenated state, `W` is block diagonal).
#[test]
fn two_system_interaction_equals_the_concatenated_system() {
    let a1 = dmatrix![-1.0, 2.0; -2.0, -1.0];
    let a2 = dmatrix![-0.5];
    let c = dmatrix![1.0, 0.0, -1.0; 0.0, 1.0, 1.0];
    let b = dmatrix![1.0, 0.0; 0.0, 1.0; -1.0, 1.0];
    let d = dmatrix![0.1, 0.0; 0.0, 0.2];
    let e = dvector![0.3, -0.2];
    let rel = || {
        Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(c.clone(), b.clone()).with_d(d.clone()).with_e(e.clone()))
    };
    let law = NonSmoothLaw::ComplementarityCondition { size: 2 };
    let solver = || Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
    // two systems
    let mut two = Nsds::new(0.0);
    let d1 = two.add_ds("x1", FirstOrderLinearTiDs::new(dvector![1.0, -1.0], a1.clone())).unwrap();
    let d2 = two.add_ds("x2", FirstOrderLinearTiDs::new(dvector![2.0], a2.clone())).unwrap();
    two.link("coupling", d1, Some(d2), rel(), law.clone()).unwrap();
    // one system
    let mut a = nalgebra::DMatrix::zeros(3, 3);
    a.view_mut((0, 0), (2, 2)).copy_from(&a1);
    a[(2, 2)] = a2[(0, 0)];
    let mut one = Nsds::new(0.0);
    let d0 = one.add_ds("x", FirstOrderLinearTiDs::new(dvector![1.0, -1.0, 2.0], a)).unwrap();
    one.link("coupling", d0, None, rel(), law).unwrap();
    let mut s2 = TimeStepping::new(&two, 1e-2, Osi::euler_moreau(0.5), solver()).unwrap();
    let mut s1 = TimeStepping::new(&one, 1e-2, Osi::euler_moreau(0.5), solver()).unwrap();
    let mut active = 0;
    for _ in 0..300 {
        s2.step(&mut two).unwrap();
        s1.step(&mut one).unwrap();
        let x = one.systems()[0].state();
        let (x1, x2) = (two.systems()[0].state(), two.systems()[1].state());
        assert!((x[0] - x1[0]).abs() <= 1e-12 && (x[1] - x1[1]).abs() <= 1e-12 && (x[2] - x2[0]).abs() <= 1e-12);
        let (l1, l2) = (one.interactions()[0].lambda(0).unwrap(), two.interactions()[0].lambda(0).unwrap());
        assert!((l1 - l2).amax() <= 1e-12);
        active += (l1.amax() > 0.0) as usize;
    }
    assert!(active > 10, "the complementarity must be active on some steps ({active})");
}
