//! NCP / MCP / VI solvers checked against mathematics: the Kojima–Shindo and Josephy NCPs
//! (MCPLIB, known solutions), LCPs of the Siconos collection posed as NCPs against Lemke, the
//! KKT system of a small QP as an MCP, box and ball VIs with closed-form solutions, an NCP with
//! no solution, and user functions that fail.

use nalgebra::DMatrix;
use saltus_numerics::cp::problems::{
    josephy, josephy_jacobian, josephy_solution, kojima_shindo, kojima_shindo_jacobian, kojima_shindo_solutions,
};
use saltus_numerics::cp::{
    self, BoxVi, ConvexSet, CpFunction, CpSolver, Mcp, Ncp, NewtonOptions, ProjectionOptions, UserFnError, Vi,
    WithJacobian,
};
use saltus_numerics::io::test_data_dir;
use saltus_numerics::report::{IterOptions, SolveStatus};
use saltus_numerics::{lcp, NumericsError};

type Res = Result<(), UserFnError>;

fn ncp_residual(f: &mut dyn CpFunction, z: &[f64]) -> f64 {
    let mut fz = vec![0.0; z.len()];
    f.value(z, &mut fz).unwrap();
    z.iter().zip(&fz).map(|(a, b)| a.min(*b).powi(2)).sum::<f64>().sqrt()
}

fn newton_solvers(tol: f64) -> Vec<(&'static str, CpSolver)> {
    let it = IterOptions::new(tol, 200);
    vec![
        ("newton-fb", CpSolver::NewtonFb(NewtonOptions::with_iter(it))),
        ("newton-min", CpSolver::NewtonMin(NewtonOptions::with_iter(it))),
        ("newton-qi", CpSolver::NewtonFb(NewtonOptions::box_qi(it))),
    ]
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
}

#[test]
fn known_solutions_satisfy_the_literature_functions() {
    let s1 = [1.5f64.sqrt(), 0.0, 0.0, 0.5];
    let s2 = [1.0, 0.0, 3.0, 0.0];
    assert!(ncp_residual(&mut kojima_shindo, &s1) < 1e-15);
    assert!(ncp_residual(&mut kojima_shindo, &s2) < 1e-15);
    assert!(ncp_residual(&mut josephy, &s1) < 1e-15);
    assert!(ncp_residual(&mut josephy, &s2) > 1.0); // not a solution of Josephy's
}

#[test]
fn kojima_shindo_reaches_one_of_its_two_solutions() {
    let sols = kojima_shindo_solutions();
    let p = Ncp::new(4).unwrap();
    for (name, s) in newton_solvers(1e-12) {
        for start in [[1.0, 1.0, 1.0, 1.0], [0.0; 4], [1.0, 0.0, 2.0, 0.0]] {
            let mut f = WithJacobian(kojima_shindo, kojima_shindo_jacobian);
            let (mut z, mut w) = (start.to_vec(), vec![0.0; 4]);
            let r = cp::solve_ncp(&p, &mut f, &mut z, &mut w, &s).unwrap();
            assert!(r.status.converged(), "{name} from {start:?}: {r:?}");
            assert!(r.residual <= 1e-12);
            let d = sols.iter().map(|x| dist(x, &z)).fold(f64::INFINITY, f64::min);
            assert!(d < 1e-10, "{name} from {start:?}: z = {z:?}, {d}");
            // the report's residual is the NCP error of the returned z
            assert!((ncp_residual(&mut kojima_shindo, &z) - r.residual).abs() < 1e-15);
            eprintln!("kojima-shindo {name} from {start:?}: {} it, residual {:.1e}", r.iterations, r.residual);
        }
    }
}

