//! `<SemiExplicitEuler>` and the time-stepping `<Accuracy>` from XML. On a harmonic oscillator
//! `q̈ = −ω² q` the symplectic Euler `v_{k+1} = v_k − h ω² q_k`, `q_{k+1} = q_k + h v_{k+1}`
//! conserves `I = v² + ω² q² − h ω² q v` exactly: the energy oscillates by O(h) with no drift over
//! a long run. Bad values are located errors.
mod common;

use std::path::Path;
use std::process::Command;

const OMEGA: f64 = 2.0;
const H: f64 = 0.01;

fn oscillator(osi: &str, extra: &str, t_end: f64) -> String {
    format!(
        r#"<?xml version="1.0"?>
<Model version="1.0">
  <Time t0="0" T="{t_end}"/>
  <NSDS>
    <LagrangianLinearTIDS name="osc">
      <q0>1</q0>
      <v0>0</v0>
      <Mass rows="1" cols="1">1</Mass>
      <K rows="1" cols="1">{k}</K>
    </LagrangianLinearTIDS>
  </NSDS>
  <Simulation>
    <TimeDiscretisation h="{H}"/>
    <OneStepIntegrator>
      {osi}
    </OneStepIntegrator>
    <OneStepNSProblem>
      <LCP><Lemke/></LCP>
    </OneStepNSProblem>
    {extra}
  </Simulation>
</Model>
"#,
        k = OMEGA * OMEGA
    )
}

/// Two masses tied by the linear equality `q0 − q1 = 0` (no plugin), for the projection options.
fn tied(extra: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<Model version="1.0">
  <Time t0="0" T="0.1"/>
  <NSDS>
    <LagrangianLinearTIDS name="a">
      <q0>0 0</q0>
      <v0>1 1</v0>
      <Mass rows="2" cols="2">1 0 0 1</Mass>
    </LagrangianLinearTIDS>
    <Interaction name="tie" ds="a">
      <Relation>
        <LagrangianLinearTIR>
          <H rows="1" cols="2">1 -1</H>
        </LagrangianLinearTIR>
      </Relation>
      <NonSmoothLaw>
        <EqualityConditionNSL size="1"/>
      </NonSmoothLaw>
    </Interaction>
  </NSDS>
  <Simulation>
    <TimeDiscretisation h="0.01"/>
    <OneStepIntegrator>
      <SemiExplicitEuler/>
    </OneStepIntegrator>
    <OneStepNSProblem>
      <Equality/>
    </OneStepNSProblem>
    {extra}
  </Simulation>
</Model>
"#
    )
}

