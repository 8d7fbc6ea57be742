//! Geometric queries on a scene at its current poses (Siconos
//! `SiconosCollisionManager::lineIntersectionQuery`, `inSphereQuery`, `inBoxQuery`): which
//! shapes a segment crosses, or a ball or a box overlaps, as one [`QueryHit`] per shape (a
//! body with several shapes can appear several times), sorted by distance.
//!
//! The shapes of every body of the next step take part (those that exist over `[t, t + h]`, as
//! the bodies a controller sees before the step), static ones included, whatever their
//! collision group: a query is geometry, not contact detection. A planar shape answers with its 3D outline (the
//! prism of [`ShapeDesc::build`](crate::ShapeDesc::build)). Ties in distance are broken by body
//! then shape number, so the order is the same on every run.

use crate::body::BodyId;
use crate::convert::{from_pv, to_pose, to_pv};
use crate::error::{MechanicsError, Result};
use crate::simulation::MechanicsSimulation;
use nalgebra::{Isometry3, Vector3};
use parry3d_f64::math::Pose;
use parry3d_f64::query::{intersection_test, Ray};
use parry3d_f64::shape::Cuboid;

/// The region a query looks in, in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QueryRegion {
    /// The segment `[start, end]` (a ray cast, Siconos `lineIntersectionQuery`): a shape is met
    /// where the segment enters it, `distance = |point − start|`, `0` if `start` is inside.
    Segment {
        /// First end.
        start: Vector3<f64>,
        /// Second end.
        end: Vector3<f64>,
    },
    /// The ball `|p − center| ≤ radius` (Siconos `inSphereQuery`): a shape is met when its
    /// distance to `center` is at most `radius`; `point` is its point nearest to `center`.
    Ball {
        /// Centre.
        center: Vector3<f64>,
        /// Radius (> 0).
        radius: f64,
    },
    /// The axis-aligned box `|p − center|ᵢ ≤ half_extentsᵢ` (Siconos `inBoxQuery`, whose
    /// `dimensions` are the full sides `2 half_extents`): a shape is met when it overlaps the
    /// box; `point` is its point nearest to `center`, `distance` their distance.
    Cuboid {
        /// Centre.
        center: Vector3<f64>,
        /// Half sides (> 0).
        half_extents: Vector3<f64>,
    },
}

/// One shape met by a query (Siconos `SiconosCollisionQueryResult`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueryHit {
    /// The body holding the shape (static bodies included).
    pub body: BodyId,
    /// The shape's number in its body (its contactor).
    pub shape: u32,
    /// The point of the shape that answers the query (see [`QueryRegion`]).
    pub point: Vector3<f64>,
    /// Its distance to the query's reference point (the segment's start, the centre).
    pub distance: f64,
}

impl QueryRegion {
    /// Checks the region's numbers: finite, a segment of non-zero length, positive sizes.
    fn check(&self) -> Result<()> {
        let bad = |reason: String| Err(MechanicsError::InvalidQuery { query: self.name(), reason });
        let finite = |v: &Vector3<f64>| v.iter().all(|x| x.is_finite());
        match self {
            QueryRegion::Segment { start, end } => {
                if !finite(start) || !finite(end) {
                    return bad(format!("the ends must be finite, got {start:?} and {end:?}"));
                }
                if start == end {
                    return bad("the two ends are the same point".into());
                }
            }
            QueryRegion::Ball { center, radius } => {
                if !(finite(center) && radius.is_finite() && *radius > 0.0) {
                    return bad(format!("the centre must be finite and the radius finite and > 0, got {radius}"));
                }
            }
            QueryRegion::Cuboid { center, half_extents } => {
                if !finite(center) || !half_extents.iter().all(|x| x.is_finite() && *x > 0.0) {
                    return bad(format!(
                        "the centre must be finite and the sides finite and > 0, got {half_extents:?}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The Siconos name of the query.
    pub fn name(&self) -> &'static str {
        match self {
            QueryRegion::Segment { .. } => "lineIntersectionQuery",
            QueryRegion::Ball { .. } => "inSphereQuery",
            QueryRegion::Cuboid { .. } => "inBoxQuery",
        }
    }

    /// The hit of the shape `shape` at `pose`, if the region meets it.
    fn meet(&self, shape: &dyn parry3d_f64::shape::Shape, pose: &Pose) -> Option<(Vector3<f64>, f64)> {
        match self {
            QueryRegion::Segment { start, end } => {
                let d = end - start;
                let len = d.norm();
                let ray = Ray::new(to_pv(start), to_pv(&(d / len)));
                let toi = shape.cast_ray(pose, &ray, len, true)?;
                Some((start + d * (toi / len), toi))
            }
            QueryRegion::Ball { center, radius } => {
                let p = from_pv(shape.project_point(pose, to_pv(center), true).point);
                let dist = (p - center).norm();
                (dist <= *radius).then_some((p, dist))
            }
            QueryRegion::Cuboid { center, half_extents } => {
                let box_pose = Pose::from_translation(to_pv(center));
                let cuboid = Cuboid::new(to_pv(half_extents));
                // a pair parry has no test for (none among Saltus's shapes) counts as a miss
                intersection_test(&box_pose, &cuboid, pose, shape).ok()?.intersecting.then(|| {
                    let p = from_pv(shape.project_point(pose, to_pv(center), true).point);
                    (p, (p - center).norm())
                })
            }
        }
    }
}

impl MechanicsSimulation {
    /// The shapes that `region` meets at the current poses, among the bodies of the next step,
    /// sorted by distance (then body, then shape); only the nearest when `closest_only`. An
    /// invalid region (non-finite numbers, a segment of zero length, a non-positive size) is an
    /// [`MechanicsError::InvalidQuery`].
    pub fn query(&self, region: &QueryRegion, closest_only: bool) -> Result<Vec<QueryHit>> {
        region.check()?;
        let (t, h, model) = (self.time(), self.step_size(), &self.model);
        let mut hits = Vec::new();
        for c in &model.colliders {
            let b = model.body(c.body);
            if !b.lifetime.contains(t, h) {
                continue;
            }
            let body_pose = Isometry3::from_parts(b.state.position.into(), b.state.orientation);
            let pose = body_pose * c.local_pose;
            let pp = to_pose(&pose.translation.vector, &pose.rotation);
            if let Some((point, distance)) = region.meet(&*c.shape.0, &pp) {
                hits.push(QueryHit { body: c.body, shape: c.index_in_body, point, distance });
            }
        }
        hits.sort_by(|a, b| a.distance.total_cmp(&b.distance).then(a.body.cmp(&b.body)).then(a.shape.cmp(&b.shape)));
        if closest_only {
            hits.truncate(1);
        }
        Ok(hits)
    }
}
