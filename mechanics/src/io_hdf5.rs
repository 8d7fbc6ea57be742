//! HDF5 output in the layout of Siconos `mechanics_hdf5` (what `MechanicsHdf5Runner.run` writes),
//! so that a run loads in h5py / pandas like a Siconos one (feature `hdf5`, needs libhdf5).
//!
//! Every table is a 2-D float64 dataset under `data/`, extendable (chunked) along its rows:
//!
//! | dataset | columns |
//! |---|---|
//! | `data/dynamic` | `t, id, x, y, z, qw, qx, qy, qz` (centre of mass, unit quaternion scalar first) |
//! | `data/velocities` | `t, id, vx, vy, vz, wx, wy, wz`: `v` in the world frame, `Ω` in the **body frame** |
//! | `data/static` | `t, id, x, y, z, qw, qx, qy, qz`, static bodies, written once at `t0` |
//! | `data/cf` | 26 columns per active contact, below |
//! | `data/solv` | `t, iterations, precision, local precision` per output step |
//!
//! `data/dynamic` and `data/velocities` hold the moving (dynamic and kinematic) bodies at `t0`
//! and after every `output_frequency`-th step; `data/cf` and `data/solv` after those steps.
//! The angular velocity convention is the one of Siconos `NewtonEulerDS` (checked on a file
//! written by Siconos 4.4: a body turned by 90° about `z` and spinning at `Ω = (1, 0, 0)` keeps
//! writing `(1, 0, 0)` while its quaternion follows `q̇ = ½ q ⊗ (0, Ω)`); Saltus uses the same
//! body frame, so no conversion takes place. `data/static` has 9 columns (with `t`), as the
//! files Siconos 4.4 writes, not the 8 of its documentation.
//!
//! `data/cf` follows Siconos `MechanicsIO::contactPoints` for `NewtonEuler3DR`, in which the
//! normal points from body B to body A and `cf` acts on A. A Saltus contact's normal points from
//! its body 1 to its body 2 and its reaction acts on body 2, so A = body 2 and B = body 1, except
//! when only body 2 is static: then A = body 1 (Siconos puts the moving body first), the normal
//! and `cf` change sign and `r` is expressed in the frame of the flipped normal:
//!
//! `t, μ, posa (3), posb (3), nc (3), cf (3), gap (3), relvel (3), impulse (3), inter, ds1, ds2`
//!
//! with `posa`/`posb` the contact points on A/B (world frame), `nc` the unit normal (world
//! frame, from B to A), `cf = F r` the reaction **impulse over the step** on A in the world frame
//! (`F = [n t₁ t₂]` the contact frame; like Siconos, which writes `λ(1)`: divide by `h` for the
//! mean force), `gap = (g, 0, 0)`, `relvel = Fᵀ (v_A(posa) − v_B(posb))` the local relative
//! velocity `H(q_k) v_{k+1}` (end-of-step twists, start-of-step lever arms, as the scheme), `impulse = r = (r_N, r_T1, r_T2)` in the contact frame
//! (`|r_T| ≤ μ r_N`), `inter` the contact's index in this step's sorted contact list, `ds1`/`ds2`
//! the ids of A and B (a static B has its negative id; Siconos repeats ds1 there).
//!
//! `data/solv`: iterations and residual of the FC3D solver, local precision 0 (Siconos writes 0
//! for NSGS); steps without an active contact write `(t, 0, 0, 0)`.
//!
//! Scene description (enough for a viewer to rebuild the scene):
//! - `data/ref/<Shape>`: one dataset per distinct shape, attributes `id`, `type` and, for
//!   primitives, `primitive`. Primitives in Siconos's parameters: `Sphere (r)`, `Box (2a, 2b, 2c)`
//!   (full extents), `Capsule (r, 2h)` and `Cylinder (r, 2h)` along `y`. Others: `convex` (points,
//!   n × 3, as Siconos), `heightmap` (heights nx × ny, attribute `rect = (Lx, Ly)`, as Siconos),
//!   `triangles` (n × 9: the three vertices of each triangle; Siconos stores meshes as VTK text)
//!   and `halfspace` (1 × 3 outward normal).
//! - `data/input/<body>`: a group with attributes `id`, `type` (`dynamic`, `static`,
//!   `kinematic`), `mass` and `inertia` (3 × 3, dynamic bodies), `translation`, `orientation`
//!   (`qw, qx, qy, qz`), `velocity` (`v`, `Ω`) at `t0`, `center_of_mass = 0`; one empty dataset per
//!   contactor `<Shape>-<k>` with attributes `instance_name`, `shape_name`, `group`, `translation`,
//!   `orientation` (its offset in the body frame).
//! - `data/nslaws/law-<g1>-<g2>`: `type = NewtonImpactFrictionNSL`, `e`, `mu`, `gid1`, `gid2`
//!   (`NewtonImpactRollingFrictionNSL` with `mu_r` too for a law with rolling friction).

