//! The scene: bodies, their colliders, contact laws per pair of groups, gravity, margin
//! (the data of Siconos `mechanics`' `MechanicsHdf5Runner` input, built in Rust).

use crate::body::{BodyId, BodyKind, BodyState, ForceFn, Lifetime, MotionFn, RigidBody};
use crate::boundary::BoundaryCondition;
use crate::convert::{from_pv, to_pose};
use crate::error::{MechanicsError, Result};
use crate::joints::{Joint, JointId, JointType};
use crate::shape::{Collider, ShapeDesc};
use nalgebra::{Isometry3, Matrix3, Vector3};
use saltus_kernel::NonSmoothLaw;
use std::collections::HashMap;

/// Which velocities the impact and friction law holds on (Siconos's law classes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImpactLaw {
    /// Siconos `NewtonImpactFrictionNSL`: Newton's impact law on the normal velocity at the step's
    /// end, `u_N⁺ + e u_N⁻`, and Coulomb's law on the tangential velocity at the step's end `u_T⁺`.
    #[default]
    Newton,
    /// Siconos `FremondImpactFrictionNSL` (Frémond's impact law with Coulomb friction): the same
    /// normal condition, and Coulomb's law on the θ-velocity `u_T^θ = θ u_T⁺ + (1 − θ) u_T⁻` of the
    /// Moreau–Jean step. Each contact's work over a step, `((1 − θ) u⁻ + θ u⁺)·p`, is then ≤ 0
    /// (at θ = ½ the discrete energy balance only dissipates). Siconos writes the problem for
    /// `θ u^θ`; Saltus solves the same cone conditions on `u^θ/θ`, i.e. the Newton problem with
    /// `((1 − θ)/θ) u_T⁻` added to the tangential part of `q` (the conditions are positively homogeneous in `u`).
    Fremond,
}

/// An impact and friction law between two groups (Siconos `NewtonImpactFrictionNSL`, 3D, or with
/// `impact = Fremond` Siconos `FremondImpactFrictionNSL`):
/// normal restitution `en`, tangential restitution `et` (kept for the vocabulary; the 3D
/// Moreau–Jean step, like Siconos, does not use it), friction coefficient `μ`; with a rolling
/// coefficient `μ_r > 0`, Siconos `NewtonImpactRollingFrictionNSL`: the contact also resists
/// rolling with a torque `‖r_R‖ ≤ μ_r r_N` about the tangent axes (`crate::simulation`'s
/// rolling path, numerics `fc::rolling`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactLaw {
    /// Normal restitution `e ∈ [0, 1]`.
    pub en: f64,
    /// Tangential restitution (unused in 3D, as in Siconos).
    pub et: f64,
    /// Friction coefficient `μ ≥ 0`.
    pub mu: f64,
    /// Rolling friction coefficient `μ_r ≥ 0` (a length: the lever of the normal reaction that
    /// bounds the rolling torque; 0 = no rolling resistance).
    pub mu_r: f64,
    /// Newton's or Frémond's law.
    pub impact: ImpactLaw,
}

