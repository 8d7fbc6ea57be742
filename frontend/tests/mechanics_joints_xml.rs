//! `<Joint>` in a `<Mechanics>` model: every mistake is reported before the run by `saltus check`
//! with `file:line:column`, the element path and what is wrong (exit code 1); a valid model runs
//! and writes the joints' violation columns.

mod mech_util;

use mech_util::saltus_on_text as saltus;

const BASE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.05"/>
  <Mechanics gravity="0 0 -9.81" margin="0.01">
    <Sphere name="ball" radius="0.05"/>
    <RigidBody name="base" kind="static"><Contactor shape="ball"/></RigidBody>
    <RigidBody name="arm" mass="1" inertia="0.01 0.01 0.01" translation="0.5 0 1"><Contactor shape="ball"/></RigidBody>
    <RigidBody name="fore" mass="1" inertia="0.01 0.01 0.01" translation="1 0 1"><Contactor shape="ball"/></RigidBody>
    <Joint name="shoulder" type="PivotJointR" body1="arm" point="0 0 1" axis="0 1 0"/>
    <Joint name="elbow" type="KneeJointR" body1="arm" body2="fore" point="0.75 0 1"/>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><GenericMechanical><GaussSeidel tol="1e-10"/></GenericMechanical></OneStepNSProblem>
    <Projection tol="1e-12"/>
  </Simulation>
</Model>
"#;

#[test]
fn the_base_model_checks() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = saltus(dir.path(), BASE, &["check", "--strict"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("2 joints; GenericMechanical GaussSeidel, projection tol = 1e-12"), "{out}");
}

/// The run writes `NAME.violation` after the body columns; with the projection every joint is
/// on its manifold to 1e-10 at every row, and the pendulum falls (the elbow moves down).
#[test]
fn a_run_writes_the_joint_violations() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = saltus(dir.path(), BASE, &["run", "-o", "out.csv", "--quiet"]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(dir.path().join("out.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header.len(), 1 + 2 * 13 + 2, "{header:?}");
    assert_eq!(&header[27..], &["shoulder.violation", "elbow.violation"]);
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 51);
    for r in &rows {
        assert!(r[27] < 1e-10 && r[28] < 1e-10, "violation at t = {}: {} {}", r[0], r[27], r[28]);
        // The shoulder keeps the arm's centre at 0.5 from the pivot (0, 0, 1).
        let d = ((r[1]).powi(2) + r[2].powi(2) + (r[3] - 1.0).powi(2)).sqrt();
        assert!((d - 0.5).abs() < 1e-10, "arm at {d} from the pivot at t = {}", r[0]);
    }
    let last = rows.last().unwrap();
    assert!(last[16] < 1.0 - 1e-3, "the forearm fell: z = {}", last[16]);
}

#[test]
fn mistakes_are_located() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "type=\"PivotJointR\"",
            "type=\"Pivot\"",
            &["m.xml:9:5:", "Mechanics/Joint[shoulder]", "`type` must be one of KneeJointR, PivotJointR", "`Pivot`"],
        ),
        ("axis=\"0 1 0\"", "axis=\"0 0 0\"", &["m.xml:9:5:", "Mechanics/Joint[shoulder]", "`axis` must be a non-zero"]),
        ("axis=\"0 1 0\"", "axis=\"0 inf 0\"", &["m.xml:9:5:", "`axis`", "not finite"]),
        ("axis=\"0 1 0\"", "axis=\"0 1\"", &["m.xml:9:5:", "`axis` has 2 numbers, expected 3"]),
        (" axis=\"0 1 0\"", "", &["m.xml:9:5:", "a PivotJointR needs `axis`"]),
        (" point=\"0 0 1\"", "", &["m.xml:9:5:", "a PivotJointR needs `point`"]),
        ("point=\"0.75 0 1\"", "point=\"0.75 0 1\" axis=\"1 0 0\"", &["m.xml:10:5:", "a KneeJointR takes no `axis`"]),
        (
            "type=\"KneeJointR\" body1=\"arm\" body2=\"fore\" point=\"0.75 0 1\"",
            "type=\"PrismaticJointR\" body1=\"arm\" body2=\"fore\" point=\"0.75 0 1\" axis=\"1 0 0\"",
            &["m.xml:10:5:", "Mechanics/Joint[elbow]", "a PrismaticJointR takes no `point`"],
        ),
        (
            "type=\"KneeJointR\" body1=\"arm\" body2=\"fore\" point=\"0.75 0 1\"",
            "type=\"FixedJointR\" body1=\"arm\" body2=\"fore\" point=\"0.75 0 1\"",
            &["m.xml:10:5:", "a FixedJointR takes no `point`"],
        ),
        (
            "body1=\"arm\" point=\"0 0 1\"",
            "body1=\"arn\" point=\"0 0 1\"",
            &["m.xml:9:5:", "`body1`: unknown body `arn` (declared: base, arm, fore)"],
        ),
        ("body2=\"fore\"", "body2=\"for\"", &["m.xml:10:5:", "`body2`: unknown body `for`"]),
        ("body2=\"fore\"", "body2=\"arm\"", &["m.xml:10:5:", "Mechanics/Joint[elbow]", "the same body `arm`"]),
        (
            "body1=\"arm\" point=\"0 0 1\"",
            "body1=\"base\" point=\"0 0 1\"",
            &["m.xml:9:5:", "neither `base` nor the world is a dynamic body"],
        ),
        ("body1=\"arm\" body2=\"fore\"", "body1=\"base\" body2=\"base\"", &["m.xml:10:5:", "the same body `base`"]),
        (
            "name=\"elbow\"",
            "name=\"shoulder\"",
            &["Mechanics/Joint[shoulder]", "a joint named `shoulder` is already declared"],
        ),
        (
            "point=\"0.75 0 1\"",
            "point=\"0.75 0 1\" axsi=\"1 0 0\"",
            &["m.xml:10:", "`axsi` is not an attribute of <Joint>"],
        ),
        (" body1=\"arm\" point=\"0 0 1\"", " point=\"0 0 1\"", &["m.xml:9:", "<Joint> needs the attribute `body1`"]),
        (
            "<Projection tol=\"1e-12\"/>",
            "<Projection tol=\"0\"/>",
            &["m.xml:16:5:", "Simulation/Projection", "`tol` must be finite and > 0"],
        ),
        (
            "<Projection tol=\"1e-12\"/>",
            "<Projection max_iter=\"0\"/>",
            &["m.xml:16:5:", "`max_iter` must be at least 1"],
        ),
        (
            "<GenericMechanical><GaussSeidel tol=\"1e-10\"/></GenericMechanical>",
            "<FrictionContact dim=\"3\"><NsgsAc/></FrictionContact>",
            &["m.xml:15:5:", "Simulation/OneStepNSProblem", "with <Joint>s solves a <GenericMechanical> problem"],
        ),
        (
            "<MoreauJeanOSI theta=\"0.5\"/>",
            "<MoreauJeanGOSI theta=\"0.5\"/>",
            &["MoreauJeanGOSI", "<GenericMechanical> problem, which has no global form"],
        ),
        (
            "<GenericMechanical>",
            "<GenericMechanical storage=\"sparse\">",
            &["m.xml:15:23:", "GenericMechanical", "dense W"],
        ),
        (
            "<GaussSeidel tol=\"1e-10\"/>",
            "<GaussSeidel tol=\"1e-10\" warm_start=\"false\"/>",
            &["GenericMechanical", "`warm_start` cannot be false"],
        ),
        ("<GaussSeidel tol=\"1e-10\"/>", "<GaussSeidel tol=\"-1\"/>", &["GenericMechanical/GaussSeidel", "tol"]),
        ("</OneStepNSProblem>", "</OneStepNSProblem><Newton/>", &["Simulation/Newton", "does not apply"]),
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

