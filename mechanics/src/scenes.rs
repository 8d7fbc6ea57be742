//! Ready-made scenes: a [`Scene`] is a model with its step, horizon and integrator options.

use crate::body::BodyState;
use crate::error::Result;
use crate::model::{BodyDesc, ContactLaw, MechanicsModel};
use crate::shape::ShapeDesc;
use crate::shape::{Cuboid, Sphere};
use crate::simulation::{nsgs, MechanicsSimulation, MoreauJeanOptions};
use nalgebra::{Isometry3, Matrix3, Quaternion, UnitQuaternion, Vector3};
use saltus_numerics::fc::{FcSolver, NsgsFallback, PatchOptions};

/// A model with the time step, the final time and the integrator options to run it.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The bodies, laws, gravity and margin.
    pub model: MechanicsModel,
    /// Time step.
    pub h: f64,
    /// Final time (the run starts at 0).
    pub t_end: f64,
    /// Moreau–Jean options.
    pub options: MoreauJeanOptions,
}

impl Scene {
    /// The simulation at `t = 0`.
    pub fn into_simulation(self) -> Result<MechanicsSimulation> {
        MechanicsSimulation::new(self.model, 0.0, self.h, self.options)
    }
    /// Number of steps to reach `t_end`.
    pub fn n_steps(&self) -> usize {
        (self.t_end / self.h).round() as usize
    }
}

pub use saltus_numerics::rng::SplitMix64;

/// Parameters of [`spheres_in_a_box`] (the values as constants).
pub mod spheres {
    /// Sphere radius (m).
    pub const RADIUS: f64 = 0.01;
    /// Density (kg/m³).
    pub const DENSITY: f64 = 2320.0;
    /// Lattice spacing / radius.
    pub const SPACING: f64 = 2.2;
    /// Height of the bottom layer's centres / radius.
    pub const BOTTOM: f64 = 1.5;
    /// Half amplitude of the random x/y offsets / radius (uniform in ±0.05 r).
    pub const JITTER: f64 = 0.05;
    /// Friction coefficient.
    pub const MU: f64 = 0.3;
    /// Collision margin / radius.
    pub const MARGIN: f64 = 0.3;
    /// Wall and ground half thickness / radius.
    pub const WALL: f64 = 1.0;
    /// NSGS domains (`NsgsOptions::domains`): the solver sweeps four slabs of the contact
    /// graph, two at a time on up to two threads (the result does not depend on the threads).
    pub const SWEEP_DOMAINS: usize = 2;
}

/// Number of spheres per lattice row: the smallest `k` with `k³ ≥ n`.
pub fn lattice_side(n: usize) -> usize {
    let mut k = 1;
    while k * k * k < n {
        k += 1;
    }
    k
}