use crate::body::BodyKind;
use crate::relation::contact_frame;
use crate::scene_desc::{siconos_ids, ShapeTable};
use crate::shape::ShapeDesc;
use crate::simulation::{MechanicsSimulation, MechanicsStepReport};
use hdf5::types::VarLenUnicode;
use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use ndarray::{s, ArrayView2};
use std::path::Path;

/// An HDF5 output error: what was being written and the library's message.
#[derive(Debug, thiserror::Error)]
#[error("HDF5 output {what}: {source}")]
pub struct Hdf5OutputError {
    /// The object being written (file, dataset or attribute).
    pub what: String,
    /// The HDF5 library's error.
    #[source]
    pub source: hdf5::Error,
}

type Res<T> = std::result::Result<T, Hdf5OutputError>;

fn ctx<T>(r: hdf5::Result<T>, what: impl FnOnce() -> String) -> Res<T> {
    r.map_err(|source| Hdf5OutputError { what: what(), source })
}

/// Options of [`MechanicsHdf5Writer`].
#[derive(Debug, Clone, PartialEq)]
pub struct Hdf5Options {
    /// Write every `output_frequency`-th step (≥ 1; 0 is read as 1).
    pub output_frequency: usize,
    /// Rows per chunk of the extendable datasets.
    pub chunk_rows: usize,
    /// gzip level of the tables (`None`: uncompressed, as Siconos by default).
    pub gzip: Option<u8>,
}

impl Default for Hdf5Options {
    fn default() -> Self {
        Hdf5Options { output_frequency: 1, chunk_rows: 4000, gzip: None }
    }
}

/// One extendable 2-D float64 table.
struct Table {
    ds: hdf5::Dataset,
    cols: usize,
    rows: usize,
    name: &'static str,
}

impl Table {
    fn create(g: &hdf5::Group, name: &'static str, cols: usize, info: &str, o: &Hdf5Options) -> Res<Self> {
        let what = || format!("dataset data/{name}");
        let mut b = g.new_dataset::<f64>().chunk((o.chunk_rows.max(1), cols)).shape((0.., cols));
        if let Some(level) = o.gzip {
            b = b.deflate(level);
        }
        let ds = ctx(b.create(name), what)?;
        str_attr(&ds, "info", info)?;
        Ok(Table { ds, cols, rows: 0, name })
    }
    /// Appends `data.len() / cols` rows.
    fn append(&mut self, data: &[f64]) -> Res<()> {
        let n = data.len() / self.cols;
        if n == 0 {
            return Ok(());
        }
        let what = || format!("dataset data/{} (rows {}..)", self.name, self.rows);
        let view = ArrayView2::from_shape((n, self.cols), data).expect("whole rows");
        ctx(self.ds.resize((self.rows + n, self.cols)), what)?;
        ctx(self.ds.write_slice(view, s![self.rows..self.rows + n, ..]), what)?;
        self.rows += n;
        Ok(())
    }
}

fn str_attr(loc: &hdf5::Location, name: &str, value: &str) -> Res<()> {
    let v: VarLenUnicode = value.parse().expect("no NUL in attribute text");
    ctx(loc.new_attr::<VarLenUnicode>().shape(()).create(name).and_then(|a| a.write_scalar(&v)), || {
        format!("attribute {name}")
    })
}

