//! `saltus view`: the page for a built-in scene (its embedded frames are the run's poses), and
//! the usage and input errors.

use std::process::Command;

fn saltus(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

#[test]
fn view_writes_a_self_contained_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.html");
    let o = saltus(&[
        "view",
        "--scene",
        "spheres_in_a_box",
        "--n",
        "8",
        "--t",
        "0.05",
        "--every",
        "10",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    // 8 spheres + ground + walls; 50 steps; frames at 0, 10, …, 50.
    assert!(said.contains("10 bodies, 50 steps, 6 frames"), "{said}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(!html.contains("FRAMES_BASE64") && !html.contains("/*SCENE*/null"), "placeholders filled");
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("<script src"), "no network");
    // Six recorded times from 0 to 0.05.
    let times = html.split("\"times\":[").nth(1).unwrap().split(']').next().unwrap();
    let t: Vec<f64> = times.split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(t.len(), 6);
    assert!(t.iter().enumerate().all(|(k, &t)| (t - 0.01 * k as f64).abs() < 1e-12), "{t:?}");
}

#[test]
fn view_errors() {
    let o = saltus(&["view", "--scene", "nope", "-o", "x.html"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown scene `nope`"));
    let o = saltus(&["view", "--scene", "spheres_in_a_box", "-o", "x.htm"]);
    assert_eq!(o.status.code(), Some(2));
    let o = saltus(&["view", "model.xml", "-o", "x.html"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("model file not found"));
    let o = saltus(&["view", "--scene", "spheres_in_a_box", "--t", "-1", "-o", "x.html"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A `<Mechanics>` model file plays like the built-in scene it was written from.
#[test]
fn view_plays_a_model_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.html");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let model = root.join("samples/spheres_in_a_box/spheres_in_a_box_125.xml");
    let o = saltus(&["view", model.to_str().unwrap(), "--t", "0.02", "--every", "5", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("127 bodies, 20 steps, 5 frames"), "{said}");
    // a model without <Mechanics> is refused with a reason
    let ball = root.join("samples/bouncing_ball/bouncing_ball_ts.xml");
    let o = saltus(&["view", ball.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("plays <Mechanics> scenes"));
}
