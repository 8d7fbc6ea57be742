//! The null-space samples (issue 32): the planar and spatial slider–cranks and the planar
//! five-bar, each run by the null-space method (numeric QR-chart basis, `γ = J̇ v` from the
//! analytic `J̇`) and by the event-driven Lagrangian path (bilateral `EqualityConditionNSL` held at
//! acceleration level, projected at every event, `J̇ v` from the relations' `J̇`), both on LSODA at
//! rtol 1e-12, atol 1e-14, outputs every 1 ms for 1 s. Prints one Markdown table row per
//! mechanism: position and λ agreement, both paths against a reference (null space at rtol
//! 1e-13), the same with the difference quotients (null-space `γ` by central differences,
//! event-driven `J̇ v` by a forward difference: the relations without `J̇`), constraint drift,
//! energy drift, time per output step and per integrator step. `--csv DIR` writes each
//! mechanism's null-space trajectory (`t, q…, λ…, |C|, E`).
//!
//!     cargo run --release -p saltus-kernel --example nullspace_mechanisms [-- --csv DIR]

#[path = "nullspace/models.rs"]
mod models;

use saltus_kernel::simulation::nullspace::{NullSpaceOptions, NullSpaceSimulation};
use saltus_kernel::{EventDriven, EventDrivenOptions, InterId, OdeOptions};
use std::io::Write;
use std::time::Instant;

struct Run {
    q: Vec<Vec<f64>>,
    lambda: Vec<Vec<f64>>,
    drift: f64,
    energy: f64,
    seconds: f64,
    steps: u64,
    charts: u64,
}

fn violation(mech: &models::Mechanism, q: &[f64]) -> f64 {
    let mut c = vec![0.0; mech.m];
    (mech.c)(q, &mut c);
    c.iter().fold(0.0f64, |a, x| a.max(x.abs()))
}

fn nullspace(
    mech: &models::Mechanism,
    h: f64,
    steps: usize,
    (rtol, analytic): (f64, bool),
    csv: Option<&std::path::Path>,
) -> Run {
    let opts = NullSpaceOptions { ode: OdeOptions::with_tol(rtol, 1e-2 * rtol), ..Default::default() };
    let start = Instant::now();
    let mut sim = NullSpaceSimulation::new(mech.constrained(analytic), 0.0, &mech.q0, &mech.v0, opts).expect("model");
    let e0 = (mech.energy)(&mech.q0, &mech.v0);
    let mut run = Run { q: vec![], lambda: vec![], drift: 0.0, energy: 0.0, seconds: 0.0, steps: 0, charts: 0 };
    let mut rows = Vec::new();
    for k in 1..=steps {
        sim.advance_to(k as f64 * h).expect("null-space step");
        let q = sim.q().to_vec();
        let (lam, v) = (sim.lambda().expect("λ"), sim.velocity().expect("v"));
        let (c, e) = (violation(mech, &q), (mech.energy)(&q, &v));
        run.drift = run.drift.max(c);
        run.energy = run.energy.max((e - e0).abs());
        if csv.is_some() {
            rows.push((k as f64 * h, q.clone(), lam.clone(), c, e));
        }
        run.q.push(q);
        run.lambda.push(lam);
    }
    run.seconds = start.elapsed().as_secs_f64();
    run.steps = sim.stats().ode.steps;
    run.charts = sim.stats().new_charts;
    if let Some(dir) = csv {
        let mut f = std::fs::File::create(dir.join(format!("{}.csv", mech.name))).expect("csv file");
        let qn: Vec<String> = (0..mech.n).map(|i| format!("q{i}")).collect();
        let ln: Vec<String> = (0..mech.m).map(|i| format!("lambda{i}")).collect();
        writeln!(f, "t,{},{},violation,energy", qn.join(","), ln.join(",")).expect("write");
        for (t, q, l, c, e) in rows {
            let nums: Vec<String> = q.iter().chain(&l).map(|x| format!("{x:e}")).collect();
            writeln!(f, "{t},{},{c:e},{e:e}", nums.join(",")).expect("write");
        }
    }
    run
}

