//! `samples/rolling_friction` through `saltus run`: a ball launched rolling on a plane with
//! rolling friction (`<NewtonImpactRollingFrictionNSL>`) slows at `a = 5/7 g μ_r / r` and stops
//! at `D = v₀²/(2a)` after `T = v₀/a`, without slipping, its normal impulse carrying its weight.

mod mech_util;

use mech_util::{run, sample};

const G: f64 = 9.81;

#[test]
fn ball_stops_where_rolling_resistance_says() {
    stops_where_rolling_resistance_says("rolling_friction/rolling_friction.xml");
}

/// The same ball in the global formulation (`<MoreauJeanGOSI>` + `<GlobalFrictionContact>` with a
/// rolling law: Siconos `GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`): the same closed forms, and the
/// same motion as the local run to 1e-12.
#[test]
fn ball_stops_where_rolling_resistance_says_global() {
    stops_where_rolling_resistance_says("rolling_friction/rolling_friction_gosi.xml");
    let tmp = tempfile::tempdir().unwrap();
    let (a, _) = run(&sample("rolling_friction/rolling_friction.xml"), tmp.path(), &[]);
    let (b, _) = run(&sample("rolling_friction/rolling_friction_gosi.xml"), tmp.path(), &[]);
    assert_eq!(a.rows.len(), b.rows.len());
    for (x, y) in a.rows.iter().zip(&b.rows) {
        for (u, v) in x.iter().zip(y) {
            assert!((u - v).abs() <= 1e-12 * (1.0 + u.abs()), "{x:?} vs {y:?}");
        }
    }
}

fn stops_where_rolling_resistance_says(file: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let (b, c) = run(&sample(file), tmp.path(), &[]);
    let (r, v0, mu_r, h) = (0.1, 1.0, 0.01, 1e-3);
    let a = 5.0 / 7.0 * G * mu_r / r;
    let (t_stop, d_stop) = (v0 / a, v0 * v0 / (2.0 * a));
    let (it, ix, ivx, iwy) = (b.idx("t"), b.idx("ball.x"), b.idx("ball.vx"), b.idx("ball.wy"));
    for row in &b.rows {
        let t = row[it];
        // The speed of the scheme: v₀ − a t until it stops (to round-off), no slip (v = r ω).
        let v = (v0 - a * t).max(0.0);
        if (t - t_stop).abs() > h {
            assert!((row[ivx] - v).abs() <= 1e-9, "t = {t}: v = {}, closed form {v}", row[ivx]);
        }
        assert!((row[ivx] - r * row[iwy]).abs() <= 1e-9, "t = {t}: slips");
    }
    // θ = ½: the position follows the trapezoidal rule on the speeds.
    for w in b.rows.windows(2) {
        let dx = w[1][ix] - w[0][ix];
        assert!((dx - 0.5 * h * (w[0][ivx] + w[1][ivx])).abs() <= 1e-12, "t = {}: dx = {dx}", w[1][it]);
    }
    let x = b.last("ball.x");
    assert!((x - d_stop).abs() <= v0 * h, "stopped at {x}, D = {d_stop}");
    assert!(b.last("ball.vx").abs() <= 1e-12 && (b.last("ball.z") - r).abs() <= 1e-9);
    // The normal impulse of every step is m g h (the ball rests on the plane).
    let (irn, ia) = (c.idx("rn"), c.idx("active"));
    let active: Vec<_> = c.rows.iter().filter(|row| row[ia] == 1.0).collect();
    assert_eq!(active.len(), 2000, "the contact is active at every step");
    for row in active {
        assert!((row[irn] - G * h).abs() <= 1e-12, "r_N = {}", row[irn]);
    }
}
