//! Height fields against closed forms (Siconos `add_height_map`): a ball and a box at rest on a
//! flat and on a tilted height field (gap, `Σ λ_N = m g cos α h`), a ball sliding down a sloped
//! one (`a = g (sin α − μ cos α)`, spin-up `α̇ = μ m g cos α r / I`); the grid orientation
//! (`heights[(i, j)]` at `x_i`, `y_j`); and contactors of one body in several collision groups
//! (Siconos's contact law per pair of contactor groups).

use nalgebra::{DMatrix, Matrix3, UnitQuaternion, Vector2, Vector3};
use saltus_mechanics::shape::{Cuboid, Sphere};
use saltus_mechanics::{
    nsgs, BodyDesc, BodyState, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};

const G: f64 = 9.81;
const H: f64 = 1e-3;

fn opts() -> MoreauJeanOptions {
    MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-12, 10_000), ..Default::default() }
}

/// The plane `z = z0 + a x + b y` sampled on an `n × n` grid over `[−L/2, L/2]²`.
fn plane_field(n: usize, l: f64, z0: f64, a: f64, b: f64) -> ShapeDesc {
    let c = |k: usize| -l / 2.0 + k as f64 * l / (n - 1) as f64;
    ShapeDesc::HeightField {
        heights: DMatrix::from_fn(n, n, |i, j| z0 + a * c(i) + b * c(j)),
        size: Vector2::new(l, l),
    }
}

fn scene(ground: ShapeDesc, mu: f64) -> MechanicsModel {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.02).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, mu)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ground)).unwrap();
    model
}

fn ball(name: &str, r: f64, m: f64, x: Vector3<f64>) -> BodyDesc {
    BodyDesc::dynamic(name)
        .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
        .mass(m, Matrix3::identity() * (0.4 * m * r * r))
        .position(x)
}

/// Σ of the active contacts' normal impulses.
fn normal_impulse(sim: &MechanicsSimulation) -> f64 {
    sim.contacts().iter().filter(|c| c.active).map(|c| c.impulse.x).sum()
}

/// A ball laid on a flat height field at z = 0.3 stays at z = 0.3 + r, the field carrying its
/// weight: Σ λ_N = m g h every step.
#[test]
fn ball_rests_on_a_flat_height_field() {
    let (r, m) = (0.1, 2.0);
    let mut model = scene(plane_field(9, 4.0, 0.3, 0.0, 0.0), 0.5);
    // off the grid's nodes and diagonals, so the contact is inside one triangle
    let x0 = Vector3::new(0.37, -0.21, 0.3 + r);
    let b = model.add_body(ball("ball", r, m, x0)).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, H, opts()).unwrap();
    for _ in 0..200 {
        sim.step().unwrap();
    }
    let s = sim.model.body(b).state;
    assert!((s.position - x0).norm() < 1e-9, "moved to {:?}", s.position);
    assert!(s.v.norm() < 1e-9, "moving at {:?}", s.v);
    let lam = normal_impulse(&sim);
    assert!((lam - m * G * H).abs() < 1e-9 * m * G * H, "Σλ_N = {lam}, m g h = {}", m * G * H);
}

