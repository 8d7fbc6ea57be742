//! Broad phase: a uniform grid over the colliders' bounding boxes, deterministic and linear in
//! the number of colliders for piles of similar-sized bodies.
//!
//! The cell size `c` is the largest extent of a dynamic collider's (loosened) box, so two
//! overlapping boxes of size `≤ c` have their lower corners in neighbouring cells: each collider
//! is filed under the cell of its lower corner, colliders are sorted by (cell, index), and each
//! one looks at the 27 neighbouring cells (9 binary searches of contiguous `x` runs). Colliders
//! larger than `c` (walls, meshes, height fields, half-spaces) are tested against every dynamic
//! collider (a half-space with a plane test). Candidate pairs `(i, j)`, `i < j` (collider
//! indices), come out sorted, independent of thread count and of the order of floating-point
//! events.

use crate::par;
use nalgebra::Vector3;

/// A collider's box and what the broad phase needs to know about it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BroadEntry {
    /// Lower corner of the loosened world box.
    pub mins: Vector3<f64>,
    /// Upper corner.
    pub maxs: Vector3<f64>,
    /// Owned by a dynamic body.
    pub dynamic: bool,
    /// World plane `n·p = d` of a half-space (unbounded box), if it is one.
    pub plane: Option<(Vector3<f64>, f64)>,
}

/// Grid broad phase with buffers reused between steps.
#[derive(Debug, Default, Clone)]
pub(crate) struct BroadPhase {
    cells: Vec<([i64; 3], u32)>,
    large: Vec<u32>,
    /// Candidate pairs of the last update, sorted.
    pub pairs: Vec<(u32, u32)>,
}

#[inline]
fn overlap(a: &BroadEntry, b: &BroadEntry) -> bool {
    (0..3).all(|k| a.mins[k] <= b.maxs[k] && b.mins[k] <= a.maxs[k])
}

#[inline]
fn cell_of(x: f64, inv_c: f64) -> i64 {
    // Clamped so that the neighbours ±1 never overflow (far colliders share the edge cells).
    ((x * inv_c).floor()).clamp(-(1i64 << 52) as f64, (1i64 << 52) as f64) as i64
}

impl BroadPhase {
    /// Recomputes [`BroadPhase::pairs`]; `accept(i, j)` filters pairs (same body, no law, …).
    /// On large scenes the search runs on chunks of the sorted cells in parallel (`crate::par`);
    /// the pairs are sorted at the end, so they are the same on any number of threads.
    pub fn update(&mut self, entries: &[BroadEntry], accept: impl Fn(u32, u32) -> bool + Sync) {
        self.pairs.clear();
        self.cells.clear();
        self.large.clear();
        let mut c = 0.0f64;
        for e in entries.iter().filter(|e| e.dynamic) {
            let ext = e.maxs - e.mins;
            c = c.max(ext.max());
        }
        if !(c > 0.0 && c.is_finite()) {
            return; // no dynamic collider
        }
        let inv_c = 1.0 / c;
        for (i, e) in entries.iter().enumerate() {
            let ext = e.maxs - e.mins;
            if e.plane.is_some() || !(ext.max() <= c) {
                self.large.push(i as u32);
            } else {
                let k = [cell_of(e.mins.z, inv_c), cell_of(e.mins.y, inv_c), cell_of(e.mins.x, inv_c)];
                self.cells.push((k, i as u32));
            }
        }
        par::sort_unstable(&mut self.cells);
        let (cells, large) = (&self.cells, &self.large);
        let search = |_, chunk: &[([i64; 3], u32)], pairs: &mut Vec<(u32, u32)>| {
            for &([cz, cy, cx], i) in chunk {
                let ei = &entries[i as usize];
                for dz in -1..=1 {
                    for dy in -1..=1 {
                        let lo = [cz + dz, cy + dy, cx - 1];
                        let hi = [cz + dz, cy + dy, cx + 1];
                        let start = cells.partition_point(|(k, _)| *k < lo);
                        for &(k, j) in &cells[start..] {
                            if k > hi {
                                break;
                            }
                            if j <= i {
                                continue;
                            }
                            let ej = &entries[j as usize];
                            if (ei.dynamic || ej.dynamic) && overlap(ei, ej) && accept(i, j) {
                                pairs.push((i, j));
                            }
                        }
                    }
                }
                // the large colliders against this dynamic one
                if !ei.dynamic {
                    continue;
                }
                for &l in large {
                    let el = &entries[l as usize];
                    let hit = match el.plane {
                        Some((n, d)) => {
                            let centre = 0.5 * (ei.mins + ei.maxs);
                            let half = 0.5 * (ei.maxs - ei.mins);
                            n.dot(&centre) - n.abs().dot(&half) <= d
                        }
                        None => overlap(el, ei),
                    };
                    let (a, b) = if l < i { (l, i) } else { (i, l) };
                    if hit && accept(a, b) {
                        pairs.push((a, b));
                    }
                }
            }
            Ok::<(), ()>(())
        };
        // the search cannot fail (`Ok` always)
        let _ = par::extend_by_chunks(cells, &mut self.pairs, search);
        par::sort_unstable(&mut self.pairs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(x: f64, y: f64, z: f64, h: f64, dynamic: bool) -> BroadEntry {
        let c = Vector3::new(x, y, z);
        BroadEntry { mins: c.add_scalar(-h), maxs: c.add_scalar(h), dynamic, plane: None }
    }

    /// Same pairs as the all-pairs test, on a random cloud with a few large static boxes.
    #[test]
    fn grid_finds_exactly_the_overlapping_pairs() {
        let mut s = 12345u64;
        let mut rnd = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut e: Vec<BroadEntry> = (0..400).map(|_| boxed(rnd() * 3.0, rnd() * 3.0, rnd(), 0.1, true)).collect();
        e.push(boxed(1.0, 1.0, -0.5, 0.6, false));
        e.push(boxed(0.1, 0.1, 0.1, 0.05, false));
        let n = Vector3::new(0.0, 0.0, 1.0);
        e.push(BroadEntry {
            mins: Vector3::repeat(-1e300),
            maxs: Vector3::repeat(1e300),
            dynamic: false,
            plane: Some((n, 0.2)),
        });
        let mut bp = BroadPhase::default();
        bp.update(&e, |_, _| true);
        let mut brute = Vec::new();
        for i in 0..e.len() {
            for j in i + 1..e.len() {
                let hit = match (e[i].plane, e[j].plane) {
                    (None, Some((n, d))) => e[i].dynamic && n.dot(&e[i].mins) <= d,
                    _ => overlap(&e[i], &e[j]),
                };
                if (e[i].dynamic || e[j].dynamic) && hit {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        assert_eq!(bp.pairs, brute);
        assert!(bp.pairs.len() > 400);
    }
}
