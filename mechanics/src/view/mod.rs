//! A self-contained HTML page that plays a run in 3D: a small hand-written WebGL viewer
//! (`page.html`, no network, no library) with the scene and the recorded poses embedded.
//!
//! ```no_run
//! # use saltus_mechanics::{scenes, view::Recording};
//! let scene = scenes::spheres_in_a_box(125, 1).unwrap();
//! let n = scene.n_steps();
//! let mut sim = scene.into_simulation().unwrap();
//! let mut rec = Recording::new(&sim.model);
//! rec.record(&sim);
//! for k in 1..=n {
//!     sim.step().unwrap();
//!     if k % 20 == 0 {
//!         rec.record(&sim);
//!     }
//! }
//! rec.write_html("spheres.html").unwrap();
//! ```
//!
//! Embedded data: one JSON object (`geoms`: the distinct shapes, as primitives or triangle
//! lists; `inst`: one entry per collider with its body and offset; `bodies`: name, kind and
//! pose at the start; `moving`: the bodies whose poses are recorded; `times`), and the frames as
//! base64 little-endian `Float32` data, 7 numbers per moving body and frame:
//! `x, y, z, qw, qx, qy, qz`. The page sets `document.title` to `ok N bodies` once it has drawn
//! the first frame (`error: …` if WebGL is missing), which the headless-browser test reads.

use crate::body::BodyKind;
use crate::scene_desc::ShapeTable;
use crate::shape::{ShapeDesc, ViewGeom};
use crate::simulation::MechanicsSimulation;
use crate::MechanicsModel;
use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use std::fmt::Write as _;
use std::path::Path;

mod json;
use json::{base64, num, nums};

const PAGE: &str = include_str!("page.html");

/// Poses of the moving bodies at the recorded times, and the scene needed to draw them.
#[derive(Debug, Clone)]
pub struct Recording {
    scene_json: String,
    moving: Vec<usize>,
    times: Vec<f64>,
    frames: Vec<f32>,
}

fn pose7(x: &Vector3<f64>, q: &UnitQuaternion<f64>) -> [f64; 7] {
    [x.x, x.y, x.z, q.w, q.i, q.j, q.k]
}

/// The triangles of a shape that the page does not build itself.
fn triangles(d: &ShapeDesc, c: &crate::Collider, extent: f64) -> Option<(Vec<f64>, Vec<u32>)> {
    let flat = |v: Vec<Vector3<f64>>| v.iter().flat_map(|p| [p.x, p.y, p.z]).collect::<Vec<f64>>();
    let idx = |i: Vec<[u32; 3]>| i.into_iter().flatten().collect::<Vec<u32>>();
    match d {
        ShapeDesc::ConvexHull { .. } | ShapeDesc::ConvexPolygon { .. } => match ViewGeom::polyhedron(c.shape())? {
            ViewGeom::Mesh(v, i) => Some((v, i)),
            _ => None,
        },
        ShapeDesc::TriMesh { vertices, indices } => Some((flat(vertices.clone()), idx(indices.clone()))),
        ShapeDesc::HalfSpace { normal } => {
            // A square of side 2·extent on the boundary plane.
            let n = normal.normalize();
            let a = if n.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() };
            let u = n.cross(&a).normalize() * extent;
            let w = n.cross(&u);
            Some((flat(vec![-u - w, u - w, u + w, -u + w]), vec![0, 1, 2, 0, 2, 3]))
        }
        ShapeDesc::HeightField { heights, size } => {
            let (nx, ny) = heights.shape();
            let mut v = Vec::with_capacity(3 * nx * ny);
            for i in 0..nx {
                for j in 0..ny {
                    let x = -0.5 * size.x + i as f64 * size.x / (nx - 1) as f64;
                    let y = -0.5 * size.y + j as f64 * size.y / (ny - 1) as f64;
                    v.extend([x, y, heights[(i, j)]]);
                }
            }
            let mut t = Vec::new();
            for i in 0..nx - 1 {
                for j in 0..ny - 1 {
                    let k = (i * ny + j) as u32;
                    let (r, d, rd) = (k + ny as u32, k + 1, k + ny as u32 + 1);
                    t.extend([k, r, rd, k, rd, d]);
                }
            }
            Some((v, t))
        }
        ShapeDesc::Primitive(_) => None,
    }
}

