//! Issue 16, strict and safe input: the document structure (one `<Model>` root, nothing after
//! it, no NUL), mass matrices (symmetric positive (semi)definite) and data files (regular files
//! only, a size cap, contents never echoed). Every refusal is located (`file:line:column`).
//!
//! Only files in temporary directories are used (FIFOs made with `mkfifo`), never `/dev/*`.
mod common;

use saltus_runtime::xml::{load_str, ModelError};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FILE: &str = "m.xml";

fn ball_text() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml")).unwrap()
}

fn load_err(text: &str) -> ModelError {
    match load_str(text, Path::new(FILE)) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Line and column (1-based, in characters) of the first occurrence of `needle`.
fn pos_of(text: &str, needle: &str) -> (usize, usize) {
    let off = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in the text"));
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..].chars().count() + 1;
    (line, col)
}

fn assert_located(e: &ModelError, at: (usize, usize), needle: &str) {
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("{FILE}:{}:{}: ", at.0, at.1)), "wrong place: {shown}");
    assert!(shown.contains(needle), "missing `{needle}` in: {shown}");
}

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

// ---- the document -------------------------------------------------------------------------

#[test]
fn the_sample_passes_the_document_checks() {
    load_str(&ball_text(), Path::new(FILE)).expect("the sample loads");
}

#[test]
fn a_wrong_root_element_is_refused_at_its_tag() {
    let t = ball_text().replace("<Model ", "<Modle ").replace("</Model>", "</Modle>");
    assert_located(&load_err(&t), pos_of(&t, "<Modle "), "the root element is <Modle>, expected <Model>");
}

#[test]
fn content_after_the_model_is_refused() {
    let t = format!("{}\nstray words\n", ball_text().trim_end());
    assert_located(&load_err(&t), pos_of(&t, "stray"), "text after </Model>");
    let t = format!("{}\n<![CDATA[x]]>\n", ball_text().trim_end());
    assert_located(&load_err(&t), pos_of(&t, "<![CDATA"), "content after </Model>");
    // comments and blank lines after the root stay allowed
    let t = format!("{}\n<!-- end -->\n\n", ball_text().trim_end());
    load_str(&t, Path::new(FILE)).expect("a trailing comment is fine");
}

#[test]
fn a_second_root_is_refused_at_its_tag() {
    let ball = ball_text();
    let body = &ball[ball.find("<Model").unwrap()..];
    let t = format!("{}\n{body}", ball.trim_end());
    let e = load_err(&t);
    let second = t.rfind("<Model").unwrap();
    let expect_line = t[..second].matches('\n').count() + 1;
    assert_located(&e, (expect_line, 1), "a second root element <Model> after </Model>");
}

#[test]
fn nul_and_control_characters_are_refused_where_they_are() {
    let t = ball_text().replace("<q0>1 0 0</q0>", "<q0>1 0\0 0</q0>");
    let (l, c) = pos_of(&t, "\0");
    assert_located(&load_err(&t), (l, c), "NUL character (U+0000)");
    let t = ball_text().replace("title=\"", "title=\"\u{7}");
    assert_located(&load_err(&t), pos_of(&t, "\u{7}"), "control character U+0007");
}

#[test]
fn an_empty_or_rootless_file_is_refused() {
    let e = load_err("<?xml version=\"1.0\"?>\n<!-- nothing -->\n");
    assert!(e.to_string().contains("no <Model> element"), "{e}");
    let t = "just text\n<Model version=\"1.0\"/>";
    assert_located(&load_err(t), (1, 1), "text before the root element <Model>");
}

