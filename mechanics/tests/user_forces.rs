//! User forces and torques (`ForceFn`, constant `force`/`torque`) and prescribed velocities
//! (`BoundaryCondition`) against closed forms of the Moreau–Jean θ-scheme.
//!
//! Constant force `F` from rest offsets: `v_n = v_0 + F t/m` exactly and
//! `x_n = x_0 + v_0 t + (F/m)(t²/2 + (θ − ½) h t)` (`x_{k+1} = x_k + h((1−θ) v_k + θ v_{k+1})`
//! summed), so θ = ½ gives the parabola itself. A torque about a principal axis spins the body at
//! `ω = τ t / I`. A spring `F = −k x` evaluated at `(t_k, x_k)` and at the predicted
//! `x_k + h v_k` gives the linear step map `A` (below) of determinant `1 + (1 − 2θ) h² ω²`.

use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};
use saltus_mechanics::shape::{Cuboid, Cylinder, Sphere};
use saltus_mechanics::{
    nsgs, BodyDesc, BodyId, BoundaryCondition, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions,
    PrescribedVelocity, ShapeDesc,
};
use std::sync::Arc;

fn sim(model: MechanicsModel, h: f64, theta: f64) -> MechanicsSimulation {
    let opts = MoreauJeanOptions { theta, solver: nsgs(1e-12, 10_000), ..Default::default() };
    MechanicsSimulation::new(model, 0.0, h, opts).unwrap()
}

fn ball(name: &str, m: f64, r: f64) -> BodyDesc {
    BodyDesc::dynamic(name)
        .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
        .mass(m, Matrix3::from_diagonal_element(0.4 * m * r * r))
}

/// Constant force, from a user function and as the constant `force`: the discrete parabola.
#[test]
fn constant_force_follows_the_discrete_parabola() {
    let (m, h, n) = (2.5, 1e-2, 400);
    let f = Vector3::new(1.5, -0.75, 3.0);
    for theta in [0.5, 0.7] {
        for from_fn in [false, true] {
            let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
            let mut d = ball("b", m, 0.1);
            d.state.v = Vector3::new(0.3, 0.2, -0.1);
            if from_fn {
                d.force_fn = Some(Arc::new(move |_, _| Ok((f, Vector3::zeros()))));
            } else {
                d.force = f;
            }
            let (x0, v0) = (d.state.position, d.state.v);
            model.add_body(d).unwrap();
            let mut s = sim(model, h, theta);
            for _ in 0..n {
                s.step().unwrap();
            }
            let t = n as f64 * h;
            let st = &s.model.bodies[0].state;
            let x = x0 + v0 * t + f / m * (t * t / 2.0 + (theta - 0.5) * h * t);
            let v = v0 + f * (t / m);
            assert!((st.v - v).norm() <= 1e-13 * v.norm(), "θ {theta}: v {} vs {v}", st.v);
            assert!((st.position - x).norm() <= 1e-12 * x.norm(), "θ {theta}: x {} vs {x}", st.position);
        }
    }
}

/// A torque about a principal axis of an anisotropic body: `ω = τ t / I`, angle `τ t²/(2I)`.
#[test]
fn torque_spins_at_tau_t_over_i() {
    let (h, n) = (1e-3, 1000);
    let inertia = Vector3::new(0.2, 0.5, 0.9);
    let tau = 0.35;
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let mut d = BodyDesc::dynamic("b")
        .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.1, 0.2, 0.3) }))
        .mass(1.0, Matrix3::from_diagonal(&inertia));
    d.force_fn = Some(Arc::new(move |_, _| Ok((Vector3::zeros(), Vector3::new(0.0, tau, 0.0)))));
    model.add_body(d).unwrap();
    let mut s = sim(model, h, 0.5);
    for _ in 0..n {
        s.step().unwrap();
    }
    let t = n as f64 * h;
    let st = &s.model.bodies[0].state;
    let w = tau * t / inertia.y;
    assert!((st.omega - Vector3::new(0.0, w, 0.0)).norm() <= 1e-12 * w, "{}", st.omega);
    let angle = st.orientation.scaled_axis();
    let expect = tau * t * t / (2.0 * inertia.y);
    assert!((angle - Vector3::new(0.0, expect, 0.0)).norm() <= 1e-12 * expect, "{angle} vs {expect}");
}

