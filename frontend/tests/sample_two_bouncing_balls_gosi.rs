//! Gallery sample `two_bouncing_balls/two_bouncing_balls_gosi.xml`: the Siconos tutorial
//! `TwoBouncingBallTS-MoreauJeanGOSI` (MoreauJeanGOSI + GlobalFrictionContact(3), NSGS_WR,
//! tol 1e-13) must reproduce the trajectory Siconos 4.4 computes for the same scene
//! (`two_bouncing_balls_gosi_siconos.csv`, written by `siconos_gosi_reference.py`) to 1e-9 on
//! every position and velocity of both balls at every step; and each step must satisfy the
//! discrete equations (impulse balance with the reported λ, Newton impact law on the normal
//! components, Coulomb cone).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let names = lines.next().expect("header").split(',').map(str::to_string).collect();
    let rows = lines.map(|l| l.split(',').map(|x| x.parse::<f64>().expect("number")).collect()).collect();
    (names, rows)
}

#[test]
fn two_bouncing_balls_gosi_matches_siconos() {
    let model = sample("two_bouncing_balls/two_bouncing_balls_gosi.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let (names, rows) = read_csv(&sample("two_bouncing_balls/two_bouncing_balls_gosi_siconos.csv"));
    assert_eq!(rows.len(), 3001, "Siconos reference: initial state + 3000 steps");
    assert_eq!(tr.len(), rows.len(), "one row per step");
    let mut worst = (0.0f64, String::new(), 0.0);
    for (j, name) in names.iter().enumerate() {
        let ours = tr.col(name);
        for (k, row) in rows.iter().enumerate() {
            let d = (ours[k] - row[j]).abs();
            if name == "t" {
                assert!(d <= 1e-12, "time {} vs {}", ours[k], row[j]);
            } else if d > worst.0 {
                worst = (d, name.clone(), row[0]);
            }
        }
    }
    assert!(worst.0 <= 1e-9, "largest deviation from Siconos: {} on {} at t = {}", worst.0, worst.1, worst.2);

    // discrete equations, normal direction: m Δv = −m g h + Σ ±λ_N; Newton's law where λ_N > 0
    let (g, h, e, mu) = (9.81, 1e-3, 0.95, 0.6);
    let (v1, v2) = (tr.col("ball1.v[0]"), tr.col("ball2.v[0]"));
    let lam = |c: &str, i: usize| tr.col(&format!("{c}.lambda[{i}]")).to_vec();
    let (lf, lb) = (lam("floor", 0), lam("balls", 0));
    let mut impacts = 0;
    for k in 1..tr.len() {
        assert!((1.0 * (v1[k] - v1[k - 1]) + g * h - (lf[k] - lb[k])).abs() <= 1e-11, "ball1 impulse, row {k}");
        assert!((2.0 * (v2[k] - v2[k - 1]) + 2.0 * g * h - lb[k]).abs() <= 1e-11, "ball2 impulse, row {k}");
        for (c, un, unk, l) in [("floor", v1[k], v1[k - 1], &lf), ("balls", v2[k] - v1[k], v2[k - 1] - v1[k - 1], &lb)]
        {
            assert!(l[k] >= -1e-12, "{c}: λ_N = {} at row {k}", l[k]);
            let lt = (lam(c, 1)[k].powi(2) + lam(c, 2)[k].powi(2)).sqrt();
            assert!(lt <= mu * l[k] + 1e-12, "{c}: outside the cone at row {k}");
            if l[k] > 1e-9 {
                assert!((un + e * unk).abs() <= 1e-9 * (1.0 + unk.abs()), "{c}: Newton law at row {k}");
                impacts += usize::from(l[k - 1] <= 1e-9);
            }
        }
    }
    assert!(impacts >= 20, "the balls bounce: {impacts} impacts");
}

/// MoreauJeanGOSI and GlobalFrictionContact only go together; the error names the element and
/// its line:column.
#[test]
fn gosi_pairing_errors_are_located() {
    let text = std::fs::read_to_string(sample("two_bouncing_balls/two_bouncing_balls_gosi.xml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            text.replace("<GlobalFrictionContact dim=\"3\">", "<FrictionContact dim=\"3\">")
                .replace("</GlobalFrictionContact>", "</FrictionContact>")
                .replace("NsgsWr", "NsgsAc"),
            "Simulation/OneStepNSProblem: MoreauJeanGOSI needs the one-step problem GlobalFrictionContact",
        ),
        (
            text.replace("<MoreauJeanGOSI theta", "<MoreauJeanOSI theta"),
            "Simulation/OneStepIntegrator/MoreauJeanOSI: the one-step problem GlobalFrictionContact needs MoreauJeanGOSI",
        ),
        (text.replace("<NsgsWr tol=\"1e-13\"", "<Nsgs relaxation=\"2.5\" tol=\"1e-13\""), "GlobalFrictionContact/Nsgs"),
        (
            text.replace("<NsgsWr tol=\"1e-13\"", "<Nsgs anderson=\"3\" tol=\"1e-13\""),
            "`anderson` is not available in the global NSGS",
        ),
    ];
    for (k, (xml, expected)) in cases.iter().enumerate() {
        let path = tmp.path().join(format!("bad{k}.xml"));
        std::fs::write(&path, xml).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        let located = format!("bad{k}.xml:");
        assert!(err.contains(expected) && err.contains(&located), "case {k}: {err}");
        let pos = err.split(&located).nth(1).unwrap_or("");
        assert!(pos.split(':').take(2).all(|x| x.parse::<usize>().is_ok()), "line:column in {err}");
    }
}
