//! Solver and problem options that have an XML attribute: each model validates against the XSD,
//! the converter accepts it, and the run gives the physics of the unmodified sample (same
//! trajectory within the solver tolerance); out-of-range values are located errors.
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn ball() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml")).unwrap()
}

const LEMKE: &str = "<Lemke tol=\"1e-6\" max_iter=\"10000\"/>";

fn write(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("model.xml");
    std::fs::write(&p, text).unwrap();
    p
}

/// xmllint on `path` (skipped when xmllint is absent).
fn validates(path: &Path) -> bool {
    let xsd = common::workspace_root().join("schemas/saltus-model.xsd");
    match Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(path).output() {
        Ok(o) => o.status.success(),
        Err(_) => true,
    }
}

/// Runs `text` and returns the column `ball.q[0]`.
fn heights(text: &str) -> Vec<f64> {
    let tmp = tempfile::tempdir().unwrap();
    let model = write(tmp.path(), text);
    assert!(validates(&model), "does not validate:\n{text}");
    let out = tmp.path().join("o.csv");
    let o = saltus(["run".as_ref(), model.as_os_str(), "-o".as_ref(), out.as_os_str(), "-q".as_ref()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(&out).unwrap();
    csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect()
}

fn error_of(text: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let model = write(tmp.path(), text);
    let o = saltus(["check".as_ref(), model.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "accepted:\n{text}");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn options_change_nothing_in_the_physics() {
    let reference = heights(&ball());
    for (problem, solver) in [
        ("<LCP storage=\"sparse\" sparse_threshold=\"0\">", "<Pgs tol=\"1e-12\" max_iter=\"1000\"/>"),
        ("<LCP sparse_threshold=\"1000\">", "<Lemke tie_break=\"smallest_index\"/>"),
        ("<LCP>", "<Lemke tie_break=\"lexicographic\" pivot_tol=\"1e-14\"/>"),
        ("<MLCP>", "<Enum tol=\"1e-10\" max_comp=\"5\"/>"),
        ("<MLCP>", "<NewtonFB tol=\"1e-12\" armijo=\"1e-3\" max_backtracks=\"20\"/>"),
    ] {
        let close = if problem.starts_with("<MLCP") { "</MLCP>" } else { "</LCP>" };
        let text =
            ball().replace(&format!("<LCP>\n        {LEMKE}\n      </LCP>"), &format!("{problem}{solver}{close}"));
        assert_ne!(text, ball());
        let h = heights(&text);
        assert_eq!(h.len(), reference.len());
        let worst = h.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(worst <= 1e-8, "{problem}{solver}: max deviation {worst}");
    }
}

#[test]
fn out_of_range_options_are_located_errors() {
    let with = |problem: &str, solver: &str, close: &str| {
        ball().replace(&format!("<LCP>\n        {LEMKE}\n      </LCP>"), &format!("{problem}{solver}{close}"))
    };
    let e = error_of(&with("<MLCP>", "<Enum max_comp=\"41\"/>", "</MLCP>"));
    assert!(e.contains("Simulation/OneStepNSProblem") && e.contains("max_comp"), "{e}");
    let e = error_of(&with("<MLCP>", "<NewtonFB armijo=\"0.7\"/>", "</MLCP>"));
    assert!(e.contains("armijo"), "{e}");
    let e = error_of(&with("<LCP>", "<Lemke tie_break=\"random\"/>", "</LCP>"));
    assert!(e.contains("tie_break") || e.contains("random"), "{e}");
    // a singular mass matrix is located at the system
    let e = error_of(&ball().replace("0 0 0.004", "0 0 0"));
    assert!(e.contains("NSDS/LagrangianLinearTIDS[ball]/Mass") && e.contains("mass matrix is 0"), "{e}");
    // with <Projection> the one-step problem and Newton options are kept (not reset to defaults):
    // a warm-start-free, explicit-Newton projected run gives the same heights as the default one
    let proj = ball().replace("  </Simulation>", "    <Projection tol=\"1e-8\"/>\n  </Simulation>");
    let plain = heights(&proj);
    let tuned = heights(
        &proj
            .replace("<LCP>", "<LCP warm_start=\"false\">")
            .replace("    <Projection", "    <Newton tol=\"1e-8\"/>\n    <Projection"),
    );
    assert_eq!(plain.len(), tuned.len());
    let worst = plain.iter().zip(&tuned).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(worst <= 1e-8, "projected run changed with explicit options: {worst}");
    // and an out-of-range projection option is a located error
    let e = error_of(&ball().replace("  </Simulation>", "    <Projection tol=\"-1\"/>\n  </Simulation>"));
    assert!(e.to_lowercase().contains("projection") && e.contains("tol"), "{e}");
}
