//! FCLib HDF5 files of the collection: they read, and a solver converges to
//! 1e-8 on the small ones (the 12000-velocity Spheres global problem runs only in the example).

use saltus_numerics::fc::{self, global::gfc_solver_by_name};
use saltus_numerics::io::test_data_dir;
use saltus_numerics::IterOptions;

#[test]
fn fclib_local_files() {
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent: skipping");
        return;
    };
    for (f, nc) in [("Capsules-i125-1213.hdf5", 286), ("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", 60)] {
        let p = fc::read_fclib_local(&d.join("numerics/fc3d").join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!((p.dim(), p.n_contacts()), (3, nc), "{f}");
        let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let rep =
            fc::solve(&p, &mut r, &mut u, &fc::solver_by_name("prox", IterOptions::new(1e-8, 500)).unwrap()).unwrap();
        eprintln!("{f}: {rep:?}");
        assert!(rep.status.converged() && fc::fc_error(&p, &r) <= 1e-8, "{f}: {rep:?}");
    }
}

#[test]
fn fclib_global_files() {
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent: skipping");
        return;
    };
    for (f, n, nc) in [
        ("Box_Stacks-i0122-82-5.hdf5", 450, 82),
        ("spheres-in-a-box-98-i10000-256-10.hdf5", 588, 256),
        ("Spheres-i099-356-679.hdf5", 12000, 356),
    ] {
        let p = fc::read_fclib_global(&d.join("numerics/fc3d-global").join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!((p.n_velocities(), p.n_contacts()), (n, nc), "{f}");
    }
    let p = fc::read_fclib_global(&d.join("numerics/fc3d-global/Box_Stacks-i0122-82-5.hdf5")).unwrap();
    let (mut r, mut u, mut v) = (vec![0.0; p.size()], vec![0.0; p.size()], vec![0.0; p.n_velocities()]);
    let rep = fc::solve_global(
        &p,
        &mut r,
        &mut u,
        &mut v,
        &gfc_solver_by_name("gfc3d-prox", IterOptions::new(1e-8, 500)).unwrap(),
    )
    .unwrap();
    eprintln!("Box_Stacks: {rep:?}");
    assert!(rep.status.converged(), "{rep:?}");
}

/// Written and read back: the same problem (W entry for entry, q, μ, M, H, f, w), the info strings
/// and the solution; the files of the collection round-trip too.
#[test]
fn fclib_files_written_read_back() {
    use saltus_numerics::fc::{FclibInfo, FclibSolution};
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent: skipping");
        return;
    };
    let tmp = std::env::temp_dir().join(format!("saltus-fclib-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let info = FclibInfo { title: "t".into(), description: "a\nb".into(), math_info: "m".into() };
    let p = fc::read_fclib_local(&d.join("numerics/fc3d/Capsules-i125-1213.hdf5")).unwrap();
    let sol = FclibSolution { r: (0..p.size()).map(|k| k as f64).collect(), u: vec![0.5; p.size()], v: vec![] };
    let path = tmp.join("local.hdf5");
    fc::write_fclib_local(&path, &p, &info, Some(&sol), std::slice::from_ref(&sol)).unwrap();
    let back = fc::read_fclib_local(&path).unwrap();
    assert_eq!(back.w().to_dense(), p.w().to_dense());
    assert_eq!((back.q(), back.mu()), (p.q(), p.mu()));
    assert_eq!(fc::read_fclib_solution(&path, None).unwrap(), Some(sol.clone()));
    assert_eq!(fc::read_fclib_solution(&path, Some(1)).unwrap(), Some(sol.clone()));
    assert_eq!(fc::read_fclib_solution(&path, Some(2)).unwrap(), None);
    let g = fc::read_fclib_global(&d.join("numerics/fc3d-global/Box_Stacks-i0122-82-5.hdf5")).unwrap();
    let path = tmp.join("global.hdf5");
    fc::write_fclib_global(&path, &g, &info, None, &[]).unwrap();
    let back = fc::read_fclib_global(&path).unwrap();
    assert_eq!((back.m().entries.clone(), back.h().entries.clone()), (g.m().entries.clone(), g.h().entries.clone()));
    assert_eq!((back.q(), back.b(), back.mu()), (g.q(), g.b(), g.mu()));
    std::fs::remove_dir_all(&tmp).unwrap();
}
