//! Rigid bodies in the `NewtonEulerDS` form of Siconos.
//!
//! State: position `x ∈ ℝ³` of the centre of mass, orientation `q ∈ S³` (unit quaternion, body →
//! world), and the twist `(v, Ω)` with **`v` the translational velocity in the world frame and `Ω`
//! the angular velocity in the body frame** (as Siconos `NewtonEulerDS`). Dynamics:
//!
//! `m v̇ = f_ext(t)` (world frame), `I Ω̇ = −Ω × I Ω + τ_ext(t)` (body frame),
//! `ẋ = v`, `q̇ = ½ q ⊗ (0, Ω)`,
//!
//! plus the contact impulses. The body frame's origin is the centre of mass and `I` is the
//! inertia tensor about it in the body frame.

use crate::boundary::BoundaryCondition;
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use std::sync::Arc;

/// Index of a body in a [`crate::MechanicsModel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyId(pub u32);

impl BodyId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// Integrated by Moreau–Jean under forces and contact impulses.
    Dynamic,
    /// Never moves (ground, walls, static meshes): infinite mass.
    Static,
    /// Moves with a prescribed motion `t ↦ (x, q, v, Ω)` (a shaker plate): infinite mass.
    Kinematic,
}

/// Position, orientation and twist of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyState {
    /// Centre of mass, world frame.
    pub position: Vector3<f64>,
    /// Orientation (maps body-frame vectors to the world frame).
    pub orientation: UnitQuaternion<f64>,
    /// Translational velocity, world frame.
    pub v: Vector3<f64>,
    /// Angular velocity, body frame.
    pub omega: Vector3<f64>,
}

impl Default for BodyState {
    fn default() -> Self {
        BodyState {
            position: Vector3::zeros(),
            orientation: UnitQuaternion::identity(),
            v: Vector3::zeros(),
            omega: Vector3::zeros(),
        }
    }
}

/// Length of [`BodyState::to_array`]: the Siconos `q` (7) and twist (6) of a Newton–Euler body.
pub const BODY_STATE_LEN: usize = 13;

impl BodyState {
    /// The 13 numbers of the state, in the order of the Siconos `q` and twist: position,
    /// quaternion `(w, x, y, z)`, velocity (world), angular velocity (body). The state a body's
    /// force function and a user event on a body read.
    pub fn to_array(&self) -> [f64; BODY_STATE_LEN] {
        let q = self.orientation.quaternion();
        let (p, v, w) = (&self.position, &self.v, &self.omega);
        [p.x, p.y, p.z, q.w, q.i, q.j, q.k, v.x, v.y, v.z, w.x, w.y, w.z]
    }
    /// The state of the 13 numbers of [`BodyState::to_array`], the quaternion normalised;
    /// `None` when `s` does not hold 13 finite numbers or the quaternion is zero.
    pub fn from_array(s: &[f64]) -> Option<BodyState> {
        if s.len() != BODY_STATE_LEN || !s.iter().all(|x| x.is_finite()) {
            return None;
        }
        let q = nalgebra::Quaternion::new(s[3], s[4], s[5], s[6]);
        let orientation = UnitQuaternion::try_new(q, f64::EPSILON)?;
        Some(BodyState {
            position: Vector3::new(s[0], s[1], s[2]),
            orientation,
            v: Vector3::new(s[7], s[8], s[9]),
            omega: Vector3::new(s[10], s[11], s[12]),
        })
    }
    /// `true` when every component is finite.
    pub fn is_finite(&self) -> bool {
        self.position.iter().chain(self.v.iter()).chain(self.omega.iter()).all(|x| x.is_finite())
            && self.orientation.coords.iter().all(|x| x.is_finite())
    }
    /// Velocity of the material point at world position `p`: `v + (R Ω) × (p − x)`.
    pub fn point_velocity(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.v + (self.orientation * self.omega).cross(&(p - self.position))
    }
}

/// User external force: `(t, state) ↦ (f, τ)` with `f` in the world frame and `τ` in the body
/// frame (Siconos `NewtonEulerDS`: `fExt` inertial, `mExt` body frame by default), added to the
/// constant force and torque of the body. An `Err` stops the step with its message. Moreau–Jean
/// evaluates it at `(t_k, state_k)` and at `t_{k+1}` on the predicted state `x_k + h v_k`,
/// `q_k ⊗ exp(h Ω_k)` with the twist `(v_k, Ω_k)` (Siconos's first Newton iterate).
pub type ForceFn = Arc<dyn Fn(f64, &BodyState) -> Result<(Vector3<f64>, Vector3<f64>), String> + Send + Sync>;

/// Prescribed motion of a kinematic body: `t ↦ (x, q, v, Ω)`, `v` world and `Ω` body frame
/// (the caller keeps `v = ẋ` and `q̇ = ½ q ⊗ Ω` consistent).
pub type MotionFn = Arc<dyn Fn(f64) -> BodyState + Send + Sync>;

