//! Invalid (system, relation, law, integrator, problem) combinations and bad inputs are errors at
//! construction, never failures in the middle of a run; failures during a step carry `t` and
//! leave the model at the last good step.
mod common;

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::*;

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

#[test]
fn friction_law_with_an_lcp_is_rejected_naming_the_interaction() {
    let mut nsds = Nsds::new(0.0);
    let ds = nsds
        .add_ds(
            "ball",
            LagrangianLinearTiDs::new(dvector![1.0, 0.0, 0.0], dvector![0.0, 0.0, 0.0], DMatrix::identity(3, 3)),
        )
        .unwrap();
    let rel = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(DMatrix::identity(3, 3)));
    nsds.link("ball-ground", ds, None, rel, NonSmoothLaw::NewtonImpactFriction { en: 0.5, et: 0.0, mu: 0.3, dim: 3 })
        .unwrap();
    match TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke()) {
        Err(KernelError::InvalidCombination { name, reason, .. }) => {
            assert_eq!(name, "ball-ground");
            assert!(reason.contains("NewtonImpactFrictionNSL") && reason.contains("LCP"), "{reason}");
        }
        other => panic!("expected InvalidCombination, got {:?}", other.err()),
    }
}

#[test]
fn integrator_must_fit_the_systems() {
    let nsds = common::bouncing_ball();
    assert!(matches!(
        TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), lemke()),
        Err(KernelError::UnsupportedSystem { .. })
    ));
    let nsds = common::diode_bridge();
    assert!(matches!(
        TimeStepping::new(&nsds, 1e-6, Osi::moreau_jean(0.5), lemke()),
        Err(KernelError::UnsupportedSystem { .. })
    ));
}

#[test]
fn relation_family_and_law_must_fit() {
    // first-order relation on a Lagrangian system
    let mut nsds = Nsds::new(0.0);
    let ds = nsds.add_ds("ball", LagrangianLinearTiDs::new(dvector![1.0], dvector![0.0], dmatrix![1.0])).unwrap();
    nsds.link(
        "bad",
        ds,
        None,
        Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0], dmatrix![1.0])),
        NonSmoothLaw::ComplementarityCondition { size: 1 },
    )
    .unwrap();
    assert!(matches!(
        TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke()),
        Err(KernelError::InvalidCombination { .. })
    ));
    // Newton impact law on a first-order system
    let mut nsds = Nsds::new(0.0);
    let ds = nsds.add_ds("x", FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![-1.0])).unwrap();
    nsds.link(
        "impact",
        ds,
        None,
        Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0], dmatrix![1.0])),
        NonSmoothLaw::NewtonImpact { e: 0.5 },
    )
    .unwrap();
    let err = TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), lemke()).err().expect("must fail");
    assert!(err.to_string().contains("impact"), "{err}");
    // equality law with an LCP, and complementarity with Equality
    let mut nsds = Nsds::new(0.0);
    let ds = nsds.add_ds("x", FirstOrderLinearTiDs::new(dvector![1.0], dmatrix![-1.0])).unwrap();
    nsds.link(
        "eq",
        ds,
        None,
        Relation::FirstOrderLinearTi(FirstOrderLinearTiR::new(dmatrix![1.0], dmatrix![1.0])),
        NonSmoothLaw::EqualityCondition { size: 1 },
    )
    .unwrap();
    assert!(TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), lemke()).is_err());
    assert!(TimeStepping::new(&nsds, 1e-3, Osi::euler_moreau(0.5), Osnsp::Equality).is_ok());
}

#[test]
fn sizes_and_parameters_are_checked_when_linking() {
    let mut nsds = Nsds::new(0.0);
    let ds = nsds
        .add_ds("ball", LagrangianLinearTiDs::new(dvector![1.0, 0.0], dvector![0.0, 0.0], DMatrix::identity(2, 2)))
        .unwrap();
    let wrong = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0, 0.0, 0.0]));
    assert!(matches!(
        nsds.link("c", ds, None, wrong, NonSmoothLaw::NewtonImpact { e: 0.5 }),
        Err(KernelError::InvalidModel { .. })
    ));
    let ok = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0, 0.0]));
    assert!(nsds.link("c", ds, None, ok.clone(), NonSmoothLaw::NewtonImpact { e: 1.5 }).is_err());
    assert!(nsds.link("c", ds, Some(ds), ok.clone(), NonSmoothLaw::NewtonImpact { e: 0.5 }).is_err());
    assert!(nsds.link("c", ds, Some(DsId(7)), ok, NonSmoothLaw::NewtonImpact { e: 0.5 }).is_err());
    assert!(nsds
        .add_ds("bad", LagrangianLinearTiDs::new(dvector![1.0, 0.0], dvector![0.0], DMatrix::identity(2, 2)))
        .is_err());
    assert!(nsds.add_ds("nan", LagrangianLinearTiDs::new(dvector![f64::NAN], dvector![0.0], dmatrix![1.0])).is_err());
    assert!(TimeStepping::new(&nsds, 0.0, Osi::moreau_jean(0.5), lemke()).is_err());
    assert!(TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(1.5), lemke()).is_err());
    assert!(TimeStepping::new(&nsds, 1e-3, Osi::MoreauJean { theta: 0.5, gamma: -1.0 }, lemke()).is_err());
}

#[test]
fn a_failing_user_function_is_an_error_with_t_and_the_state_is_kept() {
    let mut nsds = Nsds::new(0.0);
    let f = VecOp::function(|t, out| {
        if t > 0.0105 {
            out[0] = f64::NAN;
        } else {
            out[0] = -9.81;
        }
        Ok(())
    });
    let ds = nsds
        .add_ds("ball", LagrangianLinearTiDs::new(dvector![1.0], dvector![0.0], dmatrix![1.0]).with_f_ext(f))
        .unwrap();
    nsds.link(
        "ground",
        ds,
        None,
        Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0])),
        NonSmoothLaw::NewtonImpact { e: 0.5 },
    )
    .unwrap();
    let mut sim = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut last = None;
    for _ in 0..20 {
        match sim.step(&mut nsds) {
            Ok(_) => last = Some((nsds.t(), nsds.systems()[0].state()[0], nsds.systems()[0].velocity().unwrap()[0])),
            Err(KernelError::UserFn { t, .. }) => {
                assert!(t > 0.0105 && t < 0.0125, "t = {t}");
                let (t_ok, q, v) = last.unwrap();
                assert_eq!(nsds.t(), t_ok);
                assert_eq!(nsds.systems()[0].state()[0], q);
                assert_eq!(nsds.systems()[0].velocity().unwrap()[0], v);
                assert!(q.is_finite() && v.is_finite());
                return;
            }
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    panic!("the NaN force was not reported");
}
