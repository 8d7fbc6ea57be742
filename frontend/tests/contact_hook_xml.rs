//! `<ContactHook>`: the contact normals of a `<Mechanics>` scene from a plugin function (the
//! `tilted_normal` of `plugins/driven_body`, every normal turned by α about y). A frictionless
//! ball dropped on a flat floor then receives all its contact impulses along the tilted normal:
//! its total momentum change from the contacts, `m (v_T − v_0) + m g T ẑ`, is along
//! `(sin α, 0, cos α)`, and it moves off along +x. The file validates against the schema; two
//! hooks, a hook in a 2D scene and a failing plugin are refused with the element named.
mod sample_util;
use sample_util::*;

const ALPHA: f64 = 0.2;

fn model(hook: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0" title="contact hook">
  <Time t0="0" T="0.6"/>
  <Mechanics gravity="0 0 -9.81" margin="0.01">
    <HalfSpace name="floor" normal="0 0 1"/>
    <Sphere name="ball" radius="0.1"/>
    <NewtonImpactFrictionNSL en="0" mu="0"/>
    {hook}
    <RigidBody name="ground" kind="static"><Contactor shape="floor"/></RigidBody>
    <RigidBody name="b" mass="2" inertia="0.008 0.008 0.008" translation="0 0 0.3"><Contactor shape="ball"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-12" max_iter="1000"/></FrictionContact></OneStepNSProblem>
  </Simulation>
</Model>
"#
    )
}

#[test]
fn the_plugin_tilts_every_contact_impulse() {
    let dir = build_plugin("saltus-plugin-driven-body");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hook.xml");
    let hook =
        format!(r#"<ContactHook library="saltus_plugin_driven_body" function="tilted_normal" params="{ALPHA}"/>"#);
    std::fs::write(&file, model(&hook)).unwrap();
    validate_xml(&file);
    let tr = run(&file, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let n = tr.len() - 1;
    let (m, g, t_end) = (2.0, 9.81, 0.6);
    let (vx, vy, vz) = (tr.col("b.vx")[n], tr.col("b.vy")[n], tr.col("b.vz")[n]);
    let p = [m * vx, m * vy, m * vz + m * g * t_end]; // the contacts' impulse over the run
    assert!(p[2] > 0.5, "no impact: {p:?}");
    assert!((p[0] / p[2] - ALPHA.tan()).abs() < 1e-9, "impulse {p:?} not along the tilted normal");
    assert!(p[1].abs() < 1e-12);
    assert!(tr.col("b.x")[n] > 0.01 && vx > 0.1, "x {} vx {vx}", tr.col("b.x")[n]);
    // without the hook the ball does not move sideways
    std::fs::write(&file, model("")).unwrap();
    let plain = run(&file, &[]);
    assert!(plain.col("b.vx").iter().all(|&v| v == 0.0));
}

#[test]
fn contact_hook_errors_name_the_element() {
    let dir = build_plugin("saltus-plugin-driven-body");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("bad.xml");
    let d = dir.to_str().unwrap();
    let hook = |f: &str, params: &str| {
        format!(r#"<ContactHook library="saltus_plugin_driven_body" function="{f}" params="{params}"/>"#)
    };
    for (text, want) in [
        (model(&format!("{}{}", hook("tilted_normal", "0.1"), hook("tilted_normal", "0.1"))), "one <ContactHook>"),
        (model(&hook("tilted_normal", "0.1 0.2")), "Mechanics/ContactHook"),
        (model(&hook("no_such_function", "0.1")), "no_such_function"),
    ] {
        std::fs::write(&file, text).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_saltus"))
            .args(["check", file.to_str().unwrap(), "--plugin-dir", d])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(want) && err.contains("bad.xml:"), "{want}: {err}");
    }
}
