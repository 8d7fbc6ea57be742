//! Joint coordinates (Siconos `NewtonEulerJointR::computehDoF` / `computeJachqDoF`): the free
//! motions of a joint measured as scalars, on which stops ([`super::JointStopR`]) and friction
//! ([`super::JointFrictionR`]) act. Every coordinate is the motion of body 1 relative to body 2
//! (or the world), zero at assembly:
//!
//! * a rotation about the joint axis `a = R₁ α₁`: with reference vectors `u = R₁ c₁`,
//!   `w = R₂ c₂` (the same world vector `c ⟂ a` at assembly), `θ = atan2((w × u)·a, w·u)`,
//!   unwrapped continuously from step to step by the simulation ([`unwrap_near`]);
//! * a translation along the axis: `s = a·(x₁ + R₁ p₁ − x₂ − R₂ p₂)` with `p₁`, `p₂` the
//!   points of the axis that coincide at assembly.
//!
//! Each comes with its exact Jacobian in twist coordinates (`v` world, `Ω` body frame, as
//! [`super::rows`]), checked against finite differences away from the joint manifold in the
//! tests. On the manifold both reduce to the familiar `θ̇ = a·(ω₁ − ω₂)` and
//! `ṡ = a·(v₁ + ω₁ × R₁p₁ − v₂ − ω₂ × R₂p₂)`.

use crate::body::BodyState;
use nalgebra::{SVector, Vector3};

/// The kind of a joint coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DofKind {
    /// A translation (length).
    Translation,
    /// A rotation (angle in radians, unwrapped).
    Rotation,
}

/// A joint coordinate at one configuration: its value and the Jacobian row of each side
/// (`(∂ṡ/∂v, ∂ṡ/∂Ω)`; side 1 is body 1, side 2 body 2 or the world).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DofRow {
    /// The value (a rotation in `(−π, π]` before [`unwrap_near`]).
    pub value: f64,
    /// Jacobian of each side.
    pub j: [SVector<f64, 6>; 2],
}

fn twist_row(v: Vector3<f64>, om: Vector3<f64>) -> SVector<f64, 6> {
    SVector::<f64, 6>::from_iterator(v.iter().chain(om.iter()).copied())
}

/// Rotation of body 1 relative to body 2 about body 1's axis `α₁` (body-1 frame), measured
/// between the reference vectors `c₁` (body 1 frame) and `c₂` (body 2 frame).
///
/// With `s = (w × u)·a`, `c = w·u`, `θ = atan2(s, c)` and `u̇ = ω₁ × u`, `ẇ = ω₂ × w`,
/// `ȧ = ω₁ × a`: `θ̇ = (c ṡ − s ċ)/(s² + c²)`, `ṡ = ω₁·(u × (a × w) + a × (w × u)) +
/// ω₂·(w × (u × a))`, `ċ = ω₁·(u × w) + ω₂·(w × u)`.
pub fn rotation_about_axis(
    a: &BodyState,
    axis1: &Vector3<f64>,
    ref1: &Vector3<f64>,
    b: &BodyState,
    ref2: &Vector3<f64>,
) -> DofRow {
    let ax = a.orientation * axis1;
    let u = a.orientation * ref1;
    let w = b.orientation * ref2;
    let wu = w.cross(&u);
    let (s, c) = (wu.dot(&ax), w.dot(&u));
    let d = s * s + c * c;
    let ds1 = u.cross(&ax.cross(&w)) + ax.cross(&wu);
    let ds2 = w.cross(&u.cross(&ax));
    let om1 = (ds1 * c + wu * s) / d; // ċ₁ = ω₁·(u × w) = −ω₁·(w × u)
    let om2 = (ds2 * c - wu * s) / d;
    let z = Vector3::zeros();
    DofRow {
        value: s.atan2(c),
        j: [
            twist_row(z, a.orientation.inverse_transform_vector(&om1)),
            twist_row(z, b.orientation.inverse_transform_vector(&om2)),
        ],
    }
}

/// Translation of body 1 relative to body 2 along body 1's axis `α₁`:
/// `s = a·e`, `e = x₁ + R₁ p₁ − x₂ − R₂ p₂`, `a = R₁ α₁`;
/// `ṡ = a·v₁ + ω₁·(a × e + R₁p₁ × a) − a·v₂ − ω₂·(R₂p₂ × a)`.
pub fn translation_along_axis(
    a: &BodyState,
    p1: &Vector3<f64>,
    axis1: &Vector3<f64>,
    b: &BodyState,
    p2: &Vector3<f64>,
) -> DofRow {
    let ax = a.orientation * axis1;
    let (r1, r2) = (a.orientation * p1, b.orientation * p2);
    let e = a.position + r1 - b.position - r2;
    let om1 = ax.cross(&e) + r1.cross(&ax);
    let om2 = -r2.cross(&ax);
    DofRow {
        value: ax.dot(&e),
        j: [
            twist_row(ax, a.orientation.inverse_transform_vector(&om1)),
            twist_row(-ax, b.orientation.inverse_transform_vector(&om2)),
        ],
    }
}

/// The angle equal to `theta` modulo 2π nearest to `reference` (continuous unwrapping, exact
/// while an angle moves by less than π between two evaluations).
pub fn unwrap_near(theta: f64, reference: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    theta + tau * ((reference - theta) / tau).round()
}

/// A unit vector orthogonal to the unit vector `axis` (the reference direction of a rotation).
pub(crate) fn reference_vector(axis: &Vector3<f64>) -> Vector3<f64> {
    super::rows::orthonormal_pair(axis).0
}
