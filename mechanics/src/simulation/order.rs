//! The order of the active contacts in the friction-contact problem, which is the order in
//! which NSGS visits them.

use super::MechanicsSimulation;

/// Order of the active contacts in each step's friction-contact problem (the NSGS sweep order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactOrder {
    /// By contact key (collider pair, sub-shapes, features): the detection order.
    #[default]
    Key,
    /// Bottom of the pile first: by height `−g·p` of the contact point `p` (mid-point of the two
    /// surface points) along gravity `g`, ties by key. A sweep then carries the weight of a
    /// stack from its support upwards in one pass. Without gravity it is the key order.
    AlongGravity,
}

impl MechanicsSimulation {
    /// Reorders the active contacts (and everything indexed like them: frames, rows, `q`, `μ`,
    /// warm start) by [`ContactOrder::AlongGravity`].
    pub(super) fn order_along_gravity(&mut self) {
        let n = self.active.len();
        let g = self.model.gravity;
        if n < 2 || g == nalgebra::Vector3::zeros() {
            return;
        }
        let height = |k: u32| {
            let c = &self.contacts[k as usize];
            -g.dot(&(0.5 * (c.point1 + c.point2)))
        };
        let mut perm: Vec<(f64, usize)> = self.active.iter().enumerate().map(|(a, &k)| (height(k), a)).collect();
        // Ties keep the key order (`a` increases with the key): a total, deterministic order.
        perm.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        permute(&mut self.active, &perm, 1);
        permute(&mut self.frames, &perm, 1);
        permute(&mut self.asm.rows, &perm, 1);
        permute(&mut self.q, &perm, 3);
        permute(&mut self.mu, &perm, 1);
        permute(&mut self.r, &perm, 3);
    }
}

/// `v ← [chunk perm[0].1, chunk perm[1].1, …]` for chunks of `width` entries.
fn permute<T: Copy>(v: &mut Vec<T>, perm: &[(f64, usize)], width: usize) {
    let old = std::mem::take(v);
    v.extend(perm.iter().flat_map(|&(_, a)| old[a * width..(a + 1) * width].iter().copied()));
}
