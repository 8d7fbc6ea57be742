//! Rigid-body mechanics (`saltus-mechanics`) for Python: a scene builder ([`CoreMechanicsModel`])
//! and a running simulation ([`CoreMechanicsSimulation`], the runtime's [`MechRun`]) stepped by
//! the runtime's driver: `step` is one `step_once`, `run` is `drive` into numpy columns named as
//! the CSV of `saltus run` (`t`, `NAME.x`, …), with the GIL released. Only conversions here.

use crate::errors::{guard, ModelError, SaltusError, SimulationError};
use crate::mech_loads;
use nalgebra::{DMatrix, Isometry3, Matrix3, Quaternion, Translation3, UnitQuaternion, Vector2, Vector3};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltus_mechanics::body::BodyState;
use saltus_mechanics::joints::{CouplerJointR, DofKind, JointFrictionR, JointProjection, JointStopR};
use saltus_mechanics::shape::Primitive;
use saltus_mechanics::{
    nsgs, scenes, BodyDesc, ContactLaw, Formulation, ImpactLaw, JointId, JointType, MechanicsError, MechanicsModel,
    MechanicsSimulation, MechanicsStepReport, MoreauJeanOptions, ShapeDesc,
};
use saltus_numerics::gmp::GmpOptions;
use saltus_numerics::IterOptions;
use saltus_runtime::drive::{drive, on_pool, step_once, Discard, NoProgress, RunOptions, Sinks, Stopped, Summary};
use saltus_runtime::output::memory::ColumnTable;
use saltus_runtime::output::TargetError;
use saltus_runtime::run::mechanics::{MechRun, SceneSink};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A query's hit for Python: body index, shape number in the body, point, distance.
type HitRow = (usize, u32, [f64; 3], f64);

/// Model-building errors become `ModelError`, step errors `SimulationError`.
fn to_py(e: MechanicsError) -> PyErr {
    match e {
        MechanicsError::InvalidModel { .. } | MechanicsError::InvalidOption { .. } => {
            ModelError::new_err(e.to_string())
        }
        _ => SimulationError::new_err(e.to_string()),
    }
}

fn model_err(what: &str, reason: impl std::fmt::Display) -> PyErr {
    ModelError::new_err(format!("invalid {what}: {reason}"))
}

fn vec3(what: &str, v: &[f64]) -> PyResult<Vector3<f64>> {
    match v {
        [x, y, z] => Ok(Vector3::new(*x, *y, *z)),
        _ => Err(model_err(what, format!("expected 3 numbers, got {}", v.len()))),
    }
}

/// A unit quaternion from `(w, x, y, z)` (scalar first, as Siconos), normalised; zero or
/// non-finite is an error.
fn quat(what: &str, q: &[f64]) -> PyResult<UnitQuaternion<f64>> {
    match q {
        [w, x, y, z] => {
            let q = Quaternion::new(*w, *x, *y, *z);
            let n = q.norm();
            if !(n > 0.0 && n.is_finite()) {
                return Err(model_err(what, "the orientation quaternion must be finite and non-zero"));
            }
            Ok(UnitQuaternion::new_normalize(q))
        }
        _ => Err(model_err(what, format!("expected a quaternion (w, x, y, z), got {} numbers", q.len()))),
    }
}

/// A pose from 7 numbers `(x, y, z, qw, qx, qy, qz)`.
fn pose(what: &str, p: &[f64]) -> PyResult<Isometry3<f64>> {
    if p.len() != 7 {
        return Err(model_err(what, format!("a pose is (x, y, z, qw, qx, qy, qz), got {} numbers", p.len())));
    }
    Ok(Isometry3::from_parts(Translation3::from(vec3(what, &p[..3])?), quat(what, &p[3..])?))
}

/// The shape `kind` with its parameters: a registered primitive (`Primitive::DECLS`: its
/// element name in lower case, the numbers of its parameters in order), `convex_hull` (flat
/// points), `plane (nx, ny, nz)` (half-space `n·p ≤ 0`, outward normal `n`), `mesh (k, the 3k
/// vertex coordinates, the 3m vertex indices)` (a triangle mesh: static or kinematic bodies),
/// `heightmap (nx, ny, Lx, Ly, the nx·ny heights row by row)` (a height field `z = h(x, y)`:
/// static or kinematic bodies); `convex_polygon` (flat `(x, y)` points of a 2D scene).
fn shape(kind: &str, p: &[f64]) -> PyResult<ShapeDesc> {
    let n = |k: usize| {
        if p.len() == k {
            Ok(())
        } else {
            Err(model_err(&format!("{kind} shape"), format!("expected {k} parameters, got {}", p.len())))
        }
    };
    if let Some(d) = Primitive::DECLS.iter().find(|d| d.kind() == kind) {
        n(d.len())?;
        return Primitive::from_params(d.element, p)
            .map(ShapeDesc::Primitive)
            .ok_or_else(|| model_err(&format!("{kind} shape"), "no such primitive"));
    }
    Ok(match kind {
        "convex_hull" => {
            if !p.len().is_multiple_of(3) {
                return Err(model_err("convex_hull shape", "points must be given as (x, y, z) triples"));
            }
            ShapeDesc::ConvexHull { points: p.chunks(3).map(|c| Vector3::new(c[0], c[1], c[2])).collect() }
        }
        "convex_polygon" => {
            if !p.len().is_multiple_of(2) {
                return Err(model_err("convex_polygon shape", "points must be given as (x, y) pairs"));
            }
            ShapeDesc::ConvexPolygon { points: p.chunks(2).map(|c| Vector2::new(c[0], c[1])).collect() }
        }
        "plane" => {
            n(3)?;
            ShapeDesc::HalfSpace { normal: Vector3::new(p[0], p[1], p[2]) }
        }
        "mesh" => {
            let bad = || model_err("mesh shape", "expected (k, 3k coordinates, 3m vertex indices)");
            let k = p.first().filter(|k| k.fract() == 0.0 && **k >= 0.0).ok_or_else(bad)?;
            let k = *k as usize;
            let (coords, idx) = p[1..].split_at_checked(3 * k).ok_or_else(bad)?;
            if !idx.len().is_multiple_of(3) || idx.iter().any(|i| !(i.fract() == 0.0 && *i >= 0.0 && *i < k as f64)) {
                return Err(bad());
            }
            ShapeDesc::TriMesh {
                vertices: coords.chunks(3).map(|c| Vector3::new(c[0], c[1], c[2])).collect(),
                indices: idx.chunks(3).map(|c| [c[0] as u32, c[1] as u32, c[2] as u32]).collect(),
            }
        }
        "heightmap" => {
            let bad = || model_err("heightmap shape", "expected (nx, ny, Lx, Ly, the nx·ny heights row by row)");
            let (dims, h) = p.split_at_checked(4).ok_or_else(bad)?;
            let whole = |x: f64| x.fract() == 0.0 && x >= 2.0;
            if !whole(dims[0]) || !whole(dims[1]) || h.len() as f64 != dims[0] * dims[1] {
                return Err(bad());
            }
            ShapeDesc::HeightField {
                heights: DMatrix::from_row_slice(dims[0] as usize, dims[1] as usize, h),
                size: Vector2::new(dims[2], dims[3]),
            }
        }
        _ => {
            return Err(model_err(
                "shape",
                format!(
                    "unknown kind `{kind}` ({}, convex_hull, plane, mesh, heightmap; 2D: convex_polygon)",
                    Primitive::DECLS.iter().map(|d| d.kind()).collect::<Vec<_>>().join(", ")
                ),
            ))
        }
    })
}

