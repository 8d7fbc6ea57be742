//! The parts of NSGS on subdomains ([`super::domains`]). For `P = 2` (two threads): the
//! breadth-first levels of the contact graph (contacts `α ≠ β` adjacent when `W_αβ` or `W_βα` is
//! stored) cut into four slabs of consecutive levels; a level is adjacent only to itself and the
//! levels next to it, so slab `j` shares stored blocks only with slabs `j ± 1`, and the even
//! slabs form one colour, the odd ones another. For `P ≥ 3`: recursive bisection of the contact
//! graph into about `8P` parts of equal work, coloured greedily ([`super::bisection`]): a thin
//! level of a large pile holds more than `1/(2P)` of its contacts, so slabs cannot balance many
//! threads (on 1000 spheres, 32 slabs leave a sweep at most 5× faster than one thread).
//!
//! A sweep visits the colours in order, each part's contacts in index order; parts of one
//! colour share no stored block, so they may run at once, a part waiting only for its
//! neighbours of lower colours ([`Partition::wait_for`]). The result depends on the partition,
//! never on the number of threads.

use crate::matrix::BlockCsr;
use std::ops::Range;

/// The split of the contacts: `perm[i]` is the contact at position `i` of the part order, and
/// `parts[j]` the positions of part `j`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Partition {
    pub perm: Vec<usize>,
    pub parts: Vec<Range<usize>>,
    /// The parts in sweep order: by colour, then index.
    pub order: Vec<usize>,
    /// Each part's rank among the parts of its colour (worker `rank mod workers` sweeps it).
    pub rank: Vec<usize>,
    /// The colour of each part (parts of one colour share no stored block).
    pub colour: Vec<usize>,
    /// The neighbours of each part swept before it in a sweep (lower colours).
    pub wait_for: Vec<Vec<usize>>,
    /// The neighbours of each part swept after it in a sweep (higher colours): the parts whose
    /// [`Partition::wait_for`] lists it.
    pub release: Vec<Vec<usize>>,
    /// The most workers a sweep can use.
    pub workers: usize,
}

impl Partition {
    /// The most workers a sweep can use (`P`).
    pub fn n_domains(&self) -> usize {
        self.workers
    }

    /// The schedule of parts coloured `colour[j]` whose lower-coloured neighbours are `lower[j]`.
    pub(super) fn with_colours(
        perm: Vec<usize>,
        parts: Vec<Range<usize>>,
        colour: &[usize],
        lower: Vec<Vec<usize>>,
        workers: usize,
    ) -> Self {
        let mut order: Vec<usize> = (0..parts.len()).collect();
        order.sort_by_key(|&j| (colour[j], j));
        let mut rank = vec![0; parts.len()];
        let mut count = std::collections::BTreeMap::new();
        for &j in &order {
            let c = count.entry(colour[j]).or_insert(0usize);
            rank[j] = *c;
            *c += 1;
        }
        let mut release = vec![Vec::new(); parts.len()];
        for (k, lower_k) in lower.iter().enumerate() {
            for &j in lower_k {
                release[j].push(k);
            }
        }
        Partition { perm, parts, order, rank, colour: colour.to_vec(), wait_for: lower, release, workers }
    }
}

