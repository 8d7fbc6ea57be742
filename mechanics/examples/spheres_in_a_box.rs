//! Runs `spheres_in_a_box(N, seed)` and prints one CSV row per step: time, contacts (index set
//! 0), active contacts (index set 1), kinetic energy, mean sphere height, NSGS sweeps, residual,
//! status — the series to compare with the Siconos tutorial (KE decay, contact count, settled
//! height). With `--poses`, adds `sphereK.x, .y, .z, .qw, .qx, .qy, .qz, .vx, .vy, .vz, .wx,
//! .wy, .wz` per sphere (v world frame, ω body frame).
//!
//! `cargo run --release -p saltus-mechanics --example spheres_in_a_box -- 125 [seed] [--poses] > out.csv`

use saltus_mechanics::scenes::spheres_in_a_box;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let poses = args.iter().any(|a| a == "--poses");
    let nums: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let n = nums.first().copied().unwrap_or(125) as usize;
    let seed = nums.get(1).copied().unwrap_or(1);
    let scene = match spheres_in_a_box(n, seed) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let steps = scene.n_steps();
    let mut sim = scene.into_simulation().expect("valid scene");
    let out = std::io::stdout();
    let mut w = std::io::BufWriter::new(out.lock());
    let mut header = String::from("t,contacts,active,kinetic_energy,mean_height,nsgs_sweeps,residual,status");
    if poses {
        for b in &sim.model.bodies[..n] {
            for c in ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"] {
                header.push_str(&format!(",{}.{c}", b.name));
            }
        }
    }
    let _ = writeln!(w, "{header}");
    for _ in 0..steps {
        let rep = match sim.step() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        let z = sim.model.bodies[..n].iter().map(|b| b.state.position.z).sum::<f64>() / n as f64;
        let (it, res, st) =
            rep.solver.as_ref().map_or((0, 0.0, "none"), |s| (s.iterations, s.residual, s.status.as_str()));
        let mut row = format!(
            "{},{},{},{:e},{:e},{it},{res:e},{st}",
            rep.t,
            rep.n_contacts,
            rep.n_active,
            sim.model.kinetic_energy(),
            z
        );
        if poses {
            for b in &sim.model.bodies[..n] {
                let s = &b.state;
                let q = s.orientation.quaternion();
                for v in [
                    s.position.x,
                    s.position.y,
                    s.position.z,
                    q.w,
                    q.i,
                    q.j,
                    q.k,
                    s.v.x,
                    s.v.y,
                    s.v.z,
                    s.omega.x,
                    s.omega.y,
                    s.omega.z,
                ] {
                    row.push_str(&format!(",{v:e}"));
                }
            }
        }
        let _ = writeln!(w, "{row}");
    }
}
