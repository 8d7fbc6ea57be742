//! `saltus run` on the event-driven bouncing-ball samples (`<EventDriven>`): every row and
//! column against the Siconos `BouncingBallED` trajectory (≤ 1e-9), the 44 impact times
//! against the closed form, the CSV conventions of event-driven runs (the `kind` column, which
//! `λ` each row holds), the summary, and partial output with exit code 1 on failure.
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const G: f64 = 9.81;
const E: f64 = 0.9;

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn sample(rel: &str) -> PathBuf {
    common::workspace_root().join("samples").join(rel)
}

/// Header and rows of a CSV.
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(str::to_string).collect();
    let rows =
        lines.map(|l| l.split(',').map(|f| f.parse().unwrap_or_else(|_| panic!("bad number {f}"))).collect()).collect();
    (header, rows)
}

fn run(model: &Path, extra: &[&std::ffi::OsStr]) -> (Vec<String>, Vec<Vec<f64>>, String) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ed.csv");
    let mut args: Vec<&std::ffi::OsStr> = vec!["run".as_ref(), model.as_os_str(), "-o".as_ref(), out.as_os_str()];
    args.extend_from_slice(extra);
    let o = saltus(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "saltus run failed:\n{err}");
    assert!(!tmp.path().join("ed.partial.csv").exists());
    let (h, r) = read_csv(&out);
    (h, r, err)
}