/// The Siconos tutorial `GranularMaterial/spheres_in_a_box.py`, made deterministic.
///
/// `n` spheres of radius `r = 0.01` m and density 2320 kg/m³ (`m = ρ 4/3 π r³`,
/// `I = 2/5 m r²`) on a cubic lattice of `k = ⌈∛n⌉` per row, spacing `s = 2.2 r`, filled row
/// after row (`x` fastest, then `y`, then `z`): sphere `(i, j, l)` at
/// `x = −W/2 + (i + ½) s + δx`, `y = −W/2 + (j + ½) s + δy`, `z = 1.5 r + l s`, with
/// `W = k s` the lattice width and `δx, δy` drawn in that order, sphere after sphere, as
/// `(u − ½) · 0.1 r` from [`SplitMix64`]`(seed)` (`u` uniform in `[0, 1)`). The box has inner
/// width `W`: a ground whose top is `z = 0` and four walls (static boxes, thickness `2 r`)
/// rising to the top layer plus `2 r`. Gravity `−9.81 ẑ`, one group, `μ = 0.3`, `e = 0`,
/// margin `0.3 r`; Moreau–Jean `θ = 0.50001`, `h = 1e-3`, NSGS tolerance 1e-6, 1000 sweeps,
/// on two domains (`NsgsOptions::domains = 2`: four slabs of the contact graph, two at a time on
/// up to two threads; the same trajectory on one thread, 1.3–1.4× less wall time on two cores);
/// `T = 0.5` s for `n ≤ 125`, else 1 s.
pub fn spheres_in_a_box(n: usize, seed: u64) -> Result<Scene> {
    use spheres::*;
    let r = RADIUS;
    let s = SPACING * r;
    let k = lattice_side(n);
    let layers = n.div_ceil(k * k);
    let w = k as f64 * s;
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), MARGIN * r)?;
    model.set_law(0, 0, ContactLaw::new(0.0, MU))?;
    let mass = DENSITY * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
    let inertia = Matrix3::from_diagonal_element(0.4 * mass * r * r);
    let mut rng = SplitMix64::new(seed);
    for idx in 0..n {
        let (i, j, l) = (idx % k, (idx / k) % k, idx / (k * k));
        let dx = (rng.next_f64() - 0.5) * 2.0 * JITTER * r;
        let dy = (rng.next_f64() - 0.5) * 2.0 * JITTER * r;
        let x = Vector3::new(
            -0.5 * w + (i as f64 + 0.5) * s + dx,
            -0.5 * w + (j as f64 + 0.5) * s + dy,
            BOTTOM * r + l as f64 * s,
        );
        let state = BodyState { position: x, ..Default::default() };
        let desc = BodyDesc::dynamic(&format!("sphere{idx}"))
            .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
            .mass(mass, inertia)
            .state(state);
        model.add_body(desc)?;
    }
    let t = WALL * r;
    let top = BOTTOM * r + (layers.max(1) - 1) as f64 * s + 2.0 * r;
    add_box_walls(&mut model, 0.5 * w, t, top)?;
    let mut solver = nsgs(1e-6, 1000);
    if let FcSolver::NsgsAc(o) = &mut solver {
        o.domains = SWEEP_DOMAINS;
    }
    let options = MoreauJeanOptions { theta: 0.50001, solver, ..Default::default() };
    Ok(Scene { model, h: 1e-3, t_end: if n <= 125 { 0.5 } else { 1.0 }, options })
}

/// A ground whose top is `z = 0` and four walls of half thickness `t` around the square
/// `|x|, |y| ≤ half_w`, rising to `top` (static bodies `ground` and `walls`).
fn add_box_walls(model: &mut MechanicsModel, half_w: f64, t: f64, top: f64) -> Result<()> {
    let at = |x: f64, y: f64, z: f64| Isometry3::translation(x, y, z);
    let cub = |a: f64, b: f64, c: f64| ShapeDesc::from(Cuboid { half_extents: Vector3::new(a, b, c) });
    let ground = BodyDesc::fixed("ground").shape(cub(half_w + 2.0 * t, half_w + 2.0 * t, t), at(0.0, 0.0, -t));
    model.add_body(ground)?;
    let hz = 0.5 * top;
    let walls = BodyDesc::fixed("walls")
        .shape(cub(t, half_w + 2.0 * t, hz), at(-half_w - t, 0.0, hz))
        .shape(cub(t, half_w + 2.0 * t, hz), at(half_w + t, 0.0, hz))
        .shape(cub(half_w, t, hz), at(0.0, -half_w - t, hz))
        .shape(cub(half_w, t, hz), at(0.0, half_w + t, hz));
    model.add_body(walls)?;
    Ok(())
}

/// Parameters of [`cube_pile`].
pub mod cubes {
    /// Half edge of a cube (m).
    pub const HALF_EDGE: f64 = 0.01;
    /// Density (kg/m³).
    pub const DENSITY: f64 = 2320.0;
    /// Lattice spacing / half edge (above the circumscribed diameter `2√3 ≈ 3.46`: no cube
    /// touches another at `t = 0`, whatever its orientation).
    pub const SPACING: f64 = 3.6;
    /// Height of the bottom layer's centres / half edge (above `√3`: clear of the ground).
    pub const BOTTOM: f64 = 1.8;
    /// Friction coefficient.
    pub const MU: f64 = 0.5;
    /// Collision margin / half edge.
    pub const MARGIN: f64 = 0.3;
    /// Wall and ground half thickness / half edge.
    pub const WALL: f64 = 1.0;
    /// NSGS stops after this many sweeps without a 10 % drop of its error and hands the problem
    /// to the patch corrections (`NsgsFallback::Patch`): every step is solved to the tolerance.
    pub const STAGNATION_SWEEPS: usize = 20;
}

