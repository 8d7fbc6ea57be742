//! Hand-checked LCPs: every solver against analytic answers, the driver shortcuts, Lemke's
//! degenerate and ray cases, warm starts and workspace reuse.

use nalgebra::DMatrix;
use saltus_numerics::lcp::*;
use saltus_numerics::report::{FailReason, IterOptions, SolveStatus};
use saltus_numerics::{BlockCsr, Operator};

fn dense(n: usize, rows: &[f64]) -> Operator {
    Operator::Dense(DMatrix::from_row_slice(n, n, rows))
}

fn all_dense_solvers() -> Vec<LcpSolver> {
    SOLVERS.iter().filter_map(|(n, _)| solver_by_name(n, IterOptions::new(1e-10, 10_000))).collect()
}

/// z ≥ 0, w = Mz + q ≥ 0, zᵀw ≈ 0 and the report's residual is the canonical one.
fn check_solution(lcp: &Lcp, z: &[f64], w: &[f64], residual: f64, tol: f64) {
    let mut wq = lcp.q().to_vec();
    lcp.m().matvec_add(1.0, z, &mut wq);
    for i in 0..z.len() {
        assert!(z[i] >= -tol, "z[{i}] = {}", z[i]);
        assert!(wq[i] >= -tol, "w[{i}] = {}", wq[i]);
        assert!((w[i] - wq[i]).abs() <= 1e-12 * (1.0 + wq[i].abs()));
        assert!((z[i] * wq[i]).abs() <= tol, "z[{i}] w[{i}] = {}", z[i] * wq[i]);
    }
    assert_eq!(residual, lcp_error(lcp.m(), lcp.q(), z));
}

#[test]
fn every_solver_finds_the_analytic_solution_of_an_spd_problem() {
    // M = [[2,1],[1,2]], q = (−5, −6): both active, z = M⁻¹(5, 6) = (4/3, 7/3), w = 0.
    let lcp = Lcp::new(dense(2, &[2.0, 1.0, 1.0, 2.0]), vec![-5.0, -6.0]).unwrap();
    for s in all_dense_solvers() {
        let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
        let rep = solve(&lcp, &mut z, &mut w, &s).unwrap();
        assert_eq!(rep.status, SolveStatus::Converged, "{}: {rep:?}", s.name());
        assert!((z[0] - 4.0 / 3.0).abs() < 1e-8 && (z[1] - 7.0 / 3.0).abs() < 1e-8, "{}: {z:?}", s.name());
        check_solution(&lcp, &z, &w, rep.residual, 1e-8);
    }
}

#[test]
fn every_solver_finds_a_mixed_active_set() {
    // M = [[4,1,0],[1,4,1],[0,1,4]], q = (−1, 2, −1): z₂ = 0 (w₂ > 0), z₁ = z₃ = 1/4,
    // w₂ = 1/4 + 2 + 1/4 = 2.5.
    let lcp = Lcp::new(dense(3, &[4.0, 1.0, 0.0, 1.0, 4.0, 1.0, 0.0, 1.0, 4.0]), vec![-1.0, 2.0, -1.0]).unwrap();
    for s in all_dense_solvers() {
        let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 3]);
        let rep = solve(&lcp, &mut z, &mut w, &s).unwrap();
        assert!(rep.status.converged(), "{}: {rep:?}", s.name());
        assert!((z[0] - 0.25).abs() < 1e-8 && z[1].abs() < 1e-8 && (z[2] - 0.25).abs() < 1e-8, "{}: {z:?}", s.name());
        assert!((w[1] - 2.5).abs() < 1e-7);
        check_solution(&lcp, &z, &w, rep.residual, 1e-8);
    }
}

