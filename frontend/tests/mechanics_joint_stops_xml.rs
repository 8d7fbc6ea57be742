//! `<JointStopR>` and `<JointFrictionR>` in a `<Joint>`: a hinged arm released from the
//! horizontal falls onto a stop with friction on the hinge; the run never passes the stop and
//! bounces back; every mistake is located at `file:line:column` with the element path.

mod mech_util;

use mech_util::saltus_on_text as saltus;

const BASE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.6"/>
  <Mechanics gravity="0 0 -9.81" margin="0.01">
    <Sphere name="ball" radius="0.05"/>
    <RigidBody name="arm" mass="1" inertia="0.01 0.01 0.01" translation="0.5 0 1"><Contactor shape="ball"/></RigidBody>
    <Joint name="shoulder" type="PivotJointR" body1="arm" point="0 0 1" axis="0 1 0">
      <JointStopR upper="0.5" e="0.5"/>
      <JointFrictionR max="0.1"/>
    </Joint>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><GenericMechanical><GaussSeidel tol="1e-10"/></GenericMechanical></OneStepNSProblem>
    <Projection tol="1e-12"/>
  </Simulation>
</Model>
"#;

/// The arm's angle below the horizontal (the hinge coordinate: rotation about +y) comes from the
/// written centre `(x, z)`: `φ = atan2(1 − z, x)`. It reaches the stop at 0.5 rad, never passes
/// it by more than the projection tolerance, and bounces back (e = 0.5).
#[test]
fn an_arm_falls_onto_its_stop() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = saltus(dir.path(), BASE, &["run", "-o", "out.csv", "--quiet", "--strict"]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(dir.path().join("out.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..4], &["t", "arm.x", "arm.y", "arm.z"]);
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(
        &header[14..],
        &["shoulder.violation", "shoulder.stop[0].s", "shoulder.stop[0].lambda", "shoulder.friction[0].lambda"]
    );
    let phi: Vec<f64> = rows.iter().map(|r| (1.0 - r[3]).atan2(r[1])).collect();
    let h = 1e-3;
    for (r, p) in rows.iter().zip(&phi) {
        // the coordinate column is the angle (to the projection tolerance); the stop pushes back (λ ≤ 0 on an upper stop); the
        // friction impulse is at most h max
        assert!((r[15] - p).abs() < 1e-11, "t = {}: s = {} vs angle {p}", r[0], r[15]);
        assert!(r[16] <= 0.0 && r[17].abs() <= h * 0.1 * (1.0 + 1e-12), "t = {}: {r:?}", r[0]);
    }
    assert!(rows.iter().any(|r| r[16] < -1e-3), "the stop acts");
    let top = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    assert!(top <= 0.5 + 1e-10 && top > 0.5 - 1e-6, "max angle {top}");
    let hit = phi.iter().position(|&p| p > 0.5 - 1e-6).unwrap();
    assert!(phi[hit..].iter().any(|&p| p < 0.45), "the arm bounces back from the stop");
}

#[test]
fn mistakes_are_located() {
    let stop = "<JointStopR upper=\"0.5\" e=\"0.5\"/>";
    let fric = "<JointFrictionR max=\"0.1\"/>";
    let at_stop = "Mechanics/Joint[shoulder]/JointStopR";
    let cases: &[(&str, &str, &[&str])] = &[
        (
            stop,
            "<JointStopR dof=\"1\" upper=\"0.5\"/>",
            &["m.xml:8:7:", at_stop, "has 1 coordinate(s), no coordinate 1"],
        ),
        (stop, "<JointStopR e=\"0.5\"/>", &["m.xml:8:7:", at_stop, "give a lower or an upper bound"]),
        (stop, "<JointStopR lower=\"0.6\" upper=\"0.5\"/>", &["m.xml:8:7:", "must be below upper bound"]),
        (stop, "<JointStopR upper=\"0.5\" e=\"2\"/>", &["m.xml:8:7:", "restitution e must be in [0, 1], got 2"]),
        (stop, "<JointStopR upper=\"-0.1\"/>", &["m.xml:8:7:", "outside [-inf, -0.1]"]),
        (stop, "<JointStopR upper=\"inf\"/>", &["m.xml:8:7:", "bounds must be finite"]),
        (
            stop,
            "<JointStopR upper=\"0.5\"/><JointStopR lower=\"0.1\"/>",
            &["m.xml:8:7:", "outside [0.1, inf] (the 2nd one)"],
        ),
        (stop, "<JointStopR uper=\"0.5\"/>", &["m.xml:8:", "`uper` is not an attribute of <JointStopR>"]),
        (
            fric,
            "<JointFrictionR max=\"-1\"/>",
            &["m.xml:9:7:", "Mechanics/Joint[shoulder]/JointFrictionR", "must be finite and >= 0, got -1"],
        ),
        (fric, "<JointFrictionR/>", &["m.xml:9:", "<JointFrictionR> needs the attribute `max`"]),
        (fric, "<JointFriction max=\"1\"/>", &["m.xml:9:", "JointFriction"]),
        (
            "type=\"PivotJointR\" body1=\"arm\" point=\"0 0 1\" axis=\"0 1 0\"",
            "type=\"KneeJointR\" body1=\"arm\" point=\"0 0 1\"",
            &["m.xml:8:7:", at_stop, "(KneeJointR) has 0 coordinate(s)"],
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (from, to, expect) in cases {
        assert!(BASE.contains(from), "case {from}");
        let (code, _, err) = saltus(dir.path(), &BASE.replacen(from, to, 1), &["check"]);
        assert_eq!(code, Some(1), "{from} -> {to}: {err}");
        for e in *expect {
            assert!(err.contains(e), "{from} -> {to}: expected `{e}` in\n{err}");
        }
    }
}

/// `<CouplerJointR>` mistakes (Siconos `CouplerJointR`): located at the coupler's element.
#[test]
fn coupler_mistakes_are_located() {
    let fric = "<JointFrictionR max=\"0.1\"/>";
    let at = "Mechanics/Joint[shoulder]/CouplerJointR";
    let cases: &[(&str, &[&str])] = &[
        (
            "<CouplerJointR joint1=\"elbow\" ratio=\"2\"/>",
            &["m.xml:9:7:", at, "unknown joint `elbow` (declared: shoulder)"],
        ),
        ("<CouplerJointR ratio=\"2\"/>", &["m.xml:9:7:", at, "couples coordinate 0 with itself"]),
        ("<CouplerJointR dof1=\"1\" ratio=\"2\"/>", &["m.xml:9:7:", at, "has 1 coordinate(s), no coordinate 1"]),
        ("<CouplerJointR dof2=\"1\" ratio=\"inf\"/>", &["m.xml:9:7:", at]),
        ("<CouplerJointR dof1=\"0\"/>", &["m.xml:9:", "<CouplerJointR> needs the attribute `ratio`"]),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (to, expect) in cases {
        let (code, _, err) = saltus(dir.path(), &BASE.replacen(fric, to, 1), &["check"]);
        assert_eq!(code, Some(1), "{to}: {err}");
        for e in *expect {
            assert!(err.contains(e), "{to}: expected `{e}` in\n{err}");
        }
    }
}
