//! The dense and the sparse LU of the Newton Jacobian (`JacobianFactorization::Dense` /
//! `Sparse`) drive PROX and Newton–Alart–Curnier to solutions of the same problem: each run's
//! answer is checked with the canonical error recomputed from `u = W r + q` (`fc::fc_error`),
//! not with the solver's own report.

use saltus_numerics::fc::{self, FcSolver, FrictionContact, JacobianFactorization, NewtonOptions, ProxOptions};
use saltus_numerics::io::test_data_dir;
use saltus_numerics::IterOptions;

const FACTORIZATIONS: [JacobianFactorization; 3] =
    [JacobianFactorization::Dense, JacobianFactorization::Sparse, JacobianFactorization::Auto];

/// Solves with `solver` and returns the canonical error of its `r`, recomputed.
fn solved_error(p: &FrictionContact, solver: &FcSolver) -> f64 {
    let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
    let rep = fc::solve(p, &mut r, &mut u, solver).expect("solve");
    assert!(rep.status.converged(), "{}: {:?} after {} iterations", solver.name(), rep.status, rep.iterations);
    fc::fc_error(p, &r)
}

fn prox(how: JacobianFactorization, tol: f64) -> FcSolver {
    let mut o = ProxOptions::with_iter(IterOptions::new(tol, 200));
    o.factorization = how;
    FcSolver::Prox(o)
}

fn newton(how: JacobianFactorization, tol: f64) -> FcSolver {
    let mut o = NewtonOptions::with_iter(IterOptions::new(tol, 200));
    o.factorization = how;
    FcSolver::NewtonAc(o)
}

#[test]
fn dense_and_sparse_jacobians_solve_the_sphere_column() {
    // 40 contacts, 120 unknowns: block-tridiagonal W (block density 118 / 1600).
    let p = fc::generate::sphere_column(40, 7).expect("generated problem");
    let tol = 1e-10;
    for how in FACTORIZATIONS {
        for solver in [prox(how, tol), newton(how, tol)] {
            let e = solved_error(&p, &solver);
            assert!(e <= tol, "{} {how:?}: error {e:e}", solver.name());
        }
    }
}

#[test]
fn dense_and_sparse_jacobians_solve_boxes_stack() {
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent: skipping");
        return;
    };
    let p = fc::read_fc_file(&d.join("numerics/fc3d/BoxesStack1-i100000-32.hdf5.dat")).expect("read BoxesStack1");
    let tol = 1e-8;
    for how in FACTORIZATIONS {
        let e = solved_error(&p, &prox(how, tol));
        assert!(e <= tol, "prox {how:?}: error {e:e}");
    }
}

/// Newton–Alart–Curnier's globalization: on `Capsules-i101-404` the Armijo search fails at the
/// 12th Newton step; the solver then takes the full step (as Siconos's `NSN_AC` does) instead of
/// stopping, and converges (Siconos `NSN_AC`: 74 steps; ours: about 1060). Stopped by a short
/// cap, it returns a finite iterate (its least-merit one) and reports that iterate's true error.
#[test]
fn newton_ac_recovers_from_a_failed_line_search() {
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent: skipping");
        return;
    };
    let p = fc::read_fc_file(&d.join("numerics/fc3d/Capsules-i101-404.dat")).expect("read Capsules-i101-404");
    let tol = 1e-8;
    let solver = FcSolver::NewtonAc(NewtonOptions::with_iter(IterOptions::new(tol, 3000)));
    let e = solved_error(&p, &solver);
    assert!(e <= tol, "newton-ac: error {e:e}");
    // A short cap: not converged; the returned r is finite and its reported error is its own.
    let short = FcSolver::NewtonAc(NewtonOptions::with_iter(IterOptions::new(tol, 40)));
    let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
    let rep = fc::solve(&p, &mut r, &mut u, &short).expect("solve");
    assert!(!rep.status.converged());
    assert!(r.iter().all(|x| x.is_finite()));
    assert!((fc::fc_error(&p, &r) - rep.residual).abs() <= 1e-12 * (1.0 + rep.residual));
}