/// A mechanical scene being built (bodies, laws, gravity, margin).
#[pyclass(module = "saltus._saltus")]
pub struct CoreMechanicsModel {
    model: Option<MechanicsModel>,
}

impl CoreMechanicsModel {
    fn model(&mut self) -> PyResult<&mut MechanicsModel> {
        self.model.as_mut().ok_or_else(|| SaltusError::new_err("the scene was moved into a simulation"))
    }
    /// The dynamic body called `name`.
    fn dynamic_body(&mut self, name: &str) -> PyResult<&mut saltus_mechanics::RigidBody> {
        let model = self.model()?;
        let id = model.body_by_name(name).ok_or_else(|| model_err("load", format!("no body `{name}`")))?;
        let b = model.body_mut(id);
        if !b.is_dynamic() {
            return Err(model_err(&format!("load of `{name}`"), "only dynamic bodies take forces"));
        }
        Ok(b)
    }
}

#[pymethods]
impl CoreMechanicsModel {
    #[new]
    fn new(gravity: Vec<f64>, margin: f64) -> PyResult<Self> {
        guard(|| {
            Ok(CoreMechanicsModel {
                model: Some(MechanicsModel::new(vec3("gravity", &gravity)?, margin).map_err(to_py)?),
            })
        })
    }

    /// Sets the contact law (restitution `e`, friction `mu`) between groups `g1` and `g2`.
    /// With `mu_r > 0` (rolling friction, Siconos `NewtonImpactRollingFrictionNSL`) the
    /// contact also resists rolling with a torque `‖r_R‖ ≤ μ_r r_N`. With `fremond` (Siconos
    /// `FremondImpactFrictionNSL`) Coulomb's law holds on the tangential θ-velocity.
    #[pyo3(signature = (g1, g2, e, mu, mu_r = 0.0, fremond = false))]
    fn set_law(&mut self, g1: u32, g2: u32, e: f64, mu: f64, mu_r: f64, fremond: bool) -> PyResult<()> {
        let law = ContactLaw {
            impact: if fremond { ImpactLaw::Fremond } else { ImpactLaw::Newton },
            ..ContactLaw::rolling(e, mu, mu_r)
        };
        guard(|| self.model()?.set_law(g1, g2, law).map_err(to_py))
    }

    /// Adds a body (a [`BodySpec`] dict); returns its index.
    fn add_body(&mut self, spec: BodySpec) -> PyResult<usize> {
        guard(|| Ok(self.model()?.add_body(body_desc(spec)?).map_err(to_py)?.index()))
    }

    /// Adds a joint (Siconos `add_joint`) between bodies `body1` and `body2` (`None`: the world)
    /// of the registered type `joint_class`; `point` and `axis` in the world frame at the
    /// initial poses, defaulting as in Siconos to `(0, 0, 0)` and `(0, 1, 0)` when the type takes
    /// them; `allow_self_collide`: the two bodies collide with each other (default: jointed
    /// bodies do not). Returns the joint's index.
    #[pyo3(signature = (name, body1, body2=None, joint_class="PivotJointR", point=None, axis=None, allow_self_collide=false))]
    #[allow(clippy::too_many_arguments)]
    fn add_joint(
        &mut self,
        name: &str,
        body1: &str,
        body2: Option<&str>,
        joint_class: &str,
        point: Option<Vec<f64>>,
        axis: Option<Vec<f64>>,
        allow_self_collide: bool,
    ) -> PyResult<usize> {
        guard(|| {
            let what = format!("joint `{name}`");
            let takes = JointType::data_of(joint_class).ok_or_else(|| {
                model_err(
                    &what,
                    format!("joint_class must be one of {}, got `{joint_class}`", JointType::NAMES.join(", ")),
                )
            })?;
            let data = |v: Option<Vec<f64>>, takes: bool, word: &str, default: Vector3<f64>| match (v, takes) {
                (None, true) => Ok(default),
                (None, false) => Ok(Vector3::zeros()),
                (Some(_), false) => Err(model_err(&what, format!("a {joint_class} takes no {word}"))),
                (Some(v), true) => vec3(&format!("{what}, {word}"), &v),
            };
            let p = data(point, takes.point, "point", Vector3::zeros())?;
            let a = data(axis, takes.axis, "axis", Vector3::y())?;
            let model = self.model()?;
            let id = |b: &str| model.body_by_name(b).ok_or_else(|| model_err(&what, format!("no body named `{b}`")));
            let (b1, b2) = (id(body1)?, body2.map(id).transpose()?);
            let kind = JointType::from_name(joint_class, p, a)
                .ok_or_else(|| model_err(&what, format!("unknown joint_class `{joint_class}`")))?;
            let id = model.add_joint(name, b1, b2, kind).map_err(to_py)?;
            if allow_self_collide {
                model.allow_self_collide(id).map_err(to_py)?;
            }
            Ok(id.0 as usize)
        })
    }

