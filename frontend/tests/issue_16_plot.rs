//! Issue 16, `saltus plot`: `kind` left out by default, the legend outside the axes and never
//! cut, a y label that names the columns, data overflowing ±1e308 plotted (no endless loop), and
//! the README's run-and-plot example working as written.
mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn saltus_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).current_dir(dir).output().unwrap()
}

/// `x="…"` and the text of every `<text>` element of an SVG.
fn texts(svg: &str) -> Vec<(f64, String)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let x = t.split("x=\"").nth(1)?.split('"').next()?.parse().ok()?;
            let body = t.split('>').nth(1)?.split('<').next()?.trim().to_string();
            Some((x, body))
        })
        .collect()
}

#[test]
fn default_columns_legend_and_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let model = common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ed.xml");
    let o = saltus_in(tmp.path(), &["run", model.to_str().unwrap(), "-o", "ed.csv", "-q"]);
    assert!(o.status.success());
    let o = saltus_in(tmp.path(), &["plot", "ed.csv", "-o", "ed.svg"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(tmp.path().join("ed.svg")).unwrap();
    let width: f64 = svg.split("width=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
    let t = texts(&svg);
    let names: Vec<&str> = t.iter().map(|(_, s)| s.as_str()).collect();
    assert!(!names.contains(&"kind"), "kind is not a state: {names:?}");
    for c in ["ball.q[0]", "ball.v[2]", "floor.y[0]", "floor.lambda[0]"] {
        let (x, _) = t.iter().find(|(_, s)| s == c).unwrap_or_else(|| panic!("no legend entry {c}: {names:?}"));
        // the legend is right of the axes (x > 1000) and its text fits in the figure (~10 px a character)
        assert!(*x > 1000.0 && x + 10.0 * c.len() as f64 <= width, "{c} at x = {x}, width {width}");
    }
    assert!(names.iter().any(|s| s.contains("position q") && s.contains("velocity v")), "y label: {names:?}");
    assert!(!names.contains(&"value"));
}

#[test]
fn many_series_get_legend_columns_inside_the_figure() {
    let tmp = tempfile::tempdir().unwrap();
    let model = common::workspace_root().join("samples/column_of_beads/column_of_beads.xml");
    assert!(saltus_in(tmp.path(), &["run", model.to_str().unwrap(), "-o", "b.csv", "-q", "--every", "100"])
        .status
        .success());
    assert!(saltus_in(tmp.path(), &["plot", "b.csv", "-o", "b.svg"]).status.success());
    let svg = std::fs::read_to_string(tmp.path().join("b.svg")).unwrap();
    let width: f64 = svg.split("width=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
    let header = std::fs::read_to_string(tmp.path().join("b.csv")).unwrap().lines().next().unwrap().to_string();
    let t = texts(&svg);
    for c in header.split(',').skip(1) {
        let (x, _) = t.iter().find(|(_, s)| s == c).unwrap_or_else(|| panic!("legend entry {c} missing"));
        assert!(x + 10.0 * c.len() as f64 <= width, "{c} cut: x = {x}, width {width}");
    }
}

#[test]
fn overflowing_ranges_plot_and_finish() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("h.csv"), "t,a,b\n0,1e308,-1e308\n1,-1.7976931348623157e308,inf\n2,nan,0\n")
        .unwrap();
    for out in ["h.png", "h.svg"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_saltus"))
            .args(["plot", "h.csv", "-o", out])
            .current_dir(tmp.path())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("saltus plot {out} did not finish in 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{out}");
        assert!(std::fs::metadata(tmp.path().join(out)).unwrap().len() > 1000);
    }
}

#[test]
fn the_readme_example_works_as_written() {
    let root = common::workspace_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines: Vec<&str> =
        readme.lines().filter(|l| l.starts_with("saltus run ") || l.starts_with("saltus plot ")).collect();
    assert!(lines.iter().any(|l| l.contains("--columns")), "the README has a plot example with --columns: {lines:?}");
    let tmp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_saltus");
    for l in lines {
        // as a user types it in the workspace root (outputs go to a temporary folder)
        let script = format!("cd '{}' && {exe}{}", root.display(), &l["saltus".len()..]);
        let script = script.replace(" -o ", &format!(" -o {}/", tmp.path().display()));
        let script = script.replace("plot ball.csv", &format!("plot {}/ball.csv", tmp.path().display()));
        let o = Command::new("sh").args(["-c", &script]).output().unwrap();
        assert!(o.status.success(), "`{l}` failed:\n{}", String::from_utf8_lossy(&o.stderr));
    }
}
