//! HDF5 output in the layout of Siconos `mechanics_hdf5` (what `MechanicsHdf5Runner.run` writes),
//! so that a run loads in h5py / pandas like a Siconos one. Written by `rust-hdf5` (pure Rust, no
//! C library: every build has it), whose chunked 2-D datasets grow in place, so a run streams
//! its rows with bounded memory.
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
//!   `vtp` (a triangle mesh as Siconos stores it: one variable-length string, the VTK XML PolyData
//!   text of its points and triangles, which `siconos_vview` draws) and `halfspace` (1 × 3 outward
//!   normal).
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
use crate::shape::{ShapeDesc, ViewGeom};
use crate::simulation::{MechanicsSimulation, MechanicsStepReport};
use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use rust_hdf5::types::VarLenUnicode;
use rust_hdf5::{H5Dataset, H5File, H5Group};
use std::path::{Path, PathBuf};

/// An HDF5 output error: what was being written and the library's message.
#[derive(Debug, thiserror::Error)]
#[error("HDF5 output {what}: {source}")]
pub struct Hdf5OutputError {
    /// The object being written (file, dataset or attribute).
    pub what: String,
    /// The HDF5 library's error.
    #[source]
    pub source: rust_hdf5::Hdf5Error,
}

type Res<T> = std::result::Result<T, Hdf5OutputError>;

fn ctx<T>(r: rust_hdf5::Result<T>, what: impl FnOnce() -> String) -> Res<T> {
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

/// One extendable 2-D float64 table `data/<name>`: its rows not yet in the file.
struct Table {
    name: &'static str,
    cols: usize,
    pending: Vec<f64>,
}

impl Table {
    /// Creates the empty dataset (`0 × cols`, chunked, unlimited rows) in `g`.
    fn create(g: &H5Group, name: &'static str, cols: usize, info: &str, o: &Hdf5Options) -> Res<Self> {
        let what = || format!("dataset data/{name}");
        let mut b =
            g.new_dataset::<f64>().shape([0, cols]).chunk(&[o.chunk_rows.max(1), cols]).max_shape(&[None, Some(cols)]);
        if let Some(level) = o.gzip {
            b = b.deflate(u32::from(level));
        }
        let ds = ctx(b.create(name), what)?;
        str_attr(&ds, "info", info)?;
        Ok(Table { name, cols, pending: Vec::new() })
    }
}

/// Attributes on a group or a dataset (the two carry them through different calls).
trait Attrs {
    fn str_attr(&self, name: &str, value: &str) -> rust_hdf5::Result<()>;
    fn i64_attr(&self, name: &str, value: i64) -> rust_hdf5::Result<()>;
    /// A float64 array attribute of shape `shape` (row-major `value`).
    fn f64_attr(&self, name: &str, value: &[f64], shape: &[usize]) -> rust_hdf5::Result<()>;
}

impl Attrs for H5Group {
    fn str_attr(&self, name: &str, value: &str) -> rust_hdf5::Result<()> {
        self.set_attr_string(name, value)
    }
    fn i64_attr(&self, name: &str, value: i64) -> rust_hdf5::Result<()> {
        self.set_attr_numeric(name, &value)
    }
    fn f64_attr(&self, name: &str, value: &[f64], shape: &[usize]) -> rust_hdf5::Result<()> {
        self.set_attr_array_numeric_nd(name, value, shape)
    }
}

impl Attrs for H5Dataset {
    fn str_attr(&self, name: &str, value: &str) -> rust_hdf5::Result<()> {
        self.new_attr::<VarLenUnicode>().shape(()).create(name)?.write_string(value)
    }
    fn i64_attr(&self, name: &str, value: i64) -> rust_hdf5::Result<()> {
        self.new_attr::<i64>().shape(()).create(name)?.write_numeric(&value)
    }
    fn f64_attr(&self, name: &str, value: &[f64], shape: &[usize]) -> rust_hdf5::Result<()> {
        self.new_attr::<f64>().shape(shape).create(name)?.write_array(value)
    }
}

/// A variable-length UTF-8 string attribute (h5py reads a `str`, as Siconos writes them).
fn str_attr(loc: &impl Attrs, name: &str, value: &str) -> Res<()> {
    ctx(loc.str_attr(name, value), || format!("attribute {name}"))
}

/// A 1-D float64 attribute of `value.len()` entries.
fn f64_attr(loc: &impl Attrs, name: &str, value: &[f64]) -> Res<()> {
    ctx(loc.f64_attr(name, value, &[value.len()]), || format!("attribute {name}"))
}

fn i64_attr(loc: &impl Attrs, name: &str, value: i64) -> Res<()> {
    ctx(loc.i64_attr(name, value), || format!("attribute {name}"))
}

fn quat_wxyz(q: &UnitQuaternion<f64>) -> [f64; 4] {
    [q.w, q.i, q.j, q.k]
}

/// Writes a run in the Siconos `mechanics_hdf5` layout (see the module documentation).
///
/// The file on disk is always a closed, complete HDF5 file: [`create`](Self::create) writes the
/// scene description and closes it; the recorded rows wait in memory and are appended by
/// [`flush`](Self::flush) (reopen, append, close), which [`record`](Self::record) calls at least
/// every [`FLUSH_INTERVAL`] and [`close`](Self::close) at the end.
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
    path: PathBuf,
    dynamic: Table,
    velocities: Table,
    cf: Table,
    solv: Table,
    ids: Vec<i64>,
    every: usize,
    steps: usize,
    /// When the rows were last appended to the file ([`FLUSH_INTERVAL`]).
    last_flush: std::time::Instant,
    /// `false` once [`close`](Self::close) ran (then dropping writes nothing).
    open: bool,
}

