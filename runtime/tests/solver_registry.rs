//! The solvers are declared once in `numerics` (LCP, relay, AVI, MLCP, generic mechanical and
//! friction contact). The friction-contact solvers are declared once (`numerics::fc::FC_SOLVERS` and their options'
//! `SetByName` tables): every solver element of the schema, wherever a friction-contact problem
//! appears, takes exactly its declared options as attributes, and every declared option can be
//! set by name. A solver registered in numerics and missing from the schema (or the reverse, or
//! with other attributes) fails here.

use saltus_numerics::avi::{AviSolver, AVI_SOLVERS};
use saltus_numerics::by_name::SetByName;
use saltus_numerics::by_name::SolverDecl;
use saltus_numerics::fc::{FcSolver, NsgsOptions, FC_SOLVERS};
use saltus_numerics::gmp::{GmpOptions, GMP_SOLVERS};
use saltus_numerics::lcp::{LcpSolver, LCP_SOLVERS};
use saltus_numerics::mlcp::{MlcpSolver, MLCP_SOLVERS};
use saltus_numerics::relay::{RelaySolver, RELAY_SOLVERS};
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

/// Every place `problems` of the schema has exactly the solver elements of `decls`, each with
/// exactly its declared options as attributes; `solver(element)` makes the declared solver,
/// whose options each take a value by name and refuse `x`.
fn check_family<S>(
    problems: &[&str],
    decls: &[SolverDecl],
    solver: impl Fn(&str) -> Option<S>,
    decl: impl Fn(&S) -> SolverDecl,
    set: impl Fn(&mut S, &str, &str) -> Result<bool, String>,
) {
    let declared: BTreeSet<String> = decls.iter().map(|d| d.element.to_string()).collect();
    let places: Vec<String> = problems.iter().flat_map(|n| paths_of(n)).collect();
    assert!(places.len() >= problems.len(), "{places:?}");
    for p in &places {
        assert_eq!(children_at(p), declared, "solvers of {p}");
        for d in decls {
            let want: BTreeSet<String> = d.options.iter().map(|s| s.to_string()).collect();
            assert_eq!(want.len(), d.options.len(), "{}: an option declared twice", d.element);
            assert_eq!(attributes_at(&format!("{p}/{}", d.element)), want, "attributes of {p}/{}", d.element);
            let mut s = solver(d.element).unwrap();
            assert_eq!(decl(&s), *d);
            for name in d.options {
                let value = if *name == "tie_break" { "smallest_index" } else { "1" };
                assert_eq!(set(&mut s, name, value), Ok(true), "{}: `{name}`", d.element);
                assert!(set(&mut s, name, "x").is_err(), "{}: `{name}` took `x`", d.element);
            }
            assert_eq!(set(&mut s, "no_such_option", "1"), Ok(false));
        }
    }
}

#[test]
fn the_schema_lists_every_declared_lcp_relay_avi_mlcp_and_gmp_solver_with_its_options() {
    check_family(
        &["LCP", "ImpactProblem", "AccelerationProblem"],
        LCP_SOLVERS,
        LcpSolver::from_element,
        |s| *s.decl(),
        |s, k, v| s.set_by_name(k, v),
    );
    check_family(&["Relay"], RELAY_SOLVERS, RelaySolver::from_element, |s| *s.decl(), |s, k, v| s.set_by_name(k, v));
    check_family(&["AVI"], AVI_SOLVERS, AviSolver::from_element, |s| *s.decl(), |s, k, v| s.set_by_name(k, v));
    check_family(&["MLCP"], MLCP_SOLVERS, MlcpSolver::from_element, |s| *s.decl(), |s, k, v| s.set_by_name(k, v));
    check_family(
        &["GenericMechanical"],
        GMP_SOLVERS,
        |e| (e == "GaussSeidel").then(GmpOptions::default),
        |_| GMP_SOLVERS[0],
        |s, k, v| s.set_by_name(k, v),
    );
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
