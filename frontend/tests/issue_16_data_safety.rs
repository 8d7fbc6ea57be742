//! Issue 16, data safety and output conventions of `saltus run`: the output is never an input,
//! an earlier output survives a failed or interrupted run, FIFOs are written in place, bad
//! output paths are refused before the run, signals stop the run at a step boundary with only
//! complete rows kept, a crash keeps the flushed rows, closed pipes do not panic, `--strict`,
//! size limits, exact step times, gap-level `y` and `.npy` output.
//!
//! Only files in temporary directories are written (FIFOs made with `mkfifo`), never `/dev/*`.
mod common;

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn spawn<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Child {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ball_text() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml")).unwrap()
}

/// The ball with `T` changed (steps = T / 0.005).
fn long_ball(t_end: &str) -> String {
    ball_text().replace("<Time t0=\"0\" T=\"10\"/>", &format!("<Time t0=\"0\" T=\"{t_end}\"/>"))
}

/// `run MODEL -o OUT --every 1000`: a long run writing one row in 1000 (its full output would be
/// about 100 MB per second of wall time and fill a small disk).
fn long_run<'a>(model: &'a Path, out: &'a Path) -> [&'a std::ffi::OsStr; 6] {
    ["run".as_ref(), model.as_os_str(), "-o".as_ref(), out.as_os_str(), "--every".as_ref(), "1000".as_ref()]
}

fn write_model(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("model.xml");
    std::fs::write(&p, text).unwrap();
    p
}

fn assert_exit(o: &Output, code: i32, needles: &[&str]) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "stderr:\n{e}");
    assert!(!e.contains("panicked"), "{e}");
    for n in needles {
        assert!(e.contains(n), "missing `{n}` in:\n{e}");
    }
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(st.success());
}

fn kill(child: &Child, sig: &str) {
    let st = Command::new("kill").args([sig, &child.id().to_string()]).status().unwrap();
    assert!(st.success());
}

/// Waits until `path` holds at least one data row (the run flushes every 0.5 s).
fn wait_for_rows(path: &Path) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if std::fs::read_to_string(path).is_ok_and(|s| s.lines().count() >= 2) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{} got no rows in 60 s", path.display());
}

/// Checks that `text` is a header and complete rows only (same field count, every field a
/// number, a final newline); returns the number of data rows.
fn complete_rows(text: &str) -> usize {
    assert!(text.ends_with('\n'), "the file ends inside a row: {:?}", &text[text.len().saturating_sub(80)..]);
    let mut lines = text.lines();
    let n = lines.next().unwrap().split(',').count();
    let mut rows = 0;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), n, "truncated row {l:?}");
        for x in f {
            x.parse::<f64>().unwrap_or_else(|_| panic!("bad number {x:?} in {l:?}"));
        }
        rows += 1;
    }
    rows
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let text = ball_text().replace("<q0>1 0 0</q0>", "<q0 file=\"q0.txt\"/>");
    let model = write_model(tmp.path(), &text);
    std::fs::write(tmp.path().join("q0.txt"), "1 0 0\n").unwrap();
    std::fs::hard_link(&model, tmp.path().join("link.xml")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("q0.txt"), tmp.path().join("q0.csv")).unwrap();
    for out in ["model.xml", "q0.txt", "link.xml", "q0.csv"] {
        let o =
            saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), tmp.path().join(out).as_os_str()]);
        assert_exit(&o, 1, &["refusing to write", "it is the input"]);
        assert_eq!(stderr(&o).lines().count(), 1, "one line: {}", stderr(&o));
    }
    assert_eq!(std::fs::read_to_string(&model).unwrap(), text, "the model is untouched");
    assert_eq!(std::fs::read_to_string(tmp.path().join("q0.txt")).unwrap(), "1 0 0\n");

    // a plugin library
    let src = tmp.path().join("w.c");
    std::fs::write(
        &src,
        "#include \"saltus_plugin.h\"\nSALTUS_DEFINE_ABI_VERSION()\n\
         SALTUS_EXPORT int32_t weight(double t, uint32_t n, double *out, uint32_t np, const double *p) {\n\
         (void)t; (void)np; (void)p; for (uint32_t i = 0; i < n; i++) { out[i] = 0.0; }\n out[0] = -9.81; return 0; }\n",
    )
    .unwrap();
    let lib = common::compile_c_plugin(&src, tmp.path(), "w");
    let text = ball_text().replace("<FExt>-9.81 0 0</FExt>", "<FExt library=\"w\" function=\"weight\"/>");
    let model = write_model(tmp.path(), &text);
    let before = std::fs::read(&lib).unwrap();
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), lib.as_os_str()]);
    assert_exit(&o, 1, &["it is the input", "libw.so"]);
    assert_eq!(std::fs::read(&lib).unwrap(), before);
}