#[test]
fn the_cli_reports_document_errors_with_file_line_column() {
    let dir = tempfile::tempdir().unwrap();
    let t = format!("{}\n<Model version=\"1.0\"/>\n", ball_text().trim_end());
    let m = write(dir.path(), "two.xml", &t);
    let o = saltus([Path::new("check"), &m]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let line = t.lines().count();
    let want = format!("{}:{line}:1: a second root element <Model>", m.display());
    assert!(stderr(&o).contains(&want), "want `{want}` in {}", stderr(&o));
}

// ---- mass matrices ------------------------------------------------------------------------

const BALL_MASS: &str = "<Mass rows=\"3\" cols=\"3\">\n        1 0 0\n        0 1 0\n        0 0 0.004\n      </Mass>";

fn ball_with_mass(values: &str) -> String {
    let t = ball_text();
    assert!(t.contains(BALL_MASS), "the sample's mass changed");
    t.replace(BALL_MASS, &format!("<Mass rows=\"3\" cols=\"3\">{values}</Mass>"))
}

fn build_err(text: &str) -> String {
    let loaded = load_str(text, Path::new(FILE)).expect("loads");
    match saltus_runtime::xml::convert::build(&loaded, vec![]) {
        Ok(_) => panic!("built:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_negative_mass_is_refused_at_the_mass_element() {
    let t = ball_with_mass("-1 0 0  0 1 0  0 0 0.004");
    let e = build_err(&t);
    let (l, c) = pos_of(&t, "<Mass");
    assert!(e.starts_with(&format!("{FILE}:{l}:{c}: NSDS/LagrangianLinearTIDS[ball]/Mass: ")), "{e}");
    assert!(e.contains("diagonal entry 0 of the mass matrix is -1"), "{e}");
    assert!(e.contains("symmetric positive definite"), "{e}");
    // and a zero mass, which would make the iteration matrix singular without damping
    let e = build_err(&ball_with_mass("1 0 0  0 0 0  0 0 0.004"));
    assert!(e.contains("diagonal entry 1 of the mass matrix is 0"), "{e}");
}

#[test]
fn an_asymmetric_or_indefinite_mass_is_refused() {
    let e = build_err(&ball_with_mass("1 0.5 0  0 1 0  0 0 0.004"));
    assert!(e.contains("not symmetric: entry (0, 1) is 0.5, entry (1, 0) is 0"), "{e}");
    // eigenvalues of the upper block: 1 ± 2, so -1 with a positive diagonal
    let e = build_err(&ball_with_mass("1 2 0  2 1 0  0 0 0.004"));
    assert!(e.contains("not positive definite: its smallest eigenvalue is -1"), "{e}");
}

#[test]
fn a_first_order_mass_may_be_singular_but_not_indefinite() {
    let circuit =
        std::fs::read_to_string(common::workspace_root().join("samples/diode_bridge/diode_bridge.xml")).unwrap();
    let with_mass = |m: &str| circuit.replace("</A>", &format!("</A>\n      <Mass rows=\"2\" cols=\"2\">{m}</Mass>"));
    // symmetric positive semidefinite (a DAE): accepted
    let loaded = load_str(&with_mass("1 0 0 0"), Path::new(FILE)).unwrap();
    assert!(saltus_runtime::xml::convert::build(&loaded, vec![]).is_ok());
    let e = build_err(&with_mass("1 0 0 -1"));
    assert!(e.contains("NSDS/FirstOrderLinearTIDS[circuit]/Mass"), "{e}");
    assert!(e.contains("diagonal entry 1 of the mass matrix is -1"), "{e}");
    assert!(e.contains("positive semidefinite"), "{e}");
}

#[test]
fn the_cli_refuses_a_negative_mass_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "neg.xml", &ball_with_mass("-1 0 0  0 1 0  0 0 0.004"));
    let out = dir.path().join("neg.csv");
    let o = saltus([Path::new("run"), &m, Path::new("-o"), &out]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("mass matrix is -1"), "{}", stderr(&o));
    assert!(!out.exists(), "no output for a refused model");
}

// ---- data files ---------------------------------------------------------------------------

/// Runs `saltus ARGS` with `env`, killing it after 20 s (a FIFO opened for reading would block).
fn saltus_timeout(args: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_saltus"));
    cmd.args(args).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("saltus {args:?} blocked (reading a FIFO?)");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The ball with `F_ext` read from `file` (relative to the model).
fn ball_with_fext_file(dir: &Path, file: &str) -> PathBuf {
    let t = ball_text().replace("<FExt>-9.81 0 0</FExt>", &format!("<FExt file=\"{file}\"/>"));
    assert!(t.contains("<FExt file="), "the sample's FExt changed");
    write(dir, "model.xml", &t)
}

fn check_with(model: &Path, env: &[(&str, &str)]) -> Output {
    saltus_timeout(&[std::ffi::OsStr::new("check"), model.as_os_str()], env)
}

#[test]
fn a_regular_data_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fext.txt"), "# gravity\n-9.81 0 0\n").unwrap();
    let o = check_with(&ball_with_fext_file(dir.path(), "fext.txt"), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_fifo_is_refused_without_being_opened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fext.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let m = ball_with_fext_file(dir.path(), "fext.fifo");
    let o = check_with(&m, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    let (l, c) = pos_of(&std::fs::read_to_string(&m).unwrap(), "<FExt");
    assert!(e.contains(&format!("model.xml:{l}:{c}: ")), "not located: {e}");
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn a_missing_file_or_a_directory_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let o = check_with(&ball_with_fext_file(dir.path(), "nothing.txt"), &[]);
    assert!(stderr(&o).contains("nothing.txt not found"), "{}", stderr(&o));
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let o = check_with(&ball_with_fext_file(dir.path(), "sub"), &[]);
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
}

#[test]
fn the_size_cap_is_set_by_an_environment_variable() {
    let dir = tempfile::tempdir().unwrap();
    let data = "-9.81 0 0\n"; // 10 bytes
    std::fs::write(dir.path().join("fext.txt"), data).unwrap();
    let m = ball_with_fext_file(dir.path(), "fext.txt");
    let o = check_with(&m, &[("SALTUS_MAX_DATA_BYTES", "9")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("has 10 bytes, more than the limit of 9 bytes"), "{}", stderr(&o));
    assert!(stderr(&o).contains("SALTUS_MAX_DATA_BYTES"), "{}", stderr(&o));
    let o = check_with(&m, &[("SALTUS_MAX_DATA_BYTES", "10")]);
    assert_eq!(o.status.code(), Some(0), "exactly at the cap: {}", stderr(&o));
    let o = check_with(&m, &[("SALTUS_MAX_DATA_BYTES", "lots")]);
    assert!(stderr(&o).contains("`lots` is not a number of bytes"), "{}", stderr(&o));
    assert_eq!(saltus_runtime::xml::values::DEFAULT_MAX_DATA_BYTES, 1 << 30);
}

#[test]
fn file_contents_never_appear_in_an_error() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("vec.txt", "-9.81 hunter2-secret 0\n"),
        ("vec2.txt", "root:x:0:0:root:/root:/bin/bash\n"),
        ("bin.dat", "-9.81 0 \u{0}\u{1}secret\n"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
        let o = check_with(&ball_with_fext_file(dir.path(), name), &[]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(e.contains(name) && e.contains("is not a number"), "{e}");
        for secret in ["hunter2", "secret", "root:x", "/bin/bash"] {
            assert!(!e.contains(secret), "`{secret}` echoed: {e}");
        }
    }
    // not UTF-8: named by position only
    std::fs::write(dir.path().join("latin1.txt"), b"-9.81 0 0 \xe9t\xe9\n").unwrap();
    let e = stderr(&check_with(&ball_with_fext_file(dir.path(), "latin1.txt"), &[]));
    assert!(e.contains("not UTF-8 text (byte 11)"), "{e}");
}

#[test]
fn solve_says_not_found_for_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("lcp/missing.dat");
    let o = saltus([Path::new("solve"), &missing, Path::new("--solver"), Path::new("lemke")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("{}: not found", missing.display())), "{}", stderr(&o));
}

#[test]
fn solve_on_a_corrupt_hdf5_file_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "fc3d.hdf5", "not really hdf5");
    let o = saltus([Path::new("solve"), &f, Path::new("--solver"), Path::new("nsgs-ac")]);
    assert_ne!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("fc3d.hdf5"), "{}", stderr(&o));
}
