//! MLCP solvers on hand-checked problems and random problems with a unique solution, the
//! Siconos error measure, and typed errors on bad input.

use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use saltus_numerics::mlcp::{self, EnumOptions, LemkeOptions, Mlcp, MlcpSolver, NewtonFbOptions, PgsOptions};
use saltus_numerics::{IterOptions, NumericsError, SolveStatus};

fn all_solvers(tol: f64) -> Vec<MlcpSolver> {
    mlcp::SOLVERS
        .iter()
        .map(|(name, _)| mlcp::solver_by_name(name, IterOptions::new(tol, 5000)).expect("catalogue name"))
        .collect()
}

fn solve(p: &Mlcp, s: &MlcpSolver) -> (Vec<f64>, Vec<f64>, saltus_numerics::SolveReport) {
    let mut z = vec![0.0; p.size()];
    let mut w = vec![0.0; p.size()];
    let r = mlcp::solve(p, &mut z, &mut w, s).expect("solver accepts the problem");
    (z, w, r)
}

/// Independent check of the MLCP conditions: `w = Mz + q`, `|w_eq| <= eps`, `z_c >= −eps`,
/// `w_c >= −eps`, `|z_i w_i| <= eps`.
fn check_solution(p: &Mlcp, z: &[f64], w: &[f64], eps: f64) {
    let mz = p.m() * DVector::from_column_slice(z) + DVector::from_column_slice(p.q());
    for i in 0..p.size() {
        assert!((mz[i] - w[i]).abs() <= eps, "w is not Mz + q at {i}");
        if i < p.n_eq() {
            assert!(w[i].abs() <= eps, "equality row {i}: w = {}", w[i]);
        } else {
            assert!(
                z[i] >= -eps && w[i] >= -eps && (z[i] * w[i]).abs() <= eps,
                "complementarity row {i}: z = {}, w = {}",
                z[i],
                w[i]
            );
        }
    }
}

#[test]
fn equality_only_system_matches_lu() {
    let m = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 2.0, 5.0]);
    let q = vec![1.0, -2.0, 3.0];
    let p = Mlcp::new(m.clone(), q.clone(), 3).unwrap();
    let expect = m.lu().solve(&(-DVector::from_vec(q))).unwrap();
    for s in all_solvers(1e-12) {
        let (z, w, r) = solve(&p, &s);
        assert_eq!(r.status, SolveStatus::Converged, "{}", s.name());
        for i in 0..3 {
            assert!((z[i] - expect[i]).abs() < 1e-13, "{}: z = {z:?}", s.name());
            assert!(w[i].abs() < 1e-13);
        }
    }
}

#[test]
fn two_by_two_with_known_answers() {
    // Equality 2u + v − 1 = 0, complementarity 0 <= v ⊥ u + 2v + b >= 0.
    // b = 1: v = 0, u = 1/2, w = 3/2.   b = −2: v active, 2u + v = 1, u + 2v = 2 → u = 0, v = 1.
    let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
    for (b, zs) in [(1.0, [0.5, 0.0]), (-2.0, [0.0, 1.0])] {
        let p = Mlcp::new(m.clone(), vec![-1.0, b], 1).unwrap();
        for s in all_solvers(1e-10) {
            let (z, w, r) = solve(&p, &s);
            assert!(r.status.converged(), "{} on b = {b}: {r:?}", s.name());
            assert!((z[0] - zs[0]).abs() < 1e-8 && (z[1] - zs[1]).abs() < 1e-8, "{} on b = {b}: {z:?}", s.name());
            check_solution(&p, &z, &w, 1e-8);
        }
    }
}

#[test]
fn diode_bridge_like_circuit() {
    // A unit resistor in series with an ideal diode driven by a source E. Unknowns: u (the
    // diode voltage, free) and v (the diode current, complementarity variable).
    //   Kirchhoff: u − v − E = 0                 → A = [1], C = [−1], a = [−E]
    //   diode:     0 <= v ⊥ w = u >= 0 (blocking) → D = [1], B = [0], b = [0]
    // E = −3 (forward): u = 0, v = 3. E = 2 (reverse): v = 0, u = 2.
    for (e, expect) in [(-3.0, [0.0, 3.0]), (2.0, [2.0, 0.0])] {
        let p = Mlcp::from_abcd(
            DMatrix::from_element(1, 1, 1.0),
            DMatrix::from_element(1, 1, 0.0),
            DMatrix::from_element(1, 1, -1.0),
            DMatrix::from_element(1, 1, 1.0),
            vec![-e],
            vec![0.0],
        )
        .unwrap();
        for s in all_solvers(1e-10) {
            if matches!(s, MlcpSolver::Pgs(_)) {
                // B has a zero diagonal: PGS refuses it.
                let mut z = vec![0.0; 2];
                let mut w = vec![0.0; 2];
                assert!(matches!(mlcp::solve(&p, &mut z, &mut w, &s), Err(NumericsError::Singular { index: 1, .. })));
                continue;
            }
            let (z, w, r) = solve(&p, &s);
            assert!(r.status.converged(), "{} on E = {e}: {r:?}", s.name());
            assert!((z[0] - expect[0]).abs() < 1e-8 && (z[1] - expect[1]).abs() < 1e-8, "{}: {z:?}", s.name());
            check_solution(&p, &z, &w, 1e-8);
        }
    }
}