fn f64_attr(loc: &hdf5::Location, name: &str, value: &[f64]) -> Res<()> {
    ctx(loc.new_attr_builder().with_data(value).create(name), || format!("attribute {name}")).map(|_| ())
}

fn i64_attr(loc: &hdf5::Location, name: &str, value: i64) -> Res<()> {
    ctx(loc.new_attr::<i64>().shape(()).create(name).and_then(|a| a.write_scalar(&value)), || {
        format!("attribute {name}")
    })
}

fn quat_wxyz(q: &UnitQuaternion<f64>) -> [f64; 4] {
    [q.w, q.i, q.j, q.k]
}

/// Writes a run in the Siconos `mechanics_hdf5` layout (see the module documentation).
///
/// ```no_run
/// # use saltus_mechanics::{scenes, io_hdf5::{MechanicsHdf5Writer, Hdf5Options}};
/// let scene = scenes::spheres_in_a_box(125, 1).unwrap();
/// let n = scene.n_steps();
/// let mut sim = scene.into_simulation().unwrap();
/// let o = Hdf5Options { output_frequency: 10, ..Default::default() };
/// let mut out = MechanicsHdf5Writer::create("spheres.hdf5", &sim, o).unwrap();
/// for _ in 0..n {
///     let rep = sim.step().unwrap();
///     out.record(&sim, &rep).unwrap();
/// }
/// out.close().unwrap();
/// ```
pub struct MechanicsHdf5Writer {
    file: hdf5::File,
    dynamic: Table,
    velocities: Table,
    cf: Table,
    solv: Table,
    ids: Vec<i64>,
    every: usize,
    steps: usize,
    buf: Vec<f64>,
    /// Positions and orientations at the start of the coming step.
    prev: Vec<(Vector3<f64>, UnitQuaternion<f64>)>,
    /// When the file was last flushed ([`FLUSH_INTERVAL`]).
    last_flush: std::time::Instant,
}

/// The recorded steps are flushed to the file (data and metadata, `H5Fflush`) at least this
/// often, as the CSV output's rows: a run killed between two flushes leaves a file that opens
/// and holds every step recorded before the last flush (without it, the metadata stayed in
/// memory until `close`, and a killed run left a file HDF5 could not open).
pub const FLUSH_INTERVAL: std::time::Duration = std::time::Duration::from_millis(500);

impl MechanicsHdf5Writer {
    /// Creates (truncates) `path`, writes the scene description, `data/static` and the rows of
    /// `data/dynamic` and `data/velocities` at the simulation's current time.
    pub fn create(path: impl AsRef<Path>, sim: &MechanicsSimulation, opts: Hdf5Options) -> Res<Self> {
        let path = path.as_ref();
        let file = ctx(hdf5::File::create(path), || format!("file {}", path.display()))?;
        let dim: i64 = if sim.model.is_planar() { 2 } else { 3 };
        ctx(file.new_attr::<i64>().shape(()).create("dimension").and_then(|a| a.write_scalar(&dim)), || {
            "attribute dimension".into()
        })?;
        let data = ctx(file.create_group("data"), || "group data".into())?;
        let ids = siconos_ids(&sim.model);
        write_description(&data, sim, &ids)?;
        let mut st = Table::create(&data, "static", 9, "time, ds id, translation, orientation", &opts)?;
        let t0 = sim.time();
        let mut rows = Vec::new();
        for (b, &id) in sim.model.bodies.iter().zip(&ids) {
            if b.kind == BodyKind::Static {
                let s = &b.state;
                rows.extend([t0, id as f64, s.position.x, s.position.y, s.position.z]);
                rows.extend(quat_wxyz(&s.orientation));
            }
        }
        st.append(&rows)?;
        let dynamic = Table::create(&data, "dynamic", 9, "time, ds id, translation, orientation", &opts)?;
        let velocities = Table::create(
            &data,
            "velocities",
            8,
            "time, ds id, translational velocities (world frame), angular velocities (body frame)",
            &opts,
        )?;
        let cf = Table::create(
            &data,
            "cf",
            26,
            "time, mu, contact point A, contact point B, contact normal (B to A), reaction impulse on A (world frame), gap, relative velocity, reaction impulse (contact frame), interaction index, ds A id, ds B id",
            &opts,
        )?;
        let solv = Table::create(&data, "solv", 4, "time, iterations, precision, local precision", &opts)?;
        let mut w = MechanicsHdf5Writer {
            file,
            dynamic,
            velocities,
            cf,
            solv,
            ids,
            every: opts.output_frequency.max(1),
            steps: 0,
            buf: Vec::new(),
            prev: Vec::new(),
            last_flush: std::time::Instant::now(),
        };
        w.write_bodies(sim)?;
        w.keep_poses(sim);
        w.flush()?;
        Ok(w)
    }