impl Recording {
    /// The scene of `model` (shapes, colliders, bodies at their current pose), no frame yet.
    pub fn new(model: &MechanicsModel) -> Self {
        let table = ShapeTable::new(model);
        // Size of the scene, for half-spaces and the camera.
        let extent = model
            .bodies
            .iter()
            .filter(|b| b.kind != BodyKind::Static)
            .map(|b| b.state.position.norm())
            .fold(0.0f64, f64::max)
            .max(1e-3)
            * 3.0;
        let mut s = String::from("{\"geoms\":[");
        for (k, d) in table.shapes.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            let first = table.of_collider.iter().position(|&g| g == k).expect("every shape has a collider");
            let c = &model.colliders[first];
            let geom = match d {
                ShapeDesc::Primitive(p) => p.view(c.shape()),
                _ => triangles(d, c, extent).map(|(v, i)| ViewGeom::Mesh(v, i)),
            };
            match geom.unwrap_or(ViewGeom::Mesh(Vec::new(), Vec::new())) {
                ViewGeom::Sphere(r) => write!(s, "{{\"k\":\"sphere\",\"r\":{}}}", num(r)),
                ViewGeom::Box(h) => write!(s, "{{\"k\":\"box\",\"h\":{}}}", nums(&h)),
                ViewGeom::Capsule(r, hh) => write!(s, "{{\"k\":\"capsule\",\"r\":{},\"hh\":{}}}", num(r), num(hh)),
                ViewGeom::Cylinder(r, hh) => write!(s, "{{\"k\":\"cylinder\",\"r\":{},\"hh\":{}}}", num(r), num(hh)),
                ViewGeom::Mesh(v, i) => {
                    let i: Vec<f64> = i.into_iter().map(f64::from).collect();
                    write!(s, "{{\"k\":\"mesh\",\"v\":{},\"i\":{}}}", nums(&v), nums(&i))
                }
            }
            .expect("write to String");
        }
        s.push_str("],\"inst\":[");
        for (ci, c) in model.colliders.iter().enumerate() {
            let o: &Isometry3<f64> = &c.offset;
            let p = pose7(&o.translation.vector, &o.rotation);
            let sep = if ci > 0 { "," } else { "" };
            write!(s, "{sep}{{\"g\":{},\"b\":{},\"o\":{}}}", table.of_collider[ci], c.body.0, nums(&p)).expect("write");
        }
        s.push_str("],\"bodies\":[");
        let mut moving = Vec::new();
        for (i, b) in model.bodies.iter().enumerate() {
            let kind = match b.kind {
                BodyKind::Dynamic => 0,
                BodyKind::Static => 1,
                BodyKind::Kinematic => 2,
            };
            if b.kind != BodyKind::Static {
                moving.push(i);
            }
            let p = pose7(&b.state.position, &b.state.orientation);
            let sep = if i > 0 { "," } else { "" };
            write!(s, "{sep}{{\"name\":{},\"kind\":{kind},\"pose\":{}}}", json::string(&b.name), nums(&p))
                .expect("write");
        }
        s.push(']');
        Recording { scene_json: s, moving, times: Vec::new(), frames: Vec::new() }
    }

    /// Appends a frame: the time and the poses of the moving bodies of `sim`.
    pub fn record(&mut self, sim: &MechanicsSimulation) {
        self.times.push(sim.time());
        for &i in &self.moving {
            let s = &sim.model.bodies[i].state;
            self.frames.extend(pose7(&s.position, &s.orientation).map(|x| x as f32));
        }
    }

    /// Appends a frame at time `t` from the poses of the moving bodies in model order, 7 numbers
    /// each (`x y z qw qx qy qz`, every `stride` numbers of `poses`: a row of the runtime's body
    /// table is `t` then 13 numbers per moving body, its pose first). A NaN pose marks a body that
    /// does not exist in that frame (outside its lifetime): the page does not draw it.
    pub fn push_frame(&mut self, t: f64, poses: &[f64], stride: usize) {
        self.times.push(t);
        for b in 0..self.moving.len() {
            let p = poses.get(b * stride..b * stride + 7).unwrap_or(&[0.0; 7]);
            self.frames.extend(p.iter().map(|&x| x as f32));
        }
    }

    /// The recorded pose (`x y z qw qx qy qz`) of the `m`-th moving body in frame `k`.
    pub fn frame_pose(&self, k: usize, m: usize) -> Option<&[f32]> {
        let o = 7 * (k * self.moving.len() + m);
        self.frames.get(o..o + 7)
    }

    /// Number of recorded frames.
    pub fn n_frames(&self) -> usize {
        self.times.len()
    }

    /// The page as a string.
    pub fn html(&self) -> String {
        let bytes: Vec<u8> = self.frames.iter().flat_map(|x| x.to_le_bytes()).collect();
        let data = format!(
            "{},\"moving\":{},\"times\":{}}}",
            self.scene_json,
            nums(&self.moving.iter().map(|&i| i as f64).collect::<Vec<_>>()),
            nums(&self.times)
        );
        // `</` never occurs in the JSON (no such text in numbers; names are escaped).
        PAGE.replace("/*SCENE*/null", &data).replace("FRAMES_BASE64", &base64(&bytes))
    }

    /// Writes the page to `path`.
    pub fn write_html(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(path, self.html())
    }
}