impl ContactLaw {
    /// Law with restitution `en`, `et = 0` and friction `mu`.
    pub fn new(en: f64, mu: f64) -> Self {
        ContactLaw { en, et: 0.0, mu, mu_r: 0.0, impact: ImpactLaw::Newton }
    }
    /// Frémond's law with restitution `en` and friction `mu` (Siconos
    /// `FremondImpactFrictionNSL(e, 0, μ, 3)`).
    pub fn fremond(en: f64, mu: f64) -> Self {
        ContactLaw { en, et: 0.0, mu, mu_r: 0.0, impact: ImpactLaw::Fremond }
    }
    /// The factor `c` of the tangential shift `c u_T⁻` added to `q` (see [`ImpactLaw::Fremond`]):
    /// `(1 − θ)/θ` for Frémond's law, 0 for Newton's.
    pub fn tangential_shift(&self, theta: f64) -> f64 {
        match self.impact {
            ImpactLaw::Newton => 0.0,
            ImpactLaw::Fremond => (1.0 - theta) / theta,
        }
    }
    /// Law with restitution `en`, friction `mu` and rolling friction `mu_r` (Siconos
    /// `NewtonImpactRollingFrictionNSL(e, 0, μ, μ_r, 5)`).
    pub fn rolling(en: f64, mu: f64, mu_r: f64) -> Self {
        ContactLaw { en, et: 0.0, mu, mu_r, impact: ImpactLaw::Newton }
    }
    /// The kernel's `NewtonImpactFriction` law of dimension 3.
    pub fn to_nslaw(&self) -> NonSmoothLaw {
        NonSmoothLaw::NewtonImpactFriction { en: self.en, et: self.et, mu: self.mu, dim: 3 }
    }
    fn validate(&self) -> std::result::Result<(), String> {
        if !(0.0..=1.0).contains(&self.en) {
            return Err(format!("restitution en must be in [0, 1], got {}", self.en));
        }
        if !(0.0..=1.0).contains(&self.et) {
            return Err(format!("restitution et must be in [0, 1], got {}", self.et));
        }
        if !(self.mu >= 0.0 && self.mu.is_finite()) {
            return Err(format!("friction coefficient must be finite and >= 0, got {}", self.mu));
        }
        if !(self.mu_r >= 0.0 && self.mu_r.is_finite()) {
            return Err(format!("rolling friction coefficient must be finite and >= 0, got {}", self.mu_r));
        }
        if self.impact == ImpactLaw::Fremond && self.et > 0.0 {
            return Err("a tangential restitution with Frémond's law (Siconos refuses it too)".into());
        }
        if self.impact == ImpactLaw::Fremond && self.mu_r > 0.0 {
            return Err("rolling friction with Frémond's law (Siconos has no such law)".into());
        }
        Ok(())
    }
}

/// How the mass properties of a new body are given.
#[derive(Debug, Clone, PartialEq)]
pub enum MassSpec {
    /// Mass and body-frame inertia about the centre of mass.
    Explicit {
        /// Mass `m > 0`.
        mass: f64,
        /// Symmetric positive definite inertia tensor.
        inertia: Matrix3<f64>,
    },
    /// Uniform density: mass and inertia from the shapes (their centre of mass must be the body
    /// origin).
    Density(f64),
}

/// Everything needed to add a body to a [`MechanicsModel`].
#[derive(Clone)]
pub struct BodyDesc {
    /// Name (unique).
    pub name: String,
    /// Dynamic, static or kinematic.
    pub kind: BodyKind,
    /// Initial state.
    pub state: BodyState,
    /// Shapes with their pose in the body frame.
    pub shapes: Vec<(ShapeDesc, Isometry3<f64>)>,
    /// Collision group of shape `k` where `shape_groups[k]` is `Some` (Siconos's per-contactor
    /// `collision_group`); the body's [`BodyDesc::group`] otherwise.
    pub shape_groups: Vec<Option<u32>>,
    /// Mass properties (dynamic bodies only).
    pub mass: Option<MassSpec>,
    /// Constant force, world frame.
    pub force: Vector3<f64>,
    /// Constant torque, body frame.
    pub torque: Vector3<f64>,
    /// Optional user force and torque.
    pub force_fn: Option<ForceFn>,
    /// Prescribed motion (kinematic bodies).
    pub motion: Option<MotionFn>,
    /// Prescribed velocity on some twist components (dynamic bodies).
    pub boundary: Option<BoundaryCondition>,
    /// Contact group.
    pub group: u32,
    /// When the body exists (default: always).
    pub lifetime: Lifetime,
}