#[test]
fn siconos_error_measure_by_hand() {
    // M = I, q = (1, −1), n_eq = 1, z = 0: w = (1, −1); err_e = 1, norm_e = 2;
    // err_i = 1 (w < 0), norm_i = 2; err_i/norm_i = err_e/norm_e → error = 1/(1 + 2).
    let p = Mlcp::new(DMatrix::identity(2, 2), vec![1.0, -1.0], 1).unwrap();
    assert!((mlcp::mlcp_error(&p, &[0.0, 0.0]) - 1.0 / 3.0).abs() < 1e-15);
    // z = (−1, 2): w = (0, 1); err_e = 0; err_i = z·w = 2; norm_i = 2 → 2/3.
    assert!((mlcp::mlcp_error(&p, &[-1.0, 2.0]) - 2.0 / 3.0).abs() < 1e-15);
    // Products and violations add: z = −0.5, w = −2 in a complementarity row gives
    // 0.5 + 1 + 2 = 3.5.
    assert_eq!(mlcp::comp_violation(-0.5, -2.0), 3.5);
}

#[test]
fn warm_start_from_the_answer_takes_no_iteration() {
    let m = DMatrix::from_row_slice(3, 3, &[3.0, 1.0, 0.0, 1.0, 4.0, 1.0, 0.0, 1.0, 2.0]);
    let p = Mlcp::new(m, vec![-1.0, 2.0, -3.0], 1).unwrap();
    let (z0, _, _) = solve(&p, &MlcpSolver::Enumerative(EnumOptions::with_tol(1e-12)));
    let mut pgs = PgsOptions::new(IterOptions::new(1e-8, 100));
    pgs.warm_start = true;
    let mut nfb = NewtonFbOptions::default();
    nfb.warm_start = true;
    for s in [MlcpSolver::Pgs(pgs), MlcpSolver::NewtonFb(nfb)] {
        let mut z = z0.clone();
        let mut w = vec![0.0; 3];
        let r = mlcp::solve(&p, &mut z, &mut w, &s).unwrap();
        assert_eq!((r.status, r.iterations), (SolveStatus::Converged, 0), "{}", s.name());
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    let sq = DMatrix::identity(2, 2);
    assert!(matches!(Mlcp::new(DMatrix::zeros(2, 3), vec![0.0; 2], 0), Err(NumericsError::NotSquare { .. })));
    assert!(matches!(Mlcp::new(sq.clone(), vec![0.0; 3], 0), Err(NumericsError::DimensionMismatch { .. })));
    assert!(matches!(Mlcp::new(sq.clone(), vec![0.0; 2], 3), Err(NumericsError::DimensionMismatch { .. })));
    assert!(matches!(Mlcp::new(sq.clone(), vec![0.0, f64::INFINITY], 0), Err(NumericsError::NonFinite { .. })));
    assert!(matches!(
        Mlcp::from_abcd(
            DMatrix::identity(1, 1),
            DMatrix::identity(1, 1),
            DMatrix::zeros(2, 1),
            DMatrix::zeros(1, 1),
            vec![0.0],
            vec![0.0]
        ),
        Err(NumericsError::DimensionMismatch { .. })
    ));
    let p = Mlcp::new(sq, vec![-1.0, -1.0], 0).unwrap();
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    assert!(matches!(
        mlcp::solve(&p, &mut z[..1], &mut w, &all_solvers(1e-8)[0]),
        Err(NumericsError::DimensionMismatch { .. })
    ));
    let bad = MlcpSolver::Pgs(PgsOptions::new(IterOptions::new(0.0, 10)));
    assert!(matches!(mlcp::solve(&p, &mut z, &mut w, &bad), Err(NumericsError::InvalidOption { .. })));
    let mut e = EnumOptions::default();
    e.max_comp = 0;
    assert!(matches!(
        mlcp::solve(&p, &mut z, &mut w, &MlcpSolver::Enumerative(e)),
        Err(NumericsError::InvalidOption { .. })
    ));
    let mut warm = PgsOptions::default();
    warm.warm_start = true;
    let mut zn = vec![f64::NAN, 0.0];
    assert!(matches!(mlcp::solve(&p, &mut zn, &mut w, &MlcpSolver::Pgs(warm)), Err(NumericsError::NonFinite { .. })));
    // The enumeration cap is a typed error, not a hang.
    let big = Mlcp::new(DMatrix::identity(25, 25), vec![-1.0; 25], 0).unwrap();
    let (mut z, mut w) = (vec![0.0; 25], vec![0.0; 25]);
    assert!(matches!(
        mlcp::solve(&big, &mut z, &mut w, &MlcpSolver::Enumerative(EnumOptions::default())),
        Err(NumericsError::Unsupported { .. })
    ));
    // Lemke needs an invertible equality block.
    let sing = Mlcp::new(DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 1.0]), vec![1.0, -1.0], 1).unwrap();
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    assert!(matches!(
        mlcp::solve(&sing, &mut z, &mut w, &MlcpSolver::Lemke(LemkeOptions::default())),
        Err(NumericsError::Singular { .. })
    ));
    // A singular M without complementarity rows.
    let ds = Mlcp::new(DMatrix::zeros(2, 2), vec![1.0, 1.0], 2).unwrap();
    assert!(matches!(mlcp::solve(&ds, &mut z, &mut w, &all_solvers(1e-8)[1]), Err(NumericsError::Singular { .. })));
    assert!(mlcp::solver_by_name("nope", IterOptions::default()).is_none());
}