/// The recorded steps are appended to the file at least this often, as the CSV output's rows:
/// a run killed between two flushes leaves a file that opens and holds every step recorded
/// before the last flush (between flushes the file on disk is a closed, complete HDF5 file).
pub const FLUSH_INTERVAL: std::time::Duration = std::time::Duration::from_millis(500);

impl MechanicsHdf5Writer {
    /// Creates (truncates) `path`, writes the scene description, `data/static` and the rows of
    /// `data/dynamic` and `data/velocities` at the simulation's current time.
    pub fn create(path: impl AsRef<Path>, sim: &MechanicsSimulation, opts: Hdf5Options) -> Res<Self> {
        let path = path.as_ref();
        let file = ctx(H5File::create(path), || format!("file {}", path.display()))?;
        let dim: i64 = if sim.model.is_planar() { 2 } else { 3 };
        ctx(file.set_attr_numeric("dimension", &dim), || "attribute dimension".into())?;
        let data = ctx(file.create_group("data"), || "group data".into())?;
        let ids = siconos_ids(&sim.model);
        write_description(&data, sim, &ids)?;
        let mut st = Table::create(&data, "static", 9, "time, ds id, translation, orientation", &opts)?;
        let t0 = sim.time();
        for (b, &id) in sim.model.bodies.iter().zip(&ids) {
            if b.kind == BodyKind::Static {
                let s = &b.state;
                st.pending.extend([t0, id as f64, s.position.x, s.position.y, s.position.z]);
                st.pending.extend(quat_wxyz(&s.orientation));
            }
        }
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
        drop(data);
        ctx(file.close_no_sync(), || format!("file {}", path.display()))?;
        let mut w = MechanicsHdf5Writer {
            path: path.to_path_buf(),
            dynamic,
            velocities,
            cf,
            solv,
            ids,
            every: opts.output_frequency.max(1),
            steps: 0,
            last_flush: std::time::Instant::now(),
            open: true,
        };
        append_rows(&w.path, &[&st])?;
        w.write_bodies(sim);
        w.flush()?;
        Ok(w)
    }

    /// Call after every step. Counts the step; after every `output_frequency`-th step records the moving bodies'
    /// poses and twists, the active contacts and the solver's report.
    pub fn record(&mut self, sim: &MechanicsSimulation, report: &MechanicsStepReport) -> Res<()> {
        self.steps += 1;
        if self.steps.is_multiple_of(self.every) {
            self.write_bodies(sim);
            self.write_contacts(sim);
            let (it, res) = report.solver.as_ref().map_or((0.0, 0.0), |r| (r.iterations as f64, r.residual));
            self.solv.pending.extend([sim.time(), it, res, 0.0]);
            if self.last_flush.elapsed() >= FLUSH_INTERVAL {
                self.flush()?;
                self.last_flush = std::time::Instant::now();
            }
        }
        Ok(())
    }

