//! The friction-contact solvers are declared once (`numerics::fc::FC_SOLVERS` and their options'
//! `SetByName` tables): every solver element of the schema, wherever a friction-contact problem
//! appears, takes exactly its declared options as attributes, and every declared option can be
//! set by name. A solver registered in numerics and missing from the schema (or the reverse, or
//! with other attributes) fails here.

use saltus_numerics::by_name::SetByName;
use saltus_numerics::fc::{FcSolver, NsgsOptions, FC_SOLVERS};
use saltus_numerics::lcp::{LcpSolver, LCP_SOLVERS};
use saltus_runtime::xml::xsd::Schema;
use std::collections::BTreeSet;

/// The paths of the schema's elements called `name`.
fn paths_of(name: &str) -> Vec<String> {
    Schema::builtin()
        .elements()
        .filter(|(p, _)| p.rsplit('/').next() == Some(name))
        .map(|(p, _)| p.to_string())
        .collect()
}

fn attributes_at(path: &str) -> BTreeSet<String> {
    let p: Vec<&str> = path.split('/').collect();
    Schema::builtin().element(&p).unwrap().attribute_names().into_iter().map(String::from).collect()
}

fn children_at(path: &str) -> BTreeSet<String> {
    let p: Vec<&str> = path.split('/').collect();
    Schema::builtin().element(&p).unwrap().child_names().into_iter().map(String::from).collect()
}

#[test]
fn the_schema_lists_every_declared_fc_solver_with_its_options() {
    let problems = paths_of("FrictionContact");
    assert!(!problems.is_empty());
    let declared: BTreeSet<String> = FC_SOLVERS.iter().map(|d| d.element.to_string()).collect();
    for p in &problems {
        assert_eq!(children_at(p), declared, "solvers of {p}");
        for d in FC_SOLVERS {
            let want: BTreeSet<String> = d.options.iter().map(|s| s.to_string()).collect();
            assert_eq!(attributes_at(&format!("{p}/{}", d.element)), want, "attributes of {p}/{}", d.element);
        }
    }
    for p in paths_of("GlobalFrictionContact") {
        assert_eq!(children_at(&p), BTreeSet::from(["Nsgs".to_string(), "NsgsWr".to_string()]));
        let want: BTreeSet<String> = NsgsOptions::NAMES.iter().map(|s| s.to_string()).collect();
        for e in ["NsgsWr", "Nsgs"] {
            assert_eq!(attributes_at(&format!("{p}/{e}")), want, "attributes of {p}/{e}");
        }
    }
}

#[test]
fn the_schema_lists_every_declared_lcp_solver_with_its_options() {
    let declared: BTreeSet<String> = LCP_SOLVERS.iter().map(|d| d.element.to_string()).collect();
    let places: Vec<String> =
        ["LCP", "ImpactProblem", "AccelerationProblem"].iter().flat_map(|n| paths_of(n)).collect();
    assert!(places.len() >= 3, "{places:?}");
    for p in &places {
        assert_eq!(children_at(p), declared, "solvers of {p}");
        for d in LCP_SOLVERS {
            let want: BTreeSet<String> = d.options.iter().map(|s| s.to_string()).collect();
            assert_eq!(attributes_at(&format!("{p}/{}", d.element)), want, "attributes of {p}/{}", d.element);
            let mut s = LcpSolver::from_element(d.element).unwrap();
            assert_eq!(s.decl(), d);
            for name in d.options {
                let value = if *name == "tie_break" { "smallest_index" } else { "1" };
                assert_eq!(s.set_by_name(name, value), Ok(true), "{}: `{name}`", d.element);
                assert!(s.set_by_name(name, "x").is_err(), "{}: `{name}` took `x`", d.element);
            }
        }
    }
}

#[test]
fn every_declared_option_is_set_by_its_name() {
    for d in FC_SOLVERS {
        let mut names = BTreeSet::new();
        for name in d.options {
            assert!(names.insert(*name), "{}: `{name}` declared twice", d.element);
            let mut s = FcSolver::from_element(d.element).unwrap();
            assert_eq!(s.decl(), d);
            if name.starts_with("fallback_") {
                assert_eq!(s.set_by_name("fallback", "patch"), Ok(true));
            }
            let value = if *name == "fallback" { "prox" } else { "1" };
            assert_eq!(s.set_by_name(name, value), Ok(true), "{}: `{name}`", d.element);
            if *name != "fallback" {
                assert!(s.set_by_name(name, "x").is_err(), "{}: `{name}` took `x`", d.element);
            }
        }
        let mut s = FcSolver::from_element(d.element).unwrap();
        assert_eq!(s.set_by_name("no_such_option", "1"), Ok(false));
        assert_eq!(saltus_numerics::fc::solver_by_name(d.name, *s.iter()).map(|x| x.decl().element), Some(d.element));
    }
}
