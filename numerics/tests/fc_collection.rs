//! Conformance over the Siconos friction-contact collection (`test_data_dir()/numerics/{fc2d,
//! fc3d, fc3d-global}`): every `.dat` file reads, and the solver named in the expectations table
//! converges on it to 1e-8 in the canonical normalized error, recomputed here from the returned
//! reaction (and, for global problems, the velocities satisfy `M v = H r + q` through the
//! condensed problem). Runtime is bounded for CI: files marked `None` are too slow for the test
//! profile (several seconds) or not solved to 1e-8 by any of our solvers; they run only in the
//! `fc_collection` example.

use saltus_numerics::fc::{self, global::gfc_solver_by_name, FcSolver};
use saltus_numerics::io::test_data_dir;
use saltus_numerics::{IterOptions, SolveStatus};

/// (file, solver that must converge to 1e-8, or None = collection example only).
const FC2D: &[(&str, Option<&str>)] = &[
    ("FC2D_SliderCrankLagrangian00000.dat", Some("lemke")),
    ("FC2D_SliderCrankLagrangian00001.dat", Some("nsgs")),
    ("FrictionContactProblem00031.dat", Some("nsgs")),
    ("FrictionContactProblem00071.dat", Some("nsgs")),
    ("FrictionContactProblem00237.dat", Some("nsgs")),
    ("FrictionContactProblem00374.dat", Some("lemke")),
    ("FrictionContactProblem00394.dat", Some("lemke")),
    ("FrictionContactProblem00727.dat", Some("nsgs")),
    ("fc2d_granularflowonwall_00667_00000.dat", Some("nsgs")),
    ("fc2d_granularflowonwall_02020_00213.dat", None),
    ("fc2d_granularflowonwall_07002_00801.dat", None),
];

const FC3D: &[(&str, Option<&str>)] = &[
    ("BoxesStack1-i100000-32.hdf5.dat", Some("prox")),
    ("Capsules-i100-1090.dat", Some("prox")),
    ("Capsules-i100-889.dat", Some("prox")),
    ("Capsules-i101-404.dat", Some("prox")),
    ("Capsules-i103-990.dat", Some("prox")),
    ("Capsules-i122-1617.dat", Some("prox")),
    ("Confeti-ex03-Fc3D-SBM.dat", Some("prox")),
    ("Confeti-ex13-4contact-Fc3D-SBM.dat", Some("prox")),
    ("Confeti-ex13-Fc3D-SBM.dat", Some("prox")),
    ("FC3D_Example1.dat", Some("nsgs-ac")),
    ("FC3D_Example1_SBM.dat", Some("nsgs-ac")),
    ("FrictionContact3D_1c.dat", Some("nsgs-ac")),
    ("FrictionContact3D_RR_1c.dat", Some("nsgs-ac")),
    ("GFC3D_TwoRods1-condensed.dat", Some("nsgs-ac")),
    ("KaplasTower-i1061-4.hdf5.dat", Some("prox")),
    ("NESpheres_10_1.dat", Some("prox")),
    ("NESpheres_30_1.dat", Some("prox")),
    ("OneObject-i100000-316.hdf5.dat", Some("prox")),
    ("OneObject-i100000-499.hdf5.dat", Some("prox")),
    ("OneObject-i1028-138.hdf5.dat", Some("prox")),
    ("RockPile_tob1.dat", None),
    ("Rover1039.dat", Some("prox")),
    ("Rover1040.dat", Some("prox")),
    ("Rover1041.dat", Some("prox")),
    ("Rover11035.dat", Some("prox")),
    ("Rover11211.dat", Some("prox")),
    ("Rover3865.dat", Some("prox")),
    ("Rover4144.dat", Some("prox")),
    ("Rover4396.dat", Some("prox")),
    ("Rover4493.dat", Some("prox")),
    ("Rover4516.dat", Some("prox")),
    ("Rover4609.dat", Some("prox")),
    ("Rover4613.dat", Some("prox")),
    ("Rover4622.dat", Some("prox")),
    ("Rover9770.dat", Some("prox")),
];

const GFC3D: &[(&str, Option<&str>)] = &[
    ("GFC3D_Example0.dat", Some("gfc3d-nsgs")),
    ("GFC3D_Example00.dat", Some("gfc3d-nsgs")),
    ("GFC3D_Example00_badly_scaled.dat", Some("gfc3d-nsgs")),
    ("GFC3D_Example0_SBM.dat", Some("gfc3d-nsgs")),
    ("GFC3D_Example1.dat", Some("gfc3d-nsgs")),
    ("GFC3D_OneContact.dat", Some("gfc3d-nsgs")),
    ("GFC3D_TwoRods1.dat", Some("gfc3d-nsgs")),
];

fn dir(family: &str) -> Option<std::path::PathBuf> {
    match test_data_dir() {
        Some(d) => Some(d.join("numerics").join(family)),
        None => {
            eprintln!("test data absent (set SALTUS_TEST_DATA or provide ../shared/data): skipping");
            None
        }
    }
}

/// Every `.dat` file of the folder is in the table (so new files are not silently ignored).
fn table_covers(folder: &std::path::Path, table: &[(&str, Option<&str>)]) {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".dat") && n != "ACinputs.dat")
        .collect();
    names.sort();
    for n in &names {
        assert!(table.iter().any(|(f, _)| f == n), "{n} missing from the expectations table");
    }
}

