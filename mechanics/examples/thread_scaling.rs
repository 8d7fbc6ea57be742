//! Thread scaling of the slab NSGS on `spheres_in_a_box(N, 1)` (issue 31): one trajectory, cut
//! into windows of steps, each window run on a rayon pool of another size, the sizes taken in
//! turn round after round (so a slow drift of the pile's state is shared by every size).
//!
//! `cargo run --release -p saltus-mechanics --features parallel --example thread_scaling --
//! scale N P WARMUP WINDOW ROUNDS 1,2,4,8,16`: the scene's NSGS on `P` domains (`2P` slabs, the
//! same bits for any thread count), `WARMUP` steps on the largest pool, then `ROUNDS` rounds of
//! one `WINDOW`-step window per pool size. One CSV row per window: wall, CPU and solver time,
//! contact visits (Σ active contacts × sweeps) and the wall time per visit, the figure whose
//! ratio between pool sizes is the speed-up of the step (the windows differ in their steps).
//!
//! `… -- bits N P STEPS 1,16`: runs the scene from the start for `STEPS` steps on each pool size
//! and prints whether every body's pose and twist have the same bits on all of them (`… 1,16
//! r`: the odd pool sizes sweep with another part schedule, `o` owned parts, `r` a ready queue).
//!
//! `… -- grow N P STEPS THREADS`: the first `STEPS` steps on one pool: time per step, per active
//! contact, per visit, peak RSS (for N = 1000, 10 000, 100 000).

use saltus_mechanics::scenes::spheres_in_a_box;
use saltus_mechanics::MechanicsSimulation;
use saltus_numerics::fc::nsgs::sweep_balance;
use saltus_numerics::fc::{FcSolver, PartSchedule};
use saltus_numerics::Operator;
use std::time::{Duration, Instant};

fn vm_hwm_mib() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(f64::NAN, |k| k / 1024.0)
}

/// User + system CPU seconds of this process (clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let Some(i) = s.rfind(')') else { return f64::NAN };
    let f: Vec<&str> = s[i + 2..].split_whitespace().collect();
    let tick = |k: usize| f.get(k).and_then(|x| x.parse::<f64>().ok());
    tick(11).zip(tick(12)).map_or(f64::NAN, |(u, s)| (u + s) / 100.0)
}

fn build(n: usize, p: usize) -> MechanicsSimulation {
    let mut scene = spheres_in_a_box(n, 1).unwrap_or_else(|e| fail(&e.to_string()));
    if let FcSolver::NsgsAc(o) = &mut scene.options.solver {
        o.domains = p;
    }
    scene.into_simulation().unwrap_or_else(|e| fail(&e.to_string()))
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(1)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| fail(&e.to_string()))
}

/// Sums over a window of steps.
#[derive(Default)]
struct Window {
    steps: usize,
    active: usize,
    sweeps: usize,
    visits: usize,
    unconverged: usize,
    solve: Duration,
    /// Σ of the step's phases: collision, assembly, solve (with its set-up), update.
    phases: [Duration; 4],
    /// The subdomain sweeps' team: Σ wall of the sweep loops, and each worker's Σ time in parts.
    team_wall: Duration,
    team_busy: Vec<Duration>,
    wall: f64,
    cpu: f64,
}

/// `steps` steps of `sim` on `pool` (the loop itself on one of its workers, as `saltus run`).
fn run(sim: &mut MechanicsSimulation, pool: &rayon::ThreadPool, steps: usize) -> Window {
    let mut w = Window { steps, ..Default::default() };
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    pool.install(|| {
        for _ in 0..steps {
            let rep = sim.step().unwrap_or_else(|e| fail(&e.to_string()));
            w.active += rep.n_active;
            if let Some(tt) = sim.last_team_times() {
                w.team_wall += tt.wall;
                w.team_busy.resize(w.team_busy.len().max(tt.busy.len()), Duration::ZERO);
                for (acc, b) in w.team_busy.iter_mut().zip(&tt.busy) {
                    *acc += *b;
                }
            }
            let ph = &rep.phases;
            for (acc, d) in w.phases.iter_mut().zip([ph.collision, ph.assembly, ph.solve, ph.update]) {
                *acc += d;
            }
            if let Some(s) = &rep.solver {
                w.sweeps += s.iterations;
                w.visits += s.iterations * rep.n_active;
                w.unconverged += usize::from(!s.status.converged());
                w.solve += s.elapsed;
            }
        }
    });
    w.wall = start.elapsed().as_secs_f64();
    w.cpu = cpu_seconds() - cpu0;
    w
}