    /// Stops `lower ≤ s ≤ upper` on coordinate `dof` of joint `joint` (its index), with Newton
    /// impacts of restitution `e` (Siconos `JointStopR`); returns the stop's index.
    #[pyo3(signature = (joint, dof, lower=None, upper=None, e=0.0))]
    fn add_joint_stop(
        &mut self,
        joint: usize,
        dof: usize,
        lower: Option<f64>,
        upper: Option<f64>,
        e: f64,
    ) -> PyResult<usize> {
        guard(|| {
            let id = u32::try_from(joint).map_err(|_| model_err("joint stop", format!("no joint {joint}")))?;
            self.model()?.add_joint_stop(JointStopR::new(JointId(id), dof, lower, upper, e)).map_err(to_py)
        })
    }

    /// Coulomb friction bounded by `max` (force or torque) on coordinate `dof` of joint `joint`
    /// (its index; Siconos `JointFrictionR`); returns the friction's index.
    fn add_joint_friction(&mut self, joint: usize, dof: usize, max: f64) -> PyResult<usize> {
        guard(|| {
            let id = u32::try_from(joint).map_err(|_| model_err("joint friction", format!("no joint {joint}")))?;
            self.model()?.add_joint_friction(JointFrictionR::new(JointId(id), dof, max)).map_err(to_py)
        })
    }

    /// Couples coordinate `dof2` of joint `joint2` to coordinate `dof1` of joint `joint1`
    /// (their indices; the same joint for a screw), `θ₂ = ratio θ₁ + c` (Siconos
    /// `CouplerJointR`); the first bodies of the two joints no longer collide unless
    /// `allow_self_collide`. Returns the coupler's index.
    #[pyo3(signature = (joint1, dof1, joint2, dof2, ratio, allow_self_collide=false))]
    fn add_joint_coupler(
        &mut self,
        joint1: usize,
        dof1: usize,
        joint2: usize,
        dof2: usize,
        ratio: f64,
        allow_self_collide: bool,
    ) -> PyResult<usize> {
        guard(|| {
            let id = |j: usize| u32::try_from(j).map_err(|_| model_err("joint coupler", format!("no joint {j}")));
            let c = CouplerJointR::new(JointId(id(joint1)?), dof1, JointId(id(joint2)?), dof2, ratio);
            self.model()?.couple_joints(c, allow_self_collide).map_err(to_py)
        })
    }

    /// The contact hook: a Python callable `function(t, contact)` that may return a new normal
    /// for each contact of every step (`None` removes the hook; see
    /// [`mech_loads::python_contact_hook`]).
    #[pyo3(signature = (function=None))]
    fn set_contact_hook(&mut self, function: Option<Py<PyAny>>) -> PyResult<()> {
        guard(|| {
            self.model()?.set_contact_hook(function.map(mech_loads::python_contact_hook));
            Ok(())
        })
    }

    /// Bodies `body1` and `body2` no longer collide with each other (as two jointed bodies).
    fn exclude_collision(&mut self, body1: &str, body2: &str) -> PyResult<()> {
        guard(|| {
            let model = self.model()?;
            let id = |b: &str| {
                model.body_by_name(b).ok_or_else(|| model_err("collision exclusion", format!("no body named `{b}`")))
            };
            let (a, b) = (id(body1)?, id(body2)?);
            model.exclude_collision(a, b).map_err(to_py)
        })
    }

    /// Number of bodies.
    fn n_bodies(&mut self) -> PyResult<usize> {
        Ok(self.model()?.n_bodies())
    }

    /// Constant force (world frame, added to `m g`) and torque (body frame) of body `name`.
    fn set_external_force(&mut self, name: &str, force: Vec<f64>, torque: Vec<f64>) -> PyResult<()> {
        guard(|| {
            let what = format!("external force of `{name}`");
            let (f, t) = (vec3(&what, &force)?, vec3(&what, &torque)?);
            let b = self.dynamic_body(name)?;
            (b.force, b.torque) = (f, t);
            Ok(())
        })
    }

    /// The user force of body `name`: a Python callable `function(t, x)` (`x` the 13 numbers
    /// `x y z qw qx qy qz vx vy vz wx wy wz`, returning the force in the world frame and the
    /// torque in the body frame, 6 numbers), or the plugin function `symbol` of `library`
    /// (searched in `plugin_dirs`) with `params`.
    #[pyo3(signature = (name, function=None, library=None, symbol=None, params=Vec::new(), plugin_dirs=Vec::new()))]
    fn set_force_function(
        &mut self,
        name: &str,
        function: Option<Py<PyAny>>,
        library: Option<String>,
        symbol: Option<String>,
        params: Vec<f64>,
        plugin_dirs: Vec<PathBuf>,
    ) -> PyResult<()> {
        guard(|| {
            let f = match (function, library, symbol) {
                (Some(f), None, None) => mech_loads::python_force(f, name),
                (None, Some(l), Some(s)) => mech_loads::plugin_force(&l, &s, params, plugin_dirs, 0.0)?,
                _ => {
                    return Err(model_err(&format!("force of `{name}`"), "give a function, or a library and a symbol"))
                }
            };
            self.dynamic_body(name)?.force_fn = Some(f);
            Ok(())
        })
    }

    /// Prescribed velocity of the twist components `indices` of body `name` (Siconos
    /// `add_boundary_condition`: `bc_class` `FixedBC`, `BoundaryCondition` with `v`,
    /// `HarmonicBC` with `a + b cos(omega t + phi)`, or a callable `function(t) -> values`).
    #[pyo3(signature = (name, indices, bc_class="FixedBC", v=None, a=None, b=None, omega=None, phi=None, function=None))]
    #[allow(clippy::too_many_arguments)]
    fn set_boundary_condition(
        &mut self,
        name: &str,
        indices: Vec<usize>,
        bc_class: &str,
        v: Option<Vec<f64>>,
        a: Option<Vec<f64>>,
        b: Option<Vec<f64>>,
        omega: Option<Vec<f64>>,
        phi: Option<Vec<f64>>,
        function: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        guard(|| {
            let bc = mech_loads::boundary_condition(name, indices, bc_class, v, [a, b, omega, phi], function)?;
            let model = self.model()?;
            let id =
                model.body_by_name(name).ok_or_else(|| model_err("boundary condition", format!("no body `{name}`")))?;
            model.set_boundary_condition(id, Some(bc)).map_err(to_py)
        })
    }

