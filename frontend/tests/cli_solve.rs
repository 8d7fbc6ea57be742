//! `saltus solve` and `saltus solvers` (through `saltus_numerics::driver`).
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

fn saltus<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

const HEADER: &str = "problem,type,n,solver,tolerance,status,iterations,error,seconds";

/// M = [[2, 1], [1, 2]], q = (-5, -6): z = M⁻¹(-q) = (4/3, 7/3) > 0, w = 0.
const LCP: &str = "2\n0\n2\n2\n2 2\n2 1\n1 2\n-5 -6\n";

fn solve_args<'a>(files: &'a [&'a Path], extra: &'a [&'a str]) -> Vec<&'a OsStr> {
    let mut v: Vec<&OsStr> = vec![OsStr::new("solve")];
    v.extend(extra.iter().map(OsStr::new));
    v.extend(files.iter().map(|f| f.as_os_str()));
    v
}

fn rows(o: &Output) -> Vec<Vec<String>> {
    let s = String::from_utf8_lossy(&o.stdout);
    let mut lines = s.lines();
    assert_eq!(lines.next(), Some(HEADER), "{s}");
    lines.map(|l| l.split(',').map(str::to_string).collect()).collect()
}

fn solution(dir: &Path, file: &str) -> Vec<(String, Vec<f64>)> {
    let text = std::fs::read_to_string(dir.join(format!("{file}.txt"))).unwrap();
    text.lines()
        .map(|l| {
            let mut it = l.split_whitespace();
            let name = it.next().unwrap().to_string();
            (name, it.map(|t| t.parse().unwrap()).collect())
        })
        .collect()
}

#[test]
fn solvers_lists_every_family() {
    let o = saltus(["solvers"]);
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    for want in
        ["[lcp]", "[mlcp]", "[relay]", "[qp]", "[fc2d]", "[fc3d]", "[gfc3d]", "lemke", "newton-fb", "nsgs-ac", "prox"]
    {
        assert!(s.contains(want), "missing {want}:\n{s}");
    }
    let o = saltus(["solvers", "--type", "relay"]);
    let s = String::from_utf8_lossy(&o.stdout);
    let names: Vec<&str> = s.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(names, ["pgs", "lemke", "avi-caoferris"], "{s}");
    assert_eq!(saltus(["solvers", "--type", "nope"]).status.code(), Some(2));
}

#[test]
fn every_lcp_solver_answers_and_the_solution_file_checks_independently() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("small.dat");
    std::fs::write(&f, LCP).unwrap();
    let sol = tmp.path().join("sol");
    for solver in ["lemke", "pgs", "psor", "enum", "newton-fb", "newton-min", "qp"] {
        let files = [f.as_path()];
        let args = ["--type", "lcp", "--solver", solver, "--tol", "1e-12", "--solutions", sol.to_str().unwrap()];
        let o = saltus(solve_args(&files, &args));
        assert!(o.status.success(), "{solver}: {}", String::from_utf8_lossy(&o.stderr));
        let r = rows(&o);
        assert_eq!(r.len(), 1);
        assert_eq!(&r[0][..6], ["small.dat", "lcp", "2", solver, "1e-12", "converged"].map(String::from), "{solver}");
        assert!(r[0][7].parse::<f64>().unwrap() <= 1e-12 && r[0][8].parse::<f64>().unwrap() >= 0.0);
        // Independent check of the written solution: w = M z + q, 0 <= z ⊥ w >= 0.
        let v = solution(&sol, "small.dat");
        assert_eq!((v[0].0.as_str(), v[1].0.as_str()), ("z", "w"));
        let z = &v[0].1;
        let w = [2.0 * z[0] + z[1] - 5.0, z[0] + 2.0 * z[1] - 6.0];
        for i in 0..2 {
            assert!(z[i] >= -1e-12 && w[i] >= -1e-9 && (z[i] * w[i]).abs() <= 1e-9, "{solver}: z {z:?} w {w:?}");
            assert!((v[1].1[i] - w[i]).abs() <= 1e-9, "{solver}: written w {:?} vs M z + q {w:?}", v[1].1);
        }
    }
}

#[test]
fn folders_of_siconos_problems() {
    let Some(data) = saltus_numerics::io::test_data_dir() else {
        eprintln!("skipped: no Siconos test data (set SALTUS_TEST_DATA)");
        return;
    };
    let lcp = data.join("numerics/lcp");
    let o = saltus(solve_args(&[lcp.as_path()], &["--solver", "lemke"]));
    let r = rows(&o);
    let n_files = std::fs::read_dir(&lcp)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "dat"))
        .count();
    assert_eq!(r.len(), n_files);
    // Lemke is a dense pivoting method: the sparse-block copies are refused with a typed error
    // (error rows); lcp_Pang_isolated_sol_perturbed has no solution and lcp_CPS_3 ends on a
    // secondary ray (failed rows); every converged row meets the tolerance.
    let mut converged = 0;
    for row in &r {
        assert_eq!(row[1], "lcp");
        match row[5].as_str() {
            "converged" => {
                converged += 1;
                assert!(row[7].parse::<f64>().unwrap() <= 1e-8, "{row:?}");
            }
            "error" => assert!(row[0].ends_with("_block.dat"), "{row:?}"),
            "failed" => {
                assert!(["lcp_Pang_isolated_sol_perturbed.dat", "lcp_CPS_3.dat"].contains(&row[0].as_str()), "{row:?}")
            }
            other => panic!("unexpected status {other}: {row:?}"),
        }
    }
    assert_eq!(converged, n_files - 5);
    assert_eq!(o.status.code(), Some(1), "the refused block files make the command fail");
    let fc3d = data.join("numerics/fc3d/FC3D_Example1_SBM.dat");
    let tmp = tempfile::tempdir().unwrap();
    let o =
        saltus(solve_args(&[fc3d.as_path()], &["--solver", "nsgs-ac", "--solutions", tmp.path().to_str().unwrap()]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = rows(&o);
    assert_eq!((r[0][1].as_str(), r[0][2].as_str(), r[0][5].as_str()), ("fc3d", "9", "converged"));
    let v = solution(tmp.path(), "FC3D_Example1_SBM.dat");
    assert_eq!((v[0].0.as_str(), v[1].0.as_str(), v[0].1.len()), ("r", "u", 9));
    // r in the Coulomb cones.
    let mu = saltus_numerics::fc::read_fc_file(&fc3d).unwrap().mu().to_vec();
    for (c, m) in mu.iter().enumerate() {
        let rc = &v[0].1[3 * c..3 * c + 3];
        assert!(rc[1].hypot(rc[2]) <= m * rc[0] + 1e-9, "contact {c}: {rc:?}");
    }
}

#[test]
fn errors_and_statuses() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("small.dat");
    std::fs::write(&f, LCP).unwrap();
    let files = [f.as_path()];
    // Unknown solver everywhere: usage error.
    let o = saltus(solve_args(&files, &["--type", "lcp", "--solver", "magic"]));
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no solver called `magic`"));
    // A solver of another family: an error row naming the family's solvers, exit 1.
    let o = saltus(solve_args(&files, &["--type", "lcp", "--solver", "prox"]));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(rows(&o)[0][5], "error");
    assert!(String::from_utf8_lossy(&o.stderr).contains("no lcp solver `prox`"));
    // The type cannot be guessed from "small.dat" in a temp dir.
    let o = saltus(solve_args(&files, &["--solver", "lemke"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--type"));
    // A corrupt file: file:line:column, an error row, exit 1; the good file still solved.
    let bad = tmp.path().join("bad.dat");
    std::fs::write(&bad, "2\n0\n2\n2\n2 2\n2 x\n").unwrap();
    let sol = tmp.path().join("sol");
    let both = [bad.as_path(), f.as_path()];
    let o = saltus(solve_args(&both, &["--type", "lcp", "--solver", "lemke", "--solutions", sol.to_str().unwrap()]));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.dat:6:3:"), "{err}");
    let r = rows(&o);
    assert_eq!((r[0][5].as_str(), r[1][5].as_str()), ("error", "converged"));
    assert!(!sol.join("bad.dat.txt").exists() && sol.join("small.dat.txt").exists());
    // Non-convergence is a status in the CSV, not a failure of the command.
    let o = saltus(solve_args(&files, &["--type", "lcp", "--solver", "pgs", "--max-iter", "1", "--tol", "1e-14"]));
    assert!(o.status.success());
    assert_eq!(rows(&o)[0][5], "max_iterations");
    // Invalid tolerance: usage error.
    assert_eq!(
        saltus(solve_args(&files, &["--type", "lcp", "--solver", "lemke", "--tol", "-1"])).status.code(),
        Some(2)
    );
}

/// `saltus solvers --elements`: every solver element of every one-step problem of the schema,
/// with exactly the attributes the schema gives it (both read from the declarations).
#[test]
fn solver_elements_are_the_schemas() {
    use saltus_runtime::xml::xsd::Schema;
    let o = saltus(["solvers", "--elements"]);
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    let schema = Schema::builtin();
    let mut seen = 0;
    for problem in ["LCP", "MLCP", "Relay", "AVI", "FrictionContact", "GlobalFrictionContact", "GenericMechanical"] {
        let path = ["Model", "Simulation", "OneStepNSProblem", problem];
        let el = schema.element(&path).unwrap_or_else(|| panic!("no {path:?} in the schema"));
        for child in el.child_names() {
            let tag = format!("{child} [{problem}] ");
            let line = s.lines().find(|l| l.starts_with(&tag)).unwrap_or_else(|| panic!("no `{tag}`:\n{s}"));
            let listed: std::collections::BTreeSet<&str> =
                line[tag.len()..].split(" — ").next().unwrap().split_whitespace().collect();
            let mut p = path.to_vec();
            p.push(child);
            let want: std::collections::BTreeSet<&str> =
                schema.element(&p).unwrap().attribute_names().into_iter().collect();
            assert_eq!(listed, want, "{line}");
            seen += 1;
        }
    }
    assert_eq!(seen, s.lines().count(), "lines for elements the schema does not have:\n{s}");
    assert!(seen >= 25, "{seen}");
    assert_eq!(saltus(["solvers", "--elements", "--type", "lcp"]).status.code(), Some(2));
}
