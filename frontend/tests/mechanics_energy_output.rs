//! `<Output energy="true">` on a `<Mechanics>` scene (Siconos `output_energy_work`): the rows
//! carry the step's kinetic energy and work; at θ = ½ the kinetic energy changes over each step
//! by the forces' and the contact impulses' work; the kinetic energy is the one of the written
//! velocities; the initial row has no work; the same columns through every face; refused outside
//! `<Mechanics>` with its location.

mod sample_util;
use sample_util::run;

const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0" title="energy and work">
  <Time t0="0" T="1.5"/>
  <Mechanics gravity="0 0 -9.81" margin="0.005">
    <HalfSpace name="floor" normal="0 0 1"/>
    <Box name="cube" half_extents="0.05 0.05 0.05"/>
    <Sphere name="ball" radius="0.05"/>
    <NewtonImpactFrictionNSL en="0.6" mu="0.4"/>
    <RigidBody name="ground" kind="static"><Contactor shape="floor"/></RigidBody>
    <RigidBody name="cube" mass="1" inertia="0.00166667 0.00166667 0.00166667" translation="0 0 0.3" velocity="1 0 0 3 -2 5"><Contactor shape="cube"/></RigidBody>
    <RigidBody name="ball" mass="0.5" inertia="0.0005 0.0005 0.0005" translation="1 0 0.4" velocity="-0.5 0.2 0 0 0 0"><Contactor shape="ball"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-10" max_iter="10000"/></FrictionContact></OneStepNSProblem>
  </Simulation>
  <Output energy="true"/>
</Model>
"#;

#[test]
fn energy_columns_balance_the_kinetic_energy() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("e.xml");
    std::fs::write(&model, MODEL).unwrap();
    sample_util::validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    assert_eq!(n, 1501);
    let k = tr.col("energy.kinetic");
    let (wf, wn, wt) = (tr.col("energy.work_forces"), tr.col("energy.work_normal"), tr.col("energy.work_tangent"));
    let (wn_neg, wt_neg) = (tr.col("energy.work_normal_negative"), tr.col("energy.work_tangent_negative"));
    // the kinetic energy of the written twists (ω in the body frame, isotropic inertias)
    let kin = |b: &str, m: f64, i: f64, r: usize| {
        let v: f64 = ["vx", "vy", "vz"].iter().map(|c| tr.col(&format!("{b}.{c}"))[r].powi(2)).sum();
        let w: f64 = ["wx", "wy", "wz"].iter().map(|c| tr.col(&format!("{b}.{c}"))[r].powi(2)).sum();
        0.5 * m * v + 0.5 * i * w
    };
    assert_eq!((wf[0], wn[0], wt[0]), (0.0, 0.0, 0.0), "no work before the first step");
    let (mut impacts, mut sliding) = (0, 0);
    for r in 0..n {
        let expect = kin("cube", 1.0, 0.00166667, r) + kin("ball", 0.5, 0.0005, r);
        assert!((k[r] - expect).abs() < 1e-9 * (1.0 + expect), "row {r}: K = {}, from the twists {expect}", k[r]);
        if r > 0 {
            let balance = wf[r] + wn[r] + wt[r];
            assert!((k[r] - k[r - 1] - balance).abs() < 1e-10 * (1.0 + k[r]), "row {r}");
        }
        assert!(wn_neg[r] <= wn[r].min(0.0) + 1e-15 && wt_neg[r] <= wt[r].min(0.0) + 1e-15);
        impacts += usize::from(wn[r] < -1e-3);
        sliding += usize::from(wt[r] < -1e-5);
    }
    assert!(impacts >= 2 && sliding >= 20, "impacts {impacts}, sliding steps {sliding}");
    // with `--every 10` a row is every 10th step's, with that step's own energy and work
    let every = run(&model, &["--every", "10"]);
    assert_eq!(every.len(), 151);
    assert_eq!(every.col("energy.kinetic")[150], k[1500]);
}

#[test]
fn energy_output_outside_mechanics_is_refused_with_its_location() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample_util::sample("bouncing_ball/bouncing_ball_ts.xml")).unwrap();
    let text = if text.contains("<Output") {
        text.replacen("<Output", "<Output energy=\"true\"", 1)
    } else {
        text.replacen("</Model>", "  <Output energy=\"true\"/>\n</Model>", 1)
    };
    let model = dir.path().join("b.xml");
    std::fs::write(&model, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&model).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("b.xml:") && err.contains("Output") && err.contains("<Mechanics> scenes only"), "{err}");
}
