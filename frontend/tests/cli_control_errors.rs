//! `<Control>` models with mistakes: `saltus check` and `saltus run` exit 1 with a message that
//! says what and where (element path, line:column), and never panic.
mod common;

use std::process::{Command, Output};

fn saltus(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn smc_text() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/smc_double_integrator/model.xml")).unwrap()
}

/// Writes `text` in a fresh dir, runs `saltus check` and `saltus run` on it, and checks both fail
/// with exit code 1 and every needle in stderr.
fn assert_rejected(text: &str, needles: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("model.xml");
    let out = tmp.path().join("out.csv");
    std::fs::write(&p, text).unwrap();
    for args in
        [vec!["check".as_ref(), p.as_os_str()], vec!["run".as_ref(), p.as_os_str(), "-o".as_ref(), out.as_os_str()]]
    {
        let o = saltus(&args);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "exit code, stderr:\n{e}");
        assert!(!e.contains("panicked"), "{e}");
        for n in needles {
            assert!(e.contains(n), "missing `{n}` in:\n{e}");
        }
        assert!(!out.exists(), "no output for a rejected model");
    }
}

#[test]
fn unknown_sensor_is_named_with_the_known_ones() {
    let t = smc_text().replace(r#"sensor="state""#, r#"sensor="statee""#);
    assert_rejected(&t, &["Control/LinearSMC[smc]", "unknown sensor `statee` (known: state)", "model.xml:"]);
}

#[test]
fn period_must_be_a_multiple_of_the_plant_step() {
    let t = smc_text().replace(r#"alpha="2">"#, r#"alpha="2" period="0.0125">"#);
    assert_rejected(&t, &["Control/LinearSMC[smc]", "must be a positive multiple of the plant step"]);
}

#[test]
fn singular_sliding_surface_is_refused() {
    // C_s B = [1 0] [0 1]ᵀ = 0
    let t = smc_text()
        .replace(r#"<Csurface rows="1" cols="2">1 1</Csurface>"#, r#"<Csurface rows="1" cols="2">1 0</Csurface>"#);
    assert_rejected(&t, &["Control/LinearSMC[smc]", "Csurface B", "singular"]);
}

#[test]
fn sliding_mode_needs_the_full_state() {
    let t = smc_text().replace(
        r#"<LinearSensor name="state"/>"#,
        r#"<LinearSensor name="state"><C rows="1" cols="2">1 0</C></LinearSensor>"#,
    );
    assert_rejected(&t, &["needs the full state"]);
}

#[test]
fn bad_shapes_and_gains_are_refused() {
    let t = smc_text().replace(r#"<B rows="2" cols="1">0 1</B>"#, r#"<B rows="1" cols="1">1</B>"#);
    assert_rejected(&t, &["Control/LinearSMC[smc]", "B is 1x1, expected 2x1"]);
    let t = smc_text().replace(r#"alpha="2""#, r#"alpha="-1""#);
    assert_rejected(&t, &["alpha = -1 must be finite and > 0"]);
    let t = smc_text().replace(r#"h_c="1e-2""#, r#"h_c="0""#);
    assert_rejected(&t, &["h_c must be finite and > 0"]);
}

#[test]
fn a_control_model_has_one_simulation_and_no_interaction() {
    let t = smc_text().replace(
        "</NSDS>",
        r#"<Interaction name="r" ds="plant"><Relation><FirstOrderLinearTIR><C rows="1" cols="2">0 1</C><B rows="2" cols="1">0 1</B></FirstOrderLinearTIR></Relation><NonSmoothLaw><RelayNSL><lb>-1</lb><ub>1</ub></RelayNSL></NonSmoothLaw></Interaction></NSDS>"#,
    );
    assert_rejected(&t, &["no interaction"]);
    let t = smc_text().replace(r#"ds="plant""#, r#"ds="nope""#);
    assert_rejected(&t, &["no first-order linear plant (named by `ds`)"]);
}

#[test]
fn duplicate_names_are_refused() {
    let t = smc_text().replace(r#"<LinearSMC name="smc""#, r#"<LinearSMC name="state""#);
    assert_rejected(&t, &["an element named `state` already exists"]);
}

fn sample_text(rel: &str) -> String {
    std::fs::read_to_string(common::workspace_root().join("samples").join(rel)).unwrap()
}

/// `<ControlManager>` inside `<Simulation>`: the plant is named and of a kind a controller can
/// drive; every refusal names `Simulation/ControlManager` and the reason.
#[test]
fn control_manager_plants_are_checked() {
    let kernel = sample_text("smc_with_friction/model.xml");
    assert_rejected(
        &kernel.replace(r#"<ControlManager ds="mass""#, r#"<ControlManager ds="mas""#),
        &["Simulation/ControlManager", "unknown dynamical system `mas` (known: mass)"],
    );
    assert_rejected(
        &kernel.replace(r#"<ControlManager ds="mass""#, r#"<ControlManager body="mass""#),
        &["Simulation/ControlManager", "`body` names a rigid body"],
    );
    assert_rejected(
        &kernel.replace(r#"sensor="state" alpha="2">"#, r#"sensor="state" alpha="2" period="0.0125">"#),
        &["Simulation/ControlManager/LinearSMC[smc]", "multiple of the plant step"],
    );
    let scene = sample_text("smc_with_friction/box.xml");
    assert_rejected(
        &scene.replace(r#"<ControlManager body="box""#, r#"<ControlManager body="boxx""#),
        &["Simulation/ControlManager", "unknown body `boxx`"],
    );
    assert_rejected(
        &scene.replace(r#"<ControlManager body="box""#, r#"<ControlManager body="ground""#),
        &["Simulation/ControlManager", "not dynamic"],
    );
    // a controller cannot set a position: B's first three rows are zero
    assert_rejected(
        &scene.replace(r#"<B rows="6" cols="1">0 0 0 1 0 0</B>"#, r#"<B rows="6" cols="1">1 0 0 1 0 0</B>"#),
        &["Simulation/ControlManager", "rows 0–2 of B must be zero"],
    );
}

/// A Lagrangian plant (`<ControlManager ds>` on a `LagrangianLinearTIDS` or a `NewtonEulerDS`):
/// its state is `(q, v)`, an actuator's `B` may not drive a position, and a plant without a
/// linear model (a rigid body) takes no sliding-mode controller.
#[test]
fn lagrangian_plants_are_checked() {
    let ts = sample_text("smc_double_integrator/model_time_stepping.xml");
    let start = ts.find("<FirstOrderLinearTIDS").unwrap();
    let end = ts.find("</FirstOrderLinearTIDS>").unwrap() + "</FirstOrderLinearTIDS>".len();
    let plant = r#"<LagrangianLinearTIDS name="plant"><q0>1</q0><v0>0</v0><Mass rows="1" cols="1">2</Mass></LagrangianLinearTIDS>"#;
    let lag = format!("{}{plant}{}", &ts[..start], &ts[end..])
        .replace(r#"<EulerMoreauOSI theta="0.5"/>"#, r#"<MoreauJeanOSI theta="0.5"/>"#);
    assert_rejected(
        &lag.replace(r#"<B rows="2" cols="1">0 1</B>"#, r#"<B rows="2" cols="1">1 1</B>"#),
        &["Simulation/ControlManager", "row 0 of B must be zero", "its velocity, row 1"],
    );
    let body = r#"<NewtonEulerDS name="plant" mass="1"><q0>1 0 0 1 0 0 0</q0><v0>0 0 0 0 0 0</v0><Inertia rows="3" cols="3">1 0 0 0 1 0 0 0 1</Inertia></NewtonEulerDS>"#;
    let rigid = format!("{}{body}{}", &ts[..start], &ts[end..])
        .replace(r#"<EulerMoreauOSI theta="0.5"/>"#, r#"<MoreauJeanOSI theta="0.5"/>"#)
        .replace(
            r#"<Csurface rows="1" cols="2">1 1</Csurface>"#,
            r#"<Csurface rows="1" cols="13">1 0 0 0 0 0 0 1 0 0 0 0 0</Csurface>"#,
        )
        .replace(r#"<B rows="2" cols="1">0 1</B>"#, r#"<B rows="13" cols="1">0 0 0 0 0 0 0 1 0 0 0 0 0</B>"#);
    assert_rejected(&rigid, &["Simulation/ControlManager/LinearSMC[smc]", "linear model"]);
}
