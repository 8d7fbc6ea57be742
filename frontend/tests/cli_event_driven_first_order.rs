//! `saltus run` on the first-order event-driven samples (`<EventDriven>` on a circuit / a
//! relay): the diode bridge's switch times and TD rows against the closed form of the
//! equivalent parallel RLC, the relay oscillator's turns at π, 2π, 3π, the meaning of the
//! `kind` rows, and the located error for an `<ImpactProblem>` on a first-order model.
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn sample(rel: &str) -> PathBuf {
    common::workspace_root().join("samples").join(rel)
}

/// Runs `model`, returns the header and rows.
fn run(model: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ed.csv");
    let o = saltus(["run".as_ref(), model.as_os_str(), "-o".as_ref(), out.as_os_str(), "-q".as_ref()]);
    assert!(o.status.success(), "saltus run failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(str::to_string).collect();
    let rows = lines.map(|l| l.split(',').map(|f| f.parse().unwrap()).collect()).collect();
    (header, rows)
}

/// Diode bridge (L = 10 mH, C = 1 µF, R = 1 kΩ, vC(0) = 10 V): the bridge makes the tank see
/// the parallel RLC, `vC = e^{−αt}(V0 cos ωd t + β sin ωd t)`.
#[test]
fn diode_bridge_event_driven_sample() {
    let (header, rows) = run(&sample("diode_bridge/diode_bridge_ed.xml"));
    let expected = "t,circuit.x[0],circuit.x[1],bridge.y[0],bridge.y[1],bridge.y[2],bridge.y[3],\
                    bridge.lambda[0],bridge.lambda[1],bridge.lambda[2],bridge.lambda[3],kind";
    assert_eq!(header, expected.split(',').collect::<Vec<_>>());
    let (l, c, r, v0): (f64, f64, f64, f64) = (1e-2, 1e-6, 1e3, 10.0);
    let alpha = 1.0 / (2.0 * r * c);
    let wd = (1.0 / (l * c) - alpha * alpha).sqrt();
    let beta = (-v0 / (r * c) + alpha * v0) / wd;
    let vc = |t: f64| (-alpha * t).exp() * (v0 * (wd * t).cos() + beta * (wd * t).sin());
    let th1 = (-v0 / beta).atan();
    let kinds = |k: f64| rows.iter().filter(move |row| row[11] == k);
    assert_eq!(kinds(0.0).count(), 500);
    let switches: Vec<f64> = kinds(1.0).map(|row| row[0]).collect();
    assert_eq!(switches.len(), 16);
    assert_eq!(kinds(2.0).map(|row| row[0]).collect::<Vec<_>>(), switches);
    for (k, t) in switches.iter().enumerate() {
        let exact = (th1 + k as f64 * std::f64::consts::PI) / wd;
        assert!((t - exact).abs() <= 1e-11, "switch {k} at {t}, exact {exact}");
    }
    for row in kinds(0.0) {
        assert!((row[1] - vc(row[0])).abs() <= 1e-7, "t = {}: vC = {}", row[0], row[1]);
    }
    // kind 1 rows: the pair that conducted before (λ2 or λ3 = the resistor current), kind 2: after
    for (pre, post) in kinds(1.0).zip(kinds(2.0)) {
        assert_eq!(pre[1..3], post[1..3], "the state is continuous");
        for row in [pre, post] {
            for k in 0..4 {
                assert!(row[3 + k] >= -1e-12 && row[7 + k] >= -1e-12 && (row[3 + k] * row[7 + k]).abs() <= 1e-12);
            }
        }
    }
}

/// Relay oscillator: turns at π, 2π, 3π (x1 = −3.5, 1.5, 0.5) and sticks at x1 = 0.5, λ = 0.5.
#[test]
fn relay_oscillator_event_driven_sample() {
    let (header, rows) = run(&sample("relay_oscillator/relay_oscillator_ed.xml"));
    assert_eq!(header, ["t", "osc.x[0]", "osc.x[1]", "relay.y[0]", "relay.lambda[0]", "kind"]);
    let turns: Vec<&Vec<f64>> = rows.iter().filter(|r| r[5] == 2.0).collect();
    assert_eq!(turns.len(), 3);
    for (k, (row, (x1, lam))) in turns.iter().zip([(-3.5, -1.0), (1.5, 1.0), (0.5, 0.5)]).enumerate() {
        assert!((row[0] - (k + 1) as f64 * std::f64::consts::PI).abs() <= 1e-9, "turn {k} at {}", row[0]);
        assert!((row[1] - x1).abs() <= 1e-9 && (row[4] - lam).abs() <= 1e-9, "turn {k}: {row:?}");
    }
    let last = rows.last().unwrap();
    assert_eq!(last[0], 15.0);
    assert!((last[1] - 0.5).abs() <= 1e-9 && last[2].abs() <= 1e-12 && (last[4] - 0.5).abs() <= 1e-9, "{last:?}");
}

/// An `<ImpactProblem>` on a first-order model is a located error.
#[test]
fn impact_problem_on_first_order_model_is_located_error() {
    let text = std::fs::read_to_string(sample("relay_oscillator/relay_oscillator_ed.xml")).unwrap();
    let text =
        text.replace("</OneStepIntegrator>", "</OneStepIntegrator>\n    <ImpactProblem><Lemke/></ImpactProblem>");
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("bad.xml");
    std::fs::write(&model, text).unwrap();
    let o = saltus(["check".as_ref(), model.as_os_str()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("bad.xml:") && err.contains("ImpactProblem") && err.contains("no impacts"), "{err}");
}
