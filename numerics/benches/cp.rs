//! The NCP / MCP / VI solvers on the problems of `tests/cp_solvers.rs`: Kojima–Shindo and
//! Josephy (n = 4, analytic Jacobian, from (1, 1, 1, 1)), a random monotone LCP posed as an NCP
//! (n = 50, `M = AᵀA/n + I`), the QP's KKT MCP, and the box VI and ball VI with known solutions
//! (projection methods at 1e-10). Every solve is checked to converge before it is timed.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nalgebra::{DMatrix, DVector};
use saltus_numerics::cp::problems::{josephy, josephy_jacobian, kojima_shindo, kojima_shindo_jacobian};
use saltus_numerics::cp::{self, BoxVi, ConvexSet, CpSolver, Mcp, Ncp, UserFnError, Vi, WithJacobian};
use saltus_numerics::report::IterOptions;
use std::hint::black_box;

type Res = Result<(), UserFnError>;

fn random_lcp(n: usize) -> (DMatrix<f64>, DVector<f64>) {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15 ^ n as u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let a = DMatrix::from_fn(n, n, |_, _| next());
    let m = a.transpose() * &a / n as f64 + DMatrix::identity(n, n);
    let q = DVector::from_fn(n, |_, _| next());
    (m, q)
}

fn newton(name: &str) -> CpSolver {
    cp::solver_by_name(name, IterOptions::new(1e-10, 1000)).expect("known solver")
}

fn projection(name: &str) -> CpSolver {
    cp::solver_by_name(name, IterOptions::new(1e-10, 100_000)).expect("known solver")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("cp");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(1));
    g.warm_up_time(std::time::Duration::from_millis(200));
    let ncp4 = Ncp::new(4).expect("n > 0");
    for name in ["newton-fb", "newton-min"] {
        let s = newton(name);
        for (prob, f, j) in [
            (
                "kojima-shindo",
                kojima_shindo as fn(&[f64], &mut [f64]) -> Res,
                kojima_shindo_jacobian as fn(&[f64], &mut DMatrix<f64>) -> Res,
            ),
            ("josephy", josephy, josephy_jacobian),
        ] {
            let run = || {
                let (mut z, mut w) = (vec![1.0; 4], vec![0.0; 4]);
                cp::solve_ncp(&ncp4, &mut WithJacobian(f, j), &mut z, &mut w, &s).expect("valid problem")
            };
            assert!(run().status.converged(), "{prob} {name}");
            g.bench_function(BenchmarkId::new(format!("{prob}/{name}"), 4), |b| b.iter(|| black_box(run()).iterations));
        }
        let n = 50;
        let (m, q) = random_lcp(n);
        let lcp = Ncp::new(n).expect("n > 0");
        let run = || {
            let mut fj = WithJacobian(
                |z: &[f64], out: &mut [f64]| -> Res {
                    let v = &m * DVector::from_column_slice(z) + &q;
                    out.copy_from_slice(v.as_slice());
                    Ok(())
                },
                |_: &[f64], jac: &mut DMatrix<f64>| -> Res {
                    jac.copy_from(&m);
                    Ok(())
                },
            );
            let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
            cp::solve_ncp(&lcp, &mut fj, &mut z, &mut w, &s).expect("valid problem")
        };
        assert!(run().status.converged(), "lcp {name}");
        g.bench_function(BenchmarkId::new(format!("lcp-as-ncp/{name}"), n), |b| b.iter(|| black_box(run()).iterations));
    }
    let qp = |z: &[f64], out: &mut [f64]| -> Res {
        out[0] = z[1] + z[2] - 1.0;
        out[1] = z[1] - 2.0 - z[0];
        out[2] = 2.0 * z[2] - z[0];
        Ok(())
    };
    let mcp = Mcp::new(1, 2).expect("n > 0");
    let boxf = |x: &[f64], out: &mut [f64]| -> Res {
        out[0] = 2.0 * x[0] + x[1] - 5.0;
        out[1] = x[0] + 2.0 * x[1] + 2.0;
        Ok(())
    };
    let bvi = BoxVi::new(vec![-1.0; 2], vec![1.0; 2]).expect("valid box");
    for (name, s) in [
        ("newton-fb", newton("newton-fb")),
        ("newton-min", newton("newton-min")),
        ("extragradient", projection("extragradient")),
        ("fixed-point", projection("fixed-point")),
    ] {
        let run_mcp = || {
            let (mut z, mut w) = (vec![0.0; 3], vec![0.0; 3]);
            cp::solve_mcp(&mcp, &mut { qp }, &mut z, &mut w, &s).expect("valid problem")
        };
        if name != "fixed-point" {
            // F of the KKT system is monotone but not strongly: the fixed point need not converge
            assert!(run_mcp().status.converged(), "mcp {name}");
            g.bench_function(BenchmarkId::new(format!("qp-kkt-mcp/{name}"), 3), |b| {
                b.iter(|| black_box(run_mcp()).iterations)
            });
        }
        let run_box = || {
            let (mut x, mut w) = (vec![0.3, 0.7], vec![0.0; 2]);
            cp::solve_box_vi(&bvi, &mut { boxf }, &mut x, &mut w, &s).expect("valid problem")
        };
        assert!(run_box().status.converged(), "box vi {name}");
        g.bench_function(BenchmarkId::new(format!("box-vi/{name}"), 2), |b| b.iter(|| black_box(run_box()).iterations));
        if name == "extragradient" || name == "fixed-point" {
            let a = [3.0, -4.0, 12.0];
            let run_ball = || {
                let mut vi = Vi::new(ConvexSet::Ball { center: vec![0.0; 3], radius: 1.0 });
                let mut f = |x: &[f64], out: &mut [f64]| -> Res {
                    for i in 0..3 {
                        out[i] = x[i] - a[i];
                    }
                    Ok(())
                };
                let (mut x, mut w) = (vec![0.0; 3], vec![0.0; 3]);
                cp::solve_vi(&mut vi, &mut f, &mut x, &mut w, &s).expect("valid problem")
            };
            assert!(run_ball().status.converged(), "ball vi {name}");
            g.bench_function(BenchmarkId::new(format!("ball-vi/{name}"), 3), |b| {
                b.iter(|| black_box(run_ball()).iterations)
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
