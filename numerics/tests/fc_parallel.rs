//! With the `parallel` feature, the VI solvers give bit-identical results on 1 and 4 threads.
#![cfg(feature = "parallel")]

use saltus_numerics::fc;
use saltus_numerics::io::test_data_dir;
use saltus_numerics::IterOptions;

#[test]
fn vi_results_do_not_depend_on_thread_count() {
    let Some(d) = test_data_dir() else {
        eprintln!("test data absent: skipping");
        return;
    };
    let p = fc::read_fc_file(&d.join("numerics/fc3d/Capsules-i101-404.dat")).unwrap();
    let run = |threads: usize, name: &str| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let rep = fc::solve(&p, &mut r, &mut u, &fc::solver_by_name(name, IterOptions::new(1e-8, 300)).unwrap()).unwrap();
            (r, rep.iterations, rep.residual)
        })
    };
    for name in ["vi-fp", "vi-eg"] {
        let (r1, i1, e1) = run(1, name);
        let (r4, i4, e4) = run(4, name);
        assert_eq!(i1, i4);
        assert_eq!(e1.to_bits(), e4.to_bits());
        assert!(r1.iter().zip(&r4).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
    }
}