fn validates(path: &Path) {
    let xsd = common::workspace_root().join("schemas/saltus-model.xsd");
    if let Ok(o) = Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(path).output() {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// Runs the model through the CLI: `Ok(rows of numbers)` or `Err(stderr)`.
fn run(text: &str) -> Result<Vec<Vec<f64>>, String> {
    let tmp = tempfile::tempdir().unwrap();
    let m = tmp.path().join("m.xml");
    std::fs::write(&m, text).unwrap();
    let out = tmp.path().join("o.csv");
    let o = Command::new(env!("CARGO_BIN_EXE_saltus"))
        .args(["run".as_ref(), m.as_os_str(), "-o".as_ref(), out.as_os_str(), "-q".as_ref()])
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    validates(&m);
    let csv = std::fs::read_to_string(&out).unwrap();
    Ok(csv.lines().skip(1).map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect())
}

#[test]
fn symplectic_oscillator_from_xml() {
    let t_end = 300.0; // about 95 periods
    let rows = run(&oscillator(r#"<SemiExplicitEuler velocity="explicit" gamma="0.5"/>"#, "", t_end)).unwrap();
    assert_eq!(rows.len(), 30_001);
    let w2 = OMEGA * OMEGA;
    let inv = |r: &[f64]| r[2] * r[2] + w2 * r[1] * r[1] - H * w2 * r[1] * r[2];
    let energy = |r: &[f64]| 0.5 * r[2] * r[2] + 0.5 * w2 * r[1] * r[1];
    let (i0, e0) = (inv(&rows[0]), energy(&rows[0]));
    let mut max_de: f64 = 0.0;
    for (k, r) in rows.iter().enumerate() {
        // the scheme's exact invariant, to round-off (CSV rows are shortest round-trip numbers)
        assert!((inv(r) - i0).abs() <= 1e-12, "row {k}: invariant {} vs {i0}", inv(r));
        max_de = max_de.max((energy(r) - e0).abs());
    }
    // energy: an O(h) oscillation (|E − E0| ≤ h ω E0), the same at the end as in the first period
    let first: f64 = rows[..400].iter().map(|r| (energy(r) - e0).abs()).fold(0.0, f64::max);
    let last: f64 = rows[rows.len() - 400..].iter().map(|r| (energy(r) - e0).abs()).fold(0.0, f64::max);
    eprintln!("oscillator: max |E - E0| = {max_de:e} (first period {first:e}, last {last:e})");
    assert!(max_de <= H * OMEGA * e0 && max_de > 0.1 * H * OMEGA * e0, "{max_de:e}");
    assert!((last / first - 1.0).abs() < 0.01);
    // implicit in u: the same numbers without velocity-dependent forces
    let imp = run(&oscillator(r#"<SemiExplicitEuler velocity="implicit"/>"#, "", 1.0)).unwrap();
    for (a, b) in imp.iter().zip(&rows) {
        assert_eq!(a, b);
    }
}

#[test]
fn projection_with_accuracy_runs() {
    // a linear equality holds exactly at velocity level; the projection is a no-op
    let rows = run(&tied(r#"<Projection max_iter="5"/><Accuracy alpha="1e-8" constraint_tol="0.01"/>"#)).unwrap();
    assert_eq!(rows.len(), 11);
    for r in &rows {
        assert!((r[1] - r[2]).abs() <= 1e-15);
    }
}

/// An integrator attached to the oscillator replaces the simulation's: the semi-explicit Euler's
/// invariant holds exactly, as with it alone.
#[test]
fn an_integrator_attached_by_name_replaces_the_simulations() {
    let alone = run(&oscillator(r#"<SemiExplicitEuler/>"#, "", 2.0)).unwrap();
    let attached =
        run(&oscillator(r#"<MoreauJeanOSI theta="1"/><SemiExplicitEuler systems="osc"/>"#, "", 2.0)).unwrap();
    assert_eq!(alone, attached);
    let implicit = run(&oscillator(r#"<MoreauJeanOSI theta="1"/>"#, "", 2.0)).unwrap();
    assert_ne!(alone, implicit);
}

/// `<MoreauJeanBilbaoOSI>` (Bilbao's exact scheme) on the undamped oscillator: started from the
/// scheme's velocity (the backward difference of the exact motion), every row is `cos(ω t)` to
/// round-off, where Moreau–Jean drifts in phase.
#[test]
fn bilbao_is_exact_on_the_oscillator() {
    let v0 = (1.0 - (OMEGA * H).cos()) / H;
    let text = oscillator(r#"<MoreauJeanBilbaoOSI/>"#, "", 2.0).replace("<v0>0</v0>", &format!("<v0>{v0}</v0>"));
    let rows = run(&text).unwrap();
    assert_eq!(rows.len(), 201);
    for r in &rows {
        assert!((r[1] - (OMEGA * r[0]).cos()).abs() <= 1e-12, "t = {}: {} vs {}", r[0], r[1], (OMEGA * r[0]).cos());
    }
    let mj =
        run(&oscillator(r#"<MoreauJeanOSI theta="0.5"/>"#, "", 2.0).replace("<v0>0</v0>", &format!("<v0>{v0}</v0>")))
            .unwrap();
    assert!(mj.iter().any(|r| (r[1] - (OMEGA * r[0]).cos()).abs() > 1e-5));
}

#[test]
fn located_errors() {
    let cases = [
        (tied(r#"<Accuracy alpha="1e-8"/>"#), "Simulation/Accuracy", "add <Projection>"),
        (tied(r#"<Projection tol="1e-8"/><Accuracy alpha="1e-8"/>"#), "Simulation/Accuracy", "one or the other"),
        (tied(r#"<Projection/><Accuracy alpha="1e-8" constraint_tol="0.1 0.1"/>"#), "Simulation/Accuracy", "tie[0]"),
        (tied(r#"<Projection/><Accuracy alpha="2"/>"#), "Simulation/Accuracy", "(0, 1]"),
        (tied(r#"<Projection/><Accuracy alpha="1e-3" constraint_tol="0 1"/>"#), "Simulation/Accuracy", "> 0"),
        (tied(r#"<Projection/><Accuracy alpha="1e-3" weights="1"/>"#), "Accuracy", "constraint_tol"),
        // `contacts` is the <Mechanics> projection's choice; an <NSDS> projection always has its
        // unilateral rows
        (tied(r#"<Projection contacts="false"/>"#), "Simulation/Projection", "always includes"),
        (oscillator(r#"<SemiExplicitEuler velocity="sideways"/>"#, "", 1.0), "SemiExplicitEuler", "velocity"),
        (oscillator(r#"<SemiExplicitEuler gamma="1.5"/>"#, "", 1.0), "SemiExplicitEuler", "gamma"),
        // one integrator per system: `systems` names systems of <NSDS>, after the first integrator
        (
            oscillator(r#"<MoreauJeanOSI theta="0.5"/><SemiExplicitEuler systems="oscc"/>"#, "", 1.0),
            "SemiExplicitEuler",
            "`oscc`",
        ),
        (oscillator(r#"<MoreauJeanOSI theta="0.5" systems="osc"/>"#, "", 1.0), "MoreauJeanOSI", "first integrator"),
        (oscillator(r#"<MoreauJeanOSI theta="0.5"/><SemiExplicitEuler/>"#, "", 1.0), "SemiExplicitEuler", "`systems`"),
        (
            oscillator(r#"<MoreauJeanOSI theta="0.5"/><MoreauJeanOSI theta="1" systems="osc osc"/>"#, "", 1.0),
            "MoreauJeanOSI",
            "already has",
        ),
        (
            oscillator(r#"<MoreauJeanOSI theta="0.5"/><EulerMoreauOSI theta="0.5" systems="osc"/>"#, "", 1.0),
            "LagrangianLinearTIDS[osc]",
            "EulerMoreauOSI",
        ),
        (
            oscillator(r#"<MoreauJeanOSI theta="0.5"/><MoreauJeanGOSI theta="0.5" systems="osc"/>"#, "", 1.0),
            "LagrangianLinearTIDS[osc]",
            "global",
        ),
    ];
    for (text, path, what) in cases {
        let err = run(&text).expect_err(path);
        assert!(err.contains(path) && err.contains(what), "expected `{path}` and `{what}` in:\n{err}");
        assert!(err.contains("m.xml:"), "no file:line:column in:\n{err}");
    }
}
