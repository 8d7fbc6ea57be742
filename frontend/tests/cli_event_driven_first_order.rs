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

/// User events on a first-order event-driven model (`<Events>` after `<EventDriven>`): the diode
/// bridge with a record event on the inductor current `iL = x[1]` crossing 0 (either way) and a
/// stop when `vC = x[0]` first rises through 5 V. Closed form: `iL = −C vC' − vC/R` of the
/// equivalent RLC; its zeros and the stop time by bisection on it. Event rows are `kind = 3` with
/// the event's number in the last column, and the file ends at the stop.
#[test]
fn user_events_on_the_event_driven_diode_bridge() {
    let text = std::fs::read_to_string(sample("diode_bridge/diode_bridge_ed.xml")).unwrap();
    let events = r#"<Events>
    <Event name="current" ds="circuit" direction="both"><Linear a="0 1"/></Event>
    <Event name="high" ds="circuit" direction="rising" action="stop"><Linear a="1 0" b="-5"/></Event>
  </Events>
</Model>"#;
    let text = text.replace("</Model>", events);
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("bridge_events.xml");
    std::fs::write(&model, text).unwrap();
    let (header, rows) = run(&model);
    assert_eq!(header.last().map(String::as_str), Some("event"));
    assert_eq!(header[header.len() - 2], "kind");
    let (l, c, r, v0): (f64, f64, f64, f64) = (1e-2, 1e-6, 1e3, 10.0);
    let alpha = 1.0 / (2.0 * r * c);
    let wd = (1.0 / (l * c) - alpha * alpha).sqrt();
    let beta = (-v0 / (r * c) + alpha * v0) / wd;
    let vc = |t: f64| (-alpha * t).exp() * (v0 * (wd * t).cos() + beta * (wd * t).sin());
    let dvc = |t: f64| {
        let (s, co, e) = ((wd * t).sin(), (wd * t).cos(), (-alpha * t).exp());
        e * ((-alpha * v0 + beta * wd) * co + (-alpha * beta - v0 * wd) * s)
    };
    let il = |t: f64| -c * dvc(t) - vc(t) / r;
    let root = |f: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64| {
        for _ in 0..200 {
            let m = 0.5 * (a + b);
            if (f(a) > 0.0) == (f(m) > 0.0) {
                a = m
            } else {
                b = m
            }
        }
        0.5 * (a + b)
    };
    let grid: Vec<f64> = (0..=50_000).map(|k| k as f64 * 1e-7).collect();
    let high = |t: f64| vc(t) - 5.0;
    let w = grid.windows(2).find(|w| high(w[0]) < 0.0 && high(w[1]) >= 0.0).unwrap();
    let t_stop = root(&high, w[0], w[1]);
    // iL(0) = 0: the run starts on that event's zero, which is no crossing
    let zeros: Vec<f64> = grid
        .windows(2)
        .filter(|w| w[0] > 0.0 && (il(w[0]) > 0.0) != (il(w[1]) > 0.0) && w[1] < t_stop)
        .map(|w| root(&il, w[0], w[1]))
        .collect();
    assert_eq!(zeros.len(), 1, "{zeros:?}");
    let (kind, event) = (header.len() - 2, header.len() - 1);
    let hits: Vec<&Vec<f64>> = rows.iter().filter(|row| row[kind] == 3.0).collect();
    assert_eq!(hits.len(), zeros.len() + 1, "{hits:?}");
    for (row, t) in hits.iter().zip(&zeros) {
        assert_eq!(row[event], 1.0);
        assert!((row[0] - t).abs() <= 1e-11, "iL = 0 at {}, exact {t}", row[0]);
        assert!(row[2].abs() <= 1e-9, "the located state: iL = {}", row[2]);
    }
    let stop = hits.last().unwrap();
    assert_eq!(stop[event], 2.0);
    assert!((stop[0] - t_stop).abs() <= 1e-11 && (stop[1] - 5.0).abs() <= 1e-7, "{stop:?}");
    assert_eq!(rows.last().unwrap()[0], stop[0], "the run ends at the stop event");
    assert!(rows.iter().all(|row| row[event] == 0.0 || row[kind] == 3.0));
    // record events leave the integration as it was: every other row as without <Events>
    let (_, plain) = run(&sample("diode_bridge/diode_bridge_ed.xml"));
    let ours: Vec<&[f64]> = rows.iter().filter(|row| row[kind] != 3.0).map(|row| &row[..kind + 1]).collect();
    assert_eq!(ours.len(), plain.iter().filter(|row| row[0] <= stop[0]).count());
    for (a, b) in ours.iter().zip(&plain) {
        assert_eq!(a, &b.as_slice(), "t = {}", b[0]);
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
