//! Collision detection: broad phase (`crate::broad_phase`) then parry's contact manifolds per
//! candidate pair; every manifold point closer than the margin becomes a [`ContactPoint`] with a
//! stable [`ContactKey`] (collider pair, sub-shapes, feature ids).
//!
//! Per-pair manifolds and parry workspaces persist between steps (matched on the sorted pair
//! list), so composite shapes (meshes, height fields) keep their sub-shape caches.

use crate::broad_phase::{BroadEntry, BroadPhase};
use crate::convert::{from_pv, to_pose};
use crate::error::{MechanicsError, Result};
use crate::model::{ContactLaw, MechanicsModel};
use crate::BodyId;
use nalgebra::{Isometry3, Vector3};
use parry3d_f64::math::Pose;
use parry3d_f64::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d_f64::shape::ShapeType;

/// Identity of a contact across steps: collider indices (`collider1 < collider2`), sub-shape
/// indices inside composite shapes, and parry's packed feature ids on each side. Contacts are
/// kept sorted by this key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContactKey {
    /// First collider.
    pub collider1: u32,
    /// Second collider.
    pub collider2: u32,
    /// Sub-shape of the first collider (0 unless composite).
    pub subshape1: u32,
    /// Sub-shape of the second collider.
    pub subshape2: u32,
    /// Packed feature id on the first shape (vertex, edge or face).
    pub feature1: u32,
    /// Packed feature id on the second shape.
    pub feature2: u32,
}

/// A contact point between two bodies (Siconos `NewtonEuler3DR` data).
///
/// The normal `n` points from body 1 to body 2; the gap `g = (p₂ − p₁)·n` is negative in
/// penetration. Reactions act as `+r` on body 2 and `−r` on body 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPoint {
    /// Identity across steps.
    pub key: ContactKey,
    /// First body.
    pub body1: BodyId,
    /// Second body.
    pub body2: BodyId,
    /// Contact point on body 1's surface, world frame.
    pub point1: Vector3<f64>,
    /// Contact point on body 2's surface, world frame.
    pub point2: Vector3<f64>,
    /// Unit normal, world frame, from body 1 to body 2.
    pub normal: Vector3<f64>,
    /// Signed gap.
    pub gap: f64,
    /// The law between the two colliders' groups.
    pub law: ContactLaw,
    /// Impulse of the last step in the contact frame (normal, tangent 1, tangent 2); zero when
    /// the contact was not active.
    pub impulse: Vector3<f64>,
    /// `true` if the contact was in the friction-contact problem of the last step (index set 1).
    pub active: bool,
    /// The relative velocity in the contact frame at the step's start and end, `H v_k` and
    /// `H v_{k+1}` with the step's Jacobian (Siconos `y_k(1)`, `y(1)`); `None` when not active.
    pub velocities: Option<[Vector3<f64>; 2]>,
}

struct PairCache {
    pair: (u32, u32),
    manifolds: Vec<ContactManifold<(), ()>>,
    workspace: Option<ContactManifoldsWorkspace>,
    /// The parry2d manifolds of a pair of planar shapes (2D scenes), boxed and made on first
    /// use: a 3D pair carries one pointer, not the 2D cache (40 bytes more on each of a pile's
    /// ~10⁴ pairs, twice: the cache and the next step's).
    planar: Option<Box<crate::collision2d::PlanarCache>>,
}

/// Broad and narrow phase with buffers and per-pair caches kept between steps.
#[derive(Default)]
pub struct CollisionDetector {
    entries: Vec<BroadEntry>,
    poses: Vec<Isometry3<f64>>,
    broad: BroadPhase,
    cache: Vec<PairCache>,
    next_cache: Vec<PairCache>,
}

impl std::fmt::Debug for CollisionDetector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CollisionDetector").field("pairs", &self.broad.pairs.len()).finish_non_exhaustive()
    }
}

impl CollisionDetector {
    /// Number of candidate pairs of the last detection.
    pub fn n_pairs(&self) -> usize {
        self.broad.pairs.len()
    }

    /// Drops the per-pair manifolds and parry workspaces: the next [`Self::detect`] computes
    /// every manifold from the poses alone. Otherwise parry's coherence shortcut
    /// (`ContactManifold::try_update_contacts`) keeps a manifold's contact points and only
    /// refreshes their separations while the relative pose moves by less than 1° and 1 mm, so a
    /// gap can differ from the true one at that pose (by 1e-8 m after a projection step of a
    /// tilting box); the contact projection needs the true gaps.
    pub fn forget_manifolds(&mut self) {
        self.cache.clear();
    }

