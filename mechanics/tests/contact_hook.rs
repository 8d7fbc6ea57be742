//! A user contact hook (`MechanicsModel::set_contact_hook`) changes the normals the step uses:
//! a frictionless sphere dropped on a plane whose normals the hook tilts by α receives every
//! contact impulse along the tilted normal (so it is pushed sideways, tan α of the normal
//! impulse), a hook that keeps every normal changes nothing, to the bit, and a failing hook
//! stops the step with its message and leaves the state as it was.

use nalgebra::{Matrix3, Vector3};
use saltus_mechanics::shape::Sphere;
use saltus_mechanics::{
    nsgs, BodyDesc, ContactHookFn, ContactLaw, MechanicsError, MechanicsModel, MechanicsSimulation, MoreauJeanOptions,
    ShapeDesc,
};
use std::sync::Arc;

const G: f64 = 9.81;

fn scene(mu: f64) -> MechanicsModel {
    let (r, m) = (0.1, 2.0);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, mu)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    model
        .add_body(
            BodyDesc::dynamic("ball")
                .shape_at_origin(ShapeDesc::from(Sphere { radius: r }))
                .mass(m, Matrix3::from_diagonal_element(0.4 * m * r * r))
                .position(Vector3::new(0.0, 0.0, 0.3)),
        )
        .unwrap();
    model
}

fn opts() -> MoreauJeanOptions {
    MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-12, 10_000), ..Default::default() }
}

/// The normal rotated by `alpha` about the y axis.
fn tilt(n: &Vector3<f64>, alpha: f64) -> Vector3<f64> {
    let (s, c) = alpha.sin_cos();
    Vector3::new(c * n.x + s * n.z, n.y, -s * n.x + c * n.z)
}

#[test]
fn impulses_follow_the_normals_the_hook_gives() {
    let (alpha, h, m) = (0.2_f64, 1e-3, 2.0);
    let mut model = scene(0.0);
    let hook: ContactHookFn = Arc::new(move |_t, c, _b1, _b2| Ok(Some(tilt(&c.normal, alpha))));
    model.set_contact_hook(Some(hook));
    let ball = model.body_by_name("ball").unwrap();
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts()).unwrap();
    let mut impacts = 0;
    for _ in 0..600 {
        let v0 = sim.model.body(ball).state.v;
        let rep = sim.step().unwrap();
        if rep.n_active == 0 {
            continue;
        }
        impacts += 1;
        let c = sim.contacts()[0];
        // ground → ball: the contact's normal points from body 1 to body 2
        let n_up = if c.body2 == ball { c.normal } else { -c.normal };
        assert!((n_up - tilt(&Vector3::z(), alpha)).norm() < 1e-14, "n = {n_up:?}");
        // the contact's impulse: m (v_{k+1} − v_k) − m g h
        let p = m * (sim.model.body(ball).state.v - v0) - m * h * Vector3::new(0.0, 0.0, -G);
        assert!(p.norm() > 0.0);
        assert!(p.cross(&n_up).norm() <= 1e-9 * p.norm(), "impulse {p:?} not along {n_up:?}");
        assert!(p.dot(&n_up) > 0.0);
    }
    assert!(impacts > 10, "{impacts} contact steps");
    // pushed sideways along +x (the tilted normal's horizontal part)
    assert!(sim.model.body(ball).state.v.x > 0.1, "{:?}", sim.model.body(ball).state.v);
}

#[test]
fn a_hook_that_keeps_the_normals_changes_nothing() {
    let run = |hook: Option<ContactHookFn>| {
        let mut model = scene(0.4);
        model.set_contact_hook(hook);
        let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap();
        let mut calls = 0;
        for _ in 0..400 {
            calls += sim.step().unwrap().n_contacts;
        }
        (sim.model.bodies.iter().map(|b| b.state).collect::<Vec<_>>(), calls)
    };
    let (plain, contacts) = run(None);
    let (hooked, _) = run(Some(Arc::new(|_t, _c, _b1, _b2| Ok(None))));
    assert!(contacts > 100, "{contacts} contacts seen");
    assert_eq!(plain, hooked);
}

#[test]
fn a_failing_hook_stops_the_step_and_keeps_the_state() {
    let mut model = scene(0.4);
    model.set_contact_hook(Some(Arc::new(|t, _c, _b1, _b2| Err(format!("no contact wanted at t = {t}")))));
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap();
    let mut last = None;
    for _ in 0..1000 {
        let before = (sim.time(), sim.model.bodies.iter().map(|b| b.state).collect::<Vec<_>>());
        match sim.step() {
            Ok(_) => {}
            Err(e) => {
                assert!(
                    matches!(&e, MechanicsError::UserFunction { what: "contact hook", message, .. }
                    if message.starts_with("no contact wanted")),
                    "{e:?}"
                );
                assert_eq!((sim.time(), sim.model.bodies.iter().map(|b| b.state).collect::<Vec<_>>()), before);
                last = Some(e);
                break;
            }
        }
    }
    assert!(last.is_some(), "the hook was never called");
    // a zero normal is refused with its reason
    let mut model = scene(0.4);
    model.set_contact_hook(Some(Arc::new(|_t, _c, _b1, _b2| Ok(Some(Vector3::zeros())))));
    let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, opts()).unwrap();
    let e = (0..1000).find_map(|_| sim.step().err()).expect("a contact");
    assert!(e.to_string().contains("zero vector"), "{e}");
}
