//! `<EventDriven><Accuracy>` (`events-accuracy-projection.md` §5) from XML: on a harmonic
//! oscillator `q̈ = −ω² q` (q(0) = 1, v(0) = 0; exact `q = cos ωt`, zero crossings at
//! `(2k + 1) π / (2ω)`) the achieved error follows α, the windows are α·τ·unit, and bad values
//! are located errors.
mod common;

use std::path::Path;
use std::process::Command;

const OMEGA: f64 = 2.0;

fn model(accuracy: &str, event_attrs: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<Model version="1.0">
  <Time t0="0" T="5"/>
  <NSDS>
    <LagrangianLinearTIDS name="osc">
      <q0>1</q0>
      <v0>0</v0>
      <Mass rows="1" cols="1">1</Mass>
      <K rows="1" cols="1">{k}</K>
    </LagrangianLinearTIDS>
  </NSDS>
  <EventDriven>
    <TimeDiscretisation h="0.05"/>
    <OneStepIntegrator>
      <LsodarOSI/>
    </OneStepIntegrator>
    {accuracy}
  </EventDriven>
  <Events>
    <Event name="zero" ds="osc" {event_attrs}>
      <Linear a="1 0"/>
    </Event>
  </Events>
</Model>
"#,
        k = OMEGA * OMEGA
    )
}

fn validates(path: &Path) {
    let xsd = common::workspace_root().join("schemas/saltus-model.xsd");
    if let Ok(o) = Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(path).output() {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// Runs the model; returns rows (t, q, v, event).
fn rows(text: &str) -> Vec<[f64; 4]> {
    let tmp = tempfile::tempdir().unwrap();
    let m = tmp.path().join("m.xml");
    std::fs::write(&m, text).unwrap();
    validates(&m);
    let out = tmp.path().join("o.csv");
    let o = Command::new(env!("CARGO_BIN_EXE_saltus"))
        .args(["run".as_ref(), m.as_os_str(), "-o".as_ref(), out.as_os_str(), "-q".as_ref()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(&out).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), "t,osc.q[0],osc.v[0],kind,event");
    lines
        .map(|l| {
            let v: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
            [v[0], v[1], v[2], v[4]]
        })
        .collect()
}

/// Largest error of the state against `cos ωt` over all rows, and of the crossing times.
fn errors(rows: &[[f64; 4]]) -> (f64, f64) {
    let mut e_state = 0.0f64;
    let mut e_time = 0.0f64;
    let mut k = 0;
    for r in rows {
        let (t, q, v) = (r[0], r[1], r[2]);
        e_state = e_state.max((q - (OMEGA * t).cos()).abs()).max((v / OMEGA + (OMEGA * t).sin()).abs());
        if r[3] == 1.0 {
            let want = (2 * k + 1) as f64 * std::f64::consts::PI / (2.0 * OMEGA);
            e_time = e_time.max((t - want).abs());
            k += 1;
        }
    }
    assert_eq!(k, 3, "three crossings before T = 5");
    (e_state, e_time)
}

#[test]
fn achieved_error_scales_with_alpha() {
    let mut errs = Vec::new();
    for alpha in [1e-4, 1e-6, 1e-8, 1e-10] {
        let (e, et) = errors(&rows(&model(&format!(r#"<Accuracy alpha="{alpha}"/>"#), "")));
        eprintln!("alpha = {alpha:e}: state error {e:.3e}, crossing-time error {et:.3e}");
        // the global error is α times a modest factor (4 periods of the oscillator)
        assert!(e < 100.0 * alpha && e > 1e-4 * alpha, "alpha = {alpha}: error {e}");
        errs.push(e);
    }
    // each factor 100 on α gains at least a factor 20 on the error
    for w in errs.windows(2) {
        assert!(w[0] > 20.0 * w[1], "{errs:?}");
    }
}

#[test]
fn window_is_alpha_time_scale_unit() {
    // α τ l = 1e-6 · 10 · 5 = 5e-5: the crossing lies in (t_low, t], t at most 5e-5 after it;
    // with the roundoff window (no <Accuracy>, tight rtol) the time is exact to 1e-10
    let r = rows(&model(r#"<Accuracy alpha="1e-6" time_scale="10"/>"#, r#"unit="5""#));
    let first = r.iter().find(|r| r[3] == 1.0).unwrap();
    let t_star = std::f64::consts::PI / (2.0 * OMEGA);
    assert!(first[0] >= t_star - 1e-7 && first[0] - t_star <= 5e-5 + 1e-7, "{} vs {t_star}", first[0]);
    let r = rows(&model("", ""));
    let first = r.iter().find(|r| r[3] == 1.0).unwrap();
    assert!((first[0] - t_star).abs() < 1e-10, "{} vs {t_star}", first[0]);
}

#[test]
fn accuracy_errors_are_located() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (r#"<Accuracy alpha="2"/>"#, "`alpha` must be in (0, 1]"),
        (
            r#"<Accuracy alpha="1e-6" weights="1"/>"#,
            "`weights` has 1 entries, the integrator's state (q of every system, then v) has 2",
        ),
        (r#"<Accuracy alpha="1e-6" weights="1 1" units="1 1"/>"#, "not both"),
        (r#"<Accuracy alpha="1e-6" units="1 0"/>"#, "units"),
        (r#"<Accuracy alpha="1e-6" time_scale="0"/>"#, "time_scale"),
        (r#"<Accuracy alpha="1e-6" constraint_tol="0.1"/>"#, "no bilateral constraint"),
    ];
    for (acc, want) in cases {
        let m = tmp.path().join("m.xml");
        std::fs::write(&m, model(acc, "")).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_saltus")).args(["check".as_ref(), m.as_os_str()]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{acc}: {err}");
        assert!(err.contains(want), "{acc}: expected `{want}` in\n{err}");
        assert!(err.contains("m.xml:"), "{acc}: not located:\n{err}");
    }
    // rtol with <Accuracy>
    let text = model(r#"<Accuracy alpha="1e-6"/>"#, "").replace("<LsodarOSI/>", r#"<LsodarOSI rtol="1e-8"/>"#);
    std::fs::write(tmp.path().join("m.xml"), text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_saltus"))
        .args(["check".as_ref(), tmp.path().join("m.xml").as_os_str()])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("replaces the `rtol`/`atol`"));
}