#[test]
fn josephy_solution_with_and_without_jacobian() {
    let sol = josephy_solution();
    let p = Ncp::new(4).unwrap();
    for (name, s) in newton_solvers(1e-12) {
        let mut f = WithJacobian(josephy, josephy_jacobian);
        let (mut z, mut w) = (vec![1.0; 4], vec![0.0; 4]);
        let r = cp::solve_ncp(&p, &mut f, &mut z, &mut w, &s).unwrap();
        assert!(r.status.converged(), "{name}: {r:?}");
        assert!(dist(&z, &sol) < 1e-10, "{name}: {z:?}");
        eprintln!("josephy {name}: {} it, residual {:.1e}", r.iterations, r.residual);
        // finite-difference Jacobian
        let mut g = josephy;
        let (mut z, mut w) = (vec![1.0; 4], vec![0.0; 4]);
        let r = cp::solve_ncp(&p, &mut g, &mut z, &mut w, &s).unwrap();
        assert!(r.status.converged(), "{name} (differences): {r:?}");
        assert!(dist(&z, &sol) < 1e-8, "{name} (differences): {z:?}");
    }
}

/// Every LCP of the Siconos collection that Lemke solves, posed as the NCP `F(z) = M z + q`.
#[test]
fn lcp_collection_as_ncp_agrees_with_lemke() {
    let Some(dir) = test_data_dir().map(|d| d.join("numerics").join("lcp")) else {
        eprintln!("test data absent (set SALTUS_TEST_DATA or provide ../shared/data): skipping");
        return;
    };
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    names.retain(|p| p.extension().is_some_and(|e| e == "dat"));
    names.sort();
    let (mut compared, mut pd) = (0, 0);
    for path in names {
        let p = lcp::read_lcp_file(&path).unwrap();
        let n = p.q().len();
        let m = p.m().to_dense();
        let q = p.q().to_vec();
        let p = lcp::Lcp::new(saltus_numerics::Operator::Dense(m.clone()), q.clone()).unwrap();
        let (mut zl, mut wl) = (vec![0.0; n], vec![0.0; n]);
        let lem =
            lcp::solve(&p, &mut zl, &mut wl, &lcp::solver_by_name("lemke", IterOptions::default()).unwrap()).unwrap();
        if !lem.status.converged() {
            continue;
        }
        let mut f = WithJacobian(
            |z: &[f64], out: &mut [f64]| -> Res {
                let v = &m * nalgebra::DVector::from_column_slice(z);
                for i in 0..out.len() {
                    out[i] = v[i] + q[i];
                }
                Ok(())
            },
            |_z: &[f64], j: &mut DMatrix<f64>| -> Res {
                j.copy_from(&m);
                Ok(())
            },
        );
        let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
        let s = CpSolver::NewtonFb(NewtonOptions::with_iter(IterOptions::new(1e-10, 500)));
        let r = cp::solve_ncp(&Ncp::new(n).unwrap(), &mut f, &mut z, &mut w, &s).unwrap();
        let sym = (&m + m.transpose()) * 0.5;
        let positive_definite = sym.cholesky().is_some();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        eprintln!(
            "{name}: n {n}, PD {positive_definite}, newton-fb {:?} in {} it, residual {:.1e}, |z - z_lemke| {:.1e}",
            r.status,
            r.iterations,
            r.residual,
            dist(&z, &zl)
        );
        if positive_definite {
            // unique solution: both methods must find it
            pd += 1;
            assert!(r.status.converged(), "{name}: {r:?}");
            assert!(dist(&z, &zl) <= 1e-7 * (1.0 + zl.iter().map(|v| v.abs()).fold(0.0, f64::max)), "{name}");
        }
        if r.status.converged() {
            compared += 1;
            // a solution of the LCP by Siconos's own LCP measure
            assert!(lcp::lcp_error(p.m(), p.q(), &z) < 1e-8, "{name}");
        }
    }
    assert!(pd >= 3 && compared >= 8, "{pd} positive definite, {compared} solved");
}