#[test]
fn pgs_and_psor_agree_on_dense_and_block_storage() {
    let d = DMatrix::from_row_slice(
        4,
        4,
        &[5.0, 1.0, 0.0, 1.0, 1.0, 5.0, 1.0, 0.0, 0.0, 1.0, 5.0, 1.0, 1.0, 0.0, 1.0, 5.0],
    );
    let q = vec![-1.0, 1.0, -2.0, -0.5];
    let b = BlockCsr::from_dense(&d, &[1, 1, 1, 1], &[1, 1, 1, 1]).unwrap();
    let ld = Lcp::new(Operator::Dense(d.clone()), q.clone()).unwrap();
    // 2×2 blocks are re-blocked to scalar rows by Lcp::new
    let b2 = BlockCsr::from_dense(&d, &[2, 2], &[2, 2]).unwrap();
    for lb in
        [Lcp::new(Operator::BlockCsr(b), q.clone()).unwrap(), Lcp::new(Operator::BlockCsr(b2), q.clone()).unwrap()]
    {
        for name in ["pgs", "psor"] {
            let s = solver_by_name(name, IterOptions::new(1e-12, 1000)).unwrap();
            let (mut z1, mut w1, mut z2, mut w2) = (vec![0.0; 4], vec![0.0; 4], vec![0.0; 4], vec![0.0; 4]);
            let r1 = solve(&ld, &mut z1, &mut w1, &s).unwrap();
            let r2 = solve(&lb, &mut z2, &mut w2, &s).unwrap();
            assert!(r1.status.converged() && r2.status.converged());
            for i in 0..4 {
                assert!((z1[i] - z2[i]).abs() < 1e-10);
            }
            check_solution(&lb, &z2, &w2, r2.residual, 1e-10);
        }
    }
}

#[test]
fn driver_shortcuts_match_siconos() {
    // all q ≥ 0: z = 0, w = q, 0 iterations, even for a solver that would fail on M
    let lcp = Lcp::new(dense(2, &[0.0, 1.0, -1.0, 0.0]), vec![1.0, 0.0]).unwrap();
    let (mut z, mut w) = (vec![3.0; 2], vec![0.0; 2]);
    let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Pgs(PgsOptions::default())).unwrap();
    assert_eq!(
        (rep.status, rep.iterations, z.clone(), w.clone()),
        (SolveStatus::Converged, 0, vec![0.0; 2], vec![1.0, 0.0])
    );
    // n = 1: z = −q/M
    let lcp = Lcp::new(dense(1, &[4.0]), vec![-2.0]).unwrap();
    let (mut z, mut w) = (vec![0.0], vec![0.0]);
    let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(LemkeOptions::default())).unwrap();
    assert_eq!((rep.status, rep.iterations, z[0], w[0]), (SolveStatus::Converged, 0, 0.5, 0.0));
    // n = 1, M ≤ 0, q < 0: w = M z + q < 0 for every z ≥ 0
    for m in [0.0, -1.0] {
        let lcp = Lcp::new(dense(1, &[m]), vec![-2.0]).unwrap();
        let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(LemkeOptions::default())).unwrap();
        assert_eq!(rep.status, SolveStatus::Failed(FailReason::NoSolution));
        assert!(z[0].is_finite() && w[0].is_finite());
    }
}

#[test]
fn lemke_reports_a_ray_when_there_is_no_solution() {
    // M = −I, q = (−1, −1): w = −z + q < 0 for every z ≥ 0, no solution.
    let lcp = Lcp::new(dense(2, &[-1.0, 0.0, 0.0, -1.0]), vec![-1.0, -1.0]).unwrap();
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(LemkeOptions::default())).unwrap();
    assert_eq!(rep.status, SolveStatus::Failed(FailReason::RayTermination));
    assert!(rep.residual > 0.1);
    // M = [[1,−1],[−1,1]] (copositive-plus), q = (−1, −1): w₁ + w₂ = −2 < 0, infeasible.
    let lcp = Lcp::new(dense(2, &[1.0, -1.0, -1.0, 1.0]), vec![-1.0, -1.0]).unwrap();
    let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(LemkeOptions::default())).unwrap();
    assert_eq!(rep.status, SolveStatus::Failed(FailReason::RayTermination));
    // enumeration agrees that no complementary solution exists
    let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Enumerative(EnumOptions::default())).unwrap();
    assert_eq!(rep.status, SolveStatus::Failed(FailReason::NoSolution));
}

