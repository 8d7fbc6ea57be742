//! Time per step of the global Moreau–Jean loop (MoreauJeanGOSI + GlobalFrictionContact), printed
//! as CSV (run: `cargo bench -p saltus-kernel --bench gosi`).
//!
//! Scene: `n` copies of the Siconos tutorial TwoBouncingBallTS-MoreauJeanGOSI side by side (2n
//! balls with three coordinates each: height, tangential position, rotation angle; ball1 m = 1 on
//! the floor, ball2 m = 2 1 mm above it, R = 0.1, M = diag(m, m, 2/5 m R²)); 3D Newton
//! impact–friction contacts (eN = eT = 0.95, μ = 0.6) floor–ball1 and ball1–ball2 in each copy;
//! θ = 1/2, h = 1e-3, 3000 steps (T = 3 as the tutorial: bouncing, then resting stacks). The copies do not interact, so `M` is block-diagonal with
//! 2n blocks and `W` block-diagonal with n 2×2-contact blocks: the cost of a step should grow
//! linearly with n. Each size runs three ways: GOSI with the condensed NSGS (`nsgs_wr`, W
//! block-sparse above 64 unknowns), GOSI with the W-free global NSGS (`nsgs_global`), and the local
//! formulation MoreauJeanOSI + FrictionContact (`local_fc`, W assembled by the kernel), all NSGS
//! with tol 1e-10 and warm start.
//!
//! Columns: `case,n,steps,median_total_s,us_per_step,mean_solver_iterations,solver_us_per_step,
//! mean_active`.

use nalgebra::{DMatrix, DVector};
use saltus_kernel::solvers::fc::{FcSolver, GfcSolver, NsgsOptions};
use saltus_kernel::*;
use saltus_numerics::IterOptions;
use std::time::Instant;

const RUNS: usize = 3;
const R: f64 = 0.1;

fn copies(n: usize) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.95, et: 0.95, mu: 0.6, dim: 3 };
    let mut hbb = DMatrix::zeros(3, 6);
    for k in 0..3 {
        hbb[(k, k)] = -1.0;
        hbb[(k, k + 3)] = 1.0;
    }
    for c in 0..n {
        let mut ball = |name: String, m: f64, z: f64| {
            let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![m, m, 0.4 * m * R * R]));
            let ds = LagrangianLinearTiDs::new(DVector::from_vec(vec![z, 0.0, 0.0]), DVector::zeros(3), mass)
                .with_f_ext(DVector::from_vec(vec![-m * 9.81, 0.0, 0.0]));
            nsds.add_ds(name, ds).unwrap()
        };
        let b1 = ball(format!("ball1_{c}"), 1.0, 0.1);
        let b2 = ball(format!("ball2_{c}"), 2.0, 0.1 + 2.0 * R + 0.001);
        let floor = LagrangianLinearTiR::new(DMatrix::identity(3, 3));
        nsds.link(format!("floor_{c}"), b1, None, Relation::LagrangianLinearTi(floor), law.clone()).unwrap();
        let bb = LagrangianLinearTiR::new(hbb.clone()).with_b(DVector::from_vec(vec![-2.0 * R, 0.0, 0.0]));
        nsds.link(format!("balls_{c}"), b1, Some(b2), Relation::LagrangianLinearTi(bb), law.clone()).unwrap();
    }
    nsds
}

fn nsgs() -> NsgsOptions {
    let mut o = NsgsOptions::with_iter(IterOptions::new(1e-10, 2000));
    o.warm_start = true;
    o
}

fn main() {
    println!("case,n,steps,median_total_s,us_per_step,mean_solver_iterations,solver_us_per_step,mean_active");
    for n in [1usize, 10, 100, 1000] {
        let cases: [(&str, Osi, Osnsp); 3] = [
            (
                "nsgs_wr",
                Osi::moreau_jean_gosi(0.5),
                Osnsp::GlobalFrictionContact { dim: 3, solver: GfcSolver::Condensed(FcSolver::NsgsAc(nsgs())) },
            ),
            (
                "nsgs_global",
                Osi::moreau_jean_gosi(0.5),
                Osnsp::GlobalFrictionContact { dim: 3, solver: GfcSolver::Nsgs(nsgs()) },
            ),
            ("local_fc", Osi::moreau_jean(0.5), Osnsp::FrictionContact { dim: 3, solver: FcSolver::NsgsAc(nsgs()) }),
        ];
        for (name, osi, osnsp) in cases {
            let mut totals = Vec::new();
            let (mut steps, mut iters, mut solver_s, mut active) = (0, 0usize, 0.0, 0usize);
            for _ in 0..RUNS {
                let start = Instant::now();
                let mut nsds = copies(n);
                let mut sim = TimeStepping::new(&nsds, 1e-3, osi, osnsp.clone()).unwrap();
                (iters, solver_s, active) = (0, 0.0, 0);
                steps = sim
                    .run(&mut nsds, 3.0, &mut |_, rep| {
                        iters += rep.osnsp.as_ref().map_or(0, |r| r.iterations);
                        solver_s += rep.osnsp.as_ref().map_or(0.0, |r| r.elapsed.as_secs_f64());
                        active += rep.active;
                    })
                    .unwrap();
                totals.push(start.elapsed().as_secs_f64());
            }
            totals.sort_by(|a, b| a.total_cmp(b));
            let (med, st) = (totals[RUNS / 2], steps as f64);
            println!(
                "{name},{n},{steps},{med:.6e},{:.3},{:.2},{:.3},{:.1}",
                1e6 * med / st,
                iters as f64 / st,
                1e6 * solver_s / st,
                active as f64 / st
            );
        }
    }
}