    /// The simulation of this scene from `t0` with step `h` (the scene is moved into it): the
    /// contacts' NSGS and, with joints, the `GenericMechanical` block Gauss–Seidel both take
    /// `tol` and `max_iter`; `projection_tol` switches on the projection after each step (Siconos
    /// `TimeSteppingDirectProjection`) onto the joints with that tolerance and, with
    /// `projection_contacts` (default: the scene has no joints), onto the contacts (`g ≥ −tol`,
    /// or `−projection_tol_unilateral` when given), at most `projection_max_iter` Gauss–Newton
    /// iterations (default 10);
    /// `activation_threshold` is Siconos's `constraint_activation_threshold` `s` (a length): a
    /// contact enters the step's problem when `g + h/2 u_N ≤ s` (below the default `δ`, 1e-6 of
    /// the margin, the default stays). `global_solver` (a name of numerics' global catalogue,
    /// `gfc3d-nsgs`, ...) selects the global formulation (Siconos `MoreauJeanGOSI` +
    /// `GlobalFrictionContact`) solved by it with `tol` and `max_iter`; `None`: the local one.
    /// `activation_velocity` (Siconos `activate_with_negative_relative_velocity` with
    /// `constraint_activation_threshold_velocity`): a contact also needs `u_N ≤` it to enter.
    #[pyo3(signature = (h, t0=0.0, theta=0.5, tol=1e-6, max_iter=1000, projection_tol=None, activation_threshold=None,
                        global_solver=None, projection_contacts=None, projection_tol_unilateral=None,
                        projection_max_iter=None, activation_velocity=None))]
    #[allow(clippy::too_many_arguments)]
    fn simulation(
        &mut self,
        h: f64,
        t0: f64,
        theta: f64,
        tol: f64,
        max_iter: usize,
        projection_tol: Option<f64>,
        activation_threshold: Option<f64>,
        global_solver: Option<String>,
        projection_contacts: Option<bool>,
        projection_tol_unilateral: Option<f64>,
        projection_max_iter: Option<usize>,
        activation_velocity: Option<f64>,
    ) -> PyResult<CoreMechanicsSimulation> {
        guard(|| {
            if tol.is_nan() || tol <= 0.0 || max_iter == 0 {
                return Err(model_err(
                    "solver options",
                    format!("tol must be > 0 and max_iter > 0, got {tol}, {max_iter}"),
                ));
            }
            let margin = self
                .model
                .as_ref()
                .ok_or_else(|| SaltusError::new_err("the scene was moved into a simulation"))?
                .margin;
            let defaults = MoreauJeanOptions::default();
            let activation_tol = match activation_threshold {
                None => defaults.activation_tol,
                Some(s) if s >= 0.0 && s < margin => (s / margin).max(defaults.activation_tol),
                Some(s) => {
                    return Err(model_err(
                        "activation",
                        format!("activation_threshold must be in [0, margin = {}), got {s}", margin),
                    ))
                }
            };
            let formulation = match global_solver.as_deref() {
                None => Formulation::Local,
                Some(name) => Formulation::global_by_name(name, tol, max_iter).ok_or_else(|| {
                    let names: Vec<&str> = saltus_numerics::fc::GFC_SOLVERS.iter().map(|e| e.0).collect();
                    model_err("global_solver", format!("unknown global solver `{name}` (known: {})", names.join(", ")))
                })?,
            };
            let model =
                self.model.take().ok_or_else(|| SaltusError::new_err("the scene was moved into a simulation"))?;
            let joint_projection = match projection_tol {
                None => JointProjection { enabled: false, ..Default::default() },
                Some(t) if t > 0.0 && t.is_finite() => {
                    let contacts = projection_contacts.unwrap_or(model.joints().is_empty());
                    let mut p = JointProjection { tol: t, contacts, contact_tol: t, ..Default::default() };
                    if let Some(u) = projection_tol_unilateral {
                        p.contact_tol = u;
                    }
                    if let Some(n) = projection_max_iter {
                        p.max_iter = n;
                    }
                    p.validate().map_err(to_py)?;
                    p
                }
                Some(t) => {
                    return Err(model_err("projection", format!("projection_tol must be finite and > 0, got {t}")))
                }
            };
            let opts = MoreauJeanOptions {
                theta,
                activation_tol,
                activation_velocity,
                solver: nsgs(tol, max_iter),
                joint_solver: GmpOptions::with_iter(IterOptions::new(tol, max_iter)),
                joint_projection,
                formulation,
                ..defaults
            };
            let sim = MechanicsSimulation::new(model, t0, h, opts).map_err(to_py)?;
            Ok(CoreMechanicsSimulation { run: MechRun::new(sim, t0, h, u64::MAX) })
        })
    }
}

/// A shape of a body from Python: `(kind, parameters, pose, group)`.
type ShapeSpec = (String, Vec<f64>, Vec<f64>, Option<u32>);

/// A body from Python (a dict): `kind` `dynamic` or `static`; `shapes` a list of
/// `(kind, parameters, pose, group)` (`group` the shape's collision group, `None`: the body's); `inertia` 3 (diagonal) or 9 (row-major) numbers; `birth`,
/// `death` its lifetime.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct BodySpec {
    name: String,
    kind: String,
    shapes: Vec<ShapeSpec>,
    position: Vec<f64>,
    orientation: Vec<f64>,
    velocity: Vec<f64>,
    angular_velocity: Vec<f64>,
    group: u32,
    mass: Option<f64>,
    inertia: Option<Vec<f64>>,
    density: Option<f64>,
    birth: Option<f64>,
    death: Option<f64>,
}

/// The body description of `add_body` (scene or running simulation).
fn body_desc(a: BodySpec) -> PyResult<BodyDesc> {
    let what = format!("body `{}`", a.name);
    let mut d = match a.kind.as_str() {
        "dynamic" => BodyDesc::dynamic(&a.name),
        "static" => BodyDesc::fixed(&a.name),
        k => return Err(model_err(&what, format!("kind must be `dynamic` or `static`, got `{k}`"))),
    };
    for (k, (sk, p, at, g)) in a.shapes.iter().enumerate() {
        let (s, at) = (shape(sk, p)?, pose(&format!("{what}, shape {k}"), at)?);
        d = match g {
            Some(g) => d.shape_in_group(s, at, *g),
            None => d.shape(s, at),
        };
    }
    d.state = BodyState {
        position: vec3(&what, &a.position)?,
        orientation: quat(&what, &a.orientation)?,
        v: vec3(&what, &a.velocity)?,
        omega: vec3(&what, &a.angular_velocity)?,
    };
    d = d.group(a.group).lifetime(a.birth.unwrap_or(f64::NEG_INFINITY), a.death.unwrap_or(f64::INFINITY));
    match (a.mass, a.inertia, a.density) {
        (Some(m), Some(i), None) => {
            let i = match i.len() {
                3 => Matrix3::from_diagonal(&Vector3::new(i[0], i[1], i[2])),
                9 => Matrix3::from_row_slice(&i),
                n => return Err(model_err(&what, format!("inertia takes 3 or 9 numbers, got {n}"))),
            };
            d = d.mass(m, i);
        }
        (None, None, Some(rho)) => d = d.density(rho),
        (None, None, None) => {}
        _ => return Err(model_err(&what, "give either mass and inertia, or density")),
    }
    Ok(d)
}