/// A uniformly distributed rotation from three uniform draws (Shoemake 1992):
/// `q = (√(1−u₁) sin 2πu₂, √(1−u₁) cos 2πu₂, √u₁ sin 2πu₃, √u₁ cos 2πu₃)` as `(i, j, k, w)`,
/// normalized until normalizing again leaves its bits unchanged (so that a model file holding
/// `w x y z` reads back to the same rotation bit for bit).
pub fn random_rotation(rng: &mut SplitMix64) -> UnitQuaternion<f64> {
    use std::f64::consts::TAU;
    let (u1, u2, u3) = (rng.next_f64(), rng.next_f64(), rng.next_f64());
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    let mut q = UnitQuaternion::from_quaternion(Quaternion::new(
        b * (TAU * u3).cos(),
        a * (TAU * u2).sin(),
        a * (TAU * u2).cos(),
        b * (TAU * u3).sin(),
    ));
    for _ in 0..4 {
        let again = UnitQuaternion::from_quaternion(q.into_inner());
        if again == q {
            break;
        }
        q = again;
    }
    q
}

/// A pile of `n` cubes dropped into a box (issue 31's second scene).
///
/// `n` cubes of half edge `a = 0.01` m and density 2320 kg/m³ (`m = 8ρa³`, `I = ⅔ m a²`) on a
/// cubic lattice of `k = ⌈∛n⌉` per row, spacing `s = 3.6 a`, filled row after row (`x`
/// fastest): cube `(i, j, l)` centred at `x = −W/2 + (i + ½) s`, `y = −W/2 + (j + ½) s`,
/// `z = 1.8 a + l s` (`W = k s`), each with a uniformly random orientation
/// ([`random_rotation`], three draws per cube from [`SplitMix64`]`(seed)`, cube after cube).
/// The box is built as in [`spheres_in_a_box`] (ground top at `z = 0`, walls of thickness
/// `2a` rising to the top layer plus `2a`, inner width `W`). Gravity `−9.81 ẑ`, `μ = 0.5`,
/// `e = 0`, margin `0.3 a`; Moreau–Jean `θ = 0.50001`, `h = 1e-3`, `T = 1` s (1000 steps);
/// NSGS tolerance 1e-6, 1000 sweeps, warm start, on two domains as the spheres, stopped after
/// 20 sweeps without progress and finished by PROX on the patches of contacts that hold the
/// residual (`NsgsFallback::Patch`, default `PatchOptions`): every step is solved to 1e-6, for
/// 1.8× the CPU time of plain NSGS on one thread, which leaves 738 of the 1000 steps at its cap
/// (`mechanics/benches/README.md`).
pub fn cube_pile(n: usize, seed: u64) -> Result<Scene> {
    use cubes::*;
    let a = HALF_EDGE;
    let s = SPACING * a;
    let k = lattice_side(n);
    let layers = n.div_ceil(k * k);
    let w = k as f64 * s;
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), MARGIN * a)?;
    model.set_law(0, 0, ContactLaw::new(0.0, MU))?;
    let mass = DENSITY * 8.0 * a.powi(3);
    let inertia = Matrix3::from_diagonal_element(2.0 / 3.0 * mass * a * a);
    let mut rng = SplitMix64::new(seed);
    for idx in 0..n {
        let (i, j, l) = (idx % k, (idx / k) % k, idx / (k * k));
        let x =
            Vector3::new(-0.5 * w + (i as f64 + 0.5) * s, -0.5 * w + (j as f64 + 0.5) * s, BOTTOM * a + l as f64 * s);
        let state = BodyState { position: x, orientation: random_rotation(&mut rng), ..Default::default() };
        let desc = BodyDesc::dynamic(&format!("cube{idx}"))
            .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::repeat(a) }))
            .mass(mass, inertia)
            .state(state);
        model.add_body(desc)?;
    }
    let t = WALL * a;
    let top = BOTTOM * a + (layers.max(1) - 1) as f64 * s + 2.0 * a;
    add_box_walls(&mut model, 0.5 * w, t, top)?;
    let mut solver = nsgs(1e-6, 1000);
    if let FcSolver::NsgsAc(o) = &mut solver {
        o.domains = spheres::SWEEP_DOMAINS;
        o.stagnation_sweeps = STAGNATION_SWEEPS;
        o.fallback = NsgsFallback::Patch(PatchOptions::default());
    }
    let options = MoreauJeanOptions { theta: 0.50001, solver, ..Default::default() };
    Ok(Scene { model, h: 1e-3, t_end: 1.0, options })
}
