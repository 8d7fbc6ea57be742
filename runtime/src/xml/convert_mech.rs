//! `<Mechanics>` model files -> a [`saltus_mechanics`] scene ([`MechanicsBuilt`]): shapes by
//! name, bodies with their contactors, contact laws per pair of groups, and the Moreau–Jean
//! options of `<Simulation>`. Every error names the element path (and its position).

use super::bind::Binder;
use super::schema::*;
use super::values::{matrix, parse_numbers, MatrixValue};
use super::HostFns;
use super::{plain, LoadedModel, ModelError};
use crate::plugin::PluginResolver;
use nalgebra::{DMatrix, Isometry3, Matrix3, Quaternion, Translation3, UnitQuaternion, Vector2, Vector3};
use saltus_kernel::{EventAction, OnNonConvergence, UserEvent};
use saltus_mechanics::mesh_file::{read_mesh, MeshData};
use saltus_mechanics::shape::Primitive;
use saltus_mechanics::{
    BodyDesc, BodyKind, BodyState, ContactLaw, ImpactLaw, MechanicsModel, MechanicsSimulation, MoreauJeanOptions,
    MotionFn, ShapeDesc,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A `<Mechanics>` model ready to run: the scene, its integrator options and time span.
#[derive(Debug, Clone)]
pub struct MechanicsBuilt {
    /// Bodies, colliders, laws, gravity, margin.
    pub model: MechanicsModel,
    /// Moreau–Jean options (θ, γ, the FC3D solver, the non-convergence policy).
    pub options: MoreauJeanOptions,
    /// Start time.
    pub t0: f64,
    /// Final time.
    pub t_end: f64,
    /// Time step.
    pub h: f64,
    /// `round((T − t0)/h)`.
    pub steps: u64,
    /// `<Output every>`.
    pub every: Option<u64>,
    /// `<Output energy>`: the step's energy and work columns ([`crate::run::mechanics::ENERGY_COLUMNS`]).
    pub energy: bool,
    /// User events on bodies (`<Events>`; an event's `ds` names a body).
    pub events: Vec<UserEvent>,
    /// `<FrictionContactTrace>`: FCLib dumps of chosen steps.
    pub trace: Option<crate::run::trace::FcTrace>,
    /// `<ControlManager body>`: controllers pushing one body (a fresh copy for each run).
    pub control: Option<crate::run::control::BodyControl>,
}

impl MechanicsBuilt {
    /// The simulation at `t0` (the model is cloned: a built model can run several times).
    pub fn simulation(&self) -> saltus_mechanics::Result<MechanicsSimulation> {
        MechanicsSimulation::new(self.model.clone(), self.t0, self.h, self.options.clone())
    }
}

/// `n` numbers from an attribute, or the reason.
pub(super) fn numbers(text: &str, what: &str, counts: &[usize]) -> Result<Vec<f64>, String> {
    let v = parse_numbers(text).map_err(|e| format!("`{what}`: {e}"))?;
    if !counts.contains(&v.len()) {
        let want: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
        return Err(format!("`{what}` has {} numbers, expected {}", v.len(), want.join(" or ")));
    }
    Ok(v)
}

/// A 3-vector attribute (`default` when absent), or the reason.
pub(super) fn vec3(text: &Option<String>, what: &str, default: Vector3<f64>) -> Result<Vector3<f64>, String> {
    match text {
        None => Ok(default),
        Some(t) => numbers(t, what, &[3]).map(|v| Vector3::new(v[0], v[1], v[2])),
    }
}

/// A quaternion `w x y z`, normalised (it must not be 0).
fn quaternion(text: &Option<String>, what: &str) -> Result<UnitQuaternion<f64>, String> {
    let Some(t) = text else { return Ok(UnitQuaternion::identity()) };
    let v = numbers(t, what, &[4])?;
    let q = Quaternion::new(v[0], v[1], v[2], v[3]);
    if q.norm() <= 1e-12 {
        return Err(format!("`{what}` is not a rotation: the quaternion w x y z has norm {}", plain(q.norm())));
    }
    Ok(UnitQuaternion::from_quaternion(q))
}

/// A data matrix with `cols` columns (inline rows may omit `rows`).
pub(super) fn data(m: &LoadedModel, d: &DataMatrixSpec, path: &str, cols: usize) -> Result<DMatrix<f64>, ModelError> {
    let spec = MatrixSpec {
        rows: d.rows,
        cols: d.cols.or(if d.file.is_none() && cols > 0 { Some(cols) } else { None }),
        file: d.file.clone(),
        text: d.text.clone(),
        ..Default::default()
    };
    let MatrixValue::Constant(mat) = matrix(m, &spec, path)? else {
        unreachable!("no plugin attributes in a data matrix")
    };
    if cols > 0 && mat.ncols() != cols {
        return Err(m.error_at(path, format!("has {} columns, expected {cols}", mat.ncols())));
    }
    Ok(mat)
}

fn rows3(mat: &DMatrix<f64>) -> Vec<Vector3<f64>> {
    mat.row_iter().map(|r| Vector3::new(r[0], r[1], r[2])).collect()
}

/// The mesh of `file` when it names an STL or OBJ file (resolved beside the model), scaled by
/// `scale`; `None` for no file or another file (a table of numbers). A `scale` needs a mesh file.
fn mesh_file(
    m: &LoadedModel,
    file: &Option<String>,
    scale: Option<f64>,
    path: &str,
) -> Result<Option<MeshData>, ModelError> {
    let is_mesh = file.as_deref().is_some_and(|f| {
        let ext = std::path::Path::new(f).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        matches!(ext.as_deref(), Some("stl" | "obj"))
    });
    match (file, is_mesh) {
        (Some(f), true) => {
            read_mesh(&m.dir().join(f), scale.unwrap_or(1.0)).map(Some).map_err(|e| m.error_at(path, e.to_string()))
        }
        _ if scale.is_some() => Err(m.error_at(path, "`scale` applies to a mesh file (file=\"….stl\" or \"….obj\")")),
        _ => Ok(None),
    }
}

/// The shape declared by `item` (None for laws and bodies).
fn shape(m: &LoadedModel, item: &MechItem, path: &str) -> Result<Option<ShapeDesc>, ModelError> {
    let at = |e: String| m.error_at(path, e);
    let desc = match item {
        MechItem::Primitive(s) => {
            let mut p = Vec::with_capacity(s.decl.len());
            for (d, text) in s.decl.params.iter().zip(&s.values) {
                p.extend(numbers(text, d.attr, &[d.scalars.len()]).map_err(at)?);
            }
            s.decl.check(&p).map_err(at)?;
            ShapeDesc::Primitive(
                Primitive::from_params(s.decl.element, &p).ok_or_else(|| at("no such primitive".into()))?,
            )
        }
        MechItem::Convex(s) => match mesh_file(m, &s.file, s.scale, path)? {
            Some(_) if s.text.as_deref().is_some_and(|t| !t.trim().is_empty()) => {
                return Err(at("give the points inline or a mesh file, not both".into()))
            }
            Some(mesh) => ShapeDesc::ConvexHull { points: mesh.vertices },
            None => {
                let d = DataMatrixSpec { file: s.file.clone(), text: s.text.clone(), ..Default::default() };
                ShapeDesc::ConvexHull { points: rows3(&data(m, &d, path, 3)?) }
            }
        },
        MechItem::Mesh(s) => {
            let (vs, ts) = (&s.vertices, &s.triangles);
            match (mesh_file(m, &s.file, s.scale, path)?, vs, ts) {
                (Some(mesh), None, None) => {
                    return Ok(Some(ShapeDesc::TriMesh { vertices: mesh.vertices, indices: mesh.indices }))
                }
                (Some(_), _, _) => return Err(at("give <vertices> and <triangles>, or a mesh file, not both".into())),
                (None, Some(_), Some(_)) => {}
                (None, _, _) => return Err(at("needs <vertices> and <triangles>, or file=\"….stl|.obj\"".into())),
            }
            let (Some(vs), Some(ts)) = (vs, ts) else { unreachable!("checked above") };
            let vertices = rows3(&data(m, vs, &format!("{path}/vertices"), 3)?);
            let tri_path = format!("{path}/triangles");
            let tris = data(m, ts, &tri_path, 3)?;
            let mut indices = Vec::with_capacity(tris.nrows());
            for (k, r) in tris.row_iter().enumerate() {
                let mut t = [0u32; 3];
                for (j, x) in r.iter().enumerate() {
                    if !(x.fract() == 0.0 && *x >= 0.0 && *x < u32::MAX as f64) {
                        return Err(
                            m.error_at(&tri_path, format!("triangle {k}: `{}` is not a vertex index", plain(*x)))
                        );
                    }
                    t[j] = *x as u32;
                }
                indices.push(t);
            }
            ShapeDesc::TriMesh { vertices, indices }
        }
        MechItem::HalfSpace(s) => {
            ShapeDesc::HalfSpace { normal: vec3(&Some(s.normal.clone()), "normal", Vector3::zeros()).map_err(at)? }
        }
        MechItem::HeightMap(s) => {
            let size = numbers(&s.size, "size", &[2]).map_err(at)?;
            let heights = data(m, &s.heights, &format!("{path}/heights"), 0)?;
            ShapeDesc::HeightField { heights, size: Vector2::new(size[0], size[1]) }
        }
        MechItem::ConvexPolygon(s) => super::convert_mech_2d::polygon(m, s, path)?,
        MechItem::NewtonImpactFrictionNSL(_)
        | MechItem::FremondImpactFrictionNSL(_)
        | MechItem::NewtonImpactRollingFrictionNSL(_)
        | MechItem::RigidBody(_)
        | MechItem::Joint(_)
        | MechItem::ContactHook(_) => return Ok(None),
    };
    desc.validate().map_err(|e| m.error_at(path, e))?;
    Ok(Some(desc))
}

/// The prescribed motion of a kinematic body: `x(t) = x₀ + v t + a (sin(2πf t + φ) − sin φ)`,
/// `q(t) = q₀ exp(t Ω)` (`Ω` in the body frame, constant), `x₀, q₀` the pose at `t = 0`.
fn motion(
    x0: Vector3<f64>,
    q0: UnitQuaternion<f64>,
    v: Vector3<f64>,
    omega: Vector3<f64>,
    osc: Option<(Vector3<f64>, f64, f64)>,
) -> MotionFn {
    Arc::new(move |t: f64| {
        let (mut x, mut vel) = (x0 + v * t, v);
        if let Some((a, f, phase)) = osc {
            let w = 2.0 * std::f64::consts::PI * f;
            x += a * ((w * t + phase).sin() - phase.sin());
            vel += a * (w * (w * t + phase).cos());
        }
        let orientation = q0 * UnitQuaternion::from_scaled_axis(omega * t);
        BodyState { position: x, orientation, v: vel, omega }
    })
}

fn body(
    binder: &mut Binder,
    b: &RigidBodySpec,
    path: &str,
    shapes: &HashMap<&str, ShapeDesc>,
    planar: bool,
) -> Result<BodyDesc, ModelError> {
    let m = binder.model;
    let at = |e: String| m.error_at(path, e);
    let kind = match &b.kind {
        None => BodyKindSpec::Dynamic,
        Some(k) => BodyKindSpec::parse(k).map_err(at)?,
    };
    let state = if planar {
        super::convert_mech_2d::state(b).map_err(at)?
    } else {
        let position = vec3(&b.translation, "translation", Vector3::zeros()).map_err(at)?;
        let orientation = quaternion(&b.orientation, "orientation").map_err(at)?;
        let (v, omega) = match &b.velocity {
            None => (Vector3::zeros(), Vector3::zeros()),
            Some(t) => {
                let x = numbers(t, "velocity", &[3, 6]).map_err(at)?;
                let w = if x.len() == 6 { Vector3::new(x[3], x[4], x[5]) } else { Vector3::zeros() };
                (Vector3::new(x[0], x[1], x[2]), w)
            }
        };
        BodyState { position, orientation, v, omega }
    };
    let BodyState { position, orientation, v, omega } = state;
    let mut d = match kind {
        BodyKindSpec::Dynamic => BodyDesc::dynamic(&b.name),
        BodyKindSpec::Static => BodyDesc::fixed(&b.name),
        BodyKindSpec::Kinematic => {
            let osc = match &b.oscillation {
                None => None,
                Some(o) => {
                    let a = vec3(&Some(o.amplitude.clone()), "amplitude", Vector3::zeros())
                        .map_err(|e| m.error_at(&format!("{path}/Oscillation"), e))?;
                    if !(o.frequency > 0.0 && o.frequency.is_finite()) {
                        return Err(m.error_at(
                            &format!("{path}/Oscillation"),
                            format!("`frequency` must be finite and > 0, got {}", plain(o.frequency)),
                        ));
                    }
                    Some((a, o.frequency, o.phase.unwrap_or(0.0)))
                }
            };
            BodyDesc::kinematic(&b.name, motion(position, orientation, v, omega, osc))
        }
    };
    if kind != BodyKindSpec::Kinematic && b.oscillation.is_some() {
        return Err(m.error_at(
            &format!("{path}/Oscillation"),
            "only a kinematic body (kind=\"kinematic\") has a prescribed motion",
        ));
    }
    if kind == BodyKindSpec::Static && b.velocity.is_some() {
        return Err(at("a static body does not move: remove `velocity` (or make it kinematic)".into()));
    }
    d = d.state(state).group(b.group.unwrap_or(0));
    let (birth, death) = (b.birth.unwrap_or(f64::NEG_INFINITY), b.death.unwrap_or(f64::INFINITY));
    if birth.is_nan() || death.is_nan() || birth >= death {
        return Err(at(format!("`birth` ({birth}) must come before `death` ({death})")));
    }
    d = d.lifetime(birth, death);
    d.force = vec3(&b.force, "force", Vector3::zeros()).map_err(at)?;
    d.torque = vec3(&b.torque, "torque", Vector3::zeros()).map_err(at)?;
    if kind != BodyKindSpec::Dynamic && (b.force.is_some() || b.torque.is_some()) {
        return Err(at("only dynamic bodies take a force or a torque".into()));
    }
    if let Some(f) = &b.external_force {
        let fpath = format!("{path}/ExternalForce");
        if kind != BodyKindSpec::Dynamic {
            return Err(m.error_at(&fpath, "only dynamic bodies take an external force"));
        }
        d.force_fn = Some(super::convert_mech_loads::external_force(binder, f, &fpath)?);
    }
    if let Some(bc) = &b.boundary_condition {
        let bpath = format!("{path}/BoundaryCondition");
        if kind != BodyKindSpec::Dynamic {
            return Err(m.error_at(&bpath, "only dynamic bodies take a boundary condition"));
        }
        d.boundary = Some(super::convert_mech_loads::boundary_condition(binder, bc, &bpath)?);
    }
    match (kind, b.mass, &b.inertia, b.density) {
        (BodyKindSpec::Dynamic, Some(mass), Some(i), None) if planar => {
            let x = numbers(i, "inertia", &[1]).map_err(at)?;
            d = d.mass(mass, saltus_mechanics::planar::planar_inertia(x[0]));
        }
        (BodyKindSpec::Dynamic, Some(mass), Some(i), None) => {
            let x = numbers(i, "inertia", &[3, 9]).map_err(at)?;
            let inertia = if x.len() == 3 {
                Matrix3::from_diagonal(&Vector3::new(x[0], x[1], x[2]))
            } else {
                Matrix3::from_row_slice(&x)
            };
            d = d.mass(mass, inertia);
        }
        (BodyKindSpec::Dynamic, None, None, Some(rho)) => d = d.density(rho),
        (BodyKindSpec::Dynamic, Some(_), None, None) => {
            return Err(at(
                "`mass` needs `inertia` (3 numbers: the diagonal, or 9: the matrix); or give `density` instead".into(),
            ))
        }
        (BodyKindSpec::Dynamic, None, Some(_), None) => return Err(at("`inertia` needs `mass`".into())),
        (BodyKindSpec::Dynamic, None, None, None) => {
            return Err(at("a dynamic body needs `mass` and `inertia`, or `density`".into()))
        }
        (BodyKindSpec::Dynamic, ..) => return Err(at("give `mass` and `inertia`, or `density`, not both".into())),
        (_, None, None, None) => {}
        _ => return Err(at("static and kinematic bodies have no `mass`, `inertia` or `density`".into())),
    }
    for (k, c) in b.contactors.iter().enumerate() {
        let cpath = format!("{path}/Contactor");
        let cat = |e: String| m.error_at(&cpath, format!("contactor {k}: {e}"));
        let desc = shapes.get(c.shape.as_str()).ok_or_else(|| {
            let mut known: Vec<&str> = shapes.keys().copied().collect();
            known.sort_unstable();
            cat(format!("unknown shape `{}` (declared: {})", c.shape, known.join(", ")))
        })?;
        let offset = if planar {
            super::convert_mech_2d::offset(c).map_err(cat)?
        } else {
            let t = vec3(&c.translation, "translation", Vector3::zeros()).map_err(cat)?;
            let r = quaternion(&c.orientation, "orientation").map_err(cat)?;
            Isometry3::from_parts(Translation3::from(t), r)
        };
        d = match c.group {
            Some(g) => d.shape_in_group(desc.clone(), offset, g),
            None => d.shape(desc.clone(), offset),
        };
    }
    Ok(d)
}

/// Builds the scene of a `<Mechanics>` model (the caller has checked that it has one); plugin
/// libraries resolve relative to the model file.
pub fn build_mechanics(m: &LoadedModel) -> Result<MechanicsBuilt, ModelError> {
    build_mechanics_with(m, Vec::new(), HostFns::default())
}

/// [`build_mechanics`] with the `--plugin-dir` search directories and the functions of an
/// embedding application (`library=":host"`).
pub fn build_mechanics_with(
    m: &LoadedModel,
    plugin_dirs: Vec<PathBuf>,
    host: HostFns,
) -> Result<MechanicsBuilt, ModelError> {
    let mf = &m.model;
    let mut binder = Binder { model: m, plugins: PluginResolver::new(m.dir(), plugin_dirs), t0: mf.time.t0, host };
    let Some(mech) = &mf.mechanics else {
        return Err(m.error_at("Mechanics", "the model has no <Mechanics> section"));
    };
    if !mf.nsds.is_empty() || m.index().find("NSDS").is_some() {
        return Err(m.error_at("NSDS", "a model has an <NSDS> or a <Mechanics> scene, not both"));
    }
    let (t0, t_end) = (mf.time.t0, mf.time.t_end);
    if !t0.is_finite() || !t_end.is_finite() || t_end <= t0 {
        return Err(m.error_at("Time", format!("need finite t0 < T, got t0 = {}, T = {}", plain(t0), plain(t_end))));
    }
    let mut shapes: HashMap<&str, ShapeDesc> = HashMap::new();
    for item in &mech.items {
        if let Some((tag, name)) = item.shape_name() {
            let path = format!("Mechanics/{tag}[{name}]");
            let desc = shape(m, item, &path)?.expect("a shape declaration");
            if shapes.insert(name, desc).is_some() {
                return Err(m.error_at(&path, format!("a shape named `{name}` is already declared")));
            }
        }
    }
    // a scene with planar shapes (Disk, Box2d, ConvexPolygon) is 2D: poses (x y), (θ), twists
    // (vx vy ω), inertia I, gravity (gx gy)
    let planar = shapes.values().any(ShapeDesc::is_planar);
    let gravity = if planar {
        super::convert_mech_2d::gravity(&mech.gravity)
    } else {
        vec3(&mech.gravity, "gravity", Vector3::new(0.0, 0.0, -9.81))
    }
    .map_err(|e| m.error_at("Mechanics", e))?;
    let mut model = MechanicsModel::new(gravity, mech.margin).map_err(|e| m.error_at("Mechanics", e.to_string()))?;
    let mut pairs: HashMap<(u32, u32), ()> = HashMap::new();
    for item in &mech.items {
        let (path, law, g1, g2) = match item {
            MechItem::NewtonImpactFrictionNSL(l) => (
                "Mechanics/NewtonImpactFrictionNSL",
                ContactLaw { en: l.en, et: l.et.unwrap_or(0.0), mu: l.mu, mu_r: 0.0, impact: ImpactLaw::Newton },
                l.group1.unwrap_or(0),
                l.group2.unwrap_or(0),
            ),
            MechItem::FremondImpactFrictionNSL(l) => (
                "Mechanics/FremondImpactFrictionNSL",
                ContactLaw { en: l.en, et: l.et.unwrap_or(0.0), mu: l.mu, mu_r: 0.0, impact: ImpactLaw::Fremond },
                l.group1.unwrap_or(0),
                l.group2.unwrap_or(0),
            ),
            MechItem::NewtonImpactRollingFrictionNSL(l) => (
                "Mechanics/NewtonImpactRollingFrictionNSL",
                ContactLaw { en: l.en, et: l.et.unwrap_or(0.0), mu: l.mu, mu_r: l.mu_r, impact: ImpactLaw::Newton },
                l.group1.unwrap_or(0),
                l.group2.unwrap_or(0),
            ),
            _ => continue,
        };
        if pairs.insert((g1.min(g2), g1.max(g2)), ()).is_some() {
            return Err(m.error_at(path, format!("a second law for the groups ({g1}, {g2})")));
        }
        model.set_law(g1, g2, law).map_err(|e| m.error_at(path, e.to_string()))?;
    }
    let mut n_bodies = 0;
    for item in &mech.items {
        let MechItem::RigidBody(b) = item else { continue };
        let path = format!("Mechanics/RigidBody[{}]", b.name);
        let desc = body(&mut binder, b, &path, &shapes, planar)?;
        model.add_body(desc).map_err(|e| m.error_at(&path, e.to_string()))?;
        n_bodies += 1;
    }
    if n_bodies == 0 {
        return Err(m.error_at("Mechanics", "the scene has no <RigidBody>"));
    }
    let mut hooks = mech.items.iter().filter_map(|i| if let MechItem::ContactHook(h) = i { Some(h) } else { None });
    if let Some(spec) = hooks.next() {
        let path = "Mechanics/ContactHook";
        if hooks.next().is_some() {
            return Err(m.error_at(path, "a scene has one <ContactHook>"));
        }
        if planar {
            return Err(m.error_at(path, "a 2D scene keeps its normals in its plane: <ContactHook> is for 3D scenes"));
        }
        model.set_contact_hook(Some(super::convert_mech_loads::contact_hook(&mut binder, spec, path)?));
    }
    let n_joints = super::convert_joints::add_joints(m, mech, &mut model)?;
    let (options, h) = super::convert_mech_sim::options(m, n_joints > 0, planar)?;
    let steps_f = ((t_end - t0) / h).round();
    if !(1.0..=1e12).contains(&steps_f) {
        return Err(m.error_at(
            "Simulation/TimeDiscretisation",
            format!("(T − t0)/h = {} steps: need between 1 and 1e12", plain((t_end - t0) / h)),
        ));
    }
    let (every, energy) = super::schema_sim::OutputSpec::of(m, mf.output.as_ref(), true)?;
    let trace = super::convert_mech_sim::trace(m)?;
    let mut built = MechanicsBuilt {
        model,
        options,
        t0,
        t_end,
        h,
        steps: steps_f as u64,
        every,
        energy,
        events: Vec::new(),
        trace,
        control: None,
    };
    let sim = built.simulation().map_err(|e| m.error_at("Simulation", e.to_string()))?;
    if let Some(ev) = &mf.events {
        built.events = body_events(&mut binder, ev, &sim)?;
    }
    if let Some(c) = mf.simulation.as_ref().and_then(|s| s.control.as_ref()) {
        built.control = Some(super::convert_control::build_body_control(&mut binder, c, &sim, h)?);
    }
    Ok(built)
}

/// The `<Events>` of a scene: `ds` names a body, whose state is the 13 numbers of
/// [`saltus_mechanics::BodyState::to_array`]; a reset acts on a dynamic body only.
fn body_events(b: &mut Binder, spec: &EventsSpec, sim: &MechanicsSimulation) -> Result<Vec<UserEvent>, ModelError> {
    let names: Vec<&str> = sim.model.bodies.iter().map(|b| b.name.as_str()).collect();
    let events = super::convert_events::build_events(b, spec, sim, &names, Default::default())?;
    for e in &events {
        let body = &sim.model.bodies[e.ds.index()];
        if matches!(e.action, EventAction::Reset(_)) && body.kind != BodyKind::Dynamic {
            let path = format!("Events/Event[{}]", e.name);
            return Err(b.model.error_at(&path, format!("a reset acts on a dynamic body; `{}` is not", body.name)));
        }
    }
    Ok(events)
}

/// `OnNonConvergence` of a policy attribute.
pub(super) fn policy(p: Option<PolicySpec>) -> OnNonConvergence {
    match p {
        Some(PolicySpec::Fail) => OnNonConvergence::Fail,
        _ => OnNonConvergence::Accept,
    }
}