#[test]
fn reader_rejects_rectangular_and_malformed_text() {
    // 1 equality + 1 complementarity row, but a 3×2 M (Rectangular_mlcp.dat's shape).
    let rect = "1 1 1 1  0 1 2  0 1  0 3 2 3 2  1 1 -1 -1 1 0  1 1  1 1 1 1 1 1";
    assert!(matches!(mlcp::read_mlcp(rect), Err(NumericsError::NotSquare { rows: 3, cols: 2, .. })));
    assert!(matches!(mlcp::read_mlcp("1 1 1 1 0 1 2 0 x"), Err(NumericsError::Parse { line: 1, .. })));
    assert!(matches!(mlcp::read_mlcp("1 1 1"), Err(NumericsError::Parse { .. })));
    // The ABCD form alone (ST1 = 0), row-major: A = [1], B = [2], C = [1], D = [−1], a = 3, b = 4.
    let abcd = mlcp::read_mlcp("0 1 1 1  1  2  1  -1  3  4").unwrap();
    assert_eq!(abcd.m(), &DMatrix::from_row_slice(2, 2, &[1.0, 1.0, -1.0, 2.0]));
    assert_eq!(abcd.q(), &[3.0, 4.0]);
    // The (M, q) form: M is column-major.
    let mq = mlcp::read_mlcp("1 0 1 1  0 1 2  0 1  0 2 2 2 2  1 -1 1 2  3 4").unwrap();
    assert_eq!(mq.m(), abcd.m());
    assert_eq!(mq.n_eq(), 1);
}

/// `M = G Gᵀ + εI + (K − Kᵀ)` is positive definite, so the MLCP has exactly one solution
/// (and so does the Schur-complement LCP); symmetric when `skew = false`.
fn random_pd_mlcp(ne: usize, nc: usize, vals: &[f64], skew: bool) -> Mlcp {
    let n = ne + nc;
    let mut it = vals.iter().copied().cycle();
    let g = DMatrix::from_fn(n, n, |_, _| it.next().unwrap());
    let mut m = &g * g.transpose() + DMatrix::identity(n, n) * 0.5;
    if skew {
        let k = DMatrix::from_fn(n, n, |_, _| it.next().unwrap());
        m += &k - k.transpose();
    }
    let q: Vec<f64> = (0..n).map(|_| 2.0 * it.next().unwrap()).collect();
    Mlcp::new(m, q, ne).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_pd_mlcps_all_solvers_agree(ne in 0usize..4, nc in 1usize..7, skew in any::<bool>(), vals in prop::collection::vec(-1.0f64..1.0, 120)) {
        let p = random_pd_mlcp(ne, nc, &vals, skew);
        let (zref, wref, rref) = solve(&p, &MlcpSolver::Enumerative(EnumOptions::with_tol(1e-12)));
        prop_assert!(rref.status.converged(), "enum: {:?}", rref);
        check_solution(&p, &zref, &wref, 1e-9);
        let mut solvers = vec![
            MlcpSolver::NewtonFb(NewtonFbOptions::new(IterOptions::new(1e-12, 200))),
            MlcpSolver::Lemke(LemkeOptions::with_tol(1e-12)),
        ];
        if !skew {
            // PGS converges for symmetric positive definite M.
            solvers.push(MlcpSolver::Pgs(PgsOptions::new(IterOptions::new(1e-12, 100_000))));
        }
        for s in solvers {
            let (z, w, r) = solve(&p, &s);
            prop_assert!(r.status.converged(), "{}: {:?}", s.name(), r);
            prop_assert!(r.residual <= 1e-12);
            let scale = 1.0 + zref.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for i in 0..p.size() {
                prop_assert!((z[i] - zref[i]).abs() <= 1e-6 * scale, "{} disagrees with enum at {}: {} vs {}", s.name(), i, z[i], zref[i]);
            }
            check_solution(&p, &z, &w, 1e-6 * scale);
        }
    }
}
