//! Gallery sample `ball_events`: a unit mass dropped from z = 1 is kicked up to v = 3 each time
//! it falls through z = 0.3 (a user event with a plugin reset), its apexes recorded. Checks
//! against the closed form: first kick at `t₁ = √(2·0.7/g)`, then kicks every `6/g`, apexes
//! `3/g` after each kick at height `0.3 + 9/(2g)`; event driven to 1e-9, time stepping to the
//! step (the kick acts at the end of the step holding the crossing). Also `<Events>` errors and
//! the `stop` action through the CLI, and the same events on a rigid sphere of a `<Mechanics>`
//! scene (`ball_events_3d.xml`), which agrees with the kernel model to round-off.
mod sample_util;
use sample_util::*;
use std::process::Command;

const G: f64 = 9.81;
const KICK: f64 = 3.0;
const Z_KICK: f64 = 0.3;

/// Rows of event `k` (column `event` = k): (t, z, v) from the columns `z` and `v`.
fn event_rows_of(tr: &Trajectory, k: f64, z: &str, v: &str) -> Vec<(f64, f64, f64)> {
    let (t, z, v, e) = (tr.col("t"), tr.col(z), tr.col(v), tr.col("event"));
    (0..tr.len()).filter(|&i| e[i] == k).map(|i| (t[i], z[i], v[i])).collect()
}

/// Rows of event `k` of the kernel model: (t, z, v).
fn event_rows(tr: &Trajectory, k: f64) -> Vec<(f64, f64, f64)> {
    event_rows_of(tr, k, "ball.q[0]", "ball.v[0]")
}

