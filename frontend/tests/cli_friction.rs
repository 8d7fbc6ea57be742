//! `<FrictionContact>` one-step problems written in XML and run by `saltus run`: a ball sliding
//! on a plane with Coulomb friction (Moreau–Jean, `NewtonImpactFrictionNSL`, en = 0).
//!
//! Physics checked on the CSV: the tangential velocity decreases at exactly μ g until it
//! reaches 0 at t* = v₀/(μ g), then stays 0; the normal impulse is m g h (the contact carries
//! the weight); complementarity `0 ≤ u_N ⊥ P_N ≥ 0`; Coulomb's cone `|P_T| ≤ μ P_N`, with
//! `P_T = −μ P_N u_T/|u_T|` while sliding. Solver/dimension mismatches are located errors.
mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const G: f64 = 9.81;
const MU: f64 = 0.3;
const M: f64 = 2.0;
const H: f64 = 1e-3;
const V0: f64 = 1.0;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/friction").join(name)
}

fn saltus<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

fn read_csv(path: &Path) -> HashMap<String, Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); header.len()];
    for l in lines {
        for (j, f) in l.split(',').enumerate() {
            cols[j].push(f.parse().unwrap());
        }
    }
    header.into_iter().zip(cols).collect()
}

/// Runs `model` (XML text) and returns its CSV columns.
fn run_text(text: &str) -> HashMap<String, Vec<f64>> {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("model.xml");
    std::fs::write(&model, text).unwrap();
    let out = tmp.path().join("out.csv");
    let o = saltus(["run".as_ref(), model.as_os_str(), "-o".as_ref(), out.as_os_str(), "-q".as_ref()]);
    assert!(o.status.success(), "saltus run failed:\n{}", String::from_utf8_lossy(&o.stderr));
    read_csv(&out)
}

/// Checks the sliding-ball physics in dimension `dim`; `dir` is the unit launch direction.
fn check_sliding(c: &HashMap<String, Vec<f64>>, dim: usize, dir: &[f64]) {
    let t = &c["t"];
    let n = t.len();
    assert_eq!(n, 501, "rows: row 0 + 500 steps");
    let t_star = V0 / (MU * G);
    // q = (x[, y], z): the tangential velocity is ball.v[0..dim-1]
    let speed = |k: usize| (0..dim - 1).map(|j| c[&format!("ball.v[{j}]")][k].powi(2)).sum::<f64>().sqrt();
    assert!((speed(0) - V0).abs() <= 1e-15);
    let mut sliding_rows = 0;
    for k in 1..n {
        let pn = c["plane.lambda[0]"][k];
        let un = c["plane.ydot[0]"][k];
        // complementarity at the impulse level (en = 0): 0 <= u_N ⊥ P_N >= 0
        assert!(pn >= -1e-12 && un >= -1e-10 && (pn * un).abs() <= 1e-12, "t = {}: u_N = {un}, P_N = {pn}", t[k]);
        assert!((pn - M * G * H).abs() <= 1e-9, "the contact carries the weight: P_N = {pn}, m g h = {}", M * G * H);
        let pt: Vec<f64> = (1..dim).map(|j| c[&format!("plane.lambda[{j}]")][k]).collect();
        let pt_norm = pt.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!(
            pt_norm <= MU * pn * (1.0 + 1e-9) + 1e-14,
            "Coulomb cone at t = {}: |P_T| = {pt_norm}, mu P_N = {}",
            t[k],
            MU * pn
        );
        // tangential speed: v0 - mu g t while sliding, 0 after t*
        let expected = (V0 - MU * G * t[k]).max(0.0);
        let s = speed(k);
        assert!((s - expected).abs() <= 1e-7, "t = {}: |u_T| = {s}, expected {expected}", t[k]);
        // the contact's tangential velocity is the ball's, along the launch direction
        for (j, d) in dir.iter().enumerate() {
            let ut = c[&format!("plane.ydot[{}]", j + 1)][k];
            assert!(
                (ut - d * s).abs() <= 1e-9 && (ut - c[&format!("ball.v[{j}]")][k]).abs() <= 1e-15,
                "direction at t = {}",
                t[k]
            );
        }
        if t[k] < t_star - H {
            sliding_rows += 1;
            // deceleration μ g between consecutive rows
            let decel = (speed(k - 1) - s) / (t[k] - t[k - 1]);
            assert!((decel - MU * G).abs() <= 1e-6, "t = {}: deceleration {decel}, mu g = {}", t[k], MU * G);
            // sliding: P_T = -mu P_N u_T/|u_T| (on the cone's boundary, opposed to the sliding)
            for (j, d) in dir.iter().enumerate() {
                assert!((pt[j] + MU * pn * d).abs() <= 1e-9, "sliding friction at t = {}: P_T = {pt:?}", t[k]);
            }
        }
    }
    assert!(sliding_rows > 300, "{sliding_rows}");
    // it sticks: the position stops at x* = v0²/(2 μ g) up to O(h)
    let x_end: f64 = (0..dim - 1).map(|j| c[&format!("ball.q[{j}]")][n - 1].powi(2)).sum::<f64>().sqrt();
    let x_star = V0 * V0 / (2.0 * MU * G);
    assert!((x_end - x_star).abs() <= 2.0 * V0 * H, "rest position {x_end}, expected {x_star}");
    assert!(speed(n - 1) <= 1e-9);
}

