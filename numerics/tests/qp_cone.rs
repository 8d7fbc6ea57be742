//! ConvexQP over Coulomb cones (`pg`): analytic answers (`M = I` gives `x = P_C(−q)`),
//! optimality by the projection fixed point on random SPD problems, the Siconos data file
//! (`test_data_dir()/numerics/qp`, expectations by file name) and typed errors.

use nalgebra::DMatrix;
use proptest::prelude::*;
use saltus_numerics::io::test_data_dir;
use saltus_numerics::qp::{self, project_on_cone, ConvexQp, PgOptions, QpSolver};
use saltus_numerics::{IterOptions, NumericsError, Operator, SolveStatus};

fn pg(tol: f64) -> QpSolver {
    QpSolver::ProjectedGradient(PgOptions::new(IterOptions::new(tol, 20_000)))
}

#[test]
fn identity_hessian_gives_the_projection_of_minus_q() {
    let q = vec![-1.0, 1.0, 3.0, 2.0, 0.5, 0.0, -4.0, 0.0, 0.0];
    let mu = vec![0.1, 0.5, 0.3];
    let p = ConvexQp::new(3, Operator::Dense(DMatrix::identity(9, 9)), q.clone(), mu.clone()).unwrap();
    let mut z = vec![0.0; 9];
    let r = qp::solve_convex_qp(&p, &mut z, &pg(1e-12)).unwrap();
    assert_eq!(r.status, SolveStatus::Converged);
    for c in 0..3 {
        let mut x: Vec<f64> = q[3 * c..3 * c + 3].iter().map(|v| -v).collect();
        project_on_cone(&mut x, mu[c]);
        for k in 0..3 {
            assert!((z[3 * c + k] - x[k]).abs() < 1e-10, "contact {c}: {:?} vs {:?}", &z[3 * c..3 * c + 3], x);
        }
    }
    // Contact 1: −q = (−2, −0.5, 0) lies in the polar cone → 0; contact 2: (4, 0, 0) is inside.
    assert!(z[3..6].iter().all(|v| v.abs() < 1e-12));
    assert!((z[6] - 4.0).abs() < 1e-10);
}

#[test]
fn siconos_qp_files_meet_their_expectations() {
    // (file, pg must solve to 1e-8).
    const TABLE: &[(&str, bool)] = &[("FC3D_Example1_SBM.dat", true)];
    let Some(data) = test_data_dir() else {
        println!("skipped: no test data directory (set SALTUS_TEST_DATA)");
        return;
    };
    let dir = data.join("numerics/qp");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipped: {} is absent", dir.display());
        return;
    };
    let mut seen = 0;
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".dat") {
            continue;
        }
        seen += 1;
        let (_, must_solve) =
            TABLE.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("{name} is not in the expectation table"));
        let p = qp::read_convex_qp_file(e.path()).unwrap();
        let mut z = vec![0.0; p.size()];
        let r = qp::solve_convex_qp(&p, &mut z, &pg(1e-8)).unwrap();
        let err = qp::convex_qp_error(&p, &z);
        assert_eq!(r.status.converged() && err <= 1e-8, *must_solve, "{name}: {r:?}, error {err:e}");
        if name == "FC3D_Example1_SBM.dat" {
            // M = I (three identity blocks), q_α = (−1, 1, 3), μ = 0.1: z_α = P_K(1, −1, −3).
            let mut x = [1.0, -1.0, -3.0];
            project_on_cone(&mut x, 0.1);
            for c in 0..3 {
                for k in 0..3 {
                    assert!((z[3 * c + k] - x[k]).abs() < 1e-7, "{z:?}");
                }
            }
        }
    }
    assert_eq!(seen, TABLE.len(), "files in {} and table entries differ", dir.display());
}

#[test]
fn bad_input_gives_typed_errors() {
    let m = Operator::Dense(DMatrix::identity(3, 3));
    assert!(matches!(ConvexQp::new(4, m.clone(), vec![0.0; 3], vec![0.1]), Err(NumericsError::Unsupported { .. })));
    assert!(matches!(
        ConvexQp::new(3, m.clone(), vec![0.0; 3], vec![0.1, 0.2]),
        Err(NumericsError::DimensionMismatch { .. })
    ));
    assert!(matches!(ConvexQp::new(3, m.clone(), vec![0.0; 3], vec![-0.1]), Err(NumericsError::InvalidOption { .. })));
    assert!(matches!(
        ConvexQp::new(3, m.clone(), vec![0.0, f64::NAN, 0.0], vec![0.1]),
        Err(NumericsError::NonFinite { .. })
    ));
    let p = ConvexQp::new(3, m, vec![-1.0, 0.0, 0.0], vec![0.1]).unwrap();
    let mut z = vec![0.0; 3];
    assert!(matches!(qp::solve_convex_qp(&p, &mut z[..2], &pg(1e-8)), Err(NumericsError::DimensionMismatch { .. })));
    let qpsolver = qp::solver_by_name("qp", IterOptions::default()).unwrap();
    assert!(matches!(qp::solve_convex_qp(&p, &mut z, &qpsolver), Err(NumericsError::Unsupported { .. })));
    let mut o = PgOptions::default();
    o.step = Some(-1.0);
    assert!(matches!(
        qp::solve_convex_qp(&p, &mut z, &QpSolver::ProjectedGradient(o)),
        Err(NumericsError::InvalidOption { .. })
    ));
    assert!(matches!(qp::read_convex_qp("3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 0"), Err(NumericsError::Parse { .. })));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// On a random SPD problem the answer is a fixed point of the projected gradient map with a
    /// unit step, i.e. the Siconos residual is below tolerance, and it is feasible; its objective
    /// is no larger than at nearby feasible points.
    #[test]
    fn random_spd_cone_qps_reach_the_fixed_point(nc in 1usize..5, vals in prop::collection::vec(-1.0f64..1.0, 200)) {
        let n = 3 * nc;
        let mut it = vals.iter().copied().cycle();
        let g = DMatrix::from_fn(n, n, |_, _| it.next().unwrap());
        let m = &g * g.transpose() + DMatrix::identity(n, n) * 0.2;
        let q: Vec<f64> = (0..n).map(|_| it.next().unwrap()).collect();
        let mu: Vec<f64> = (0..nc).map(|_| 0.1 + it.next().unwrap().abs()).collect();
        let p = ConvexQp::new(3, Operator::Dense(m), q, mu).unwrap();
        let mut z = vec![0.0; n];
        let r = qp::solve_convex_qp(&p, &mut z, &pg(1e-9)).unwrap();
        prop_assert!(r.status.converged(), "{:?}", r);
        let mut proj = z.clone();
        p.project(&mut proj);
        prop_assert!(proj.iter().zip(&z).all(|(a, b)| (a - b).abs() < 1e-12), "answer not in the cones");
        let f = p.objective(&z);
        for k in 0..n {
            for h in [1e-3, -1e-3] {
                let mut y = z.clone();
                y[k] += h;
                p.project(&mut y);
                prop_assert!(p.objective(&y) >= f - 1e-7, "feasible neighbour improves the objective");
            }
        }
    }
}
