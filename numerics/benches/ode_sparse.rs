//! Sparse vs dense (and banded) Newton matrices on the 1D Brusselator with N = 2m unknowns.
//! Prints CSV: `n,jacobian,seconds,steps,nfev,njev,nlu,digits_vs_banded_tight`.
//! Run: `cargo bench -p saltus-numerics --bench ode_sparse [-- N...]` (default N = 200 1000 4000).
//!
//! Measured 2026-11-22 (2 shared cores, load ≈ 12, so times are inflated; rtol = atol = 1e-6,
//! tf = 10; every variant takes the same steps and reaches the same digits):
//!
//! | N | dense FD | banded FD | sparse FD (4 colours) | sparse analytic |
//! |---|---|---|---|---|
//! | 200 | 0.070 s (2463 nfev) | 0.0022 s (513) | 0.0023 s (503) | 0.0023 s (463) |
//! | 1000 | 9.8 s (11290) | 0.026 s (345) | 0.039 s (334) | 0.031 s (290) |
//! | 4000 | 1696 s (44303) | 0.085 s (358) | 0.097 s (347) | 0.098 s (304) |

#[path = "../tests/common/bruss_n.rs"]
mod bruss_n;

use std::sync::Arc;
use std::time::Instant;

use bruss_n::BrussN;
use saltus_numerics::ode::{Integrator, JacobianKind, OdeOptions, OdeStats};

const TF: f64 = 10.0;
const RTOL: f64 = 1e-6;

fn run(m: usize, analytic: bool, jac: JacobianKind, rtol: f64) -> (Vec<f64>, OdeStats, f64) {
    let sys = BrussN::new(m, analytic);
    let y0 = sys.y0();
    let mut opts = OdeOptions::with_tol(rtol, rtol);
    opts.jacobian = jac;
    let start = Instant::now();
    let mut ode = Integrator::new(sys, 0.0, &y0, opts).expect("setup");
    ode.step_until(TF).expect("integration");
    (ode.y().to_vec(), ode.stats(), start.elapsed().as_secs_f64())
}

fn main() {
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![200, 1000, 4000] } else { sizes };
    println!("n,jacobian,seconds,steps,nfev,njev,nlu,digits_vs_banded_tight");
    for n in sizes {
        let m = n / 2;
        let (y_ref, _, _) = run(m, false, JacobianKind::Banded { ml: 2, mu: 2 }, 1e-10);
        let pattern = Arc::new(BrussN::pattern(m));
        let cases: Vec<(&str, bool, JacobianKind)> = vec![
            ("dense-fd", false, JacobianKind::FiniteDifference),
            ("banded-fd", false, JacobianKind::Banded { ml: 2, mu: 2 }),
            ("sparse-fd", false, JacobianKind::Sparse(pattern.clone())),
            ("sparse-analytic", true, JacobianKind::Sparse(pattern.clone())),
        ];
        for (name, analytic, jac) in cases {
            // median of 3 unless one run takes more than 2 s
            let mut times = Vec::new();
            let mut last = None;
            for _ in 0..3 {
                let (y, s, secs) = run(m, analytic, jac.clone(), RTOL);
                times.push(secs);
                last = Some((y, s));
                if secs > 2.0 {
                    break;
                }
            }
            times.sort_by(f64::total_cmp);
            let secs = times[times.len() / 2];
            let (y, s) = last.expect("one run");
            let err = y.iter().zip(&y_ref).map(|(a, r)| (a - r).abs() / r.abs().max(1.0)).fold(0.0, f64::max);
            println!(
                "{n},{name},{secs:.4},{},{},{},{},{:.2}",
                s.steps,
                s.rhs_evals,
                s.jac_evals,
                s.lu_decomps,
                -err.max(1e-300).log10()
            );
        }
    }
}
