//! The `anderson` attribute of the NSGS solvers: a `<Mechanics>` model's `<NsgsAc>` uses the
//! mechanics default (Anderson memory 3) unless the attribute says otherwise, and the global
//! `<Nsgs>` (which has no acceleration) refuses it with a located error.

use saltus_frontend::xml::convert_mech::build_mechanics;
use saltus_frontend::xml::load_str;
use saltus_numerics::fc::FcSolver;
use std::path::Path;

fn mechanics_model(nsgs_attrs: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.01"/>
  <Mechanics margin="0.01">
    <Sphere name="ball" radius="0.1"/>
    <HalfSpace name="floor" normal="0 0 1"/>
    <NewtonImpactFrictionNSL en="0" mu="0.5"/>
    <RigidBody name="ground" kind="static"><Contactor shape="floor"/></RigidBody>
    <RigidBody name="b" mass="1" inertia="0.004 0.004 0.004" translation="0 0 0.1"><Contactor shape="ball"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-8" max_iter="100"{nsgs_attrs}/></FrictionContact></OneStepNSProblem>
  </Simulation>
</Model>
"#
    )
}

fn anderson_of(attrs: &str) -> usize {
    let loaded = load_str(&mechanics_model(attrs), Path::new("m.xml")).unwrap();
    let built = build_mechanics(&loaded).unwrap();
    match &built.options.solver {
        FcSolver::NsgsAc(o) => {
            assert!(o.warm_start);
            o.anderson
        }
        other => panic!("unexpected solver {other:?}"),
    }
}

#[test]
fn mechanics_nsgs_anderson_defaults_to_the_mechanics_memory() {
    assert_eq!(anderson_of(""), saltus_mechanics::NSGS_ANDERSON_MEMORY);
    assert_eq!(saltus_mechanics::NSGS_ANDERSON_MEMORY, 3);
    assert_eq!(anderson_of(r#" anderson="0""#), 0);
    assert_eq!(anderson_of(r#" anderson="7""#), 7);
    // The Rust default scene and the XML default agree.
    let FcSolver::NsgsAc(o) = saltus_mechanics::nsgs(1e-8, 100) else { panic!() };
    assert_eq!(o.anderson, anderson_of(""));
}

#[test]
fn out_of_range_anderson_memory_is_a_located_error() {
    let loaded = load_str(&mechanics_model(r#" anderson="65""#), Path::new("m.xml")).unwrap();
    let Err(e) = build_mechanics(&loaded) else { panic!("memory 65 accepted") };
    let e = e.to_string();
    assert!(e.contains("NsgsAc") && e.contains("anderson"), "{e}");
}