/// A box resting on a height field tilted by α about a horizontal axis, with μ > tan α: it
/// sticks, its gap stays 0, and the field's impulses balance its weight: normal m g cos α h,
/// tangential m g sin α h.
#[test]
fn box_sticks_on_a_tilted_height_field() {
    let (m, half) = (3.0, 0.1);
    let (a, b) = (0.2, 0.1); // slope (∂z/∂x, ∂z/∂y): both grid axes matter
    let normal = Vector3::new(-a, -b, 1.0).normalize();
    let cos_a = normal.z;
    let mut model = scene(plane_field(11, 4.0, 0.0, a, b), 0.8);
    // the box's bottom face on the plane: rotate z onto the normal, centre at half along it
    let rot = UnitQuaternion::rotation_between(&Vector3::z(), &normal).unwrap();
    let x0 = Vector3::new(0.13, 0.07, 0.13 * a + 0.07 * b) + normal * half;
    let desc = BodyDesc::dynamic("box")
        .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::repeat(half) }))
        .mass(m, Matrix3::identity() * (m * half * half * 2.0 / 3.0))
        .state(BodyState { position: x0, orientation: rot, ..Default::default() });
    let id = model.add_body(desc).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, H, opts()).unwrap();
    for _ in 0..300 {
        sim.step().unwrap();
    }
    let s = sim.model.body(id).state;
    assert!((s.position - x0).norm() < 1e-7, "moved from {x0:?} to {:?}", s.position);
    let active: Vec<_> = sim.contacts().iter().filter(|c| c.active).collect();
    assert!(active.len() >= 3, "{} active contacts", active.len());
    for c in &active {
        assert!(c.gap.abs() < 1e-7, "gap {}", c.gap);
        assert!((c.normal.dot(&normal)).abs() > 1.0 - 1e-12, "normal {:?}", c.normal);
    }
    let lam = normal_impulse(&sim);
    let want = m * G * cos_a * H;
    assert!((lam - want).abs() < 1e-8 * want, "Σλ_N = {lam}, m g cos α h = {want}");
}

/// A ball on a slope `tan α = 0.6` with μ = 0.1 < (2/7) tan α slides: its centre accelerates at
/// `g (sin α − μ cos α)` down the slope, and friction spins it up at `μ m g cos α r / I`.
#[test]
fn ball_slides_down_a_sloped_height_field() {
    let (r, m, mu) = (0.1, 1.0, 0.1);
    let (t, phi) = (0.6_f64, 0.5_f64); // slope tan α, direction of steepest ascent φ from x
    let (a, b) = (t * phi.cos(), t * phi.sin());
    let normal = Vector3::new(-a, -b, 1.0).normalize();
    let (sin_a, cos_a) = (t / (1.0 + t * t).sqrt(), 1.0 / (1.0 + t * t).sqrt());
    let down = Vector3::new(-phi.cos() * cos_a, -phi.sin() * cos_a, -sin_a);
    let mut model = scene(plane_field(21, 8.0, 0.0, a, b), mu);
    let p0 = Vector3::new(0.31, -0.17, 0.0);
    let x0 = Vector3::new(p0.x, p0.y, a * p0.x + b * p0.y) + normal * r;
    let id = model.add_body(ball("ball", r, m, x0)).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, H, opts()).unwrap();
    let steps = 400;
    for _ in 0..steps {
        sim.step().unwrap();
        let s = sim.model.body(id).state;
        let gap = (s.position - Vector3::new(s.position.x, s.position.y, a * s.position.x + b * s.position.y))
            .dot(&normal)
            - r;
        assert!(gap.abs() < 1e-9, "gap {gap}");
    }
    let s = sim.model.body(id).state;
    let tt = steps as f64 * H;
    let acc = G * (sin_a - mu * cos_a);
    let v = s.v.dot(&down);
    assert!((v - acc * tt).abs() < 1e-9 * acc * tt, "v = {v}, g (sin α − μ cos α) t = {}", acc * tt);
    assert!((s.v - down * v).norm() < 1e-9, "velocity off the slope line: {:?}", s.v);
    // θ = ½: the position is the trapezoidal sum of the velocities, exactly ½ a t²
    let d = (s.position - x0).dot(&down);
    assert!((d - 0.5 * acc * tt * tt).abs() < 1e-9, "distance {d}, ½ a t² = {}", 0.5 * acc * tt * tt);
    // spin about the horizontal axis n × down (body frame = world frame rotated; compare norms)
    let w = mu * m * G * cos_a * r / (0.4 * m * r * r) * tt;
    assert!((s.omega.norm() - w).abs() < 1e-8 * w, "|ω| = {}, μ m g cos α r t / I = {w}", s.omega.norm());
    assert!(v > r * s.omega.norm(), "still sliding: v = {v}, r ω = {}", r * s.omega.norm());
}

