//! Time per step of the global Moreau–Jean loop (MoreauJeanGOSI + GlobalFrictionContact), printed
//! as CSV (run: `cargo bench -p saltus-kernel --bench gosi`).
//!
//! Scene: a column of `n` balls with three coordinates each (height, tangential position,
//! rotation angle; m = 1, R = 0.1, M = diag(m, m, 2/5 m R²)), 1 mm apart, falling under gravity
//! onto the floor and onto each other; 3D Newton impact–friction contacts (eN = eT = 0.95,
//! μ = 0.6) between the floor and the lowest ball and between neighbours; θ = 1/2, h = 1e-3,
//! 1000 steps. `n = 2` is the Siconos tutorial TwoBouncingBallTS-MoreauJeanGOSI (masses 1, 1).
//! Each size runs three ways: GOSI with the condensed NSGS (`nsgs_wr`, W block-sparse above 600
//! unknowns), GOSI with the W-free global NSGS (`nsgs_global`), and the local formulation
//! MoreauJeanOSI + FrictionContact (`local_fc`, W assembled by the kernel), all NSGS with tol 1e-10.
//!
//! Columns: `case,n,steps,median_total_s,us_per_step,mean_solver_iterations,solver_us_per_step,
//! mean_active`.

use nalgebra::{DMatrix, DVector};
use saltus_kernel::solvers::fc::{FcSolver, GfcSolver, NsgsOptions};
use saltus_kernel::*;
use saltus_numerics::IterOptions;
use std::time::Instant;

const RUNS: usize = 5;
const R: f64 = 0.1;

fn column(n: usize) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.95, et: 0.95, mu: 0.6, dim: 3 };
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 1.0, 0.4 * R * R]));
    let mut prev = None;
    for i in 0..n {
        let z = R + i as f64 * (2.0 * R + 1e-3);
        let ds = LagrangianLinearTiDs::new(DVector::from_vec(vec![z, 0.0, 0.0]), DVector::zeros(3), mass.clone())
            .with_f_ext(DVector::from_vec(vec![-9.81, 0.0, 0.0]));
        let id = nsds.add_ds(format!("ball{i}"), ds).unwrap();
        let rel = match prev {
            None => LagrangianLinearTiR::new(DMatrix::identity(3, 3)).with_b(DVector::from_vec(vec![-R, 0.0, 0.0])),
            Some(_) => {
                let mut h = DMatrix::zeros(3, 6);
                for k in 0..3 {
                    h[(k, k)] = -1.0;
                    h[(k, k + 3)] = 1.0;
                }
                LagrangianLinearTiR::new(h).with_b(DVector::from_vec(vec![-2.0 * R, 0.0, 0.0]))
            }
        };
        nsds.link(
            format!("c{i}"),
            prev.unwrap_or(id),
            prev.map(|_| id),
            Relation::LagrangianLinearTi(rel),
            law.clone(),
        )
        .unwrap();
        prev = Some(id);
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
    for n in [2usize, 10, 100, 1000] {
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
                let mut nsds = column(n);
                let mut sim = TimeStepping::new(&nsds, 1e-3, osi, osnsp.clone()).unwrap();
                (iters, solver_s, active) = (0, 0.0, 0);
                steps = sim
                    .run(&mut nsds, 1.0, &mut |_, rep| {
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
