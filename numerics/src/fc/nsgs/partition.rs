//! The slabs of NSGS on slabs ([`super::domains`]): breadth-first levels of the contact graph
//! (contacts `α ≠ β` adjacent when `W_αβ` or `W_βα` is stored) cut into `2P` runs of consecutive
//! levels. A level is adjacent only to itself and the levels next to it, so slab `j` shares
//! stored blocks only with slabs `j − 1` and `j + 1`.

use crate::matrix::BlockCsr;
use std::ops::Range;

/// The split of the contacts: `perm[i]` is the contact at position `i` of the slab order, and
/// `parts[j]` the positions of slab `j` (slabs `j` and `k` share no stored block unless
/// `|j − k| ≤ 1`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Partition {
    pub perm: Vec<usize>,
    pub parts: Vec<Range<usize>>,
}

impl Partition {
    /// The number of parts of a phase `P` (half the slabs).
    pub fn n_domains(&self) -> usize {
        self.parts.len() / 2
    }
}

/// The symmetric adjacency of the stored blocks of `w` (diagonal blocks left out), as CSR with
/// each contact's neighbours in increasing order (the pairs come sorted by later contact, then
/// earlier one).
fn adjacency(w: &BlockCsr) -> (Vec<usize>, Vec<usize>) {
    let nc = w.n_block_rows();
    let pairs = super::coupled_pairs(w);
    let mut ptr = vec![0; nc + 1];
    for &(a, b) in &pairs {
        ptr[a + 1] += 1;
        ptr[b + 1] += 1;
    }
    for a in 0..nc {
        ptr[a + 1] += ptr[a];
    }
    let mut fill = ptr[..nc].to_vec();
    let mut adj = vec![0; ptr[nc]];
    for &(a, b) in &pairs {
        adj[fill[a]] = b;
        fill[a] += 1;
        adj[fill[b]] = a;
        fill[b] += 1;
    }
    (ptr, adj)
}

/// Breadth-first levels of every contact: each connected component from a pseudo-peripheral
/// contact (the last one reached from its smallest contact), its levels numbered after those of
/// the components before it. Returns the level of each contact and the number of levels.
fn bfs_levels(ptr: &[usize], adj: &[usize]) -> (Vec<usize>, usize) {
    let nc = ptr.len() - 1;
    let mut level = vec![usize::MAX; nc];
    let mut stamp = vec![usize::MAX; nc];
    let (mut queue, mut depth_of) = (Vec::with_capacity(nc), Vec::with_capacity(nc));
    let mut n_levels = 0;
    // BFS from `s` over its component, marking with `mark`; returns the last contact reached and
    // the depth, and writes `base +` the distances into `dist` when given.
    let mut bfs = |s: usize, mark: usize, stamp: &mut [usize], dist: Option<(&mut [usize], usize)>| {
        queue.clear();
        queue.push(s);
        stamp[s] = mark;
        depth_of.clear();
        depth_of.push(0usize);
        let mut head = 0;
        while head < queue.len() {
            let (a, da) = (queue[head], depth_of[head]);
            head += 1;
            for &b in &adj[ptr[a]..ptr[a + 1]] {
                if stamp[b] != mark {
                    stamp[b] = mark;
                    queue.push(b);
                    depth_of.push(da + 1);
                }
            }
        }
        let mut deepest = 0;
        if let Some((dist, base)) = dist {
            for (&a, &da) in queue.iter().zip(&depth_of) {
                dist[a] = base + da;
                deepest = deepest.max(da);
            }
        }
        (*queue.last().unwrap_or(&s), deepest)
    };
    for s in 0..nc {
        if level[s] != usize::MAX {
            continue;
        }
        let (far, _) = bfs(s, 2 * s, &mut stamp, None);
        let (_, deepest) = bfs(far, 2 * s + 1, &mut stamp, Some((&mut level, n_levels)));
        n_levels += deepest + 1;
    }
    (level, n_levels)
}

