//! The 3D view in a real headless browser (Debian's chromium): the page for 27 falling spheres
//! reports that WebGL drew the first frame, and its screenshot is not blank.

use saltus_mechanics::shape::{Cuboid, Sphere};
use saltus_mechanics::{scenes, view::Recording};
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn run(browser: &Path, profile: &Path, extra: &[String], url: &str) -> std::process::Output {
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--use-gl=swiftshader",
        "--enable-unsafe-swiftshader",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--virtual-time-budget=3000",
        "--window-size=800,600",
    ]);
    cmd.arg(format!("--user-data-dir={}", profile.display())).args(extra).arg(url);
    cmd.output().expect("chromium runs")
}

#[test]
fn page_draws_spheres_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: chromium not installed (apt-get install -y chromium)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let scene = scenes::spheres_in_a_box(27, 1).unwrap();
    let n_bodies = scene.model.n_bodies();
    let mut sim = scene.into_simulation().unwrap();
    let mut rec = Recording::new(&sim.model);
    rec.record(&sim);
    for k in 1..=100 {
        sim.step().unwrap();
        if k % 10 == 0 {
            rec.record(&sim);
        }
    }
    assert_eq!(rec.n_frames(), 11);
    let page = dir.path().join("view.html");
    rec.write_html(&page).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("http://") && !html.contains("https://"), "the page loads nothing from the network");
    let url = format!("file://{}", page.display());
    // The title the page sets once WebGL has drawn.
    let out = run(&browser, &dir.path().join("p1"), &["--dump-dom".into()], &url);
    let dom = String::from_utf8_lossy(&out.stdout);
    let want = format!("<title>ok {n_bodies} bodies</title>");
    assert!(dom.contains(&want), "title not set to `{want}`: {}", dom.lines().take(3).collect::<Vec<_>>().join(" | "));
    // The screenshot: many colours, and the centre is not background.
    let shot = dir.path().join("shot.png");
    let out = run(&browser, &dir.path().join("p2"), &[format!("--screenshot={}", shot.display())], &url);
    assert!(shot.exists(), "no screenshot: {}", String::from_utf8_lossy(&out.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let ch = info.color_type.samples();
    let (w, h) = (info.width as usize, info.height as usize);
    let px = |x: usize, y: usize| {
        let o = (y * w + x) * ch;
        [buf[o], buf[o + 1], buf[o + 2]]
    };
    let bg = [32u8, 36, 44]; // clear colour (0.125, 0.141, 0.173)
    let mut colours = std::collections::HashSet::new();
    let (mut fg, mut total) = (0, 0);
    for y in h / 4..3 * h / 4 {
        for x in w / 4..3 * w / 4 {
            let p = px(x, y);
            colours.insert(p);
            total += 1;
            if p.iter().zip(bg).any(|(&a, b)| a.abs_diff(b) > 6) {
                fg += 1;
            }
        }
    }
    if let Ok(keep) = std::env::var("SALTUS_VIEW_SHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
    assert!(colours.len() > 50, "only {} colours in the centre", colours.len());
    assert!(fg * 10 > total, "only {fg} of {total} centre pixels differ from the background");
}

/// The page frames the moving bodies, not the static geometry: four 5 cm spheres falling inside
/// walls 10 m apart fill the view (`data-size` on the canvas: the framed extent), and the
/// "whole scene" button is there to frame everything.
#[test]
fn page_frames_the_moving_bodies() {
    use nalgebra::{Isometry3, Vector3};
    use saltus_mechanics::body::BodyState;
    use saltus_mechanics::{BodyDesc, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc};
    let Some(browser) = chromium() else {
        eprintln!("skipped: chromium not installed (apt-get install -y chromium)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), 0.005).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    for (k, (x, y)) in [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)].into_iter().enumerate() {
        let state = BodyState { position: Vector3::new(x, y, 0.1), ..Default::default() };
        let d = BodyDesc::dynamic(&format!("s{k}"))
            .shape_at_origin(ShapeDesc::from(Sphere { radius: 0.05 }))
            .density(1000.0);
        model.add_body(d.state(state)).unwrap();
    }
    let wall = ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.1, 5.0, 2.0) });
    let walls = BodyDesc::fixed("walls")
        .shape(
            ShapeDesc::from(Cuboid { half_extents: Vector3::new(5.0, 5.0, 0.1) }),
            Isometry3::translation(0.0, 0.0, -0.1),
        )
        .shape(wall.clone(), Isometry3::translation(5.0, 0.0, 2.0))
        .shape(wall, Isometry3::translation(-5.0, 0.0, 2.0));
    model.add_body(walls).unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, MoreauJeanOptions::default()).unwrap();
    let mut rec = Recording::new(&sim.model);
    rec.record(&sim);
    for _ in 0..50 {
        sim.step().unwrap();
        rec.record(&sim);
    }
    let page = dir.path().join("view.html");
    rec.write_html(&page).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("whole scene"), "no button to frame the whole scene");
    let out = run(&browser, &dir.path().join("p1"), &["--dump-dom".into()], &format!("file://{}", page.display()));
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("data-view=\"moving\""), "the view does not frame the moving bodies");
    let size: f64 =
        dom.split("data-size=\"").nth(1).and_then(|s| s.split('"').next()).and_then(|s| s.parse().ok()).unwrap_or_else(
            || panic!("no data-size on the canvas: {}", dom.lines().take(5).collect::<Vec<_>>().join(" | ")),
        );
    // the spheres span 0.3 m by 0.2 m (plus their fall); the walls 10 m
    assert!(size > 0.3 && size < 0.6, "framed extent {size} m: not the moving spheres'");
}
