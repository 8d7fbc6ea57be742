//! Every error class of the `saltus` command: the message says what and where, the exit code
//! is 1 for model/input errors and 2 for usage errors, and nothing panics.
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ball_text() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml")).unwrap()
}

/// Writes `text` as model.xml in a fresh dir and runs `saltus check` on it.
fn check_text(text: &str, extra: &[&str]) -> (Output, tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("model.xml");
    std::fs::write(&p, text).unwrap();
    let mut args: Vec<std::ffi::OsString> = vec!["check".into(), p.clone().into()];
    args.extend(extra.iter().map(Into::into));
    (saltus(args), tmp, p)
}

fn assert_input_error(o: &Output, needles: &[&str]) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "exit code, stderr:\n{e}");
    // (exit code 1, not 101, already says saltus itself did not panic)
    assert!(!e.contains("thread 'main' panicked"), "{e}");
    for n in needles {
        assert!(e.contains(n), "missing `{n}` in:\n{e}");
    }
}

#[test]
fn malformed_xml_gives_line_and_column() {
    let t = ball_text().replace("</Mass>", "</Mas>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["model.xml:16:7:", "malformed XML", "</Mas>"]);
}

#[test]
fn unknown_element_and_attribute_are_errors() {
    let t = ball_text().replace("<v0>0 0 0</v0>", "<v0>0 0 0</v0>\n      <Velocity>1</Velocity>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["model.xml:12:", "unknown element <Velocity>"]);
    let t = ball_text().replace("<NewtonImpactNSL e=\"0.9\"/>", "<NewtonImpactNSL e=\"0.9\" mu=\"0.3\"/>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["model.xml:27:", "`mu` is not an attribute of"]);
}

#[test]
fn bad_enumerated_attribute_value_names_the_attribute() {
    // serde reports an enum attribute's bad value as an "unknown variant", like an unknown child
    // element; the message must name the attribute and its allowed values instead.
    let t = ball_text().replace("<LCP>", "<LCP on_non_convergence=\"acept\">");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(
        &o,
        &["model.xml:37:", "`acept` is not a valid value of `on_non_convergence` in <LCP>", "accept"],
    );
    assert!(!stderr(&o).contains("unknown element"), "{}", stderr(&o));
}

#[test]
fn bad_numbers_are_located() {
    let t = ball_text().replace("<q0>1 0 0</q0>", "<q0>1 zero 0</q0>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(
        &o,
        &["model.xml:10:7:", "NSDS/LagrangianLinearTIDS[ball]/q0", "value 2 `zero` is not a number"],
    );
    let t = ball_text().replace("e=\"0.9\"", "e=\"high\"");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["model.xml:27:", "`high` is not a number"]);
}

#[test]
fn size_mismatch_names_the_element_path() {
    let t = ball_text().replace("<H rows=\"1\" cols=\"3\">1 0 0</H>", "<H rows=\"1\" cols=\"2\">1 0</H>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(
        &o,
        &["model.xml:21:7:", "NSDS/Interaction[floor]/Relation: H has 2 columns, ball has 3 coordinates q"],
    );
    let t = ball_text().replace("<v0>0 0 0</v0>", "<v0>0 0</v0>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["NSDS/LagrangianLinearTIDS[ball]/v0: has 2 values, expected 3"]);
}

#[test]
fn unknown_names_and_duplicates() {
    let t = ball_text().replace("ds=\"ball\"", "ds=\"bal\"");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["NSDS/Interaction[floor]: unknown dynamical system `bal` (known: ball)"]);
    let t = ball_text().replace("</NSDS>", "<Interaction name=\"floor\" ds=\"ball\"><Relation><LagrangianLinearTIR><H rows=\"1\" cols=\"3\">1 0 0</H></LagrangianLinearTIR></Relation><NonSmoothLaw><NewtonImpactNSL e=\"0.5\"/></NonSmoothLaw></Interaction></NSDS>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["an interaction named `floor` already exists"]);
}

#[test]
fn invalid_parameters_and_combinations() {
    let t = ball_text().replace("e=\"0.9\"", "e=\"1.5\"");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["NSDS/Interaction[floor]/NonSmoothLaw", "NewtonImpactNSL"]);
    let t = ball_text().replace("<MoreauJeanOSI theta=\"0.5\" gamma=\"0.5\"/>", "<EulerMoreauOSI theta=\"0.5\"/>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["EulerMoreauOSI"]);
    let t = ball_text().replace("h=\"0.005\"", "h=\"-1\"");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["Simulation/TimeDiscretisation", "h must be finite and > 0"]);
}

#[test]
fn wrong_schema_version() {
    let t = ball_text().replace("<Model version=\"1.0\"", "<Model version=\"7.2\"");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["model.xml:5:1:", "schema version `7.2` is not supported"]);
}

#[test]
fn missing_files() {
    let o = saltus(["check", "/nonexistent/model.xml"]);
    assert_input_error(&o, &["/nonexistent/model.xml", "model file not found"]);
    let t = ball_text().replace("<q0>1 0 0</q0>", "<q0 file=\"q0.txt\"/>");
    let (o, _d, _) = check_text(&t, &[]);
    assert_input_error(&o, &["NSDS/LagrangianLinearTIDS[ball]/q0", "data file", "q0.txt not found"]);
}

#[test]
fn data_files_are_read_relative_to_the_model() {
    let t = ball_text()
        .replace("<q0>1 0 0</q0>", "<q0 file=\"q0.txt\"/>")
        .replace("<Mass rows=\"3\" cols=\"3\">", "<Mass file=\"mass.txt\"/><!--")
        .replace("</Mass>", "-->");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("q0.txt"), "# initial position\n1 0 0\n").unwrap();
    std::fs::write(tmp.path().join("mass.txt"), "1 0 0\n0 1 0\n0 0 0.004\n").unwrap();
    let p = tmp.path().join("model.xml");
    std::fs::write(&p, &t).unwrap();
    let o = saltus([std::ffi::OsStr::new("check"), p.as_os_str()]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(tmp.path().join("mass.txt"), "1 0 0\n0 1\n0 0 0.004\n").unwrap();
    let o = saltus([std::ffi::OsStr::new("check"), p.as_os_str()]);
    assert_input_error(
        &o,
        &["NSDS/LagrangianLinearTIDS[ball]/Mass", "mass.txt, line 2: 2 values, the first row has 3"],
    );
}

fn plugin_model(library: &str, function: &str, params: &str) -> String {
    ball_text().replace(
        "<FExt>-9.81 0 0</FExt>",
        &format!("<FExt library=\"{library}\" function=\"{function}\" params=\"{params}\"/>"),
    )
}

#[test]
fn plugin_errors_name_library_symbol_and_element() {
    let dir = common::plugin_dir();
    let d = dir.to_str().unwrap();
    let (o, _t, _) = check_text(&plugin_model("no_such_lib", "f", ""), &["--plugin-dir", d]);
    assert_input_error(
        &o,
        &[
            "NSDS/LagrangianLinearTIDS[ball]/FExt",
            "plugin library `no_such_lib` not found",
            "libno_such_lib.so",
            "--plugin-dir DIR",
        ],
    );
    let (o, _t, _) = check_text(&plugin_model("saltus_plugin_testing", "nope", ""), &["--plugin-dir", d]);
    assert_input_error(
        &o,
        &["NSDS/LagrangianLinearTIDS[ball]/FExt", "libsaltus_plugin_testing.so", "has no function `nope`"],
    );
    // A plugin that fails already at t0 is reported by `check`, before any run.
    let (o, _t, _) = check_text(&plugin_model("saltus_plugin_testing", "always_fails", ""), &["--plugin-dir", d]);
    assert_input_error(&o, &["NSDS/LagrangianLinearTIDS[ball]/FExt", "`always_fails`", "returned status 7"]);
    let (o, _t, _) = check_text(&plugin_model("saltus_plugin_testing", "always_panics", ""), &["--plugin-dir", d]);
    assert_input_error(&o, &["`always_panics`", "the plugin panicked"]);
    let (o, _t, _) = check_text(&plugin_model("saltus_plugin_testing", "returns_nan", ""), &["--plugin-dir", d]);
    assert_input_error(&o, &["`returns_nan`", "non-finite"]);
}

#[test]
fn wrong_abi_version_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("old.c");
    std::fs::write(&src, "#include <stdint.h>\nuint32_t saltus_plugin_abi_version(void) { return 0; }\n").unwrap();
    common::compile_c_plugin(&src, tmp.path(), "old_plugin");
    let p = tmp.path().join("model.xml");
    std::fs::write(&p, plugin_model("old_plugin", "f", "")).unwrap();
    let o = saltus([std::ffi::OsStr::new("check"), p.as_os_str()]);
    assert_input_error(
        &o,
        &["NSDS/LagrangianLinearTIDS[ball]/FExt", "libold_plugin.so", "ABI version 0, this saltus needs version 1"],
    );
}