impl BodyDesc {
    fn with_kind(name: &str, kind: BodyKind) -> Self {
        BodyDesc {
            name: name.into(),
            kind,
            state: BodyState::default(),
            shapes: Vec::new(),
            shape_groups: Vec::new(),
            mass: None,
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
            force_fn: None,
            motion: None,
            boundary: None,
            group: 0,
            lifetime: Lifetime::default(),
        }
    }
    /// A dynamic body (give its mass with [`BodyDesc::mass`] or [`BodyDesc::density`]).
    pub fn dynamic(name: &str) -> Self {
        Self::with_kind(name, BodyKind::Dynamic)
    }
    /// A static body.
    pub fn fixed(name: &str) -> Self {
        Self::with_kind(name, BodyKind::Static)
    }
    /// A kinematic body following `motion`.
    pub fn kinematic(name: &str, motion: MotionFn) -> Self {
        let mut d = Self::with_kind(name, BodyKind::Kinematic);
        d.motion = Some(motion);
        d
    }
    /// Adds a shape at `offset` in the body frame (in the body's collision group).
    pub fn shape(mut self, shape: ShapeDesc, offset: Isometry3<f64>) -> Self {
        self.shapes.push((shape, offset));
        self.shape_groups.resize(self.shapes.len(), None);
        self
    }
    /// Adds a shape at `offset` in the body frame in its own collision group `group` (Siconos
    /// `Contactor(..., collision_group=g)`): a body's shapes may sit in several groups, and the
    /// contact law of a pair of shapes is the law of their groups.
    pub fn shape_in_group(mut self, shape: ShapeDesc, offset: Isometry3<f64>, group: u32) -> Self {
        self.shapes.push((shape, offset));
        self.shape_groups.resize(self.shapes.len(), None);
        self.shape_groups[self.shapes.len() - 1] = Some(group);
        self
    }
    /// Adds a shape at the body origin.
    pub fn shape_at_origin(self, shape: ShapeDesc) -> Self {
        self.shape(shape, Isometry3::identity())
    }
    /// Explicit mass and body-frame inertia.
    pub fn mass(mut self, mass: f64, inertia: Matrix3<f64>) -> Self {
        self.mass = Some(MassSpec::Explicit { mass, inertia });
        self
    }
    /// Uniform density.
    pub fn density(mut self, rho: f64) -> Self {
        self.mass = Some(MassSpec::Density(rho));
        self
    }
    /// Initial state.
    pub fn state(mut self, state: BodyState) -> Self {
        self.state = state;
        self
    }
    /// Initial position.
    pub fn position(mut self, x: Vector3<f64>) -> Self {
        self.state.position = x;
        self
    }
    /// When the body exists: from `birth` to `death` (Siconos `time_of_birth`; use
    /// `f64::INFINITY` for a body never removed).
    pub fn lifetime(mut self, birth: f64, death: f64) -> Self {
        self.lifetime = Lifetime { birth, death };
        self
    }
    /// Contact group (laws are given per pair of groups).
    pub fn group(mut self, g: u32) -> Self {
        self.group = g;
        self
    }
}

/// A mechanical scene: bodies, colliders, contact laws, gravity, collision margin.
#[derive(Clone, Debug)]
pub struct MechanicsModel {
    /// The bodies, indexed by [`BodyId`].
    pub bodies: Vec<RigidBody>,
    /// All colliders, body after body (`bodies[b].collider_range()`).
    pub colliders: Vec<Collider>,
    /// Gravity acceleration (world frame), applied to dynamic bodies as `m g`.
    pub gravity: Vector3<f64>,
    /// Contacts closer than this become interactions (> 0).
    pub margin: f64,
    /// `laws[g1 * n_groups + g2]` (symmetric).
    laws: Vec<Option<ContactLaw>>,
    n_groups: usize,
    /// Joints, indexed by [`JointId`] (bound at the poses they were added at).
    joints: Vec<Joint>,
    /// Pairs of bodies linked by a joint (`(min, max)`, sorted): they do not collide.
    linked: Vec<(u32, u32)>,
    /// Stops on joint coordinates (`joints::limits`).
    pub(crate) joint_stops: Vec<crate::joints::JointStopR>,
    /// Friction on joint coordinates (`joints::limits`).
    pub(crate) joint_frictions: Vec<crate::joints::JointFrictionR>,
    /// Couplers of joint coordinates (`joints::coupler`).
    pub(crate) joint_couplers: Vec<crate::joints::CouplerJointR>,
    /// Body names → ids (bodies are only added through [`MechanicsModel::add_body`]): the
    /// duplicate check and [`MechanicsModel::body_by_name`] in O(1), so a scene of 100 000
    /// bodies builds in linear time.
    names: HashMap<String, BodyId>,
    /// `Some(true)` once a planar shape was added (a 2D scene, [`crate::planar`]), `Some(false)`
    /// once a 3D shape was: a scene is 2D or 3D as a whole.
    planar: Option<bool>,
    /// The user's contact modification ([`MechanicsModel::set_contact_hook`]).
    pub(crate) contact_hook: Option<crate::ContactHook>,
}

