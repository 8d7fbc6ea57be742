//! Hand-kept corpus of tricky inputs (edge cases met while fuzzing the loader): each gives a
//! located error instead of a panic, an abort or a silent acceptance.
mod common;

use saltus_frontend::xml::{convert, load_str};
use std::path::Path;

fn ball() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml")).unwrap()
}
fn diode() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/diode_bridge/diode_bridge.xml")).unwrap()
}

/// The error message of loading + converting `text`.
fn error_of(text: &str) -> String {
    let file = Path::new("/nonexistent-dir/model.xml");
    match load_str(text, file) {
        Err(e) => e.to_string(),
        Ok(l) => match convert::build(&l, vec![]) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted:\n{text}"),
        },
    }
}

fn expect(text: String, needles: &[&str]) {
    let e = error_of(&text);
    for n in needles {
        assert!(e.contains(n), "`{n}` not in: {e}");
    }
    assert!(e.starts_with("/nonexistent-dir/model.xml:"), "no file:line:col in {e}");
}

#[test]
fn non_finite_numbers() {
    expect(ball().replace("<q0>1 0 0</q0>", "<q0>1 nan 0</q0>"), &["q0", "`nan` is not finite"]);
    expect(ball().replace("<FExt>-9.81 0 0</FExt>", "<FExt>-1e309 0 0</FExt>"), &["FExt", "is not finite"]);
    expect(ball().replace("e=\"0.9\"", "e=\"NaN\""), &["NonSmoothLaw"]);
    expect(ball().replace("theta=\"0.5\"", "theta=\"NaN\""), &["OneStepIntegrator/MoreauJeanOSI", "theta"]);
    expect(ball().replace("T=\"10\"", "T=\"inf\""), &["Time", "need finite t0 < T"]);
}

#[test]
fn absurd_sizes() {
    expect(ball().replace("h=\"0.005\"", "h=\"1e-300\""), &["TimeDiscretisation", "steps"]);
    expect(ball().replace("<H rows=\"1\" cols=\"3\">1 0 0</H>", "<H rows=\"0\" cols=\"3\">1 0 0</H>"), &["`rows` must be at least 1"]);
    expect(
        ball().replace("<H rows=\"1\" cols=\"3\">1 0 0</H>", "<H rows=\"18446744073709551615\" cols=\"2\">1 0</H>"),
        &["LagrangianLinearTIR/H"],
    );
    expect(ball().replace("<H rows=\"1\" cols=\"3\">1 0 0</H>", "<H rows=\"99999999999999999999\" cols=\"3\">1 0 0</H>"), &["model.xml:"]);
    expect(ball().replace("<q0>1 0 0</q0>", "<q0></q0>"), &["q0", "the vector is empty"]);
}

#[test]
fn structure_errors() {
    expect(ball().replace("ds=\"ball\"", "ds=\"ball ball\""), &["NSDS/Interaction[floor]", "names `ball` twice"]);
    expect(ball().replace("ds=\"ball\"", "ds=\"\""), &["NSDS/Interaction[floor]", "one or two"]);
    expect(ball().replace("<NewtonImpactNSL e=\"0.9\"/>", "<ComplementarityConditionNSL size=\"2\"/>"), &["H has 1 rows, the nonsmooth law has size 2"]);
    expect(ball().replace("<Lemke tol=\"1e-6\" max_iter=\"10000\"/>", "").replace("<LCP>", "<LCP><Lemke/><Pgs/>"), &["model.xml:"]);
    expect(ball().replace("<LCP>\n        <Lemke tol=\"1e-6\" max_iter=\"10000\"/>\n      </LCP>", "<Equality/>"), &["floor"]);
    expect(ball().replace("<FExt>-9.81 0 0</FExt>", "<FExt file=\"f.txt\">1 2 3</FExt>"), &["not several"]);
    expect(ball().replace("<FExt>-9.81 0 0</FExt>", "<FExt params=\"1 2\">1 2 3</FExt>"), &["`params` is only allowed"]);
    expect(ball().replace("<FExt>-9.81 0 0</FExt>", "<FExt function=\"f\"/>"), &["needs a `library`"]);
    expect(ball().replace("<NSDS>", "<NSDS></NSDS><NSDS>"), &["model.xml:"]);
}

#[test]
fn diode_shapes() {
    expect(diode().replace("size=\"4\"", "size=\"3\""), &["NSDS/Interaction[bridge]/Relation", "C has 4 rows, the nonsmooth law has size 3"]);
    expect(diode().replace("<B rows=\"2\" cols=\"4\">", "<B rows=\"4\" cols=\"2\">"), &["B is 4×2, expected 2×4"]);
    expect(diode().replace("<x0>10 0</x0>", "<x0>10 0 0</x0>"), &["NSDS/FirstOrderLinearTIDS[circuit]/A", "A is 2×2, the system has 3 degrees of freedom"]);
}

#[test]
fn entities_and_encodings() {
    // An undefined entity is malformed XML, not a panic.
    expect(ball().replace("title=\"Bouncing ball (time stepping)\"", "title=\"&bogus;\""), &["model.xml:"]);
    // A NUL character inside text is just a bad number.
    expect(ball().replace("<q0>1 0 0</q0>", "<q0>1 \u{0} 0</q0>"), &["q0"]);
}