/// A running rigid-body simulation.
#[pyclass(module = "saltus._saltus")]
pub struct CoreMechanicsSimulation {
    run: MechRun,
}

/// A stopped run as a Python exception: a failed step is the mechanics error's.
fn stopped(e: Stopped) -> PyErr {
    match e {
        Stopped::Mechanics(e) => to_py(*e),
        other => SimulationError::new_err(other.to_string()),
    }
}

/// Per-step counters of a `run` (`t`, contacts, active contacts, solver iterations, residual,
/// converged), recorded as the run's scene sink.
#[derive(Clone, Default)]
struct StepLog(Arc<Mutex<[Vec<f64>; 6]>>);

impl SceneSink for StepLog {
    fn record(&mut self, _: &MechanicsSimulation, r: &MechanicsStepReport) -> Result<(), TargetError> {
        let (it, resid, conv) = r
            .solver
            .as_ref()
            .map_or((0.0, 0.0, 1.0), |s| (s.iterations as f64, s.residual, f64::from(u8::from(s.status.converged()))));
        let mut log = self.0.lock().unwrap_or_else(|p| p.into_inner());
        for (v, x) in log.iter_mut().zip([r.t, r.n_contacts as f64, r.n_active as f64, it, resid, conv]) {
            v.push(x);
        }
        Ok(())
    }
    fn finish(&mut self) -> Result<(), TargetError> {
        Ok(())
    }
}

fn report_dict<'py>(
    py: Python<'py>,
    r: &MechanicsStepReport,
    sim: &MechanicsSimulation,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("t", r.t)?;
    d.set_item("contacts", r.n_contacts)?;
    d.set_item("active", r.n_active)?;
    d.set_item("pairs", r.n_pairs)?;
    let (it, res, st) = match &r.solver {
        Some(s) => (s.iterations, s.residual, s.status.as_str()),
        None => (0, 0.0, "no contact"),
    };
    d.set_item("iterations", it)?;
    d.set_item("residual", res)?;
    d.set_item("status", st)?;
    if let Some(p) = &r.projection {
        d.set_item("projection_iterations", p.iterations)?;
        d.set_item("projection_converged", p.converged)?;
        d.set_item("projection_violation", p.violation.max(p.contact_violation))?;
    }
    let c = sim.contacts();
    let flat = |f: &dyn Fn(&saltus_mechanics::ContactPoint) -> Vec<f64>| -> Vec<f64> { c.iter().flat_map(f).collect() };
    let n = c.len();
    let arr2 = |v: Vec<f64>, k: usize| PyArray1::from_vec(py, v).reshape([n, k]);
    d.set_item("bodies", arr2(c.iter().flat_map(|p| [p.body1.index() as f64, p.body2.index() as f64]).collect(), 2)?)?;
    d.set_item("impulse", arr2(flat(&|p| p.impulse.as_slice().to_vec()), 3)?)?;
    d.set_item("normal", arr2(flat(&|p| p.normal.as_slice().to_vec()), 3)?)?;
    d.set_item("gap", PyArray1::from_vec(py, c.iter().map(|p| p.gap).collect()))?;
    d.set_item("mu", PyArray1::from_vec(py, c.iter().map(|p| p.law.mu).collect()))?;
    d.set_item("e", PyArray1::from_vec(py, c.iter().map(|p| p.law.en).collect()))?;
    d.set_item("contact_active", PyArray1::from_vec(py, c.iter().map(|p| p.active).collect()))?;
    // the relative velocities of the active contacts at the step's start and end (NaN otherwise)
    for (key, end) in [("velocity_start", 0), ("velocity_end", 1)] {
        let u = |p: &saltus_mechanics::ContactPoint| p.velocities.map_or([f64::NAN; 3], |v| v[end].into());
        d.set_item(key, arr2(c.iter().flat_map(u).collect(), 3)?)?;
    }
    d.set_item("energy", PyArray1::from_vec(py, r.energy.to_array().to_vec()))?;
    Ok(d)
}

impl CoreMechanicsSimulation {
    /// Joint `joint` with the body states of the poses `q1`, `q2` (`x y z qw qx qy qz`; `q2`
    /// absent for a joint to the world).
    fn joint_at(
        &self,
        joint: usize,
        q1: &[f64],
        q2: Option<&[f64]>,
    ) -> PyResult<(&saltus_mechanics::joints::Joint, BodyState, BodyState)> {
        let what = format!("joint {joint}");
        let j = self.run.sim.model.joints().get(joint).ok_or_else(|| model_err(&what, "no such joint"))?;
        let state = |q: &[f64]| -> PyResult<BodyState> {
            if q.len() != 7 || q.iter().any(|x| !x.is_finite()) {
                return Err(model_err(&what, format!("a pose is 7 finite numbers (x y z qw qx qy qz), got {q:?}")));
            }
            let o = UnitQuaternion::from_quaternion(Quaternion::new(q[3], q[4], q[5], q[6]));
            Ok(BodyState { position: Vector3::new(q[0], q[1], q[2]), orientation: o, ..Default::default() })
        };
        let a = state(q1)?;
        let b = match (q2, j.body2) {
            (Some(q), Some(_)) => state(q)?,
            (None, None) => BodyState::default(),
            _ => return Err(model_err(&what, "give the pose of each body of the joint (none for the world)")),
        };
        Ok((j, a, b))
    }
}