#[test]
fn a_symbolic_link_output_replaces_its_target_and_stays_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), &ball_text());
    std::fs::create_dir(tmp.path().join("results")).unwrap();
    let target = tmp.path().join("results/ball.csv");
    std::fs::write(&target, "old\n").unwrap();
    let link = tmp.path().join("latest.csv");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), link.as_os_str()]);
    assert_exit(&o, 0, &[]);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(complete_rows(&std::fs::read_to_string(&target).unwrap()), 2001);
    assert!(!tmp.path().join("latest.partial.csv").exists() && !tmp.path().join("results/ball.partial.csv").exists());
}

#[test]
fn bad_output_paths_are_refused_before_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    // 2e6 steps: the run would take seconds; the refusals come before it and write nothing
    let model = write_model(tmp.path(), &long_ball("10000"));
    std::fs::create_dir(tmp.path().join("outdir")).unwrap();
    std::fs::write(tmp.path().join("plain.txt"), "x").unwrap();
    let dir_slash = format!("{}/", tmp.path().join("outdir").display());
    let cases: Vec<(PathBuf, &str)> = vec![
        (PathBuf::from(&dir_slash), "is a directory"),
        (tmp.path().join("outdir"), "is a directory"),
        (tmp.path().join("missing/out.csv"), "does not exist"),
        (tmp.path().join("plain.txt/out.csv"), "does not exist"),
    ];
    for (out, needle) in cases {
        let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str()]);
        assert_exit(&o, 1, &[needle]);
        assert!(!stderr(&o).contains("steps"), "no run: {}", stderr(&o));
    }
    let mut names: Vec<String> =
        std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["model.xml", "outdir", "plain.txt"], "nothing written");
    assert_eq!(std::fs::read_dir(tmp.path().join("outdir")).unwrap().count(), 0);
}

#[test]
fn a_fifo_output_is_written_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), &ball_text());
    let fifo = tmp.path().join("pipe.csv");
    mkfifo(&fifo);
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::fs::File::open(&reader_path).unwrap().read_to_string(&mut s).unwrap();
        s
    });
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), fifo.as_os_str()]);
    assert_exit(&o, 0, &["2001 rows written"]);
    let through_fifo = reader.join().unwrap();
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    assert!(!tmp.path().join("pipe.partial.csv").exists());
    // the same bytes as a regular file
    let regular = tmp.path().join("regular.csv");
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), regular.as_os_str()]);
    assert_exit(&o, 0, &[]);
    assert_eq!(through_fifo, std::fs::read_to_string(&regular).unwrap());
    assert_eq!(complete_rows(&through_fifo), 2001);
    // .npy needs a seekable file
    let o =
        saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), tmp.path().join("x.npy").as_os_str()]);
    assert_exit(&o, 0, &[]);
    let npy_fifo = tmp.path().join("pipe.npy");
    mkfifo(&npy_fifo);
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), npy_fifo.as_os_str()]);
    assert_exit(&o, 1, &["needs a regular file"]);
    assert!(std::fs::symlink_metadata(&npy_fifo).unwrap().file_type().is_fifo());
}