impl MechanicsModel {
    /// Empty scene with the given gravity and collision margin.
    pub fn new(gravity: Vector3<f64>, margin: f64) -> Result<Self> {
        if !(margin > 0.0 && margin.is_finite()) {
            return Err(MechanicsError::InvalidOption {
                option: "margin",
                reason: format!("must be > 0, got {margin}"),
            });
        }
        if gravity.iter().any(|g| !g.is_finite()) {
            return Err(MechanicsError::InvalidOption { option: "gravity", reason: "not finite".into() });
        }
        Ok(MechanicsModel {
            bodies: Vec::new(),
            colliders: Vec::new(),
            gravity,
            margin,
            laws: Vec::new(),
            n_groups: 0,
            joints: Vec::new(),
            linked: Vec::new(),
            joint_stops: Vec::new(),
            joint_frictions: Vec::new(),
            joint_couplers: Vec::new(),
            names: HashMap::new(),
            planar: None,
            contact_hook: None,
        })
    }

    /// The body `id`.
    pub fn body(&self, id: BodyId) -> &RigidBody {
        &self.bodies[id.index()]
    }
    /// The body `id`, mutable (state, loads).
    pub fn body_mut(&mut self, id: BodyId) -> &mut RigidBody {
        &mut self.bodies[id.index()]
    }
    /// The body called `name`.
    pub fn body_by_name(&self, name: &str) -> Option<BodyId> {
        self.names.get(name).copied()
    }
    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.bodies.len()
    }
    /// Sets (or with `None` removes) the prescribed velocity of some twist components of the
    /// dynamic body `id` (Siconos `setBoundaryConditions`: one condition per body, the last
    /// one set wins).
    pub fn set_boundary_condition(&mut self, id: BodyId, bc: Option<BoundaryCondition>) -> Result<()> {
        let b = self.bodies.get_mut(id.index()).ok_or_else(|| MechanicsError::InvalidModel {
            what: format!("body {}", id.0),
            reason: "no such body".into(),
        })?;
        let invalid = |reason: String| MechanicsError::InvalidModel { what: format!("body `{}`", b.name), reason };
        let Some(mut bc) = bc else {
            b.boundary = None;
            return Ok(());
        };
        if !b.is_dynamic() {
            return Err(invalid("only dynamic bodies take a boundary condition".into()));
        }
        bc.bind(b.mass, &b.inertia).map_err(|r| invalid(format!("boundary condition: {r}")))?;
        b.boundary = Some(bc);
        Ok(())
    }

    /// Sets the law between groups `g1` and `g2` (both orders). Pairs of groups without a law
    /// do not interact (as in Siconos mechanics).
    pub fn set_law(&mut self, g1: u32, g2: u32, law: ContactLaw) -> Result<()> {
        law.validate().map_err(|reason| MechanicsError::InvalidModel { what: format!("law ({g1}, {g2})"), reason })?;
        let need = g1.max(g2) as usize + 1;
        if need > self.n_groups {
            let mut t = vec![None; need * need];
            for a in 0..self.n_groups {
                for b in 0..self.n_groups {
                    t[a * need + b] = self.laws[a * self.n_groups + b];
                }
            }
            self.laws = t;
            self.n_groups = need;
        }
        let n = self.n_groups;
        self.laws[g1 as usize * n + g2 as usize] = Some(law);
        self.laws[g2 as usize * n + g1 as usize] = Some(law);
        Ok(())
    }
    /// `true` when a law has rolling friction (`μ_r > 0`): the step then solves the
    /// 5-dimensional rolling friction-contact problem for every active contact.
    pub fn has_rolling(&self) -> bool {
        self.laws.iter().flatten().any(|l| l.mu_r > 0.0)
    }
    /// Sets (or with `None` removes) the function that may change each contact's normal after
    /// the collision detection of every step ([`crate::ContactHookFn`]; 3D scenes).
    pub fn set_contact_hook(&mut self, hook: Option<crate::ContactHookFn>) {
        self.contact_hook = hook.map(crate::ContactHook);
    }
    /// `true` for a 2D scene (its shapes are planar, [`crate::planar`]).
    pub fn is_planar(&self) -> bool {
        self.planar == Some(true)
    }
    /// The law between groups `g1` and `g2`, if any.
    #[inline]
    pub fn law(&self, g1: u32, g2: u32) -> Option<ContactLaw> {
        let n = self.n_groups;
        let (a, b) = (g1 as usize, g2 as usize);
        if a < n && b < n {
            self.laws[a * n + b]
        } else {
            None
        }
    }

    /// Adds a body; checks names, shapes, mass properties and state.
    pub fn add_body(&mut self, d: BodyDesc) -> Result<BodyId> {
        let what = || format!("body `{}`", d.name);
        let invalid = |reason: String| MechanicsError::InvalidModel { what: what(), reason };
        if self.names.contains_key(&d.name) {
            return Err(invalid("a body of that name exists".into()));
        }
        if !d.state.is_finite() || !d.force.iter().chain(d.torque.iter()).all(|x| x.is_finite()) {
            return Err(invalid("non-finite initial state or load".into()));
        }
        let Lifetime { birth, death } = d.lifetime;
        if birth.is_nan() || death.is_nan() || birth >= death {
            return Err(invalid(format!("the time of birth ({birth}) must come before the time of death ({death})")));
        }
        let id = BodyId(self.bodies.len() as u32);
        let mut colliders = Vec::with_capacity(d.shapes.len());
        let mut planar = self.planar;
        for (k, (desc, offset)) in d.shapes.iter().enumerate() {
            if d.kind == BodyKind::Dynamic && desc.static_only() {
                return Err(invalid(format!("shape {k}: a {} can only be static or kinematic", desc.kind_name())));
            }
            if *planar.get_or_insert(desc.is_planar()) != desc.is_planar() {
                return Err(invalid(format!(
                    "shape {k}: a {} in a {} scene (a scene is 2D or 3D as a whole)",
                    desc.kind_name(),
                    if desc.is_planar() { "3D" } else { "2D" }
                )));
            }
            if desc.is_planar() && !crate::planar::is_planar_pose(offset) {
                return Err(invalid(format!("shape {k}: a planar shape's offset must stay in the plane z = 0")));
            }
            let (shape, inner) = desc.build().map_err(|r| invalid(format!("shape {k} ({}): {r}", desc.kind_name())))?;
            let shape2d = desc.build_2d().map_err(|r| invalid(format!("shape {k} ({}): {r}", desc.kind_name())))?;
            colliders.push(Collider {
                body: id,
                index_in_body: k as u32,
                desc: desc.clone(),
                offset: *offset,
                group: d.shape_groups.get(k).copied().flatten().unwrap_or(d.group),
                shape,
                shape2d,
                local_pose: offset * inner,
            });
        }
        let (mass, inertia) = match (d.kind, &d.mass) {
            (BodyKind::Dynamic, None) => return Err(invalid("a dynamic body needs a mass or a density".into())),
            (BodyKind::Dynamic, Some(MassSpec::Explicit { mass, inertia })) => (*mass, *inertia),
            (BodyKind::Dynamic, Some(MassSpec::Density(rho))) if planar == Some(true) => {
                crate::planar::mass_from_density(&colliders, *rho).map_err(invalid)?
            }
            (BodyKind::Dynamic, Some(MassSpec::Density(rho))) => {
                mass_from_density(&colliders, *rho).map_err(invalid)?
            }
            _ => (f64::INFINITY, Matrix3::zeros()),
        };
        let (inv_mass, inv_inertia, isotropic) = if d.kind == BodyKind::Dynamic {
            if !(mass > 0.0 && mass.is_finite()) {
                return Err(invalid(format!("mass must be finite and > 0, got {mass}")));
            }
            let sym = (inertia - inertia.transpose()).abs().max() <= 1e-12 * inertia.abs().max();
            let chol = nalgebra::Cholesky::new(inertia);
            let inv = match (sym, chol) {
                (true, Some(c)) => c.inverse(),
                _ => return Err(invalid("the inertia tensor must be symmetric positive definite".into())),
            };
            // Within 1e-12 of `i·1` (round-off of a computed tensor) the body is isotropic and
            // its gyroscopic term vanishes.
            let iso_i = Matrix3::from_diagonal_element(inertia.trace() / 3.0);
            let iso = (inertia - iso_i).abs().max() <= 1e-12 * iso_i[(0, 0)];
            (1.0 / mass, inv, iso)
        } else {
            if d.force_fn.is_some() {
                return Err(invalid("only dynamic bodies take forces".into()));
            }
            if d.boundary.is_some() {
                return Err(invalid("only dynamic bodies take a boundary condition".into()));
            }
            (0.0, Matrix3::zeros(), true)
        };
        if (d.kind == BodyKind::Kinematic) != d.motion.is_some() {
            return Err(invalid("kinematic bodies, and only they, need a prescribed motion".into()));
        }
        let mut boundary = d.boundary;
        if let Some(bc) = &mut boundary {
            bc.bind(mass, &inertia).map_err(|r| invalid(format!("boundary condition: {r}")))?;
        }
        let start = self.colliders.len();
        self.colliders.extend(colliders);
        let mut state = d.state;
        if let Some(m) = &d.motion {
            state = m(0.0);
            if !state.is_finite() {
                return Err(MechanicsError::NonFiniteUserValue { t: 0.0, what: "prescribed motion", body: id });
            }
        }
        if planar == Some(true) {
            crate::planar::check_body(&state, d.kind, &inertia).map_err(invalid)?;
        }
        self.planar = planar;
        self.names.insert(d.name.clone(), id);
        self.bodies.push(RigidBody {
            lifetime: d.lifetime,
            alive: true,
            name: d.name,
            kind: d.kind,
            state,
            force: d.force,
            torque: d.torque,
            force_fn: d.force_fn,
            control_force: None,
            motion: d.motion,
            boundary,
            group: d.group,
            mass,
            inertia,
            inv_mass,
            inv_inertia,
            isotropic,
            colliders: start..self.colliders.len(),
        });
        Ok(id)
    }

    /// Adds a joint between `body1` and `body2` (`None`: the world), given in the world frame
    /// at the bodies' current poses (see [`crate::joints`]). Checks the bodies (they exist,
    /// differ, one is dynamic), the name and the joint's points and axes. The two bodies no
    /// longer collide with each other.
    pub fn add_joint(&mut self, name: &str, body1: BodyId, body2: Option<BodyId>, kind: JointType) -> Result<JointId> {
        let invalid = |reason: String| MechanicsError::InvalidModel { what: format!("joint `{name}`"), reason };
        if self.joints.iter().any(|j| j.name == name) {
            return Err(invalid("a joint of that name exists".into()));
        }
        for b in std::iter::once(body1).chain(body2) {
            if b.index() >= self.bodies.len() {
                return Err(invalid(format!("no body {} (the model has {})", b.0, self.bodies.len())));
            }
        }
        if body2 == Some(body1) {
            return Err(invalid(format!("links body `{}` to itself", self.bodies[body1.index()].name)));
        }
        if !self.bodies[body1.index()].is_dynamic() && body2.is_none_or(|b| !self.bodies[b.index()].is_dynamic()) {
            return Err(invalid("at least one of the bodies must be dynamic".into()));
        }
        let mut joint = Joint { name: name.into(), body1, body2, kind };
        let world = BodyState::default();
        let a = self.bodies[body1.index()].state;
        let b = body2.map_or(world, |b| self.bodies[b.index()].state);
        joint.bind(&a, &b).map_err(|r| invalid(format!("{}: {r}", joint.kind.relation().type_name())))?;
        if let Some(b2) = body2 {
            let pair = (body1.0.min(b2.0), body1.0.max(b2.0));
            if let Err(i) = self.linked.binary_search(&pair) {
                self.linked.insert(i, pair);
            }
        }
        self.joints.push(joint);
        Ok(JointId(self.joints.len() as u32 - 1))
    }
    /// Lets the two bodies of `joint` collide with each other (Siconos
    /// `NewtonEulerJointR::setAllowSelfCollide(true)`): by default, bodies linked by a joint do
    /// not collide. A joint to the world changes nothing. Errors on an unknown joint.
    pub fn allow_self_collide(&mut self, joint: JointId) -> Result<()> {
        let j = self.joints.get(joint.0 as usize).ok_or_else(|| MechanicsError::InvalidModel {
            what: format!("joint {}", joint.0),
            reason: format!("no such joint (the model has {})", self.joints.len()),
        })?;
        if let Some(b2) = j.body2 {
            let pair = (j.body1.0.min(b2.0), j.body1.0.max(b2.0));
            if let Ok(i) = self.linked.binary_search(&pair) {
                self.linked.remove(i);
            }
        }
        Ok(())
    }
    /// Bodies `a` and `b` no longer collide with each other, as two bodies linked by a joint
    /// (Siconos: a `NewtonEulerJointR` between them, e.g. a `CouplerJointR`, without
    /// `allow_self_collide`). Errors on an unknown body or `a == b`.
    pub fn exclude_collision(&mut self, a: BodyId, b: BodyId) -> Result<()> {
        let n = self.bodies.len();
        if a.index() >= n || b.index() >= n || a == b {
            return Err(MechanicsError::InvalidModel {
                what: format!("collision exclusion of bodies {} and {}", a.0, b.0),
                reason: format!("give two different bodies of the model (it has {n})"),
            });
        }
        let pair = (a.0.min(b.0), a.0.max(b.0));
        if let Err(i) = self.linked.binary_search(&pair) {
            self.linked.insert(i, pair);
        }
        Ok(())
    }
    /// The joints.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }
    /// The joints, their couplers and stops and the bodies (mutable), for the projection.
    #[allow(clippy::type_complexity)]
    pub(crate) fn joints_and_bodies_mut(
        &mut self,
    ) -> (&[Joint], &[crate::joints::CouplerJointR], &[crate::joints::JointStopR], &mut [RigidBody]) {
        (&self.joints, &self.joint_couplers, &self.joint_stops, &mut self.bodies)
    }
    /// `true` if a joint links bodies `a` and `b` (they do not collide).
    #[inline]
    pub fn linked(&self, a: BodyId, b: BodyId) -> bool {
        !self.linked.is_empty() && self.linked.binary_search(&(a.0.min(b.0), a.0.max(b.0))).is_ok()
    }
    /// Gravitational potential energy `−Σ m g·x` of the dynamic bodies.
    pub fn potential_energy(&self) -> f64 {
        self.bodies.iter().filter(|b| b.is_dynamic()).map(|b| -b.mass * self.gravity.dot(&b.state.position)).sum()
    }

    /// Total kinetic energy of the dynamic bodies.
    pub fn kinetic_energy(&self) -> f64 {
        self.bodies.iter().map(|b| b.kinetic_energy()).sum()
    }
}