/// The whole trajectory against Siconos, the impacts against the closed form.
fn check_against_siconos(header: &[String], rows: &[Vec<f64>]) {
    let expected: Vec<&str> =
        "t,ball.q[0],ball.q[1],ball.q[2],ball.v[0],ball.v[1],ball.v[2],floor.y[0],floor.lambda[0],kind"
            .split(',')
            .collect();
    assert_eq!(header, expected);
    // reference columns: t,q0,v0,p1,p2,lambda1,lambda2,kind
    let (rh, reference) =
        read_csv(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/siconos_bouncing_ball_ed.csv"));
    assert_eq!(rh, ["t", "q0", "v0", "p1", "p2", "lambda1", "lambda2", "kind"]);
    assert_eq!(rows.len(), 1788, "1700 TD rows + 44 × (pre, post) impact rows");
    assert_eq!(rows.len(), reference.len());
    let mut worst = 0.0f64;
    for (k, (a, b)) in rows.iter().zip(&reference).enumerate() {
        assert_eq!(a[9], b[7], "row {k}: kind");
        // λ: impulse on post-impact rows (Siconos lambda1), 0 on pre-impact rows, contact force
        // (Siconos lambda2) on TD rows
        let lambda_ref = if b[7] == 2.0 { b[5] } else { b[6] };
        let pairs = [
            (a[0], b[0]),
            (a[1], b[1]),
            (a[4], b[2]),
            (a[7], b[1]),
            (a[8], lambda_ref),
            (a[2], 0.0),
            (a[3], 0.0),
            (a[5], 0.0),
            (a[6], 0.0),
        ];
        for (x, y) in pairs {
            worst = worst.max((x - y).abs());
        }
        if b[7] == 1.0 {
            assert_eq!(a[8], 0.0, "row {k}: no λ on pre-impact rows");
        }
        if b[7] == 0.0 {
            assert_eq!(a[0], (a[0] / 0.005).round() / 200.0, "row {k}: TD events at the decimal times k h");
        }
    }
    assert!(worst <= 1e-9, "max abs difference to Siconos {worst:e}");
    assert_eq!(rows[0][0], 0.005, "the first row is t = h");
    // impact times against the closed form t1 = sqrt(2 z0/g), t_{n+1} = t_n + 2 e^n v1/g, and
    // the Newton law v⁺ = −e v⁻ with the impulse m (v⁺ − v⁻)
    let post: Vec<&Vec<f64>> = rows.iter().filter(|r| r[9] == 2.0).collect();
    let pre: Vec<&Vec<f64>> = rows.iter().filter(|r| r[9] == 1.0).collect();
    assert_eq!(post.len(), 44);
    let t1 = (2.0 * 1.0 / G).sqrt();
    let v1 = G * t1;
    let mut t_exact = t1;
    for (n, (a, b)) in pre.iter().zip(&post).enumerate() {
        assert!((b[0] - t_exact).abs() <= 1e-9 * t_exact, "impact {}: t = {} vs closed form {t_exact}", n + 1, b[0]);
        assert_eq!(a[0], b[0]);
        let v_pre = -E.powi(n as i32) * v1;
        assert!((a[4] - v_pre).abs() <= 1e-9 * v_pre.abs(), "impact {}: v_pre = {}, closed form {v_pre}", n + 1, a[4]);
        assert!((b[4] + E * a[4]).abs() <= 1e-12 * v_pre.abs(), "Newton law at impact {}", n + 1);
        assert!((b[8] - (b[4] - a[4])).abs() <= 1e-12 * v_pre.abs(), "impulse = m (v+ - v-) at impact {}", n + 1);
        assert!(a[1].abs() <= 1e-12 && a[7].abs() <= 1e-12, "gap 0 at impact {}", n + 1);
        t_exact += 2.0 * E.powi(n as i32 + 1) * v1 / G;
    }
}

#[test]
fn event_driven_ball_matches_siconos() {
    let (h, rows, err) = run(&sample("bouncing_ball/bouncing_ball_ed.xml"), &[]);
    check_against_siconos(&h, &rows);
    // the summary counts the events
    for needle in [
        "event driven",
        "1744 events",
        "1700 time-discretisation events",
        "44 nonsmooth events of which 44 impacts",
        "wall time",
        "1788 rows",
    ] {
        assert!(err.contains(needle), "summary lacks `{needle}`:\n{err}");
    }
}

#[test]
fn event_driven_ball_plugin_variant_matches_siconos() {
    let dir = common::plugin_dir();
    let (h, rows, _) = run(
        &sample("bouncing_ball/bouncing_ball_ed_plugin.xml"),
        &["--plugin-dir".as_ref(), dir.as_os_str(), "-q".as_ref()],
    );
    check_against_siconos(&h, &rows);
}

#[test]
fn integrator_options_keep_the_impacts() {
    // every method and the other LsodarOSI attributes: the 44 impact times stay on the closed form
    for osi in [
        "<LsodarOSI rtol=\"1e-12\" atol=\"1e-14\" method=\"adams\" max_order_adams=\"8\"/>",
        "<LsodarOSI rtol=\"1e-12\" atol=\"1e-14\" method=\"bdf\" max_order_bdf=\"5\" norm=\"rms\"/>",
        "<LsodarOSI rtol=\"1e-12\" atol=\"1e-14\" method=\"dopri5\" h0=\"1e-4\" hmax=\"0.1\"/>",
        "<LsodarOSI rtol=\"1e-12\" atol=\"1e-14\" hmin=\"0\" root_sampling=\"false\" max_steps=\"100000\"/>",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let model = tmp.path().join("m.xml");
        let text = model_text().replace("<LsodarOSI rtol=\"1e-12\" atol=\"1e-14\"/>", osi);
        assert_ne!(text, model_text());
        std::fs::write(&model, text).unwrap();
        let xsd = common::workspace_root().join("schemas/saltus-model.xsd");
        if let Ok(o) = Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(&model).output() {
            assert!(o.status.success(), "{osi}: {}", String::from_utf8_lossy(&o.stderr));
        }
        let (_, rows, _) = run(&model, &["-q".as_ref()]);
        let impacts: Vec<f64> = rows.iter().filter(|r| r[9] == 2.0).map(|r| r[0]).collect();
        assert_eq!(impacts.len(), 44, "{osi}");
        let t1 = (2.0 / G).sqrt();
        let mut t_exact = t1;
        for (n, t) in impacts.iter().enumerate() {
            assert!((t - t_exact).abs() <= 1e-9 * t_exact, "{osi}: impact {} at {t}, closed form {t_exact}", n + 1);
            t_exact += 2.0 * E.powi(n as i32 + 1) * G * t1 / G;
        }
    }
}

#[test]
fn every_thins_td_rows_only() {
    let (_, rows, _) =
        run(&sample("bouncing_ball/bouncing_ball_ed.xml"), &["--every".as_ref(), "10".as_ref(), "-q".as_ref()]);
    assert_eq!(rows.iter().filter(|r| r[9] == 0.0).count(), 170);
    assert_eq!(rows.iter().filter(|r| r[9] != 0.0).count(), 88);
    assert_eq!(rows.last().unwrap()[0], 8.5);
}

#[test]
fn check_describes_the_event_driven_simulation() {
    let o = saltus(["check".as_ref(), sample("bouncing_ball/bouncing_ball_ed.xml").as_os_str()]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && s.contains("1700 time-discretisation events of h = 0.005") && s.contains("EventDriven"),
        "{s}"
    );
}

fn model_text() -> String {
    std::fs::read_to_string(sample("bouncing_ball/bouncing_ball_ed.xml")).unwrap()
}

fn check_error(text: &str, needles: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("model.xml");
    std::fs::write(&model, text).unwrap();
    let o = saltus(["check".as_ref(), model.as_os_str()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    for n in needles {
        assert!(e.contains(n), "missing `{n}` in:\n{e}");
    }
}

#[test]
fn event_driven_errors_are_located() {
    let t = model_text();
    check_error(
        &t.replace("rtol=\"1e-12\" atol=\"1e-14\"", "rtol=\"0\" atol=\"0\""),
        &["EventDriven/OneStepIntegrator/LsodarOSI", "atol"],
    );
    check_error(&t.replace("<LsodarOSI", "<MoreauJeanOSI theta=\"0.5\""), &["unknown element <MoreauJeanOSI>"]);
    check_error(&t.replace("event_tol=\"1e-10\"", "event_tol=\"-1\""), &["EventDriven", "event_tol"]);
    check_error(&t.replace("event_tol=\"1e-10\"", "tol=\"1\""), &["`tol` is not an attribute of"]);
    check_error(
        &t.replace("<Lemke tol=\"1e-6\"/>\n    </ImpactProblem>", "<Pgs max_iter=\"0\"/>\n    </ImpactProblem>"),
        &["EventDriven/ImpactProblem", "max_iter"],
    );
    check_error(
        &t.replace("<NewtonImpactNSL e=\"0.9\"/>", "<ComplementarityConditionNSL size=\"1\"/>"),
        &["NSDS/Interaction[floor]", "NewtonImpactNSL"],
    );
    check_error(&t.replace("0 0 0.006", "0 0 0"), &["NSDS/LagrangianLinearTIDS[ball]/Mass", "mass matrix is 0"]);
    check_error(
        &t.replace("<TimeDiscretisation h=\"0.005\"/>", "<TimeDiscretisation h=\"20\"/>"),
        &["EventDriven/TimeDiscretisation", "steps"],
    );
    // both simulations, or none
    let ts = std::fs::read_to_string(sample("bouncing_ball/bouncing_ball_ts.xml")).unwrap();
    let sim = &ts[ts.find("<Simulation>").unwrap()..ts.find("</Simulation>").unwrap() + "</Simulation>".len()];
    check_error(&t.replace("  <EventDriven", &format!("{sim}\n  <EventDriven")), &["not both"]);
    let ed = &t[t.find("<EventDriven").unwrap()..t.find("</EventDriven>").unwrap() + "</EventDriven>".len()];
    check_error(&t.replace(ed, ""), &["missing element `Simulation`"]);
}

#[test]
fn failure_mid_run_keeps_partial_file_and_exits_1() {
    let dir = common::plugin_dir();
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("model.xml");
    // the weight plugin fails (status 3) once the integrator evaluates it at t >= 1: the
    // integrator treats a failed right-hand side as a rejected step and shrinks it until it
    // gives up at t = 1; the message names the plugin's failure, not just the step size
    let text = model_text().replace(
        "<FExt>-9.81 0 0</FExt>",
        "<FExt library=\"saltus_plugin_testing\" function=\"weight_then_fail\" params=\"1.0 9.81\"/>",
    );
    std::fs::write(&model, text).unwrap();
    let out = tmp.path().join("traj.csv");
    std::fs::write(&out, "stale\n").unwrap();
    let o = saltus([
        std::ffi::OsStr::new("run"),
        model.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--plugin-dir".as_ref(),
        dir.as_os_str(),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    for n in [
        "at t = 0.99999",
        "traj.partial.csv",
        "failed after 199 time-discretisation events",
        "weight_then_fail",
        "status 3",
        "could not step past",
    ] {
        assert!(e.contains(n), "missing `{n}` in:\n{e}");
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "stale\n", "an earlier output survives a failed run");
    let (h, rows) = read_csv(&tmp.path().join("traj.partial.csv"));
    assert_eq!(h.last().unwrap(), "kind");
    let last_t = rows.last().unwrap()[0];
    assert!(last_t < 1.0 && last_t > 0.9, "rows up to the failure: last t = {last_t}");
    assert!(rows.iter().any(|r| r[9] == 2.0), "the first impact (t = 0.4515) is in the partial file");
}

#[test]
fn run_help_shows_the_event_driven_case() {
    let o = saltus(["run", "--help"]);
    let s = String::from_utf8_lossy(&o.stdout);
    for needle in
        ["saltus run samples/bouncing_ball/bouncing_ball_ed.xml", "`kind`", "pre-impact", "impulse", "wall time"]
    {
        assert!(s.contains(needle), "run --help lacks `{needle}`:\n{s}");
    }
}
