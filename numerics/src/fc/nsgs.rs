//! Nonsmooth Gauss–Seidel over contacts (NSGS), 2D and 3D.
//!
//! Sweep: for each contact α (in order, or in a seeded random order), with
//! `q̃_α = q_α + Σ_{β≠α} W_αβ r_β`, solve the one-contact problem `u_α = W_αα r_α + q̃_α`
//! exactly (2D) or with the chosen local solver (3D), then `r_α ← ω r_α^{new} + (1−ω) r_α`.
//! Stopping follows Siconos's `LIGHT_WITH_FULL_FINAL` rule: the light error
//! `sqrt(Σ‖Δr_α‖²)/‖r‖` is checked each sweep; when it is below the working tolerance the full
//! normalized error decides, and the working tolerance shrinks to `tol·light/full` otherwise;
//! in addition the full error is evaluated every 10 sweeps.
//!
//! Variants ([`NsgsOptions`]): symmetric sweeps (every second sweep in reverse order); a
//! coloured order (greedy colouring of the contact graph, each colour's independent local
//! problems on rayon with the `parallel` feature, bitwise independent of the thread count);
//! Anderson acceleration of the sweep map (`super::anderson`), safeguarded twice: an
//! extrapolation whose sweep more than doubles the fixed-point residual is rejected (inside
//! `super::anderson`), and the first full check worse than the best checked iterate sends the
//! solve back to that iterate with plain sweeps from there on. The returned iterate is the one
//! with the smallest full error when the cap is reached.

use super::local::slip::IsotropicBlock;
use super::local::{self, LocalSolver};
use super::options::NsgsOptions;
use super::residual::fc_error_with_u;
use super::FrictionContact;
use crate::error::Result;
use crate::matrix::{BlockCsr, Operator};
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};
use std::time::Instant;

mod bisection;
mod domains;
mod partition;

pub use domains::TeamTimes;
pub use partition::SweepBalance;

/// The balance of a sweep of NSGS on subdomains (`NsgsOptions::domains = domains`) on
/// `workers` workers, for the 3 × 3 block matrix `w`: the work of a sweep on one worker against
/// the time of a sweep on `workers` (a diagnostic of the partition: their ratio bounds the
/// speed-up of the solve); `None` when NSGS would not split the problem.
pub fn sweep_balance(w: &crate::matrix::BlockCsr, domains: usize, workers: usize) -> Option<SweepBalance> {
    partition::sweep_balance(w, domains, workers)
}

/// The full error is also checked every this many sweeps (Siconos only checks it when the light
/// error is small, which on several collection files never happens before the sweep cap).
const FULL_CHECK_EVERY: usize = 10;
/// With [`NsgsOptions::stagnation_sweeps`], progress means the full error dropping below this
/// factor times the reference error.
const STAGNATION_DROP: f64 = 0.9;

/// The stopping test of the NSGS solvers (local and global): the relative change of a sweep (the
/// "light" error) is cheap; the full error is computed when it falls below a working tolerance,
/// every [`FULL_CHECK_EVERY`] sweeps and at the last sweep. When the light error was too optimistic
/// the working tolerance shrinks to `min(w · light / error, w / 2)`.
pub(crate) struct SweepMonitor {
    tol: f64,
    work_tol: f64,
    max_iter: usize,
}

impl SweepMonitor {
    pub(crate) fn new(tol: f64, max_iter: usize) -> Self {
        SweepMonitor { tol, work_tol: tol, max_iter }
    }

    /// Whether sweep `sweep`, whose relative change is `light`, needs the full error.
    pub(crate) fn wants_full(&self, light: f64, sweep: usize) -> bool {
        light < self.work_tol || sweep.is_multiple_of(FULL_CHECK_EVERY) || sweep == self.max_iter
    }

    /// After the full `error`: `Some(status)` ends the solve (converged, or stalled when a sweep
    /// changed nothing: a fixed point of the sweep that is not a solution), `None` goes on.
    pub(crate) fn after_full(&mut self, light: f64, error: f64) -> Option<SolveStatus> {
        if error <= self.tol {
            return Some(SolveStatus::Converged);
        }
        if light < self.work_tol && light > 0.0 && error > 0.0 {
            self.work_tol = (self.work_tol * light / error).min(self.work_tol * 0.5);
        } else if light == 0.0 {
            return Some(SolveStatus::Failed(FailReason::Stalled));
        }
        None
    }
}