fn interrupted(sig: &str, code: i32, name: &str) {
    let tmp = tempfile::tempdir().unwrap();
    // 1.6e7 steps: minutes; stopped after the first flush
    let model = write_model(tmp.path(), &long_ball("80000"));
    let out = tmp.path().join("traj.csv");
    std::fs::write(&out, "earlier results\n").unwrap();
    let child = spawn(long_run(&model, &out));
    let partial = tmp.path().join("traj.partial.csv");
    wait_for_rows(&partial);
    kill(&child, sig);
    let o = child.wait_with_output().unwrap();
    assert_exit(&o, code, &[&format!("interrupted by {name}"), "traj.partial.csv", "steps not converged"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier results\n", "the earlier output is unchanged");
    let text = std::fs::read_to_string(&partial).unwrap();
    let rows = complete_rows(&text);
    assert!(rows >= 2, "{rows}");
    // the message gives the row count of the file, on one line after the summary line
    assert!(stderr(&o).contains(&format!("the {rows} rows computed so far are in")), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 2, "summary + one error line: {}", stderr(&o));
}

#[test]
fn sigint_stops_at_a_step_boundary_and_exits_130() {
    interrupted("-INT", 130, "SIGINT");
}

#[test]
fn sigterm_stops_at_a_step_boundary_and_exits_143() {
    interrupted("-TERM", 143, "SIGTERM");
}

/// SIGKILL cannot be caught, and the kernel may stop a write that is under way at a page boundary
/// when the process is killed: the rows flushed before are kept, only the last line may be cut.
#[test]
fn sigkill_keeps_the_flushed_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), &long_ball("80000"));
    let out = tmp.path().join("traj.csv");
    let child = spawn(long_run(&model, &out));
    let partial = tmp.path().join("traj.partial.csv");
    wait_for_rows(&partial);
    std::thread::sleep(Duration::from_millis(700));
    kill(&child, "-KILL");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.signal(), Some(9));
    let mut text = std::fs::read_to_string(&partial).unwrap();
    if !text.ends_with('\n') {
        let cut = text.rfind('\n').unwrap() + 1;
        text.truncate(cut);
    }
    assert!(complete_rows(&text) >= 2);
    assert!(!out.exists());
}

#[test]
fn a_crashing_plugin_keeps_the_flushed_rows() {
    let tmp = tempfile::tempdir().unwrap();
    // F_ext = weight, until 1.5 s of wall time have passed: then a segmentation fault
    let src = tmp.path().join("crash.c");
    std::fs::write(
        &src,
        "#define _POSIX_C_SOURCE 199309L\n#include <signal.h>\n#include <time.h>\n#include \"saltus_plugin.h\"\n\
         SALTUS_DEFINE_ABI_VERSION()\n\
         static double now(void) { struct timespec s; clock_gettime(CLOCK_MONOTONIC, &s); return s.tv_sec + 1e-9 * s.tv_nsec; }\n\
         SALTUS_EXPORT int32_t weight_then_crash(double t, uint32_t n, double *out, uint32_t np, const double *p) {\n\
           static double start = 0.0; (void)t; (void)np; (void)p;\n\
           if (start == 0.0) start = now();\n\
           if (now() - start > 1.5) raise(SIGSEGV);\n\
           for (uint32_t i = 0; i < n; i++) { out[i] = 0.0; }\n           out[0] = -9.81; return 0; }\n",
    )
    .unwrap();
    common::compile_c_plugin(&src, tmp.path(), "crash");
    let text = long_ball("80000")
        .replace("<FExt>-9.81 0 0</FExt>", "<FExt library=\"crash\" function=\"weight_then_crash\"/>");
    let model = write_model(tmp.path(), &text);
    let out = tmp.path().join("traj.csv");
    // the 1.5 s before the crash are over a million steps
    let o = saltus(long_run(&model, &out));
    assert_eq!(o.status.signal(), Some(11), "died of SIGSEGV: {:?} {}", o.status, stderr(&o));
    let rows = complete_rows(&std::fs::read_to_string(tmp.path().join("traj.partial.csv")).unwrap());
    assert!(rows >= 2, "rows flushed before the crash: {rows}");
    assert!(!out.exists());
}

