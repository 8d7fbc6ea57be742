//! Issue 16: loading a model (and so `saltus check`) evaluates every plugin function it can at
//! t0 with the initial state: M(q), F_int, F_gyr and their Jacobians, f(t, x) and ∇ₓf, the h/g
//! functions of nonlinear relations and their Jacobians. A failure (status, panic, NaN/inf) is
//! reported with the element path before any step, with the functions of `plugins/testing`.
mod common;

use saltus_runtime::xml::{convert, load_str};
use std::path::Path;

const LIB: &str = "saltus_plugin_testing";

const SIM: &str = r#"<Simulation>
    <TimeDiscretisation h="0.005"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><LCP><Lemke/></LCP></OneStepNSProblem>
  </Simulation>"#;

/// A one-dof LagrangianDS `b` at q0 with the extra children `extra`, above a floor (or the
/// relation `relation` when given).
fn lagrangian(q0: &str, mass: &str, extra: &str, relation: Option<&str>) -> String {
    let rel = relation.unwrap_or(r#"<LagrangianLinearTIR><H rows="1" cols="1">1</H></LagrangianLinearTIR>"#);
    format!(
        r#"<Model version="1.0">
  <Time t0="0.25" T="0.5"/>
  <NSDS>
    <LagrangianDS name="b">
      <q0>{q0}</q0>
      <v0>0</v0>
      {mass}
      {extra}
      <FExt>-9.81</FExt>
    </LagrangianDS>
    <Interaction name="floor" ds="b">
      <Relation>{rel}</Relation>
      <NonSmoothLaw><NewtonImpactNSL e="0.5"/></NonSmoothLaw>
    </Interaction>
  </NSDS>
  {SIM}
</Model>"#
    )
}

const MASS1: &str = r#"<Mass rows="1" cols="1">1</Mass>"#;

fn force(el: &str, params: &str) -> String {
    format!(
        r#"<{el} library="{LIB}" function="spring_damper" jacobian_q="spring_damper" jacobian_v="spring_damper" params="{params}"/>"#
    )
}

fn build(text: &str) -> Result<convert::Built, String> {
    let loaded = load_str(text, Path::new("m.xml")).map_err(|e| e.to_string())?;
    convert::build(&loaded, vec![common::plugin_dir()]).map_err(|e| e.to_string())
}

fn build_err(text: &str) -> String {
    match build(text) {
        Ok(_) => panic!("built:\n{text}"),
        Err(e) => e,
    }
}

fn assert_has(e: &str, needles: &[&str]) {
    for n in needles {
        assert!(e.contains(n), "missing `{n}` in: {e}");
    }
}

#[test]
fn well_behaved_plugins_pass_the_probe() {
    build(&lagrangian("1", MASS1, &force("FInt", "2 0.1"), None)).expect("spring-damper F_int at t0");
    build(&lagrangian("1", MASS1, &force("FGyr", "0 0"), None)).expect("F_gyr");
}

#[test]
fn a_failing_internal_force_is_located_at_fint() {
    // spring_damper needs two params: with one it returns status 1
    let e = build_err(&lagrangian("1", MASS1, &force("FInt", "2"), None));
    assert_has(&e, &["NSDS/LagrangianDS[b]/FInt", "F_int(t, q, v) at t0 = 0.25", "returned status 1"]);
    let e = build_err(&lagrangian("1", MASS1, &force("FGyr", "2"), None));
    assert_has(&e, &["NSDS/LagrangianDS[b]/FGyr", "F_gyr(t, q, v) at t0 = 0.25"]);
}

#[test]
fn a_non_finite_force_at_the_initial_state_is_refused() {
    // k q with k = 2 and q0 = 1e308 overflows to +inf
    let e = build_err(&lagrangian("1e308", MASS1, &force("FInt", "2 0"), None));
    assert_has(&e, &["NSDS/LagrangianDS[b]/FInt", "non-finite value at index 0"]);
}

#[test]
fn a_mass_from_a_plugin_is_evaluated_and_checked_at_q0() {
    // decay with a = 1 writes M(q) = -q into the first column: M(q0) = [-1], a negative mass
    let mass = format!(r#"<Mass library="{LIB}" function="decay" params="1"/>"#);
    let e = build_err(&lagrangian("1", &mass, "", None));
    assert_has(&e, &["NSDS/LagrangianDS[b]/Mass", "M(q0)", "diagonal entry 0 of the mass matrix is -1"]);
    // at q0 = -2, M(q0) = [2]: accepted
    build(&lagrangian("-2", &mass, "", None)).expect("M(q0) = 2");
    // without params decay returns status 1
    let mass = format!(r#"<Mass library="{LIB}" function="decay"/>"#);
    let e = build_err(&lagrangian("1", &mass, "", None));
    assert_has(&e, &["NSDS/LagrangianDS[b]/Mass", "M(q) at t0 = 0.25", "returned status 1"]);
}

#[test]
fn a_relation_function_that_panics_is_located_at_the_relation() {
    // affine_relation reads λ[0]: called as h(q) of a scleronomous relation it gets no λ and panics
    let rel = format!(r#"<LagrangianScleronomousR library="{LIB}" h="affine_relation" jacobian_q="spring_damper"/>"#);
    let e = build_err(&lagrangian("1", MASS1, "", Some(&rel)));
    assert_has(&e, &["NSDS/Interaction[floor]/Relation/LagrangianScleronomousR", "h(q) at t0 = 0.25", "panicked"]);
}

#[test]
fn a_failing_vector_field_is_located_at_f() {
    let model = |params: &str| {
        format!(
            r#"<Model version="1.0">
  <Time t0="0" T="1"/>
  <NSDS>
    <FirstOrderNonLinearDS name="x">
      <x0>1</x0>
      <F library="{LIB}" function="decay" jacobian="decay" {params}/>
    </FirstOrderNonLinearDS>
    <Interaction name="c" ds="x">
      <Relation><FirstOrderType2R library="{LIB}" h="affine_relation" jacobian_h_x="affine_relation"
        jacobian_h_lambda="affine_relation" g="affine_relation" jacobian_g="affine_relation"/></Relation>
      <NonSmoothLaw><ComplementarityConditionNSL size="1"/></NonSmoothLaw>
    </Interaction>
  </NSDS>
  <Simulation>
    <TimeDiscretisation h="0.01"/>
    <OneStepIntegrator><EulerMoreauOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><LCP><Lemke/></LCP></OneStepNSProblem>
  </Simulation>
</Model>"#
        )
    };
    // decay without params: status 1
    let e = build_err(&model(""));
    assert_has(&e, &["NSDS/FirstOrderNonLinearDS[x]/F", "f(t, x) at t0 = 0", "returned status 1"]);
    // with params, F passes; then g(λ) = affine_relation(λ, no second argument) panics
    let e = build_err(&model(r#"params="1""#));
    assert_has(&e, &["NSDS/Interaction[c]/Relation/FirstOrderType2R", "g(λ) at t0 = 0", "panicked"]);
}
