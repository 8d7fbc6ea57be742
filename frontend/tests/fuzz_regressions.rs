//! Hand-kept corpus of tricky inputs (edge cases met while fuzzing the loader): each gives a
//! located error instead of a panic, an abort or a silent acceptance.
mod common;

use saltus_runtime::xml::{convert, load_str};
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
    expect(
        ball().replace("<H rows=\"1\" cols=\"3\">1 0 0</H>", "<H rows=\"0\" cols=\"3\">1 0 0</H>"),
        &["`rows` must be at least 1"],
    );
    expect(
        ball().replace("<H rows=\"1\" cols=\"3\">1 0 0</H>", "<H rows=\"18446744073709551615\" cols=\"2\">1 0</H>"),
        &["LagrangianLinearTIR/H"],
    );
    expect(
        ball().replace("<H rows=\"1\" cols=\"3\">1 0 0</H>", "<H rows=\"99999999999999999999\" cols=\"3\">1 0 0</H>"),
        &["model.xml:"],
    );
    expect(ball().replace("<q0>1 0 0</q0>", "<q0></q0>"), &["q0", "the vector is empty"]);
}

#[test]
fn structure_errors() {
    expect(ball().replace("ds=\"ball\"", "ds=\"ball ball\""), &["NSDS/Interaction[floor]", "names `ball` twice"]);
    expect(ball().replace("ds=\"ball\"", "ds=\"\""), &["NSDS/Interaction[floor]", "one or two"]);
    expect(
        ball().replace("<NewtonImpactNSL e=\"0.9\"/>", "<ComplementarityConditionNSL size=\"2\"/>"),
        &["H has 1 rows, the nonsmooth law has size 2"],
    );
    expect(
        ball().replace("<Lemke tol=\"1e-6\" max_iter=\"10000\"/>", "").replace("<LCP>", "<LCP><Lemke/><Pgs/>"),
        &["model.xml:"],
    );
    expect(
        ball().replace("<LCP>\n        <Lemke tol=\"1e-6\" max_iter=\"10000\"/>\n      </LCP>", "<Equality/>"),
        &["floor"],
    );
    expect(ball().replace("<FExt>-9.81 0 0</FExt>", "<FExt file=\"f.txt\">1 2 3</FExt>"), &["not several"]);
    expect(
        ball().replace("<FExt>-9.81 0 0</FExt>", "<FExt params=\"1 2\">1 2 3</FExt>"),
        &["`params` is only allowed"],
    );
    expect(ball().replace("<FExt>-9.81 0 0</FExt>", "<FExt function=\"f\"/>"), &["needs a `library`"]);
    expect(ball().replace("<NSDS>", "<NSDS></NSDS><NSDS>"), &["model.xml:"]);
}

#[test]
fn diode_shapes() {
    expect(
        diode().replace("size=\"4\"", "size=\"3\""),
        &["NSDS/Interaction[bridge]/Relation", "C has 4 rows, the nonsmooth law has size 3"],
    );
    expect(diode().replace("<B rows=\"2\" cols=\"4\">", "<B rows=\"4\" cols=\"2\">"), &["B is 4×2, expected 2×4"]);
    expect(
        diode().replace("<x0>10 0</x0>", "<x0>10 0 0</x0>"),
        &["NSDS/FirstOrderLinearTIDS[circuit]/A", "A is 2×2, the state x has 3 components"],
    );
}

#[test]
fn entities_and_encodings() {
    // An undefined entity is malformed XML, not a panic.
    expect(ball().replace("title=\"Bouncing ball (time stepping)\"", "title=\"&bogus;\""), &["model.xml:"]);
    // A NUL character is refused where it is (XML does not allow it), before the numbers are read.
    expect(ball().replace("<q0>1 0 0</q0>", "<q0>1 \u{0} 0</q0>"), &["model.xml:10:13:", "NUL character"]);
}

fn ball_ed() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ed.xml")).unwrap()
}

fn slide() -> String {
    std::fs::read_to_string(common::workspace_root().join("frontend/tests/data/friction/slide_3d.xml")).unwrap()
}

#[test]
fn event_driven_edge_cases() {
    let lsodar = "<LsodarOSI rtol=\"1e-12\" atol=\"1e-14\"/>";
    expect(ball_ed().replace(lsodar, "<LsodarOSI hmax=\"0\"/>"), &["EventDriven/OneStepIntegrator/LsodarOSI", "hmax"]);
    expect(ball_ed().replace(lsodar, "<LsodarOSI max_steps=\"0\"/>"), &["LsodarOSI", "max_steps"]);
    expect(ball_ed().replace(lsodar, "<LsodarOSI rtol=\"nan\"/>"), &["LsodarOSI", "rtol"]);
    expect(ball_ed().replace(lsodar, "<LsodarOSI method=\"rk4\"/>"), &["model.xml:"]);
    expect(ball_ed().replace(lsodar, ""), &["model.xml:"]);
    expect(ball_ed().replace("h=\"0.005\"", "h=\"1e-300\""), &["EventDriven/TimeDiscretisation", "steps"]);
    expect(ball_ed().replace("event_tol=\"1e-10\"", "merge_tol=\"inf\""), &["EventDriven", "merge_tol"]);
    expect(
        ball_ed().replace("event_tol=\"1e-10\"", "max_events_between_td=\"0\""),
        &["EventDriven", "max_events_between_td"],
    );
    expect(ball_ed().replace("<ImpactProblem>", "<ImpactProblem><Pgs/>"), &["model.xml:"]);
    let second = "</EventDriven>\n  <EventDriven><TimeDiscretisation h=\"0.1\"/><OneStepIntegrator><LsodarOSI/></OneStepIntegrator></EventDriven>";
    expect(ball_ed().replace("</EventDriven>", second), &["model.xml:"]);
}

#[test]
fn friction_contact_edge_cases() {
    let fc = "<FrictionContact dim=\"3\"";
    expect(
        slide().replace(fc, "<FrictionContact dim=\"18446744073709551615\""),
        &["FrictionContact", "dimension 2 or 3"],
    );
    expect(slide().replace(fc, "<FrictionContact"), &["<FrictionContact> needs the attribute `dim`"]);
    expect(slide().replace("mu=\"0.3\"", "mu=\"-1\""), &["NonSmoothLaw"]);
    expect(
        slide().replace("<NsgsAc tol=\"1e-10\" max_iter=\"1000\"/>", "<ViFp l_min=\"0.95\"/>"),
        &["FrictionContact/ViFp", "l_max/l_min/tau"],
    );
    expect(
        slide().replace("<NsgsAc tol=\"1e-10\" max_iter=\"1000\"/>", "<Prox sigma=\"-1\"/>"),
        &["FrictionContact/Prox"],
    );
    expect(slide().replace("<NsgsAc tol=\"1e-10\" max_iter=\"1000\"/>", "<NsgsAc/><NsgsFb/>"), &["model.xml:"]);
}