    /// Appends the recorded rows to the file (reopened, grown, closed again).
    pub fn flush(&mut self) -> Res<()> {
        let tables = [&mut self.dynamic, &mut self.velocities, &mut self.cf, &mut self.solv];
        append_rows(&self.path, &tables.iter().map(|t| &**t).collect::<Vec<_>>())?;
        for t in tables {
            t.pending.clear();
        }
        Ok(())
    }

    /// Appends the recorded rows and closes the writer (dropping it does the same without
    /// reporting errors).
    pub fn close(mut self) -> Res<()> {
        self.open = false;
        self.flush()
    }

    fn write_bodies(&mut self, sim: &MechanicsSimulation) {
        let t = sim.time();
        for (b, &id) in sim.model.bodies.iter().zip(&self.ids) {
            if b.kind != BodyKind::Static {
                let s = &b.state;
                self.dynamic.pending.extend([t, id as f64, s.position.x, s.position.y, s.position.z]);
                self.dynamic.pending.extend(quat_wxyz(&s.orientation));
                self.velocities.pending.extend([t, id as f64]);
                self.velocities.pending.extend(s.v.iter().chain(s.omega.iter()));
            }
        }
    }

    fn write_contacts(&mut self, sim: &MechanicsSimulation) {
        let t = sim.time();
        let buf = &mut self.cf.pending;
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
            // H(q_k) v_{k+1}, the step's relative velocity of body 2 to body 1 (the contact's
            // frame), as A's relative to B in A's frame
            let u2 = f * c.velocities.map_or_else(Vector3::zeros, |v| v[1]);
            let u = fa.transpose() * if swap { -u2 } else { u2 };
            buf.extend([t, c.law.mu]);
            for v in [pa, pb, &n, &cf] {
                buf.extend(v.iter());
            }
            buf.extend([c.gap, 0.0, 0.0]);
            buf.extend(u.iter().chain(r.iter()));
            buf.extend([k as f64, self.ids[a.index()] as f64, self.ids[b.index()] as f64]);
        }
    }
}

impl Drop for MechanicsHdf5Writer {
    fn drop(&mut self) {
        if self.open {
            let _ = self.flush();
        }
    }
}

/// Opens the file `path`, appends each table's pending rows, closes it (no `fsync`: a killed
/// process loses nothing the kernel has; the rows since the last flush are what it loses).
fn append_rows(path: &Path, tables: &[&Table]) -> Res<()> {
    if tables.iter().all(|t| t.pending.is_empty()) {
        return Ok(());
    }
    let file = ctx(H5File::open_rw(path), || format!("file {} (reopened)", path.display()))?;
    for t in tables.iter().filter(|t| !t.pending.is_empty()) {
        let name = format!("data/{}", t.name);
        let ds = ctx(file.dataset_writer(&name), || format!("dataset {name}"))?;
        ctx(ds.append(&t.pending), || format!("dataset {name} ({} rows)", t.pending.len() / t.cols))?;
    }
    ctx(file.close_no_sync(), || format!("file {}", path.display()))
}