/// The window's mean phase times per step in ms, then the sweep team's: workers, wall ms
/// per step of the sweep loops, and the share of `workers × wall` that the workers spent in
/// parts (mean, least and most busy worker), comma-separated.
fn phases_ms(w: &Window) -> String {
    let per_step = |d: &Duration| 1e3 * d.as_secs_f64() / w.steps.max(1) as f64;
    let mut cols: Vec<String> = w.phases.iter().map(|d| format!("{:.3}", per_step(d))).collect();
    let busy: Vec<f64> = w.team_busy.iter().map(|b| b.as_secs_f64() / w.team_wall.as_secs_f64().max(1e-12)).collect();
    let mean = busy.iter().sum::<f64>() / busy.len().max(1) as f64;
    let min = busy.iter().copied().fold(f64::INFINITY, f64::min);
    let max = busy.iter().copied().fold(0.0, f64::max);
    cols.push(format!("{},{:.3},{mean:.3},{min:.3},{max:.3}", busy.len(), per_step(&w.team_wall)));
    cols.join(",")
}

fn numbers(s: Option<&String>, what: &str) -> Vec<usize> {
    let v: Vec<usize> = s.map_or(vec![], |s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect());
    if v.is_empty() {
        fail(&format!("missing {what}"));
    }
    v
}

