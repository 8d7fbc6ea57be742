//! Issue 16, messages: errors name elements as the model file does, list the allowed child
//! elements (read from `schemas/saltus-model.xsd`) when one is missing or unknown, call a
//! first-order state `x`, print plain numbers, and show no serde or parser internals.
mod common;

use saltus_runtime::xml::xsd::{Schema, SCHEMA_XSD};
use saltus_runtime::xml::{convert, load_str};
use std::path::Path;
use std::process::Command;

fn ball() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/bouncing_ball/bouncing_ball_ts.xml")).unwrap()
}

fn circuit() -> String {
    std::fs::read_to_string(common::workspace_root().join("samples/diode_bridge/diode_bridge.xml")).unwrap()
}

fn error_of(text: &str) -> String {
    match load_str(text, Path::new("m.xml")) {
        Err(e) => e.to_string(),
        Ok(l) => match convert::build(&l, vec![]) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted:\n{text}"),
        },
    }
}

/// Words that belong to serde, quick-xml or Rust, not to a model file.
const INTERNALS: &[&str] =
    &["$text", "$value", "Event::", "Eof", "field `", "variant `", "f64", "usize", "DsId", "InterId", "struct "];

fn assert_clean(e: &str) {
    for w in INTERNALS {
        assert!(!e.contains(w), "`{w}` in: {e}");
    }
}

#[test]
fn the_schema_table_matches_the_xsd_text() {
    // Every element name declared in the XSD is reachable from <Model>, and every attribute
    // declared in it belongs to some element of the table.
    let s = Schema::builtin();
    let table_elements: std::collections::BTreeSet<&str> =
        s.elements().map(|(p, _)| p.rsplit('/').next().unwrap()).collect();
    let table_attrs: std::collections::BTreeSet<&str> =
        s.elements().flat_map(|(_, i)| i.attributes.iter().map(|a| a.0.as_str())).collect();
    for (kind, set) in [("<xs:element name=\"", &table_elements), ("<xs:attribute name=\"", &table_attrs)] {
        let mut n = 0;
        for part in SCHEMA_XSD.split(kind).skip(1) {
            let name = &part[..part.find('"').unwrap()];
            assert!(set.contains(name), "{name} is declared in the XSD but not in the table");
            n += 1;
        }
        assert!(n > 20, "too few declarations of {kind} found: {n}");
    }
}

#[test]
fn a_missing_child_lists_the_allowed_ones() {
    let e = error_of(&ball().replace("<v0>0 0 0</v0>", ""));
    assert!(e.contains("<LagrangianLinearTIDS> needs a <v0> child element"), "{e}");
    assert!(e.contains("<q0>, <v0>, <Mass>, <K>, <C> or <FExt>"), "{e}");
    let e = error_of(&ball().replace("<NewtonImpactNSL e=\"0.9\"/>", ""));
    assert!(e.contains("<NonSmoothLaw> needs a child element"), "{e}");
    assert!(e.contains("<NewtonImpactNSL>") && e.contains("<RelayNSL>"), "{e}");
    let e = error_of(&ball().replace("<Lemke tol=\"1e-6\" max_iter=\"10000\"/>", ""));
    assert!(e.contains("<LCP> needs a child element") && e.contains("<Lemke>, <Pgs>"), "{e}");
    assert_clean(&e);
}

#[test]
fn unknown_or_repeated_elements_and_attributes_are_named() {
    let e = error_of(&ball().replace("<v0>0 0 0</v0>", "<v0>0 0 0</v0><Stiffness/>"));
    assert!(e.contains("unknown element <Stiffness> in <LagrangianLinearTIDS>; allowed child elements"), "{e}");
    let e = error_of(&ball().replace("<v0>0 0 0</v0>", "<v0>0 0 0</v0><v0>0 0 0</v0>"));
    assert!(e.contains("<v0> is given twice in <LagrangianLinearTIDS>"), "{e}");
    let e = error_of(&ball().replace("h=\"0.005\"", "hh=\"0.005\""));
    assert!(
        e.contains("`hh` is not an attribute of <TimeDiscretisation>; attributes of <TimeDiscretisation>: `h`"),
        "{e}"
    );
    let e = error_of(&ball().replace("<Time t0=\"0\" T=\"10\"/>", "<Time t0=\"0\"/>"));
    assert!(e.contains("<Time> needs the attribute `T`"), "{e}");
    let e = error_of(
        &ball().replace("<TimeDiscretisation h=\"0.005\"/>", "<TimeDiscretisation h=\"0.005\">1</TimeDiscretisation>"),
    );
    assert!(e.contains("text is not allowed in <TimeDiscretisation>"), "{e}");
    let e = error_of(&ball().replace("e=\"0.9\"", "e=\"abc\""));
    assert!(e.contains("`abc` is not a number"), "{e}");
    assert_clean(&e);
}

#[test]
fn a_first_order_state_is_called_x() {
    let e = error_of(&circuit().replace("<x0>10 0</x0>", "<x0>10 0 0</x0>"));
    assert!(e.contains("the state x has 3 components"), "{e}");
    assert!(!e.contains("degrees of freedom"), "{e}");
    let c = circuit();
    let c = c.replacen("<C rows=\"4\" cols=\"2\">", "<C rows=\"4\" cols=\"1\">", 1);
    let e = error_of(&c);
    assert!(e.contains("state x of circuit has 2 components") || e.contains("C"), "{e}");
}

#[test]
fn numbers_in_messages_are_plain() {
    let e = error_of(&ball().replace("<Time t0=\"0\" T=\"10\"/>", "<Time t0=\"0\" T=\"1e-300\"/>"));
    assert!(e.contains("(T − t0)/h = 2e-298 steps"), "{e}");
    let e = error_of(&ball().replace("h=\"0.005\"", "h=\"-1e-6\""));
    assert!(e.contains("got -1e-6"), "{e}");
    // the check line of the CLI
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.xml");
    std::fs::write(&m, ball().replace("h=\"0.005\"", "h=\"1e-6\"")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&m).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("10000000 steps of h = 1e-6 from t0 = 0 to T = 10"), "{out}");
}