#[test]
fn closed_pipes_do_not_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), &ball_text());
    let out = tmp.path().join("o.csv");
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["check".into(), model.clone().into()],
        vec!["check".into(), tmp.path().join("missing.xml").into()],
        vec!["run".into(), model.clone().into(), "-o".into(), out.clone().into()],
        vec!["solvers".into()],
    ];
    for args in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_saltus"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // close both read ends before saltus writes anything (`| head -0`, stderr closed)
        drop(child.stdout.take());
        drop(child.stderr.take());
        let st = child.wait().unwrap();
        assert_ne!(st.code(), Some(101), "{args:?} panicked");
        assert!(st.code().is_some(), "{args:?} died of a signal: {st:?}");
    }
    assert_eq!(complete_rows(&std::fs::read_to_string(&out).unwrap()), 2001, "the run still wrote its output");
}

/// The column of beads with a 2-iteration PGS: its one-step LCPs do not converge.
fn beads_with_pgs(touching: bool) -> String {
    let text = std::fs::read_to_string(common::workspace_root().join("samples/column_of_beads/column_of_beads.xml"))
        .unwrap()
        .replace("<Lemke tol=\"1e-10\" max_iter=\"10000\"/>", "<Pgs tol=\"1e-15\" max_iter=\"2\"/>")
        .replace("<Time t0=\"0\" T=\"3.0\"/>", "<Time t0=\"0\" T=\"0.5\"/>");
    if !touching {
        return text;
    }
    // beads stacked in contact (z_i = r + 2 r i), bead i moving down at i + 1 m/s: every contact
    // closes in step 1
    let mut i = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("<q0>") {
                i += 1;
                format!("      <q0>{}</q0>", 0.1 + 0.2 * (i - 1) as f64)
            } else {
                l.replace("<v0>0</v0>", &format!("<v0>-{i}</v0>"))
            }
        })
        .collect();
    lines.join("\n")
}

#[test]
fn strict_makes_a_non_converged_step_an_error_with_exit_code_3() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), &beads_with_pgs(false));
    let out = tmp.path().join("c.csv");
    // accepted by default: the summary counts the steps and gives the largest residual
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_exit(&o, 0, &["max residual"]);
    let e = stderr(&o);
    let n: u64 = e.split(" steps not converged").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    assert!(n > 0, "{e}");
    std::fs::write(&out, "earlier\n").unwrap();
    let o =
        saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str(), "--strict".as_ref()]);
    assert_exit(&o, 3, &["--strict", "the one-step problem did not converge at t = ", "c.partial.csv"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier\n");
    // the rows before the non-converged step are kept
    assert!(complete_rows(&std::fs::read_to_string(tmp.path().join("c.partial.csv")).unwrap()) >= 2);
    // check --strict takes the first step
    let o = saltus([std::ffi::OsStr::new("check"), model.as_os_str(), "--strict".as_ref()]);
    assert_exit(&o, 0, &[]);
    let touching = write_model(tmp.path(), &beads_with_pgs(true));
    let o = saltus([std::ffi::OsStr::new("check"), touching.as_os_str(), "--strict".as_ref()]);
    assert_exit(&o, 3, &["did not converge in the first step"]);
    let o = saltus([std::ffi::OsStr::new("check"), touching.as_os_str()]);
    assert_exit(&o, 0, &[]);
}

#[test]
fn huge_runs_need_force_and_every_0_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o.csv");
    // 2e8 steps
    let model = write_model(tmp.path(), &long_ball("1e6"));
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_exit(&o, 1, &["200000000 steps", "--force"]);
    // 6e7 steps of 10 columns: about 12 GB of CSV
    let model = write_model(tmp.path(), &long_ball("3e5"));
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_exit(&o, 1, &["GB", "--every N", "--force"]);
    assert!(!out.exists() && !tmp.path().join("o.partial.csv").exists());
    // --force runs it (stopped at once)
    let child =
        spawn([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str(), "--force".as_ref()]);
    wait_for_rows(&tmp.path().join("o.partial.csv"));
    kill(&child, "-TERM");
    assert_exit(&child.wait_with_output().unwrap(), 143, &[]);
    // <Output every="0">
    let model = write_model(tmp.path(), &ball_text().replace("<Output every=\"1\"/>", "<Output every=\"0\"/>"));
    let o = saltus([std::ffi::OsStr::new("check"), model.as_os_str()]);
    assert_exit(&o, 1, &["Output", "`every` must be at least 1"]);
}