/// `data/ref`, `data/input`, `data/nslaws`.
fn write_description(data: &H5Group, sim: &MechanicsSimulation, ids: &[i64]) -> Res<()> {
    let model = &sim.model;
    let table = ShapeTable::new(model);
    let refg = ctx(data.create_group("ref"), || "group data/ref".into())?;
    for (k, shape) in table.shapes.iter().enumerate() {
        let name = table.name(k);
        let what = || format!("dataset data/ref/{name}");
        if let ShapeDesc::TriMesh { vertices, indices } = shape {
            // Siconos's layout: one string, the mesh as VTK XML PolyData (what `siconos_vview` draws)
            let vtp = vtk_polydata(vertices, indices);
            let ds = ctx(refg.write_vlen_strings(name.as_str(), &[vtp.as_str()]), what)?;
            i64_attr(&ds, "id", k as i64)?;
            str_attr(&ds, "type", "vtp")?;
            continue;
        }
        let (kind, primitive, cols, values): (&str, Option<&str>, usize, Vec<f64>) = match shape {
            ShapeDesc::Primitive(p) if p.decl().siconos => {
                let d = p.siconos_dims();
                ("primitive", Some(shape.siconos_name()), d.len(), d)
            }
            ShapeDesc::Primitive(p) => {
                // not a Siconos primitive: the vertices of its drawn outline, as a convex shape
                let drawn = shape.build().ok().and_then(|(s, _)| p.view(&s));
                let v = match drawn {
                    Some(ViewGeom::Mesh(v, _)) => v,
                    _ => Vec::new(),
                };
                ("convex", None, 3, v)
            }
            ShapeDesc::ConvexHull { points } => {
                ("convex", None, 3, points.iter().flat_map(|p| p.iter().copied()).collect())
            }
            ShapeDesc::TriMesh { .. } => unreachable!("written above as a VTK string"),
            ShapeDesc::ConvexPolygon { points } => {
                ("convex", None, 2, points.iter().flat_map(|p| p.iter().copied()).collect())
            }
            ShapeDesc::HalfSpace { normal } => ("halfspace", None, 3, normal.normalize().as_slice().to_vec()),
            ShapeDesc::HeightField { heights, .. } => {
                let (nx, ny) = heights.shape();
                ("heightmap", None, ny, (0..nx).flat_map(|i| (0..ny).map(move |j| heights[(i, j)])).collect())
            }
        };
        let ds = ctx(refg.new_dataset::<f64>().shape([values.len() / cols, cols]).create(name.as_str()), what)?;
        ctx(ds.write_raw(&values), what)?;
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
            // row-major 3 × 3: nalgebra stores by columns, so the transpose's storage
            let inertia = b.inertia().transpose();
            ctx(g.f64_attr("inertia", inertia.as_slice(), &[3, 3]), || "attribute inertia".into())?;
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
            let ds = ctx(g.new_dataset::<f64>().shape([0, 0]).create(inst.as_str()), || {
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
                let ds = ctx(laws.new_dataset::<f64>().shape([0]).create(name.as_str()), || format!("law {name}"))?;
                let kind = match (l.impact, l.mu_r > 0.0) {
                    (crate::model::ImpactLaw::Fremond, _) => "FremondImpactFrictionNSL",
                    (_, true) => "NewtonImpactRollingFrictionNSL",
                    (_, false) => "NewtonImpactFrictionNSL",
                };
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

fn contactor_attrs(ds: &H5Dataset, inst: &str, shape: &str, group: u32, offset: &Isometry3<f64>) -> Res<()> {
    str_attr(ds, "instance_name", inst)?;
    str_attr(ds, "shape_name", shape)?;
    i64_attr(ds, "group", i64::from(group))?;
    f64_attr(ds, "translation", offset.translation.vector.as_slice())?;
    f64_attr(ds, "orientation", &quat_wxyz(&offset.rotation))
}

/// A triangle mesh as VTK XML PolyData text (ASCII, the format of Siconos's `add_mesh_from_file`):
/// the points (float64, shortest round-trip decimals: exact) and one polygon per triangle.
pub fn vtk_polydata(vertices: &[nalgebra::Vector3<f64>], triangles: &[[u32; 3]]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(64 * (vertices.len() + triangles.len()) + 512);
    let _ = write!(
        s,
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n  \
         <PolyData>\n    <Piece NumberOfPoints=\"{}\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" \
         NumberOfPolys=\"{}\">\n      <Points>\n        \
         <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n",
        vertices.len(),
        triangles.len()
    );
    for v in vertices {
        let _ = writeln!(s, "          {} {} {}", v.x, v.y, v.z);
    }
    s.push_str("        </DataArray>\n      </Points>\n      <Polys>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
    for t in triangles {
        let _ = writeln!(s, "          {} {} {}", t[0], t[1], t[2]);
    }
    s.push_str("        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
    for k in 1..=triangles.len() {
        let _ = writeln!(s, "          {}", 3 * k);
    }
    s.push_str("        </DataArray>\n      </Polys>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
    s
}