/// A rigid body: kind, state, mass properties, loads and contact group.
#[derive(Clone)]
pub struct RigidBody {
    /// Name (unique in a model; used for output columns).
    pub name: String,
    /// When the body exists (Siconos `time_of_birth`; a removed body's death is the time of its
    /// removal). Outside it the body is frozen and collides with nothing.
    pub lifetime: Lifetime,
    /// The body exists during the current step ([`Lifetime::contains`] at its start).
    pub(crate) alive: bool,
    /// Dynamic, static or kinematic.
    pub kind: BodyKind,
    /// Current state.
    pub state: BodyState,
    /// Constant external force, world frame (gravity is added by the model).
    pub force: Vector3<f64>,
    /// Constant external torque, body frame.
    pub torque: Vector3<f64>,
    /// Optional user force and torque, added to the constant ones.
    pub force_fn: Option<ForceFn>,
    /// A controller's force, world frame, held over the steps until set again (Siconos's
    /// actuators' input on the body; `None`: no controller acts on it).
    pub control_force: Option<Vector3<f64>>,
    /// Prescribed motion (kinematic bodies only).
    pub motion: Option<MotionFn>,
    /// Prescribed velocity on some twist components (dynamic bodies only).
    pub(crate) boundary: Option<BoundaryCondition>,
    /// Contact group: laws are given per pair of groups.
    pub group: u32,
    pub(crate) mass: f64,
    pub(crate) inertia: Matrix3<f64>,
    pub(crate) inv_mass: f64,
    pub(crate) inv_inertia: Matrix3<f64>,
    /// `I = i·1`: the gyroscopic term vanishes.
    pub(crate) isotropic: bool,
    /// Colliders of the body: `colliders[range]` in the model.
    pub(crate) colliders: std::ops::Range<usize>,
}

/// The time span `[birth, death)` during which a body exists in a scene.
///
/// As Siconos's `MechanicsHdf5Runner`, which imports a birth and executes a death at the start of
/// the step whose end reaches it, a step `[t, t + h]` includes the body when
/// `birth ≤ t + h < death` (to `10⁻⁹ h`: times are decimal and `t + h` is rounded). Before its
/// birth a body waits at its initial state; after its death it stays where it was; in neither
/// does it move or collide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lifetime {
    /// Time of birth (`−∞`: present from the start).
    pub birth: f64,
    /// Time of death (`+∞`: never removed).
    pub death: f64,
}

impl Default for Lifetime {
    fn default() -> Self {
        Lifetime { birth: f64::NEG_INFINITY, death: f64::INFINITY }
    }
}

impl Lifetime {
    /// The body exists during the step `[t, t + h]`.
    pub fn contains(&self, t: f64, h: f64) -> bool {
        let end = t + h + 1e-9 * h;
        self.birth <= end && end < self.death
    }
    /// A finite birth or death: the scene's output says when the body exists.
    pub fn is_bounded(&self) -> bool {
        self.birth.is_finite() || self.death.is_finite()
    }
}

impl std::fmt::Debug for RigidBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RigidBody")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("state", &self.state)
            .field("mass", &self.mass)
            .field("inertia", &self.inertia)
            .field("group", &self.group)
            .finish_non_exhaustive()
    }
}

impl RigidBody {
    /// Mass `m` (infinite for static and kinematic bodies).
    pub fn mass(&self) -> f64 {
        self.mass
    }
    /// Body-frame inertia tensor about the centre of mass.
    pub fn inertia(&self) -> &Matrix3<f64> {
        &self.inertia
    }
    /// `1/m` (0 for static and kinematic bodies).
    pub fn inv_mass(&self) -> f64 {
        self.inv_mass
    }
    /// `I⁻¹` in the body frame (0 for static and kinematic bodies).
    pub fn inv_inertia(&self) -> &Matrix3<f64> {
        &self.inv_inertia
    }
    /// `true` for dynamic bodies.
    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }
    /// The prescribed velocity on some twist components, if any.
    pub fn boundary_condition(&self) -> Option<&BoundaryCondition> {
        self.boundary.as_ref()
    }
    /// `M⁻¹ Hᵀ` of one side of a contact (`ht`, `hr`: the 3×3 translational and rotational
    /// Jacobian blocks): `(htᵀ/m, I⁻¹ hrᵀ)`, or the reduced inverse `M⁺` of a body with a
    /// [`BoundaryCondition`] (no response along the prescribed components).
    pub(crate) fn inv_mass_jac(&self, ht: &Matrix3<f64>, hr: &Matrix3<f64>) -> (Matrix3<f64>, Matrix3<f64>) {
        match &self.boundary {
            None => (ht.transpose() * self.inv_mass, self.inv_inertia * hr.transpose()),
            Some(bc) => (Matrix3::from_diagonal(&bc.inv_mass_t) * ht.transpose(), bc.inv_inertia_r * hr.transpose()),
        }
    }
    /// `M⁺ (f, τ)`: `(f/m, I⁻¹ τ)`, or the reduced inverse of a body with a boundary condition.
    pub(crate) fn inv_mass_times(&self, f: &Vector3<f64>, tau: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
        match &self.boundary {
            None => (f * self.inv_mass, self.inv_inertia * tau),
            Some(bc) => (bc.inv_mass_t.component_mul(f), bc.inv_inertia_r * tau),
        }
    }
    /// Indices of the body's colliders in [`crate::MechanicsModel::colliders`].
    pub fn collider_range(&self) -> std::ops::Range<usize> {
        self.colliders.clone()
    }
    /// Kinetic energy `½ m |v|² + ½ Ωᵀ I Ω` (0 for non-dynamic bodies).
    pub fn kinetic_energy(&self) -> f64 {
        if !self.is_dynamic() {
            return 0.0;
        }
        let s = &self.state;
        0.5 * self.mass * s.v.norm_squared() + 0.5 * s.omega.dot(&(self.inertia * s.omega))
    }
    /// Linear momentum `m v` (world frame).
    pub fn linear_momentum(&self) -> Vector3<f64> {
        if self.is_dynamic() {
            self.state.v * self.mass
        } else {
            Vector3::zeros()
        }
    }
    /// Angular momentum about the world origin, world frame: `x × m v + R I Ω`.
    pub fn angular_momentum(&self) -> Vector3<f64> {
        if !self.is_dynamic() {
            return Vector3::zeros();
        }
        let s = &self.state;
        s.position.cross(&(s.v * self.mass)) + s.orientation * (self.inertia * s.omega)
    }
}