/// `F = −k x` on the pose: the scheme's linear map, the closed form within O(h²), and no
/// energy drift at θ = ½ (damping at θ > ½).
#[test]
fn spring_force_is_the_discrete_harmonic_oscillator() {
    let (m, k, h): (f64, f64, f64) = (0.5, 8.0, 1e-3);
    let om = (k / m).sqrt();
    let period = 2.0 * std::f64::consts::PI / om;
    let n = (20.0 * period / h) as usize;
    for theta in [0.5, 0.6] {
        let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
        let mut d = ball("b", m, 0.1).position(Vector3::new(0.1, 0.0, 0.0));
        d.force_fn = Some(Arc::new(move |_, s| Ok((-k * s.position, Vector3::zeros()))));
        model.add_body(d).unwrap();
        let mut s = sim(model, h, theta);
        // v' = v − h ω² ((1−θ) x + θ (x + h v)),  x' = x + h ((1−θ) v + θ v')
        let w2 = om * om;
        let av = Vector2::new(-h * w2, 1.0 - theta * h * h * w2);
        let a = Matrix2::new(1.0 + h * theta * av.x, h * (1.0 - theta) + h * theta * av.y, av.x, av.y);
        let mut z = Vector2::new(0.1, 0.0);
        let energy = |x: f64, v: f64| 0.5 * m * v * v + 0.5 * k * x * x;
        let e0 = energy(0.1, 0.0);
        let (mut first, mut last) = (0.0f64, 0.0f64);
        let per = (period / h) as usize;
        for step in 1..=n {
            s.step().unwrap();
            z = a * z;
            let st = &s.model.bodies[0].state;
            assert!((st.position.x - z.x).abs() <= 1e-12 && (st.v.x - z.y).abs() <= 1e-11, "θ {theta} step {step}");
            assert!(st.position.yz().norm() == 0.0);
            let de = (energy(st.position.x, st.v.x) - e0).abs() / e0;
            if step <= per {
                first = first.max(de);
            }
            if step > n - per {
                last = last.max(de);
            }
        }
        let t = n as f64 * h;
        let st = &s.model.bodies[0].state;
        if theta == 0.5 {
            assert!((a.determinant() - 1.0).abs() <= 1e-15);
            // phase error O(h²ω²) per unit of ωt: 20 periods, ω h = 4e-3
            let exact = 0.1 * (om * t).cos();
            assert!((st.position.x - exact).abs() <= 0.1 * 20.0 * (om * h).powi(2), "{} vs {exact}", st.position.x);
            assert!(
                first <= 1e-5 && last <= 1.01 * first + 1e-12,
                "energy drift: first period {first:e}, last {last:e}"
            );
        } else {
            let decay = a.determinant().powf(n as f64 / 2.0); // |z| shrinks as √det per step
            let e = energy(st.position.x, st.v.x) / e0;
            assert!(
                e < 0.95 && (e / (decay * decay) - 1.0).abs() < 1e-3,
                "θ {theta}: energy ratio {e}, det^n {}",
                decay * decay
            );
        }
    }
}

/// A failing user force stops the step with its message and the body's id.
#[test]
fn failing_force_is_a_typed_error() {
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let mut d = ball("b", 1.0, 0.1);
    d.force_fn = Some(Arc::new(|t, _| if t > 0.05 { Err("broken".into()) } else { Ok(Default::default()) }));
    model.add_body(d).unwrap();
    let mut s = sim(model, 0.01, 0.5);
    let e = (0..10).find_map(|_| s.step().err()).expect("fails");
    let msg = e.to_string();
    assert!(msg.contains("broken") && msg.contains("external force") && msg.contains("BodyId(0)"), "{msg}");
}

fn bc(indices: &[usize], law: PrescribedVelocity) -> BoundaryCondition {
    BoundaryCondition::new(indices, law).unwrap()
}

