//! What the writers ([`crate::io_hdf5`], [`crate::view`]) share: Siconos object ids and the
//! distinct shapes of a model.
//!
//! Ids follow Siconos `MechanicsHdf5.add_object`: moving bodies (dynamic, and here also
//! kinematic) are numbered `1, 2, …` in the order they were added, static bodies `−1, −2, …`.

use crate::body::BodyKind;
use crate::model::MechanicsModel;
use crate::shape::{Primitive, ShapeDesc};
use std::collections::HashMap;

/// Siconos id of every body, indexed by body index.
pub fn siconos_ids(model: &MechanicsModel) -> Vec<i64> {
    let (mut moving, mut fixed) = (0i64, 0i64);
    model
        .bodies
        .iter()
        .map(|b| {
            if b.kind == BodyKind::Static {
                fixed += 1;
                -fixed
            } else {
                moving += 1;
                moving
            }
        })
        .collect()
}

/// A bit-exact key of a shape description (equal keys ⇔ equal parameters).
fn shape_key(d: &ShapeDesc) -> Vec<u64> {
    let bits = |v: &mut Vec<u64>, xs: &[f64]| v.extend(xs.iter().map(|x| x.to_bits()));
    let mut k = Vec::new();
    match d {
        ShapeDesc::Primitive(p) => {
            let tag = Primitive::DECLS.iter().position(|d| d.element == p.decl().element).unwrap_or(usize::MAX);
            bits(&mut k, &[100.0 + tag as f64]);
            bits(&mut k, &p.params());
        }
        ShapeDesc::ConvexHull { points } => {
            bits(&mut k, &[4.0]);
            points.iter().for_each(|p| bits(&mut k, p.as_slice()));
        }
        ShapeDesc::TriMesh { vertices, indices } => {
            bits(&mut k, &[5.0, vertices.len() as f64]);
            vertices.iter().for_each(|p| bits(&mut k, p.as_slice()));
            k.extend(indices.iter().flatten().map(|&i| u64::from(i)));
        }
        ShapeDesc::HalfSpace { normal } => bits(&mut k, &[6.0, normal.x, normal.y, normal.z]),
        ShapeDesc::ConvexPolygon { points } => {
            bits(&mut k, &[12.0]);
            points.iter().for_each(|p| bits(&mut k, p.as_slice()));
        }
        ShapeDesc::HeightField { heights, size } => {
            bits(&mut k, &[7.0, heights.nrows() as f64, size.x, size.y]);
            bits(&mut k, heights.as_slice());
        }
    }
    k
}

/// The distinct shapes of a model and, for every collider, the index of its shape.
#[derive(Debug, Clone)]
pub struct ShapeTable {
    /// Distinct shapes, in order of first use.
    pub shapes: Vec<ShapeDesc>,
    /// Index in [`ShapeTable::shapes`] of each collider of the model.
    pub of_collider: Vec<usize>,
}

impl ShapeTable {
    /// Deduplicates the colliders' shapes (bit-exact parameter equality).
    pub fn new(model: &MechanicsModel) -> Self {
        let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
        let mut shapes = Vec::new();
        let of_collider = model
            .colliders
            .iter()
            .map(|c| {
                *seen.entry(shape_key(&c.desc)).or_insert_with(|| {
                    shapes.push(c.desc.clone());
                    shapes.len() - 1
                })
            })
            .collect();
        ShapeTable { shapes, of_collider }
    }
    /// Name of shape `k` in output files: its Siconos primitive name (or kind) and `k`.
    pub fn name(&self, k: usize) -> String {
        let kind = self.shapes[k].siconos_name();
        format!("{kind}{k}")
    }
}
