//! Triangle meshes read from files: STL (ASCII or binary) and Wavefront OBJ, the formats the
//! Siconos tutorials' meshes come in (`MechanicsHdf5Runner.add_mesh_from_file`). The result is a
//! vertex list and triangles as vertex indices, ready for [`ShapeDesc::TriMesh`] (static or
//! kinematic bodies) or [`ShapeDesc::ConvexHull`] (a dynamic body's hull of the mesh).
//!
//! Why our own reader and not a crate: `stl_io` and `tobj` are not in the build's offline
//! registry, and the two formats' geometry parts are a few lines each (STL: a facet is a normal
//! and three vertices; OBJ: `v x y z` and `f i j k …` lines, polygons split into fans). What is
//! not geometry (OBJ materials, texture and normal indices, groups) is skipped. STL repeats a
//! vertex in every facet that uses it: equal vertices (same bits) are merged, so a closed STL
//! surface becomes a closed indexed mesh. CAD formats (STEP, IGES, BREP, used with OpenCascade
//! in Siconos) have no maintained Rust reader: export a tessellated STL or OBJ instead.
//!
//! [`ShapeDesc::TriMesh`]: crate::ShapeDesc::TriMesh
//! [`ShapeDesc::ConvexHull`]: crate::ShapeDesc::ConvexHull

use nalgebra::Vector3;
use std::collections::HashMap;
use std::path::Path;

/// A mesh read from a file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshData {
    /// Vertices (scaled), without duplicates.
    pub vertices: Vec<Vector3<f64>>,
    /// Triangles as indices into `vertices`, in the file's order and orientation.
    pub indices: Vec<[u32; 3]>,
}

/// Why a mesh file could not be read: the file and, for text formats, the line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}{}: {reason}", line.map_or(String::new(), |l| format!(":{l}")))]
pub struct MeshFileError {
    /// The file.
    pub file: String,
    /// The line (1-based) of a text format, when the error is on one.
    pub line: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

impl MeshData {
    /// Volume enclosed by a closed, consistently oriented surface (outward normals):
    /// `V = Σ_t (a · (b × c)) / 6` (the divergence theorem over the triangles `(a, b, c)`).
    pub fn volume(&self) -> f64 {
        let v = &self.vertices;
        self.indices.iter().map(|t| v[t[0] as usize].dot(&v[t[1] as usize].cross(&v[t[2] as usize]))).sum::<f64>() / 6.0
    }
}

/// Collects vertices, merging equal ones (same bits), and triangles.
#[derive(Default)]
struct Builder {
    mesh: MeshData,
    index: HashMap<[u64; 3], u32>,
}

impl Builder {
    fn vertex(&mut self, p: Vector3<f64>) -> u32 {
        let key = [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()];
        let next = self.mesh.vertices.len() as u32;
        *self.index.entry(key).or_insert_with(|| {
            self.mesh.vertices.push(p);
            next
        })
    }
}

/// Reads `path` (format from the extension: `.stl` or `.obj`, any case) and multiplies every
/// coordinate by `scale`.
pub fn read_mesh(path: &Path, scale: f64) -> Result<MeshData, MeshFileError> {
    let file = path.display().to_string();
    let fail = |line: Option<usize>, reason: String| MeshFileError { file: file.clone(), line, reason };
    if !(scale.is_finite() && scale > 0.0) {
        return Err(fail(None, format!("the scale must be finite and > 0, got {scale}")));
    }
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let parse = match ext.as_deref() {
        Some("stl") => parse_stl,
        Some("obj") => parse_obj,
        _ => return Err(fail(None, "unknown mesh format: the file name must end in .stl or .obj".into())),
    };
    let bytes = std::fs::read(path).map_err(|e| fail(None, format!("cannot read: {e}")))?;
    let mesh = parse(&bytes, scale).map_err(|(line, reason)| fail(line, reason))?;
    if mesh.indices.is_empty() {
        return Err(fail(None, "the file holds no triangle".into()));
    }
    Ok(mesh)
}

type ParseResult = Result<MeshData, (Option<usize>, String)>;

/// STL, binary (80-byte header, `u32` count, 50 bytes per facet) or ASCII (`solid … facet normal …
/// outer loop vertex x y z ×3 endloop endfacet … endsolid`). A file whose size is exactly that of
/// a binary STL of its count is binary (some binary headers begin with `solid`).
pub fn parse_stl(bytes: &[u8], scale: f64) -> ParseResult {
    if bytes.len() >= 84 {
        let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if n.checked_mul(50).and_then(|b| b.checked_add(84)) == Some(bytes.len()) {
            return parse_stl_binary(&bytes[84..], n, scale);
        }
    }
    if !bytes.trim_ascii_start().starts_with(b"solid") {
        return Err((None, "neither a binary STL (size ≠ 84 + 50 × count) nor an ASCII one (no `solid`)".into()));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| (None, "an ASCII STL that is not UTF-8 text".to_string()))?;
    let mut b = Builder::default();
    let mut facet: Vec<u32> = Vec::with_capacity(3);
    for (k, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("vertex") => {
                let p = three(&mut words).ok_or((Some(k + 1), "`vertex` needs three numbers".to_string()))?;
                facet.push(b.vertex(p * scale));
            }
            Some("endloop") => {
                let [i, j, l] = facet[..] else {
                    return Err((Some(k + 1), format!("a facet has {} vertices, expected 3", facet.len())));
                };
                b.mesh.indices.push([i, j, l]);
                facet.clear();
            }
            _ => {}
        }
    }
    Ok(b.mesh)
}