/// Fixed vertical velocity: the body hovers against gravity; a prescribed horizontal velocity
/// keeps it while it slides on a frictional floor, the friction impulse being the full Coulomb
/// one (sliding), and a ball it pushes is thrown ahead while its own velocity does not change.
#[test]
fn prescribed_components_hold_through_contacts() {
    let (g, h, m, r, mu) = (9.81, 1e-3, 1.0, 0.1, 0.4);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -g), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, mu)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    // hovering: v_z = 0 prescribed, in the air
    let hover = model.add_body(ball("hover", m, r).position(Vector3::new(5.0, 0.0, 1.0))).unwrap();
    model.set_boundary_condition(hover, Some(bc(&[2], PrescribedVelocity::Fixed))).unwrap();
    // pusher: a box on the floor driven at v_x = 1 (and no rotation), a ball ahead of it
    let pusher = model
        .add_body(
            BodyDesc::dynamic("pusher")
                .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.1, 0.1, 0.1) }))
                .mass(m, Matrix3::from_diagonal_element(m * 0.02 / 3.0))
                .position(Vector3::new(0.0, 0.0, 0.1)),
        )
        .unwrap();
    let law = PrescribedVelocity::Constant(vec![1.0, 0.0, 0.0, 0.0]);
    model.set_boundary_condition(pusher, Some(bc(&[0, 3, 4, 5], law))).unwrap();
    let target = model.add_body(ball("target", 0.1, r).position(Vector3::new(0.5, 0.0, r))).unwrap();
    let mut s = sim(model, h, 0.5);
    let mut pushed = false;
    for step in 0..600 {
        s.step().unwrap();
        let b = |id: BodyId| s.model.bodies[id.index()].state;
        assert_eq!(b(hover).v.z, 0.0, "step {step}");
        assert_eq!(b(hover).position.z, 1.0);
        assert_eq!((b(pusher).v.x, b(pusher).omega), (1.0, Vector3::zeros()), "step {step}");
        if step > 10 {
            // sliding at 1 m/s under its weight: tangential impulse μ N per step against v_x
            let floor: Vec<_> = s.contacts().iter().filter(|c| c.active && c.body2 == pusher).collect();
            let (n, t): (f64, f64) =
                floor.iter().fold((0.0, 0.0), |a, c| (a.0 + c.impulse.x, a.1 + c.impulse.yz().norm()));
            let touching = s.contacts().iter().any(|c| c.active && c.body1 != BodyId(0) && c.body2 == target);
            if !touching && !pushed {
                assert!((n - m * g * h).abs() <= 1e-9 && (t - mu * n).abs() <= 1e-8 * n, "step {step}: N {n}, T {t}");
            }
        }
        pushed |= b(target).v.x > 0.5;
    }
    let tv = s.model.bodies[target.index()].state.v.x;
    assert!(pushed && tv >= 1.0 - 1e-6, "the target is pushed ahead: v = {tv}");
}

/// Harmonic prescription: the velocity is `a + b cos(ω t + φ)` at every step end, the position
/// its θ-trapezoid sum; the other components evolve freely (gravity along x).
#[test]
fn harmonic_bc_follows_its_law_at_step_ends() {
    let (h, a, b, w, phi) = (1e-3, 0.1, 0.5, 20.0, 0.3);
    let mut model = MechanicsModel::new(Vector3::new(-2.0, 0.0, 0.0), 0.01).unwrap();
    let id = model.add_body(ball("b", 1.5, 0.1)).unwrap();
    let law = PrescribedVelocity::Harmonic { a: vec![a], b: vec![b], omega: vec![w], phi: vec![phi] };
    model.set_boundary_condition(id, Some(bc(&[2], law))).unwrap();
    let mut s = sim(model, h, 0.5);
    let (mut z, mut vz) = (0.0, 0.0);
    for k in 1..=1000 {
        s.step().unwrap();
        let t = s.time();
        assert!((t - k as f64 * h).abs() <= 1e-15);
        let st = &s.model.bodies[0].state;
        let v = a + b * (w * t + phi).cos();
        z += h * 0.5 * (vz + v);
        vz = v;
        assert_eq!(st.v.z, v, "step {k}");
        assert!((st.position.z - z).abs() <= 1e-13, "step {k}");
        assert!((st.v.x + 2.0 * t).abs() <= 1e-12);
    }
}