/// [`NsgsOptions::stagnation_sweeps`]: the full error to beat by the factor [`STAGNATION_DROP`]
/// and the sweep at which the last such drop happened.
struct Stagnation {
    window: usize,
    ref_error: f64,
    ref_sweep: usize,
}

impl Stagnation {
    fn new(window: usize) -> Self {
        Stagnation { window, ref_error: f64::INFINITY, ref_sweep: 0 }
    }

    /// Whether the solve has stagnated at `sweep` with full error `error` (always false when off).
    fn stalled(&mut self, error: f64, sweep: usize) -> bool {
        if self.window == 0 {
            return false;
        }
        if error < STAGNATION_DROP * self.ref_error {
            (self.ref_error, self.ref_sweep) = (error, sweep);
            return false;
        }
        sweep - self.ref_sweep >= self.window
    }
}

pub use crate::rng::SplitMix64;

/// Reusable buffers of NSGS (diagonal blocks, sweep order).
#[derive(Debug, Clone, Default)]
pub struct NsgsWorkspace {
    diag: Vec<f64>,
    /// The diagonal blocks of a 3D problem as matrices (used by the sweep without copies).
    diag3: Vec<Matrix3<f64>>,
    /// `W_αα⁻¹` of each 3D contact (`None`: singular block).
    diag_inv: Vec<Option<Matrix3<f64>>>,
    /// The 3D blocks that are `diag(w_N, w_T, w_T)` to round-off (closed-form sliding).
    diag_iso: Vec<Option<IsotropicBlock>>,
    order: Vec<usize>,
    /// Colour `c` is `order[colour_ptr[c]..colour_ptr[c + 1]]` (colouring on).
    colour_ptr: Vec<usize>,
    /// New reactions of one colour, computed before they are written (colouring on).
    updates: Vec<Update>,
    /// The iterate before the sweep (Anderson acceleration).
    start: Vec<f64>,
    /// The iterate with the smallest full error so far (Anderson acceleration).
    best: Vec<f64>,
    anderson: super::anderson::Anderson,
    /// The subdomain sweep's buffers ([`NsgsOptions::domains`]).
    domains: domains::DomainWorkspace,
}

impl NsgsWorkspace {
    /// How the workers spent the last solve, when it swept on subdomains
    /// ([`NsgsOptions::domains`]); `None` otherwise.
    pub fn last_team_times(&self) -> Option<&TeamTimes> {
        self.domains.last_times()
    }
}

/// The local solve of one contact: its new reaction (before relaxation) and whether the local
/// solver reached its tolerance.
type Update = ([f64; 3], bool);

/// The diagonal blocks `W_αα` of the problem: column-major (2D and 3D) and, in 3D, as matrices
/// with their inverses.
#[derive(Clone, Copy)]
struct DiagBlocks<'a> {
    flat: &'a [f64],
    m3: &'a [Matrix3<f64>],
    inv: &'a [Option<Matrix3<f64>>],
    iso: &'a [Option<IsotropicBlock>],
}

/// Runs NSGS; `local` chooses the 3D one-contact solver (2D contacts are solved exactly).
pub fn solve(
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &NsgsOptions,
    local: LocalSolver,
) -> Result<SolveReport> {
    solve_with(&mut NsgsWorkspace::default(), p, r, u, opts, local)
}

