//! Once the active set is stable, a step allocates nothing, on every path of the kernel: linear
//! and nonlinear Lagrangian systems (`M(q)`, `F_int` Jacobians, the Newton loop's `W`),
//! nonlinear first-order systems with Type1R/Type2R relations, scleronomous and rheonomous
//! relations, the LCP, MLCP, Relay, FrictionContact (2D, 3D) and Equality problems, dense and
//! sparse block storage.
//!
//! Counted per thread with the allocator of `tests/counting`.
mod common;
mod counting;

use saltus_kernel::solvers::fc::{FcSolver, NsgsOptions};
use saltus_kernel::solvers::lcp::{LcpSolver, PgsOptions};
use saltus_kernel::solvers::mlcp::MlcpSolver;
use saltus_kernel::solvers::relay::RelaySolver;
use saltus_kernel::*;
use saltus_numerics::IterOptions;

/// Steps counted after the warm-up.
const STEPS: usize = 100;

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

fn pgs_sparse(sim: TimeStepping) -> TimeStepping {
    sim.with_options(OsnspOptions { storage: Storage::SparseBlock, ..Default::default() }).unwrap()
}

/// Runs `warmup` steps, then counts the allocations of [`STEPS`] more; the active set must stay
/// the same over the counted steps (and be non-empty when the model has interactions).
/// Returns the count.
fn allocations(name: &str, nsds: Nsds, sim: TimeStepping, warmup: usize) -> usize {
    let (n, changes) = allocations_over(name, nsds, sim, warmup, STEPS);
    assert_eq!(changes, 0, "{name}: the active set changed while counting");
    n
}

/// Runs `warmup` steps, then counts the allocations of `steps` more. Returns the count and
/// the number of active-set changes while counting.
fn allocations_over(name: &str, mut nsds: Nsds, mut sim: TimeStepping, warmup: usize, steps: usize) -> (usize, usize) {
    let mut active = 0;
    for _ in 0..warmup {
        active = sim.step(&mut nsds).unwrap().active;
    }
    assert!(active > 0 || nsds.n_interactions() == 0, "{name}: no active interaction after the warm-up");
    let mut changes = 0;
    let mut newton = 0;
    let (n, ()) = counting::allocations_during(|| {
        for _ in 0..steps {
            let rep = sim.step(&mut nsds).unwrap();
            changes += usize::from(rep.active != active);
            active = rep.active;
            newton = newton.max(rep.newton_iterations);
        }
    });
    println!(
        "{name}: {n} allocations in {steps} steps (Newton iterations <= {newton}, {changes} \
         active-set changes)"
    );
    (n, changes)
}

