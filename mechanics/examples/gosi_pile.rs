//! The 125-sphere pile (`scenes::spheres_in_a_box(125, 1)`, T = 0.5 s) with the local and the
//! global formulation of the step, on one thread and the same NSGS options (tolerance 1e-6, 1000
//! sweeps, warm start, plain sweeps): prints per formulation the mean sphere height at T, the mean
//! wall time per step, the mean sweeps and the steps not converged, and for a global run the
//! largest distance between its spheres and the local run's at T; exits with status 1 when a
//! global run's mean height differs from the local one's by more than 1 % (the pile is chaotic:
//! round-off apart, trajectories may part; the settled height does not).
//!
//! `cargo run --release -p saltus-mechanics --example gosi_pile -- [local] [global] [global-nsgs]`
//! (`global`: condensed then NSGS, Siconos `GFC3D_NSGS_WR`; `global-nsgs`: NSGS on the global
//! problem, `GFC3D_NSGS`). For CPU times run one formulation per process under `/usr/bin/time`.

use saltus_mechanics::scenes::spheres_in_a_box;
use saltus_mechanics::{nsgs, Formulation, MoreauJeanOptions};
use std::time::Instant;

/// Mean height at T, wall ms per step, mean sweeps, steps not converged, the sphere positions at T.
type Outcome = (f64, f64, f64, usize, Vec<nalgebra::Vector3<f64>>);

fn run(formulation: &str) -> Result<Outcome, String> {
    let n = 125;
    let scene = spheres_in_a_box(n, 1).map_err(|e| e.to_string())?;
    let (tol, max_iter) = (1e-6, 1000);
    let formulation = match formulation {
        "local" => Formulation::Local,
        "global" => Formulation::global_by_name("gfc3d-nsgs", tol, max_iter).ok_or("catalogue")?,
        "global-nsgs" => Formulation::global_by_name("gfc3d-nsgs-global", tol, max_iter).ok_or("catalogue")?,
        other => return Err(format!("unknown formulation {other} (local, global, global-nsgs)")),
    };
    let steps = scene.n_steps();
    let options = MoreauJeanOptions { solver: nsgs(tol, max_iter), formulation, ..scene.options.clone() };
    let mut sim =
        saltus_mechanics::MechanicsSimulation::new(scene.model, 0.0, scene.h, options).map_err(|e| e.to_string())?;
    let (mut sweeps, mut failed) = (0usize, 0usize);
    let start = Instant::now();
    for _ in 0..steps {
        let rep = sim.step().map_err(|e| e.to_string())?;
        if let Some(s) = rep.solver {
            sweeps += s.iterations;
            failed += usize::from(!s.status.converged());
        }
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / steps as f64;
    let z = sim.model.bodies[..n].iter().map(|b| b.state.position.z).sum::<f64>() / n as f64;
    let x = sim.model.bodies[..n].iter().map(|b| b.state.position).collect();
    Ok((z, ms, sweeps as f64 / steps as f64, failed, x))
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        args = vec!["local".into(), "global".into()];
    }
    println!("formulation,mean_height_m,wall_ms_per_step,mean_sweeps,steps_not_converged");
    let mut local = None;
    let mut bad = false;
    for f in &args {
        match run(f) {
            Ok((z, ms, sw, nc, x)) => {
                println!("{f},{z:.9},{ms:.3},{sw:.2},{nc}");
                if f == "local" {
                    local = Some((z, x));
                } else if let Some((zl, xl)) = &local {
                    let rel = (z - zl).abs() / zl;
                    let dx = x.iter().zip(xl).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
                    println!("# {f} vs local: mean height differs by {:.2e} %, positions by {dx:.2e} m", 100.0 * rel);
                    bad |= rel > 0.01;
                }
            }
            Err(e) => {
                eprintln!("error: {f}: {e}");
                std::process::exit(1);
            }
        }
    }
    if bad {
        eprintln!("error: a global run settles more than 1 % away from the local mean height");
        std::process::exit(1);
    }
}