#[pymethods]
impl CoreMechanicsSimulation {
    /// Current time.
    #[getter]
    fn t(&self) -> f64 {
        self.run.sim.time()
    }
    /// Time step.
    #[getter]
    fn h(&self) -> f64 {
        self.run.sim.step_size()
    }
    /// Number of bodies.
    #[getter]
    fn n_bodies(&self) -> usize {
        self.run.sim.model.n_bodies()
    }
    /// Body names, by index.
    fn body_names(&self) -> Vec<String> {
        self.run.sim.model.bodies.iter().map(|b| b.name.clone()).collect()
    }
    /// Masses (inf for static bodies).
    fn masses<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.run.sim.model.bodies.iter().map(|b| b.mass()).collect())
    }
    /// Sets the constant force (world frame, added to `m g`) and torque (body frame) of the
    /// dynamic body `i` from the next step on (Siconos `setFExtPtr`/`setMExtPtr` between steps).
    fn set_external_force(&mut self, i: usize, force: Vec<f64>, torque: Vec<f64>) -> PyResult<()> {
        guard(|| {
            let what = format!("external force of body {i}");
            let (f, t) = (vec3(&what, &force)?, vec3(&what, &torque)?);
            if f.iter().chain(t.iter()).any(|x| !x.is_finite()) {
                return Err(model_err(&what, "not finite"));
            }
            let b = self.run.sim.model.bodies.get_mut(i).ok_or_else(|| SaltusError::new_err(format!("no body {i}")))?;
            if !b.is_dynamic() {
                return Err(model_err(&what, "only dynamic bodies take forces"));
            }
            (b.force, b.torque) = (f, t);
            Ok(())
        })
    }
    /// Adds a user event on body `i` (`events-accuracy-projection.md` §3–4, as `<Events>`): the
    /// trigger `g(t, s)` of the body's 13 numbers `s = (x y z, qw qx qy qz, vx vy vz, wx wy wz)`,
    /// linear (`a`, 13 coefficients, and `b`) or a Python callable `function(t, s) -> float`;
    /// `direction` `"rising"`, `"falling"` or `"both"`; `action` `"record"`, `"stop"` or `"reset"`
    /// with `reset(t, s) -> s⁺` (13 numbers; dynamic bodies only). Located on each step's linear
    /// interpolant; a reset acts at the end of the step.
    #[pyo3(signature = (name, i, a=None, b=0.0, function=None, direction="both", action="record", reset=None, window=None))]
    #[allow(clippy::too_many_arguments)]
    fn add_event(
        &mut self,
        name: String,
        i: usize,
        a: Option<Vec<f64>>,
        b: f64,
        function: Option<Py<PyAny>>,
        direction: &str,
        action: &str,
        reset: Option<Py<PyAny>>,
        window: Option<f64>,
    ) -> PyResult<()> {
        use saltus_kernel::model::event::{RootDirection, RootKind};
        use saltus_kernel::{DsId, EventAction, EventFunction, UserEvent};
        guard(|| {
            let what = format!("event `{name}`");
            let body = self.run.sim.model.bodies.get(i).ok_or_else(|| SaltusError::new_err(format!("no body {i}")))?;
            let raised = crate::host::Raised::default();
            let function = match (a, function) {
                (Some(a), None) => EventFunction::Linear { a: nalgebra::DVector::from_vec(a), b },
                (None, Some(f)) => EventFunction::Function(crate::host::state_vec_fn(f, name.clone(), raised.clone())),
                _ => return Err(model_err(&what, "give the linear trigger `a` (and `b`) or a `function`, not both")),
            };
            let direction = match direction {
                "rising" => RootDirection::Rising,
                "falling" => RootDirection::Falling,
                "both" => RootDirection::Both,
                d => return Err(model_err(&what, format!("direction `{d}`: rising, falling or both"))),
            };
            let action = match (action, reset) {
                ("record", None) => EventAction::Record,
                ("stop", None) => EventAction::Stop,
                ("reset", Some(r)) if body.is_dynamic() => {
                    EventAction::Reset(crate::host::state_vec_fn(r, format!("reset of {name}"), raised))
                }
                ("reset", Some(_)) => {
                    return Err(model_err(&what, format!("a reset acts on a dynamic body; `{}` is not", body.name)))
                }
                ("reset", None) => return Err(model_err(&what, "action=\"reset\" needs a `reset` function")),
                (a, _) => return Err(model_err(&what, format!("action `{a}` (record, stop; reset with a `reset`)"))),
            };
            let kind = RootKind { direction, discrete_zero: false, window };
            let ev = UserEvent { name, ds: DsId(i as u32), function, kind, action };
            self.run.add_events(vec![ev]).map_err(|e| model_err(&what, e.to_string()))
        })
    }
    /// The user events found by the last `step`, in time order: one dict per located window,
    /// `{"t", "t_low", "events": [names], "stop", "reset"}`.
    fn user_events<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let names: Vec<&str> = self.run.events().iter().map(|e| e.name.as_str()).collect();
        crate::sim::hit_dicts(py, self.run.hits(), &names)
    }
    /// Keeps each step's friction-contact problem, warm start and solution (for dumps).
    fn set_capture_problem(&mut self, on: bool) {
        self.run.sim.set_capture_problem(on);
    }
    /// The last step's friction-contact problem (`None` without one): see `captured_dict`.
    fn captured<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.run.sim.captured().map(|c| crate::capture_py::captured_dict(py, c)).transpose()
    }
    /// Adds a body (a [`BodySpec`] dict) between steps: it exists from now on; returns its index.
    fn add_body(&mut self, spec: BodySpec) -> PyResult<usize> {
        guard(|| Ok(self.run.sim.add_body(body_desc(spec)?).map_err(to_py)?.index()))
    }
    /// Removes body `i` from the next step on (its time of death becomes now).
    fn remove_body(&mut self, i: usize) -> PyResult<()> {
        if i >= self.run.sim.model.bodies.len() {
            return Err(SaltusError::new_err(format!("no body {i}")));
        }
        self.run.sim.remove_body(saltus_mechanics::BodyId(i as u32)).map_err(to_py)
    }
    /// The shapes a region meets among the bodies of the next step (`MechanicsSimulation::query`):
    /// `kind` `"segment"` (`a` start, `b` end), `"ball"` (`a` centre, `b = [radius]`) or `"box"`
    /// (`a` centre, `b` half sides); rows `(body, shape, point, distance)` nearest first.
    #[pyo3(signature = (kind, a, b, closest_only=false))]
    fn query(&self, kind: &str, a: Vec<f64>, b: Vec<f64>, closest_only: bool) -> PyResult<Vec<HitRow>> {
        use saltus_mechanics::QueryRegion;
        let a3 = vec3(kind, &a)?;
        let region = match (kind, b.as_slice()) {
            ("segment", _) => QueryRegion::Segment { start: a3, end: vec3(kind, &b)? },
            ("ball", [r]) => QueryRegion::Ball { center: a3, radius: *r },
            ("box", _) => QueryRegion::Cuboid { center: a3, half_extents: vec3(kind, &b)? },
            ("ball", _) => return Err(PyValueError::new_err("a ball query takes one radius")),
            _ => return Err(PyValueError::new_err(format!("no query `{kind}` (segment, ball, box)"))),
        };
        let hits = self.run.sim.query(&region, closest_only).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(hits.iter().map(|h| (h.body.index(), h.shape, [h.point.x, h.point.y, h.point.z], h.distance)).collect())
    }
    /// Total kinetic energy.
    fn kinetic_energy(&self) -> f64 {
        self.run.sim.model.kinetic_energy()
    }
    /// The kinds of the coordinates of joint `joint` (`"translation"`, `"rotation"`).
    fn joint_dof_kinds(&self, joint: usize) -> PyResult<Vec<&'static str>> {
        let j = self
            .run
            .sim
            .model
            .joints()
            .get(joint)
            .ok_or_else(|| model_err(&format!("joint {joint}"), "no such joint"))?;
        Ok(j.kind
            .relation()
            .dofs()
            .iter()
            .map(|k| if *k == DofKind::Translation { "translation" } else { "rotation" })
            .collect())
    }
    /// Coordinate `dof` of joint `joint` (body 1 relative to body 2, principal value for an
    /// angle) at the poses `q1`, `q2` (`x y z qw qx qy qz`, Siconos's `q`; `q2` absent for a
    /// joint to the world), and its gradient with respect to body 1's motion as a world vector:
    /// the axis along which (translation) or about which (rotation, `R₁ ∂s/∂Ω₁`) body 1 moves
    /// the coordinate (Siconos `normalDoF`).
    #[pyo3(signature = (joint, dof, q1, q2=None))]
    fn joint_dof(&self, joint: usize, dof: usize, q1: Vec<f64>, q2: Option<Vec<f64>>) -> PyResult<(f64, [f64; 3])> {
        let what = format!("joint {joint}");
        let (j, a, b) = self.joint_at(joint, &q1, q2.as_deref())?;
        let kind = j.kind.relation().dofs().get(dof).copied();
        let (Some(kind), Some(r)) = (kind, j.dof(dof, &a, &b)) else {
            return Err(model_err(&what, format!("no coordinate {dof}")));
        };
        let n = match kind {
            DofKind::Translation => Vector3::new(r.j[0][0], r.j[0][1], r.j[0][2]),
            DofKind::Rotation => a.orientation * Vector3::new(r.j[0][3], r.j[0][4], r.j[0][5]),
        };
        Ok((r.value, [n.x, n.y, n.z]))
    }
    /// The constraint values `h(q)` of joint `joint` at the poses `q1`, `q2` (zero when the
    /// joint holds: point rows in length, orientation rows as sines; Siconos `computeh`).
    #[pyo3(signature = (joint, q1, q2=None))]
    fn joint_h(&self, joint: usize, q1: Vec<f64>, q2: Option<Vec<f64>>) -> PyResult<Vec<f64>> {
        let (j, a, b) = self.joint_at(joint, &q1, q2.as_deref())?;
        let mut rows = saltus_mechanics::joints::JointRows::default();
        j.eval(&a, &b, &mut rows);
        Ok(rows.h.iter().take(rows.n).copied().collect())
    }
    /// The gradient of coordinate `dof` of joint `joint` with respect to the poses
    /// `q = (x y z qw qx qy qz)` of its bodies (7 or 14 numbers, Siconos `computeJachqDoF`): the
    /// position part is the coordinate's twist Jacobian `∂s/∂v`; the quaternion part
    /// `4 (∂s/∂Ω) Tᵀ` with `q̇ = T Ω` (`T = ½ [−x −y −z; w −z y; z w −x; −y x w]`, body-frame `Ω`)
    /// is the gradient of `s` as a function of the normalized quaternion (orthogonal to `q`).
    #[pyo3(signature = (joint, dof, q1, q2=None))]
    fn joint_dof_jacobian(&self, joint: usize, dof: usize, q1: Vec<f64>, q2: Option<Vec<f64>>) -> PyResult<Vec<f64>> {
        let (j, a, b) = self.joint_at(joint, &q1, q2.as_deref())?;
        let Some(r) = j.dof(dof, &a, &b) else {
            return Err(model_err(&format!("joint {joint}"), format!("no coordinate {dof}")));
        };
        let sides: &[(&BodyState, usize)] = if j.body2.is_some() { &[(&a, 0), (&b, 1)] } else { &[(&a, 0)] };
        let mut out = Vec::with_capacity(7 * sides.len());
        for &(st, s) in sides {
            let jr = &r.j[s];
            out.extend_from_slice(&[jr[0], jr[1], jr[2]]);
            let q = st.orientation.quaternion();
            let (w, x, y, z) = (q.w, q.i, q.j, q.k);
            let t = [[-x, -y, -z], [w, -z, y], [z, w, -x], [-y, x, w]]; // 2 T
            for row in t {
                out.push(2.0 * (row[0] * jr[3] + row[1] * jr[4] + row[2] * jr[5]));
            }
        }
        Ok(out)
    }
    /// State of body `i`: position, quaternion (w, x, y, z), velocity, angular velocity (body frame).
    fn state<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyDict>> {
        let b = self.run.sim.model.bodies.get(i).ok_or_else(|| SaltusError::new_err(format!("no body {i}")))?;
        let mut out: [Vec<f64>; 4] = Default::default();
        let s = &b.state;
        let q = s.orientation.quaternion();
        out[0].extend_from_slice(s.position.as_slice());
        out[1].extend_from_slice(&[q.w, q.i, q.j, q.k]);
        out[2].extend_from_slice(s.v.as_slice());
        out[3].extend_from_slice(s.omega.as_slice());
        let d = PyDict::new(py);
        for (k, v) in ["position", "orientation", "velocity", "angular_velocity"].iter().zip(out) {
            d.set_item(*k, PyArray1::from_vec(py, v))?;
        }
        Ok(d)
    }
    /// One step (GIL released), the runtime driver's `step_once`: the report and the contacts of
    /// the step.
    fn step<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            let run = &mut self.run;
            py.detach(|| {
                guard(|| {
                    let mut sum = Summary::default();
                    step_once(run, &RunOptions::default(), &mut Sinks::main(&mut Discard), &mut sum).map_err(stopped)
                })
            })?;
            let r = self.run.last_report().ok_or_else(|| SimulationError::new_err("no step was taken"))?;
            report_dict(py, r, &self.run.sim)
        })
    }
    /// Steps until `t_end` (GIL released) with the runtime's driver, recording the initial state,
    /// every `record_every`-th step and the last: the columns of `saltus run` on the same scene
    /// (`t`, then per moving body `NAME.x` … `NAME.wz`, joints, stops, `NAME.alive`), and under
    /// `"steps"` a dict of per-step arrays `t`, `contacts`, `active`, `iterations`, `residual`,
    /// `converged`; with `energy`, the step's energy and work columns (`energy.kinetic`, …, as
    /// `<Output energy="true">`).
    #[pyo3(signature = (t_end, record_every=1, energy=false))]
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        t_end: f64,
        record_every: usize,
        energy: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            if record_every == 0 || !t_end.is_finite() {
                return Err(SaltusError::new_err("record_every must be >= 1 and t_end finite"));
            }
            let sim = &self.run.sim;
            let n_steps = ((t_end - sim.time()) / sim.step_size() - 1e-9).ceil().max(0.0) as u64;
            let run = &mut self.run;
            run.restart(n_steps);
            run.set_energy(energy);
            let mut table =
                ColumnTable::new(&saltus_runtime::drive::Stepper::columns(run), None).map_err(SaltusError::new_err)?;
            table.reserve((n_steps / record_every as u64 + 2) as usize);
            let log = StepLog::default();
            run.set_scene_sink(Some(Box::new(log.clone())));
            let opts = RunOptions { every: record_every as u64, ..RunOptions::default() };
            // the steps on a rayon worker, as `saltus run` (the slab sweep's threads stay awake)
            let (_, res) = py.detach(|| on_pool(|| drive(run, &mut Sinks::main(&mut table), &opts, &mut NoProgress)));
            run.set_scene_sink(None);
            run.restart(u64::MAX);
            res.map_err(stopped)?;
            let d = PyDict::new(py);
            for (name, col) in table.into_columns() {
                d.set_item(name, PyArray1::from_vec(py, col))?;
            }
            let per = std::mem::take(&mut *log.0.lock().unwrap_or_else(|p| p.into_inner()));
            let [st, nc, na, it, resid, conv] = per;
            let steps = PyDict::new(py);
            steps.set_item("t", PyArray1::from_vec(py, st))?;
            steps.set_item("contacts", PyArray1::from_vec(py, nc.iter().map(|x| *x as i64).collect()))?;
            steps.set_item("active", PyArray1::from_vec(py, na.iter().map(|x| *x as i64).collect()))?;
            steps.set_item("iterations", PyArray1::from_vec(py, it.iter().map(|x| *x as i64).collect()))?;
            steps.set_item("residual", PyArray1::from_vec(py, resid))?;
            steps.set_item("converged", PyArray1::from_vec(py, conv.iter().map(|x| *x != 0.0).collect()))?;
            d.set_item("steps", steps)?;
            Ok(d)
        })
    }
}