/// min ½ xᵀ Q x + cᵀ x s.t. x₁ + x₂ = 1, x ≥ 0 with Q = diag(1, 2), c = (−2, 0): the KKT
/// system as an MCP, `z = (μ, x₁, x₂)`, `F = (x₁ + x₂ − 1, Q x + c − μ 1)`: the equation first
/// (n1 = 1), then `0 ≤ x ⊥ Qx + c − μ ≥ 0`. Closed form: both x > 0 would need
/// x₁ − 2 = 2x₂ = μ, x₁ + x₂ = 1, so x₁ = 4/3, x₂ = −1/3 < 0; hence x₂ = 0, x₁ = 1, μ = −1, and
/// the x₂ row 2·0 − 0 − (−1) = 1 > 0 (strict complementarity).
#[test]
fn mcp_kkt_of_a_qp() {
    let f = |z: &[f64], out: &mut [f64]| -> Res {
        let (mu, x1, x2) = (z[0], z[1], z[2]);
        out[0] = x1 + x2 - 1.0;
        out[1] = x1 - 2.0 - mu;
        out[2] = 2.0 * x2 - mu;
        Ok(())
    };
    let j = |_: &[f64], j: &mut DMatrix<f64>| -> Res {
        j.copy_from(&DMatrix::from_row_slice(3, 3, &[0.0, 1.0, 1.0, -1.0, 1.0, 0.0, -1.0, 0.0, 2.0]));
        Ok(())
    };
    let p = Mcp::new(1, 2).unwrap();
    for (name, s) in newton_solvers(1e-12) {
        let mut fj = WithJacobian(f, j);
        let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 3]);
        let r = cp::solve_mcp(&p, &mut fj, &mut z, &mut w, &s).unwrap();
        assert!(r.status.converged(), "{name}: {r:?}");
        assert!(dist(&z, &[-1.0, 1.0, 0.0]) < 1e-10, "{name}: {z:?}");
        assert!(w[0].abs() < 1e-12 && (w[2] - 1.0).abs() < 1e-10, "{name}: {w:?}");
    }
    // the optimum of the same QP with the tolerance of the projection methods (F monotone)
    let s = CpSolver::ExtraGradient(ProjectionOptions::with_iter(IterOptions::new(1e-9, 100_000)));
    let mut ff = f;
    let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 3]);
    let r = cp::solve_mcp(&p, &mut ff, &mut z, &mut w, &s).unwrap();
    assert!(r.status.converged(), "extragradient: {r:?}");
    assert!(dist(&z, &[-1.0, 1.0, 0.0]) < 1e-7, "extragradient: {z:?}");
}

/// `F(x) = A x − b` on `K = [−1, 1]²` with `A` symmetric positive definite: the minimizer of
/// `½ xᵀAx − bᵀx` on the box. With `A = [[2, 1], [1, 2]]`, `b = (5, −2)`: at `x = (1, −1)`,
/// `F₁ = 2 − 1 − 5 = −4 ≤ 0` at the upper bound and `F₂ = 1 − 2 + 2 = 1 ≥ 0` at the lower bound,
/// so (1, −1) is the solution (unique: `A` is positive definite). Every solver.
#[test]
fn box_vi_with_known_solution() {
    let f = |x: &[f64], out: &mut [f64]| -> Res {
        out[0] = 2.0 * x[0] + x[1] - 5.0;
        out[1] = x[0] + 2.0 * x[1] + 2.0;
        Ok(())
    };
    let j = |_: &[f64], j: &mut DMatrix<f64>| -> Res {
        j.copy_from(&DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]));
        Ok(())
    };
    let p = BoxVi::new(vec![-1.0, -1.0], vec![1.0, 1.0]).unwrap();
    let it = IterOptions::new(1e-12, 100_000);
    for s in [
        CpSolver::NewtonFb(NewtonOptions::with_iter(it)),
        CpSolver::NewtonMin(NewtonOptions::with_iter(it)),
        CpSolver::NewtonFb(NewtonOptions::box_qi(it)),
        CpSolver::NewtonFb(NewtonOptions::siconos_box_qi(it)),
        CpSolver::ExtraGradient(ProjectionOptions::with_iter(it)),
        CpSolver::FixedPointProjection(ProjectionOptions::with_iter(it)),
    ] {
        let mut fj = WithJacobian(f, j);
        let (mut x, mut w) = (vec![0.3, 0.7], vec![0.0; 2]);
        let r = cp::solve_box_vi(&p, &mut fj, &mut x, &mut w, &s).unwrap();
        assert!(r.status.converged(), "{s:?}: {r:?}");
        assert!(dist(&x, &[1.0, -1.0]) < 1e-10, "{s:?}: {x:?}");
        // the same as a Vi on ConvexSet::Box
        let mut vi = Vi::new(ConvexSet::Box { lb: vec![-1.0; 2], ub: vec![1.0; 2] });
        let (mut x2, mut w2) = (vec![0.3, 0.7], vec![0.0; 2]);
        let r2 = cp::solve_vi(&mut vi, &mut fj, &mut x2, &mut w2, &s).unwrap();
        assert_eq!(x, x2);
        assert_eq!(r.iterations, r2.iterations);
    }
}