/// Solves contact `a` with the others' reactions `r` fixed:
/// `q̃_α = q_α + Σ_{β≠α} W_αβ r_β`, then the one-contact problem `u_α = W_αα r_α + q̃_α`.
fn local_update(
    p: &FrictionContact,
    diag: DiagBlocks<'_>,
    r: &[f64],
    a: usize,
    opts: &NsgsOptions,
    local: LocalSolver,
) -> Update {
    let dim = p.dim();
    let mut qa = [0.0; 3];
    let ra = &r[a * dim..(a + 1) * dim];
    p.w().block_row_times(a, dim, r, true, &mut qa);
    for (qk, &pk) in qa.iter_mut().zip(&p.q()[a * dim..(a + 1) * dim]) {
        *qk += pk;
    }
    if dim == 3 {
        // The stored block and inverse, no copies (the same operations as `solve_contact`).
        let q = Vector3::new(qa[0], qa[1], qa[2]);
        let mut x = Vector3::new(ra[0], ra[1], ra[2]);
        let (w, w_inv, iso) = (&diag.m3[a], diag.inv[a].as_ref(), diag.iso[a].as_ref());
        let (tol, max_iter) = (opts.local_tol, opts.local_max_iter);
        let ok = local::solve_3d_with_inverse(local, w, w_inv, iso, &q, p.mu()[a], &mut x, tol, max_iter);
        return ([x[0], x[1], x[2]], ok);
    }
    let blk = &diag.flat[a * dim * dim..(a + 1) * dim * dim];
    solve_contact(dim, blk, None, &qa, ra, p.mu()[a], opts, local)
}

/// The one-contact problem `u_α = W_αα r_α + q̃_α` (`blk` = `W_αα` column-major, `w_inv` its
/// inverse in 3D, `ra` the warm start): the chosen local solver in 3D, the exact solution in 2D.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_contact(
    dim: usize,
    blk: &[f64],
    w_inv: Option<&Matrix3<f64>>,
    qa: &[f64; 3],
    ra: &[f64],
    mu: f64,
    opts: &NsgsOptions,
    local: LocalSolver,
) -> Update {
    let mut new = [0.0; 3];
    let ok;
    if dim == 3 {
        let w = Matrix3::from_column_slice(blk);
        let q = Vector3::new(qa[0], qa[1], qa[2]);
        let mut x = Vector3::new(ra[0], ra[1], ra[2]);
        ok = local::solve_3d_with_inverse(local, &w, w_inv, None, &q, mu, &mut x, opts.local_tol, opts.local_max_iter);
        new[..3].copy_from_slice(x.as_slice());
    } else {
        let w = Matrix2::from_column_slice(blk);
        let q = Vector2::new(qa[0], qa[1]);
        match local::solve_2d(&w, &q, mu) {
            Some(x) => {
                new[..2].copy_from_slice(x.as_slice());
                ok = true;
            }
            None => {
                new[..2].copy_from_slice(ra);
                ok = false;
            }
        }
    }
    (new, ok)
}

/// Writes the relaxed update of contact `a` into `r` and returns `‖Δr_α‖²` (0 and `r` kept when
/// the local result is not finite).
#[inline]
fn apply_update(r: &mut [f64], a: usize, dim: usize, new: &[f64; 3], omega: f64) -> f64 {
    if new[..dim].iter().any(|x| !x.is_finite()) {
        return 0.0; // keep the previous (finite) reaction of this contact
    }
    if dim == 3 {
        let ra: &mut [f64; 3] = (&mut r[3 * a..3 * a + 3]).try_into().expect("3 values");
        return update_3(ra, new, omega);
    }
    let ra = &mut r[a * dim..(a + 1) * dim];
    let mut light = 0.0;
    for k in 0..dim {
        let v = omega * new[k] + (1.0 - omega) * ra[k];
        light += (v - ra[k]) * (v - ra[k]);
        ra[k] = v;
    }
    light
}

/// `r_α ← ω r_α^{new} + (1 − ω) r_α` for a 3D contact whose new reaction is finite, returning
/// `‖Δr_α‖²`.
#[inline(always)]
fn update_3(ra: &mut [f64; 3], new: &[f64; 3], omega: f64) -> f64 {
    if omega == 1.0 {
        // No relaxation: `r_α ← r_α^new` (the loop below would give the same values but +0 for −0).
        let d = [new[0] - ra[0], new[1] - ra[1], new[2] - ra[2]];
        *ra = *new;
        return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    }
    // The loop of `apply_update` unrolled (same operations, same order).
    let mut light = 0.0;
    for k in 0..3 {
        let v = omega * new[k] + (1.0 - omega) * ra[k];
        light += (v - ra[k]) * (v - ra[k]);
        ra[k] = v;
    }
    light
}

