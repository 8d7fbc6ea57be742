//! The `saltus` binary on the samples (against the Siconos references) and on every error class.
mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn saltus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_saltus"))
}

fn sample(rel: &str) -> PathBuf {
    common::workspace_root().join("samples").join(rel)
}

fn run_ok(args: &[&std::ffi::OsStr]) -> Output {
    let out = saltus().args(args).output().unwrap();
    assert!(out.status.success(), "saltus {:?} failed:\n{}", args, String::from_utf8_lossy(&out.stderr));
    out
}

/// Column name -> values.
fn read_csv(path: &Path) -> HashMap<String, Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); header.len()];
    for l in lines {
        for (j, f) in l.split(',').enumerate() {
            cols[j].push(f.parse().unwrap_or_else(|_| panic!("{}: bad number {f}", path.display())));
        }
    }
    header.into_iter().zip(cols).collect()
}

/// Max |ours − reference| over the mapped columns (and equal row counts).
fn max_diff(ours: &Path, reference: &str, map: &[(&str, &str)]) -> f64 {
    let a = read_csv(ours);
    let b = read_csv(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(reference));
    let mut worst = 0.0f64;
    for (mine, theirs) in map {
        let x = a.get(*mine).unwrap_or_else(|| panic!("no column {mine}"));
        let y = b.get(*theirs).unwrap_or_else(|| panic!("no reference column {theirs}"));
        assert_eq!(x.len(), y.len(), "row count of {mine}");
        for (u, v) in x.iter().zip(y) {
            worst = worst.max((u - v).abs());
        }
    }
    worst
}

const BALL_MAP: &[(&str, &str)] =
    &[("t", "t"), ("ball.q[0]", "q0"), ("ball.v[0]", "v0"), ("floor.lambda[0]", "lambda")];

fn diode_map() -> Vec<(&'static str, &'static str)> {
    vec![
        ("t", "t"),
        ("circuit.x[0]", "vC"),
        ("circuit.x[1]", "iL"),
        ("bridge.y[0]", "y0"),
        ("bridge.y[1]", "y1"),
        ("bridge.y[2]", "y2"),
        ("bridge.y[3]", "y3"),
        ("bridge.lambda[0]", "lambda0"),
        ("bridge.lambda[1]", "lambda1"),
        ("bridge.lambda[2]", "lambda2"),
        ("bridge.lambda[3]", "lambda3"),
    ]
}

#[test]
fn bouncing_ball_matches_siconos() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ball.csv");
    run_ok(&[
        "run".as_ref(),
        sample("bouncing_ball/bouncing_ball_ts.xml").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "-q".as_ref(),
    ]);
    let d = max_diff(&out, "siconos_bouncing_ball_ts.csv", BALL_MAP);
    assert!(d <= 1e-9, "max abs difference {d:e}");
    assert!(!common::workspace_root().join("ball.partial.csv").exists());
}

#[test]
fn bouncing_ball_plugin_variant_matches_siconos() {
    let dir = common::plugin_dir();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ball.csv");
    run_ok(&[
        "run".as_ref(),
        sample("bouncing_ball/bouncing_ball_ts_plugin.xml").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--plugin-dir".as_ref(),
        dir.as_os_str(),
    ]);
    let d = max_diff(&out, "siconos_bouncing_ball_ts.csv", BALL_MAP);
    assert!(d <= 1e-9, "max abs difference {d:e}");
}

/// The example plugins are built beside the `saltus` executable (`cargo build --workspace`), so a
/// plugin sample runs without `--plugin-dir`.
#[test]
fn plugin_beside_the_executable_is_found_without_plugin_dir() {
    let dir = common::plugin_dir();
    assert_eq!(
        dir,
        Path::new(env!("CARGO_BIN_EXE_saltus")).parent().unwrap(),
        "plugins and saltus share target/<profile>"
    );
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ball.csv");
    run_ok(&[
        "run".as_ref(),
        sample("bouncing_ball/bouncing_ball_ts_plugin.xml").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "-q".as_ref(),
    ]);
    let d = max_diff(&out, "siconos_bouncing_ball_ts.csv", BALL_MAP);
    assert!(d <= 1e-9, "max abs difference {d:e}");
}

#[test]
fn diode_bridge_matches_siconos() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("diode.csv");
    run_ok(&[
        "run".as_ref(),
        sample("diode_bridge/diode_bridge.xml").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "-q".as_ref(),
    ]);
    let d = max_diff(&out, "siconos_diode_bridge.csv", &diode_map());
    assert!(d <= 1e-9, "max abs difference {d:e}");
}

#[test]
fn diode_bridge_plugin_variant_matches_siconos() {
    let dir = common::plugin_dir();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("diode.csv");
    run_ok(&[
        "run".as_ref(),
        sample("diode_bridge/diode_bridge_plugin.xml").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "-q".as_ref(),
        "--plugin-dir".as_ref(),
        dir.as_os_str(),
    ]);
    let d = max_diff(&out, "siconos_diode_bridge.csv", &diode_map());
    assert!(d <= 1e-9, "max abs difference {d:e}");
}

#[test]
fn every_keeps_first_and_every_nth_row() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ball.csv");
    run_ok(&[
        "run".as_ref(),
        sample("bouncing_ball/bouncing_ball_ts.xml").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "-q".as_ref(),
        "--every".as_ref(),
        "7".as_ref(),
    ]);
    let t = &read_csv(&out)["t"];
    // rows 0, 7, 14, ..., 1995 and the last step 2000
    assert_eq!(t.len(), 1 + 2000 / 7 + 1);
    assert!((t[1] - 7.0 * 0.005).abs() < 1e-12 && (t[t.len() - 1] - 10.0).abs() < 1e-12);
}

#[test]
fn check_accepts_samples() {
    let out = run_ok(&["check".as_ref(), sample("diode_bridge/diode_bridge.xml").as_os_str()]);
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("OK") && s.contains("5000 steps") && s.contains("EulerMoreauOSI"), "{s}");
}