fn run_local(family: &str, table: &[(&str, Option<&str>)]) {
    let Some(folder) = dir(family) else { return };
    table_covers(&folder, table);
    let it = IterOptions::new(1e-8, 10_000);
    for (file, solver) in table {
        let p = fc::read_fc_file(&folder.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(p.dim(), if family == "fc2d" { 2 } else { 3 }, "{file}");
        let Some(name) = solver else { continue };
        check_solves(file, &p, name, it);
    }
}

/// `name` converges on `p` to 1e-8 in the recomputed error, with finite `(r, u)` and `u = W r + q`.
fn check_solves(file: &str, p: &fc::FrictionContact, name: &str, it: IterOptions) {
    let s: FcSolver = fc::solver_by_name(name, it).unwrap();
    let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
    let rep = fc::solve(p, &mut r, &mut u, &s).unwrap_or_else(|e| panic!("{file} {name}: {e}"));
    assert_eq!(rep.status, SolveStatus::Converged, "{file} {name}: {rep:?}");
    let e = fc::fc_error(p, &r);
    assert!(e <= 1e-8, "{file} {name}: recomputed error {e}");
    assert!(r.iter().chain(u.iter()).all(|x| x.is_finite()));
    let mut u2 = p.q().to_vec();
    p.w().matvec_add(1.0, &r, &mut u2);
    let du = u.iter().zip(&u2).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(du <= 1e-10 * (1.0 + u2.iter().map(|x| x.abs()).fold(0.0, f64::max)), "{file}: u is not W r + q");
}

/// Files on which ADMM must converge to 1e-8 (sparse Cholesky path: KaplasTower, Confeti-ex13;
/// dense: the others, including nonsymmetric `W` on the Rover files).
const ADMM_FC3D: &[&str] = &[
    "KaplasTower-i1061-4.hdf5.dat",
    "Confeti-ex13-Fc3D-SBM.dat",
    "Confeti-ex03-Fc3D-SBM.dat",
    "NESpheres_30_1.dat",
    "FC3D_Example1_SBM.dat",
    "Rover11035.dat",
    "Rover4613.dat",
    "Rover9770.dat",
];

#[test]
fn fc3d_admm_expectations() {
    let Some(folder) = dir("fc3d") else { return };
    for file in ADMM_FC3D {
        let p = fc::read_fc_file(&folder.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        check_solves(file, &p, "admm", IterOptions::new(1e-8, 5_000));
    }
}

/// Files on which the Tresca fixed point (`tfp`, added through the solver registration) must
/// converge to 1e-8: each outer step a convex Tresca problem, the slip bounds settling.
const TFP_FC3D: &[&str] = &[
    "Confeti-ex03-Fc3D-SBM.dat",
    "Confeti-ex13-Fc3D-SBM.dat",
    "FC3D_Example1_SBM.dat",
    "FrictionContact3D_1c.dat",
    "FrictionContact3D_RR_1c.dat",
    "NESpheres_10_1.dat",
    "NESpheres_30_1.dat",
    "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
];

#[test]
fn fc3d_tfp_expectations() {
    let Some(folder) = dir("fc3d") else { return };
    for file in TFP_FC3D {
        let path = folder.join(file);
        let p = if file.ends_with(".hdf5") {
            fc::read_fclib_local(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
        } else {
            fc::read_fc_file(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
        };
        check_solves(file, &p, "tfp", IterOptions::new(1e-8, 2_000));
    }
}

#[test]
fn fc2d_collection() {
    run_local("fc2d", FC2D);
}

#[test]
fn fc3d_collection() {
    run_local("fc3d", FC3D);
}

#[test]
fn gfc3d_collection() {
    let Some(folder) = dir("fc3d-global") else { return };
    table_covers(&folder, GFC3D);
    let it = IterOptions::new(1e-8, 10_000);
    for (file, solver) in GFC3D {
        let p = fc::read_gfc_file(&folder.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let Some(name) = solver else { continue };
        let s = gfc_solver_by_name(name, it).unwrap();
        let (mut r, mut u, mut v) = (vec![0.0; p.size()], vec![0.0; p.size()], vec![0.0; p.n_velocities()]);
        let rep = fc::solve_global(&p, &mut r, &mut u, &mut v, &s).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(rep.status, SolveStatus::Converged, "{file} {name}: {rep:?}");
        let c = p.condense().unwrap();
        assert!(fc::gfc_error(&c, &r) <= 1e-8, "{file}");
        // u = Hᵀ v + b must equal the condensed velocity W r + q_loc.
        let mut ul = c.local().q().to_vec();
        c.local().w().matvec_add(1.0, &r, &mut ul);
        let du = u.iter().zip(&ul).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(du <= 1e-8 * (1.0 + ul.iter().map(|x| x.abs()).fold(0.0, f64::max)), "{file}: u mismatch {du}");
    }
}

#[test]
fn warm_start_from_a_solution_takes_no_work() {
    let Some(folder) = dir("fc3d") else { return };
    let p = fc::read_fc_file(&folder.join("Capsules-i101-404.dat")).unwrap();
    let it = IterOptions::new(1e-8, 10_000);
    let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
    let rep = fc::solve(&p, &mut r, &mut u, &fc::solver_by_name("prox", it).unwrap()).unwrap();
    assert!(rep.status.converged());
    let mut o = fc::NsgsOptions::with_iter(it);
    o.warm_start = true;
    let rep2 = fc::solve(&p, &mut r, &mut u, &FcSolver::NsgsAc(o)).unwrap();
    assert!(rep2.status.converged() && rep2.iterations <= 10, "{rep2:?}");
}