/// Prescribed spin about a principal axis of an anisotropic body, the other rotations free:
/// `Ω_y` stays, and a torque about x is still integrated (the free rows see `I_FF`).
#[test]
fn prescribed_spin_keeps_its_component() {
    let h = 1e-3;
    let inertia = Matrix3::new(0.3, 0.05, 0.0, 0.05, 0.5, 0.02, 0.0, 0.02, 0.8);
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let mut d = BodyDesc::dynamic("wheel")
        .shape_at_origin(ShapeDesc::from(Cylinder { radius: 0.3, half_height: 0.05 }))
        .mass(2.0, inertia);
    d.torque = Vector3::new(0.01, 0.0, 0.0);
    let id = model.add_body(d).unwrap();
    model.set_boundary_condition(id, Some(bc(&[4], PrescribedVelocity::Constant(vec![8.0])))).unwrap();
    let mut s = sim(model, h, 0.5);
    for _ in 0..500 {
        s.step().unwrap();
        assert_eq!(s.model.bodies[0].state.omega.y, 8.0);
    }
    assert!(s.model.bodies[0].state.omega.x.abs() > 1e-4);
    // errors: bad index, wrong count, static body
    assert!(BoundaryCondition::new(&[6], PrescribedVelocity::Fixed).is_err());
    assert!(BoundaryCondition::new(&[1, 1], PrescribedVelocity::Fixed).is_err());
    assert!(BoundaryCondition::new(&[1, 2], PrescribedVelocity::Constant(vec![1.0])).is_err());
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let g =
        model.add_body(BodyDesc::fixed("g").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    assert!(model.set_boundary_condition(g, Some(bc(&[0], PrescribedVelocity::Fixed))).is_err());
}

/// A wheel on a hinge to the world (axis y through its centre) with its spin prescribed
/// (index 4 = Ω_y, body frame; the hinge keeps the body y axis on the world y axis): it turns
/// at exactly 8 rad/s, the angle is 8 t, and the joint holds under gravity (the joint path
/// sees the reduced inverse mass).
#[test]
fn prescribed_spin_on_a_hinge() {
    use saltus_mechanics::joints::PivotJointR;
    use saltus_mechanics::JointType;
    let h = 1e-3;
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), 0.01).unwrap();
    let id = model
        .add_body(
            BodyDesc::dynamic("wheel")
                .shape_at_origin(ShapeDesc::from(Cylinder { radius: 0.3, half_height: 0.05 }))
                .mass(2.0, Matrix3::from_diagonal(&Vector3::new(0.05, 0.09, 0.05)))
                .position(Vector3::new(0.0, 0.0, 1.0)),
        )
        .unwrap();
    let hinge = PivotJointR::new(Vector3::new(0.0, 0.0, 1.0), Vector3::y());
    model.add_joint("axle", id, None, JointType::Pivot(hinge)).unwrap();
    model.set_boundary_condition(id, Some(bc(&[4], PrescribedVelocity::Constant(vec![8.0])))).unwrap();
    let mut s = sim(model, h, 0.5);
    for _ in 0..500 {
        s.step().unwrap();
        let st = &s.model.bodies[0].state;
        assert_eq!(st.omega.y, 8.0);
        assert!((st.position - Vector3::new(0.0, 0.0, 1.0)).norm() < 1e-9, "{}", st.position);
    }
    let st = &s.model.bodies[0].state;
    // from rest: Ω_y jumps to 8 at the first step end, so the angle is 8 (t − h/2)
    let angle = 8.0 * (s.time() - h / 2.0);
    let expect = nalgebra::UnitQuaternion::from_scaled_axis(Vector3::y() * angle);
    assert!(st.orientation.angle_to(&expect) < 1e-9, "{:?}", st.orientation.scaled_axis());
    assert!(st.omega.xz().norm() < 1e-9);
}