/// Mass and inertia about the body origin from uniform density; the centre of mass of the
/// shapes must be the body origin (to 1e-9 of the shapes' size).
fn mass_from_density(colliders: &[Collider], rho: f64) -> std::result::Result<(f64, Matrix3<f64>), String> {
    if !(rho > 0.0 && rho.is_finite()) {
        return Err(format!("density must be finite and > 0, got {rho}"));
    }
    if colliders.is_empty() {
        return Err("a body given by density needs at least one shape".into());
    }
    let mut total: Option<parry3d_f64::mass_properties::MassProperties> = None;
    let mut size = 0.0f64;
    for c in colliders {
        let p = to_pose(&c.local_pose.translation.vector, &c.local_pose.rotation);
        let mp = c.desc.mass_properties(rho).unwrap_or_else(|| c.shape.mass_properties(rho)).transform_by(&p);
        let aabb = c.shape.compute_aabb(&p);
        size = size.max(from_pv(aabb.maxs - aabb.mins).norm());
        total = Some(match total {
            None => mp,
            Some(t) => t + mp,
        });
    }
    let mp = total.expect("at least one collider");
    let com = from_pv(mp.local_com);
    if com.norm() > 1e-9 * size {
        return Err(format!(
            "the centre of mass of the shapes is at {com:?} in the body frame, not at its origin: offset the shapes by its opposite"
        ));
    }
    let i = mp.reconstruct_inertia_matrix();
    let inertia = Matrix3::new(
        i.x_axis.x, i.y_axis.x, i.z_axis.x, i.x_axis.y, i.y_axis.y, i.z_axis.y, i.x_axis.z, i.y_axis.z, i.z_axis.z,
    );
    Ok((mp.mass(), 0.5 * (inertia + inertia.transpose())))
}