    /// Finds every contact closer than `model.margin` at the current poses, sorted by key,
    /// into `out` (cleared first). `t` is only used in error messages.
    pub fn detect(&mut self, model: &MechanicsModel, t: f64, out: &mut Vec<ContactPoint>) -> Result<()> {
        out.clear();
        let margin = model.margin;
        self.entries.clear();
        self.poses.clear();
        for c in &model.colliders {
            let b = model.body(c.body);
            let body_pose = Isometry3::from_parts(b.state.position.into(), b.state.orientation);
            let pose = body_pose * c.local_pose;
            let pp = to_pose(&pose.translation.vector, &pose.rotation);
            let plane = (c.shape.shape_type() == ShapeType::HalfSpace).then(|| {
                let n = c.shape.as_halfspace().map(|h| from_pv(h.normal)).unwrap_or_else(Vector3::z);
                let nw = pose.rotation * n;
                (nw, nw.dot(&pose.translation.vector) + margin)
            });
            let (mins, maxs) = match &c.shape2d {
                None => {
                    let aabb = c.shape.compute_aabb(&pp);
                    (from_pv(aabb.mins), from_pv(aabb.maxs))
                }
                Some(s2) => crate::collision2d::aabb(s2, &c.desc, &body_pose, &c.offset),
            };
            let half = 0.5 * margin;
            self.entries.push(BroadEntry {
                mins: mins.add_scalar(-half),
                maxs: maxs.add_scalar(half),
                dynamic: b.is_dynamic(),
                plane,
            });
            self.poses.push(pose);
        }
        let cols = &model.colliders;
        self.broad.update(&self.entries, |i, j| {
            let (ci, cj) = (&cols[i as usize], &cols[j as usize]);
            let (a, b) = (ci.body, cj.body);
            let (ba, bb) = (model.body(a), model.body(b));
            a != b && ba.alive && bb.alive && model.law(ci.group, cj.group).is_some() && !model.linked(a, b)
        });
        // Carry the caches of persisting pairs over (both lists sorted by pair).
        self.next_cache.clear();
        let mut old = self.cache.drain(..).peekable();
        for &pair in &self.broad.pairs {
            while old.peek().is_some_and(|c| c.pair < pair) {
                old.next();
            }
            let entry = match old.peek() {
                Some(c) if c.pair == pair => old.next().expect("peeked"),
                _ => PairCache { pair, manifolds: Vec::new(), workspace: None, planar: None },
            };
            self.next_cache.push(entry);
        }
        drop(old);
        std::mem::swap(&mut self.cache, &mut self.next_cache);
        let poses = &self.poses;
        // parry's manifolds pair by pair, on chunks of pairs in parallel on large scenes; the
        // contacts come out in pair order (the serial order) on any number of threads
        crate::par::extend_by_chunks_mut(&mut self.cache, out, |_, chunk, out| {
            chunk.iter_mut().try_for_each(|pc| pair_contacts(pc, model, poses, t, out))
        })
    }
}

/// Appends the contact points of one candidate pair (its manifolds updated in its cache) to
/// `out`, sorted by key.
fn pair_contacts(
    pc: &mut PairCache,
    model: &MechanicsModel,
    poses: &[Isometry3<f64>],
    t: f64,
    out: &mut Vec<ContactPoint>,
) -> Result<()> {
    let (cols, margin) = (&model.colliders, model.margin);
    let dispatcher = DefaultQueryDispatcher;
    let first = out.len();
    let (i, j) = (pc.pair.0 as usize, pc.pair.1 as usize);
    let (c1, c2) = (&cols[i], &cols[j]);
    if let (Some(s1), Some(s2)) = (&c1.shape2d, &c2.shape2d) {
        let planar = pc.planar.get_or_insert_with(Default::default);
        return crate::collision2d::pair_contacts(planar, (i, j), (s1, s2), model, t, out);
    }
    let (p1, p2) = (&poses[i], &poses[j]);
    let pose1 = to_pose(&p1.translation.vector, &p1.rotation);
    let pose2 = to_pose(&p2.translation.vector, &p2.rotation);
    let pos12 = pose1.inv_mul(&pose2);
    dispatcher
        .contact_manifolds(&pos12, &*c1.shape.0, &*c2.shape.0, margin, &mut pc.manifolds, &mut pc.workspace)
        .map_err(|_| MechanicsError::UnsupportedPair {
            t,
            body1: c1.body,
            shape1: c1.index_in_body as usize,
            body2: c2.body,
            shape2: c2.index_in_body as usize,
        })?;
    let law = model.law(c1.group, c2.group).expect("filtered by the broad phase");
    for m in &pc.manifolds {
        if m.points.is_empty() {
            continue;
        }
        let sub1 = m.subshape_pos1().copied();
        let sub2 = m.subshape_pos2().copied();
        let w1: Pose = sub1.map_or(pose1, |s| pose1 * s);
        let w2: Pose = sub2.map_or(pose2, |s| pose2 * s);
        let n = from_pv(w1.rotation * m.local_n1);
        let nn = n.norm();
        if !(nn > 0.5 && nn.is_finite()) {
            continue; // degenerate manifold (should not happen)
        }
        let n = n / nn;
        let dup_tol2 = (1e-6 * margin).powi(2);
        for (ip, pt) in m.points.iter().enumerate() {
            if !(pt.dist < margin) {
                continue;
            }
            // Coincident faces give each corner twice (once per face): one constraint
            // twice makes W singular and slows NSGS down, so keep the first.
            if m.points[..ip].iter().any(|o| o.dist < margin && (o.local_p1 - pt.local_p1).length_squared() <= dup_tol2)
            {
                continue;
            }
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
                point1: from_pv(w1.transform_point(pt.local_p1)),
                point2: from_pv(w2.transform_point(pt.local_p2)),
                normal: n,
                gap: pt.dist,
                law,
                impulse: Vector3::zeros(),
                active: false,
                velocities: None,
            });
        }
    }
    // Pairs come sorted, so sorting each pair's few contacts sorts them all (stable; a
    // short slice is sorted in place, without allocating).
    out[first..].sort_by_key(|c| c.key);
    Ok(())
}
