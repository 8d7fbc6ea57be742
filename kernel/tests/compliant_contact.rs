//! `LagrangianCompliantLinearTIR` (`y = C q + e + D λ`): a ball of mass `m` on a floor of
//! compliance `c` under gravity. Closed forms: at rest `λ = m g` and the gap is `−m g c`
//! (Moreau–Jean θ = 1 keeps `g + c λ` constant in contact); `c = 0` is the rigid contact, bit for bit.

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_kernel::{
    solvers::fc::GfcSolver, solvers::lcp::LcpSolver, KernelError, LagrangianCompliantLinearTiR, LagrangianLinearTiDs,
    LagrangianLinearTiR, NonSmoothLaw, Nsds, Osi, Osnsp, Relation, TimeStepping, TimeSteppingDirectProjection, VecOp,
};

const G: f64 = 9.81;

/// A ball of mass `m` at height `q0` (gap `q0`), on a floor described by `rel`.
fn ball(m: f64, q0: f64, rel: Relation) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![q0], dvector![0.0], dmatrix![m])
        .with_f_ext(VecOp::Constant(dvector![-m * G]));
    let id = nsds.add_ds("ball", ds).unwrap();
    nsds.link("floor", id, None, rel, NonSmoothLaw::NewtonImpact { e: 0.0 }).unwrap();
    nsds
}

fn compliant(c: f64) -> Relation {
    Relation::LagrangianCompliantLinearTi(LagrangianCompliantLinearTiR::new(dmatrix![1.0], dmatrix![c]))
}

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

/// Released on the floor (gap 0, v = 0): the ball sinks to `−m g c` and stays there with
/// `λ = m g` (backward-Euler damping `(ωh)²/2` per step brings it to rest; ωh = 0.5 here).
#[test]
fn rest_deflection_is_m_g_c() {
    let (m, c): (f64, f64) = (2.0, 1e-4);
    let omega = 1.0 / (m * c).sqrt();
    let h = 0.5 / omega;
    let mut nsds = ball(m, 0.0, compliant(c));
    let mut sim = TimeStepping::new(&nsds, h, Osi::moreau_jean(1.0), lemke()).unwrap();
    for _ in 0..3000 {
        sim.step(&mut nsds).unwrap();
    }
    let gap = nsds.interactions()[0].y(0).unwrap()[0];
    let force = nsds.interactions()[0].lambda(1).unwrap()[0] / h;
    let v = nsds.systems()[0].velocity().unwrap()[0];
    let static_deflection = m * G * c;
    assert!(
        (gap + static_deflection).abs() <= 1e-9 * static_deflection,
        "gap {gap:e}, expected {:e}",
        -static_deflection
    );
    assert!((force - m * G).abs() <= 1e-9 * m * G, "force {force:e}");
    assert!(v.abs() <= 1e-9 * static_deflection * omega, "v {v:e}");
}

/// `D = 0` adds exact zeros: the same bits as `LagrangianLinearTIR` (θ = 1/2, a bouncing drop).
#[test]
fn zero_compliance_is_the_rigid_contact_bit_for_bit() {
    let rigid = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0]));
    let mut a = ball(1.0, 1.0, rigid);
    let mut b = ball(1.0, 1.0, compliant(0.0));
    let mut sa = TimeStepping::new(&a, 1e-3, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut sb = TimeStepping::new(&b, 1e-3, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut contacts = 0;
    for _ in 0..1500 {
        let ra = sa.step(&mut a).unwrap();
        sb.step(&mut b).unwrap();
        contacts += ra.active;
        let (da, db) = (&a.systems()[0], &b.systems()[0]);
        assert_eq!(da.state()[0].to_bits(), db.state()[0].to_bits());
        assert_eq!(da.velocity().unwrap()[0].to_bits(), db.velocity().unwrap()[0].to_bits());
        let (la, lb) = (a.interactions()[0].lambda(1).unwrap()[0], b.interactions()[0].lambda(1).unwrap()[0]);
        assert_eq!(la.to_bits(), lb.to_bits());
    }
    assert!(contacts > 100, "the ball must reach the floor ({contacts} active steps)");
}

fn link_err(d: DMatrix<f64>) -> String {
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![1.0, 0.0], dvector![0.0, 0.0], DMatrix::identity(2, 2));
    let id = nsds.add_ds("ball", ds).unwrap();
    let rel = Relation::LagrangianCompliantLinearTi(LagrangianCompliantLinearTiR::new(DMatrix::identity(2, 2), d));
    match nsds.link("floor", id, None, rel, NonSmoothLaw::ComplementarityCondition { size: 2 }) {
        Err(KernelError::InvalidModel { what, reason }) => format!("{what}: {reason}"),
        other => panic!("expected InvalidModel, got {other:?}"),
    }
}

#[test]
fn compliance_must_be_symmetric_psd_and_sized() {
    let e = link_err(dmatrix![1.0, 0.5; 0.0, 1.0]);
    assert!(e.contains("floor") && e.contains("symmetric") && e.contains("D[1,0]"), "{e}");
    let e = link_err(dmatrix![1.0, 2.0; 2.0, 1.0]);
    assert!(e.contains("positive semi-definite") && e.contains("-1"), "{e}");
    let e = link_err(dmatrix![1.0]);
    assert!(e.contains("D is 1x1, expected 2x2"), "{e}");
}

#[test]
fn global_friction_contact_and_projection_are_refused() {
    // planar ball with friction: (normal, tangent) = (q₁, q₀), compliant in the normal direction
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![0.0, 1.0], dvector![0.0, 0.0], DMatrix::identity(2, 2));
    let id = nsds.add_ds("ball", ds).unwrap();
    let rel = LagrangianCompliantLinearTiR::new(dmatrix![0.0, 1.0; 1.0, 0.0], dmatrix![1e-3, 0.0; 0.0, 0.0]);
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.0, et: 0.0, mu: 0.3, dim: 2 };
    nsds.link("floor", id, None, Relation::LagrangianCompliantLinearTi(rel), law).unwrap();
    let gfc = Osnsp::GlobalFrictionContact { dim: 2, solver: GfcSolver::Nsgs(Default::default()) };
    match TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean_gosi(0.5), gfc) {
        Err(KernelError::InvalidCombination { name, reason, .. }) => {
            assert!(name == "floor" && reason.contains("GlobalFrictionContact"), "{reason}")
        }
        other => panic!("expected InvalidCombination, got {:?}", other.err()),
    }
    let nsds = ball(1.0, 1.0, compliant(1e-3));
    let proj = TimeSteppingDirectProjection::new(&nsds, 1e-3, Osi::moreau_jean(0.5), lemke(), Default::default());
    match proj {
        Err(KernelError::InvalidCombination { name, reason, .. }) => {
            assert!(name == "floor" && reason.contains("projection"), "{reason}")
        }
        other => panic!("expected InvalidCombination, got {:?}", other.err()),
    }
}
