//! The rigid-body samples run through `saltus run` (XML → frontend → CSV), checked against
//! analytic mechanics: a stack of ten boxes stays up and the ground carries its weight; a ball
//! rolls down an incline without slipping at a = 5/7 g sin α; a box slides to rest after
//! v²/(2 μ g); a free body spun about its intermediate axis flips while its energy and angular
//! momentum stay constant; Newton's cradle passes the first ball's momentum to the last one.

mod mech_util;

use mech_util::{run, sample, unit_quaternions, Table};
use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};

const G: f64 = 9.81;

fn v3(t: &Table, row: usize, name: &str, c: [&str; 3]) -> Vector3<f64> {
    Vector3::new(
        t.rows[row][t.idx(&format!("{name}.{}", c[0]))],
        t.rows[row][t.idx(&format!("{name}.{}", c[1]))],
        t.rows[row][t.idx(&format!("{name}.{}", c[2]))],
    )
}
fn pos(t: &Table, row: usize, name: &str) -> Vector3<f64> {
    v3(t, row, name, ["x", "y", "z"])
}
fn vel(t: &Table, row: usize, name: &str) -> Vector3<f64> {
    v3(t, row, name, ["vx", "vy", "vz"])
}
fn omega(t: &Table, row: usize, name: &str) -> Vector3<f64> {
    v3(t, row, name, ["wx", "wy", "wz"])
}
fn quat(t: &Table, row: usize, name: &str) -> UnitQuaternion<f64> {
    let c = |s: &str| t.rows[row][t.idx(&format!("{name}.{s}"))];
    UnitQuaternion::new_unchecked(Quaternion::new(c("qw"), c("qx"), c("qy"), c("qz")))
}

/// Ten 1 kg cubes stay stacked for 2 s: no drift, no tilt, heights kept, and at the last step
/// the ground's impulse carries the whole weight: Σ λ_z = M g h.
#[test]
fn box_stack_stays_standing() {
    check_box_stack("box_stack/box_stack.xml");
}

/// The same stack with the global formulation (`MoreauJeanGOSI` + `GlobalFrictionContact`): it
/// stands, and since both formulations solve the same problem (to NSGS's 1e-8) every pose and
/// twist of its rows stays within 1e-10 of the local run's (measured: 1.2e-13).
#[test]
fn box_stack_gosi_stays_standing() {
    let global = check_box_stack("box_stack/box_stack_gosi.xml");
    let local = check_box_stack("box_stack/box_stack.xml");
    assert_eq!((global.header.clone(), global.rows.len()), (local.header.clone(), local.rows.len()));
    for (g, l) in global.rows.iter().zip(&local.rows) {
        for (k, (x, y)) in g.iter().zip(l).enumerate() {
            assert!((x - y).abs() <= 1e-10, "{} at t = {}: global {x}, local {y}", global.header[k], g[0]);
        }
    }
}

/// Runs a box-stack sample and checks it (returns the body table).
fn check_box_stack(file: &str) -> Table {
    let tmp = tempfile::tempdir().unwrap();
    let (b, c) = run(&sample(file), tmp.path(), &["--every", "100"]);
    let last = b.rows.len() - 1;
    assert_eq!(b.last("t"), 2.0);
    for i in 0..10 {
        let name = format!("box{i}");
        let z0 = 0.05 * (2 * i + 1) as f64;
        let x = pos(&b, last, &name);
        assert!(x.xy().norm() < 1e-6, "{name} drifted to {x:?}");
        assert!((x.z - z0).abs() < 1e-4 * z0, "{name} at z = {} instead of {z0}", x.z);
        assert!(quat(&b, last, &name).angle() < 1e-6, "{name} tilted");
        unit_quaternions(&b, &name, 1e-12);
    }
    let t_end = b.last("t");
    let (it, ib1, ib2, ifz) = (c.idx("t"), c.idx("body1"), c.idx("body2"), c.idx("fz"));
    let carried: f64 = c
        .rows
        .iter()
        .filter(|r| r[it] == t_end)
        .map(|r| {
            if r[ib1] == 0.0 {
                r[ifz]
            } else if r[ib2] == 0.0 {
                -r[ifz]
            } else {
                0.0
            }
        })
        .sum();
    let weight = 10.0 * G * 1e-3;
    assert!((carried - weight).abs() < 1e-6 * weight, "the ground's impulse {carried}, M g h = {weight}");
    b
}