/// The Siconos tutorial `spheres_in_a_box` with `n` spheres (deterministic `seed`): the
/// simulation and the scene's final time.
#[pyfunction]
pub fn spheres_in_a_box(n: usize, seed: u64) -> PyResult<(CoreMechanicsSimulation, f64)> {
    guard(|| {
        let scene = scenes::spheres_in_a_box(n, seed).map_err(to_py)?;
        let t_end = scene.t_end;
        let (t0, h) = (0.0, scene.h);
        Ok((
            CoreMechanicsSimulation { run: MechRun::new(scene.into_simulation().map_err(to_py)?, t0, h, u64::MAX) },
            t_end,
        ))
    })
}

/// Vertex coordinates (3k) and vertex indices (3m) of a mesh, flat.
type FlatMesh<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<u32>>);

/// `read_mesh(path, scale=1.0)`: the triangle mesh of an STL (ASCII or binary) or OBJ file,
/// coordinates times `scale`, equal vertices merged: `(vertices, triangles)` as flat arrays
/// (3k coordinates, 3m vertex indices from 0). Errors name the file and line.
#[pyfunction]
#[pyo3(signature = (path, scale=1.0))]
pub fn read_mesh<'py>(py: Python<'py>, path: PathBuf, scale: f64) -> PyResult<FlatMesh<'py>> {
    let mesh = saltus_mechanics::mesh_file::read_mesh(&path, scale).map_err(|e| ModelError::new_err(e.to_string()))?;
    let coords: Vec<f64> = mesh.vertices.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
    let idx: Vec<u32> = mesh.indices.iter().flatten().copied().collect();
    Ok((PyArray1::from_vec(py, coords), PyArray1::from_vec(py, idx)))
}