/// `F(x) = x − a` on the unit ball with `‖a‖ > 1`: `x* = a / ‖a‖` (the projection of `a`).
/// `F` is strongly monotone, so both projection methods converge; the Newton methods refuse
/// a set that is not a box.
#[test]
fn ball_vi_is_the_projection_of_the_target() {
    let a = [3.0, -4.0, 12.0]; // ‖a‖ = 13
    let sol: Vec<f64> = a.iter().map(|v| v / 13.0).collect();
    let f = move |x: &[f64], out: &mut [f64]| -> Res {
        for i in 0..3 {
            out[i] = x[i] - a[i];
        }
        Ok(())
    };
    for s in [
        CpSolver::ExtraGradient(ProjectionOptions::with_iter(IterOptions::new(1e-12, 10_000))),
        CpSolver::FixedPointProjection(ProjectionOptions::with_iter(IterOptions::new(1e-12, 10_000))),
    ] {
        let mut vi = Vi::new(ConvexSet::Ball { center: vec![0.0; 3], radius: 1.0 });
        let mut ff = f;
        let (mut x, mut w) = (vec![0.0; 3], vec![0.0; 3]);
        let r = cp::solve_vi(&mut vi, &mut ff, &mut x, &mut w, &s).unwrap();
        assert!(r.status.converged(), "{s:?}: {r:?}");
        assert!(dist(&x, &sol) < 1e-10, "{s:?}: {x:?}");
        // residual: ‖x − P(x − F(x))‖ / ‖F(0)‖ = … / 13
        let y: Vec<f64> = (0..3).map(|i| x[i] - w[i]).collect();
        let ny = y.iter().map(|v| v * v).sum::<f64>().sqrt().max(1.0);
        let e = (0..3).map(|i| (x[i] - y[i] / ny).powi(2)).sum::<f64>().sqrt() / 13.0;
        assert!((e - r.residual).abs() < 1e-15);
    }
    let mut vi = Vi::new(ConvexSet::Ball { center: vec![0.0; 3], radius: 1.0 });
    let mut ff = f;
    let (mut x, mut w) = (vec![0.0; 3], vec![0.0; 3]);
    let e = cp::solve_vi(&mut vi, &mut ff, &mut x, &mut w, &CpSolver::NewtonFb(NewtonOptions::default()));
    assert!(matches!(e, Err(NumericsError::Unsupported { .. })), "{e:?}");
}