#[test]
fn sliding_ball_2d_nsgs_ac() {
    let c = run_text(&std::fs::read_to_string(data("slide_2d.xml")).unwrap());
    check_sliding(&c, 2, &[1.0]);
}

#[test]
fn sliding_ball_2d_every_2d_solver() {
    let text = std::fs::read_to_string(data("slide_2d.xml")).unwrap();
    for solver in
        ["<Nsgs2d tol=\"1e-12\"/>", "<NsgsFb tol=\"1e-12\"/>", "<NsgsProj tol=\"1e-12\"/>", "<ViEg tol=\"1e-12\"/>"]
    {
        let c = run_text(&text.replace("<NsgsAc tol=\"1e-10\" max_iter=\"1000\"/>", solver));
        check_sliding(&c, 2, &[1.0]);
    }
}

#[test]
fn sliding_ball_3d() {
    let text = std::fs::read_to_string(data("slide_3d.xml")).unwrap();
    for solver in [
        "<NsgsAc tol=\"1e-10\" max_iter=\"1000\"/>",
        "<NewtonAc tol=\"1e-12\"/>",
        "<Prox tol=\"1e-12\" admm_warmup=\"50\" admm_min_size=\"300\"/>",
        "<Admm tol=\"1e-12\" adaptive_rho=\"true\"/>",
    ] {
        let c = run_text(&text.replace("<NsgsAc tol=\"1e-10\" max_iter=\"1000\"/>", solver));
        check_sliding(&c, 3, &[0.6, 0.8]);
    }
}

fn check_error(text: &str, needles: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("model.xml");
    std::fs::write(&model, text).unwrap();
    let o = saltus(["check".as_ref(), model.as_os_str()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    for n in needles {
        assert!(e.contains(n), "missing `{n}` in:\n{e}");
    }
}

#[test]
fn solver_dimension_mismatches_are_located_errors() {
    let two = std::fs::read_to_string(data("slide_2d.xml")).unwrap();
    let three = std::fs::read_to_string(data("slide_3d.xml")).unwrap();
    let solver = "<NsgsAc tol=\"1e-10\" max_iter=\"1000\"/>";
    for (text, s, needle) in [
        (&two, "<Prox/>", "Prox is for dimension 3 only"),
        (&two, "<NewtonAc/>", "NewtonAc is for dimension 3 only"),
        (&two, "<Admm/>", "Admm is for dimension 3 only"),
        (&three, "<Nsgs2d/>", "Nsgs2d is for dimension 2 only"),
        (&three, "<Lemke2d/>", "Lemke2d is for dimension 2 only"),
    ] {
        let kind = s.trim_start_matches('<').trim_end_matches("/>");
        check_error(
            &text.replace(solver, s),
            &[":33:", &format!("Simulation/OneStepNSProblem/FrictionContact/{kind}"), needle],
        );
    }
    // problem dimension not 2 or 3
    check_error(
        &two.replace("<FrictionContact dim=\"2\"", "<FrictionContact dim=\"4\""),
        &["Simulation/OneStepNSProblem/FrictionContact", "dimension 2 or 3"],
    );
    // problem and law dimensions differ: the interaction is named
    check_error(
        &two.replace("<FrictionContact dim=\"2\"", "<FrictionContact dim=\"3\""),
        &["NSDS/Interaction[plane]", "FrictionContact"],
    );
    // option out of range, unknown option
    check_error(&two.replace(solver, "<NsgsAc relaxation=\"3\"/>"), &["FrictionContact/NsgsAc", "relaxation"]);
    check_error(&two.replace(solver, "<NsgsAc omega=\"1\"/>"), &["`omega` is not an attribute of"]);
    check_error(&two.replace(solver, "<Nsgs3d/>"), &["unknown element <Nsgs3d>"]);
}