/// The new reaction (before relaxation) of 3D contact `a` whose off-diagonal row product is
/// `s = Σ_{β≠α} W_αβ r_β` and whose current reaction is `ra` (see [`local_3d_at`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn local_3d(
    s: [f64; 3],
    a: usize,
    p: &FrictionContact,
    diag: DiagBlocks<'_>,
    ra: [f64; 3],
    opts: &NsgsOptions,
    local: LocalSolver,
) -> [f64; 3] {
    let q = p.q();
    let qa = Vector3::new(s[0] + q[3 * a], s[1] + q[3 * a + 1], s[2] + q[3 * a + 2]);
    let d = Diag3 { inv: diag.inv[a].as_ref(), iso: diag.iso[a].as_ref(), m3: &diag.m3[a] };
    local_3d_at(qa, p.mu()[a], d, ra, opts, local)
}

/// One contact's diagonal block `W_αα`, its inverse and isotropic form.
#[derive(Clone, Copy)]
struct Diag3<'a> {
    inv: Option<&'a Matrix3<f64>>,
    iso: Option<&'a IsotropicBlock>,
    m3: &'a Matrix3<f64>,
}

/// The one-contact problem `u_α = W_αα r_α + q̃_α` (`qa` = `q̃_α`, `mu` its coefficient):
/// closed-form regimes first, else the iterative local solver from the current reaction `ra`.
#[inline(always)]
fn local_3d_at(
    qa: Vector3<f64>,
    mu: f64,
    d: Diag3<'_>,
    ra: [f64; 3],
    opts: &NsgsOptions,
    local: LocalSolver,
) -> [f64; 3] {
    let x = match local::closed_form_3d(local, d.inv, d.iso, &qa, mu) {
        Some(x) => x,
        None => {
            let mut x = Vector3::new(ra[0], ra[1], ra[2]);
            let (tol, max_iter) = (opts.local_tol, opts.local_max_iter);
            local::solve_3d_iterative(local, d.m3, &qa, mu, &mut x, tol, max_iter);
            x
        }
    };
    [x[0], x[1], x[2]]
}

/// The diagonal blocks of `p` into `ws` (and in 3D their matrices, inverses and isotropic forms).
fn fill_diag(ws: &mut NsgsWorkspace, p: &FrictionContact) {
    let (dim, nc) = (p.dim(), p.n_contacts());
    let diag = &mut ws.diag;
    diag.clear();
    diag.resize(nc * dim * dim, 0.0);
    for a in 0..nc {
        p.w().diag_block(a, dim, &mut diag[a * dim * dim..(a + 1) * dim * dim]);
    }
    ws.diag3.clear();
    ws.diag_inv.clear();
    ws.diag_iso.clear();
    if dim == 3 {
        ws.diag3.extend(diag.chunks_exact(9).map(Matrix3::from_column_slice));
        ws.diag_inv.extend(ws.diag3.iter().map(|b| b.try_inverse()));
        ws.diag_iso.extend(ws.diag3.iter().map(IsotropicBlock::of));
    }
}

/// One Gauss–Seidel sweep (in `order`, or reversed) of a 3D problem whose `W` has uniform 3 × 3
/// blocks, returning `Σ‖Δr_α‖²`: per contact the operations of [`local_update`] then
/// [`apply_update`] (the same bits), written for this case so that the product with the row, the
/// closed-form regimes of the one-contact problem and the update are inlined into one loop (the
/// hot loop of a granular simulation).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn sweep_3d(
    w: &BlockCsr,
    p: &FrictionContact,
    diag: DiagBlocks<'_>,
    r: &mut [f64],
    order: &[usize],
    reverse: bool,
    opts: &NsgsOptions,
    local: LocalSolver,
) -> f64 {
    let nc = order.len();
    let mut light = 0.0;
    for i in 0..nc {
        let a = if reverse { order[nc - 1 - i] } else { order[i] };
        let s = w.row3_off_diag(a, r);
        let x = local_3d(s, a, p, diag, [r[3 * a], r[3 * a + 1], r[3 * a + 2]], opts, local);
        light += apply_update(r, a, 3, &x, opts.relaxation);
    }
    light
}