/// The symmetric adjacency of the stored blocks of `w` (diagonal blocks left out), as CSR with
/// each contact's neighbours in increasing order (the pairs come sorted by later contact, then
/// earlier one).
pub(super) fn adjacency(w: &BlockCsr) -> (Vec<usize>, Vec<usize>) {
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

/// Splits the contacts of the 3 × 3 block matrix `w` for `P = domains` workers: four slabs for
/// `P = 2`, coloured parts of a recursive bisection for `P ≥ 3` (see the module); `None` when
/// the graph is too small to split.
pub(crate) fn partition(w: &BlockCsr, domains: usize) -> Option<Partition> {
    let (ptr, adj) = adjacency(w);
    if domains >= 3 {
        return super::bisection::partition(&ptr, &adj, domains);
    }
    slab_partition(&ptr, &adj, domains)
}

/// `2P` slabs of consecutive breadth-first levels (`P` = `domains`, fewer when the contact graph
/// has too few levels); `None` when fewer than two per phase.
fn slab_partition(ptr: &[usize], adj: &[usize], domains: usize) -> Option<Partition> {
    let nc = ptr.len() - 1;
    let (level, n_levels) = bfs_levels(ptr, adj);
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
    // even slabs first, each odd one after its two neighbours
    let colour: Vec<usize> = (0..n_parts).map(|j| j % 2).collect();
    let lower = (0..n_parts)
        .map(|j| if j % 2 == 1 { [j - 1, j + 1].into_iter().filter(|&k| k < n_parts).collect() } else { vec![] })
        .collect();
    Some(Partition::with_colours(perm, parts, &colour, lower, n_parts / 2))
}

/// The balance of a sweep of [`partition`] on `workers` workers, in units of work (a
/// contact's `2 +` its number of neighbours): the total work, the time of a sweep when part `j`
/// takes its work and starts once its worker is free and its lower-coloured neighbours are done
/// (the workers take the parts in sweep order, as in [`super::domains`]), the number of parts
/// and of colours.
pub(crate) fn sweep_balance(w: &BlockCsr, domains: usize, workers: usize) -> Option<SweepBalance> {
    let part = partition(w, domains)?;
    let (ptr, _) = adjacency(w);
    let work: Vec<usize> =
        part.parts.iter().map(|r| part.perm[r.clone()].iter().map(|&a| 2 + ptr[a + 1] - ptr[a]).sum()).collect();
    let workers = workers.clamp(1, part.workers);
    // each part, in sweep order, to the first worker free (as the workers take them)
    let (mut free, mut finish) = (vec![0usize; workers], vec![0usize; part.parts.len()]);
    for &j in &part.order {
        let t = (0..workers).min_by_key(|&t| free[t]).unwrap_or(0);
        let ready = part.wait_for[j].iter().map(|&k| finish[k]).max().unwrap_or(0);
        finish[j] = free[t].max(ready) + work[j];
        free[t] = finish[j];
    }
    let colours = part.colour.iter().max().map_or(0, |c| c + 1);
    Some(SweepBalance {
        total: work.iter().sum(),
        makespan: free.iter().copied().max().unwrap_or(0),
        parts: part.parts.len(),
        colours,
    })
}

/// See `sweep_balance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepBalance {
    /// Work of a sweep on one worker.
    pub total: usize,
    /// Time of a sweep on the workers, in the same units.
    pub makespan: usize,
    /// Parts of the partition.
    pub parts: usize,
    /// Colours (phases) of a sweep.
    pub colours: usize,
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

    /// Every contact is in exactly one part, no part is empty, coupled contacts of two parts
    /// have parts of different colours, and the part of higher colour waits for the other.
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
        let mut sorted = part.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..part.parts.len()).collect::<Vec<_>>(), "the sweep order lists every part once");
        assert!(part.order.windows(2).all(|o| part.colour[o[0]] <= part.colour[o[1]]), "sweep order by colour");
        for a in 0..nc {
            for k in w.row_blocks(a) {
                let b = w.block_col(k);
                let (ja, jb) = (part_of[a], part_of[b]);
                if a == b || ja == jb {
                    continue;
                }
                let (ca, cb) = (part.colour[ja], part.colour[jb]);
                assert_ne!(ca, cb, "contacts {a} (part {ja}) and {b} (part {jb}) are coupled in one colour");
                let (lo, hi) = if ca < cb { (ja, jb) } else { (jb, ja) };
                assert!(part.wait_for[hi].contains(&lo), "part {hi} does not wait for its neighbour {lo}");
            }
        }
    }

    #[test]
    fn chain_splits_into_balanced_uncoupled_slabs() {
        let n = 30;
        let w = chain(n);
        let part = partition(&w, 2).expect("a chain of 30 splits");
        assert_eq!((part.n_domains(), part.parts.len()), (2, 4));
        check(&w, &part);
        // slabs: even ones, then odd ones, each odd slab waiting for its two neighbours
        assert_eq!(part.colour, vec![0, 1, 0, 1]);
        assert_eq!(part.wait_for, vec![vec![], vec![0, 2], vec![], vec![2]]);
        // a sweep on two threads costs at most the pipelined slabs: about n/2
        let b = sweep_balance(&w, 2, 2).unwrap();
        assert!(2 * b.makespan <= b.total + 2 * 4, "{b:?}");
        // four levels give two domains (four slabs of one contact); fewer none
        assert_eq!(partition(&chain(4), 2).map(|p| p.parts.len()), Some(4));
        assert!(partition(&chain(3), 2).is_none());
        assert!(partition(&chain(1), 2).is_none());
        // more domains: coloured parts of a bisection (a chain needs two colours)
        for domains in [3, 5] {
            let part = partition(&chain(200), domains).expect("a chain of 200 splits");
            check(&chain(200), &part);
            assert_eq!(part.colour.iter().max(), Some(&1), "{:?}", part.colour);
        }
    }

    /// The adjacency of a `k × k × k` lattice of contacts coupled to their 26 neighbours (the
    /// pattern of a dense pile's `W`).
    fn lattice(k: usize) -> BlockCsr {
        let id = |x: usize, y: usize, z: usize| (z * k + y) * k + x;
        let mut blocks = Vec::new();
        for z in 0..k {
            for y in 0..k {
                for x in 0..k {
                    for (dx, dy, dz) in (0..27).map(|d| (d % 3, (d / 3) % 3, d / 9)) {
                        let (u, v, w) = (x + dx, y + dy, z + dz);
                        if (1..=k).contains(&u) && (1..=k).contains(&v) && (1..=k).contains(&w) {
                            let b = id(u - 1, v - 1, w - 1);
                            let val = if b == id(x, y, z) { 4.0 } else { 0.1 };
                            blocks.push(BlockTriplet { row: id(x, y, z), col: b, values: vec![val; 9] });
                        }
                    }
                }
            }
        }
        BlockCsr::from_triplets(&vec![3; k * k * k], &vec![3; k * k * k], blocks).unwrap()
    }

    /// Slabs of breadth-first levels cannot keep 16 workers busy on a pile (a level holds more
    /// than 1/32 of the contacts); the coloured bisection can: a sweep of 14³ lattice contacts
    /// on 16 workers takes less than 1/10 of the sweep on one.
    #[test]
    fn bisection_balances_sixteen_workers_on_a_lattice() {
        let w = lattice(14);
        let part = partition(&w, 16).expect("splits");
        check(&w, &part);
        let b = sweep_balance(&w, 16, 16).unwrap();
        assert!(b.total >= 10 * b.makespan, "{b:?}");
        let one = sweep_balance(&w, 16, 1).unwrap();
        assert_eq!(one.makespan, one.total);
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
