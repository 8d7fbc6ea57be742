//! Property tests: mutated samples never make the loader, the conversion or the first steps
//! panic; they either load or give a located error. Cases that once found bugs are kept in
//! `tests/fuzz_regressions.rs` (and proptest's own `proptest-regressions/` files).
mod common;

use proptest::prelude::*;
use saltus_runtime::xml::{convert, load_str};
use std::path::Path;
use std::sync::OnceLock;

const SNIPPETS: &[&str] = &[
    "<", ">", "/>", "\"", "'", "&amp;", "&bogus;", "<![CDATA[1 2]]>", "<!-- c -->", "nan", "NaN", "inf", "-inf", "1e308", "-1e308",
    "1e-320", "0", "-0", "-1", "18446744073709551616", "999999999999", "", " ", "\n", "é", "\u{0}", "<Foo/>", "bar=\"1\"",
    "rows=\"0\"", "cols=\"1000000\"", "size=\"0\"", "file=\"data.fifo\"", "file=\"data.txt\"", "file=\"..\"", "library=\"x\"", "function=\"f\"",
    "<Interaction name=\"i\" ds=\"ball ball\"><Relation><LagrangianLinearTIR><H rows=\"1\" cols=\"6\">1 0 0 0 0 0</H></LagrangianLinearTIR></Relation><NonSmoothLaw><NewtonImpactNSL e=\"0.5\"/></NonSmoothLaw></Interaction>",
    "<ComplementarityConditionNSL size=\"3\"/>", "<EqualityConditionNSL size=\"1\"/>", "<Equality/>", "<Pgs max_iter=\"0\"/>",
    "<RelayNSL><lb>-1</lb><ub>1</ub></RelayNSL>", "<Projection/>", "<Newton max_iter=\"0\"/>", "<Psor omega=\"-2\"/>",
    "<NewtonImpactFrictionNSL en=\"0.5\" mu=\"0.3\" dim=\"2\"/>", "<NewtonImpactFrictionNSL en=\"0\" mu=\"-1\" dim=\"3\"/>",
    "<FrictionContact dim=\"2\"><Nsgs2d/></FrictionContact>", "<FrictionContact dim=\"3\"><Lemke2d/></FrictionContact>",
    "<Prox sigma=\"0\"/>", "<ViFp tau=\"2\"/>", "<NewtonAc max_line_search=\"0\"/>", "<NsgsAc relaxation=\"2\"/>",
    "dim=\"1\"", "dim=\"3\"", "<Lemke2d max_contacts=\"0\"/>",
    "<LsodarOSI/>", "<LsodarOSI method=\"dopri5\" hmax=\"0\"/>", "<LsodarOSI method=\"bdf\" max_steps=\"1\"/>", "rtol=\"-1\"",
    "<ImpactProblem><Psor omega=\"3\"/></ImpactProblem>", "<AccelerationProblem><Enum/></AccelerationProblem>",
    "zeno_velocity=\"0\"", "max_events_between_td=\"1\"", "merge_tol=\"1\"", "event_tol=\"1e300\"",
    "<EventDriven><TimeDiscretisation h=\"0.1\"/><OneStepIntegrator><LsodarOSI/></OneStepIntegrator></EventDriven>",
];

fn samples() -> Vec<(String, String)> {
    [
        "samples/bouncing_ball/bouncing_ball_ts.xml",
        "samples/diode_bridge/diode_bridge.xml",
        "frontend/tests/data/friction/slide_3d.xml",
        "samples/bouncing_ball/bouncing_ball_ed.xml",
    ]
    .iter()
    .map(|s| (s.to_string(), std::fs::read_to_string(common::workspace_root().join(s)).unwrap()))
    .collect()
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, snippet: usize },
    ReplaceNumber { which: usize, snippet: usize },
    DuplicateLine { line: usize },
    SwapLines { a: usize, b: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), any::<usize>()).prop_map(|(at, snippet)| Mutation::Insert { at, snippet }),
        (any::<usize>(), any::<usize>()).prop_map(|(which, snippet)| Mutation::ReplaceNumber { which, snippet }),
        any::<usize>().prop_map(|line| Mutation::DuplicateLine { line }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
    ]
}

fn floor_char(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, m: &Mutation) -> String {
    let n = text.len().max(1);
    match *m {
        Mutation::Delete { at, len } => {
            let a = floor_char(text, at % n);
            let b = floor_char(text, a + len);
            format!("{}{}", &text[..a], &text[b..])
        }
        Mutation::Insert { at, snippet } => {
            let a = floor_char(text, at % n);
            format!("{}{}{}", &text[..a], SNIPPETS[snippet % SNIPPETS.len()], &text[a..])
        }
        Mutation::ReplaceNumber { which, snippet } => {
            // numbers: maximal runs of [0-9.eE+-] starting with a digit or '-'
            let bytes = text.as_bytes();
            let mut spans = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i].is_ascii_digit() {
                    let s = i;
                    while i < bytes.len() && (bytes[i].is_ascii_digit() || b".eE+-".contains(&bytes[i])) {
                        i += 1;
                    }
                    spans.push((s, i));
                } else {
                    i += 1;
                }
            }
            if spans.is_empty() {
                return text.to_string();
            }
            let (a, b) = spans[which % spans.len()];
            format!("{}{}{}", &text[..a], SNIPPETS[snippet % SNIPPETS.len()], &text[b..])
        }
        Mutation::DuplicateLine { line } => {
            let mut lines: Vec<&str> = text.lines().collect();
            let l = line % lines.len();
            lines.insert(l, lines[l]);
            lines.join("\n")
        }
        Mutation::SwapLines { a, b } => {
            let mut lines: Vec<&str> = text.lines().collect();
            let (a, b) = (a % lines.len(), b % lines.len());
            lines.swap(a, b);
            lines.join("\n")
        }
    }
}

/// The folder the mutated models "live" in: it holds a FIFO `data.fifo` and a regular file
/// `data.txt` for the `file="…"` snippets (never a real device such as `/dev/null`).
fn model_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let st = std::process::Command::new("mkfifo").arg(d.path().join("data.fifo")).status().expect("mkfifo");
        assert!(st.success(), "mkfifo failed");
        std::fs::write(d.path().join("data.txt"), "1 0 0\n").unwrap();
        d
    })
    .path()
}

/// Load, convert and take a few steps; returns whether it loaded. Panics propagate.
fn exercise(text: &str) -> bool {
    let tmp = model_dir().join("model.xml");
    let Ok(loaded) = load_str(text, &tmp) else { return false };
    let Ok(mut built) = convert::build(&loaded, vec![]) else { return false };
    let steps = built.steps.min(20);
    for _ in 0..steps {
        if built.sim.advance(&mut built.nsds).is_err() {
            break;
        }
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("SALTUS_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300), failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::WithSource("regressions"))), ..ProptestConfig::default() })]

    #[test]
    fn mutated_samples_never_panic(which in 0usize..4, muts in prop::collection::vec(mutation(), 1..4)) {
        let (_, text) = &samples()[which];
        let mut t = text.clone();
        for m in &muts {
            t = apply(&t, m);
        }
        let r = std::panic::catch_unwind(|| exercise(&t));
        prop_assert!(r.is_ok(), "panic on input:\n{}", t);
    }
}

#[test]
fn unmutated_samples_load_and_step() {
    for (name, text) in samples() {
        assert!(exercise(&text), "{name} does not load");
    }
}
