//! The rounded box (`RoundBox`, added through the primitive registration alone): its volume and
//! inertia against their limits and against the convex hull of a fine sampling of its surface,
//! and a dropped box that comes to rest on its face at its outer half height carrying its weight.

use nalgebra::Vector3;
use saltus_mechanics::shape::{Cuboid, RoundBox};
use saltus_mechanics::{nsgs, BodyDesc, ContactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc};

/// Mass and principal moments of `d` at density 1, from the body a density builds.
fn mass_props(d: ShapeDesc) -> (f64, Vector3<f64>) {
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let b = model.add_body(BodyDesc::dynamic("b").shape_at_origin(d).density(1.0)).unwrap();
    let body = model.body(b);
    (body.mass(), body.inertia().diagonal())
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn volume_and_inertia_are_exact_in_the_limits() {
    // r → 0: the box, m = 8abc, I_xx = m (b² + c²)/3
    let h = Vector3::new(0.3, 0.2, 0.1);
    let (m, i) = mass_props(RoundBox { half_extents: h, border_radius: 1e-9 }.into());
    let (mb, ib) = mass_props(Cuboid { half_extents: h }.into());
    assert!(rel(m, mb) < 1e-7 && rel(m, 8.0 * h.x * h.y * h.z) < 1e-7, "{m} {mb}");
    for k in 0..3 {
        assert!(rel(i[k], ib[k]) < 1e-7, "I[{k}] = {} vs {}", i[k], ib[k]);
    }
    // inner box → 0: the ball, m = 4/3 π r³, I = 2/5 m r²
    let r = 0.25;
    let (m, i) = mass_props(RoundBox { half_extents: Vector3::repeat(r * (1.0 + 1e-9)), border_radius: r }.into());
    let ball = 4.0 / 3.0 * std::f64::consts::PI * r * r * r;
    assert!(rel(m, ball) < 1e-7, "{m} vs {ball}");
    for k in 0..3 {
        assert!(rel(i[k], 0.4 * ball * r * r) < 1e-7, "I[{k}] = {}", i[k]);
    }
}

#[test]
fn volume_and_inertia_match_the_hull_of_its_surface() {
    let s = RoundBox { half_extents: Vector3::new(0.5, 0.3, 0.2), border_radius: 0.1 };
    let (m, i) = mass_props(s.into());
    // the hull of 8 × 61² points on the corner balls: inside the shape by at most r (1 − cos(π/240))
    let pts: Vec<Vector3<f64>> = s.outline(60).iter().map(|p| Vector3::new(p.x, p.y, p.z)).collect();
    let (mh, ih) = mass_props(ShapeDesc::ConvexHull { points: pts });
    assert!(m > mh && rel(m, mh) < 1e-4, "volume {m} vs hull {mh}");
    for k in 0..3 {
        assert!(i[k] > ih[k] && rel(i[k], ih[k]) < 2e-4, "I[{k}] = {} vs hull {}", i[k], ih[k]);
    }
}

#[test]
fn a_dropped_round_box_rests_on_its_face_carrying_its_weight() {
    let (g, h) = (9.81, 1e-3);
    let c = 0.05;
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -g), 0.01).unwrap();
    model.set_law(0, 0, ContactLaw::new(0.0, 0.5)).unwrap();
    model.add_body(BodyDesc::fixed("ground").shape_at_origin(ShapeDesc::HalfSpace { normal: Vector3::z() })).unwrap();
    let shape = RoundBox { half_extents: Vector3::new(0.1, 0.08, c), border_radius: 0.01 };
    let b = model
        .add_body(
            BodyDesc::dynamic("box").shape_at_origin(shape.into()).density(500.0).position(Vector3::new(0.0, 0.0, 0.2)),
        )
        .unwrap();
    let m = model.body(b).mass();
    let opts = MoreauJeanOptions { theta: 0.5, solver: nsgs(1e-12, 10_000), ..Default::default() };
    let mut sim = MechanicsSimulation::new(model, 0.0, h, opts).unwrap();
    let mut load = Vec::new();
    for _ in 0..1500 {
        sim.step().unwrap();
        load.push(sim.contacts().iter().map(|c| c.impulse.x).sum::<f64>());
    }
    let st = sim.model.body(b).state;
    assert!(st.v.norm() < 1e-9 && st.omega.norm() < 1e-9, "still moving: {:?} {:?}", st.v, st.omega);
    // Moreau–Jean (γ = ½) lets the box sink at most 1.5 h |v_impact| at the impact, no more after
    let v_impact = (2.0 * g * (0.2 - c)).sqrt();
    let sink = c - st.position.z;
    assert!((0.0..=1.5 * h * v_impact).contains(&sink), "rests at z = {} (outer half height {c})", st.position.z);
    assert!((st.orientation.angle()) < 1e-9, "tilted by {}", st.orientation.angle());
    let mean = load[1000..].iter().sum::<f64>() / 500.0;
    assert!(rel(mean, m * g * h) < 1e-9, "mean normal impulse {mean} vs m g h = {}", m * g * h);
}