/// A user projection (the ball again, as a `Projection`): same answer as `ConvexSet::Ball`.
#[test]
fn user_projection() {
    struct Ball;
    impl cp::Projection for Ball {
        fn size(&self) -> usize {
            2
        }
        fn project(&mut self, x: &[f64], out: &mut [f64]) -> Result<(), UserFnError> {
            let n = (x[0] * x[0] + x[1] * x[1]).sqrt().max(2.0);
            out[0] = 2.0 * x[0] / n;
            out[1] = 2.0 * x[1] / n;
            Ok(())
        }
    }
    let mut f = |x: &[f64], out: &mut [f64]| -> Res {
        out[0] = x[0] - 6.0;
        out[1] = x[1] - 8.0;
        Ok(())
    };
    let mut vi = Vi::new(ConvexSet::User(Box::new(Ball)));
    let (mut x, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    let s = CpSolver::ExtraGradient(ProjectionOptions::with_iter(IterOptions::new(1e-12, 10_000)));
    let r = cp::solve_vi(&mut vi, &mut f, &mut x, &mut w, &s).unwrap();
    assert!(r.status.converged(), "{r:?}");
    assert!(dist(&x, &[1.2, 1.6]) < 1e-10, "{x:?}");
}

/// `F(z) = −1 − z²` has no NCP solution (`F < 0` everywhere): a non-converged status, never
/// an error, for every solver; nor has `F(z) = M z + q` with `M = 0` and `q = (1, −1)`.
#[test]
fn unsolvable_problems_give_a_status() {
    let p = Ncp::new(1).unwrap();
    let it = IterOptions::new(1e-10, 200);
    for s in [
        CpSolver::NewtonFb(NewtonOptions::with_iter(it)),
        CpSolver::NewtonMin(NewtonOptions::with_iter(it)),
        CpSolver::ExtraGradient(ProjectionOptions::with_iter(it)),
        CpSolver::FixedPointProjection(ProjectionOptions::with_iter(it)),
    ] {
        let mut f = |z: &[f64], out: &mut [f64]| -> Res {
            out[0] = -1.0 - z[0] * z[0];
            Ok(())
        };
        let (mut z, mut w) = (vec![0.5], vec![0.0]);
        let r = cp::solve_ncp(&p, &mut f, &mut z, &mut w, &s).unwrap();
        assert!(!r.status.converged(), "{s:?}: {r:?}");
        assert!(r.residual > 0.5 && z[0].is_finite(), "{s:?}: {r:?} {z:?}");
    }
    // F = M z + q with M = 0 (singular) and q = (1, −1): F₂ < 0 everywhere, no solution
    let p2 = Ncp::new(2).unwrap();
    let mut f = |_z: &[f64], out: &mut [f64]| -> Res {
        out[0] = 1.0;
        out[1] = -1.0;
        Ok(())
    };
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    let r = cp::solve_ncp(&p2, &mut f, &mut z, &mut w, &CpSolver::NewtonFb(NewtonOptions::with_iter(it))).unwrap();
    assert!(matches!(r.status, SolveStatus::MaxIterations | SolveStatus::Failed(_)), "{r:?}");
}

/// A user function that fails, or returns NaN, is a typed error naming the iteration.
#[test]
fn failing_user_functions_are_typed_errors() {
    let p = Ncp::new(2).unwrap();
    let s = CpSolver::NewtonFb(NewtonOptions::default());
    let mut calls = 0;
    let mut f = |z: &[f64], out: &mut [f64]| -> Res {
        calls += 1;
        if calls > 3 {
            return Err(UserFnError::Fatal("the model diverged".into()));
        }
        out[0] = z[0] * z[0] + z[1] - 1.0;
        out[1] = z[1] - 0.5 + z[0];
        Ok(())
    };
    let (mut z, mut w) = (vec![3.0, 3.0], vec![0.0; 2]);
    match cp::solve_ncp(&p, &mut f, &mut z, &mut w, &s) {
        Err(NumericsError::UserFunction { what, iteration, message }) => {
            assert!(what.starts_with('F') && message.contains("diverged") && iteration >= 1, "{what} {iteration}");
        }
        other => panic!("{other:?}"),
    }
    let mut g = |z: &[f64], out: &mut [f64]| -> Res {
        out[0] = if z[0] > 2.0 { f64::NAN } else { z[0] - 1.0 };
        out[1] = z[1];
        Ok(())
    };
    let (mut z, mut w) = (vec![5.0, 0.0], vec![0.0; 2]);
    match cp::solve_ncp(&p, &mut g, &mut z, &mut w, &s) {
        Err(NumericsError::UserFunction { iteration: 0, message, .. }) => assert!(message.contains("non-finite")),
        other => panic!("{other:?}"),
    }
    let mut jac_fails = WithJacobian(
        |z: &[f64], out: &mut [f64]| -> Res {
            out.copy_from_slice(z);
            out[0] -= 1.0;
            Ok(())
        },
        |_: &[f64], _: &mut DMatrix<f64>| -> Res { Err(UserFnError::Fatal("no jacobian today".into())) },
    );
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    let e = cp::solve_ncp(&p, &mut jac_fails, &mut z, &mut w, &s).unwrap_err();
    assert!(e.to_string().contains("jacobian of F failed at iteration 1: no jacobian today"), "{e}");
    // a recoverable failure at a trial point shortens the step: ln z needs z > 0
    let mut ln = |z: &[f64], out: &mut [f64]| -> Res {
        if z[0] <= 0.0 {
            return Err(UserFnError::Recoverable("log of a non-positive number".into()));
        }
        out[0] = z[0].ln() + 1.0; // F = 0 at z = 1/e
        Ok(())
    };
    let (mut z, mut w) = (vec![3.0], vec![0.0]);
    let r = cp::solve_ncp(&Ncp::new(1).unwrap(), &mut ln, &mut z, &mut w, &s).unwrap();
    assert!(r.status.converged() && (z[0] - (-1.0f64).exp()).abs() < 1e-10, "{r:?} {z:?}");
}

#[test]
fn bad_input_is_rejected() {
    assert!(Ncp::new(0).is_err());
    assert!(Mcp::new(0, 0).is_err());
    assert!(BoxVi::new(vec![1.0], vec![0.0]).is_err());
    assert!(BoxVi::new(vec![f64::NAN], vec![0.0]).is_err());
    assert!(BoxVi::new(vec![f64::INFINITY], vec![f64::INFINITY]).is_err());
    let mut f = |z: &[f64], out: &mut [f64]| -> Res {
        out.copy_from_slice(z);
        Ok(())
    };
    let p = Ncp::new(2).unwrap();
    let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 2]);
    assert!(matches!(
        cp::solve_ncp(&p, &mut f, &mut z, &mut w, &CpSolver::NewtonFb(NewtonOptions::default())),
        Err(NumericsError::DimensionMismatch { .. })
    ));
    let (mut z, mut w) = (vec![f64::NAN, 0.0], vec![0.0; 2]);
    assert!(cp::solve_ncp(&p, &mut f, &mut z, &mut w, &CpSolver::NewtonFb(NewtonOptions::default())).is_err());
    let mut o = NewtonOptions::default();
    o.beta = 1.5;
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    assert!(matches!(
        cp::solve_ncp(&p, &mut f, &mut z, &mut w, &CpSolver::NewtonFb(o)),
        Err(NumericsError::InvalidOption { option: "beta", .. })
    ));
}

