//! Determinism: the friction-contact solvers give bit-identical `r`, `u`, iteration counts and
//! residuals in a 1-thread and a 4-thread rayon pool — the sparse LU factorizations of PROX,
//! Newton and the global condensation run with faer's `Par::Seq`, and with the `parallel`
//! feature the VI operator products run on rayon with a thread-count independent order.

use saltus_numerics::fc::{self, global::gfc_solver_by_name, FrictionContact};
use saltus_numerics::io::test_data_dir;
use saltus_numerics::IterOptions;

type Run = (Vec<f64>, Vec<f64>, usize, f64);

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("rayon pool").install(f)
}

fn solve_local(p: &FrictionContact, name: &str, it: IterOptions) -> Run {
    let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
    let s = fc::solver_by_name(name, it).expect("catalogue");
    let rep = fc::solve(p, &mut r, &mut u, &s).expect("solve");
    (r, u, rep.iterations, rep.residual)
}

fn assert_same(what: &str, a: &Run, b: &Run) {
    assert_eq!(a.2, b.2, "{what}: iterations");
    assert_eq!(a.3.to_bits(), b.3.to_bits(), "{what}: residual {} vs {}", a.3, b.3);
    assert!(a.0.iter().zip(&b.0).all(|(x, y)| x.to_bits() == y.to_bits()), "{what}: r differs");
    assert!(a.1.iter().zip(&b.1).all(|(x, y)| x.to_bits() == y.to_bits()), "{what}: u differs");
}

fn check_local(label: &str, p: &FrictionContact, solvers: &[(&str, usize)]) {
    for &(name, cap) in solvers {
        let it = IterOptions::new(1e-8, cap);
        let one = in_pool(1, || solve_local(p, name, it));
        let four = in_pool(4, || solve_local(p, name, it));
        assert_same(&format!("{label}/{name}"), &one, &four);
        // Not vacuous: the runs did real work.
        assert!(one.2 > 0 && one.0.iter().any(|x| *x != 0.0), "{label}/{name}: trivial run");
    }
}

#[test]
fn generated_column_same_bits_on_1_and_4_threads() {
    // 200 contacts: 600 unknowns, above the sparse threshold of Newton/PROX.
    let p = fc::generate::sphere_column(200, 11).expect("generated problem");
    check_local(
        "sphere_column(200)",
        &p,
        &[("prox", 200), ("newton-ac", 50), ("nsgs-ac", 200), ("vi-fp", 300), ("vi-eg", 300), ("admm", 300)],
    );
}

#[test]
fn collection_files_same_bits_on_1_and_4_threads() {
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent: skipping");
        return;
    };
    let p = fc::read_fc_file(&d.join("numerics/fc3d/Capsules-i101-404.dat")).expect("read Capsules");
    check_local(
        "Capsules-i101-404",
        &p,
        &[("prox", 200), ("newton-ac", 30), ("vi-fp", 300), ("vi-eg", 300), ("admm", 300)],
    );
    let p = fc::read_fc_file(&d.join("numerics/fc3d/FC3D_Example1_SBM.dat")).expect("read FC3D_Example1_SBM");
    check_local("FC3D_Example1_SBM", &p, &[("prox", 200), ("newton-ac", 50), ("nsgs-ac", 200)]);
    let g = fc::read_gfc_file(&d.join("numerics/fc3d-global/GFC3D_TwoRods1.dat")).expect("read GFC3D_TwoRods1");
    for name in ["gfc3d-prox", "gfc3d-newton", "gfc3d-nsgs"] {
        let run = || {
            let (mut r, mut u, mut v) = (vec![0.0; g.size()], vec![0.0; g.size()], vec![0.0; g.n_velocities()]);
            let s = gfc_solver_by_name(name, IterOptions::new(1e-8, 500)).expect("catalogue");
            let rep = fc::solve_global(&g, &mut r, &mut u, &mut v, &s).expect("solve");
            r.extend_from_slice(&v);
            (r, u, rep.iterations, rep.residual)
        };
        let one = in_pool(1, run);
        let four = in_pool(4, run);
        assert_same(&format!("GFC3D_TwoRods1/{name}"), &one, &four);
    }
}

/// Coloured NSGS (each colour's local problems on rayon with the `parallel` feature) gives the
/// same bits on 1 and 4 threads, on the 200-contact column (2 colours of 100 contacts) capped at
/// 300 sweeps and on a 30-contact column solved to the tolerance.
#[test]
fn coloured_nsgs_same_bits_on_1_and_4_threads() {
    // Plain and Anderson-accelerated (the mechanics default's memory) coloured sweeps.
    for (n, cap, anderson) in [(200, 300, 0), (30, 50_000, 0), (200, 300, 3), (30, 50_000, 3)] {
        let p = fc::generate::sphere_column(n, 11).expect("generated problem");
        let run = || {
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let mut o = fc::NsgsOptions::with_iter(IterOptions::new(1e-8, cap));
            o.colouring = true;
            o.anderson = anderson;
            let rep = fc::solve(&p, &mut r, &mut u, &fc::FcSolver::NsgsAc(o)).expect("solve");
            (r, u, rep.iterations, rep.residual)
        };
        let one = in_pool(1, run);
        let four = in_pool(4, run);
        assert_same(&format!("sphere_column({n})/coloured nsgs, anderson {anderson}"), &one, &four);
        assert!(one.0.iter().any(|x| *x != 0.0) && one.3 < 1e-2, "no progress: {}", one.3);
        if n == 30 {
            assert!(one.2 < cap && fc::fc_error(&p, &one.0) < 1e-8, "not solved: {}", one.3);
        }
    }
}

/// NSGS on slabs (`NsgsOptions::domains`: even slabs on parallel workers, then odd slabs) gives
/// the same bits on 1, 2 and 4 threads, and solves the column to the tolerance (error recomputed
/// from `r`). Two and three domains, with and without over-relaxation; every part schedule
/// (shared counter, owned parts, ready queue) gives the bits of the shared counter on one thread.
#[test]
fn slab_nsgs_same_bits_on_1_2_and_4_threads() {
    for (n, cap, domains, omega) in [(200, 300, 2, 1.0), (200, 300, 3, 1.3), (30, 50_000, 2, 1.0), (60, 50_000, 3, 1.0)]
    {
        let p = fc::generate::sphere_column(n, 11).expect("generated problem");
        let pr = &p;
        let run = |schedule| {
            move || {
                let p = pr;
                let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
                let mut o = fc::NsgsOptions::with_iter(IterOptions::new(1e-8, cap));
                o.domains = domains;
                o.relaxation = omega;
                o.schedule = schedule;
                let rep = fc::solve(p, &mut r, &mut u, &fc::FcSolver::NsgsAc(o)).expect("solve");
                (r, u, rep.iterations, rep.residual)
            }
        };
        let label = format!("sphere_column({n})/{domains} domains, ω = {omega}");
        let one = in_pool(1, run(fc::PartSchedule::Shared));
        for schedule in [fc::PartSchedule::Shared, fc::PartSchedule::Owned, fc::PartSchedule::Ready] {
            for threads in [1, 2, 4] {
                let got = in_pool(threads, run(schedule));
                assert_same(&format!("{label}, {schedule:?}, {threads} threads"), &one, &got);
            }
        }
        assert!(one.0.iter().any(|x| *x != 0.0) && one.3 < 1e-2, "{label}: no progress: {}", one.3);
        if cap == 50_000 {
            let e = fc::fc_error(&p, &one.0);
            assert!(one.2 < cap && e <= 1e-8, "{label}: not solved: {e} after {} sweeps", one.2);
        }
    }
}
