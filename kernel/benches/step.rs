//! Time per step of the kernel, printed as CSV (run: `cargo bench -p saltus-kernel --bench step`).
//!
//! Each case is timed like the Siconos scripts in ../shared/reference/*: model construction
//! plus the whole time loop (reading the outputs each step), median of `RUNS` runs.
//! Cases: the bouncing ball (Moreau–Jean, 2000 steps), the diode bridge (Euler–Moreau, Lemke,
//! 5000 steps), and a column of N beads falling on the ground and stacking (Moreau–Jean, sparse
//! block storage + projected Gauss–Seidel with warm start, N = 10, 100, 1000).
//!
//! Further cases time every other path of the kernel with the models of `tests/common`: the
//! diode bridge as an MLCP (enumeration), the relay oscillator (Relay, Lemke), the pendulum
//! resting on a wall (LagrangianDS with `M(q)`, `F_int`, scleronomous relation, Newton loop),
//! the Duffing oscillator (Newton, several iterations per step), the first-order nonlinear
//! obstacle (Type2R, Newton), the sliding block (FrictionContact 3D, NSGS) and two tied states
//! (Equality).
//!
//! Columns: `case,n,steps,median_total_s,min_total_s,us_per_step,mean_solver_iterations,
//! solver_us_per_step` (time inside the one-step solver, last run), `mean_active` (interactions
//! in the one-step problem per step).

#[path = "../tests/common/mod.rs"]
mod common;

use saltus_kernel::solvers::fc::{FcSolver, NsgsOptions};
use saltus_kernel::solvers::lcp::{LcpSolver, PgsOptions};
use saltus_kernel::solvers::mlcp::MlcpSolver;
use saltus_kernel::solvers::relay::RelaySolver;
use saltus_kernel::{presets, Nsds, Osi, Osnsp, OsnspOptions, Storage, TimeStepping};
use std::hint::black_box;
use std::time::Instant;

const RUNS: usize = 7;

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

fn bouncing_ball() -> (Nsds, TimeStepping, f64) {
    let nsds = common::bouncing_ball();
    let sim = TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), lemke()).unwrap();
    (nsds, sim, 10.0)
}

fn diode_bridge_with(osnsp: Osnsp) -> (Nsds, TimeStepping, f64) {
    let nsds = common::diode_bridge();
    let sim = TimeStepping::new(&nsds, 1e-6, Osi::euler_moreau(0.5), osnsp).unwrap();
    (nsds, sim, 5e-3)
}

/// The other paths (see the module documentation): (name, builder).
type Builder = fn() -> (Nsds, TimeStepping, f64);
const PATHS: &[(&str, Builder)] = &[
    ("diode_bridge_mlcp", || diode_bridge_with(Osnsp::Mlcp(MlcpSolver::Enumerative(Default::default())))),
    ("relay_oscillator", || {
        let nsds = common::relay_oscillator();
        let osnsp = Osnsp::Relay(RelaySolver::Lemke(Default::default()));
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), osnsp).unwrap();
        (nsds, sim, 15.0)
    }),
    ("pendulum_wall_newton", || {
        let nsds = common::pendulum_on_wall(0.5, false);
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke())
            .unwrap()
            .with_activation_threshold(1e-9, &nsds)
            .unwrap();
        (nsds, sim, 5.0)
    }),
    ("duffing_newton", || {
        let nsds = common::duffing();
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke()).unwrap();
        (nsds, sim, 5.0)
    }),
    ("first_order_type2_newton", || {
        let nsds = common::first_order_obstacle(common::identity_type2());
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(1.0), lemke()).unwrap();
        (nsds, sim, 5.0)
    }),
    ("sliding_block_fc3d", || {
        let nsds = common::sliding_block(3, 9.81, 0.3, 1.0);
        let solver = FcSolver::NsgsAc(NsgsOptions::with_iter(saltus_numerics::IterOptions::new(1e-12, 1000)));
        let osnsp = Osnsp::FrictionContact { dim: 3, solver };
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), osnsp).unwrap();
        (nsds, sim, 1.0)
    }),
    ("tied_states_equality", || {
        let nsds = common::tied_states();
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), Osnsp::Equality).unwrap();
        (nsds, sim, 5.0)
    }),
];

/// Column of `n` beads (radius 0.05, mass 1, e = 0.5, `gap` apart: 0 = a resting stack, every
/// contact active at every step; 0.01 = falling and stacking), h = 1e-3, 1000 steps (1 s),
/// PGS with tol 1e-8 and at most 50 sweeps per step, activation threshold 1e-9 (as
/// `benches/siconos_beads.py`):
/// the beads fall, collide and stack.
pub fn beads(n: usize, gap: f64) -> (Nsds, TimeStepping, f64) {
    let nsds = presets::column_of_beads(n, 0.05, 1.0, 9.81, 0.5, gap).unwrap();
    let mut pgs = PgsOptions::default();
    pgs.iter = saltus_numerics::IterOptions::new(1e-8, 50);
    pgs.warm_start = true;
    let opts = OsnspOptions { storage: Storage::SparseBlock, ..Default::default() };
    let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Pgs(pgs)))
        .unwrap()
        .with_options(opts)
        .unwrap()
        .with_activation_threshold(1e-9, &nsds)
        .unwrap();
    (nsds, sim, 1.0)
}

fn time_case(name: &str, n: usize, build: impl Fn() -> (Nsds, TimeStepping, f64)) {
    let mut totals = Vec::with_capacity(RUNS);
    let mut steps = 0;
    let mut iters = 0usize;
    let mut solver_s = 0.0;
    let mut active = 0usize;
    for _ in 0..RUNS {
        let start = Instant::now();
        let (mut nsds, mut sim, t_end) = build();
        let mut acc = 0.0;
        active = 0;
        iters = 0;
        solver_s = 0.0;
        steps = sim
            .run(&mut nsds, t_end, &mut |nsds, rep| {
                acc += nsds.systems()[0].state()[0]
                    + nsds.interactions().first().and_then(|i| i.lambda(0)).map_or(0.0, |l| l[0]);
                iters += rep.osnsp.as_ref().map_or(0, |r| r.iterations);
                solver_s += rep.osnsp.as_ref().map_or(0.0, |r| r.elapsed.as_secs_f64());
                active += rep.active;
            })
            .unwrap();
        black_box(acc);
        totals.push(start.elapsed().as_secs_f64());
    }
    totals.sort_by(|a, b| a.total_cmp(b));
    let med = totals[RUNS / 2];
    let st = steps as f64;
    println!(
        "{name},{n},{steps},{med:.6e},{:.6e},{:.4},{:.2},{:.4},{:.1}",
        totals[0],
        med / st * 1e6,
        iters as f64 / st,
        solver_s / st * 1e6,
        active as f64 / st
    );
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters the cases by name
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let want = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    println!(
        "case,n,steps,median_total_s,min_total_s,us_per_step,mean_solver_iterations,solver_us_per_step,mean_active"
    );
    if want("bouncing_ball") {
        time_case("bouncing_ball", 1, bouncing_ball);
    }
    if want("diode_bridge") {
        time_case("diode_bridge", 4, || diode_bridge_with(lemke()));
    }
    for (name, gap) in [("beads_stack", 0.0), ("beads_fall", 0.01)] {
        for n in [10, 100, 1000] {
            if want(name) {
                time_case(name, n, || beads(n, gap));
            }
        }
    }
    for (name, build) in PATHS {
        if want(name) {
            let n = build().0.n_interactions();
            time_case(name, n, build);
        }
    }
}