    /// Call after every step. Counts the step; after every `output_frequency`-th step appends the moving bodies'
    /// poses and twists, the active contacts and the solver's report.
    pub fn record(&mut self, sim: &MechanicsSimulation, report: &MechanicsStepReport) -> Res<()> {
        self.steps += 1;
        if self.steps.is_multiple_of(self.every) {
            self.write_bodies(sim)?;
            self.write_contacts(sim)?;
            let (it, res) = report.solver.as_ref().map_or((0.0, 0.0), |r| (r.iterations as f64, r.residual));
            self.solv.append(&[sim.time(), it, res, 0.0])?;
            if self.last_flush.elapsed() >= FLUSH_INTERVAL {
                self.flush()?;
                self.last_flush = std::time::Instant::now();
            }
        }
        self.keep_poses(sim);
        Ok(())
    }

    /// Flushes the file to disk.
    pub fn flush(&self) -> Res<()> {
        ctx(self.file.flush(), || "flush".into())
    }

    /// Flushes and closes the file (dropping the writer also closes it, without reporting errors).
    pub fn close(self) -> Res<()> {
        self.flush()?;
        let MechanicsHdf5Writer { file, dynamic, velocities, cf, solv, .. } = self;
        drop((dynamic, velocities, cf, solv));
        ctx(file.close(), || "close".into())
    }

    fn write_bodies(&mut self, sim: &MechanicsSimulation) -> Res<()> {
        let t = sim.time();
        self.buf.clear();
        for (b, &id) in sim.model.bodies.iter().zip(&self.ids) {
            if b.kind != BodyKind::Static {
                let s = &b.state;
                self.buf.extend([t, id as f64, s.position.x, s.position.y, s.position.z]);
                self.buf.extend(quat_wxyz(&s.orientation));
            }
        }
        self.dynamic.append(&self.buf)?;
        self.buf.clear();
        for (b, &id) in sim.model.bodies.iter().zip(&self.ids) {
            if b.kind != BodyKind::Static {
                let s = &b.state;
                self.buf.extend([t, id as f64]);
                self.buf.extend(s.v.iter().chain(s.omega.iter()));
            }
        }
        self.velocities.append(&self.buf)
    }