/// Without joints the scene keeps its FrictionContact problem: `<GenericMechanical>` and
/// `<Projection contacts="false">` (nothing to project) are refused with the reason.
#[test]
fn joint_options_without_joints_are_refused() {
    let no_joints: String = BASE.lines().filter(|l| !l.contains("<Joint ")).collect::<Vec<_>>().join("\n");
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = saltus(dir.path(), &no_joints, &["check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("m.xml:13:5:") && err.contains("<GenericMechanical> is for scenes with <Joint>s"), "{err}");
    let fc = no_joints.replace(
        "<GenericMechanical><GaussSeidel tol=\"1e-10\"/></GenericMechanical>",
        "<FrictionContact dim=\"3\"><NsgsAc/></FrictionContact>",
    );
    let joints_only = fc.replace("<Projection tol=\"1e-12\"/>", "<Projection tol=\"1e-12\" contacts=\"false\"/>");
    let (code, _, err) = saltus(dir.path(), &joints_only, &["check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("m.xml:14:5:") && err.contains("this <Mechanics> scene has no <Joint>"), "{err}");
    // without joints, <Projection> projects onto the contacts (issue 27)
    let (code, _, err) = saltus(dir.path(), &fc, &["check"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = saltus(dir.path(), &fc.replace("<Projection tol=\"1e-12\"/>", ""), &["check"]);
    assert_eq!(code, Some(0), "{err}");
}

/// The XSD's enumeration of `<Joint type>` is exactly the registered joint types
/// (`JointType::NAMES`, in registration order): a type registered in the library and not in the
/// schema (or the reverse) fails here.
#[test]
fn schema_joint_types_are_the_registered_ones() {
    let xsd = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/saltus-model.xsd")).unwrap();
    let start = xsd.find(r#"<xs:complexType name="Joint">"#).expect("the Joint type");
    let end = start + xsd[start..].find("</xs:complexType>").expect("its end");
    let names: Vec<&str> = xsd[start..end]
        .split(r#"<xs:enumeration value=""#)
        .skip(1)
        .map(|s| &s[..s.find('"').expect("closing quote")])
        .collect();
    assert_eq!(names, saltus_mechanics::JointType::NAMES);
}