fn state_bits(sim: &MechanicsSimulation) -> Vec<u64> {
    let mut bits = Vec::new();
    for b in &sim.model.bodies {
        let s = &b.state;
        let q = s.orientation.quaternion();
        for v in [s.position.x, s.position.y, s.position.z, q.w, q.i, q.j, q.k, s.v.x, s.v.y, s.v.z] {
            bits.push(v.to_bits());
        }
        bits.extend([s.omega.x, s.omega.y, s.omega.z].map(f64::to_bits));
    }
    bits
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, what: &str| numbers(a.get(i), what)[0];
    match a.first().map(String::as_str) {
        Some("scale") => {
            let (n, p, warmup, window, rounds) =
                (arg(1, "N"), arg(2, "P"), arg(3, "WARMUP"), arg(4, "WINDOW"), arg(5, "ROUNDS"));
            // a pool size `k`, or `P:k` (the solver on `P` domains for that window), or `P:k:o`
            // (each worker owns its parts: `PartSchedule::Owned`) or `P:k:r` (a ready queue:
            // `PartSchedule::Ready`)
            let windows: Vec<(usize, usize, PartSchedule)> = a.get(6).map_or(vec![], |s| {
                s.split(',')
                    .filter_map(|w| {
                        let f: Vec<&str> = w.split(':').collect();
                        let owned = match f.get(2) {
                            Some(&"o") => PartSchedule::Owned,
                            Some(&"r") => PartSchedule::Ready,
                            _ => PartSchedule::Shared,
                        };
                        match f[..] {
                            [k] => Some((p, k.parse().ok()?, PartSchedule::Shared)),
                            [d, k, ..] => Some((d.parse().ok()?, k.parse().ok()?, owned)),
                            _ => None,
                        }
                    })
                    .collect()
            });
            if windows.is_empty() {
                fail("missing pool sizes");
            }
            let pools: Vec<_> = windows.iter().map(|&(_, k, _)| pool(k)).collect();
            let largest = windows.iter().enumerate().max_by_key(|(_, (_, k, _))| *k).map_or(0, |(i, _)| i);
            let mut sim = build(n, p);
            let w = run(&mut sim, &pools[largest], warmup);
            eprintln!("warm-up: {warmup} steps in {:.1} s on {} threads", w.wall, windows[largest].1);
            println!("n,domains,threads,round,steps,mean_active,mean_sweeps,unconverged,wall_ms_per_step,cpu_ms_per_step,solve_ms_per_step,wall_ns_per_visit,cpu_over_wall,peak_rss_mib,collision_ms,assembly_ms,step_solve_ms,update_ms,team_workers,team_wall_ms,busy_share_mean,busy_share_min,busy_share_max");
            for round in 0..rounds {
                for (&(p, k, schedule), pool) in windows.iter().zip(&pools) {
                    let mut solver = sim.options().solver.clone();
                    if let FcSolver::NsgsAc(o) = &mut solver {
                        o.domains = p;
                        o.schedule = schedule;
                    }
                    sim.set_solver(solver);
                    let w = run(&mut sim, pool, window);
                    let s = w.steps as f64;
                    println!(
                        "{n},{p}{},{k},{round},{},{:.1},{:.1},{},{:.3},{:.3},{:.3},{:.2},{:.2},{:.1},{}",
                        match schedule {
                            PartSchedule::Owned => "o",
                            PartSchedule::Ready => "r",
                            PartSchedule::Shared => "",
                        },
                        w.steps,
                        w.active as f64 / s,
                        w.sweeps as f64 / s,
                        w.unconverged,
                        1e3 * w.wall / s,
                        1e3 * w.cpu / s,
                        1e3 * w.solve.as_secs_f64() / s,
                        1e9 * w.wall / w.visits.max(1) as f64,
                        w.cpu / w.wall,
                        vm_hwm_mib(),
                        phases_ms(&w)
                    );
                }
            }
        }
        Some("bits") => {
            let (n, p, steps) = (arg(1, "N"), arg(2, "P"), arg(3, "STEPS"));
            let sizes = numbers(a.get(4), "pool sizes");
            let runs: Vec<Vec<u64>> = sizes
                .iter()
                .map(|&k| {
                    let mut sim = build(n, p);
                    // an optional schedule for the odd pool sizes' runs: `o` owned, `r` ready queue
                    if k % 2 == 1 {
                        let mut solver = sim.options().solver.clone();
                        if let FcSolver::NsgsAc(o) = &mut solver {
                            o.schedule = match a.get(5).map(String::as_str) {
                                Some("o") => PartSchedule::Owned,
                                Some("r") => PartSchedule::Ready,
                                _ => PartSchedule::Shared,
                            };
                        }
                        sim.set_solver(solver);
                    }
                    run(&mut sim, &pool(k), steps);
                    state_bits(&sim)
                })
                .collect();
            let same = runs.windows(2).all(|w| w[0] == w[1]);
            // FNV-1a of the state bits: compares builds as well as thread counts
            let hash = runs[0].iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b).wrapping_mul(0x100_0000_01b3));
            println!("n={n} domains={p} steps={steps} threads={sizes:?} same_bits={same} state_hash={hash:016x}");
            if !same {
                std::process::exit(2);
            }
        }
        Some("grow") => {
            let (n, p, steps, threads) = (arg(1, "N"), arg(2, "P"), arg(3, "STEPS"), arg(4, "THREADS"));
            let t0 = Instant::now();
            let mut sim = build(n, p);
            let built = t0.elapsed().as_secs_f64();
            let w = run(&mut sim, &pool(threads), steps);
            let s = w.steps as f64;
            println!("n,domains,threads,steps,build_s,mean_active,mean_sweeps,unconverged,wall_ms_per_step,cpu_ms_per_step,solve_ms_per_step,wall_us_per_active_contact,wall_ns_per_visit,peak_rss_mib,collision_ms,assembly_ms,step_solve_ms,update_ms,team_workers,team_wall_ms,busy_share_mean,busy_share_min,busy_share_max");
            println!(
                "{n},{p},{threads},{steps},{built:.2},{:.1},{:.1},{},{:.3},{:.3},{:.3},{:.3},{:.2},{:.1},{}",
                w.active as f64 / s,
                w.sweeps as f64 / s,
                w.unconverged,
                1e3 * w.wall / s,
                1e3 * w.cpu / s,
                1e3 * w.solve.as_secs_f64() / s,
                1e6 * w.wall / w.active.max(1) as f64,
                1e9 * w.wall / w.visits.max(1) as f64,
                vm_hwm_mib(),
                phases_ms(&w)
            );
        }
        Some("balance") => {
            // after WARMUP steps, the slab works of the last step's problem for each P
            let (n, warmup, threads) = (arg(1, "N"), arg(2, "WARMUP"), arg(3, "THREADS"));
            let mut sim = build(n, 2);
            run(&mut sim, &pool(threads), warmup);
            sim.set_capture_problem(true);
            run(&mut sim, &pool(threads), 1);
            let Some((p, _)) = sim.captured_problem() else { fail("no problem captured") };
            let Operator::BlockCsr(w) = p.w() else { fail("not a block matrix") };
            println!("n,domains,workers,parts,colours,total,makespan,bound_speedup");
            for d in numbers(a.get(4), "domains") {
                for k in [1, 2, 4, 8, 16] {
                    let Some(b) = sweep_balance(w, d, k) else { continue };
                    let ratio = b.total as f64 / b.makespan.max(1) as f64;
                    println!("{n},{d},{k},{},{},{},{},{ratio:.2}", b.parts, b.colours, b.total, b.makespan);
                }
            }
        }
        _ => fail(
            "usage: thread_scaling scale N P WARMUP WINDOW ROUNDS 1,2,4 | bits N P STEPS 1,16 | grow N P STEPS THREADS | balance N WARMUP THREADS 2,4,8",
        ),
    }
}
