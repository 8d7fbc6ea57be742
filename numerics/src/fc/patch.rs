//! Local correction of a stalled NSGS ([`NsgsFallback::Patch`], [`PatchOptions`]).
//!
//! On the jammed steps of a granular pile NSGS stalls with its residual held by a handful of
//! contacts (on the 125-sphere pile, 1 to 10 contacts hold 99.9 % of the squared natural-map
//! residual: `mechanics/examples/hard_step_probe.rs`). Their reactions are coupled to their
//! neighbours' through a nearly singular block of `W`, which a sweep moves one contact at a time.
//! A round here solves the patch `S` (those contacts and `layers` layers of neighbours) as one
//! friction-contact problem, the other reactions frozen:
//!
//! `u_S = W_SS r_S + q̃_S`, `q̃_S = q_S + Σ_{β∉S} W_Sβ r_β = u_S − W_SS r_S`,
//!
//! by PROX (a small dense or sparse LU instead of one of the whole problem), then sweeps the whole
//! problem again. Rounds stop when the full problem meets the tolerance; after `rounds` rounds
//! PROX runs on the whole problem, as it does at once when a patch would hold more than half the
//! contacts.
//!
//! [`NsgsFallback::Patch`]: super::NsgsFallback::Patch

use super::nsgs::compute_u;
use super::options::{NsgsFallback, NsgsOptions, PatchOptions};
use super::residual::{fc_error_with_u, natural_map_contact, norm, DBL_EPSILON};
use super::FrictionContact;
use crate::error::Result;
use crate::fc::LocalSolver;
use crate::matrix::{BlockCsr, BlockTriplet, Operator};
use crate::report::{IterOptions, SolveReport, SolveStatus};
use std::time::Instant;

/// Runs the rounds from `(r, u)` (`u = W r + q`), NSGS's options `opts` and `po`; `done` counts
/// the iterations already spent. The report counts sweeps plus proximal steps.
pub(crate) fn solve(
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &NsgsOptions,
    po: &PatchOptions,
    done: usize,
) -> Result<SolveReport> {
    po.validate()?;
    let start = Instant::now();
    let tol = opts.iter.tol;
    let Operator::BlockCsr(w) = p.w() else {
        return whole(p, r, u, tol, po, done, start);
    };
    if !w.is_uniform(3) || p.dim() != 3 {
        return whole(p, r, u, tol, po, done, start);
    }
    let nc = p.n_contacts();
    let mut iterations = done;
    let mut sweeps = opts.clone();
    sweeps.iter = IterOptions::new(tol, po.sweeps);
    sweeps.warm_start = true;
    sweeps.fallback = NsgsFallback::None;
    if sweeps.stagnation_sweeps == 0 {
        sweeps.stagnation_sweeps = 20;
    }
    let mut local = vec![usize::MAX; nc];
    let mut terms = vec![0.0; nc];
    for _ in 0..po.rounds {
        compute_u(p, r, u);
        let err = fc_error_with_u(p, r, u);
        if err <= tol {
            return Ok(report(SolveStatus::Converged, iterations, err, start));
        }
        for a in 0..nc {
            terms[a] = natural_map_contact(p.mu()[a], &r[3 * a..3 * a + 3], &u[3 * a..3 * a + 3]);
        }
        let patch = patch(w, &terms, po.share, po.layers, &mut local);
        if 2 * patch.len() > nc {
            // the residual is spread over the problem: no patch is cheaper than the whole
            return whole(p, r, u, tol, po, iterations, start);
        }
        let scale = p.q_norm().max(norm(r)).max(norm(u));
        let sub = sub_problem(p, w, &patch, &local, r, u)?;
        let mut rs: Vec<f64> = patch.iter().flat_map(|&a| r[3 * a..3 * a + 3].iter().copied()).collect();
        let mut us = vec![0.0; rs.len()];
        let sub_scale = sub.q_norm().max(norm(&rs)).max(norm(&u_of(&patch, u)));
        // the patch's absolute residual to a tenth of what the whole problem is allowed
        let sub_tol = (0.1 * tol * scale / sub_scale.max(DBL_EPSILON)).clamp(1e-15, 0.1);
        let mut o = po.prox.clone();
        o.iter = IterOptions::new(sub_tol, po.prox.iter.max_iter);
        o.warm_start = true;
        o.warmup_sweeps = 0;
        o.admm_warmup = 0;
        let rep = super::prox::solve(&sub, &mut rs, &mut us, &o)?;
        iterations += rep.iterations;
        if rs.iter().all(|x| x.is_finite()) {
            for (k, &a) in patch.iter().enumerate() {
                r[3 * a..3 * a + 3].copy_from_slice(&rs[3 * k..3 * k + 3]);
            }
        }
        for &a in &patch {
            local[a] = usize::MAX;
        }
        let rep = super::nsgs::solve(p, r, u, &sweeps, LocalSolver::AlartCurnier)?;
        iterations += rep.iterations;
        if rep.status.converged() {
            return Ok(report(SolveStatus::Converged, iterations, rep.residual, start));
        }
    }
    whole(p, r, u, tol, po, iterations, start)
}

fn u_of(patch: &[usize], u: &[f64]) -> Vec<f64> {
    patch.iter().flat_map(|&a| u[3 * a..3 * a + 3].iter().copied()).collect()
}

fn report(status: SolveStatus, iterations: usize, residual: f64, start: Instant) -> SolveReport {
    SolveReport { status, iterations, residual, elapsed: start.elapsed() }
}