/// The first level of each of `n_slabs` slabs of consecutive levels with about equal work
/// (`sizes`: the work of each level, `n` their sum): slab `k` ends at the level boundary nearest
/// to `(k + 1)·n/n_slabs`, keeping
/// at least one level for each slab. `None` when there are fewer levels than slabs.
fn slabs(sizes: &[usize], n_slabs: usize) -> Option<Vec<usize>> {
    let m = sizes.len();
    if n_slabs < 2 || m < n_slabs {
        return None;
    }
    let n: usize = sizes.iter().sum();
    let mut firsts = vec![0usize];
    let (mut l, mut cum) = (0usize, 0usize);
    for k in 1..n_slabs {
        let target = k * n / n_slabs;
        // take at least one level; stop where the next level would overshoot more than it helps,
        // or where the remaining slabs need the remaining levels
        cum += sizes[l];
        l += 1;
        while l < m - (n_slabs - k) && cum + sizes[l] <= target + (target - cum.min(target)).min(sizes[l] / 2) {
            cum += sizes[l];
            l += 1;
        }
        firsts.push(l);
    }
    Some(firsts)
}

/// The first levels of four slabs `A B C D` minimizing the time of a sweep on two workers, one
/// sweeping `A` then `B`, the other `C` then `D`: `B` waits for `C`, so a sweep takes
/// `max(max(A, C) + B, C + D)` (`sizes`: the work of each level; every cut is tried, `O(m³)`
/// for `m` levels: a few tens on a settled pile, about 80 while the lattice falls).
fn four_slabs(sizes: &[usize]) -> Option<Vec<usize>> {
    let m = sizes.len();
    if m < 4 {
        return None;
    }
    let mut cum = vec![0usize; m + 1];
    for l in 0..m {
        cum[l + 1] = cum[l] + sizes[l];
    }
    let mut best: Option<(usize, [usize; 3])> = None;
    for b in 1..m - 2 {
        for c in b + 1..m - 1 {
            for d in c + 1..m {
                let (a_, b_, c_, d_) = (cum[b], cum[c] - cum[b], cum[d] - cum[c], cum[m] - cum[d]);
                let cost = (a_.max(c_) + b_).max(c_ + d_);
                if best.is_none_or(|(x, _)| cost < x) {
                    best = Some((cost, [b, c, d]));
                }
            }
        }
    }
    best.map(|(_, [b, c, d])| vec![0, b, c, d])
}