#[test]
fn ball_events_event_driven_against_closed_form() {
    let dir = build_plugin("saltus-plugin-bouncing-ball");
    let model = sample("ball_events/ball_events_ed.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let t1 = (2.0 * (1.0 - Z_KICK) / G).sqrt();
    let period = 2.0 * KICK / G;
    let kicks = event_rows(&tr, 2.0);
    let apexes = event_rows(&tr, 1.0);
    assert_eq!(kicks.len(), 3, "{kicks:?}");
    assert_eq!(apexes.len(), 3, "{apexes:?}");
    for (k, &(t, z, v)) in kicks.iter().enumerate() {
        let want = t1 + k as f64 * period;
        assert!((t - want).abs() < 1e-9, "kick {k} at {t} vs {want}");
        assert!((z - Z_KICK).abs() < 1e-9, "kick {k} at height {z}");
        let v_pre = if k == 0 { -G * t1 } else { -KICK };
        assert!((v - v_pre).abs() < 1e-8, "kick {k}: v before = {v} vs {v_pre}");
    }
    for (k, &(t, z, v)) in apexes.iter().enumerate() {
        let want = t1 + KICK / G + k as f64 * period;
        assert!((t - want).abs() < 1e-9, "apex {k} at {t} vs {want}");
        assert!((z - (Z_KICK + KICK * KICK / (2.0 * G))).abs() < 1e-9 && v.abs() < 1e-8, "apex {k}: z = {z}, v = {v}");
    }
    // kind 3 rows are the events, each reset followed by a kind 4 row with v = 3
    let (kind, vv) = (tr.col("kind"), tr.col("ball.v[0]"));
    let after: Vec<usize> = (0..tr.len()).filter(|&i| kind[i] == 4.0).collect();
    assert_eq!(after.len(), 3);
    for i in after {
        assert_eq!(kind[i - 1], 3.0);
        assert_eq!(vv[i], KICK);
    }
    // the ball never reaches the floor
    assert!(tr.col("ball.q[0]").iter().all(|&z| z > 0.29));
    assert!((tr.col("t")[tr.len() - 1] - 2.0).abs() < 1e-12);
}

#[test]
fn ball_events_time_stepping_located_on_the_step() {
    let dir = build_plugin("saltus-plugin-bouncing-ball");
    let model = sample("ball_events/ball_events_ts.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let h = 1e-3;
    let t1 = (2.0 * (1.0 - Z_KICK) / G).sqrt();
    let kicks = event_rows(&tr, 2.0);
    let apexes = event_rows(&tr, 1.0);
    assert_eq!((kicks.len(), apexes.len()), (3, 3), "{kicks:?} {apexes:?}");
    // the first crossing on the interpolant of the exact-at-the-steps q: error ≤ g h²/8 / |v|
    assert!((kicks[0].0 - t1).abs() < G * h * h / 8.0 / (G * t1) + 1e-12, "{} vs {t1}", kicks[0].0);
    let (t, z, v, e) = (tr.col("t"), tr.col("ball.q[0]"), tr.col("ball.v[0]"), tr.col("event"));
    for k in 0..3 {
        // the kick acts at the end t_e of the step holding the crossing, from z(t_e) = 0.3 − δ
        let t_e = (kicks[k].0 / h).ceil() * h;
        let i = (0..tr.len()).find(|&i| e[i] == 0.0 && (t[i] - t_e).abs() < 1e-9).expect("step row");
        assert_eq!(v[i], KICK, "v after the kick at {t_e}");
        let delta = Z_KICK - z[i];
        assert!(delta > 0.0 && delta < 1.01 * h * G * t1.max(KICK / G) * 1.5, "δ = {delta}");
        // the apex is 3/g later (v is exact with Moreau–Jean), at z(t_e) + 9/(2g)
        let want = t_e + KICK / G;
        assert!((apexes[k].0 - want).abs() < 1e-9, "apex {k} at {} vs {want}", apexes[k].0);
        // z at the apex is on the linear interpolant of z: off by at most g h²/8
        let z_apex = z[i] + KICK * KICK / (2.0 * G);
        assert!((apexes[k].1 - z_apex).abs() < G * h * h / 8.0 + 1e-9, "{} vs {z_apex}", apexes[k].1);
        assert!(apexes[k].2.abs() < 1e-9);
        if k < 2 {
            // the next crossing of 0.3: z(t_e) + 3τ − gτ²/2 = 0.3, to the interpolation error of z
            let tau = (KICK + (KICK * KICK - 2.0 * G * delta).sqrt()) / G;
            let want = t_e + tau;
            assert!(
                (kicks[k + 1].0 - want).abs() < G * h * h / 8.0 / KICK + 1e-9,
                "kick {}: {} vs {want}",
                k + 1,
                kicks[k + 1].0
            );
        }
    }
    assert!(tr.col("ball.q[0]").iter().all(|&z| z > 0.29));
}

fn saltus(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

/// The sample `file` with `events` as its `<Events>`.
fn sample_with_events(file: &str, events: &str) -> String {
    let text = std::fs::read_to_string(sample(file)).unwrap();
    let start = text.find("<Events>").unwrap();
    let end = text.find("</Events>").unwrap() + "</Events>".len();
    format!("{}{events}{}", &text[..start], &text[end..])
}

/// The Moreau–Jean ball of the sample without plugins, with `events` as its `<Events>`.
fn model_with(events: &str) -> String {
    sample_with_events("ball_events/ball_events_ts.xml", events)
}

#[test]
fn stop_action_ends_the_run_at_the_event() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("m.xml");
    std::fs::write(
        &model,
        model_with(
            r#"<Events><Event name="low" ds="ball" direction="falling" action="stop"><Linear a="1 0" b="-0.5"/></Event></Events>"#,
        ),
    )
    .unwrap();
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    let t_star = (2.0 * 0.5 / G).sqrt();
    assert_eq!(tr.col("event")[n - 1], 1.0);
    assert!((tr.col("t")[n - 1] - t_star).abs() < G * 1e-6 / 8.0, "{} vs {t_star}", tr.col("t")[n - 1]);
    assert!((tr.col("ball.q[0]")[n - 1] - 0.5).abs() < 1e-12);
    assert!(tr.col("event")[..n - 1].iter().all(|&e| e == 0.0));
}

#[test]
fn events_errors_are_located() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (r#"<Event name="e" ds="bal"><Linear a="1 0"/></Event>"#, "unknown dynamical system `bal` (known: ball)"),
        (
            r#"<Event name="e" ds="ball"><Linear a="1"/></Event>"#,
            "`a` has 1 coefficients, the state s of `ball` has 2 entries (q then v)",
        ),
        (
            r#"<Event name="e" ds="ball" action="reset"><Linear a="1 0"/></Event>"#,
            "action=\"reset\" needs a <Reset> child",
        ),
        (r#"<Event name="e" ds="ball"/>"#, "missing the trigger"),
        (
            r#"<Event name="e" ds="ball"><Linear a="1 0"/></Event><Event name="e" ds="ball"><Linear a="1 0"/></Event>"#,
            "an event named `e` already exists",
        ),
        (r#"<Event name="e" ds="ball" window="-1"><Linear a="1 0"/></Event>"#, "window"),
        (
            r#"<Event name="e" ds="ball"><Function library="saltus_plugin_none" function="g"/></Event>"#,
            "saltus_plugin_none",
        ),
    ];
    for (ev, want) in cases {
        let model = tmp.path().join("m.xml");
        std::fs::write(&model, model_with(&format!("<Events>{ev}</Events>"))).unwrap();
        let o = saltus(&["check".as_ref(), model.as_os_str()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{ev}: {err}");
        assert!(err.contains(want), "{ev}: expected `{want}` in\n{err}");
        assert!(err.contains("m.xml:"), "{ev}: not located:\n{err}");
    }
}

/// Rows of event `k` of the rigid-sphere variant: (t, z, vz).
fn body_event_rows(tr: &Trajectory, k: f64) -> Vec<(f64, f64, f64)> {
    event_rows_of(tr, k, "ball.z", "ball.vz")
}

#[test]
fn ball_events_on_a_rigid_sphere_match_the_kernel_model() {
    // The same juggled ball as a sphere of a <Mechanics> scene: its events read the body's
    // 13-number state. Moreau–Jean with θ = ½ is the same scheme on z, so every event and row
    // agrees with the kernel model's to round-off, and x, y, the attitude and the spin stay put.
    let dir = build_plugin("saltus-plugin-bouncing-ball");
    let dir = dir.to_str().expect("utf-8 target dir");
    let model = sample("ball_events/ball_events_3d.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir]);
    let kernel = run(&sample("ball_events/ball_events_ts.xml"), &["--plugin-dir", dir]);
    assert_eq!(tr.len(), kernel.len());
    for k in [1.0, 2.0] {
        let (a, b) = (body_event_rows(&tr, k), event_rows(&kernel, k));
        assert_eq!(a.len(), 3, "{a:?}");
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert!((x.0 - y.0).abs() < 1e-12 && (x.1 - y.1).abs() < 1e-12, "{x:?} vs {y:?}");
            assert!((x.2 - y.2).abs() < 1e-12, "{x:?} vs {y:?}");
        }
    }
    let (z, zk) = (tr.col("ball.z"), kernel.col("ball.q[0]"));
    assert!(z.iter().zip(zk).all(|(a, b)| (a - b).abs() < 1e-12));
    for c in ["ball.x", "ball.y", "ball.qx", "ball.qy", "ball.qz", "ball.vx", "ball.wx", "ball.wz"] {
        assert!(tr.col(c).iter().all(|&x| x == 0.0), "{c}");
    }
    assert!(tr.col("ball.qw").iter().all(|&x| x == 1.0));
    // the kicks: vz = 3 on the step row after each kick row
    let (t, vz, e) = (tr.col("t"), tr.col("ball.vz"), tr.col("event"));
    let kicks: Vec<usize> = (0..tr.len()).filter(|&i| e[i] == 2.0).collect();
    for i in kicks {
        let j = (i + 1..tr.len()).find(|&j| e[j] == 0.0).expect("a step row after the kick");
        assert_eq!(vz[j], KICK, "after the kick at {}", t[i]);
    }
}

/// The rigid-sphere sample without plugins, with `events` as its `<Events>`.
fn body_model_with(events: &str) -> String {
    sample_with_events("ball_events/ball_events_3d.xml", events)
}

#[test]
fn body_events_stop_and_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("m.xml");
    let z13 = "0 0 1 0 0 0 0 0 0 0 0 0 0";
    let stop = format!(
        r#"<Events><Event name="low" ds="ball" direction="falling" action="stop"><Linear a="{z13}" b="-0.5"/></Event></Events>"#
    );
    std::fs::write(&model, body_model_with(&stop)).unwrap();
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    let t_star = (2.0 * 0.5 / G).sqrt();
    assert_eq!(tr.col("event")[n - 1], 1.0);
    assert!((tr.col("t")[n - 1] - t_star).abs() < G * 1e-6 / 8.0, "{} vs {t_star}", tr.col("t")[n - 1]);
    assert!((tr.col("ball.z")[n - 1] - 0.5).abs() < 1e-12);
    assert!(tr.col("event")[..n - 1].iter().all(|&e| e == 0.0));
    let cases = [
        (
            r#"<Event name="e" ds="ball"><Linear a="0 1"/></Event>"#.to_string(),
            "`a` has 2 coefficients, the state s of `ball` has 13 entries (x y z, qw qx qy qz",
        ),
        (
            format!(r#"<Event name="e" ds="bal"><Linear a="{z13}"/></Event>"#),
            "unknown dynamical system `bal` (known: ball, ground)",
        ),
        (
            format!(
                r#"<Event name="e" ds="ground" action="reset"><Linear a="{z13}"/><Reset library="saltus_plugin_bouncing_ball" function="body_kick" params="3"/></Event>"#
            ),
            "a reset acts on a dynamic body; `ground` is not",
        ),
    ];
    let dir = build_plugin("saltus-plugin-bouncing-ball");
    for (ev, want) in cases {
        std::fs::write(&model, body_model_with(&format!("<Events>{ev}</Events>"))).unwrap();
        let o = saltus(&["check".as_ref(), "--plugin-dir".as_ref(), dir.as_os_str(), model.as_os_str()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{ev}: {err}");
        assert!(err.contains(want), "{ev}: expected `{want}` in\n{err}");
        assert!(err.contains("m.xml:"), "{ev}: not located:\n{err}");
    }
}