/// a = v·down / t = 5/7 g sin α to 1e-6, the contact point does not slip, the ball stays on the plane.
#[test]
fn ball_rolls_down_the_incline_without_slipping() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, _) = run(&sample("rolling_sphere/rolling_sphere.xml"), tmp.path(), &["--every", "1000"]);
    let n = Vector3::new(0.29552020666133955, 0.0, 0.955336489125606).normalize();
    let sin_a = n.x;
    let down = Vector3::new(n.z, 0.0, -n.x);
    let (last, t, r) = (b.rows.len() - 1, b.last("t"), 0.1);
    assert_eq!(t, 1.0);
    let v = vel(&b, last, "ball");
    let a = v.dot(&down) / t;
    let exact = 5.0 / 7.0 * G * sin_a;
    assert!((a - exact).abs() <= 1e-6 * exact, "a = {a}, 5/7 g sin α = {exact}");
    assert!(v.dot(&n).abs() < 1e-9, "leaves the plane at {}", v.dot(&n));
    // velocity of the contact point x − r n: v + (R Ω) × (−r n)
    let w_world = quat(&b, last, "ball") * omega(&b, last, "ball");
    let slip = v + w_world.cross(&(-n * r));
    assert!(slip.norm() <= 1e-6 * v.norm(), "the contact point slips at {slip:?}");
    let travelled = (pos(&b, last, "ball") - pos(&b, 0, "ball")).dot(&down);
    assert!((travelled - 0.5 * exact * t * t).abs() < 1e-3 * travelled, "distance {travelled}");
}

/// The box stops after v₀²/(2 μ g) (to 1e-3), at rest, untipped, on the ground.
/// `sliding_box_energy.xml` (`<Output energy="true">`): friction takes the kinetic energy away
/// as the box slides, K(t) = ½ m v₀² − μ m g x(t), the tangent impulses' work summing to
/// −½ m v₀²; the weight and the normal impulses do no work; each row's kinetic energy changes by
/// its step's work (θ = ½).
#[test]
fn sliding_box_energy_and_work() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, _) = run(&sample("sliding_box/sliding_box_energy.xml"), tmp.path(), &[]);
    let (m, v0, mu) = (2.0, 1.0, 0.3);
    let (t, x, k) = (b.col("t"), b.col("box.x"), b.col("energy.kinetic"));
    let (wf, wn, wt) = (b.col("energy.work_forces"), b.col("energy.work_normal"), b.col("energy.work_tangent"));
    let k0 = 0.5 * m * v0 * v0;
    assert!((k[0] - k0).abs() < 1e-12);
    let t_stop = v0 / (mu * G);
    let mut worst = 0.0f64;
    for r in 0..t.len() {
        if t[r] < t_stop - 2e-3 {
            worst = worst.max((k[r] - (k0 - mu * m * G * x[r])).abs());
        }
        if r > 0 {
            assert!((k[r] - k[r - 1] - (wf[r] + wn[r] + wt[r])).abs() < 1e-12, "row {r}");
        }
    }
    assert!(worst < 1e-12, "K(t) vs ½ m v₀² − μ m g x(t): {worst}");
    let sum = |v: &[f64]| v.iter().sum::<f64>();
    assert!((sum(&wt) + k0).abs() < 1e-12, "tangent work {}", sum(&wt));
    assert!(sum(&wn).abs() < 1e-12 && sum(&wf).abs() < 1e-12, "normal {}, forces {}", sum(&wn), sum(&wf));
    assert!(*k.last().unwrap() < 1e-20, "at rest");
}

/// `sliding_box_fremond.xml` (the energy sample with `<FremondImpactFrictionNSL>`): Coulomb's law on the θ-velocity. The box
/// slides the same distance v₀²/(2μg); friction's work is never positive, row by row, and adds up to
/// −½ m v₀²; at θ = ½ a stuck contact is `u^θ = 0`, so the box ends with its velocity alternating in
/// sign below μ g h / 2 (the midpoint rule's sticking), not exactly at rest.
#[test]
fn sliding_box_with_fremonds_law() {
    let tmp = tempfile::tempdir().unwrap();
    let model = sample("sliding_box/sliding_box_fremond.xml");
    assert!(std::fs::read_to_string(&model).unwrap().contains("<FremondImpactFrictionNSL"));
    let (b, _) = run(&model, tmp.path(), &[]);
    let (m, v0, mu, h) = (2.0, 1.0, 0.3, 1e-3);
    let (k, wt) = (b.col("energy.kinetic"), b.col("energy.work_tangent_theta"));
    let (wf, wn, wtt) = (b.col("energy.work_forces"), b.col("energy.work_normal"), b.col("energy.work_tangent"));
    for r in 1..k.len() {
        assert!(wt[r] <= 1e-15, "row {r}: friction's θ-work {}", wt[r]);
        assert!((k[r] - k[r - 1] - (wf[r] + wn[r] + wtt[r])).abs() < 1e-12, "row {r}");
    }
    let sum: f64 = wt.iter().sum();
    assert!((sum + 0.5 * m * v0 * v0).abs() < 1e-3, "friction's work {sum}");
    let last = b.rows.len() - 1;
    let d = v0 * v0 / (2.0 * mu * G);
    let x = pos(&b, last, "box");
    assert!((x.x - d).abs() <= 1e-3 * d, "stopped at {}, v²/(2μg) = {d}", x.x);
    let v = vel(&b, last, "box").x;
    assert!(v.abs() <= 0.5 * mu * G * h && (v + vel(&b, last - 1, "box").x).abs() < 1e-12, "v = {v}");
}

