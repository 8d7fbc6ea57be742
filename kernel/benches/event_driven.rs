//! Time per event of the event-driven bouncing ball, printed as CSV (run:
//! `cargo bench -p saltus-kernel --bench event_driven`), to compare with the Siconos run of
//! `../shared/reference/bouncing_ball_ed` (`bouncing_ball_ed.py OUT --runs 5`).
//!
//! Timed like the Siconos script: model construction + the event loop to T = 8.5 with one
//! output row per event (and a pre-impact row per impact), median of `RUNS` runs.
//! Second case: a column of 3 beads falling until rest (T = 4), nonsmooth events in `impacts`.
//! Columns: `case,events,impacts,median_total_s,min_total_s,us_per_event,ode_steps,rhs_evals`.

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::{presets, EventDriven, EventDrivenOptions, EventKind};
use std::hint::black_box;
use std::time::Instant;

const RUNS: usize = 9;

fn run_once() -> (usize, usize, Vec<[f64; 5]>, saltus_numerics::ode::OdeStats) {
    let (r, m, g) = (0.1, 1.0, 9.81);
    let mass = DMatrix::from_diagonal(&dvector![m, m, 3.0 / 5.0 * m * r * r]);
    let (mut nsds, _, _) = presets::lagrangian_contact(
        mass,
        dvector![1.0, 0.0, 0.0],
        DVector::zeros(3),
        dmatrix![1.0, 0.0, 0.0],
        None,
        0.9,
        Some(dvector![-m * g, 0.0, 0.0]),
    )
    .unwrap();
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.005, ..Default::default() }).unwrap();
    let mut rows: Vec<[f64; 5]> = Vec::with_capacity(1800);
    let (mut events, mut impacts) = (0, 0);
    sim.run(&mut nsds, 8.5, &mut |nsds, rep| {
        events += 1;
        let ds = &nsds.systems()[0];
        let inter = &nsds.interactions()[0];
        if let (EventKind::NonSmooth, Some(pre)) = (rep.kind, &rep.pre_velocities) {
            impacts += 1;
            rows.push([rep.t, ds.state()[0], pre[0][0], ds.input()[0], 1.0]);
        }
        rows.push([rep.t, ds.state()[0], ds.velocity().unwrap()[0], inter.lambda(1).unwrap()[0], 0.0]);
    })
    .unwrap();
    (events, impacts, rows, sim.ode_stats())
}

/// Column of 3 beads dropped with gaps until rest (T = 4): multi-contact impacts, Zeno rule,
/// acceleration problems. Returns (events, nonsmooth events, ode steps, rhs evals).
fn beads_once() -> (usize, usize, u64, u64) {
    let mut nsds = presets::column_of_beads(3, 0.1, 1.0, 9.81, 0.5, 0.05).unwrap();
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.005, ..Default::default() }).unwrap();
    let (mut events, mut ns) = (0, 0);
    sim.run(&mut nsds, 4.0, &mut |nsds, rep| {
        events += 1;
        ns += (rep.kind == EventKind::NonSmooth) as usize;
        black_box(nsds.systems()[2].state()[0]);
    })
    .unwrap();
    let st = sim.ode_stats();
    (events, ns, st.steps, st.rhs_evals)
}

fn main() {
    let mut totals = Vec::with_capacity(RUNS);
    let mut last = None;
    for _ in 0..RUNS {
        let t0 = Instant::now();
        let out = black_box(run_once());
        totals.push(t0.elapsed().as_secs_f64());
        last = Some(out);
    }
    totals.sort_by(|a, b| a.total_cmp(b));
    let (events, impacts, _, stats) = last.expect("RUNS > 0");
    let med = totals[RUNS / 2];
    println!("case,events,impacts,median_total_s,min_total_s,us_per_event,ode_steps,rhs_evals");
    println!(
        "bouncing_ball_ed,{events},{impacts},{med:.6},{:.6},{:.3},{},{}",
        totals[0],
        med / events as f64 * 1e6,
        stats.steps,
        stats.rhs_evals
    );
    let mut totals = Vec::with_capacity(RUNS);
    let mut last = (0, 0, 0, 0);
    for _ in 0..RUNS {
        let t0 = Instant::now();
        last = black_box(beads_once());
        totals.push(t0.elapsed().as_secs_f64());
    }
    totals.sort_by(|a, b| a.total_cmp(b));
    let med = totals[RUNS / 2];
    println!(
        "column_of_3_beads_ed,{},{},{med:.6},{:.6},{:.3},{},{}",
        last.0,
        last.1,
        totals[0],
        med / last.0 as f64 * 1e6,
        last.2,
        last.3
    );
}
