//! Geometric queries (`MechanicsSimulation::query`, Siconos `lineIntersectionQuery`, `inSphereQuery`,
//! `inBoxQuery`) against the closed-form geometry of spheres, a turned cube, a body with two
//! shapes and a ground slab: entry points and distances, the order, `closest_only`, removed
//! bodies, and the refusal of invalid regions.

use nalgebra::{Isometry3, Matrix3, UnitQuaternion, Vector3};
use saltus_mechanics::shape::{Cuboid, Sphere};
use saltus_mechanics::{
    BodyDesc, BodyId, BodyState, MechanicsError, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, QueryRegion,
    ShapeDesc,
};
use std::f64::consts::FRAC_PI_4;

const R: f64 = 0.5;

fn ball(name: &str, x: f64, y: f64, z: f64) -> BodyDesc {
    BodyDesc::dynamic(name)
        .shape_at_origin(ShapeDesc::from(Sphere { radius: R }))
        .mass(1.0, Matrix3::identity() * 0.1)
        .position(Vector3::new(x, y, z))
}

/// ground slab (top at z = 0), balls a (on the z axis), b (off by 0.4 in x), c (far), a cube
/// turned by 45° about z at x = 5, and a dumbbell (two balls of radius 0.2 at x = −3 ± 0.5).
fn scene_model() -> MechanicsModel {
    let mut m = MechanicsModel::new(Vector3::new(0.0, 0.0, -9.81), 0.01).unwrap();
    m.add_body(
        BodyDesc::fixed("ground")
            .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(50.0, 10.0, 0.1) }))
            .position(Vector3::new(0.0, 0.0, -0.1)),
    )
    .unwrap();
    m.add_body(ball("a", 0.0, 0.0, 2.0)).unwrap();
    m.add_body(ball("b", 0.4, 0.0, 4.0)).unwrap();
    m.add_body(ball("c", 3.0, 0.0, 2.0)).unwrap();
    let turned = BodyState {
        position: Vector3::new(5.0, 0.0, 1.0),
        orientation: UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_4),
        ..Default::default()
    };
    m.add_body(
        BodyDesc::dynamic("cube")
            .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::repeat(0.5) }))
            .mass(1.0, Matrix3::identity() / 6.0)
            .state(turned),
    )
    .unwrap();
    let small = ShapeDesc::from(Sphere { radius: 0.2 });
    m.add_body(
        BodyDesc::dynamic("dumbbell")
            .shape(small.clone(), Isometry3::translation(-0.5, 0.0, 0.0))
            .shape(small, Isometry3::translation(0.5, 0.0, 0.0))
            .mass(1.0, Matrix3::identity() * 0.1)
            .position(Vector3::new(-3.0, 0.0, 1.0)),
    )
    .unwrap();
    m
}

fn scene() -> MechanicsSimulation {
    MechanicsSimulation::new(scene_model(), 0.0, 1e-3, MoreauJeanOptions::default()).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12 * (1.0 + b.abs())
}

#[test]
fn a_vertical_segment_meets_each_shape_where_it_enters_it_nearest_first() {
    let m = scene();
    let seg = QueryRegion::Segment { start: Vector3::new(0.0, 0.0, 10.0), end: Vector3::new(0.0, 0.0, -10.0) };
    let hits = m.query(&seg, false).unwrap();
    let bodies: Vec<u32> = hits.iter().map(|h| h.body.0).collect();
    // b (x = 0.4) is crossed at its top chord: z = 4 + √(R² − 0.4²) = 4.3; a at its top (2.5);
    // the ground at its top face (0)
    assert_eq!(bodies, [2, 1, 0], "{hits:?}");
    let z_b = 4.0 + (R * R - 0.16f64).sqrt();
    for (h, z) in hits.iter().zip([z_b, 2.5, 0.0]) {
        assert!(close(h.point.z, z) && h.point.x.abs() < 1e-12 && h.point.y.abs() < 1e-12, "{h:?}");
        assert!(close(h.distance, 10.0 - z), "{h:?}");
    }
    let first = m.query(&seg, true).unwrap();
    assert_eq!(first, hits[..1]);
    // reversed: the ground's bottom face first (z = −0.2), then a's and b's lower points
    let back = QueryRegion::Segment { start: Vector3::new(0.0, 0.0, -10.0), end: Vector3::new(0.0, 0.0, 10.0) };
    let hits = m.query(&back, false).unwrap();
    let got: Vec<(u32, f64)> = hits.iter().map(|h| (h.body.0, h.point.z)).collect();
    assert_eq!(got.len(), 3);
    assert!(got[0].0 == 0 && close(got[0].1, -0.2), "{got:?}");
    assert!(got[1].0 == 1 && close(got[1].1, 1.5), "{got:?}");
    assert!(got[2].0 == 2 && close(got[2].1, 4.0 - (R * R - 0.16f64).sqrt()), "{got:?}");
}

