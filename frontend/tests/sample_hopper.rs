//! The hopper sample (`samples/hopper/`): bodies born and removed during a run (`birth`/`death`
//! on `<RigidBody>`, Siconos `time_of_birth`), through `saltus run`. Checked against the schedule
//! and against statics: each `NAME.alive` column follows `birth ≤ t + h < death`; a body waits
//! at its initial state before its birth and stays where it was after its death, and neither
//! collides (Siconos's rule: the step `[t, t + h]` includes a body when `birth ≤ t + h < death`);
//! at the end the floor and walls carry the weight of exactly the spheres that exist,
//! `Σ λ_z = n m g h`.

mod mech_util;

use mech_util::{impulse_from, run, sample, Table};
use std::f64::consts::PI;

const G: f64 = 9.81;
const H: f64 = 1e-3;
/// Static bodies (ground, four walls) are the first five of the file.
const STATICS: [f64; 5] = [0.0, 1.0, 2.0, 3.0, 4.0];
/// The spheres s0..s7 follow them.
const FIRST_SPHERE: usize = 5;

fn birth(i: usize) -> f64 {
    0.1 * i as f64
}
fn death(i: usize) -> f64 {
    if i == 1 || i == 6 {
        1.5
    } else {
        f64::INFINITY
    }
}
/// The step `[t, t + h]` includes sphere `i` (Siconos: `birth ≤ t + h < death`).
fn exists(i: usize, t: f64) -> bool {
    let end = t + H + 1e-9 * H;
    birth(i) <= end && end < death(i)
}
fn pos(b: &Table, row: usize, name: &str) -> [f64; 3] {
    ["x", "y", "z"].map(|c| b.rows[row][b.idx(&format!("{name}.{c}"))])
}

#[test]
fn spheres_appear_and_disappear_on_schedule_and_the_box_carries_those_that_exist() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, c) = run(&sample("hopper/hopper.xml"), tmp.path(), &[]);
    assert_eq!(b.last("t"), 2.5);
    let m = 4.0 / 3.0 * PI * 0.05f64.powi(3) * 1000.0;
    for i in 0..8 {
        let name = format!("s{i}");
        let alive = b.idx(&format!("{name}.alive"));
        let start = pos(&b, 0, &name);
        let mut at_death: Option<[f64; 3]> = None;
        for (row, r) in b.rows.iter().enumerate() {
            let t = r[0];
            assert_eq!(r[alive] == 1.0, exists(i, t), "{name}.alive at t = {t}");
            let x = pos(&b, row, &name);
            if t + H < birth(i) - 1e-9 * H {
                assert_eq!(x, start, "{name} moved before its birth (t = {t})");
            }
            if t + H >= death(i) - 1e-9 * H {
                let frozen = *at_death.get_or_insert(x);
                assert_eq!(x, frozen, "{name} moved after its death (t = {t})");
            } else if exists(i, t) {
                assert!(x[2] > 0.05 - 2e-3, "{name} sank into the floor at t = {t}: z = {}", x[2]);
                assert!(
                    x[0].abs() < 0.15 - 0.05 + 2e-3 && x[1].abs() < 0.15 - 0.05 + 2e-3,
                    "{name} left the box: {x:?}"
                );
            }
        }
    }
    // no contact of a sphere before its birth or after its death
    let (it, b1, b2) = (c.idx("t"), c.idx("body1"), c.idx("body2"));
    for r in &c.rows {
        for k in [r[b1], r[b2]] {
            let k = k as usize;
            if k >= FIRST_SPHERE {
                // the contact row at t belongs to the step ending at t, which started at t − h
                let i = k - FIRST_SPHERE;
                assert!(exists(i, r[it] - H), "a contact of s{i} at t = {} when it does not exist", r[it]);
            }
        }
    }
    // statics: in the last step no sphere moves vertically (they roll on the floor: no rolling
    // resistance), so the box's impulse is the weight of the six spheres
    // that exist (two of the eight were removed)
    let t_end = b.last("t");
    let p = impulse_from(&c.filtered(|r| r[it] == t_end), &STATICS);
    let weight = 6.0 * m * G * H;
    assert!((p[2] - weight).abs() < 1e-3 * weight, "the box's impulse {} vs n m g h = {weight}", p[2]);
    assert!(p[0].abs() < 1e-6 * weight && p[1].abs() < 1e-6 * weight, "net horizontal impulse {p:?}");
}