/// PROX on the whole problem from `r`.
fn whole(
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    tol: f64,
    po: &PatchOptions,
    done: usize,
    start: Instant,
) -> Result<SolveReport> {
    let mut o = po.prox.clone();
    o.iter = IterOptions::new(tol, po.prox.iter.max_iter);
    o.warm_start = true;
    o.warmup_sweeps = 0;
    o.admm_warmup = 0;
    let rep = super::prox::solve(p, r, u, &o)?;
    Ok(report(rep.status, done + rep.iterations, rep.residual, start))
}

/// The patch, sorted: the fewest contacts whose `terms` sum to `share` of the total (largest
/// first), grown by `layers` layers of neighbours (`W_αβ` stored). On return `local[α]` is the
/// position of `α` in the patch (`usize::MAX` outside); the caller resets it.
fn patch(w: &BlockCsr, terms: &[f64], share: f64, layers: usize, local: &mut [usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..terms.len()).collect();
    order.sort_by(|&a, &b| terms[b].total_cmp(&terms[a]).then(a.cmp(&b)));
    let total: f64 = terms.iter().sum();
    let mut acc = 0.0;
    let mut set = vec![];
    for &a in &order {
        set.push(a);
        local[a] = 0;
        acc += terms[a];
        if acc >= share * total {
            break;
        }
    }
    let mut frontier = set.clone();
    for _ in 0..layers {
        let mut next = vec![];
        for &a in &frontier {
            for k in w.row_blocks(a) {
                let b = w.block_col(k);
                if local[b] == usize::MAX {
                    local[b] = 0;
                    next.push(b);
                }
            }
        }
        set.extend_from_slice(&next);
        frontier = next;
    }
    set.sort_unstable();
    for (i, &a) in set.iter().enumerate() {
        local[a] = i;
    }
    set
}

/// `W_SS` and `q̃_S = u_S − W_SS r_S` of the patch (`local` maps contacts to patch positions).
fn sub_problem(
    p: &FrictionContact,
    w: &BlockCsr,
    patch: &[usize],
    local: &[usize],
    r: &[f64],
    u: &[f64],
) -> Result<FrictionContact> {
    let m = patch.len();
    let mut blocks = vec![];
    let mut q = u_of(patch, u);
    for (i, &a) in patch.iter().enumerate() {
        for k in w.row_blocks(a) {
            let b = w.block_col(k);
            let j = local[b];
            if j == usize::MAX {
                continue;
            }
            let v = w.block_values(k);
            // q̃_a −= W_ab r_b (column-major 3×3 block)
            for c in 0..3 {
                for rr in 0..3 {
                    q[3 * i + rr] -= v[3 * c + rr] * r[3 * b + c];
                }
            }
            blocks.push(BlockTriplet { row: i, col: j, values: v.to_vec() });
        }
    }
    let sizes = vec![3; m];
    let ws = BlockCsr::from_triplets(&sizes, &sizes, blocks)?;
    let mu = patch.iter().map(|&a| p.mu()[a]).collect();
    FrictionContact::new(3, Operator::BlockCsr(ws), q, mu)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fc::{self, FcSolver};

    fn column(n: usize) -> (FrictionContact, BlockCsr) {
        let p = fc::generate::sphere_column(n, 7).expect("generated problem");
        let Operator::BlockCsr(w) = p.w().clone() else { panic!("sparse W") };
        (p, w)
    }

    #[test]
    fn patch_is_the_seed_and_its_neighbours() {
        // a column: contact a touches a − 1 and a + 1
        let (_, w) = column(20);
        let mut terms = vec![0.0; 20];
        terms[7] = 5.0;
        terms[12] = 4.0;
        terms[3] = 1e-6;
        let mut local = vec![usize::MAX; 20];
        let set = patch(&w, &terms, 0.999, 1, &mut local);
        assert_eq!(set, vec![6, 7, 8, 11, 12, 13]);
        assert_eq!((local[6], local[13], local[3]), (0, 5, usize::MAX));
        let mut local = vec![usize::MAX; 20];
        assert_eq!(patch(&w, &terms, 0.5, 0, &mut local), vec![7]);
    }

    #[test]
    fn sub_problem_reproduces_the_patch_velocities() {
        let (p, w) = column(12);
        let r: Vec<f64> = (0..p.size()).map(|i| 0.1 + 0.01 * i as f64).collect();
        let mut u = p.q().to_vec();
        p.w().matvec_add(1.0, &r, &mut u);
        let mut terms = vec![0.0; 12];
        terms[5] = 1.0;
        let mut local = vec![usize::MAX; 12];
        let set = patch(&w, &terms, 1.0, 1, &mut local);
        let sub = sub_problem(&p, &w, &set, &local, &r, &u).unwrap();
        let rs: Vec<f64> = set.iter().flat_map(|&a| r[3 * a..3 * a + 3].iter().copied()).collect();
        let mut us = sub.q().to_vec();
        sub.w().matvec_add(1.0, &rs, &mut us);
        for (k, &a) in set.iter().enumerate() {
            for i in 0..3 {
                assert!((us[3 * k + i] - u[3 * a + i]).abs() <= 1e-12 * (1.0 + u[3 * a + i].abs()));
            }
        }
    }

    #[test]
    fn patch_fallback_reaches_the_tolerance() {
        let (p, _) = column(60);
        let mut o = NsgsOptions::with_iter(IterOptions::new(1e-9, 20));
        o.fallback = NsgsFallback::Patch(PatchOptions::default());
        let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let rep = fc::solve(&p, &mut r, &mut u, &FcSolver::NsgsAc(o)).unwrap();
        let e = fc::fc_error(&p, &r);
        assert!(rep.status.converged() && e <= 1e-9, "{rep:?}, error of r {e:e}");
    }
}