/// One step of the Siconos tutorial `control/Zhuravlev/ZhuravlevIvanovVI.py` (h = 1e-3, κ = 0.7,
/// g = 9.81, θ = γ = 1): the box VI on `[−1, 1]²` in the multiplier λ with the tutorial's `F`
/// and its `∇F` (which is not the derivative of `F`: its entry (1, 1) divides where it should
/// multiply), at the state `xk`, tolerance 1e-16, 50 iterations.
fn zhuravlev_step(xk: [f64; 2], l0: [f64; 2]) -> (saltus_numerics::SolveReport, Vec<f64>) {
    let (kappa, g, h) = (0.7, 9.81, 1e-3);
    let f = move |l: &[f64], out: &mut [f64]| -> Res {
        let inv_r = 1.0 / (1.0 - kappa * l[0] * l[1]);
        out[1] = h * g * l[0] * inv_r;
        let v = xk[1] + out[1];
        out[0] = -h * kappa * l[0] * l[1] * v;
        out[0] += xk[0] + h * v; // the tutorial's order of operations
        out[1] += xk[1];
        Ok(())
    };
    let j = move |l: &[f64], nab: &mut DMatrix<f64>| -> Res {
        let inv_r = 1.0 / (1.0 - kappa * l[0] * l[1]);
        let inv_r2 = inv_r * inv_r;
        let v = xk[1] + h * g * l[0] * inv_r;
        nab[(1, 0)] = h * g * inv_r2;
        nab[(1, 1)] = h * (g * kappa * l[0] * l[0]) / inv_r2;
        nab[(0, 0)] = -h * (kappa * l[1] * v + (-1.0 + h * kappa * l[0] * l[1]) * nab[(1, 0)]);
        nab[(0, 1)] = -h * (kappa * l[0] * v + (-1.0 + h * kappa * l[0] * l[1]) * nab[(1, 1)]);
        Ok(())
    };
    let p = BoxVi::new(vec![-1.0; 2], vec![1.0; 2]).unwrap();
    let s = CpSolver::NewtonFb(NewtonOptions::siconos_box_qi(IterOptions::new(1e-16, 50)));
    let (mut x, mut w) = (l0.to_vec(), vec![0.0; 2]);
    let r = cp::solve_box_vi(&p, &mut WithJacobian(f, j), &mut x, &mut w, &s).unwrap();
    (r, x)
}

