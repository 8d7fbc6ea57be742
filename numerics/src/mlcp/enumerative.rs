//! Enumeration of complementarity active sets (Siconos `MLCP_ENUM`).
//!
//! For an active set `S` of complementarity rows (`w_i = 0`, `z_i` free for `i ∈ S`; `z_i = 0`
//! otherwise) the MLCP reduces to the square linear system `M[R,R] z_R = −q_R` with
//! `R = eq ∪ S`. The set is a solution when `z_S >= 0` and `w_{c∖S} = M[c∖S,R] z_R + q >= 0`.
//! The search first follows block principal pivots from the warm-start set (often one or two
//! solves), then walks all `2^m` sets by increasing Hamming distance from the last guess.

use super::error::error_from_zw;
use super::linalg::{lu_factor, lu_solve, max_abs};
use super::options::EnumOptions;
use super::problem::Mlcp;
use crate::error::{NumericsError, Result};
use crate::report::{FailReason, SolveReport, SolveStatus};

#[derive(Debug, Clone, Default)]
struct Work {
    rows: Vec<usize>,
    a: Vec<f64>,
    piv: Vec<usize>,
    zr: Vec<f64>,
    z: Vec<f64>,
    w: Vec<f64>,
}

/// Reusable buffers of the enumeration (the reduced systems, the visited sets, the best
/// iterate), so that repeated solves of problems of the same size do not allocate.
#[derive(Debug, Clone, Default)]
pub struct EnumWorkspace {
    wk: Work,
    seen: Vec<u64>,
    best_z: Vec<f64>,
}

/// Solves `p` by enumeration; `z` holds the warm start on entry (when asked) and the answer
/// on exit, `w = M z + q`. `Err(Unsupported)` when `m > opts.max_comp`.
pub fn solve_enum(p: &Mlcp, z: &mut [f64], w: &mut [f64], opts: &EnumOptions) -> Result<SolveReport> {
    solve_enum_with(&mut EnumWorkspace::default(), p, z, w, opts)
}

/// [`solve_enum`] reusing the buffers of `ws`.
pub fn solve_enum_with(
    ws: &mut EnumWorkspace,
    p: &Mlcp,
    z: &mut [f64],
    w: &mut [f64],
    opts: &EnumOptions,
) -> Result<SolveReport> {
    let (ne, nc, size) = (p.n_eq(), p.n_comp(), p.size());
    if nc > opts.max_comp {
        return Err(NumericsError::Unsupported {
            solver: "enum",
            what: format!("{nc} complementarity rows (max_comp = {}, 2^m active sets)", opts.max_comp),
        });
    }
    let wk = &mut ws.wk;
    wk.rows.clear();
    wk.rows.reserve(size);
    for (v, len) in [(&mut wk.a, size * size), (&mut wk.zr, size), (&mut wk.z, size), (&mut wk.w, size)] {
        v.clear();
        v.resize(len, 0.0);
    }
    wk.piv.clear();
    wk.piv.resize(size, 0);
    let scale = 1.0 + max_abs(p.q()) + max_abs(p.m().as_slice());
    let sign_tol = 1e-12 * scale;
    let mut tries = 0usize;
    let mut best: Option<f64> = None;
    let best_z = &mut ws.best_z;

    let mut guess: u64 = 0;
    if opts.warm_start {
        for i in 0..nc {
            if z[ne + i] > 0.0 {
                guess |= 1 << i;
            }
        }
    }
    // Phase 1: block principal pivoting from the guess (Kostreva), at most m + 2 systems.
    let seen = &mut ws.seen;
    seen.clear();
    for _ in 0..nc + 2 {
        if seen.contains(&guess) {
            break;
        }
        seen.push(guess);
        tries += 1;
        let Some(ok) = try_set(p, guess, wk, sign_tol) else { break };
        if ok {
            let e = error_from_zw(p, &wk.z, &wk.w);
            if e <= opts.tol {
                return Ok(finish(z, w, wk, e, tries));
            }
            keep_best(&mut best, best_z, e, &wk.z);
        }
        let mut next = 0u64;
        for i in 0..nc {
            let active = guess >> i & 1 == 1;
            if (active && wk.z[ne + i] > 0.0) || (!active && wk.w[ne + i] < 0.0) {
                next |= 1 << i;
            }
        }
        guess = next;
    }
    // Phase 2: every set, by increasing Hamming distance from the last guess (sets that differ
    // from it in d rows, d = 0..=m, each layer enumerated with Gosper's hack).
    for d in 0..=nc {
        let mut flips: u64 = if d == 0 { 0 } else { (1u64 << d) - 1 };
        let limit: u64 = 1u64 << nc;
        loop {
            let mask = guess ^ flips;
            tries += 1;
            if try_set(p, mask, wk, sign_tol) == Some(true) {
                let e = error_from_zw(p, &wk.z, &wk.w);
                if e <= opts.tol {
                    return Ok(finish(z, w, wk, e, tries));
                }
                keep_best(&mut best, best_z, e, &wk.z);
            }
            if flips == 0 {
                break;
            }
            // Next larger integer with the same number of set bits.
            let c = flips & flips.wrapping_neg();
            let r = flips + c;
            flips = (((r ^ flips) >> 2) / c) | r;
            if flips >= limit {
                break;
            }
        }
    }
    match best {
        Some(e) => {
            z.copy_from_slice(best_z);
            p.compute_w(z, w);
            Ok(SolveReport {
                status: SolveStatus::Failed(FailReason::NoSolution),
                iterations: tries,
                residual: e,
                elapsed: Default::default(),
            })
        }
        None => {
            z.iter_mut().for_each(|x| *x = 0.0);
            let e = super::error::mlcp_compute_error(p, z, w);
            Ok(SolveReport {
                status: SolveStatus::Failed(FailReason::NoSolution),
                iterations: tries,
                residual: e,
                elapsed: Default::default(),
            })
        }
    }
}

