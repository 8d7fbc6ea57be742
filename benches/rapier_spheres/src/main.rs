//! rapier3d-f64 on the issue-13 granular scene: N spheres (r = 0.01 m, density 2320 kg/m³) dropped from a
//! cubic lattice into a square box, μ = 0.3, e = 0, h = 1e-3.
//!
//! Usage: `rapier-spheres N T [ITERATIONS]` (default: rapier's own solver settings, 4 iterations).
//! Prints one CSV row: `engine,n,steps,iterations,seconds_per_step,mean_contacts,mean_height,kinetic_energy,peak_rss_mb`.
//! The lattice is the one of `mechanics::scenes::spheres_in_a_box` (same splitmix64 offsets, seed 1).
use rapier3d_f64::prelude::*;
use std::time::Instant;

const RADIUS: f64 = 0.01;
const DENSITY: f64 = 2320.0;
const MU: f64 = 0.3;
const H: f64 = 1e-3;

/// splitmix64: the deterministic offsets shared with the Saltus scene builder.
struct SplitMix64(u64);
impl SplitMix64 {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Lattice of `side³ ≥ n` sites: spacing 2.2 r, bottom layer at z = 1.5 r, box inner width = side·spacing,
/// x/y offsets uniform in ±0.05 r.
fn lattice(n: usize) -> (Vec<[f64; 3]>, f64) {
    let side = (1..).find(|s: &usize| s * s * s >= n).unwrap_or(1);
    let s = 2.2 * RADIUS;
    let width = side as f64 * s;
    let mut rng = SplitMix64(1);
    let mut out = Vec::with_capacity(n);
    'fill: for k in 0..side {
        for j in 0..side {
            for i in 0..side {
                if out.len() == n {
                    break 'fill;
                }
                let dx = (rng.next_f64() - 0.5) * 0.1 * RADIUS;
                let dy = (rng.next_f64() - 0.5) * 0.1 * RADIUS;
                out.push([
                    -width / 2.0 + (i as f64 + 0.5) * s + dx,
                    -width / 2.0 + (j as f64 + 0.5) * s + dy,
                    1.5 * RADIUS + k as f64 * s,
                ]);
            }
        }
    }
    (out, width)
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.to_string()))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse::<f64>().ok()))
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(125);
    let t_end: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0.5);
    let iterations: Option<usize> = args.get(3).and_then(|a| a.parse().ok());
    let (sites, width) = lattice(n);
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, 0.0, -9.81);
    world.integration_parameters.dt = H;
    if let Some(it) = iterations {
        world.integration_parameters.num_solver_iterations = it;
    }
    let wall = 0.1 * width;
    let height = 2.0 * (sites.last().map_or(0.0, |p| p[2]) + RADIUS);
    // Ground (top face at z = 0) and four walls (inner faces at ±width/2).
    world.insert_collider(
        ColliderBuilder::cuboid(width, width, wall / 2.0)
            .translation(Vector::new(0.0, 0.0, -wall / 2.0))
            .friction(MU)
            .build(),
        None,
    );
    for (sx, sy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        let (hx, hy) = if sx != 0.0 { (wall / 2.0, width) } else { (width, wall / 2.0) };
        let c = Vector::new(sx * (width + wall) / 2.0, sy * (width + wall) / 2.0, height / 2.0);
        world.insert_collider(ColliderBuilder::cuboid(hx, hy, height / 2.0).translation(c).friction(MU).build(), None);
    }
    let mut bodies = Vec::with_capacity(n);
    for p in &sites {
        let (b, _) = world.insert(
            RigidBodyBuilder::dynamic().translation(Vector::new(p[0], p[1], p[2])),
            ColliderBuilder::ball(RADIUS).density(DENSITY).friction(MU).restitution(0.0),
        );
        bodies.push(b);
    }
    let steps = (t_end / H).round() as usize;
    let mut contacts_sum = 0usize;
    let start = Instant::now();
    for _ in 0..steps {
        world.step();
        contacts_sum += world
            .contact_pairs()
            .flat_map(|p| p.manifolds().iter())
            .map(|m| m.data.solver_contacts.len())
            .sum::<usize>();
    }
    let secs = start.elapsed().as_secs_f64();
    let mut z_sum = 0.0;
    let mut ke = 0.0;
    for b in &bodies {
        let rb = &world.bodies[*b];
        z_sum += rb.translation().z;
        ke += rb.kinetic_energy();
    }
    println!("engine,n,steps,iterations,seconds_per_step,mean_contacts,mean_height,kinetic_energy,peak_rss_mb");
    println!(
        "rapier3d-f64-0.36,{n},{steps},{},{:.6e},{:.1},{:.6e},{:.3e},{:.1}",
        world.integration_parameters.num_solver_iterations,
        secs / steps as f64,
        contacts_sum as f64 / steps as f64,
        z_sum / n as f64,
        ke,
        peak_rss_mb()
    );
}