    fn write_contacts(&mut self, sim: &MechanicsSimulation) -> Res<()> {
        let t = sim.time();
        self.buf.clear();
        let prev = &self.prev;
        // H(q_k) v_{k+1}: the lever arm and rotation of the start of the step, as the scheme.
        let vel = |i: usize, p: &Vector3<f64>| {
            let b = &sim.model.bodies[i];
            if b.kind == BodyKind::Static {
                return Vector3::zeros();
            }
            let (x, q) = &prev[i];
            b.state.v + (q * b.state.omega).cross(&(p - x))
        };
        for (k, c) in sim.contacts().iter().enumerate().filter(|(_, c)| c.active) {
            let f = contact_frame(&c.normal);
            let on_2 = f * c.impulse;
            // A is body 2 unless only body 2 is static (Siconos puts the moving body first).
            let swap =
                sim.model.body(c.body2).kind == BodyKind::Static && sim.model.body(c.body1).kind != BodyKind::Static;
            let (a, b, pa, pb, n, cf) = if swap {
                (c.body1, c.body2, &c.point1, &c.point2, -c.normal, -on_2)
            } else {
                (c.body2, c.body1, &c.point2, &c.point1, c.normal, on_2)
            };
            let fa = contact_frame(&n);
            let r = if swap { fa.transpose() * cf } else { c.impulse };
            let u = fa.transpose() * (vel(a.index(), pa) - vel(b.index(), pb));
            self.buf.extend([t, c.law.mu]);
            for v in [pa, pb, &n, &cf] {
                self.buf.extend(v.iter());
            }
            self.buf.extend([c.gap, 0.0, 0.0]);
            self.buf.extend(u.iter().chain(r.iter()));
            self.buf.extend([k as f64, self.ids[a.index()] as f64, self.ids[b.index()] as f64]);
        }
        self.cf.append(&self.buf)
    }

    fn keep_poses(&mut self, sim: &MechanicsSimulation) {
        self.prev.clear();
        self.prev.extend(sim.model.bodies.iter().map(|b| (b.state.position, b.state.orientation)));
    }
}