#[test]
fn failure_mid_run_keeps_partial_file_only() {
    let dir = common::plugin_dir();
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("model.xml");
    // The weight plugin fails from t = 1: steps 1..=199 succeed (the step to t = 1 evaluates F_ext(1)).
    std::fs::write(&model, plugin_model("saltus_plugin_testing", "weight_then_fail", "1.0 9.81")).unwrap();
    let out = tmp.path().join("traj.csv");
    std::fs::write(&out, "stale content from an earlier run\n").unwrap();
    let o = saltus([
        std::ffi::OsStr::new("run"),
        model.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--plugin-dir".as_ref(),
        dir.as_os_str(),
    ]);
    assert_input_error(
        &o,
        &["weight_then_fail", "returned status 3", "traj.partial.csv", "the simulation failed after 199 steps"],
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "stale content from an earlier run\n",
        "an earlier output is left unchanged by a failed run"
    );
    let partial = std::fs::read_to_string(tmp.path().join("traj.partial.csv")).unwrap();
    let rows: Vec<&str> = partial.lines().collect();
    assert_eq!(rows.len(), 1 + 200, "header + rows 0..=199");
    let last_t: f64 = rows[rows.len() - 1].split(',').next().unwrap().parse().unwrap();
    assert!((last_t - 0.995).abs() < 1e-12, "{last_t}");
}

