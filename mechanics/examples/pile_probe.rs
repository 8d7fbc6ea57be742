//! Diagnosis of NSGS on one settled-pile step: `pile_probe [N] [STEP] [SWEEPS]` runs
//! spheres_in_a_box with the default solver up to STEP, captures that step's FC3D problem and
//! runs plain NSGS from the warm start for SWEEPS sweeps, printing every 100 sweeps the Siconos
//! error, ‖r‖, ‖u‖ and the number of separated / sticking / sliding contacts (a fourth argument
//! containing `aa` adds Anderson acceleration, memory 5). With `PILE_PROBE_DUMP=DIR/fc3d/NAME.dat` the captured
//! problem is also written as a Siconos `.dat` file (W in triplet storage, full precision), so that the solvers alone
//! can be profiled on it (`fc_collection --solvers nsgs-ac DIR/fc3d/NAME.dat` under callgrind).
use saltus_mechanics::scenes::spheres_in_a_box;
use saltus_numerics::fc::{self, FcSolver, NsgsOptions};
use saltus_numerics::IterOptions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(125);
    let step: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(400);
    let sweeps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5000);
    let variant = args.next().unwrap_or_default();
    let scene = spheres_in_a_box(n, 1)?;
    let mut sim = scene.into_simulation()?;
    sim.set_capture_problem(true);
    for _ in 0..=step {
        sim.step()?;
    }
    let (p, r0) = sim.captured_problem().ok_or("no problem")?.clone();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    println!("contacts {}, |q| {:.3e}, |r0| {:.3e}", p.n_contacts(), norm(p.q()), norm(&r0));
    if let Ok(path) = std::env::var("PILE_PROBE_DUMP") {
        // The problem as a Siconos `.dat` file (W in triplet storage, full precision), for
        // instruction counts of the solvers alone (`fc_collection` on a directory named fc3d).
        use std::fmt::Write as _;
        let w = match p.w() {
            saltus_numerics::matrix::Operator::BlockCsr(m) => m.to_dense(),
            saltus_numerics::matrix::Operator::Dense(m) => m.clone(),
        };
        let n = p.size();
        let nz: Vec<(usize, usize, f64)> = (0..n)
            .flat_map(|j| (0..n).map(move |i| (i, j)))
            .map(|(i, j)| (i, j, w[(i, j)]))
            .filter(|e| e.2 != 0.0)
            .collect();
        let mut s = format!(
            "3\n{}\n2\n{n}\n{n}\n1\nbanner\ntriplet: {n}-by-{n}, nzmax: {} nnz: {}\n",
            p.n_contacts(),
            nz.len(),
            nz.len()
        );
        for (i, j, v) in &nz {
            writeln!(s, "    {i} {j} : {v:e}")?;
        }
        for v in p.q().iter().chain(p.mu()) {
            writeln!(s, "{v:e}")?;
        }
        std::fs::write(path, s)?;
    }
    let mut r = r0.clone();
    let mut u = vec![0.0; r.len()];
    for k in 1..=sweeps / 100 {
        let mut o = NsgsOptions::with_iter(IterOptions::new(1e-300, 100));
        o.warm_start = true;
        o.anderson = if variant.contains("aa") { 5 } else { 0 };
        let rep = fc::solve(&p, &mut r, &mut u, &FcSolver::NsgsAc(o))?;
        let (mut sep, mut stick, mut slide) = (0, 0, 0);
        for a in 0..p.n_contacts() {
            let ra = &r[3 * a..3 * a + 3];
            let rt = (ra[1] * ra[1] + ra[2] * ra[2]).sqrt();
            if ra[0] <= 0.0 {
                sep += 1;
            } else if rt < 0.999 * p.mu()[a] * ra[0] {
                stick += 1;
            } else {
                slide += 1;
            }
        }
        println!(
            "{:6} error {:.3e} |r| {:.4e} |u| {:.3e} sep {sep} stick {stick} slide {slide}",
            k * 100,
            rep.residual,
            norm(&r),
            norm(&u)
        );
    }
    Ok(())
}