fn three<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<Vector3<f64>> {
    let mut v = [0.0f64; 3];
    for x in &mut v {
        *x = words.next()?.parse().ok()?;
    }
    v.iter().all(|x| x.is_finite()).then(|| Vector3::from(v))
}

fn parse_stl_binary(data: &[u8], n: usize, scale: f64) -> ParseResult {
    let mut b = Builder::default();
    for (t, rec) in data.chunks_exact(50).take(n).enumerate() {
        let f = |i: usize| f32::from_le_bytes([rec[4 * i], rec[4 * i + 1], rec[4 * i + 2], rec[4 * i + 3]]) as f64;
        let mut tri = [0u32; 3];
        for (c, idx) in tri.iter_mut().enumerate() {
            let p = Vector3::new(f(3 + 3 * c), f(4 + 3 * c), f(5 + 3 * c));
            if !p.iter().all(|x| x.is_finite()) {
                return Err((None, format!("facet {t}: a non-finite vertex")));
            }
            *idx = b.vertex(p * scale);
        }
        b.mesh.indices.push(tri);
    }
    Ok(b.mesh)
}

/// Wavefront OBJ: `v x y z [w]` vertices and `f a b c …` faces (indices from 1, negative ones
/// relative to the end, `a/t/n` forms keep the vertex index), polygons split into fans.
pub fn parse_obj(bytes: &[u8], scale: f64) -> ParseResult {
    let text = std::str::from_utf8(bytes).map_err(|_| (None, "an OBJ file that is not UTF-8 text".to_string()))?;
    let mut mesh = MeshData { vertices: Vec::new(), indices: Vec::new() };
    let mut face = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let at = |reason: String| (Some(k + 1), reason);
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let p = three(&mut words).ok_or_else(|| at("`v` needs three finite numbers".into()))?;
                mesh.vertices.push(p * scale);
            }
            Some("f") => {
                face.clear();
                for w in words {
                    let first = w.split('/').next().unwrap_or("");
                    let i: i64 = first.parse().map_err(|_| at(format!("`{w}` is not a vertex index")))?;
                    let n = mesh.vertices.len() as i64;
                    let i = if i < 0 { n + i } else { i - 1 };
                    if !(0..n).contains(&i) {
                        return Err(at(format!("vertex `{first}` is not among the {n} vertices read so far")));
                    }
                    face.push(i as u32);
                }
                if face.len() < 3 {
                    return Err(at(format!("a face has {} vertices, at least 3 are needed", face.len())));
                }
                for j in 1..face.len() - 1 {
                    mesh.indices.push([face[0], face[j], face[j + 1]]);
                }
            }
            _ => {}
        }
    }
    Ok(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit cube `[0, 1]³` with outward faces, as 12 triangles.
    fn cube_triangles() -> Vec<[[f64; 3]; 3]> {
        let c = |i: u32| [f64::from(i & 1), f64::from((i >> 1) & 1), f64::from((i >> 2) & 1)];
        // quads (outward, counter-clockwise seen from outside) by corner bits (x, y, z)
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        quads.iter().flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]]).collect()
    }

    fn ascii_stl(tris: &[[[f64; 3]; 3]]) -> String {
        let mut s = String::from("solid cube\n");
        for t in tris {
            s += "  facet normal 0 0 0\n    outer loop\n";
            for v in t {
                s += &format!("      vertex {} {} {}\n", v[0], v[1], v[2]);
            }
            s += "    endloop\n  endfacet\n";
        }
        s + "endsolid cube\n"
    }

    fn binary_stl(tris: &[[[f64; 3]; 3]]) -> Vec<u8> {
        let mut b = b"solid but binary".to_vec();
        b.resize(80, b' ');
        b.extend_from_slice(&(tris.len() as u32).to_le_bytes());
        for t in tris {
            b.extend_from_slice(&[0u8; 12]);
            for v in t {
                for x in v {
                    b.extend_from_slice(&(*x as f32).to_le_bytes());
                }
            }
            b.extend_from_slice(&[0u8; 2]);
        }
        b
    }

    #[test]
    fn the_unit_cube_in_both_stl_forms_is_closed_with_volume_one() {
        let tris = cube_triangles();
        for mesh in [parse_stl(ascii_stl(&tris).as_bytes(), 2.0).unwrap(), parse_stl(&binary_stl(&tris), 2.0).unwrap()]
        {
            assert_eq!((mesh.vertices.len(), mesh.indices.len()), (8, 12));
            assert!((mesh.volume() - 8.0).abs() < 1e-12, "{}", mesh.volume());
            // closed: every edge is used once in each direction
            let mut edges = std::collections::HashSet::new();
            for t in &mesh.indices {
                for k in 0..3 {
                    assert!(edges.insert((t[k], t[(k + 1) % 3])));
                }
            }
            assert!(edges.iter().all(|&(a, b)| edges.contains(&(b, a))));
        }
    }

    #[test]
    fn obj_quads_become_fans_and_indices_may_be_relative() {
        let text =
            "# a unit cube\nmtllib x.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n\
                    f 1 3 4 2\nf 5/1 6/2 8/3 7/4\nf 1//1 2//1 6//1 5//1\nf -6 -2 -1 -5\nf 1 5 7 3\nf 2 4 8 6\n";
        let mesh = parse_obj(text.as_bytes(), 1.0).unwrap();
        assert_eq!((mesh.vertices.len(), mesh.indices.len()), (8, 12));
        assert!((mesh.volume() - 1.0).abs() < 1e-12, "{}", mesh.volume());
        let e = parse_obj(b"v 0 0 0\nv 1 0 0\nf 1 2 3\n", 1.0).unwrap_err();
        assert_eq!(e.0, Some(3));
        assert!(e.1.contains("`3` is not among the 2 vertices"), "{}", e.1);
    }

    #[test]
    fn bad_files_say_where() {
        let e = parse_stl(b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\nendloop\n", 1.0).unwrap_err();
        assert_eq!(e, (Some(4), "`vertex` needs three numbers".to_string()));
        let e = parse_stl(b"not a mesh", 1.0).unwrap_err();
        assert!(e.1.contains("neither a binary STL"), "{}", e.1);
        let dir = std::env::temp_dir().join(format!("saltus-mesh-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("m.ply");
        std::fs::write(&p, "ply").unwrap();
        let e = read_mesh(&p, 1.0).unwrap_err().to_string();
        assert!(e.contains("m.ply: unknown mesh format"), "{e}");
        let p = dir.join("empty.obj");
        std::fs::write(&p, "v 0 0 0\n").unwrap();
        assert!(read_mesh(&p, 1.0).unwrap_err().to_string().contains("no triangle"));
        assert!(read_mesh(&p, 0.0).unwrap_err().to_string().contains("scale"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The Stanford bunny of the Siconos tutorials (`GeometricPrimitives/bunny.stl`, ASCII), when
    /// the corpus is beside the project: 157 vertices once merged (the facets repeat them), 309
    /// triangles, every edge shared by two of them but three (the low-poly model has a 2-edge
    /// hole and one edge on three triangles, as Python's reading of the file finds too), and a
    /// positive volume (outward facets).
    #[test]
    fn the_tutorials_bunny_is_an_almost_closed_surface() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/siconos-tutorials/examples/mechanics/GeometricPrimitives/bunny.stl");
        if !path.exists() {
            eprintln!("skipped: {} is absent", path.display());
            return;
        }
        let mesh = read_mesh(&path, 0.01).unwrap();
        assert_eq!((mesh.vertices.len(), mesh.indices.len()), (157, 309));
        let mut edges = HashMap::new();
        for t in &mesh.indices {
            for k in 0..3 {
                *edges.entry((t[k].min(t[(k + 1) % 3]), t[k].max(t[(k + 1) % 3]))).or_insert(0) += 1;
            }
        }
        let not_two: Vec<_> = edges.values().filter(|&&n| n != 2).collect();
        assert_eq!(not_two.len(), 3, "{not_two:?}");
        assert!(mesh.volume() > 0.0, "inward normals: {}", mesh.volume());
    }
}
