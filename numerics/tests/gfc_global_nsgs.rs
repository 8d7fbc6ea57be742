//! The global NSGS (no `W` formed) and the block-diagonal condensation on the Siconos GFC3D
//! collection: the answer must solve the problem (error of the equivalent local problem below
//! the tolerance, `u = Hᵀ v + b`, `M v = H r + q`) and agree with NSGS on the condensed problem.

use saltus_numerics::fc::{self, global::gfc_solver_by_name, GfcSolver, GlobalFrictionContact, NsgsOptions};
use saltus_numerics::io::test_data_dir;
use saltus_numerics::{IterOptions, SolveStatus};

const FILES: &[&str] = &[
    "GFC3D_Example0.dat",
    "GFC3D_Example00.dat",
    "GFC3D_Example0_SBM.dat",
    "GFC3D_Example1.dat",
    "GFC3D_OneContact.dat",
    "GFC3D_TwoRods1.dat",
];

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// `‖M v − H r − q‖∞` and `‖u − Hᵀ v − b‖∞`.
fn equations(p: &GlobalFrictionContact, r: &[f64], u: &[f64], v: &[f64]) -> (f64, f64) {
    let mut res = p.q().iter().map(|x| -x).collect::<Vec<_>>();
    p.m().matvec_add(v, &mut res);
    let mut hr = vec![0.0; v.len()];
    p.h().matvec_add(r, &mut hr);
    res.iter_mut().zip(&hr).for_each(|(a, b)| *a -= b);
    let mut du: Vec<f64> = u.iter().zip(p.b()).map(|(a, b)| a - b).collect();
    let mut htv = vec![0.0; u.len()];
    p.h().tr_matvec_add(v, &mut htv);
    du.iter_mut().zip(&htv).for_each(|(a, b)| *a -= b);
    (max_abs(&res), max_abs(&du))
}

#[test]
fn global_nsgs_solves_the_collection() {
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent (set SALTUS_TEST_DATA or provide ../shared/data): skipping");
        return;
    };
    let folder = d.join("numerics").join("fc3d-global");
    let it = IterOptions::new(1e-10, 20_000);
    for file in FILES {
        let p = fc::read_gfc_file(&folder.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let solve = |s: &GfcSolver| {
            let (mut r, mut u, mut v) = (vec![0.0; p.size()], vec![0.0; p.size()], vec![0.0; p.n_velocities()]);
            let rep = fc::solve_global(&p, &mut r, &mut u, &mut v, s).unwrap_or_else(|e| panic!("{file}: {e}"));
            (rep, r, u, v)
        };
        let (rep, r, u, v) = solve(&GfcSolver::Nsgs(NsgsOptions::with_iter(it)));
        assert_eq!(rep.status, SolveStatus::Converged, "{file}: {rep:?}");
        let c = p.condense().unwrap();
        let err = fc::gfc_error(&c, &r);
        assert!(err <= 1e-10, "{file}: error {err}");
        let scale = 1.0 + max_abs(p.q()) + max_abs(&r);
        let (em, eu) = equations(&p, &r, &u, &v);
        assert!(em <= 1e-10 * scale && eu <= 1e-10 * scale, "{file}: {em} {eu}");
        // same answer as NSGS on the condensed problem (unique normal reactions here)
        let (rep2, r2, ..) = solve(&gfc_solver_by_name("gfc3d-nsgs", it).unwrap());
        assert!(rep2.status.converged(), "{file}");
        let dr = r.iter().zip(&r2).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(dr <= 1e-6 * (1.0 + max_abs(&r)), "{file}: global and condensed NSGS differ by {dr}");
    }
}
