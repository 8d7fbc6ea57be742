//! One-contact friction problems solved exactly in their three regimes (separation, sticking,
//! sliding) against hand-derived answers, by every local solver and every global solver.

use nalgebra::{DMatrix, Matrix3, Vector3};
use saltus_numerics::fc::{self, local, FcSolver, FrictionContact};
use saltus_numerics::{IterOptions, Operator, SolveStatus};

/// `(name, W, q, μ, expected r)`.
type Case = (&'static str, Matrix3<f64>, Vector3<f64>, f64, Vector3<f64>);

/// (W, q, μ, exact r). Derivations:
/// * separation: `q_N ≥ 0` ⇒ `r = 0`;
/// * sticking (W = I): `u = 0` ⇒ `r = −q`, inside the cone since `‖q_T‖ ≤ μ |q_N|`;
/// * sliding (W = diag(2,1,1), q = (−2, 3, 4), μ = ½): `u_N = 0` ⇒ `2 r_N = 2`, `r_N = 1`;
///   `r_T = −μ r_N t` with `t = u_T/‖u_T‖`; `u_T = r_T + q_T` is parallel to `q_T` when
///   `t = q_T/‖q_T‖ = (0.6, 0.8)`, so `r_T = (−0.3, −0.4)`, `u_T = (2.7, 3.6)` (same direction ✓).
fn cases() -> Vec<Case> {
    vec![
        ("separation", Matrix3::identity(), Vector3::new(1.0, 0.3, -0.2), 0.5, Vector3::zeros()),
        ("sticking", Matrix3::identity(), Vector3::new(-1.0, 0.2, 0.1), 0.5, Vector3::new(1.0, -0.2, -0.1)),
        (
            "sliding",
            Matrix3::from_diagonal(&Vector3::new(2.0, 1.0, 1.0)),
            Vector3::new(-2.0, 3.0, 4.0),
            0.5,
            Vector3::new(1.0, -0.3, -0.4),
        ),
        // Sticking with a coupled block: W r = −q with r = (1, 0.1, −0.1).
        (
            "sticking-coupled",
            Matrix3::new(2.0, 0.1, 0.0, 0.1, 1.5, 0.2, 0.0, 0.2, 1.0),
            -(Matrix3::new(2.0, 0.1, 0.0, 0.1, 1.5, 0.2, 0.0, 0.2, 1.0) * Vector3::new(1.0, 0.1, -0.1)),
            0.3,
            Vector3::new(1.0, 0.1, -0.1),
        ),
    ]
}

#[test]
fn local_solvers_three_regimes() {
    for (name, w, q, mu, exact) in cases() {
        for kind in
            [local::LocalSolver::Projection, local::LocalSolver::AlartCurnier, local::LocalSolver::FischerBurmeister]
        {
            let mut r = Vector3::zeros();
            let ok = local::solve_3d(kind, &w, &q, mu, &mut r, 1e-14, 2000);
            assert!(ok, "{name} {kind:?} did not converge: r = {r}");
            assert!((r - exact).norm() < 1e-9, "{name} {kind:?}: r = {r}, expected {exact}");
        }
    }
}

#[test]
fn all_3d_solvers_three_regimes() {
    let it = IterOptions::new(1e-12, 10_000);
    for (name, w, q, mu, exact) in cases() {
        let p = FrictionContact::new(
            3,
            Operator::Dense(DMatrix::from_column_slice(3, 3, w.as_slice())),
            q.as_slice().to_vec(),
            vec![mu],
        )
        .unwrap();
        for (s, _) in fc::SOLVERS {
            let Some(solver) = fc::solver_by_name(s, it) else { panic!("{s}") };
            if matches!(solver, FcSolver::Nsgs2d(_) | FcSolver::Lemke2d(_)) {
                assert!(fc::solve(&p, &mut [0.0; 3], &mut [0.0; 3], &solver).is_err(), "{s} must refuse 3D");
                continue;
            }
            let (mut r, mut u) = ([0.0; 3], [0.0; 3]);
            let rep = fc::solve(&p, &mut r, &mut u, &solver).unwrap();
            assert_eq!(rep.status, SolveStatus::Converged, "{name} {s}: {rep:?}");
            let err = (Vector3::from_column_slice(&r) - exact).norm();
            assert!(err < 1e-9, "{name} {s}: r = {r:?}, expected {exact}");
            assert!((fc::fc_error(&p, &r) - rep.residual).abs() <= 1e-15 + 1e-12 * rep.residual);
            if name == "separation" {
                assert_eq!(rep.iterations, 0, "trivial shortcut");
            }
        }
    }
}

#[test]
fn two_d_solvers_three_regimes() {
    // W = I, μ = 0.5. separation q = (1, 3) → 0; sticking q = (−1, 0.2) → (1, −0.2);
    // sliding q = (−1, 2) → r_N = 1, r_T = −0.5 (u_T = 1.5 > 0).
    let cases =
        [([1.0, 3.0], [0.0, 0.0]), ([-1.0, 0.2], [1.0, -0.2]), ([-1.0, 2.0], [1.0, -0.5]), ([-1.0, -2.0], [1.0, 0.5])];
    for (q, exact) in cases {
        let p = FrictionContact::new(2, Operator::Dense(DMatrix::identity(2, 2)), q.to_vec(), vec![0.5]).unwrap();
        for s in ["nsgs", "lemke", "vi-fp", "vi-eg"] {
            let solver = fc::solver_by_name(s, IterOptions::new(1e-12, 10_000)).unwrap();
            let (mut r, mut u) = ([0.0; 2], [0.0; 2]);
            let rep = fc::solve(&p, &mut r, &mut u, &solver).unwrap();
            assert!(rep.status.converged(), "{s} {q:?}: {rep:?}");
            assert!((r[0] - exact[0]).abs() < 1e-9 && (r[1] - exact[1]).abs() < 1e-9, "{s} {q:?}: {r:?}");
        }
    }
}

#[test]
fn invalid_input_is_an_error_not_a_panic() {
    let w = Operator::Dense(DMatrix::identity(3, 3));
    assert!(FrictionContact::new(3, w.clone(), vec![0.0; 2], vec![0.5]).is_err());
    assert!(FrictionContact::new(4, w.clone(), vec![0.0; 3], vec![0.5]).is_err());
    assert!(FrictionContact::new(3, w.clone(), vec![f64::NAN, 0.0, 0.0], vec![0.5]).is_err());
    assert!(FrictionContact::new(3, w.clone(), vec![0.0; 3], vec![-0.5]).is_err());
    let p = FrictionContact::new(3, w, vec![-1.0, 0.0, 0.0], vec![0.5]).unwrap();
    assert!(fc::solve(
        &p,
        &mut [0.0; 2],
        &mut [0.0; 3],
        &fc::solver_by_name("nsgs-ac", IterOptions::default()).unwrap()
    )
    .is_err());
    assert!(fc::read_fc("3 1 0 3 3 3 3 1 0 0").is_err());
}