#[test]
fn lexicographic_rule_resolves_a_degenerate_problem_that_cycles_otherwise() {
    // Found by search: with ties broken by the smallest row index, Lemke cycles on this
    // degenerate problem (all q equal), the lexicographic rule terminates with a solution.
    let lcp = Lcp::new(dense(3, &[1.0, 1.0, 2.0, 2.0, 0.0, 1.0, -1.0, -1.0, 2.0]), vec![-1.0, -1.0, -1.0]).unwrap();
    let mut o = LemkeOptions::default();
    o.iter = IterOptions::new(1e-10, 500);
    let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 3]);
    let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(o)).unwrap();
    assert!(rep.status.converged(), "{rep:?}");
    assert!(rep.iterations < 20);
    check_solution(&lcp, &z, &w, rep.residual, 1e-10);
    o.tie_break = TieBreak::SmallestIndex;
    let rep = solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(o)).unwrap();
    assert_eq!(rep.status, SolveStatus::MaxIterations, "{rep:?}");
    assert_eq!(rep.iterations, 500);
}

#[test]
fn warm_start_from_the_solution_costs_no_pivot_and_state_reuse_is_bitwise_identical() {
    let n = 12;
    let m = DMatrix::from_fn(n, n, |i, j| if i == j { 6.0 } else { (((i + j) * 3) % 7) as f64 * 0.2 - 0.6 });
    let q: Vec<f64> = (0..n).map(|i| ((i * 7) % 5) as f64 - 2.5).collect();
    let lcp = Lcp::new(Operator::Dense(m), q).unwrap();
    let mut state = LcpSolverState::new();
    for s in all_dense_solvers() {
        let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
        let r1 = solve(&lcp, &mut z, &mut w, &s).unwrap();
        let (mut z2, mut w2) = (vec![0.0; n], vec![0.0; n]);
        let r2 = solve_with(&mut state, &lcp, &mut z2, &mut w2, &s).unwrap();
        assert!(r1.status.converged(), "{}: {r1:?}", s.name());
        assert_eq!((z.clone(), r1.iterations, r1.residual), (z2, r2.iterations, r2.residual), "{}", s.name());
    }
    let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
    solve(&lcp, &mut z, &mut w, &LcpSolver::Lemke(LemkeOptions::default())).unwrap();
    let mut o = LemkeOptions::default();
    o.warm_start = true;
    let rep = solve_with(&mut state, &lcp, &mut z, &mut w, &LcpSolver::Lemke(o)).unwrap();
    assert_eq!((rep.status, rep.iterations), (SolveStatus::Converged, 0));
    let mut e = EnumOptions::default();
    e.warm_start = true;
    let rep = solve_with(&mut state, &lcp, &mut z, &mut w, &LcpSolver::Enumerative(e)).unwrap();
    assert_eq!((rep.status, rep.iterations), (SolveStatus::Converged, 1));
}

#[test]
fn newton_methods_solve_a_nonsymmetric_p_matrix_problem() {
    // strictly diagonally dominant with positive diagonal ⇒ P-matrix ⇒ unique solution
    let lcp = Lcp::new(dense(3, &[3.0, -1.0, 1.0, 2.0, 4.0, -1.0, -1.0, 1.5, 3.0]), vec![1.0, -3.0, -2.0]).unwrap();
    let (mut zr, mut wr) = (vec![0.0; 3], vec![0.0; 3]);
    solve(&lcp, &mut zr, &mut wr, &LcpSolver::Enumerative(EnumOptions::default())).unwrap();
    for s in [
        LcpSolver::NewtonFb(NewtonOptions::default()),
        LcpSolver::NewtonMin(NewtonOptions::default()),
        LcpSolver::Lemke(LemkeOptions::default()),
        LcpSolver::Pgs(PgsOptions::default()),
    ] {
        let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 3]);
        let rep = solve(&lcp, &mut z, &mut w, &s).unwrap();
        assert!(rep.status.converged(), "{}: {rep:?}", s.name());
        for i in 0..3 {
            assert!((z[i] - zr[i]).abs() < 1e-7, "{}: {z:?} vs {zr:?}", s.name());
        }
    }
}
