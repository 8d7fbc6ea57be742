//! Relay problems: analytic answers, the LCP reformulation against PGS, and every file of
//! `test_data_dir()/numerics/relay` (skipped with a message when the data is absent).

use nalgebra::DMatrix;
use saltus_numerics::io::test_data_dir;
use saltus_numerics::relay::*;
use saltus_numerics::report::{IterOptions, SolveStatus};
use saltus_numerics::Operator;

fn check_relay(p: &Relay, z: &[f64], w: &[f64], tol: f64) {
    for i in 0..z.len() {
        assert!(z[i] >= p.lb()[i] - tol && z[i] <= p.ub()[i] + tol);
        if z[i] > p.lb()[i] + tol && z[i] < p.ub()[i] - tol {
            assert!(w[i].abs() <= tol * 10.0, "interior z[{i}] with w = {}", w[i]);
        } else if (z[i] - p.lb()[i]).abs() <= tol {
            assert!(w[i] >= -tol * 10.0);
        } else {
            assert!(w[i] <= tol * 10.0);
        }
    }
}

#[test]
fn analytic_relay_solutions() {
    // M = 2I, q = (−1, 3, 10), box [−1, 1]: z = clamp(−q/2) = (0.5, −1, −1)
    let p =
        Relay::new(Operator::Dense(DMatrix::identity(3, 3) * 2.0), vec![-1.0, 3.0, 10.0], vec![-1.0; 3], vec![1.0; 3])
            .unwrap();
    for s in [
        RelaySolver::Pgs(Default::default()),
        RelaySolver::Lemke(Default::default()),
        RelaySolver::AviCaoFerris(Default::default()),
    ] {
        let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 3]);
        let rep = solve(&p, &mut z, &mut w, &s).unwrap();
        assert!(rep.status.converged(), "{rep:?}");
        for (a, b) in z.iter().zip([0.5, -1.0, -1.0]) {
            assert!((a - b).abs() < 1e-9, "{z:?}");
        }
        assert_eq!(rep.residual, relay_error(&p, &z));
        check_relay(&p, &z, &w, 1e-8);
    }
}

#[test]
fn lemke_through_the_lcp_agrees_with_pgs_on_a_coupled_problem() {
    let m = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.5, 1.0, 3.0, -1.0, 0.5, -1.0, 5.0]);
    let p = Relay::new(Operator::Dense(m), vec![-6.0, 1.0, 2.0], vec![0.0, -2.0, -0.1], vec![1.0, 2.0, 0.1]).unwrap();
    let it = IterOptions::new(1e-12, 10_000);
    let (mut z1, mut w1, mut z2, mut w2) = (vec![0.0; 3], vec![0.0; 3], vec![0.0; 3], vec![0.0; 3]);
    let r1 = solve(&p, &mut z1, &mut w1, &solver_by_name("pgs", it).unwrap()).unwrap();
    let r2 = solve(&p, &mut z2, &mut w2, &solver_by_name("lemke", it).unwrap()).unwrap();
    assert!(r1.status.converged() && r2.status.converged(), "{r1:?} {r2:?}");
    // the workspace-reusing path gives the same bits, twice in a row
    let mut state = RelaySolverState::new();
    for _ in 0..2 {
        let (mut z3, mut w3) = (vec![0.0; 3], vec![0.0; 3]);
        let r3 = solve_with(&mut state, &p, &mut z3, &mut w3, &solver_by_name("lemke", it).unwrap()).unwrap();
        assert_eq!((z3.clone(), r3.iterations, r3.residual), (z2.clone(), r2.iterations, r2.residual));
    }
    for i in 0..3 {
        assert!((z1[i] - z2[i]).abs() < 1e-9);
    }
    check_relay(&p, &z2, &w2, 1e-9);
    // z₀ is at its upper bound 1 here (w₀ < 0)
    assert!((z2[0] - 1.0).abs() < 1e-12 && w2[0] < 0.0);
}

#[test]
fn relay_collection_conformance() {
    let Some(dir) = test_data_dir().map(|d| d.join("numerics/relay")).filter(|d| d.is_dir()) else {
        eprintln!("skipping: no test data (set SALTUS_TEST_DATA or provide ../shared/data)");
        return;
    };
    // (file stem, solvers that must reach 1e-8); PGS stalls on relay1 (not diagonally dominant).
    const EXPECT: &[(&str, &[&str])] = &[
        ("relay1", &["lemke", "avi-caoferris"]),
        ("relay_2x2", &["pgs", "lemke", "avi-caoferris"]),
        ("relay_4x4", &["pgs", "lemke", "avi-caoferris"]),
        ("relay_simple2", &["pgs", "lemke", "avi-caoferris"]),
        ("step_1x1", &["pgs", "lemke", "avi-caoferris"]),
        ("step_2x2", &["pgs", "lemke", "avi-caoferris"]),
        ("step_4x4", &["pgs", "lemke", "avi-caoferris"]),
    ];
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let f = e.unwrap().path();
        if f.extension().is_none_or(|x| x != "dat") {
            continue;
        }
        seen += 1;
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let p = read_relay_file(&f).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let (_, solvers) = EXPECT.iter().find(|(s, _)| *s == stem).unwrap_or_else(|| panic!("{stem} not in the table"));
        for name in *solvers {
            let (mut z, mut w) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let rep =
                solve(&p, &mut z, &mut w, &solver_by_name(name, IterOptions::new(1e-8, 10_000)).unwrap()).unwrap();
            assert_eq!(rep.status, SolveStatus::Converged, "{stem}: {name}: {rep:?}");
            assert_eq!(rep.residual, relay_error(&p, &z));
        }
    }
    assert_eq!(seen, EXPECT.len());
}
