//! Compares FC3D solvers on `spheres_in_a_box`: `cargo run --release -p saltus-mechanics --example solver_probe --
//! SOLVER [N] [T]` with SOLVER one of `scene` (the scene's solver: NSGS on two domains), `nsgs` (NSGS, Alart–Curnier
//! local solver, warm start, plain sweeps), `sor`
//! (NSGS with over-relaxation 1.5), `proj` (NSGS, projection local solver), `shuffle` (NSGS in a seeded random order),
//! `admm`, `prox` (proximal point around the Alart–Curnier Newton), `newton` (global Alart–Curnier Newton), or NSGS
//! variants written as `+`-separated tokens: `sym` (symmetric sweeps), `aaM` (Anderson acceleration, memory M),
//! `wX` (relaxation X), `col` (coloured order; rayon with the `parallel` feature), `stS` (stop a solve whose error
//! has not dropped by 10 % in S sweeps, reported as not converged), `domP` (P subdomains, `NsgsOptions::domains`),
//! `thrT` (threads of the subdomain sweep, 0 = all), `pxI[/sS][/kK]` (PROX after the sweeps on the
//! problems they leave unsolved: I inner Newton steps, proximal weight S, at most K proximal steps), `ptL[/hH][/kK][/sS]` (patch corrections
//! after the sweeps: L layers, share H, K rounds, S sweeps between rounds), `grav` (contacts ordered bottom-up along
//! gravity, `ContactOrder::AlongGravity`; alone or with the others), e.g. `sym+aa5`; `hybN[/iI][/sS]` runs N NSGS
//! sweeps, then PROX with at most I Newton steps per proximal step and proximal weight S. Prints
//! `PROBE_SCENE=cubes` runs `scenes::cube_pile(N, 1)` instead (N = 64, T = 1 by default). Prints
//! time per step, mean sweeps, non-converged steps, mean active contacts, mean height and kinetic energy at T, and
//! (step, sweeps, residual) every 50 steps.
use saltus_mechanics::scenes::{cube_pile, spheres_in_a_box};
use saltus_numerics::fc::{AdmmOptions, FcSolver, NsgsOptions};
use saltus_numerics::IterOptions;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "scene".into());
    let cubes = std::env::var("PROBE_SCENE").is_ok_and(|v| v == "cubes");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(if cubes { 64 } else { 125 });
    let t: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(if cubes { 1.0 } else { 0.5 });
    let mut scene = if cubes { cube_pile(n, 1)? } else { spheres_in_a_box(n, 1)? };
    scene.t_end = t;
    let it = IterOptions::new(1e-6, 1000);
    let nsgs = |relaxation: f64, shuffle_seed: Option<u64>| {
        let mut o = NsgsOptions::with_iter(it);
        o.warm_start = true;
        o.relaxation = relaxation;
        o.shuffle_seed = shuffle_seed;
        o
    };
    let tokens: Vec<&str> = which.split('+').collect();
    if tokens.contains(&"grav") {
        scene.options.contact_order = saltus_mechanics::ContactOrder::AlongGravity;
    }
    let rest: Vec<&str> = tokens.into_iter().filter(|t| *t != "grav").collect();
    let rest = if rest.is_empty() { "scene".to_string() } else { rest.join("+") };
    scene.options.solver = match rest.as_str() {
        "admm" => {
            let mut o = AdmmOptions::with_iter(it);
            o.warm_start = true;
            FcSolver::Admm(o)
        }
        "sor" => FcSolver::NsgsAc(nsgs(1.5, None)),
        "prox" => {
            let mut o = saltus_numerics::fc::ProxOptions::with_iter(it);
            o.warm_start = true;
            FcSolver::Prox(o)
        }
        v if v.starts_with("hyb") => {
            // NSGS warm-up sweeps, then the proximal Newton from that point
            let mut o = saltus_numerics::fc::ProxOptions::with_iter(it);
            o.warm_start = true;
            o.admm_warmup = 0;
            // hybN[/iI][/sS]: N warm-up sweeps, I inner Newton steps, proximal weight S
            for (k, tok) in v[3..].split('/').enumerate() {
                match (k, tok.chars().next()) {
                    (0, _) => o.warmup_sweeps = tok.parse()?,
                    (_, Some('i')) => o.inner_max_iter = tok[1..].parse()?,
                    (_, Some('s')) => o.sigma = tok[1..].parse()?,
                    _ => return Err(format!("unknown hyb option {tok}").into()),
                }
            }
            FcSolver::Prox(o)
        }
        "newton" => {
            let mut o = saltus_numerics::fc::NewtonOptions::with_iter(it);
            o.warm_start = true;
            FcSolver::NewtonAc(o)
        }
        "proj" => FcSolver::NsgsProj(nsgs(1.0, None)),
        "nsgs" => FcSolver::NsgsAc(nsgs(1.0, None)),
        "shuffle" => FcSolver::NsgsAc(nsgs(1.0, Some(3))),
        v if v.contains("aa")
            || v.contains("sym")
            || v.contains("col")
            || v.contains("st")
            || v.contains("dom")
            || v.contains("px")
            || v.contains("pt")
            || v.starts_with('w') =>
        {
            let mut o = nsgs(1.0, None);
            for tok in v.split('+') {
                if tok == "sym" {
                    o.symmetric = true;
                } else if tok == "col" {
                    o.colouring = true;
                } else if let Some(m) = tok.strip_prefix("st") {
                    o.stagnation_sweeps = m.parse()?;
                } else if let Some(m) = tok.strip_prefix("dom") {
                    o.domains = m.parse()?;
                } else if let Some(m) = tok.strip_prefix("thr") {
                    o.threads = m.parse()?;
                } else if let Some(m) = tok.strip_prefix("px") {
                    // pxI[/sS][/kK]: PROX after the sweeps (I inner Newton steps, weight S, cap K)
                    let mut po = saltus_numerics::fc::ProxOptions::with_iter(IterOptions::new(1e-6, 200));
                    for (k, t) in m.split('/').enumerate() {
                        match (k, t.chars().next()) {
                            (0, _) => po.inner_max_iter = t.parse()?,
                            (_, Some('s')) => po.sigma = t[1..].parse()?,
                            (_, Some('k')) => po.iter.max_iter = t[1..].parse()?,
                            _ => return Err(format!("unknown px option {t}").into()),
                        }
                    }
                    o.fallback = saltus_numerics::fc::NsgsFallback::Prox(po);
                } else if let Some(m) = tok.strip_prefix("pt") {
                    // ptL[/hH][/kK]: patch corrections after the sweeps (L layers, share H, K rounds)
                    let mut po = saltus_numerics::fc::PatchOptions::default();
                    for (k, t) in m.split('/').enumerate() {
                        match (k, t.chars().next()) {
                            (0, _) => po.layers = t.parse()?,
                            (_, Some('h')) => po.share = t[1..].parse()?,
                            (_, Some('k')) => po.rounds = t[1..].parse()?,
                            (_, Some('s')) => po.sweeps = t[1..].parse()?,
                            _ => return Err(format!("unknown pt option {t}").into()),
                        }
                    }
                    o.fallback = saltus_numerics::fc::NsgsFallback::Patch(po);
                } else if let Some(m) = tok.strip_prefix("aa") {
                    o.anderson = m.parse()?;
                } else if let Some(w) = tok.strip_prefix('w') {
                    o.relaxation = w.parse()?;
                } else {
                    return Err(format!("unknown NSGS variant token {tok}").into());
                }
            }
            FcSolver::NsgsAc(o)
        }
        _ => scene.options.solver.clone(),
    };
    let steps = scene.n_steps();
    let mut sim = scene.into_simulation()?;
    let (mut sweeps, mut unconverged, mut active, mut worst, mut worst_step) = (0usize, 0usize, 0usize, 0.0f64, 0usize);
    let mut trace = vec![];
    let start = Instant::now();
    for k in 0..steps {
        let rep = sim.step()?;
        active += rep.n_active;
        if let Some(s) = &rep.solver {
            sweeps += s.iterations;
            unconverged += usize::from(!s.status.converged());
            if s.residual > worst {
                (worst, worst_step) = (s.residual, k);
            }
            if k % 50 == 0 || std::env::var("PROBE_TRACE").is_ok() {
                trace.push((k, s.iterations, s.residual, (s.elapsed.as_secs_f64() * 1e3 * 100.0).round() / 100.0));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let z: f64 = sim.model.bodies[..n].iter().map(|b| b.state.position.z).sum::<f64>() / n as f64;
    println!(
        "{which}: {:.3} ms/step, mean sweeps {:.1}, not converged {unconverged}/{steps}, mean active {:.1}, worst residual {worst:.2e} (step {worst_step}), z {z:.6e}, ke {:.3e}",
        secs * 1e3 / steps as f64,
        sweeps as f64 / steps as f64,
        active as f64 / steps as f64,
        sim.model.kinetic_energy()
    );
    println!("{trace:?}");
    Ok(())
}
