//! Gallery sample `column_of_beads`: N = 10 one-dimensional beads (m = 1, r = 0.1) fall under
//! gravity onto the ground; ground y = z0 − r, neighbours y = z_i − z_(i−1) − 2r, Newton impact
//! laws e = 0.8, Moreau–Jean θ = 0.5, h = 1e-3, T = 3. The CSV gives positions/velocities and, per
//! interaction, the velocity-level output y = H v and the impulse λ of each step.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

const N: usize = 10;
const M: f64 = 1.0;
const R: f64 = 0.1;
const G: f64 = 9.81;
const E: f64 = 0.8;
const H: f64 = 1e-3;

#[test]
fn column_of_beads_physics() {
    let model = sample("column_of_beads/column_of_beads.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n_rows = tr.len();
    let t = tr.col("t");
    assert!((t[n_rows - 1] - 3.0).abs() < 1e-9);
    let z: Vec<&[f64]> = (0..N).map(|i| tr.col(&format!("bead{i}.q[0]"))).collect();
    let v: Vec<&[f64]> = (0..N).map(|i| tr.col(&format!("bead{i}.v[0]"))).collect();
    // interaction j = 0: ground; j >= 1: beads j-1, j
    let names: Vec<String> =
        std::iter::once("ground".to_string()).chain((1..N).map(|i| format!("contact{i}"))).collect();
    let y: Vec<&[f64]> = names.iter().map(|n| tr.col(&format!("{n}.ydot[0]"))).collect();
    let lam: Vec<&[f64]> = names.iter().map(|n| tr.col(&format!("{n}.lambda[0]"))).collect();
    let gap = |j: usize, k: usize| if j == 0 { z[0][k] - R } else { z[j][k] - z[j - 1][k] - 2.0 * R };

    // No interpenetration beyond O(h): gaps >= -h * (max fall speed ~ 6 m/s) at every step.
    let vmax = (2.0 * G * 2.5f64).sqrt();
    for k in 0..n_rows {
        for j in 0..N {
            assert!(gap(j, k) >= -H * vmax, "gap {j} = {} at t = {}", gap(j, k), t[k]);
        }
    }

    // Energy never increases (dissipated energy E0 − E_k never negative) up to the O(h²) error of
    // the discrete energy in an impact step (θ = 0.5 moves the positions with the mean of the pre-
    // and post-impact velocities): tolerance N m g h² per step; and it does dissipate.
    let energy = |k: usize| (0..N).map(|i| 0.5 * M * v[i][k] * v[i][k] + M * G * z[i][k]).sum::<f64>();
    let e0 = energy(0);
    let tol = N as f64 * M * G * H * H;
    let mut prev = e0;
    let mut worst: f64 = 0.0;
    for k in 1..n_rows {
        let ek = energy(k);
        worst = worst.max(ek - prev);
        assert!(ek <= prev + tol, "energy grows at t = {}: {prev} -> {ek}", t[k]);
        assert!(e0 - ek >= -tol, "negative dissipated energy at t = {}", t[k]);
        prev = ek;
    }
    eprintln!("largest one-step energy increase {worst:e} (tolerance {tol:e})");
    let rest = (0..N).map(|i| M * G * (R + 2.0 * R * i as f64)).sum::<f64>();
    // the resting column sits O(h) low (velocity-level contacts let the gaps drift by O(h)): within
    // 1 % of the dissipated energy E0 − E_rest.
    assert!(
        (energy(n_rows - 1) - rest).abs() < 1e-2 * (e0 - rest),
        "final energy {} vs resting column {rest}",
        energy(n_rows - 1)
    );

    // Complementarity of the Newton impact law at every step: λ >= 0, and where λ > 0 the
    // post-impact velocity satisfies y+ + e y- = 0 (0 <= y+ + e y- ⊥ λ >= 0).
    let mut impacts = 0;
    for k in 1..n_rows {
        for j in 0..N {
            let l = lam[j][k];
            assert!(l >= -1e-10, "lambda {j} = {l} < 0 at t = {}", t[k]);
            let w = y[j][k] + E * y[j][k - 1];
            if l > 1e-9 {
                impacts += 1;
                assert!(
                    w.abs() <= 1e-8 * (1.0 + y[j][k - 1].abs()),
                    "contact {j} at t = {}: lambda = {l} but y+ + e y- = {w}",
                    t[k]
                );
            }
            // λ·w = 0 at every step
            assert!((l * w).abs() <= 1e-10, "lambda*w = {} for contact {j} at t = {}", l * w, t[k]);
        }
    }
    assert!(impacts > N, "only {impacts} active contact steps");

    // At rest: every velocity ~ 0 over the last 0.5 s and the impulse of contact j carries the
    // weight of the beads above it during one step: λ_j ≈ (N − j) m g h.
    for k in 0..n_rows {
        if t[k] < 2.5 {
            continue;
        }
        for j in 0..N {
            assert!(v[j][k].abs() < 1e-9, "bead {j} still moving at t = {}: v = {}", t[k], v[j][k]);
            let expect = (N - j) as f64 * M * G * H;
            assert!(
                (lam[j][k] - expect).abs() <= 1e-6 * expect,
                "contact {j} at t = {}: lambda = {}, expected k m g h = {expect}",
                t[k],
                lam[j][k]
            );
        }
    }
}

/// `column_of_beads_activation.xml` declares the bead–bead contacts with `activation_distance`
/// d = 0.02: the simulation links a contact when its gap drops to d and removes it when the gap
/// opens again. A contact farther than d cannot be active (d > γ h |ẏ|max, checked below), so
/// the run must be the all-declared one: every column (states, gaps, relative velocities,
/// impulses) agrees to round-off.
#[test]
fn activation_distance_run_matches_the_all_declared_column() {
    let all = run(&sample("column_of_beads/column_of_beads.xml"), &[]);
    let model = sample("column_of_beads/column_of_beads_activation.xml");
    validate_xml(&model);
    let act = run(&model, &[]);
    assert_eq!(all.len(), act.len());
    let names: Vec<String> = (0..N)
        .flat_map(|i| [format!("bead{i}.q[0]"), format!("bead{i}.v[0]")])
        .chain(
            std::iter::once("ground".into())
                .chain((1..N).map(|i| format!("contact{i}")))
                .flat_map(|n| [format!("{n}.y[0]"), format!("{n}.ydot[0]"), format!("{n}.lambda[0]")]),
        )
        .collect();
    let mut max_ydot: f64 = 0.0;
    for name in &names {
        let (a, b) = (all.col(name), act.col(name));
        for k in 0..a.len() {
            assert!((a[k] - b[k]).abs() <= 1e-12 * (1.0 + a[k].abs()), "{name} at row {k}: {} vs {}", a[k], b[k]);
        }
        if name.ends_with(".ydot[0]") {
            max_ydot = a.iter().fold(max_ydot, |m, x| m.max(x.abs()));
        }
    }
    assert!(0.5 * H * max_ydot < 0.02, "premise d > γ h |ẏ| fails: max |ẏ| = {max_ydot}");
    // contacts really were dormant: some bead–bead gap above d at some row, with λ = 0 there
    let dormant = (1..N).any(|i| act.col(&format!("contact{i}.y[0]")).iter().any(|g| *g > 0.02));
    assert!(dormant);
}

/// Bad `activation_distance` declarations are refused with the interaction's path.
#[test]
fn activation_distance_errors_are_located() {
    let text = std::fs::read_to_string(sample("column_of_beads/column_of_beads_activation.xml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let check = |body: String, want: &str| {
        let f = tmp.path().join("m.xml");
        std::fs::write(&f, body).unwrap();
        let out = tmp.path().join("o.csv");
        let res = std::process::Command::new(env!("CARGO_BIN_EXE_saltus"))
            .args(["run", "-q", "-o"])
            .arg(&out)
            .arg(&f)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&res.stderr);
        assert!(!res.status.success() && err.contains(want), "want {want:?} in: {err}");
        assert!(err.contains("Interaction[contact1]") && err.contains("m.xml:"), "not located: {err}");
        assert!(!out.exists(), "an output file was left behind");
    };
    let first = r#"ds="bead0 bead1" activation_distance="0.02""#;
    check(text.replacen(first, r#"ds="bead0 bead1" activation_distance="-1""#, 1), "finite and >= 0");
    let projection = text.replacen("</Simulation>", "<Projection/></Simulation>", 1);
    check(projection, "does not combine with <Projection>");
}