/// The local solves of one colour (contacts sharing no body, so independent), on rayon with the
/// `parallel` feature; each result depends only on `r`, so the bits do not depend on the threads.
fn colour_updates(
    p: &FrictionContact,
    diag: DiagBlocks<'_>,
    r: &[f64],
    contacts: &[usize],
    out: &mut [Update],
    opts: &NsgsOptions,
    local: LocalSolver,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        out.par_iter_mut().zip(contacts.par_iter()).for_each(|(o, &a)| *o = local_update(p, diag, r, a, opts, local));
    }
    #[cfg(not(feature = "parallel"))]
    for (o, &a) in out.iter_mut().zip(contacts) {
        *o = local_update(p, diag, r, a, opts, local);
    }
}

/// [`solve`] reusing the buffers of `ws`.
pub fn solve_with(
    ws: &mut NsgsWorkspace,
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &NsgsOptions,
    local: LocalSolver,
) -> Result<SolveReport> {
    opts.validate()?;
    let start = Instant::now();
    ws.domains.forget_times();
    let dim = p.dim();
    let nc = p.n_contacts();
    if !opts.warm_start {
        r.iter_mut().for_each(|x| *x = 0.0);
    }
    fill_diag(ws, p);
    let diag = DiagBlocks { flat: &ws.diag, m3: &ws.diag3, inv: &ws.diag_inv, iso: &ws.diag_iso };
    let uniform3 = match p.w() {
        Operator::BlockCsr(m) if dim == 3 && m.is_uniform(3) => Some(m),
        _ => None,
    };
    if let Some(w3) = uniform3.filter(|_| opts.domains > 1) {
        if let Some(part) = partition::partition(w3, opts.domains) {
            return Ok(domains::solve(&mut ws.domains, p, w3, diag, &part, r, u, opts, local));
        }
    }
    let order = &mut ws.order;
    order.clear();
    ws.colour_ptr.clear();
    if opts.colouring {
        colour_contacts(p.w(), dim, order, &mut ws.colour_ptr);
    } else {
        order.extend(0..nc);
    }
    let mut rng = opts.shuffle_seed.map(SplitMix64::new);
    if opts.anderson > 0 {
        ws.anderson.reset(r.len(), opts.anderson);
    }
    let mut monitor = SweepMonitor::new(opts.iter.tol, opts.iter.max_iter);
    let mut status = SolveStatus::MaxIterations;
    let mut iterations = 0;
    let mut error = f64::INFINITY;
    let mut best_error = f64::INFINITY;
    let mut accelerate = opts.anderson > 0;
    let mut stagnation = Stagnation::new(opts.stagnation_sweeps);
    for sweep in 1..=opts.iter.max_iter {
        iterations = sweep;
        if let Some(g) = rng.as_mut() {
            g.shuffle(order);
        }
        let reverse = opts.symmetric && sweep % 2 == 0;
        // Anderson accelerates the map of one sweep, or of a forward + backward pair when symmetric.
        if opts.anderson > 0 && !reverse {
            ws.start.clear();
            ws.start.extend_from_slice(r);
        }
        let mut light = 0.0;
        if opts.colouring {
            let n_colours = ws.colour_ptr.len() - 1;
            for i in 0..n_colours {
                let c = if reverse { n_colours - 1 - i } else { i };
                let contacts = &order[ws.colour_ptr[c]..ws.colour_ptr[c + 1]];
                ws.updates.clear();
                ws.updates.resize(contacts.len(), ([0.0; 3], true));
                colour_updates(p, diag, r, contacts, &mut ws.updates, opts, local);
                for (&a, (new, _)) in contacts.iter().zip(&ws.updates) {
                    light += apply_update(r, a, dim, new, opts.relaxation);
                }
            }
        } else if let Some(w3) = uniform3 {
            light = sweep_3d(w3, p, diag, r, order, reverse, opts, local);
        } else {
            for i in 0..nc {
                let a = if reverse { order[nc - 1 - i] } else { order[i] };
                let (new, _) = local_update(p, diag, r, a, opts, local);
                light += apply_update(r, a, dim, &new, opts.relaxation);
            }
        }
        let rn = super::residual::norm(r);
        let light = if rn > f64::EPSILON { light.sqrt() / rn } else { light.sqrt() };
        if monitor.wants_full(light, sweep) {
            compute_u(p, r, u);
            error = fc_error_with_u(p, r, u);
            if let Some(s) = monitor.after_full(light, error) {
                status = s;
                break;
            }
            if stagnation.stalled(error, sweep) {
                status = SolveStatus::Failed(FailReason::Stalled);
                if opts.anderson > 0 && error < best_error {
                    best_error = error;
                    ws.best.clear();
                    ws.best.extend_from_slice(r);
                }
                break;
            }
            if opts.anderson > 0 && error < best_error {
                best_error = error;
                ws.best.clear();
                ws.best.extend_from_slice(r);
            } else if accelerate && error > best_error {
                // The acceleration made the full error worse than at the best checked iterate:
                // go back to that iterate and sweep plainly from there.
                r.copy_from_slice(&ws.best);
                accelerate = false;
                error = f64::INFINITY;
                continue;
            }
        }
        if accelerate && sweep < opts.iter.max_iter && (reverse || !opts.symmetric) {
            ws.anderson.step(&ws.start, r, dim, p.mu());
            error = f64::INFINITY; // r moved: the last full error no longer describes it
        }
    }
    if !error.is_finite() || !status.converged() {
        compute_u(p, r, u);
        error = fc_error_with_u(p, r, u);
        if opts.anderson > 0 && best_error < error {
            // Extrapolated iterates are not monotone: give back the best one checked.
            r.copy_from_slice(&ws.best);
            compute_u(p, r, u);
            error = fc_error_with_u(p, r, u);
        }
    }
    Ok(SolveReport { status, iterations, residual: error, elapsed: start.elapsed() })
}