/// `siconos-box-qi` against Siconos 4.4's `variationalInequality_box_newton_QiLSA` on steps of
/// that tutorial (Siconos's results logged from `/usr/bin/python3` with python3-siconos 4.4):
/// the same multipliers to the last bit, the same iteration counts, converged or not.
#[test]
#[allow(clippy::excessive_precision)] // Siconos's values as logged (%.17g)
fn siconos_box_qi_reproduces_siconos_on_zhuravlev_ivanov_steps() {
    // step 306: not converged after 50 iterations, error 9.706e-13, λ = (−1, −0.89973045823959197)
    let (r, x) = zhuravlev_step([1.4572163499999984, 0.026499999999959847], [-1.0, -1.0]);
    assert_eq!((r.status, r.iterations), (SolveStatus::MaxIterations, 50));
    assert_eq!(x, [-1.0, -0.89973045823959197]);
    assert!((r.residual - 9.706e-13).abs() < 1e-15, "{r:?}");
    // step 947: not converged, error 1.378e-10, λ = (1, 0.99013763255225284)
    let (r, x) = zhuravlev_step([-0.044712636207636609, -0.031964428338128244], [1.0, 1.0]);
    assert_eq!((r.status, r.iterations), (SolveStatus::MaxIterations, 50));
    assert_eq!(x, [1.0, 0.99013763255225284]);
    // step 307: converged in 5 iterations at (−1, 1)
    let (r, x) = zhuravlev_step([1.4572163499999984, 7.2858385991025898e-17], [-1.0, -0.899730458220223905]);
    assert_eq!((r.status, r.iterations), (SolveStatus::Converged, 5));
    assert_eq!(x, [-1.0, 1.0]);
    // step 1075: converged in 8 iterations at (−0.46267154254399162, 1)
    let (r, x) = zhuravlev_step([0.00011913144444395917, -0.086558823529411869], [-1.0, 1.0]);
    assert_eq!((r.status, r.iterations), (SolveStatus::Converged, 8));
    assert_eq!(x, [-0.46267154254399162, 1.0]);
}
