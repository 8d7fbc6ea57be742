//! The hard steps of a pile, one at a time: `hard_step_probe [spheres|cubes] [K] [VARIANTS]` runs the
//! scene (125 spheres or 64 cubes) with NSGS (the scene's options plus `stagnation_sweeps = 50`,
//! no fallback), keeps the first K problems the sweeps leave unsolved (with the sweeps' end
//! iterate, one every 20 steps at most, from step `PROBE_FROM` on), then solves each from that iterate with the finishers named in VARIANTS
//! (comma-separated: `proxI/sS/aA` PROX with I inner Newton steps, weight S and exponent A;
//! `newton` the global Alart–Curnier Newton; `nsgsN` N more sweeps) and prints, per problem and
//! finisher, the contacts, iterations, wall time and the Siconos error recomputed from `r`.
use saltus_mechanics::scenes::{cube_pile, spheres_in_a_box};
use saltus_numerics::fc::{self, FcSolver, NewtonOptions, NsgsOptions, ProxOptions};
use saltus_numerics::IterOptions;
use std::time::Instant;

fn finisher(v: &str) -> Result<FcSolver, Box<dyn std::error::Error>> {
    let it = IterOptions::new(1e-6, 1000);
    Ok(if let Some(m) = v.strip_prefix("prox") {
        let mut o = ProxOptions::with_iter(IterOptions::new(1e-6, 500));
        o.warm_start = true;
        o.warmup_sweeps = 0;
        o.admm_warmup = 0;
        for (k, t) in m.split('/').enumerate() {
            match (k, t.chars().next()) {
                (0, _) => o.inner_max_iter = t.parse()?,
                (_, Some('s')) => o.sigma = t[1..].parse()?,
                (_, Some('a')) => o.alpha = t[1..].parse()?,
                _ => return Err(format!("unknown prox option {t}").into()),
            }
        }
        FcSolver::Prox(o)
    } else if let Some(m) = v.strip_prefix("patch") {
        // patchL/hH/kK: L layers, share H, K rounds, then NSGS sweeps with the patch fallback
        let mut po = saltus_numerics::fc::PatchOptions::default();
        for (k, t) in m.split('/').enumerate() {
            match (k, t.chars().next()) {
                (0, _) => po.layers = t.parse()?,
                (_, Some('h')) => po.share = t[1..].parse()?,
                (_, Some('k')) => po.rounds = t[1..].parse()?,
                (_, Some('i')) => po.prox.inner_max_iter = t[1..].parse()?,
                _ => return Err(format!("unknown patch option {t}").into()),
            }
        }
        let mut o = NsgsOptions::with_iter(IterOptions::new(1e-6, 1));
        o.warm_start = true;
        o.fallback = saltus_numerics::fc::NsgsFallback::Patch(po);
        FcSolver::NsgsAc(o)
    } else if v == "newton" {
        let mut o = NewtonOptions::with_iter(IterOptions::new(1e-6, 200));
        o.warm_start = true;
        FcSolver::NewtonAc(o)
    } else if let Some(m) = v.strip_prefix("nsgs") {
        let mut o = NsgsOptions::with_iter(IterOptions::new(1e-6, m.parse()?));
        o.warm_start = true;
        FcSolver::NsgsAc(o)
    } else {
        let _ = it;
        return Err(format!("unknown finisher {v}").into());
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "spheres".into());
    let k: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let variants = args.next().unwrap_or_else(|| "prox3".into());
    let mut scene = if which == "cubes" { cube_pile(64, 1)? } else { spheres_in_a_box(125, 1)? };
    let steps = scene.n_steps();
    if let FcSolver::NsgsAc(o) = &mut scene.options.solver {
        o.stagnation_sweeps = 50;
    }
    let nsgs_opts = scene.options.solver.clone();
    let mut sim = scene.into_simulation()?;
    sim.set_capture_problem(true);
    // PROBE_FROM=S: only steps from S on
    let from: usize = std::env::var("PROBE_FROM").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut hard = vec![];
    let mut last = None;
    for s in 0..steps {
        let rep = sim.step()?;
        let Some(rep) = rep.solver else { continue };
        if rep.status.converged() || last.is_some_and(|l| s < l + 20) || s < from {
            continue;
        }
        let (p, r0) = sim.captured_problem().ok_or("no problem")?.clone();
        let mut r = r0.clone();
        let mut u = vec![0.0; r.len()];
        let again = fc::solve(&p, &mut r, &mut u, &nsgs_opts)?;
        hard.push((s, p, r, again));
        last = Some(s);
        if hard.len() == k {
            break;
        }
    }
    for (s, p, r0, rep) in &hard {
        println!("step {s}: {} contacts, sweeps {} error {:.2e}", p.n_contacts(), rep.iterations, fc::fc_error(p, r0));
        // how the squared natural-map residual is spread over the contacts
        let mut u = p.q().to_vec();
        p.w().matvec_add(1.0, r0, &mut u);
        let mut e: Vec<f64> = (0..p.n_contacts())
            .map(|a| {
                let ra = &r0[3 * a..3 * a + 3];
                fc::residual::natural_map_residual(3, &p.mu()[a..a + 1], ra, &u[3 * a..3 * a + 3]).powi(2)
            })
            .collect();
        e.sort_by(|a, b| b.total_cmp(a));
        let tot: f64 = e.iter().sum();
        let mut acc = 0.0;
        let mut counts = vec![];
        for (i, x) in e.iter().enumerate() {
            acc += x;
            for f in [0.9, 0.99, 0.999] {
                if acc >= f * tot && counts.len() < [0.9, 0.99, 0.999].iter().position(|g| *g == f).unwrap() + 1 {
                    counts.push(i + 1);
                }
            }
        }
        println!("  contacts holding 90 / 99 / 99.9 % of the squared residual: {counts:?}");
        for v in variants.split(',') {
            let solver = finisher(v)?;
            let (mut r, mut u) = (r0.clone(), vec![0.0; r0.len()]);
            let t = Instant::now();
            let out = fc::solve(p, &mut r, &mut u, &solver)?;
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let e = fc::fc_error(p, &r);
            println!("  {v:>12}: {:?} iterations {} {ms:.2} ms error {e:.2e}", out.status, out.iterations);
        }
    }
    Ok(())
}