#[test]
fn no_allocation_per_step_once_the_active_set_is_stable() {
    let mut results = Vec::new();
    let mut case = |name: &'static str, nsds: Nsds, sim: TimeStepping, warmup: usize| {
        results.push((name, allocations(name, nsds, sim, warmup)));
    };

    // LagrangianLinearTIDS + LCP (Lemke): the bouncing ball at rest after the Zeno point
    let nsds = common::bouncing_ball();
    let sim = TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), lemke()).unwrap();
    case("ball LTI + LCP (Lemke)", nsds, sim, 1800);

    // FirstOrderLinearTIDS + LCP / MLCP: the diode bridge, every diode always in the problem
    let nsds = common::diode_bridge();
    let sim = TimeStepping::new(&nsds, 1e-6, Osi::euler_moreau(0.5), lemke()).unwrap();
    case("diode bridge + LCP (Lemke)", nsds, sim, 10);
    let nsds = common::diode_bridge();
    let mlcp = Osnsp::Mlcp(MlcpSolver::Enumerative(Default::default()));
    let sim = TimeStepping::new(&nsds, 1e-6, Osi::euler_moreau(0.5), mlcp.clone()).unwrap();
    case("diode bridge + MLCP (enum)", nsds, sim, 10);

    // MLCP with an equality row and an impact row (ball on a rail, at rest)
    let nsds = common::ball_on_rail();
    let sim = TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), mlcp).unwrap();
    case("ball on rail + MLCP (enum, 1 equality)", nsds, sim, 1800);

    // Equality problem
    let nsds = common::tied_states();
    let sim = TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), Osnsp::Equality).unwrap();
    case("tied states + Equality", nsds, sim, 10);

    // Relay (Lemke on the LCP reformulation, and PGS): the relay oscillator, stuck from 3π
    for (name, solver) in [
        ("relay oscillator + Relay (Lemke)", RelaySolver::Lemke(Default::default())),
        ("relay oscillator + Relay (PGS)", RelaySolver::Pgs(Default::default())),
    ] {
        let nsds = common::relay_oscillator();
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), Osnsp::Relay(solver)).unwrap();
        case(name, nsds, sim, 10_000);
    }

    // LagrangianDS with M(q) and F_int + scleronomous / rheonomous relation + Newton loop:
    // the pendulum resting on the wall
    for (name, rheonomous) in [
        ("pendulum LagrangianDS + scleronomous + Newton", false),
        ("pendulum LagrangianDS + rheonomous + Newton", true),
    ] {
        let nsds = common::pendulum_on_wall(0.5, rheonomous);
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke())
            .unwrap()
            .with_activation_threshold(1e-9, &nsds)
            .unwrap();
        case(name, nsds, sim, 5000);
    }

    // sparse block storage whose values change at every step (nonlinear relation): the
    // structure is kept and refilled
    let nsds = common::pendulum_on_wall(0.5, false);
    let mut pgs = PgsOptions::default();
    pgs.iter = IterOptions::new(1e-12, 100);
    let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Pgs(pgs))).unwrap();
    let sim = pgs_sparse(sim).with_activation_threshold(1e-9, &nsds).unwrap();
    case("pendulum + sparse LCP (PGS), refilled", nsds, sim, 5000);

    // LagrangianDS + F_int, several Newton iterations per step (no interaction)
    let nsds = common::duffing();
    let sim = TimeStepping::new(&nsds, 0.01, Osi::moreau_jean(0.5), lemke()).unwrap();
    case("Duffing LagrangianDS + Newton (no contact)", nsds, sim, 10);

    // FirstOrderNonLinearDS + Type2R / Type1R + Newton loop: resting on the obstacle
    for (name, rel) in [
        ("first-order nonlinear + Type2R + Newton", common::identity_type2()),
        ("first-order nonlinear + Type1R + Newton", common::identity_type1()),
    ] {
        let nsds = common::first_order_obstacle(rel);
        let sim = TimeStepping::new(&nsds, 0.01, Osi::euler_moreau(1.0), lemke()).unwrap();
        case(name, nsds, sim, 150);
    }

    // FrictionContact 3D (NSGS Alart–Curnier) and 2D (NSGS): the block stuck on the ground
    for (name, dim, solver) in [
        (
            "sliding block + FrictionContact 3D (NSGS-AC)",
            3,
            FcSolver::NsgsAc(NsgsOptions::with_iter(IterOptions::new(1e-12, 1000))),
        ),
        (
            "sliding block + FrictionContact 2D (NSGS)",
            2,
            FcSolver::Nsgs2d(NsgsOptions::with_iter(IterOptions::new(1e-12, 1000))),
        ),
    ] {
        let nsds = common::sliding_block(dim, 9.81, 0.3, 1.0);
        let osnsp = Osnsp::FrictionContact { dim, solver };
        let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), osnsp).unwrap();
        case(name, nsds, sim, 500);
    }

    // Sparse block storage: a resting column of 100 beads, PGS with warm start
    let nsds = presets::column_of_beads(100, 0.05, 1.0, 9.81, 0.5, 0.0).unwrap();
    let mut pgs = PgsOptions::default();
    pgs.iter = IterOptions::new(1e-8, 50);
    pgs.warm_start = true;
    let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Pgs(pgs))).unwrap();
    let sim = pgs_sparse(sim).with_activation_threshold(1e-9, &nsds).unwrap();
    case("column of 100 beads + sparse LCP (PGS)", nsds, sim, 100);

    // Sparse storage with an active set that changes and comes back: one ball resting on the
    // ground (always active) and one bouncing (active around its impacts). After the first
    // impact both patterns ({rest}, {rest, bounce}) are cached and reused.
    let (nsds, _, _) = presets::lagrangian_contact(
        nalgebra::DMatrix::identity(2, 2),
        nalgebra::dvector![0.0, 1.0],
        nalgebra::DVector::zeros(2),
        nalgebra::DMatrix::identity(2, 2),
        None,
        0.9,
        Some(nalgebra::dvector![-9.81, -9.81]),
    )
    .unwrap();
    let sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Pgs(pgs))).unwrap();
    let sim = pgs_sparse(sim);
    let name = "resting + bouncing ball + sparse LCP (PGS), changing active set";
    let (n, changes) = allocations_over(name, nsds, sim, 1000, 2000);
    assert!(changes >= 4, "{name}: the bouncing ball must hit the ground");
    results.push((name, n));

    let failed: Vec<_> = results.iter().filter(|(_, n)| *n > 0).collect();
    assert!(failed.is_empty(), "steps allocated: {failed:?}");
}

/// The counter sees allocations of the counting thread (so a zero above means something) and
/// ignores those of other threads.
#[test]
fn the_counter_counts_this_thread_only() {
    let (n, v) = counting::allocations_during(|| vec![1.0_f64; 8]);
    assert!(n >= 1 && v.len() == 8, "{n}");
    let (n, ()) = counting::allocations_during(|| {
        std::thread::scope(|s| {
            s.spawn(|| (0..100).map(|i| vec![i; 4]).collect::<Vec<_>>().len());
        });
    });
    // spawning the scoped thread itself allocates a little on this thread; the other
    // thread's 100 vectors are not counted
    assert!(n < 100, "{n}");
}
