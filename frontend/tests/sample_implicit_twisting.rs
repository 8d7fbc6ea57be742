//! Gallery sample `implicit_twisting`: `NormalConeNSL` + `AVI` through `saltus run`.
//! x1' = x2, x2' = G (λ1 + β λ2), y = x, −y ∈ N_P(λ), P = {|λ1| ≤ 1, |λ2 − (h/2) λ1| ≤ 1}
//! (G = 10, β = 0.3, h = 0.1, θ = ½). Checks at every step: λ ∈ P and the normal-cone inclusion
//! `⟨y, v − λ⟩ ≥ 0` for the four vertices `v` of P (which is `−y ∈ N_P(λ)` for a polytope), both
//! as explicit residuals; the closed form of the first arc; the origin reached in finite time.
mod sample_util;
use sample_util::*;

const G: f64 = 10.0;
const BETA: f64 = 0.3;
const H: f64 = 0.1;

#[test]
fn implicit_twisting_normal_cone_residuals_and_finite_time_convergence() {
    let model = sample("implicit_twisting/implicit_twisting.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let (t, x1, x2) = (tr.col("t"), tr.col("plant.x[0]"), tr.col("plant.x[1]"));
    let (y1, y2) = (tr.col("twisting.y[0]"), tr.col("twisting.y[1]"));
    let (l1, l2) = (tr.col("twisting.lambda[0]"), tr.col("twisting.lambda[1]"));
    assert_eq!(tr.len(), 201);
    assert!((t[200] - 20.0).abs() < 1e-12);

    // P = {λ : H λ ≥ K}: rows (1, 0), (−h/2, 1), (−1, 0), (h/2, −1), K = −1; its vertices.
    let rows = [[1.0, 0.0], [-H / 2.0, 1.0], [-1.0, 0.0], [H / 2.0, -1.0]];
    let vertices = [[1.0, 1.0 + H / 2.0], [1.0, -1.0 + H / 2.0], [-1.0, 1.0 - H / 2.0], [-1.0, -1.0 - H / 2.0]];
    let (mut outside, mut cone) = (0.0f64, 0.0f64);
    for k in 1..tr.len() {
        assert_eq!((y1[k], y2[k]), (x1[k], x2[k]), "y = C x with C = I at t = {}", t[k]);
        for r in &rows {
            outside = outside.max(-1.0 - (r[0] * l1[k] + r[1] * l2[k]));
        }
        let worst =
            vertices.iter().map(|v| y1[k] * (v[0] - l1[k]) + y2[k] * (v[1] - l2[k])).fold(f64::INFINITY, f64::min);
        cone = cone.max((-worst).max(0.0) / (1.0 + y1[k].hypot(y2[k])));
    }
    assert!(outside <= 1e-12, "λ leaves P by {outside:e}");
    assert!(cone <= 1e-12, "normal-cone residual {cone:e}");

    // First arc (x2 > 0): λ at the vertex (−1, −1 − h/2), constant acceleration a, which the
    // trapezoidal rule integrates exactly.
    let a = -G * (1.0 + BETA * (1.0 + H / 2.0));
    let mut arc = 0;
    for k in 1..tr.len() {
        if 10.0 + a * t[k] <= 0.0 {
            break;
        }
        arc += 1;
        assert!((l1[k] + 1.0).abs() <= 1e-14 && (l2[k] + 1.0 + H / 2.0).abs() <= 1e-14, "λ at t = {}", t[k]);
        assert!((x2[k] - (10.0 + a * t[k])).abs() <= 1e-12, "x2({}) = {}", t[k], x2[k]);
        assert!((x1[k] - (10.0 + 10.0 * t[k] + a * t[k] * t[k] / 2.0)).abs() <= 1e-12, "x1({}) = {}", t[k], x1[k]);
    }
    assert_eq!(arc, 7, "the first arc lasts until x2 = 10 + a t changes sign (t = 0.76)");

    // Finite-time convergence: the state is at the origin to round-off over the last 2 s.
    for k in 0..tr.len() {
        if t[k] > 18.0 {
            assert!(x1[k].abs() < 1e-13 && x2[k].abs() < 1e-13, "x({}) = ({}, {})", t[k], x1[k], x2[k]);
        }
    }
}

/// Located errors: a `K` with the wrong length names `K`, an `H` with the wrong number of
/// columns names `H`, a complementarity law under `<AVI>` names the interaction.
#[test]
fn normal_cone_shape_errors_are_located() {
    let text = std::fs::read_to_string(sample("implicit_twisting/implicit_twisting.xml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let check = |name: &str, edited: String, expect: &[&str]| {
        let path = dir.path().join(name);
        std::fs::write(&path, edited).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: accepted");
        for e in expect {
            assert!(err.contains(e), "{name}: `{e}` not in {err}");
        }
    };
    check(
        "short_k.xml",
        text.replace("<K>-1 -1 -1 -1</K>", "<K>-1 -1 -1</K>"),
        &["Interaction[twisting]/NonSmoothLaw/NormalConeNSL/K", "K has 3 entries but H has 4 rows", "short_k.xml:"],
    );
    check(
        "size.xml",
        text.replace("<NormalConeNSL size=\"2\">", "<NormalConeNSL size=\"3\">"),
        &["NormalConeNSL/H", "H has 2 columns but size = 3"],
    );
    check(
        "line.xml",
        text.replace("-0.05  1", "-1  0").replace("0.05 -1", "1  0"),
        &["NormalConeNSL/H", "contains a line"],
    );
    check(
        "law.xml",
        text.replace(
            "<AVI>\n        <CaoFerris tol=\"1e-12\"/>\n      </AVI>",
            "<Relay>\n        <Lemke/>\n      </Relay>",
        ),
        &["twisting", "NormalConeNSL cannot be solved by the one-step problem Relay"],
    );
}