/// The grid is Siconos's: `heights[(i, j)]` is at `x_i`, `y_j` (rows along x), the heights are
/// not shifted, and each cell is split along its `(i, j)–(i+1, j+1)` diagonal (Bullet's): on a
/// single cell with one raised corner, a ball just above the triangle of that diagonal finds
/// that triangle's plane (the other split would give `z = 0.2 (1 − y)` there, 0.1 higher).
#[test]
fn height_field_grid_orientation_and_diagonal() {
    let r = 0.05;
    // 2 × 2 heights over [−1, 1]²: only (i, j) = (1, 0), at (x, y) = (1, −1), is raised.
    let heights = DMatrix::from_row_slice(2, 2, &[0.0, 0.0, 0.4, 0.0]);
    let field = ShapeDesc::HeightField { heights, size: Vector2::new(2.0, 2.0) };
    // Triangle (0,0),(1,0),(1,1), corners (−1,−1,0), (1,−1,0.4), (1,1,0): z = 0.2 (x − y) where
    // x > y; the other one, (0,0),(1,1),(0,1), is flat.
    let n = Vector3::new(-0.2, 0.2, 1.0).normalize();
    let p = Vector3::new(0.5, -0.1, 0.2 * 0.6);
    let mut model = scene(field, 0.0);
    let id = model.add_body(ball("ball", r, 1.0, p + n * (r + 1e-3))).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-4, opts()).unwrap();
    sim.step().unwrap();
    let c = sim.contacts().iter().find(|c| c.body2 == id || c.body1 == id).expect("a contact");
    let sign = if c.body1 == id { -1.0 } else { 1.0 };
    assert!((sign * c.normal - n).norm() < 1e-9, "normal {:?}, want {n:?}", c.normal);
    assert!((c.gap - 1e-3).abs() < 1e-9, "gap {}, want 1e-3", c.gap);
}

/// Siconos `MultipleContactorsAndNSlaws`: a body whose two contactors sit in groups 0 and 1
/// over a ground in group 1, with laws (0, 1) μ = 0 and (1, 1) μ = 0.9: both shapes touch the
/// ground and each contact carries its own group pair's law; a contactor in a group without a
/// law with the ground's does not touch it.
#[test]
fn contactors_in_several_groups_take_their_own_laws() {
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.02).unwrap();
    model.set_law(0, 1, ContactLaw::new(0.0, 0.0)).unwrap();
    model.set_law(1, 1, ContactLaw::new(0.0, 0.9)).unwrap();
    let ground = plane_field(5, 10.0, 0.0, 0.0, 0.0);
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ground).group(1)).unwrap();
    let iso = |x: f64| nalgebra::Isometry3::translation(x, 0.0, 0.0);
    let r = 0.1;
    let sphere = ShapeDesc::from(Sphere { radius: r });
    let desc = BodyDesc::dynamic("pair")
        .shape_in_group(sphere.clone(), iso(-0.5), 0)
        .shape_in_group(sphere.clone(), iso(0.5), 1)
        .shape_in_group(sphere, iso(0.0), 2) // no law (2, 1): never touches the ground
        .mass(1.0, Matrix3::identity())
        .position(Vector3::new(0.0, 0.0, r))
        .group(1);
    let id = model.add_body(desc).unwrap();
    let groups: Vec<u32> = model.colliders.iter().map(|c| c.group).collect();
    assert_eq!(groups, vec![1, 0, 1, 2]);
    let mut sim = MechanicsSimulation::new(model, 0.0, H, opts()).unwrap();
    sim.step().unwrap();
    let mut mus: Vec<(u32, f64)> = sim
        .contacts()
        .iter()
        .map(|c| {
            assert!(c.body1 == id || c.body2 == id);
            let k = if c.body1 == id { c.key.collider1 } else { c.key.collider2 };
            (k, c.law.mu)
        })
        .collect();
    mus.sort_by(|a, b| a.partial_cmp(b).unwrap());
    mus.dedup();
    assert_eq!(mus, vec![(1, 0.0), (2, 0.9)], "contacts by collider and their μ");
    let lam = normal_impulse(&sim);
    assert!((lam - G * H).abs() < 1e-9, "Σλ_N = {lam}");
}
