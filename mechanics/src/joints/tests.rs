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

/// Every coordinate's Jacobian against central differences along a motion, away from the
/// joint manifold and from assembly; zero at assembly; the angle of a hinge turned by `φ`
/// about its axis is `φ` (wrapped), the translation of a slider moved by `d` along it is `d`.
#[test]
fn coordinate_jacobians_match_finite_differences() {
    let mut checked = 0;
    for kind in all_types() {
        for world in [false, true] {
            let a0 = state([0.1, 0.2, 0.3], [0.3, -0.2, 0.9], [0.0; 3], [0.0; 3]);
            let b0 = if world {
                BodyState::default()
            } else {
                state([0.7, -0.4, 0.6], [-0.5, 0.4, 0.1], [0.0; 3], [0.0; 3])
            };
            let mut j =
                Joint { name: "j".into(), body1: BodyId(0), body2: (!world).then_some(BodyId(1)), kind: kind.clone() };
            j.bind(&a0, &b0).unwrap();
            let a = state([0.15, 0.1, 0.35], [0.35, -0.1, 0.8], [0.3, -0.7, 0.2], [1.1, 0.4, -0.6]);
            let b = if world {
                BodyState::default()
            } else {
                state([0.6, -0.3, 0.7], [-0.45, 0.5, 0.2], [-0.2, 0.5, 0.9], [-0.3, 0.8, 0.5])
            };
            let ta = SVector::<f64, 6>::from_iterator(a.v.iter().chain(a.omega.iter()).copied());
            let tb = SVector::<f64, 6>::from_iterator(b.v.iter().chain(b.omega.iter()).copied());
            let n = j.kind.relation().dofs().len();
            assert!(j.dof(n, &a, &b).is_none());
            for k in 0..n {
                assert!(j.dof(k, &a0, &b0).unwrap().value.abs() < 1e-14);
                let r = j.dof(k, &a, &b).unwrap();
                let eps = 1e-6;
                let fd = (j.dof(k, &moved(&a, eps), &moved(&b, eps)).unwrap().value
                    - j.dof(k, &moved(&a, -eps), &moved(&b, -eps)).unwrap().value)
                    / (2.0 * eps);
                let jv = r.j[0].dot(&ta) + if world { 0.0 } else { r.j[1].dot(&tb) };
                assert!((fd - jv).abs() < 1e-8, "{} dof {k}: fd {fd} vs J v {jv}", j.kind.relation().type_name());
                assert!(jv.abs() > 1e-2, "the test motion moves the coordinate");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 8, "pivot 1, prismatic 1, cylindrical 2, each with a body and the world");
    // Exact values on the manifold: body 1 turned by φ about the axis through p, moved by d.
    let (p, ax) = (Vector3::new(0.3, -0.2, 0.5), Vector3::new(0.2, 1.0, -0.4).normalize());
    let a0 = state([0.1, 0.2, 0.3], [0.3, -0.2, 0.9], [0.0; 3], [0.0; 3]);
    let world = BodyState::default();
    for (kind, dofs) in [
        (JointType::Pivot(PivotJointR::new(p, ax)), [None, Some(0)]),
        (JointType::Prismatic(PrismaticJointR::new(ax)), [Some(0), None]),
        (JointType::Cylindrical(CylindricalJointR::new(p, ax)), [Some(0), Some(1)]),
    ] {
        let mut j = Joint { name: "j".into(), body1: BodyId(0), body2: None, kind };
        j.bind(&a0, &world).unwrap();
        for (phi, d) in [(0.7, 0.0), (-2.9, 0.0), (3.0, 0.4), (0.0, -1.3)] {
            let rot = UnitQuaternion::from_scaled_axis(ax * phi);
            let mut a = a0;
            a.orientation = rot * a0.orientation;
            a.position = p + rot * (a0.position - p) + ax * d;
            if let Some(k) = dofs[0] {
                if phi == 0.0 {
                    assert!((j.dof(k, &a, &world).unwrap().value - d).abs() < 1e-14);
                }
            }
            if let Some(k) = dofs[1] {
                assert!((j.dof(k, &a, &world).unwrap().value - phi).abs() < 1e-13);
            }
        }
    }
}

#[test]
fn unwrapping_is_continuous() {
    use super::coordinate::unwrap_near;
    let pi = std::f64::consts::PI;
    assert!((unwrap_near(-pi + 0.1, pi - 0.05) - (pi + 0.1)).abs() < 1e-15);
    assert!((unwrap_near(0.2, 4.0 * pi) - (4.0 * pi + 0.2)).abs() < 1e-14);
    assert!((unwrap_near(pi - 0.1, -pi) - (-pi - 0.1)).abs() < 1e-15);
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

/// A coupler's row between a hinge (bodies 0–1) and a slider (bodies 1–2), the common body 1
/// moving: `h = s₂ − r θ₁ − c` and its three-sided Jacobian against central differences; the
/// screw of one cylindrical joint (two sides, merged).
#[test]
fn coupler_jacobian_matches_finite_differences() {
    use super::coupler::{coupler_row, CouplerJointR};
    let s0 = [
        state([0.1, 0.2, 0.3], [0.3, -0.2, 0.9], [0.0; 3], [0.0; 3]),
        state([0.7, -0.4, 0.6], [-0.5, 0.4, 0.1], [0.0; 3], [0.0; 3]),
        state([-0.3, 0.5, 0.1], [0.2, 0.1, -0.6], [0.0; 3], [0.0; 3]),
    ];
    let (p, ax) = (Vector3::new(0.3, -0.2, 0.5), Vector3::new(0.2, 1.0, -0.4));
    let mut joints = vec![
        Joint {
            name: "a".into(),
            body1: BodyId(0),
            body2: Some(BodyId(1)),
            kind: JointType::Pivot(PivotJointR::new(p, ax)),
        },
        Joint {
            name: "b".into(),
            body1: BodyId(1),
            body2: Some(BodyId(2)),
            kind: JointType::Prismatic(PrismaticJointR::new(Vector3::new(1.0, 0.1, 0.3))),
        },
        Joint {
            name: "c".into(),
            body1: BodyId(2),
            body2: None,
            kind: JointType::Cylindrical(CylindricalJointR::new(p, ax)),
        },
    ];
    for j in &mut joints {
        let b = j.body2.map_or(BodyState::default(), |b| s0[b.index()]);
        j.bind(&s0[j.body1.index()], &b).unwrap();
    }
    let s = [
        state([0.15, 0.1, 0.35], [0.35, -0.1, 0.8], [0.3, -0.7, 0.2], [1.1, 0.4, -0.6]),
        state([0.6, -0.3, 0.7], [-0.45, 0.5, 0.2], [-0.2, 0.5, 0.9], [-0.3, 0.8, 0.5]),
        state([-0.25, 0.45, 0.2], [0.1, 0.2, -0.5], [0.4, 0.1, -0.3], [0.2, -0.9, 0.7]),
    ];
    let gear = CouplerJointR::new(JointId(0), 0, JointId(1), 0, -1.7);
    let screw = CouplerJointR::new(JointId(2), 0, JointId(2), 1, 5.0);
    for (c, n_sides) in [(gear, 3), (screw, 1)] {
        let at = |eps: f64| -> Vec<BodyState> { s.iter().map(|b| moved(b, eps)).collect() };
        let near = [f64::NAN; 2];
        assert!(coupler_row(&c, &joints, &s0, near).unwrap().h.abs() < 1e-14, "zero at assembly");
        let r = coupler_row(&c, &joints, &s, near).unwrap();
        assert_eq!(r.ids.iter().flatten().count(), n_sides);
        let eps = 1e-6;
        let fd = (coupler_row(&c, &joints, &at(eps), near).unwrap().h
            - coupler_row(&c, &joints, &at(-eps), near).unwrap().h)
            / (2.0 * eps);
        let mut jv = 0.0;
        for (id, jac) in r.ids.iter().zip(&r.jac) {
            if let Some(id) = id {
                let b = &s[id.index()];
                jv += jac.dot(&SVector::<f64, 6>::from_iterator(b.v.iter().chain(b.omega.iter()).copied()));
            }
        }
        assert!((fd - jv).abs() < 1e-8 && jv.abs() > 1e-2, "fd {fd} vs J v {jv}");
        assert!(r.h.abs() > 1e-3, "the test poses violate the coupler");
    }
}
