//! Coloured parts for NSGS on `P ≥ 3` workers ([`super::partition`]): recursive bisection of
//! the contact graph into `K` parts of about equal work, then a greedy colouring of the parts.
//!
//! Bisection: the contacts of a part are ordered by a breadth-first search of the part's own
//! subgraph from a pseudo-peripheral contact (component after component), and the order is cut
//! where the work before the cut reaches half of the part's work (work of a contact: `2 +` its
//! number of neighbours, as for the slabs). Each half is split again, `log₂ K` times, with
//! `K` = the power of two at or above `16P`, but no more than one part per 8 contacts.
//! Colouring: parts in index order take the smallest colour that none of their already
//! coloured neighbours has (parts are adjacent when a stored block couples their contacts);
//! parts of one colour are mutually uncoupled. Everything is a function of `W`'s pattern and
//! `P` only: the same partition, hence the same bits, on any number of threads.

use super::partition::Partition;
use std::ops::Range;

/// Parts per worker the bisection aims at (more parts balance better; each costs its ghost copies).
const PARTS_PER_WORKER: usize = 16;
/// The fewest contacts a part may average.
const MIN_CONTACTS_PER_PART: usize = 8;

/// Breadth-first order of the contacts marked `mark` in `part_of`, component after component,
/// each from a pseudo-peripheral contact (the last one reached from its smallest contact).
/// `members` lists them in increasing order; `seen` is scratch (`false` on entry and exit).
fn bfs_order(
    ptr: &[usize],
    adj: &[usize],
    part_of: &[usize],
    mark: usize,
    members: &[usize],
    seen: &mut [bool],
) -> Vec<usize> {
    let mut order = Vec::with_capacity(members.len());
    let mut probe = Vec::new();
    let visit = |s: usize, seen: &mut [bool], queue: &mut Vec<usize>| {
        let first = queue.len();
        queue.push(s);
        seen[s] = true;
        let mut head = first;
        while head < queue.len() {
            let a = queue[head];
            head += 1;
            for &b in &adj[ptr[a]..ptr[a + 1]] {
                if part_of[b] == mark && !seen[b] {
                    seen[b] = true;
                    queue.push(b);
                }
            }
        }
    };
    for &s in members {
        if seen[s] {
            continue;
        }
        // first pass from `s` to find the far end of its component, then clear its marks
        probe.clear();
        visit(s, seen, &mut probe);
        let far = *probe.last().unwrap_or(&s);
        probe.iter().for_each(|&a| seen[a] = false);
        visit(far, seen, &mut order);
    }
    order.iter().for_each(|&a| seen[a] = false);
    order
}

/// Splits the contacts into coloured parts for `domains` workers (see the module); `None`
/// when the contacts make fewer than `2 min(P, 4)` parts.
pub(crate) fn partition(ptr: &[usize], adj: &[usize], domains: usize) -> Option<Partition> {
    let nc = ptr.len() - 1;
    let want = (PARTS_PER_WORKER * domains).next_power_of_two();
    let mut k = 1usize;
    while k < want && 2 * k * MIN_CONTACTS_PER_PART <= nc {
        k *= 2;
    }
    if k < 2 * domains.min(4) {
        return None;
    }
    let work = |a: usize| 2 + ptr[a + 1] - ptr[a];
    // part_of[a]: the part of contact a; groups[g]: its members in increasing order
    let mut part_of = vec![0usize; nc];
    let mut groups: Vec<Vec<usize>> = vec![(0..nc).collect()];
    // halves of group `g` (the groups of one level are split independently of each other)
    let halve = |g: usize, members: &[usize], seen: &mut Vec<bool>, part_of: &[usize]| {
        let mut order = bfs_order(ptr, adj, part_of, g, members, seen);
        let total: usize = members.iter().map(|&a| work(a)).sum();
        let (mut acc, mut cut) = (0usize, 0usize);
        while cut < order.len() && 2 * (acc + work(order[cut])) <= total {
            acc += work(order[cut]);
            cut += 1;
        }
        let cut = if order.len() < 2 { order.len() } else { cut.clamp(1, order.len() - 1) };
        let mut hi = order.split_off(cut);
        order.sort_unstable();
        hi.sort_unstable();
        [order, hi]
    };
    while groups.len() < k {
        let pairs: Vec<[Vec<usize>; 2]>;
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            let part_of = &part_of;
            pairs = groups
                .par_iter()
                .enumerate()
                .map_init(|| vec![false; nc], |seen, (g, members)| halve(g, members, seen, part_of))
                .collect();
        }
        #[cfg(not(feature = "parallel"))]
        {
            let mut seen = vec![false; nc];
            pairs = groups.iter().enumerate().map(|(g, members)| halve(g, members, &mut seen, &part_of)).collect();
        }
        let next: Vec<Vec<usize>> = pairs.into_iter().flatten().collect();
        for (g, members) in next.iter().enumerate() {
            members.iter().for_each(|&a| part_of[a] = g);
        }
        groups = next;
    }
    let n_parts = groups.len();
    // neighbouring parts (sorted, deduplicated)
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n_parts];
    for a in 0..nc {
        for &b in &adj[ptr[a]..ptr[a + 1]] {
            if part_of[a] != part_of[b] {
                neighbours[part_of[a]].push(part_of[b]);
            }
        }
    }
    for n in &mut neighbours {
        n.sort_unstable();
        n.dedup();
    }
    let mut colour = vec![usize::MAX; n_parts];
    for j in 0..n_parts {
        let used: Vec<usize> = neighbours[j].iter().map(|&m| colour[m]).filter(|&c| c != usize::MAX).collect();
        colour[j] = (0..).find(|c| !used.contains(c)).unwrap_or(0);
    }
    let lower: Vec<Vec<usize>> =
        (0..n_parts).map(|j| neighbours[j].iter().copied().filter(|&m| colour[m] < colour[j]).collect()).collect();
    let mut perm = Vec::with_capacity(nc);
    let mut parts: Vec<Range<usize>> = Vec::with_capacity(n_parts);
    for members in &groups {
        let start = perm.len();
        perm.extend_from_slice(members);
        parts.push(start..perm.len());
    }
    Some(Partition::with_colours(perm, parts, &colour, lower, domains))
}
