//! `samples/height_map`: a `<HeightMap>` and a `<Contactor group>` are read into the scene (the
//! roller's contactor in group 2 while its body stays in group 0), written back by
//! `scene_to_xml` and read again to the same shapes, groups and laws; through `saltus run` the
//! slider slides at `g (sin α − μ cos α)` and the roller rolls at `(5/7) g sin α` (the law of
//! each contact from its contactors' groups).

mod mech_util;

use mech_util::{saltus_on_text, sample};
use saltus_mechanics::scenes::Scene;
use saltus_runtime::xml::convert_mech::build_mechanics;
use saltus_runtime::xml::mech_writer::scene_to_xml;
use saltus_runtime::xml::{load_file, load_str};

#[test]
fn groups_and_height_map_round_trip() {
    let path = sample("height_map/height_map.xml");
    let b = build_mechanics(&load_file(&path).unwrap()).unwrap();
    let scene = Scene { model: b.model, h: b.h, t_end: b.t_end, options: b.options };
    let groups: Vec<u32> = scene.model.colliders.iter().map(|c| c.group).collect();
    assert_eq!(groups, vec![1, 0, 2]);
    let body_groups: Vec<u32> = scene.model.bodies.iter().map(|b| b.group).collect();
    assert_eq!(body_groups, vec![1, 0, 0]);
    assert_eq!(scene.model.law(0, 1).unwrap().mu, 0.1);
    assert_eq!(scene.model.law(2, 1).unwrap().mu, 0.5);
    assert!(scene.model.law(0, 2).is_none());
    let text = scene_to_xml(&scene, "t").unwrap();
    assert!(text.contains(r#"<Contactor shape="Sphere1" group="2"/>"#), "{text}");
    let again = build_mechanics(&load_str(&text, &path).unwrap()).unwrap();
    let again = Scene { model: again.model, h: again.h, t_end: again.t_end, options: again.options };
    let g2: Vec<u32> = again.model.colliders.iter().map(|c| c.group).collect();
    assert_eq!(g2, groups);
    let descs = |s: &Scene| s.model.colliders.iter().map(|c| c.desc.clone()).collect::<Vec<_>>();
    assert_eq!(descs(&again), descs(&scene));
}

#[test]
fn slider_and_roller_follow_their_laws() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample("height_map/height_map.xml")).unwrap();
    let (code, _, err) = saltus_on_text(tmp.path(), &text, &["run", "-q", "-o", "out.csv"]);
    assert_eq!(code, Some(0), "{err}");
    let csv = std::fs::read_to_string(tmp.path().join("out.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let last: Vec<f64> = lines.last().unwrap().split(',').map(|x| x.parse().unwrap()).collect();
    let col = |n: &str| last[head.iter().position(|h| *h == n).unwrap_or_else(|| panic!("no column {n}"))];
    let (g, t) = (9.81, col("t"));
    let (sin_a, cos_a) = (0.5 / 1.25f64.sqrt(), 1.0 / 1.25f64.sqrt());
    for (name, acc) in [("slider", g * (sin_a - 0.1 * cos_a)), ("roller", 5.0 / 7.0 * g * sin_a)] {
        // down the slope z = −x/2: (cos α, 0, −sin α)
        let v = col(&format!("{name}.vx")) * cos_a - col(&format!("{name}.vz")) * sin_a;
        assert!((v - acc * t).abs() < 1e-9 * acc * t, "{name}: v = {v}, closed form {}", acc * t);
    }
}