fn keep_best(best: &mut Option<f64>, best_z: &mut Vec<f64>, e: f64, z: &[f64]) {
    if best.map_or(true, |b| e < b) {
        *best = Some(e);
        best_z.clear();
        best_z.extend_from_slice(z);
    }
}

fn finish(z: &mut [f64], w: &mut [f64], wk: &Work, e: f64, tries: usize) -> SolveReport {
    z.copy_from_slice(&wk.z);
    w.copy_from_slice(&wk.w);
    SolveReport { status: SolveStatus::Converged, iterations: tries, residual: e, elapsed: Default::default() }
}

/// Solves the system of active set `mask`; fills `wk.z`, `wk.w`. `None` when singular,
/// `Some(signs_ok)` otherwise.
fn try_set(p: &Mlcp, mask: u64, wk: &mut Work, sign_tol: f64) -> Option<bool> {
    let (ne, nc, size) = (p.n_eq(), p.n_comp(), p.size());
    let m = p.m().as_slice();
    wk.rows.clear();
    wk.rows.extend(0..ne);
    wk.rows.extend((0..nc).filter(|i| mask >> i & 1 == 1).map(|i| ne + i));
    let k = wk.rows.len();
    for (cj, &j) in wk.rows.iter().enumerate() {
        let col = &m[j * size..(j + 1) * size];
        for (ci, &i) in wk.rows.iter().enumerate() {
            wk.a[cj * k + ci] = col[i];
        }
    }
    for (ci, &i) in wk.rows.iter().enumerate() {
        wk.zr[ci] = -p.q()[i];
    }
    let tiny = 1e-14 * (1.0 + max_abs(&wk.a[..k * k]));
    lu_factor(&mut wk.a[..k * k], k, &mut wk.piv[..k], tiny).ok()?;
    lu_solve(&wk.a[..k * k], k, &wk.piv[..k], &mut wk.zr[..k]);
    if !wk.zr[..k].iter().all(|x| x.is_finite()) {
        return None;
    }
    wk.z.iter_mut().for_each(|x| *x = 0.0);
    for (ci, &i) in wk.rows.iter().enumerate() {
        wk.z[i] = wk.zr[ci];
    }
    p.compute_w(&wk.z, &mut wk.w);
    let ok = (ne..size).all(|i| wk.z[i] >= -sign_tol && wk.w[i] >= -sign_tol);
    Some(ok)
}
