//! `saltus solve FILE.xml`: problem files (root `<Problem>`) of an NCP, MCP or VI whose `F` comes from a
//! plugin (`plugins/complementarity`), checked against mathematics: the complementarity conditions
//! recomputed here, the energy minimum of the cable sample, its linear case against Lemke, and the
//! known solution of Josephy's NCP.
mod common;

use saltus_numerics::lcp::{self, Lcp};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn saltus<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

/// Solves `file` with `solver`, returns (CSV row fields, z, w).
fn solve(file: &Path, solver: &str, tol: &str) -> (Vec<String>, Vec<f64>, Vec<f64>) {
    let sol = file.parent().unwrap().join("sol");
    let plugins = common::plugin_dir();
    let o = saltus([
        OsStr::new("solve"),
        OsStr::new("--solver"),
        OsStr::new(solver),
        OsStr::new("--tol"),
        OsStr::new(tol),
        OsStr::new("--solutions"),
        sol.as_os_str(),
        OsStr::new("--plugin-dir"),
        plugins.as_os_str(),
        file.as_os_str(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    let row: Vec<String> = out.lines().nth(1).unwrap().split(',').map(str::to_string).collect();
    let text =
        std::fs::read_to_string(sol.join(format!("{}.txt", file.file_name().unwrap().to_string_lossy()))).unwrap();
    let vec = |name: &str| -> Vec<f64> {
        let line = text.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap();
        line.split_whitespace().skip(1).map(|t| t.parse().unwrap()).collect()
    };
    (row, vec("z"), vec("w"))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The cable sample's problem with other parameters `[k, k3, w, H]`, `n` nodes, and an optional set.
fn cable_file(dir: &Path, n: usize, params: [f64; 4]) -> PathBuf {
    let text = std::fs::read_to_string(common::workspace_root().join("samples/cable_on_obstacle/problems/cable.xml"))
        .unwrap()
        .replace("500 1e7 0.1962 0.05", &params.map(|p| p.to_string()).join(" "));
    let z0 = vec![params[3].to_string(); n].join(" ");
    let start = text.find("<z0>").unwrap();
    let end = text.find("</z0>").unwrap();
    let text = format!("{}<z0>{z0}{}", &text[..start], &text[end..]);
    write(dir, "cable.xml", &text)
}

/// The cable's energy `E(y) = Σ φ(y_{i+1} − y_i) + w Σ y_i` with `y_0 = y_{n+1} = H` and its
/// gradient `F` (written again here from the model, not taken from the plugin).
fn cable_energy(p: [f64; 4], y: &[f64]) -> (f64, Vec<f64>) {
    let [k, k3, w, h] = p;
    let n = y.len();
    let at = |i: isize| if i < 0 || i as usize >= n { h } else { y[i as usize] };
    let mut e = w * y.iter().sum::<f64>();
    let mut f = vec![w; n];
    for s in -1..n as isize {
        let d = at(s + 1) - at(s);
        e += 0.5 * k * d * d + 0.25 * k3 * d.powi(4);
        let force = k * d + k3 * d.powi(3);
        if s >= 0 {
            f[s as usize] -= force;
        }
        if ((s + 1) as usize) < n {
            f[(s + 1) as usize] += force;
        }
    }
    (e, f)
}

#[test]
fn the_cable_sample_rests_at_its_energy_minimum() {
    let sample = common::workspace_root().join("samples/cable_on_obstacle/problems/cable.xml");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("cable.xml");
    std::fs::copy(&sample, &file).unwrap();
    let p = [500.0, 1e7, 0.1962, 0.05];
    let (row, y, w) = solve(&file, "newton-fb", "1e-12");
    assert_eq!(&row[1..4], ["ncp", "49", "newton-fb"], "{row:?}");
    assert_eq!(row[5], "converged", "{row:?}");
    let (e, f) = cable_energy(p, &y);
    // the solver's w is F(y), and complementarity holds to the tolerance
    for i in 0..y.len() {
        assert!((w[i] - f[i]).abs() < 1e-12, "w[{i}] = {} vs F = {}", w[i], f[i]);
        assert!(y[i].min(f[i]).abs() < 1e-12, "node {i}: y = {}, F = {}", y[i], f[i]);
    }
    // it rests on the floor over a middle stretch, symmetric, and the floor carries the weight there
    let touching: Vec<usize> = (0..y.len()).filter(|&i| y[i] < 1e-12).collect();
    assert!(touching.len() > 5 && touching.contains(&24), "{touching:?}");
    for i in 0..y.len() {
        assert!((y[i] - y[y.len() - 1 - i]).abs() < 1e-12);
    }
    // a minimum of the convex energy on y ≥ 0: every feasible perturbation raises it
    let mut seed = 7u64;
    for _ in 0..200 {
        let z: Vec<f64> = y
            .iter()
            .map(|v| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let r = ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1e-3;
                (v + r).max(0.0)
            })
            .collect();
        assert!(cable_energy(p, &z).0 >= e - 1e-15, "a lower energy at a feasible point");
    }
}

#[test]
fn the_linear_cable_is_the_lcp_lemke_solves() {
    let tmp = tempfile::tempdir().unwrap();
    let (n, p) = (15, [200.0, 0.0, 0.5, 0.04]);
    let file = cable_file(tmp.path(), n, p);
    for solver in ["newton-fb", "newton-min"] {
        let (row, y, _) = solve(&file, solver, "1e-12");
        assert_eq!(row[5], "converged", "{row:?}");
        // k3 = 0: F(y) = K y + c with K = k tridiag(-1, 2, -1), c = w - k H at the two end nodes
        let [k, _, w, h] = p;
        let mut m = nalgebra::DMatrix::zeros(n, n);
        let mut q = vec![w; n];
        for i in 0..n {
            m[(i, i)] = 2.0 * k;
            if i + 1 < n {
                m[(i, i + 1)] = -k;
                m[(i + 1, i)] = -k;
            }
        }
        q[0] -= k * h;
        q[n - 1] -= k * h;
        let prob = Lcp::new(m.into(), q).unwrap();
        let (mut z, mut ww) = (vec![0.0; n], vec![0.0; n]);
        let r = lcp::solve(
            &prob,
            &mut z,
            &mut ww,
            &lcp::solver_by_name("lemke", saltus_numerics::IterOptions::new(1e-14, 1000)).unwrap(),
        )
        .unwrap();
        assert!(r.status.converged());
        for i in 0..n {
            assert!((y[i] - z[i]).abs() < 1e-10, "{solver}, node {i}: {} vs Lemke {}", y[i], z[i]);
        }
    }
}

const MCPLIB: &str = r#"library="saltus_plugin_complementarity" function="mcplib_f" jacobian="mcplib_jacobian""#;

#[test]
fn josephy_kojima_shindo_and_the_other_kinds() {
    let tmp = tempfile::tempdir().unwrap();
    // Josephy's NCP: one solution (√6/2, 0, 0, 1/2)
    let ncp = write(
        tmp.path(),
        "josephy.xml",
        &format!(r#"<Problem version="1.0"><NCP><F {MCPLIB} params="3 3 1"/><z0>1 1 1 1</z0></NCP></Problem>"#),
    );
    for solver in ["newton-fb", "newton-min"] {
        let (row, z, _) = solve(&ncp, solver, "1e-12");
        assert_eq!(row[5], "converged", "{row:?}");
        let want = [1.5f64.sqrt(), 0.0, 0.0, 0.5];
        for i in 0..4 {
            assert!((z[i] - want[i]).abs() < 1e-8, "{solver}: {z:?}");
        }
    }
    // Kojima–Shindo as an MCP with its first row an equation: F_0 = 0, 0 ≤ z_c ⊥ F_c ≥ 0
    let mcp = write(
        tmp.path(),
        "ks.xml",
        &format!(
            r#"<Problem version="1.0"><MCP equations="1"><F {MCPLIB} params="10 9 9"/><z0>1 1 1 1</z0></MCP></Problem>"#
        ),
    );
    let (row, z, w) = solve(&mcp, "newton-fb", "1e-12");
    assert_eq!((row[1].as_str(), row[5].as_str()), ("mcp", "converged"), "{row:?}");
    assert!(w[0].abs() < 1e-12, "{w:?}");
    for i in 1..4 {
        assert!(z[i] >= -1e-12 && w[i] >= -1e-12 && z[i].min(w[i]).abs() < 1e-12, "{z:?} {w:?}");
    }
    // The same F on the ball ‖x‖ ≤ 1: x = P_K(x − F(x)), recomputed here
    let ball = write(
        tmp.path(),
        "ball.xml",
        &format!(
            r#"<Problem version="1.0"><VI><F {MCPLIB} params="3 3 1"/><x0>0 0 0 0</x0><Ball center="0 0 0 0" radius="1"/></VI></Problem>"#
        ),
    );
    let (row, x, f) = solve(&ball, "extragradient", "1e-9");
    assert_eq!((row[1].as_str(), row[5].as_str()), ("vi", "converged"), "{row:?}");
    let y: Vec<f64> = (0..4).map(|i| x[i] - f[i]).collect();
    let norm = y.iter().map(|v| v * v).sum::<f64>().sqrt();
    let p: Vec<f64> = y.iter().map(|v| v / norm.max(1.0)).collect();
    let gap = (0..4).map(|i| (x[i] - p[i]).powi(2)).sum::<f64>().sqrt();
    assert!(gap < 1e-6, "‖x − P_K(x − F(x))‖ = {gap}: {x:?}");
    // A set known by its projection (a plugin): the half-space x₀ + x₁ ≤ 1 and F(x) = x − a, solved by
    // x = P_K(a) = a − ((a₀ + a₁ − 1)/2) (1, 1) = (1, 0) for a = (2, 1)
    let half = write(
        tmp.path(),
        "half.xml",
        r#"<Problem version="1.0"><VI><F library="saltus_plugin_complementarity" function="shift_f" params="2 1"/><x0>0 0</x0>
  <Projection library="saltus_plugin_complementarity" function="halfspace_projection" params="1 1 1"/></VI></Problem>"#,
    );
    for solver in ["extragradient", "fixed-point"] {
        let (row, x, _) = solve(&half, solver, "1e-10");
        assert_eq!((row[1].as_str(), row[5].as_str()), ("vi", "converged"), "{row:?}");
        assert!((x[0] - 1.0).abs() < 1e-8 && x[1].abs() < 1e-8, "{solver}: {x:?}");
    }
    // A box VI: the cable between a floor and a ceiling; F ≥ 0 at the floor, ≤ 0 at the ceiling, 0 between
    let p4 = [500.0, 1e7, 0.1962, 0.05];
    let cable = cable_file(tmp.path(), 9, p4);
    let text = std::fs::read_to_string(&cable).unwrap().replace("<NCP>", "<VI>").replace("</NCP>", "</VI>");
    let text = text
        .replace("<z0>", "<x0>")
        .replace("</z0>", "</x0><lb>0 0 0 0 0 0 0 0 0</lb><ub>0.03 0.03 0.03 0.03 0.03 0.03 0.03 0.03 0.03</ub>");
    let boxed = write(tmp.path(), "boxed.xml", &text);
    let (row, y, f) = solve(&boxed, "newton-qi", "1e-12");
    assert_eq!((row[1].as_str(), row[5].as_str()), ("vi", "converged"), "{row:?}");
    let (_, f_here) = cable_energy(p4, &y);
    let mut at_ceiling = 0;
    for i in 0..9 {
        assert!((f[i] - f_here[i]).abs() < 1e-12);
        assert!((-1e-12..=0.03 + 1e-12).contains(&y[i]), "{y:?}");
        if y[i] > 0.03 - 1e-12 {
            at_ceiling += 1;
            assert!(f[i] <= 1e-12, "node {i} at the ceiling pushes up: F = {}", f[i]);
        } else if y[i] < 1e-12 {
            assert!(f[i] >= -1e-12);
        } else {
            assert!(f[i].abs() < 1e-12, "free node {i}: F = {}", f[i]);
        }
    }
    assert!(at_ceiling >= 2, "the ends pull the cable up to the ceiling: {y:?}");
}

#[test]
fn problem_file_errors_name_the_place() {
    let tmp = tempfile::tempdir().unwrap();
    let plugins = common::plugin_dir();
    let run = |name: &str, text: &str, solver: &str| -> (Option<i32>, String, String) {
        let f = write(tmp.path(), name, text);
        let o = saltus([
            OsStr::new("solve"),
            OsStr::new("--solver"),
            OsStr::new(solver),
            OsStr::new("--plugin-dir"),
            plugins.as_os_str(),
            f.as_os_str(),
        ]);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let cases = [
        (
            "symbol.xml",
            r#"<Problem version="1.0">
  <NCP><F library="saltus_plugin_complementarity" function="nope"/><z0>1</z0></NCP></Problem>"#,
            "newton-fb",
            vec!["symbol.xml:2:8", "NCP/F", "nope"],
        ),
        (
            "attr.xml",
            r#"<Problem version="1.0"><NCP size="3"><F library="x" function="f"/><z0>1</z0></NCP></Problem>"#,
            "newton-fb",
            vec!["attr.xml:1:", "`size` is not an attribute of <NCP>"],
        ),
        (
            "root.xml",
            r#"<Model version="1.0"><NCP/></Model>"#,
            "newton-fb",
            vec!["root.xml:1:1", "root element is <Model>, expected <Problem>"],
        ),
        (
            "eq.xml",
            &format!(
                r#"<Problem version="1.0"><MCP equations="5"><F {MCPLIB} params="3 3 1"/><z0>1 1 1 1</z0></MCP></Problem>"#
            ),
            "newton-fb",
            vec!["eq.xml:1:", "MCP", "equations = 5 is larger than the size 4"],
        ),
        (
            "newton_ball.xml",
            &format!(
                r#"<Problem version="1.0"><VI><F {MCPLIB} params="3 3 1"/><x0>0 0 0 0</x0><Ball center="0 0 0 0" radius="1"/></VI></Problem>"#
            ),
            "newton-fb",
            vec!["newton_ball.xml", "a convex set other than a box"],
        ),
        (
            "start.xml",
            r#"<Problem version="1.0"><NCP><F library="x" function="f"/></NCP></Problem>"#,
            "newton-fb",
            vec!["start.xml:1:24", "<NCP> needs a <z0> child element"],
        ),
        (
            "solver.xml",
            &format!(r#"<Problem version="1.0"><NCP><F {MCPLIB} params="3 3 1"/><z0>1 1 1 1</z0></NCP></Problem>"#),
            "lemke",
            vec!["solver.xml", "no ncp solver `lemke`"],
        ),
    ];
    for (name, text, solver, want) in cases {
        let (code, out, err) = run(name, text, solver);
        assert_eq!(code, Some(1), "{name}: {out}{err}");
        for w in want {
            assert!(err.contains(w), "{name}: `{w}` not in: {err}");
        }
        assert_eq!(err.lines().filter(|l| l.contains(name)).count(), 1, "{name}: one message: {err}");
        assert!(out.lines().nth(1).is_some_and(|l| l.contains(",error,")), "{name}: {out}");
    }
}

/// The sample's problem file, and the problem files the tests write, validate against the schema
/// (skipped, with a note, without xmllint; CI installs it).
#[test]
fn problem_files_validate_against_the_schema() {
    if Command::new("xmllint").arg("--version").output().is_err() {
        eprintln!("xmllint not installed: schema validation skipped");
        return;
    }
    let root = common::workspace_root();
    let tmp = tempfile::tempdir().unwrap();
    let mcp = write(
        tmp.path(),
        "mcp.xml",
        &format!(
            r#"<Problem version="1.0" title="KS"><MCP equations="1"><F {MCPLIB} params="10 9 9"/><z0>1 1 1 1</z0></MCP></Problem>"#
        ),
    );
    let vi = write(
        tmp.path(),
        "vi.xml",
        &format!(
            r#"<Problem version="1.0"><VI><F {MCPLIB}/><x0>0 0</x0><Ball center="0 0" radius="1"/></VI></Problem>"#
        ),
    );
    let boxed = write(
        tmp.path(),
        "box.xml",
        &format!(r#"<Problem version="1.0"><VI><F {MCPLIB}/><x0>0</x0><lb>0</lb><ub>1</ub></VI></Problem>"#),
    );
    let projection = write(
        tmp.path(),
        "projection.xml",
        &format!(
            r#"<Problem version="1.0"><VI><F {MCPLIB}/><x0>0 0</x0><Projection library="l" function="p" params="1 1 1"/></VI></Problem>"#
        ),
    );
    let bad = write(
        tmp.path(),
        "bad.xml",
        &format!(r#"<Problem version="1.0"><VI><F {MCPLIB}/><x0>0</x0><lb>0</lb></VI></Problem>"#),
    );
    let xsd = root.join("schemas/saltus-model.xsd");
    let valid = |f: &Path| Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(f).output().unwrap();
    for f in [root.join("samples/cable_on_obstacle/problems/cable.xml"), mcp, vi, boxed, projection] {
        let o = valid(&f);
        assert!(o.status.success(), "{}: {}", f.display(), String::from_utf8_lossy(&o.stderr));
    }
    assert!(!valid(&bad).status.success(), "a box without <ub> validates");
}

/// A folder's problem files are solved (its model files are not problem files and are left out).
#[test]
fn a_folder_of_problem_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("problems");
    std::fs::create_dir(&dir).unwrap();
    for (name, k) in [("a.xml", "3 3 1"), ("b.xml", "10 9 9")] {
        write(
            &dir,
            name,
            &format!(r#"<Problem version="1.0"><NCP><F {MCPLIB} params="{k}"/><z0>1 1 1 1</z0></NCP></Problem>"#),
        );
    }
    std::fs::copy(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml"), dir.join("model.xml"))
        .unwrap();
    let plugins = common::plugin_dir();
    let o = saltus([
        OsStr::new("solve"),
        OsStr::new("--solver"),
        OsStr::new("newton-fb"),
        OsStr::new("--plugin-dir"),
        plugins.as_os_str(),
        dir.as_os_str(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let names: Vec<&str> = out.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(names, ["a.xml", "b.xml"], "{out}");
    assert!(out.lines().skip(1).all(|l| l.contains(",ncp,4,newton-fb,") && l.contains(",converged,")), "{out}");
}

/// `saltus check` reads a problem file and calls its plugin once; `saltus run` says it is not a model.
#[test]
fn check_and_run_on_a_problem_file() {
    let sample = common::workspace_root().join("samples/cable_on_obstacle/problems/cable.xml");
    let plugins = common::plugin_dir();
    let o = saltus([OsStr::new("check"), sample.as_os_str(), OsStr::new("--plugin-dir"), plugins.as_os_str()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("OK — problem file: ncp, 49 unknowns"), "{out}");
    // a size the plugin refuses (status 1) is found by check, with the element
    let tmp = tempfile::tempdir().unwrap();
    let bad = write(
        tmp.path(),
        "three.xml",
        &format!(r#"<Problem version="1.0"><NCP><F {MCPLIB} params="3 3 1"/><z0>1 1 1</z0></NCP></Problem>"#),
    );
    let o = saltus([OsStr::new("check"), bad.as_os_str(), OsStr::new("--plugin-dir"), plugins.as_os_str()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("three.xml") && err.contains("NCP/F") && err.contains("status 1"), "{err}");
    let out_csv = tmp.path().join("out.csv");
    let o = saltus([OsStr::new("run"), sample.as_os_str(), OsStr::new("-o"), out_csv.as_os_str()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is a problem file") && err.contains("saltus solve"), "{err}");
    assert!(!out_csv.exists());
}