/// Greedy colouring of the contact graph (contacts `α ≠ β` adjacent when `W_αβ` or `W_βα` is
/// stored, or non-zero for a dense `W`): in index order, each contact takes the smallest colour
/// none of its earlier neighbours has. Contacts of one colour are uncoupled (`W_αβ = 0`), so
/// their local problems are independent. Writes the contacts colour by colour (increasing index
/// inside a colour) into `order` and the colour boundaries into `colour_ptr`.
pub(crate) fn colour_contacts(w: &Operator, dim: usize, order: &mut Vec<usize>, colour_ptr: &mut Vec<usize>) {
    let nc = w.nrows() / dim;
    // Edges (later contact, earlier contact), sorted: the earlier neighbours of each contact.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    match w {
        Operator::BlockCsr(m) => edges = coupled_pairs(m),
        Operator::Dense(m) => {
            for a in 0..nc {
                for b in 0..nc {
                    let coupled = (0..dim).any(|i| (0..dim).any(|j| m[(a * dim + i, b * dim + j)] != 0.0));
                    if b != a && coupled {
                        edges.push((a.max(b), a.min(b)));
                    }
                }
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let mut colour = vec![0usize; nc];
    let mut taken: Vec<usize> = Vec::new(); // taken[c] == a + 1: an earlier neighbour of a has colour c
    let mut n_colours = 0;
    let mut e = 0;
    for a in 0..nc {
        while e < edges.len() && edges[e].0 == a {
            taken[colour[edges[e].1]] = a + 1;
            e += 1;
        }
        let c = (0..n_colours).find(|&c| taken[c] != a + 1).unwrap_or(n_colours);
        if c == n_colours {
            n_colours += 1;
            taken.push(0);
        }
        colour[a] = c;
    }
    colour_ptr.clear();
    colour_ptr.resize(n_colours + 1, 0);
    for &c in &colour {
        colour_ptr[c + 1] += 1;
    }
    for c in 0..n_colours {
        colour_ptr[c + 1] += colour_ptr[c];
    }
    let mut fill = colour_ptr[..n_colours].to_vec();
    order.clear();
    order.resize(nc, 0);
    for (a, &c) in colour.iter().enumerate() {
        order[fill[c]] = a;
        fill[c] += 1;
    }
}

/// The pairs of coupled contacts of `w` (`α ≠ β` with `W_αβ` or `W_βα` stored) as
/// `(later, earlier)`, sorted and without repeats.
pub(crate) fn coupled_pairs(w: &BlockCsr) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for a in 0..w.n_block_rows() {
        for k in w.row_blocks(a) {
            let b = w.block_col(k);
            if b != a {
                edges.push((a.max(b), a.min(b)));
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    edges
}

pub(crate) fn compute_u(p: &FrictionContact, r: &[f64], u: &mut [f64]) {
    u.copy_from_slice(p.q());
    p.w().matvec_add(1.0, r, u);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fc::generate::sphere_column;
    use crate::matrix::BlockCsr;

    /// The inlined 3D sweep gives the bits of the per-contact path (`local_update` then
    /// `apply_update`), forward and reversed, with and without relaxation, on a column of spheres
    /// (isotropic blocks: closed-form sliding) and on a random coupled SPD `W` (the iterative
    /// one-contact solver); the final reactions include separated, sticking and sliding contacts.
    #[test]
    fn inlined_3d_sweep_has_the_bits_of_the_generic_one() {
        let column = sphere_column(30, 5).unwrap();
        let nc = 12;
        let mut g = SplitMix64::new(11);
        let mut unif = move || (g.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
        let h = nalgebra::DMatrix::<f64>::from_fn(3 * nc, 3 * nc + 6, |_, _| unif());
        let w = &h * h.transpose() + nalgebra::DMatrix::<f64>::identity(3 * nc, 3 * nc) * 0.1;
        let sizes = vec![3; nc];
        let coupled = FrictionContact::new(
            3,
            Operator::BlockCsr(BlockCsr::from_dense(&w, &sizes, &sizes).unwrap()),
            (0..3 * nc).map(|i| if i % 3 == 0 { -1.0 + 0.3 * (i % 7) as f64 } else { 0.8 * unif() }).collect(),
            vec![0.4; nc],
        )
        .unwrap();
        let mut regimes = [0usize; 3];
        for p in [&column, &coupled] {
            let mut ws = NsgsWorkspace::default();
            fill_diag(&mut ws, p);
            let diag = DiagBlocks { flat: &ws.diag, m3: &ws.diag3, inv: &ws.diag_inv, iso: &ws.diag_iso };
            let Operator::BlockCsr(w3) = p.w() else { panic!("block storage") };
            assert!(w3.is_uniform(3));
            let order: Vec<usize> = (0..p.n_contacts()).collect();
            for relaxation in [1.0, 1.3] {
                let opts = NsgsOptions { relaxation, ..Default::default() };
                let (mut r1, mut r2) = (vec![0.0; p.size()], vec![0.0; p.size()]);
                for sweep in 0..40 {
                    let reverse = sweep % 3 == 2;
                    let l1 = sweep_3d(w3, p, diag, &mut r1, &order, reverse, &opts, LocalSolver::AlartCurnier);
                    let mut l2 = 0.0;
                    for i in 0..order.len() {
                        let a = if reverse { order[order.len() - 1 - i] } else { order[i] };
                        let (new, _) = local_update(p, diag, &r2, a, &opts, LocalSolver::AlartCurnier);
                        l2 += apply_update(&mut r2, a, 3, &new, opts.relaxation);
                    }
                    assert_eq!(l1.to_bits(), l2.to_bits(), "sweep {sweep}");
                    assert!(r1.iter().zip(&r2).all(|(x, y)| x.to_bits() == y.to_bits()), "sweep {sweep}");
                }
                // separated, sticking, sliding contacts at the end
                for (a, ra) in r1.chunks_exact(3).enumerate() {
                    let rt = (ra[1] * ra[1] + ra[2] * ra[2]).sqrt();
                    let k = if ra[0] == 0.0 {
                        0
                    } else if rt < p.mu()[a] * ra[0] * (1.0 - 1e-9) {
                        1
                    } else {
                        2
                    };
                    regimes[k] += 1;
                }
            }
        }
        assert!(regimes.iter().all(|&k| k > 0), "separated / sticking / sliding: {regimes:?}");
        // The isotropic closed form is what the column's sliding contacts use.
        let mut ws = NsgsWorkspace::default();
        fill_diag(&mut ws, &column);
        assert!(ws.diag_iso.iter().all(Option::is_some));
        fill_diag(&mut ws, &coupled);
        assert!(ws.diag_iso.iter().all(Option::is_none));
    }

    /// Every contact gets exactly one colour and no two contacts of a colour are coupled (checked
    /// on the dense `W`), on a chain (2 colours) and on a random block pattern.
    #[test]
    fn colouring_is_a_proper_colouring() {
        let chain = sphere_column(50, 3).unwrap();
        let mut patterns = vec![(chain.w().clone(), 2)];
        let mut g = SplitMix64::new(7);
        let nc = 40;
        let mut dense = nalgebra::DMatrix::<f64>::zeros(3 * nc, 3 * nc);
        for a in 0..nc {
            dense[(3 * a, 3 * a)] = 1.0;
            for _ in 0..3 {
                let b = (g.next_u64() % nc as u64) as usize;
                dense[(3 * a + 1, 3 * b + 2)] = 0.5; // one-sided coupling: a reads b
            }
        }
        let sizes = vec![3; nc];
        patterns.push((Operator::BlockCsr(BlockCsr::from_dense(&dense, &sizes, &sizes).unwrap()), usize::MAX));
        patterns.push((Operator::Dense(dense), usize::MAX));
        for (w, expect) in &patterns {
            let (mut order, mut ptr) = (vec![], vec![]);
            colour_contacts(w, 3, &mut order, &mut ptr);
            let d = match w {
                Operator::Dense(m) => m.clone(),
                Operator::BlockCsr(m) => m.to_dense(),
            };
            let n = d.nrows() / 3;
            let mut seen = order.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>());
            if *expect != usize::MAX {
                assert_eq!(ptr.len() - 1, *expect);
            }
            for c in 0..ptr.len() - 1 {
                let col = &order[ptr[c]..ptr[c + 1]];
                for &a in col {
                    for &b in col {
                        let coupled = a != b && (0..3).any(|i| (0..3).any(|j| d[(3 * a + i, 3 * b + j)] != 0.0));
                        assert!(!coupled, "contacts {a} and {b} share colour {c}");
                    }
                }
            }
        }
    }

    /// A solve that cannot reach its tolerance (1e-300, below round-off) stops once its error
    /// has not dropped by 10 % in `stagnation_sweeps` sweeps, long before the cap, reported as
    /// stalled (not converged) with the true error of the returned iterate; a reachable tolerance
    /// is met as without the option.
    #[test]
    fn stagnation_stops_early_and_reports_not_converged() {
        let p = sphere_column(30, 5).unwrap();
        for anderson in [0, 3] {
            let mut o = NsgsOptions::with_iter(crate::report::IterOptions::new(1e-300, 100_000));
            o.anderson = anderson;
            o.stagnation_sweeps = 200;
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let rep = solve(&p, &mut r, &mut u, &o, LocalSolver::AlartCurnier).unwrap();
            assert_eq!(rep.status, SolveStatus::Failed(FailReason::Stalled), "anderson {anderson}: {rep:?}");
            assert!(rep.iterations < 100_000, "anderson {anderson}: {rep:?}");
            assert_eq!(rep.residual.to_bits(), crate::fc::fc_error(&p, &r).to_bits(), "anderson {anderson}");
            assert!(rep.residual < 1e-12, "anderson {anderson}: reached round-off first: {rep:?}");
            o.iter.tol = 1e-10;
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let rep = solve(&p, &mut r, &mut u, &o, LocalSolver::AlartCurnier).unwrap();
            assert!(rep.status.converged() && crate::fc::fc_error(&p, &r) <= 1e-10, "anderson {anderson}: {rep:?}");
        }
    }

    /// NSGS variants (coloured, symmetric, Anderson-accelerated, and all three) solve the sphere
    /// column to the Siconos error below the tolerance, like the plain sweep.
    #[test]
    fn nsgs_variants_solve_the_column() {
        let p = sphere_column(30, 5).unwrap();
        let mut base = NsgsOptions::with_iter(crate::report::IterOptions::new(1e-10, 50_000));
        base.local_tol = 1e-15;
        type Set = fn(&mut NsgsOptions);
        let variants: [(&str, Set); 4] = [
            ("colouring", |o| o.colouring = true),
            ("symmetric", |o| o.symmetric = true),
            ("anderson", |o| o.anderson = 5),
            ("all", |o| {
                o.colouring = true;
                o.symmetric = true;
                o.anderson = 5;
            }),
        ];
        for (name, set) in variants {
            let mut o = base.clone();
            set(&mut o);
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let rep = solve(&p, &mut r, &mut u, &o, LocalSolver::AlartCurnier).unwrap();
            assert!(rep.status.converged(), "{name}: {rep:?}");
            let e = crate::fc::fc_error(&p, &r);
            assert!(e < 1e-10, "{name}: error {e}");
        }
    }
}