/// One registered primitive for Python: element name, kind, the parameters as
/// `(attribute, [number names])`, docstring, Siconos has it, planar.
type PrimitiveInfo = (&'static str, String, Vec<(&'static str, Vec<&'static str>)>, &'static str, bool, bool);

/// `primitive_shapes()`: the registered primitive shapes (`saltus_mechanics::shape::Primitive::DECLS`),
/// from which `saltus.mechanics` makes its constructors.
#[pyfunction]
pub fn primitive_shapes() -> Vec<PrimitiveInfo> {
    Primitive::DECLS
        .iter()
        .map(|d| {
            let params = d.params.iter().map(|p| (p.attr, p.scalars.to_vec())).collect();
            (d.element, d.kind(), params, d.doc, d.siconos, d.planar)
        })
        .collect()
}

/// `primitive_from_siconos(element, dims)`: the kind and parameters of Siconos's primitive
/// `element` given Siconos's numbers (`Box`: full lengths, `Capsule`: radius and length, …);
/// `None` for a primitive Siconos does not have or a wrong count.
#[pyfunction]
pub fn primitive_from_siconos(element: &str, dims: Vec<f64>) -> Option<(String, Vec<f64>)> {
    Primitive::from_siconos_dims(element, &dims).map(|p| (p.decl().kind(), p.params()))
}