#[test]
fn a_segment_ending_short_of_a_shape_misses_it_and_one_starting_inside_meets_it_at_its_start() {
    let m = scene();
    let short = QueryRegion::Segment { start: Vector3::new(0.0, 0.0, 10.0), end: Vector3::new(0.0, 0.0, 2.6) };
    assert!(m.query(&short, false).unwrap().iter().all(|h| h.body != BodyId(1)));
    let inside = QueryRegion::Segment { start: Vector3::new(0.0, 0.0, 2.1), end: Vector3::new(0.0, 0.0, 3.0) };
    let hits = m.query(&inside, false).unwrap();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].body == BodyId(1) && hits[0].distance == 0.0 && close(hits[0].point.z, 2.1), "{hits:?}");
}

#[test]
fn a_horizontal_segment_meets_the_turned_cube_at_its_edge_and_each_shape_of_a_body() {
    let m = scene();
    // along x at y = 0, z = 1: the cube turned by 45° presents its vertical edge at x = 5 − √2/2
    let seg = QueryRegion::Segment { start: Vector3::new(4.0, 0.0, 1.0), end: Vector3::new(7.0, 0.0, 1.0) };
    let hits = m.query(&seg, false).unwrap();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].body == BodyId(4) && close(hits[0].point.x, 5.0 - 0.5 * 2f64.sqrt()), "{hits:?}");
    // through the dumbbell's two balls: one hit per shape, shape 0 (x = −3.5) first from the left
    let seg = QueryRegion::Segment { start: Vector3::new(-6.0, 0.0, 1.0), end: Vector3::new(-1.0, 0.0, 1.0) };
    let hits = m.query(&seg, false).unwrap();
    let got: Vec<(u32, u32, f64)> = hits.iter().map(|h| (h.body.0, h.shape, h.point.x)).collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].0 == 5 && got[0].1 == 0 && close(got[0].2, -3.7), "{got:?}");
    assert!(got[1].0 == 5 && got[1].1 == 1 && close(got[1].2, -2.7), "{got:?}");
}

#[test]
fn ball_and_box_queries_meet_the_shapes_within_reach() {
    let m = scene();
    // ball of radius 0.6 around (0, 0, 3): a's top (distance 0.5) is in, b's bottom
    // (|(0.4, 0, 4) − (0, 0, 3)| − R ≈ 0.577) too, the ground (3) is not
    let q = QueryRegion::Ball { center: Vector3::new(0.0, 0.0, 3.0), radius: 0.6 };
    let hits = m.query(&q, false).unwrap();
    let d_b = (0.16f64 + 1.0).sqrt() - R;
    assert_eq!(hits.iter().map(|h| h.body.0).collect::<Vec<_>>(), [1, 2], "{hits:?}");
    assert!(close(hits[0].distance, 0.5) && close(hits[0].point.z, 2.5), "{hits:?}");
    assert!(close(hits[1].distance, d_b), "{hits:?}");
    let q = QueryRegion::Ball { center: Vector3::new(0.0, 0.0, 3.0), radius: 0.55 };
    assert_eq!(m.query(&q, false).unwrap().len(), 1);
    // a box 1 × 1 × 1 centred at (0, 0, 3.2) (z in [2.7, 3.7]): b's bottom (3.5) is in it, a's
    // top (2.5) 0.2 below it
    let q = QueryRegion::Cuboid { center: Vector3::new(0.0, 0.0, 3.2), half_extents: Vector3::repeat(0.5) };
    let hits = m.query(&q, false).unwrap();
    let d_b = (0.16f64 + 0.64).sqrt() - R;
    assert_eq!(hits.iter().map(|h| h.body.0).collect::<Vec<_>>(), [2], "{hits:?}");
    assert!(close(hits[0].distance, d_b), "{hits:?}");
    // … a box reaching down to 2.4 holds a too, farther from the centre (0.7)
    let q = QueryRegion::Cuboid { center: Vector3::new(0.0, 0.0, 3.2), half_extents: Vector3::new(0.5, 0.5, 0.8) };
    let hits = m.query(&q, false).unwrap();
    assert_eq!(hits.iter().map(|h| h.body.0).collect::<Vec<_>>(), [2, 1], "{hits:?}");
    assert!(close(hits[1].distance, 0.7) && close(hits[1].point.z, 2.5), "{hits:?}");
}

#[test]
fn a_removed_body_is_not_met_and_invalid_regions_are_refused() {
    let mut sim = scene();
    sim.remove_body(BodyId(1)).unwrap();
    let seg = QueryRegion::Segment { start: Vector3::new(0.0, 0.0, 10.0), end: Vector3::new(0.0, 0.0, -10.0) };
    let hits = sim.query(&seg, false).unwrap();
    assert_eq!(hits.iter().map(|h| h.body.0).collect::<Vec<_>>(), [2, 0]);
    let bad = [
        QueryRegion::Segment { start: Vector3::zeros(), end: Vector3::zeros() },
        QueryRegion::Segment { start: Vector3::new(f64::NAN, 0.0, 0.0), end: Vector3::zeros() },
        QueryRegion::Ball { center: Vector3::zeros(), radius: 0.0 },
        QueryRegion::Cuboid { center: Vector3::zeros(), half_extents: Vector3::new(1.0, -1.0, 1.0) },
    ];
    for q in bad {
        match sim.query(&q, false) {
            Err(MechanicsError::InvalidQuery { query, .. }) => assert_eq!(query, q.name()),
            other => panic!("{q:?}: {other:?}"),
        }
    }
}
