//! The narrow phase of 2D scenes ([`crate::planar`]): parry2d-f64's contact manifolds between
//! planar shapes, turned into the [`ContactPoint`]s of the one contact list (points and normal
//! in the plane `z = 0`, keys from the collider pair and parry2d's feature ids). Called by
//! [`crate::collision::CollisionDetector::detect`] for pairs of planar colliders; the broad
//! phase is the 3D one on boxes `[x ± …] × [y ± …] × [−r, r]`.

use crate::collision::{ContactKey, ContactPoint};
use crate::error::{MechanicsError, Result};
use crate::model::MechanicsModel;
use crate::planar::pose2;
use crate::shape::ShapeDesc;
use nalgebra::{Isometry3, Vector3};
use parry2d_f64::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry2d_f64::shape::SharedShape;

/// parry2d's manifolds and workspace of one candidate pair, kept between steps.
#[derive(Default)]
pub(crate) struct PlanarCache {
    manifolds: Vec<ContactManifold<(), ()>>,
    workspace: Option<ContactManifoldsWorkspace>,
}

/// World box of a planar collider: its 2D box, and `[−r, r]` along `z` (`r` the shape's
/// [`ShapeDesc::planar_radius`]).
pub(crate) fn aabb(
    s: &SharedShape,
    desc: &ShapeDesc,
    body: &Isometry3<f64>,
    offset: &Isometry3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let bb = s.compute_aabb(&pose2(&(body * offset)));
    let r = desc.planar_radius();
    (Vector3::new(bb.mins.x, bb.mins.y, -r), Vector3::new(bb.maxs.x, bb.maxs.y, r))
}

/// Appends the contacts of the planar colliders `ij` (shapes `s`) closer than the margin to
/// `out`, sorted by key.
pub(crate) fn pair_contacts(
    pc: &mut PlanarCache,
    (i, j): (usize, usize),
    (s1, s2): (&SharedShape, &SharedShape),
    model: &MechanicsModel,
    t: f64,
    out: &mut Vec<ContactPoint>,
) -> Result<()> {
    let (c1, c2) = (&model.colliders[i], &model.colliders[j]);
    let (b1, b2) = (model.body(c1.body), model.body(c2.body));
    let iso = |b: &crate::RigidBody, off: &Isometry3<f64>| {
        Isometry3::from_parts(b.state.position.into(), b.state.orientation) * off
    };
    let (pose1, pose2_) = (pose2(&iso(b1, &c1.offset)), pose2(&iso(b2, &c2.offset)));
    let margin = model.margin;
    let pos12 = pose1.inv_mul(&pose2_);
    DefaultQueryDispatcher
        .contact_manifolds(&pos12, &**s1, &**s2, margin, &mut pc.manifolds, &mut pc.workspace)
        .map_err(|_| MechanicsError::UnsupportedPair {
            t,
            body1: c1.body,
            shape1: c1.index_in_body as usize,
            body2: c2.body,
            shape2: c2.index_in_body as usize,
        })?;
    let law = model.law(b1.group, b2.group).expect("filtered by the broad phase");
    let first = out.len();
    let v3 = |p: parry2d_f64::math::Vector| Vector3::new(p.x, p.y, 0.0);
    for m in &pc.manifolds {
        let n = pose1.rotation.transform_vector(m.local_n1);
        let nn = n.length();
        if !(nn > 0.5 && nn.is_finite()) {
            continue;
        }
        let n = v3(n / nn);
        for pt in m.points.iter().filter(|pt| pt.dist < margin) {
            out.push(ContactPoint {
                key: ContactKey {
                    collider1: i as u32,
                    collider2: j as u32,
                    subshape1: m.subshape1,
                    subshape2: m.subshape2,
                    feature1: pt.fid1.0,
                    feature2: pt.fid2.0,
                },
                body1: c1.body,
                body2: c2.body,
                point1: v3(pose1.transform_point(pt.local_p1)),
                point2: v3(pose2_.transform_point(pt.local_p2)),
                normal: n,
                gap: pt.dist,
                law,
                impulse: Vector3::zeros(),
                active: false,
                velocities: None,
            });
        }
    }
    out[first..].sort_by_key(|c| c.key);
    Ok(())
}