fn event_driven(mech: &models::Mechanism, h: f64, steps: usize, dot_jacobian: bool) -> Run {
    let start = Instant::now();
    let mut nsds = mech.nsds_with(dot_jacobian);
    let opts = EventDrivenOptions { h, ..Default::default() };
    let mut sim = EventDriven::new(&nsds, opts).expect("event-driven model");
    let e0 = (mech.energy)(&mech.q0, &mech.v0);
    let mut run = Run { q: vec![], lambda: vec![], drift: 0.0, energy: 0.0, seconds: 0.0, steps: 0, charts: 0 };
    sim.run(&mut nsds, steps as f64 * h, &mut |nsds, _| {
        let ds = &nsds.systems()[0];
        let (q, v) = (ds.state().as_slice().to_vec(), ds.velocity().expect("Lagrangian").as_slice().to_vec());
        run.drift = run.drift.max(violation(mech, &q));
        run.energy = run.energy.max(((mech.energy)(&q, &v) - e0).abs());
        run.lambda.push((0..mech.m).map(|i| nsds.interactions()[i].lambda(0).map_or(f64::NAN, |l| l[0])).collect());
        run.q.push(q);
    })
    .expect("event-driven run");
    let _ = sim.lambda(InterId::new(0, 0));
    run.seconds = start.elapsed().as_secs_f64();
    run.steps = sim.ode_stats().steps;
    run
}

fn max_diff(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter().zip(b).flat_map(|(x, y)| x.iter().zip(y).map(|(p, q)| (p - q).abs())).fold(0.0, f64::max)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let csv = args.iter().position(|a| a == "--csv").and_then(|i| args.get(i + 1)).map(std::path::PathBuf::from);
    let (h, steps) = (1e-3, 1000);
    println!(
        "| mechanism | n, m | Δq NS–ED | Δλ NS–ED (rel.) | Δq NS, ED vs ref. | central-difference γ (4th order): Δq NS vs ref. | forward-difference J̇v: Δq, Δλ NS–ED, Δq ED vs ref. (ED steps) | \
         C∞ NS / ED | ΔE NS / ED (E₀) | ms per output step NS / ED | µs per integrator step NS / ED (steps) | new charts |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for mech in [models::planar_slider_crank(30.0), models::spatial_slider_crank(20.0), models::five_bar(3.0, -1.0)] {
        let ns = nullspace(&mech, h, steps, (1e-12, true), csv.as_deref());
        let ns_fd = nullspace(&mech, h, steps, (1e-12, false), None);
        let reference = nullspace(&mech, h, steps, (1e-13, true), None);
        let ed = event_driven(&mech, h, steps, true);
        let ed_fd = event_driven(&mech, h, steps, false);
        // the event-driven run also reports t0: drop it
        let edq = &ed.q[ed.q.len() - ns.q.len()..];
        let edl = &ed.lambda[ed.lambda.len() - ns.lambda.len()..];
        let edq_fd = &ed_fd.q[ed_fd.q.len() - ns.q.len()..];
        let edl_fd = &ed_fd.lambda[ed_fd.lambda.len() - ns.lambda.len()..];
        let lmax = ns.lambda.iter().flatten().fold(0.0f64, |a, x| a.max(x.abs()));
        let e0 = (mech.energy)(&mech.q0, &mech.v0);
        println!(
            "| {} | {}, {} | {:.1e} | {:.1e} | {:.1e}, {:.1e} | {:.1e} | {:.1e}, {:.1e}, {:.1e} ({} steps) | {:.1e} / {:.1e} | {:.1e} / {:.1e} ({:.3}) | {:.3} / {:.3} | {:.1} / {:.1} ({} / {}) | {} |",
            mech.name,
            mech.n,
            mech.m,
            max_diff(&ns.q, edq),
            max_diff(&ns.lambda, edl) / lmax,
            max_diff(&ns.q, &reference.q),
            max_diff(edq, &reference.q),
            max_diff(&ns_fd.q, &reference.q),
            max_diff(&ns.q, edq_fd),
            max_diff(&ns.lambda, edl_fd) / lmax,
            max_diff(edq_fd, &reference.q),
            ed_fd.steps,
            ns.drift,
            ed.drift,
            ns.energy,
            ed.energy,
            e0,
            1e3 * ns.seconds / steps as f64,
            1e3 * ed.seconds / steps as f64,
            1e6 * ns.seconds / ns.steps as f64,
            1e6 * ed.seconds / ed.steps as f64,
            ns.steps,
            ed.steps,
            ns.charts
        );
    }
}
