//! Gallery sample `driven_body`: a user force from a plugin (`<ExternalForce>`, the spring-damper
//! of `plugins/driven_body`) and prescribed velocities (`<BoundaryCondition type="HarmonicBC">`).
//! Checks against closed forms:
//! * the bob settles at the spring's equilibrium `z = 1 − m g / k` and its spin, under the
//!   rotational damper `τ = −c_r Ω` evaluated at the start twist, decays as `(1 − h c_r/I)^n`;
//! * the plate's velocity is `0.3 cos(2π t)` at every step end (its whole twist prescribed);
//! * the block on it sticks (peak plate acceleration 1.88 m/s² < μ g), moving with the plate;
//! * XML errors on `<ExternalForce>` and `<BoundaryCondition>` name the element.
mod sample_util;
use saltus_runtime::xml::convert_mech::build_mechanics_with;
use saltus_runtime::xml::load_str;
use sample_util::*;

const H: f64 = 1e-3;

fn text() -> String {
    std::fs::read_to_string(sample("driven_body/driven_body.xml")).unwrap()
}

#[test]
fn spring_damper_settles_and_the_shaker_follows_its_law() {
    let dir = build_plugin("saltus-plugin-driven-body");
    let model = sample("driven_body/driven_body.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    assert_eq!(tr.len(), 4001);
    let n = tr.len() - 1;
    let (t, z, wz) = (tr.col("t"), tr.col("bob.z"), tr.col("bob.wz"));
    let z_eq = 1.0 - 0.5 * 9.81 / 50.0;
    assert!((z[n] - z_eq).abs() < 1e-4, "bob z {} vs {z_eq}", z[n]);
    let rate: f64 = 5e-4 / 5e-4; // c_r / I
    for k in [1, 100, 4000] {
        let expect = 5.0 * (1.0 - H * rate).powi(k as i32);
        assert!((wz[k] - expect).abs() <= 1e-12 * 5.0, "step {k}: {} vs {expect}", wz[k]);
    }
    let (pv, bv, bz) = (tr.col("plate.vx"), tr.col("block.vx"), tr.col("block.z"));
    for k in 0..=n {
        let v = 0.3 * (2.0 * std::f64::consts::PI * t[k]).cos();
        // exact at the simulation's own time t0 + h + … + h (k additions, within k ulps of the
        // CSV's t, the double nearest to k h): |Δv| ≤ 0.3·2π·k·ε·t
        let tol = 0.3 * 2.0 * std::f64::consts::PI * (k as f64) * f64::EPSILON * t[k].max(1e-3);
        assert!((pv[k] - v).abs() <= tol + 1e-16, "step {k}: plate vx {} vs {v}", pv[k]);
        assert!((bv[k] - pv[k]).abs() <= 1e-9, "step {k}: the block slips: {} vs {}", bv[k], pv[k]);
        assert!((bz[k] - 0.15).abs() <= 1e-9);
    }
    for c in ["plate.vy", "plate.vz", "plate.wx", "plate.wy", "plate.wz"] {
        assert!(tr.col(c).iter().all(|&x| x == 0.0), "{c}");
    }
}

fn build_err(text: &str) -> String {
    let dir = build_plugin("saltus-plugin-driven-body");
    let loaded = load_str(text, &sample("driven_body/edited.xml")).map_err(|e| e.to_string());
    match loaded {
        Err(e) => e,
        Ok(l) => match build_mechanics_with(&l, vec![dir], Default::default()) {
            Ok(_) => "built".into(),
            Err(e) => e.to_string(),
        },
    }
}

#[test]
fn bad_loads_are_located_errors() {
    let t = text();
    let cases = [
        (("indices=\"0 1 2 3 4 5\"", "indices=\"0 6\""), "twist components"),
        (("b=\"0.3 0 0 0 0 0\"", "b=\"0.3 0\""), "`b` has 2 values"),
        (("type=\"HarmonicBC\"", "type=\"FixedBC\""), "takes no `a`"),
        (("function=\"spring_damper\"", "function=\"missing\""), "missing"),
        (("params=\"50 2 0 0 1 0.0005\"", "params=\"50\""), "status 1"),
    ];
    for ((from, to), want) in cases {
        let e = build_err(&edit(&t, &[(from, to)]));
        assert!(e.contains(want), "{to}: {e}");
        assert!(e.contains("RigidBody"), "{to}: located: {e}");
    }
    let e = build_err(&t.replace(
        "<RigidBody name=\"block\"",
        "<RigidBody name=\"wall\" kind=\"static\"><Contactor shape=\"cube\"/><BoundaryCondition indices=\"0\" type=\"FixedBC\"/></RigidBody>\n    <RigidBody name=\"block\"",
    ));
    assert!(e.contains("only dynamic bodies"), "{e}");
    assert_eq!(build_err(&t), "built");
}

/// `<BoundaryCondition type="Function">`: the plate's vx from the plugin time function `ramp`
/// (`vx = 0.5 t`), its other components free (it falls under gravity: the block rides along).
#[test]
fn plugin_prescribed_velocity() {
    let dir = build_plugin("saltus-plugin-driven-body");
    let text = edit(
        &text(),
        &[(
            r#"<BoundaryCondition indices="0 1 2 3 4 5" type="HarmonicBC" a="0" b="0.3 0 0 0 0 0" omega="6.283185307179586" phi="0"/>"#,
            r#"<BoundaryCondition indices="0" type="Function" library="saltus_plugin_driven_body" function="ramp" params="0.5"/>"#,
        )],
    );
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("ramp.xml");
    std::fs::write(&model, text).unwrap();
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir"), "--every", "100"]);
    let (t, vx, vz) = (tr.col("t"), tr.col("plate.vx"), tr.col("plate.vz"));
    for k in 1..tr.len() {
        assert!((vx[k] - 0.5 * t[k]).abs() <= 1e-12, "t {}: vx {}", t[k], vx[k]);
    }
    let n = tr.len() - 1;
    assert!((vz[n] + 9.81 * t[n]).abs() <= 1e-9, "free fall along z: {}", vz[n]);
}