/// `data/ref`, `data/input`, `data/nslaws`.
fn write_description(data: &hdf5::Group, sim: &MechanicsSimulation, ids: &[i64]) -> Res<()> {
    let model = &sim.model;
    let table = ShapeTable::new(model);
    let refg = ctx(data.create_group("ref"), || "group data/ref".into())?;
    for (k, shape) in table.shapes.iter().enumerate() {
        let name = table.name(k);
        let what = || format!("dataset data/ref/{name}");
        let (kind, primitive, cols, values): (&str, Option<&str>, usize, Vec<f64>) = match shape {
            ShapeDesc::Sphere { radius } => ("primitive", Some(shape.siconos_name()), 1, vec![*radius]),
            ShapeDesc::Cuboid { half_extents: e } => {
                ("primitive", Some(shape.siconos_name()), 3, (e * 2.0).as_slice().to_vec())
            }
            ShapeDesc::Capsule { half_height, radius } => {
                ("primitive", Some(shape.siconos_name()), 2, vec![*radius, 2.0 * half_height])
            }
            ShapeDesc::Cylinder { half_height, radius } | ShapeDesc::Cone { half_height, radius } => {
                ("primitive", Some(shape.siconos_name()), 2, vec![*radius, 2.0 * half_height])
            }
            ShapeDesc::ConvexHull { points } => {
                ("convex", None, 3, points.iter().flat_map(|p| p.iter().copied()).collect())
            }
            ShapeDesc::TriMesh { vertices, indices } => (
                "triangles",
                None,
                9,
                indices.iter().flat_map(|t| t.iter().flat_map(|&i| vertices[i as usize].iter().copied())).collect(),
            ),
            ShapeDesc::Disk { radius } => ("primitive", Some(shape.siconos_name()), 1, vec![*radius]),
            ShapeDesc::Box2d { half_extents: e } => {
                ("primitive", Some(shape.siconos_name()), 2, (e * 2.0).as_slice().to_vec())
            }
            ShapeDesc::ConvexPolygon { points } => {
                ("convex", None, 2, points.iter().flat_map(|p| p.iter().copied()).collect())
            }
            ShapeDesc::HalfSpace { normal } => ("halfspace", None, 3, normal.normalize().as_slice().to_vec()),
            ShapeDesc::HeightField { heights, .. } => {
                let (nx, ny) = heights.shape();
                ("heightmap", None, ny, (0..nx).flat_map(|i| (0..ny).map(move |j| heights[(i, j)])).collect())
            }
        };
        let view = ArrayView2::from_shape((values.len() / cols, cols), &values).expect("whole rows");
        let ds = ctx(refg.new_dataset_builder().with_data(view).create(name.as_str()), what)?;
        i64_attr(&ds, "id", k as i64)?;
        str_attr(&ds, "type", kind)?;
        if let Some(p) = primitive {
            str_attr(&ds, "primitive", p)?;
        }
        if let ShapeDesc::HeightField { size, .. } = shape {
            f64_attr(&ds, "rect", size.as_slice())?;
        }
    }
    let input = ctx(data.create_group("input"), || "group data/input".into())?;
    for (i, (b, &id)) in model.bodies.iter().zip(ids).enumerate() {
        let what = || format!("group data/input/{}", b.name);
        let g = ctx(input.create_group(&b.name), what)?;
        i64_attr(&g, "id", id)?;
        let kind = match b.kind {
            BodyKind::Dynamic => "dynamic",
            BodyKind::Static => "static",
            BodyKind::Kinematic => "kinematic",
        };
        str_attr(&g, "type", kind)?;
        if b.is_dynamic() {
            f64_attr(&g, "mass", &[b.mass()])?;
            let view = ArrayView2::from_shape((3, 3), b.inertia().as_slice()).expect("3 × 3");
            ctx(g.new_attr_builder().with_data(view).create("inertia"), || "attribute inertia".into())?;
        }
        let s = &b.state;
        if model.is_planar() {
            // Siconos's 2D input: (x, y), (θ), (vx, vy, ω), the inertia I_zz
            let [x, y, th, vx, vy, w] = crate::planar::planar_coordinates(s);
            f64_attr(&g, "translation", &[x, y])?;
            f64_attr(&g, "orientation", &[th])?;
            f64_attr(&g, "velocity", &[vx, vy, w])?;
        } else {
            f64_attr(&g, "translation", s.position.as_slice())?;
            f64_attr(&g, "orientation", &quat_wxyz(&s.orientation))?;
            f64_attr(&g, "velocity", &[s.v.x, s.v.y, s.v.z, s.omega.x, s.omega.y, s.omega.z])?;
        }
        f64_attr(&g, "center_of_mass", &[0.0; 3])?;
        for ci in b.collider_range() {
            let c = &model.colliders[ci];
            let shape = table.name(table.of_collider[ci]);
            let inst = format!("{shape}-{}", c.index_in_body);
            let ds = ctx(g.new_dataset::<f64>().shape((0, 0)).create(inst.as_str()), || {
                format!("dataset data/input/{}/{inst}", model.bodies[i].name)
            })?;
            contactor_attrs(&ds, &inst, &shape, c.group, &c.offset)?;
        }
    }
    let laws = ctx(data.create_group("nslaws"), || "group data/nslaws".into())?;
    let n_groups = model.colliders.iter().map(|c| c.group).max().map_or(0, |g| g + 1);
    for g1 in 0..n_groups {
        for g2 in g1..n_groups {
            if let Some(l) = model.law(g1, g2) {
                let name = format!("law-{g1}-{g2}");
                let ds = ctx(laws.new_dataset::<f64>().shape((0,)).create(name.as_str()), || format!("law {name}"))?;
                let kind = if l.mu_r > 0.0 { "NewtonImpactRollingFrictionNSL" } else { "NewtonImpactFrictionNSL" };
                str_attr(&ds, "type", kind)?;
                f64_attr(&ds, "e", &[l.en])?;
                f64_attr(&ds, "mu", &[l.mu])?;
                if l.mu_r > 0.0 {
                    f64_attr(&ds, "mu_r", &[l.mu_r])?;
                }
                i64_attr(&ds, "gid1", i64::from(g1))?;
                i64_attr(&ds, "gid2", i64::from(g2))?;
            }
        }
    }
    Ok(())
}

fn contactor_attrs(ds: &hdf5::Dataset, inst: &str, shape: &str, group: u32, offset: &Isometry3<f64>) -> Res<()> {
    str_attr(ds, "instance_name", inst)?;
    str_attr(ds, "shape_name", shape)?;
    i64_attr(ds, "group", i64::from(group))?;
    f64_attr(ds, "translation", offset.translation.vector.as_slice())?;
    f64_attr(ds, "orientation", &quat_wxyz(&offset.rotation))
}
