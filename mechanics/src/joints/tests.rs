//! Jacobians of every joint type against central finite differences of `h` along a motion
//! `x ± ε v`, `q ⊗ exp(±ε Ω)`, at poses away from the assembly pose (nonzero `h`), and `h = 0`
//! at assembly.

use super::*;
use nalgebra::{UnitQuaternion, Vector3};

fn state(x: [f64; 3], e: [f64; 3], v: [f64; 3], om: [f64; 3]) -> BodyState {
    BodyState {
        position: Vector3::from(x),
        orientation: UnitQuaternion::from_euler_angles(e[0], e[1], e[2]),
        v: Vector3::from(v),
        omega: Vector3::from(om),
    }
}

fn moved(s: &BodyState, eps: f64) -> BodyState {
    BodyState {
        position: s.position + s.v * eps,
        orientation: s.orientation * UnitQuaternion::from_scaled_axis(s.omega * eps),
        ..*s
    }
}

fn all_types() -> Vec<JointType> {
    let p = Vector3::new(0.3, -0.2, 0.5);
    let ax = Vector3::new(0.2, 1.0, -0.4);
    vec![
        JointType::Knee(KneeJointR::new(p)),
        JointType::Pivot(PivotJointR::new(p, ax)),
        JointType::Prismatic(PrismaticJointR::new(ax)),
        JointType::Cylindrical(CylindricalJointR::new(p, ax)),
        JointType::Fixed(FixedJointR::new()),
    ]
}

fn check(kind: JointType, world: bool) {
    let a0 = state([0.1, 0.2, 0.3], [0.3, -0.2, 0.9], [0.0; 3], [0.0; 3]);
    let b0 = if world { BodyState::default() } else { state([0.7, -0.4, 0.6], [-0.5, 0.4, 0.1], [0.0; 3], [0.0; 3]) };
    let mut j = Joint { name: "j".into(), body1: BodyId(0), body2: (!world).then_some(BodyId(1)), kind };
    j.bind(&a0, &b0).unwrap();
    let mut r = JointRows::default();
    j.eval(&a0, &b0, &mut r);
    let n = j.kind.relation().n_rows();
    assert_eq!(r.n, n);
    assert!(r.h.rows(0, n).amax() < 1e-14, "{}: h at assembly {:?}", j.kind.relation().type_name(), r.h);
    // Away from assembly, moving.
    let a = state([0.15, 0.1, 0.35], [0.35, -0.1, 0.8], [0.3, -0.7, 0.2], [1.1, 0.4, -0.6]);
    let b = if world {
        BodyState::default()
    } else {
        state([0.6, -0.3, 0.7], [-0.45, 0.5, 0.2], [-0.2, 0.5, 0.9], [-0.3, 0.8, 0.5])
    };
    j.eval(&a, &b, &mut r);
    let eps = 1e-6;
    let (mut rp, mut rm) = (JointRows::default(), JointRows::default());
    j.eval(&moved(&a, eps), &moved(&b, eps), &mut rp);
    j.eval(&moved(&a, -eps), &moved(&b, -eps), &mut rm);
    let ta = SVector::<f64, 6>::from_iterator(a.v.iter().chain(a.omega.iter()).copied());
    let tb = SVector::<f64, 6>::from_iterator(b.v.iter().chain(b.omega.iter()).copied());
    for i in 0..n {
        let fd = (rp.h[i] - rm.h[i]) / (2.0 * eps);
        let jv = r.j[0].row(i).dot(&ta.transpose()) + if world { 0.0 } else { r.j[1].row(i).dot(&tb.transpose()) };
        assert!((fd - jv).abs() < 1e-8, "{} row {i}: fd {fd} vs J v {jv}", j.kind.relation().type_name());
    }
    assert!(r.h.rows(0, n).amax() > 1e-3, "the test poses violate the joint");
}

#[test]
fn jacobians_match_finite_differences() {
    for k in all_types() {
        check(k.clone(), false);
        check(k, true);
    }
}

#[test]
fn bad_axes_are_rejected() {
    let s = BodyState::default();
    let mut p = PivotJointR::new(Vector3::zeros(), Vector3::zeros());
    assert!(p.bind(&s, &s).unwrap_err().contains("zero length"));
    let mut p = PrismaticJointR::new(Vector3::new(f64::NAN, 0.0, 1.0));
    assert!(p.bind(&s, &s).unwrap_err().contains("not finite"));
    let mut k = KneeJointR::new(Vector3::new(f64::INFINITY, 0.0, 1.0));
    assert!(k.bind(&s, &s).unwrap_err().contains("not finite"));
}
