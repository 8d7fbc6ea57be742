//! Gallery sample `gear_and_screw` (Siconos `CouplerJointR`), run through the CLI and checked
//! against closed forms:
//! * the gear pair (`θ₂ = −2 θ₁`, wheel 1 driven by τ = 0.5 N m) turns as one body of inertia
//!   `I₁ + r² I₂ = 0.3 kg m²`: `θ₁ = τ t² / (2 · 0.3)`, and `θ₂ + 2 θ₁ = 0` at every row;
//! * the screw (`θ = 5 s`) falls at `a = m g / (m + k² I_zz) = 6.54 m/s²`: `s = −a t² / 2`,
//!   `θ − 5 s = 0` at every row.

mod sample_util;
use sample_util::{run as run_sample, sample, validate_xml};

#[test]
fn gear_and_screw_sample_against_closed_forms() {
    let model = sample("gear_and_screw/gear_and_screw.xml");
    validate_xml(&model);
    let tr = run_sample(&model, &["--strict"]);
    let t = tr.col("t");
    assert_eq!(t.len(), 2001);
    let (g1, g2) = (tr.col("axle2.coupler[0].s1"), tr.col("axle2.coupler[0].s2"));
    let (s, th) = (tr.col("screw.coupler[0].s1"), tr.col("screw.coupler[0].s2"));
    let (tau, i_eff) = (0.5, 0.1 + 4.0 * 0.05);
    let a = 9.81 / (1.0 + 25.0 * 0.02);
    let (mut gear, mut screw, mut res) = (0.0f64, 0.0f64, 0.0f64);
    for k in 0..t.len() {
        gear = gear.max((g1[k] - tau * t[k] * t[k] / (2.0 * i_eff)).abs());
        screw = screw.max((s[k] + 0.5 * a * t[k] * t[k]).abs());
        res = res.max((g2[k] + 2.0 * g1[k]).abs()).max((th[k] - 5.0 * s[k]).abs());
    }
    assert!(g2[t.len() - 1] < -2.0 * std::f64::consts::PI, "wheel 2 turns more than once");
    assert!(gear < 1e-9, "gear angle vs closed form: {gear}");
    assert!(screw < 1e-9, "screw translation vs closed form: {screw}");
    assert!(res < 1e-9, "coupler residual: {res}");
    let v = tr.col("nut.vz");
    assert!((v[t.len() - 1] + a * 2.0).abs() < 1e-9, "nut velocity {}", v[t.len() - 1]);
}

/// The coupler of two joints keeps their first bodies apart, as Siconos's `CouplerJointR` (a
/// joint between them) does, unless `allow_self_collide="true"`: two meshing wheels whose shapes
/// overlap then carry no contact. The screw's coupler (one joint, one body) excludes nothing.
#[test]
fn a_coupler_keeps_its_two_wheels_from_colliding_unless_allowed() {
    use saltus_runtime::xml::{convert_mech::build_mechanics, load_str};
    let text = std::fs::read_to_string(sample("gear_and_screw/gear_and_screw.xml")).unwrap();
    // the wheels' balls (radius 0.2) overlap when their centres are 0.3 apart
    let text = text.replace(r#"translation="1 0 1">"#, r#"translation="0.3 0 1">"#).replace(
        r#"<Sphere name="ball" radius="0.2"/>"#,
        r#"<Sphere name="ball" radius="0.2"/><NewtonImpactFrictionNSL en="0" mu="0.3"/>"#,
    );
    for (attr, linked) in [("", true), (r#" allow_self_collide="true""#, false)] {
        let t = text.replace(r#"ratio="-2"/>"#, &format!(r#"ratio="-2"{attr}/>"#));
        let loaded = load_str(&t, std::path::Path::new("g.xml")).unwrap();
        let built = build_mechanics(&loaded).unwrap();
        let m = &built.model;
        let id = |n: &str| saltus_mechanics::BodyId(m.bodies.iter().position(|b| b.name == n).unwrap() as u32);
        assert_eq!(m.linked(id("wheel1"), id("wheel2")), linked, "{attr}");
        assert!(!m.linked(id("wheel1"), id("nut")) && !m.linked(id("wheel2"), id("nut")));
        let mut sim =
            saltus_mechanics::MechanicsSimulation::new(built.model.clone(), 0.0, 1e-3, built.options.clone()).unwrap();
        let r = sim.step().unwrap();
        assert_eq!(r.n_contacts > 0, !linked, "{attr}: {} contacts", r.n_contacts);
    }
}