#[test]
fn usage_errors_exit_2() {
    for args in
        [vec!["frobnicate"], vec!["run"], vec!["run", "m.xml", "--every", "0"], vec!["run", "m.xml", "--bogus"], vec![]]
    {
        let o = saltus(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    let o = saltus(["plot", "x.csv", "-o", "fig.gif"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = saltus(["solvers", "nonsense"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn help_of_every_subcommand_has_an_example() {
    for sub in ["run", "check", "plot", "solve", "solvers"] {
        let o = saltus([sub, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        let s = String::from_utf8_lossy(&o.stdout);
        assert!(s.contains("Example:") && s.contains(&format!("saltus {sub}")), "{sub}:\n{s}");
    }
}

#[test]
fn plot_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("a.csv");
    std::fs::write(&csv, "t,x\n0,1\n1,oops\n").unwrap();
    let o =
        saltus([std::ffi::OsStr::new("plot"), csv.as_os_str(), "-o".as_ref(), tmp.path().join("a.png").as_os_str()]);
    assert_input_error(&o, &["a.csv:3: column 2 (`x`): `oops` is not a number"]);
    std::fs::write(&csv, "t,x\n0,1\n1,2\n").unwrap();
    let o = saltus([
        std::ffi::OsStr::new("plot"),
        csv.as_os_str(),
        "-o".as_ref(),
        tmp.path().join("a.png").as_os_str(),
        "--columns".as_ref(),
        "y".as_ref(),
    ]);
    assert_input_error(&o, &["no column `y`"]);
}

#[test]
fn plot_writes_png_and_svg() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("a.csv");
    let mut s = String::from("t,sin,cos\n");
    for k in 0..200 {
        let t = k as f64 * 0.05;
        s.push_str(&format!("{t},{},{}\n", t.sin(), t.cos()));
    }
    std::fs::write(&csv, s).unwrap();
    let png = tmp.path().join("a.png");
    let o = saltus([std::ffi::OsStr::new("plot"), csv.as_os_str(), "-o".as_ref(), png.as_os_str()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // 1100 px of axes plus the legend beside them
    assert!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()) >= 1200, "width");
    let svg = tmp.path().join("a.svg");
    let o = saltus([
        std::ffi::OsStr::new("plot"),
        csv.as_os_str(),
        "-o".as_ref(),
        svg.as_os_str(),
        "--columns".as_ref(),
        "cos".as_ref(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(">\ncos\n<") || text.contains(">cos<"), "legend label missing");
    assert!(!text.contains(">\nsin\n<"), "unselected column plotted");
    let _ = Path::new(&svg);
}

/// `<NewtonEulerDS>`: the sizes of q0 (7) and of a relation's `H` over its coordinates, the
/// inertia and the mass, each a located error.
#[test]
fn newton_euler_ds_errors_are_located() {
    let text =
        std::fs::read_to_string(common::workspace_root().join("samples/ball_on_plate/ball_on_plate.xml")).unwrap();
    let cases = [
        (
            text.replace("<q0>0 0 0.5 1 0 0 0</q0>", "<q0>0 0 0.5 1 0 0</q0>"),
            "NewtonEulerDS[ball]/q0: has 6 values, expected 7",
        ),
        (
            text.replace("<v0>0 0 0 0.05 8 0.05</v0>", "<v0>0 0 0 0.05 8</v0>"),
            "NewtonEulerDS[ball]/v0: has 5 values, expected 6",
        ),
        (
            text.replace(r#"<H rows="1" cols="8">0 0 1 0 0 0 0 -1</H>"#, r#"<H rows="1" cols="7">0 0 1 0 0 0 -1</H>"#),
            "H has 7 columns, ball and plate have 8 coordinates q together",
        ),
        (text.replace("0.001 0 0", "-0.001 0 0"), "NewtonEulerDS[ball]/Inertia"),
        (text.replace(r#"mass="0.5""#, r#"mass="-1""#), "mass must be finite and > 0"),
        (text.replace("<q0>0 0 0.5 1 0 0 0</q0>", "<q0>0 0 0.5 0 0 0 0</q0>"), "quaternion (q0[3..7]) is zero"),
    ];
    for (t, needle) in cases {
        let (o, _d, _) = check_text(&t, &[]);
        assert_input_error(&o, &["model.xml:", needle]);
    }
}