#[test]
fn box_slides_to_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, c) = run(&sample("sliding_box/sliding_box.xml"), tmp.path(), &["--every", "10"]);
    let last = b.rows.len() - 1;
    let (v0, mu) = (1.0, 0.3);
    let d = v0 * v0 / (2.0 * mu * G);
    let x = pos(&b, last, "box");
    assert!((x.x - d).abs() <= 1e-3 * d, "stopped at {}, v²/(2μg) = {d}", x.x);
    assert!(vel(&b, last, "box").norm() < 1e-9 && omega(&b, last, "box").norm() < 1e-9, "still moving");
    assert!(quat(&b, last, "box").angle() < 1e-6, "tipped");
    assert!((x.z - 0.05).abs() < 1e-6, "z = {}", x.z);
    // While it slides (t < v₀/(μg)), friction is on the cone's edge: |r_T| = μ r_N.
    let (it, ia, irn, irt1, irt2) = (c.idx("t"), c.idx("active"), c.idx("rn"), c.idx("rt1"), c.idx("rt2"));
    let sliding: Vec<&Vec<f64>> = c.rows.iter().filter(|r| r[it] > 0.01 && r[it] < 0.3 && r[ia] == 1.0).collect();
    assert!(sliding.len() >= 100, "{} active contact rows while sliding", sliding.len());
    for r in sliding {
        let rt = (r[irt1] * r[irt1] + r[irt2] * r[irt2]).sqrt();
        assert!(
            (rt - mu * r[irn]).abs() <= 1e-9 * r[irn].max(1e-12),
            "t = {}: |r_T| = {rt}, μ r_N = {}",
            r[it],
            mu * r[irn]
        );
    }
}

/// Over 10 s the body flips (Ω_y changes sign at least twice) while ½ Ωᵀ I Ω and R I Ω stay
/// constant to 1e-6 (relative), read back from the CSV.
#[test]
fn dzhanibekov_flips_and_conserves() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, _) = run(&sample("dzhanibekov/dzhanibekov.xml"), tmp.path(), &[]);
    assert_eq!(b.rows.len(), 10_001);
    let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let state = |k: usize| {
        let w = omega(&b, k, "racket");
        (0.5 * w.dot(&(i * w)), quat(&b, k, "racket") * (i * w))
    };
    let (e0, l0) = state(0);
    let (mut de, mut dl, mut flips) = (0.0f64, 0.0f64, 0);
    let wy = b.col("racket.wy");
    for k in 1..b.rows.len() {
        let (e, l) = state(k);
        de = de.max((e - e0).abs() / e0);
        dl = dl.max((l - l0).norm() / l0.norm());
        if wy[k].signum() != wy[k - 1].signum() {
            flips += 1;
        }
    }
    assert!(de < 1e-6, "energy drift {de}");
    assert!(dl < 1e-6, "angular momentum drift {dl}");
    assert!(flips >= 2, "Ω_y changed sign {flips} times");
    unit_quaternions(&b, "racket", 1e-12);
}

/// The last ball leaves at v₀, the others rest; momentum and energy are conserved.
#[test]
fn newtons_cradle_passes_momentum() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, _) = run(&sample("newtons_cradle/newtons_cradle.xml"), tmp.path(), &["--every", "100"]);
    let last = b.rows.len() - 1;
    let (m, v0) = (0.5, 1.0);
    let v: Vec<Vector3<f64>> = (0..5).map(|k| vel(&b, last, &format!("ball{k}"))).collect();
    for (k, vk) in v.iter().enumerate().take(4) {
        assert!(vk.norm() < 1e-10, "ball{k} still moves at {vk:?}");
    }
    assert!((v[4] - Vector3::new(v0, 0.0, 0.0)).norm() < 1e-10, "last ball {:?}", v[4]);
    let p: Vector3<f64> = v.iter().sum::<Vector3<f64>>() * m;
    assert!((p.x - m * v0).abs() < 1e-14 && p.yz().norm() < 1e-14);
    let e: f64 = v.iter().map(|x| 0.5 * m * x.norm_squared()).sum();
    assert!((e - 0.5 * m * v0 * v0).abs() < 1e-12, "energy {e}");
}
