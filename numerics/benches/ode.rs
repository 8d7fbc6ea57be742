//! Criterion benchmarks of the ODE integrators on problems of integrator-test-problems.md.
//! (The full side-by-side comparison with ODEPACK LSODA is `examples/ivp_testset.rs` +
//! `benches/odepack/lsoda_testset.py`.)

#[path = "../tests/common/ode_problems.rs"]
mod problems;

use criterion::{criterion_group, criterion_main, Criterion};
use saltus_numerics::ode::{Integrator, JacobianKind, OdeMethod, OdeOptions};

fn run(name: &str, rtol: f64, method: OdeMethod, jac: JacobianKind) -> f64 {
    let p = problems::problem(name);
    let mut opts = OdeOptions::with_tol(rtol, p.atol_ratio * rtol);
    opts.method = method;
    opts.jacobian = jac;
    let mut ode = Integrator::new(p.clone(), 0.0, &p.y0, opts).expect("setup");
    ode.step_until(p.tf).expect("integration");
    ode.y()[0]
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ode");
    g.sample_size(20);
    for name in ["vdp1", "vdp1000", "robertson", "hires", "pleiades", "orego"] {
        g.bench_function(format!("lsoda/{name}/1e-6"), |b| {
            b.iter(|| run(name, 1e-6, OdeMethod::Lsoda, JacobianKind::Auto))
        });
    }
    g.bench_function("lsoda/bruss1d/1e-6/banded", |b| {
        b.iter(|| run("bruss1d", 1e-6, OdeMethod::Lsoda, JacobianKind::Banded { ml: 2, mu: 2 }))
    });
    g.bench_function("dopri5/arenstorf/1e-8", |b| {
        b.iter(|| run("arenstorf", 1e-8, OdeMethod::Dopri5, JacobianKind::Auto))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
