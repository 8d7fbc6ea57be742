//! One integrator per system (Siconos `simulation.associate(osi, ds)`): two bodies on a line
//! that collide, one integrated by Moreau–Jean (θ = ½), the other by the semi-explicit Euler,
//! in one one-step problem. Each body follows its own scheme's position update at every step,
//! the impulse is shared (momentum conserved to round-off) and the contact obeys Newton's law
//! `ẏ_{k+1} = −e ẏ_k` at the impact step.

use nalgebra::{dvector, DMatrix};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::{
    DsId, KernelError, LagrangianLinearTiDs, LagrangianLinearTiR, NonSmoothLaw, Nsds, Osi, Osnsp, Relation,
    TimeStepping,
};

const MA: f64 = 1.0;
const MB: f64 = 3.0;
const E: f64 = 0.5;

/// A at 0 moving right at 1, B at 0.1 moving left at 0.5; contact `y = q_B − q_A ≥ 0`.
fn two_bodies() -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let one = |m: f64| DMatrix::from_element(1, 1, m);
    let a = nsds.add_ds("a", LagrangianLinearTiDs::new(dvector![0.0], dvector![1.0], one(MA))).unwrap();
    let b = nsds.add_ds("b", LagrangianLinearTiDs::new(dvector![0.1], dvector![-0.5], one(MB))).unwrap();
    let rel = LagrangianLinearTiR::new(DMatrix::from_row_slice(1, 2, &[-1.0, 1.0]));
    nsds.link("ab", a, Some(b), Relation::LagrangianLinearTi(rel), NonSmoothLaw::NewtonImpact { e: E }).unwrap();
    nsds
}

fn lemke() -> Osnsp {
    Osnsp::Lcp(LcpSolver::Lemke(Default::default()))
}

fn qv(nsds: &Nsds, i: usize) -> (f64, f64) {
    (nsds.systems()[i].state()[0], nsds.systems()[i].velocity().unwrap()[0])
}

#[test]
fn each_body_keeps_its_own_integrator_in_one_problem() {
    let h = 0.01;
    let mut nsds = two_bodies();
    let ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut ts = ts.with_integrator(&nsds, DsId(1), Osi::semi_explicit_euler()).unwrap();
    assert_eq!(ts.integrator(DsId(0)), Some(&Osi::moreau_jean(0.5)));
    assert_eq!(ts.integrator(DsId(1)), Some(&Osi::semi_explicit_euler()));
    let p0 = MA * 1.0 + MB * -0.5;
    let mut impacts = 0;
    for k in 0..30 {
        let ((qa, va), (qb, vb)) = (qv(&nsds, 0), qv(&nsds, 1));
        ts.step(&mut nsds).unwrap();
        let ((qa1, va1), (qb1, vb1)) = (qv(&nsds, 0), qv(&nsds, 1));
        // Moreau–Jean θ = ½: q_{k+1} = q_k + h (v_k + v_{k+1}) / 2
        assert!((qa1 - (qa + 0.5 * h * (va + va1))).abs() < 1e-15, "step {k}: A is not trapezoidal");
        // semi-explicit Euler: q_{k+1} = q_k + h v_{k+1}
        assert!((qb1 - (qb + h * vb1)).abs() < 1e-15, "step {k}: B is not semi-explicit");
        assert!((MA * va1 + MB * vb1 - p0).abs() < 1e-14, "step {k}: momentum {}", MA * va1 + MB * vb1);
        if (va1 - va).abs() > 1e-12 {
            impacts += 1;
            // Newton's impact law on the relative velocity ẏ = v_B − v_A
            assert!(((vb1 - va1) + E * (vb - va)).abs() < 1e-14, "step {k}: ẏ {} after {}", vb1 - va1, vb - va);
        }
    }
    assert_eq!(impacts, 1, "one impact, then the bodies separate");
    assert!(qv(&nsds, 1).0 > qv(&nsds, 0).0);
}

#[test]
fn a_single_integrator_would_fail_the_semi_explicit_check() {
    // the check above can fail: with Moreau–Jean on both, B's positions are trapezoidal
    let h = 0.01;
    let mut nsds = two_bodies();
    let mut ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), lemke()).unwrap();
    let (qb, vb) = qv(&nsds, 1);
    ts.step(&mut nsds).unwrap();
    let (qb1, vb1) = qv(&nsds, 1);
    assert_eq!(vb1, vb, "free flight");
    assert!((qb1 - (qb + h * vb1)).abs() < 1e-15); // equal in free flight (v constant) …
    for _ in 0..10 {
        let (qb, vb) = qv(&nsds, 1);
        ts.step(&mut nsds).unwrap();
        let (qb1, vb1) = qv(&nsds, 1);
        if vb1 != vb {
            // … but not at the impact
            assert!((qb1 - (qb + h * vb1)).abs() > 1e-6);
            return;
        }
    }
    panic!("no impact in 11 steps");
}

#[test]
fn integrators_that_cannot_share_the_problem_are_refused_by_system() {
    let nsds = two_bodies();
    let ts = || TimeStepping::new(&nsds, 0.01, Osi::moreau_jean(0.5), lemke()).unwrap();
    // a first-order integrator for a Lagrangian system
    let Err(KernelError::UnsupportedSystem { ds, reason }) =
        ts().with_integrator(&nsds, DsId(1), Osi::euler_moreau(0.5))
    else {
        panic!("Euler–Moreau accepted for a Lagrangian system")
    };
    assert_eq!(ds, DsId(1));
    assert!(reason.contains("EulerMoreauOSI"), "{reason}");
    // a global integrator inside a local problem
    let Err(KernelError::UnsupportedSystem { reason, .. }) =
        ts().with_integrator(&nsds, DsId(0), Osi::moreau_jean_gosi(0.5))
    else {
        panic!("MoreauJeanGOSI accepted in a local problem")
    };
    assert!(reason.contains("global") && reason.contains("local"), "{reason}");
    // out of range, and after the first step
    assert!(ts().with_integrator(&nsds, DsId(2), Osi::moreau_jean(1.0)).is_err());
    let mut nsds2 = two_bodies();
    let mut t = TimeStepping::new(&nsds2, 0.01, Osi::moreau_jean(0.5), lemke()).unwrap();
    t.step(&mut nsds2).unwrap();
    let Err(KernelError::InvalidOption { option, .. }) = t.with_integrator(&nsds2, DsId(0), Osi::moreau_jean(1.0))
    else {
        panic!("integrator changed after the first step")
    };
    assert_eq!(option, "integrator");
}
