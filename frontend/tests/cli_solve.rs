//! `saltus solve` and `saltus solvers` (through `saltus_numerics::driver`).
use std::process::{Command, Output};

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

/// M = [[2, 1], [1, 2]], q = (-5, -6): z = M⁻¹(-q) = (4/3, 7/3) > 0, w = 0.
const LCP: &str = "2\n0\n2\n2\n2 2\n2 1\n1 2\n-5 -6\n";

fn vector(out: &str, name: &str) -> Vec<f64> {
    let line = out.lines().find(|l| l.starts_with(&format!("{name} = "))).unwrap_or_else(|| panic!("no {name} in\n{out}"));
    line[name.len() + 3..].split_whitespace().map(|t| t.parse().unwrap()).collect()
}

#[test]
fn solvers_lists_every_family() {
    let o = saltus(["solvers"]);
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    for want in ["lcp:", "mlcp:", "relay:", "qp:", "lemke", "newton-fb"] {
        assert!(s.contains(want), "missing {want}:\n{s}");
    }
    let o = saltus(["solvers", "relay"]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("relay:") && !s.contains("mlcp:"), "{s}");
}

#[test]
fn solve_small_lcp_with_every_solver() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("small.dat");
    std::fs::write(&f, LCP).unwrap();
    for solver in ["lemke", "pgs", "enum", "newton-fb"] {
        let o = saltus([std::ffi::OsStr::new("solve"), f.as_os_str(), "--type".as_ref(), "lcp".as_ref(), "--solver".as_ref(), solver.as_ref(), "--tol".as_ref(), "1e-12".as_ref()]);
        let s = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{solver}: {}\n{s}", String::from_utf8_lossy(&o.stderr));
        let z = vector(&s, "z");
        let w = vector(&s, "w");
        assert!((z[0] - 4.0 / 3.0).abs() < 1e-9 && (z[1] - 7.0 / 3.0).abs() < 1e-9, "{solver}: z = {z:?}");
        assert!(w.iter().all(|v| v.abs() < 1e-9), "{solver}: w = {w:?}");
    }
}

#[test]
fn solve_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("small.dat");
    std::fs::write(&f, LCP).unwrap();
    let o = saltus([std::ffi::OsStr::new("solve"), f.as_os_str(), "--type".as_ref(), "lcp".as_ref(), "--solver".as_ref(), "magic".as_ref()]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no lcp solver `magic`"));
    // type cannot be guessed from "small.dat" in a temp dir
    let o = saltus([std::ffi::OsStr::new("solve"), f.as_os_str(), "--solver".as_ref(), "lemke".as_ref()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--type"));
    let bad = tmp.path().join("bad.dat");
    std::fs::write(&bad, "2\n0\n2\n2\n2 2\n2 x\n").unwrap();
    let o = saltus([std::ffi::OsStr::new("solve"), bad.as_os_str(), "--type".as_ref(), "lcp".as_ref(), "--solver".as_ref(), "lemke".as_ref()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.dat"), "{}", String::from_utf8_lossy(&o.stderr));
    // one PGS sweep does not converge: reported, exit 1
    let o = saltus([std::ffi::OsStr::new("solve"), f.as_os_str(), "--type".as_ref(), "lcp".as_ref(), "--solver".as_ref(), "pgs".as_ref(), "--max-iter".as_ref(), "1".as_ref(), "--tol".as_ref(), "1e-14".as_ref()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("MaxIterations"), "{}", String::from_utf8_lossy(&o.stdout));
}
