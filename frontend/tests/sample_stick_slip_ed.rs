//! Gallery sample `stick_slip_ed`: a block on a plane with Coulomb friction under
//! `F(t) = F0 sin(ω t)`, event driven, against the closed-form stick–slip motion (event times to
//! 1e-10, x and v to 1e-9, the contact forces of every row), and the Moreau–Jean run of the
//! same model (`stick_slip_ts.xml`) within its first-order error of it.
mod sample_util;
#[path = "../../kernel/tests/stick_slip_closed_form/mod.rs"]
mod stick_slip_closed_form;
use sample_util::*;
use stick_slip_closed_form::{Reference, G};

const M: f64 = 1.0;
const MU: f64 = 0.3;
const F0: f64 = 5.0;
const OMEGA: f64 = std::f64::consts::PI;
const T: f64 = 4.0;

fn plugin_args(dir: &std::path::Path) -> [&str; 2] {
    ["--plugin-dir", dir.to_str().expect("utf-8 target dir")]
}

#[test]
fn stick_slip_event_driven_against_closed_form() {
    let dir = build_plugin("saltus-plugin-bouncing-ball");
    let model = sample("stick_slip_ed/stick_slip_ed.xml");
    validate_xml(&model);
    let tr = run(&model, &plugin_args(&dir));
    let reference = Reference::new(M, MU, F0, OMEGA, T);
    let (t, x, v, kind) = (tr.col("t"), tr.col("block.q[0]"), tr.col("block.v[0]"), tr.col("kind"));
    let (z, l_n, l_t) = (tr.col("block.q[1]"), tr.col("ground.lambda[0]"), tr.col("ground.lambda[1]"));
    // every mode change is an event (rows 1 and 2, no impulse), at the closed-form time
    let events: Vec<f64> = (0..tr.len()).filter(|&i| kind[i] == 1.0).map(|i| t[i]).collect();
    let switches = reference.switches(T);
    assert_eq!(events.len(), switches.len(), "{events:?} vs {switches:?}");
    for (te, (tr_, _)) in events.iter().zip(&switches) {
        assert!((te - tr_).abs() < 1e-10, "event at {te}, closed form {tr_}");
    }
    let td: Vec<usize> = (0..tr.len()).filter(|&i| kind[i] == 0.0).collect();
    assert_eq!(td.len(), 400);
    for &i in &td {
        let (xr, vr) = reference.state(t[i]);
        assert!(
            (x[i] - xr).abs() < 1e-9 && (v[i] - vr).abs() < 1e-9,
            "t = {}: ({}, {}) vs ({xr}, {vr})",
            t[i],
            x[i],
            v[i]
        );
        assert!(z[i].abs() < 1e-12, "on the plane");
        // λ_N = m g; sticking, λ_T balances F; slipping, λ_T = −μ m g sign v
        assert!((l_n[i] - M * G).abs() < 1e-9, "λ_N at {}", t[i]);
        let f = F0 * (OMEGA * t[i]).sin();
        let want = if v[i].abs() < 1e-12 { -f } else { -MU * M * G * v[i].signum() };
        assert!((l_t[i] - want).abs() < 1e-9, "λ_T at {}: {} vs {want}", t[i], l_t[i]);
    }
    for i in (0..tr.len()).filter(|&i| kind[i] == 2.0) {
        assert_eq!((l_n[i], l_t[i]), (0.0, 0.0), "no impulse at the event at {}", t[i]);
    }
}

#[test]
fn stick_slip_time_stepping_close_to_closed_form() {
    let dir = build_plugin("saltus-plugin-bouncing-ball");
    let model = sample("stick_slip_ed/stick_slip_ts.xml");
    validate_xml(&model);
    let tr = run(&model, &plugin_args(&dir));
    let reference = Reference::new(M, MU, F0, OMEGA, T);
    let (t, x, v) = (tr.col("t"), tr.col("block.q[0]"), tr.col("block.v[0]"));
    assert_eq!(tr.len(), 4001);
    let (mut ex, mut ev) = (0.0f64, 0.0f64);
    for i in 0..tr.len() {
        let (xr, vr) = reference.state(t[i]);
        ex = ex.max((x[i] - xr).abs());
        ev = ev.max((v[i] - vr).abs());
    }
    // h = 1e-3, every step: 2.4e-6 and 3.0e-6 measured (the kernel test
    // `time_stepping_converges_to_event_driven` shows these errors fall at least like h)
    assert!(ex < 5e-6 && ev < 1e-5, "max |x − x_ref| = {ex:.3e}, max |v − v_ref| = {ev:.3e}");
    println!("Moreau–Jean h = 1e-3: max |x − x_ref| = {ex:.3e}, max |v − v_ref| = {ev:.3e}");
}

/// Event driven takes planar friction only: `dim="3"` is refused before the run, at the interaction.
#[test]
fn event_driven_refuses_3d_friction_at_the_interaction() {
    let text = std::fs::read_to_string(sample("stick_slip_ed/stick_slip_ed.xml")).unwrap();
    let text = text
        .replace(r#"dim="2""#, r#"dim="3""#)
        .replace(r#"<H rows="2" cols="2">0 1 1 0</H>"#, r#"<H rows="3" cols="2">0 1 1 0 0 0</H>"#);
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("friction3d.xml");
    std::fs::write(&model, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&model).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("friction3d.xml:20:5") && err.contains("NSDS/Interaction[ground]"), "{err}");
    assert!(err.contains("NewtonImpactFrictionNSL of dimension 2"), "{err}");
}