/// Column name -> values, and the raw `t` strings.
fn read_csv(path: &Path) -> (std::collections::HashMap<String, Vec<f64>>, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let mut cols = vec![Vec::new(); header.len()];
    let mut t = Vec::new();
    for l in lines {
        for (j, f) in l.split(',').enumerate() {
            cols[j].push(f.parse::<f64>().unwrap());
            if j == 0 {
                t.push(f.to_string());
            }
        }
    }
    (header.into_iter().zip(cols).collect(), t)
}

#[test]
fn step_times_are_exact_decimals_and_y_is_the_gap() {
    let tmp = tempfile::tempdir().unwrap();
    let model = common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml");
    let out = tmp.path().join("ball.csv");
    let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_exit(&o, 0, &[]);
    let (c, t) = read_csv(&out);
    // t_k = k h with h = 0.005 = 1/200, printed as the short decimal (t_94 = 0.47)
    assert_eq!(t[94], "0.47");
    for (k, s) in t.iter().enumerate() {
        let (units, frac) = (k * 5 / 1000, k * 5 % 1000);
        let want = format!("{units}.{frac:03}");
        let want = want.trim_end_matches('0').trim_end_matches('.');
        assert_eq!(s, if want.is_empty() { "0" } else { want }, "row {k}");
    }
    // H = [1 0 0], no b: the gap y = q[0] and the relative velocity ydot = v[0] (row 0: not yet computed, 0)
    let (q, v, y, yd) = (&c["ball.q[0]"], &c["ball.v[0]"], &c["floor.y[0]"], &c["floor.ydot[0]"]);
    for k in 1..q.len() {
        assert_eq!(y[k], q[k], "gap at row {k}");
        assert_eq!(yd[k], v[k], "relative velocity at row {k}");
    }
    // against Siconos 4.4 (its q0 column is the gap): the same to round-off
    let (r, _) = read_csv(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/siconos_bouncing_ball_ts.csv"));
    let worst = (1..q.len()).map(|k| (y[k] - r["q0"][k]).abs().max((yd[k] - r["v0"][k]).abs())).fold(0.0, f64::max);
    assert!(worst <= 1e-9, "max |y - y_siconos|, |ydot - v_siconos| = {worst:e}");
}

#[test]
fn npy_output_holds_the_csv_numbers_with_named_fields() {
    let tmp = tempfile::tempdir().unwrap();
    let model = common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml");
    let (csv, npy) = (tmp.path().join("b.csv"), tmp.path().join("b.npy"));
    for out in [&csv, &npy] {
        let o = saltus([std::ffi::OsStr::new("run"), model.as_os_str(), "-o".as_ref(), out.as_os_str(), "-q".as_ref()]);
        assert_exit(&o, 0, &[]);
    }
    let bytes = std::fs::read(&npy).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let hl = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..10 + hl]).unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    let names: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let descr: Vec<String> = names.iter().map(|n| format!("('{n}', '<f8')")).collect();
    assert!(
        header.starts_with(&format!("{{'descr': [{}], 'fortran_order': False, 'shape': (2001,), }}", descr.join(", "))),
        "{header}"
    );
    let data: Vec<f64> = bytes[10 + hl..].chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
    let from_csv: Vec<f64> =
        text.lines().skip(1).flat_map(|l| l.split(',').map(|f| f.parse::<f64>().unwrap())).collect();
    assert_eq!(data.len(), 2001 * names.len());
    assert!(data.iter().zip(&from_csv).all(|(a, b)| a.to_bits() == b.to_bits() || (*a == 0.0 && *b == 0.0)));
}
