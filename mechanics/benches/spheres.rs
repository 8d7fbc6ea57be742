//! spheres_in_a_box benchmark: prints one CSV row per N.
//!
//! `cargo bench -p saltus-mechanics --bench spheres` runs N = 125 (T = 0.5 s) and N = 1000
//! (T = 1 s); `SALTUS_BENCH_10K=1` adds N = 10 000 (T = 1 s, long). `SALTUS_BENCH_N=125,1000`
//! picks the sizes and `SALTUS_BENCH_T` overrides the final time. Peak RSS is the process's
//! VmHWM after the run of that N (monotone across rows). `seconds_per_step` is wall time,
//! `cpu_seconds_per_step` this process's CPU time (the two differ on a shared machine, and with
//! `--features parallel`, where the scene's NSGS sweeps its slabs on two threads).
//! `cpu_ns_per_contact_visit` is the CPU time of all steps divided by Σ (active contacts ×
//! NSGS sweeps): the cost of a step per unit of solver work, flat when a step is linear in the
//! number of contacts at a given sweep count.
//!
//! `SALTUS_BENCH_SCENE=cubes` runs `scenes::cube_pile(N, 1)` instead (issue 31's pile of randomly
//! oriented cubes; `SALTUS_BENCH_N` defaults to 64, T = 1 s). `SALTUS_BENCH_FALLBACK=prox` or
//! `patch` sets the NSGS fallback with `stagnation_sweeps = 20` (every step solved to the
//! tolerance; `NsgsFallback`), `none` removes it (plain NSGS to the sweep cap, as Siconos).

use saltus_mechanics::scenes::{cube_pile, spheres_in_a_box};
use saltus_numerics::fc::{FcSolver, NsgsFallback, PatchOptions, ProxOptions};
use std::time::Instant;

fn vm_hwm_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// User + system CPU seconds of this process (from /proc/self/stat, clock ticks of 1/100 s).
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let (ut, st): (f64, f64) = (f.get(11)?.parse().ok()?, f.get(12)?.parse().ok()?);
    Some((ut + st) / 100.0)
}

fn main() {
    let cubes = std::env::var("SALTUS_BENCH_SCENE").is_ok_and(|v| v == "cubes");
    let fallback = match std::env::var("SALTUS_BENCH_FALLBACK").as_deref() {
        Ok("prox") => {
            let mut o = ProxOptions::default();
            o.iter.max_iter = 1000;
            o.inner_max_iter = 3;
            Some(NsgsFallback::Prox(o))
        }
        Ok("patch") => Some(NsgsFallback::Patch(PatchOptions::default())),
        Ok("none") => Some(NsgsFallback::None),
        _ => None,
    };
    let mut sizes: Vec<usize> = match std::env::var("SALTUS_BENCH_N") {
        Ok(v) => v.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
        Err(_) if cubes => vec![64],
        Err(_) => vec![125, 1000],
    };
    if std::env::var("SALTUS_BENCH_10K").is_ok_and(|v| v == "1") {
        sizes.push(10_000);
    }
    let t_override: Option<f64> = std::env::var("SALTUS_BENCH_T").ok().and_then(|v| v.parse().ok());
    println!("n,steps,mean_contacts,mean_active,seconds_per_step,cpu_seconds_per_step,us_per_contact,mean_height_m,final_kinetic_energy_J,max_nsgs_iterations,unconverged_steps,peak_rss_mib,mean_sweeps,cpu_ns_per_contact_visit,max_residual");
    for n in sizes {
        let built = if cubes { cube_pile(n, 1) } else { spheres_in_a_box(n, 1) };
        let mut scene = match built {
            Ok(s) => s,
            Err(e) => {
                eprintln!("N = {n}: {e}");
                std::process::exit(1);
            }
        };
        if let Some(t) = t_override {
            scene.t_end = t;
        }
        if let (Some(f), FcSolver::NsgsAc(o)) = (&fallback, &mut scene.options.solver) {
            o.stagnation_sweeps = if *f == NsgsFallback::None { 0 } else { 20 };
            o.fallback = f.clone();
        }
        let steps = scene.n_steps();
        let mut sim = scene.into_simulation().expect("valid scene");
        let (mut contacts, mut active, mut max_iter, mut unconverged) = (0usize, 0usize, 0usize, 0usize);
        // Σ sweeps and Σ active contacts × sweeps (contact visits) over the steps.
        let (mut sweeps, mut visits, mut worst) = (0usize, 0usize, 0.0f64);
        let cpu0 = cpu_seconds();
        let start = Instant::now();
        // the steps on a rayon worker, as `saltus run` does: the slab sweep's scope then runs on
        // this thread and the pool's other worker helps (without `parallel`: one thread)
        rayon::scope(|_| {
            for _ in 0..steps {
                let rep = match sim.step() {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("N = {n}: {e}");
                        std::process::exit(1);
                    }
                };
                contacts += rep.n_contacts;
                active += rep.n_active;
                if let Some(s) = &rep.solver {
                    max_iter = max_iter.max(s.iterations);
                    unconverged += usize::from(!s.status.converged());
                    sweeps += s.iterations;
                    visits += s.iterations * rep.n_active;
                    worst = worst.max(s.residual);
                }
            }
        });
        let secs = start.elapsed().as_secs_f64();
        let cpu = match (cpu0, cpu_seconds()) {
            (Some(a), Some(b)) => (b - a) / steps as f64,
            _ => f64::NAN,
        };
        let per_step = secs / steps as f64;
        let mean_contacts = contacts as f64 / steps as f64;
        let mean_active = active as f64 / steps as f64;
        let z: f64 = sim.model.bodies[..n].iter().map(|b| b.state.position.z).sum::<f64>() / n as f64;
        let ke = sim.model.kinetic_energy();
        let rss = vm_hwm_kib().map_or(f64::NAN, |k| k as f64 / 1024.0);
        let mean_sweeps = sweeps as f64 / steps as f64;
        // CPU time of the whole step (collision, assembly, solve) per contact visit of the solver.
        let ns_per_visit = cpu * steps as f64 * 1e9 / (visits.max(1) as f64);
        println!(
            "{n},{steps},{mean_contacts:.1},{mean_active:.1},{per_step:.6e},{cpu:.6e},{:.3},{z:.6e},{ke:.6e},{max_iter},{unconverged},{rss:.1},{mean_sweeps:.1},{ns_per_visit:.1},{worst:.3e}",
            per_step * 1e6 / mean_contacts.max(1.0)
        );
    }
}