/// Splits the contacts of the 3 × 3 block matrix `w` into `2P` slabs of consecutive
/// breadth-first levels (`P` = `domains`, fewer when the contact graph has too few levels);
/// `None` when fewer than two per phase.
pub(crate) fn partition(w: &BlockCsr, domains: usize) -> Option<Partition> {
    let nc = w.n_block_rows();
    let (ptr, adj) = adjacency(w);
    let (level, n_levels) = bfs_levels(&ptr, &adj);
    // the work of a level: its contacts' visits, each about the cost of two off-diagonal blocks
    // plus its row's blocks
    let mut sizes = vec![0usize; n_levels];
    for (a, &l) in level.iter().enumerate() {
        sizes[l] += 2 + (ptr[a + 1] - ptr[a]);
    }
    let firsts = match domains.min(n_levels / 2) {
        0..=1 => return None,
        2 => four_slabs(&sizes)?,
        p => (2..=p).rev().find_map(|p| slabs(&sizes, 2 * p))?,
    };
    let n_parts = firsts.len();
    let mut slab_of_level = vec![0usize; n_levels];
    for (k, &f) in firsts.iter().enumerate() {
        let end = firsts.get(k + 1).copied().unwrap_or(n_levels);
        slab_of_level[f..end].iter_mut().for_each(|x| *x = k);
    }
    let mut starts = vec![0usize; n_parts + 1];
    for &l in &level {
        starts[slab_of_level[l] + 1] += 1;
    }
    for j in 0..n_parts {
        starts[j + 1] += starts[j];
    }
    let mut fill = starts[..n_parts].to_vec();
    let mut perm = vec![0usize; nc];
    for (a, &l) in level.iter().enumerate() {
        let j = slab_of_level[l];
        perm[fill[j]] = a;
        fill[j] += 1;
    }
    let parts: Vec<Range<usize>> = (0..n_parts).map(|j| starts[j]..starts[j + 1]).collect();
    Some(Partition { perm, parts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::BlockTriplet;

    /// A chain of `n` contacts (each coupled to the next), as a 3 × 3 block matrix.
    fn chain(n: usize) -> BlockCsr {
        let mut blocks = Vec::new();
        for a in 0..n {
            blocks.push(BlockTriplet { row: a, col: a, values: vec![2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0] });
            if a + 1 < n {
                let off = vec![-0.5, 0.0, 0.0, 0.0, -0.5, 0.0, 0.0, 0.0, -0.5];
                blocks.push(BlockTriplet { row: a, col: a + 1, values: off.clone() });
                blocks.push(BlockTriplet { row: a + 1, col: a, values: off });
            }
        }
        BlockCsr::from_triplets(&vec![3; n], &vec![3; n], blocks).unwrap()
    }

    /// Every contact is in exactly one slab, no slab is empty, and stored blocks couple only a
    /// slab with itself and the slabs next to it.
    fn check(w: &BlockCsr, part: &Partition) {
        let nc = w.n_block_rows();
        let mut seen = vec![false; nc];
        let mut part_of = vec![0; nc];
        for (j, range) in part.parts.iter().enumerate() {
            assert!(!range.is_empty(), "part {j} is empty");
            for i in range.clone() {
                let a = part.perm[i];
                assert!(!seen[a], "contact {a} twice");
                seen[a] = true;
                part_of[a] = j;
            }
        }
        assert!(seen.iter().all(|&s| s), "a contact is in no part");
        for a in 0..nc {
            for k in w.row_blocks(a) {
                let b = w.block_col(k);
                let (ja, jb) = (part_of[a], part_of[b]);
                if a != b && ja != jb {
                    assert!(ja.abs_diff(jb) == 1, "contacts {a} (part {ja}) and {b} (part {jb}) are coupled");
                }
            }
        }
    }

    #[test]
    fn chain_splits_into_balanced_uncoupled_slabs() {
        let n = 30;
        let w = chain(n);
        for domains in [2, 3, 5] {
            let part = partition(&w, domains).expect("a chain of 30 splits");
            assert_eq!(part.n_domains(), domains);
            assert_eq!(part.parts.len(), 2 * domains);
            check(&w, &part);
            // a sweep on `domains` threads costs the largest slab of each phase: about n/domains
            let phase = |ph: usize| part.parts.iter().skip(ph).step_by(2).map(|r| r.len()).max().unwrap();
            let cost = phase(0) + phase(1);
            assert!(cost <= n / domains + 2, "{domains} domains: phases cost {cost} of {n}: {:?}", part.parts);
        }
        // four levels give two domains (four slabs of one contact); fewer none
        assert_eq!(partition(&chain(4), 3).map(|p| p.parts.len()), Some(4));
        assert!(partition(&chain(3), 2).is_none());
        assert!(partition(&chain(1), 2).is_none());
    }

    #[test]
    fn random_pattern_and_components_give_a_proper_split() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let n = 200;
        let mut blocks = Vec::new();
        for a in 0..n {
            blocks.push(BlockTriplet { row: a, col: a, values: vec![1.0; 9] });
            // a few neighbours within a window (a mesh-like graph), and two components
            for _ in 0..3 {
                let b = a + 1 + (rng.next_u64() % 8) as usize;
                if b < n && (a < 120) == (b < 120) {
                    blocks.push(BlockTriplet { row: a, col: b, values: vec![0.1; 9] });
                }
            }
        }
        let w = BlockCsr::from_triplets(&vec![3; n], &vec![3; n], blocks).unwrap();
        for domains in [2, 4, 8] {
            let part = partition(&w, domains).expect("splits");
            assert!(part.n_domains() >= 2);
            check(&w, &part);
        }
    }
}
