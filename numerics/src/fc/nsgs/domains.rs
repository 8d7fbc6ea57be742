//! NSGS on subdomains ([`NsgsOptions::domains`] = `P`): the contacts are split into parts
//! ([`super::partition`]: four slabs of breadth-first levels for `P = 2`, coloured parts of a
//! recursive bisection for `P ≥ 3`); parts of one colour share no stored block of `W`. A sweep
//! visits the parts by colour, each part's contacts in index order: a Gauss–Seidel sweep in that
//! order. A part's local problems read only its own reactions and those of its neighbours: of
//! lower colours (swept earlier in this sweep) and of higher colours (swept in the last sweep),
//! so a part swept once its lower-coloured neighbours are done gives the bits of sweeping the
//! parts one after the other: the result depends on the partition, never on the thread count.
//!
//! Each part keeps its own rows, reactions and diagonal blocks (the reactions it reads from its
//! neighbours as "ghost" copies, refreshed from a shared array of `AtomicU64` bit patterns before
//! it is swept; it publishes its own after). The workers are the calling thread and rayon tasks
//! that live for one solve; they take the parts in sweep order from a shared counter and
//! synchronize by spinning on atomics (a round trip between two cores is about 0.1 µs;
//! `rayon::join` took 12 µs on the 2-core test machine, where a sweep of the 125-sphere pile
//! takes about 8 µs). The calling thread waits for every part before the stopping test, and
//! never waits for a task that has not started: a sweep is shared by the workers checked in when
//! it begins.

use super::partition::Partition;
use super::{compute_u, local_3d_at, update_3, Diag3, DiagBlocks, Stagnation, SweepMonitor};
use crate::fc::local::slip::IsotropicBlock;
use crate::fc::residual::{fc_error_with_u, natural_map_contact, DBL_EPSILON};
use crate::fc::{FrictionContact, LocalSolver, NsgsOptions, PartSchedule};
use crate::matrix::block3_times;
use crate::matrix::BlockCsr;
use crate::report::{FailReason, SolveReport, SolveStatus};
use nalgebra::{Matrix3, Vector3};
use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// One part's own data (a slab for `P = 2`), used only by the worker sweeping it: the off-diagonal blocks of its
/// contacts' rows with local columns (its own contacts `0..n_own` in slab order, then the
/// "ghost" contacts of the neighbouring slabs that its rows read), the reactions of both, and
/// copies of `q`, `μ` and the diagonal blocks in its order. A sweep of the slab reads the ghosts'
/// reactions from the shared copy, runs Gauss–Seidel on plain `f64`s and publishes its own.
#[derive(Debug, Default)]
struct Slab {
    /// Position of the first own contact in the slab order.
    first: usize,
    n_own: usize,
    row_ptr: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<[f64; 9]>,
    /// Slab-order position of each ghost.
    ghosts: Vec<usize>,
    /// Reactions: own contacts, then ghosts (3 per contact).
    x: Vec<f64>,
    q: Vec<f64>,
    mu: Vec<f64>,
    inv: Vec<Option<Matrix3<f64>>>,
    iso: Vec<Option<IsotropicBlock>>,
    m3: Vec<Matrix3<f64>>,
}

impl Slab {
    /// Fills the slab of positions `range` (`local_of`: scratch of one entry per contact).
    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        w: &BlockCsr,
        p: &FrictionContact,
        diag: DiagBlocks<'_>,
        part: &Partition,
        inv_perm: &[usize],
        range: Range<usize>,
        local_of: &mut [usize],
        r: &[f64],
    ) {
        let Slab { row_ptr, cols, vals, ghosts, x, q, mu, inv, iso, m3, .. } = self;
        row_ptr.clear();
        cols.clear();
        vals.clear();
        ghosts.clear();
        x.clear();
        q.clear();
        mu.clear();
        inv.clear();
        iso.clear();
        m3.clear();
        self.first = range.start;
        self.n_own = range.len();
        for i in range.clone() {
            local_of[i] = i - range.start;
        }
        self.row_ptr.push(0);
        for i in range.clone() {
            let a = part.perm[i];
            for k in w.row_blocks(a) {
                let c = inv_perm[w.block_col(k)];
                if c == i {
                    continue;
                }
                if !range.contains(&c) && local_of[c] == usize::MAX {
                    local_of[c] = self.n_own + self.ghosts.len();
                    self.ghosts.push(c);
                }
                self.cols.push(local_of[c]);
                self.vals.push(w.block_values(k).try_into().expect("3 × 3 block"));
            }
            self.row_ptr.push(self.cols.len());
            self.x.extend_from_slice(&r[3 * a..3 * a + 3]);
            self.q.extend_from_slice(&p.q()[3 * a..3 * a + 3]);
            self.mu.push(p.mu()[a]);
            self.inv.push(diag.inv[a]);
            self.iso.push(diag.iso[a]);
            self.m3.push(diag.m3[a]);
        }
        self.x.resize(3 * (self.n_own + self.ghosts.len()), 0.0);
        for &c in &self.ghosts {
            local_of[c] = usize::MAX;
        }
        for i in range {
            local_of[i] = usize::MAX;
        }
    }

    /// Copies the ghosts' reactions from `shared`.
    fn import_ghosts(&mut self, shared: &[AtomicU64]) {
        let n_own = self.n_own;
        for (g, &c) in self.ghosts.iter().enumerate() {
            let v = load3(shared, c);
            self.x[3 * (n_own + g)..3 * (n_own + g) + 3].copy_from_slice(&v);
        }
    }

    /// `Σ_{β≠α} W_αβ r_β` for own contact `i` (unrolled 3 × 3 products, one sum per block).
    #[inline(always)]
    fn row3(&self, i: usize) -> [f64; 3] {
        let x = &self.x;
        let ks = self.row_ptr[i]..self.row_ptr[i + 1];
        let mut o = [0.0; 3];
        for (&c, b) in self.cols[ks.clone()].iter().zip(&self.vals[ks]) {
            let t = block3_times(b, &[x[3 * c], x[3 * c + 1], x[3 * c + 2]]);
            o = [o[0] + t[0], o[1] + t[1], o[2] + t[2]];
        }
        o
    }

    /// The full error's sums over the own contacts, `(Σ natural-map residual², Σ‖u_α‖²)` with
    /// `u_α = Σ_β W_αβ r_β + q_α` (all slabs have published this sweep's reactions).
    fn check(&mut self, shared: &[AtomicU64]) -> (f64, f64) {
        self.import_ghosts(shared);
        let (mut res, mut un) = (0.0, 0.0);
        for i in 0..self.n_own {
            let o = self.row3(i);
            let ra = Vector3::new(self.x[3 * i], self.x[3 * i + 1], self.x[3 * i + 2]);
            let d = self.m3[i] * ra;
            let q = &self.q[3 * i..3 * i + 3];
            let ua = [o[0] + d[0] + q[0], o[1] + d[1] + q[1], o[2] + d[2] + q[2]];
            res += natural_map_contact(self.mu[i], ra.as_slice(), &ua);
            un += ua[0] * ua[0] + ua[1] * ua[1] + ua[2] * ua[2];
        }
        (res, un)
    }

    /// One Gauss–Seidel sweep over the own contacts (the operations of `nsgs::sweep_3d`, with
    /// the row products over local columns): reads the ghosts from `shared`, publishes the own
    /// reactions there, and returns `(Σ‖Δr_α‖², Σ‖r_α‖²)`.
    fn sweep(&mut self, shared: &[AtomicU64], opts: &NsgsOptions, local: LocalSolver) -> (f64, f64) {
        self.import_ghosts(shared);
        let n_own = self.n_own;
        let mut light = 0.0;
        for i in 0..n_own {
            let o = self.row3(i);
            let x = &mut self.x;
            let q = &self.q[3 * i..3 * i + 3];
            let qa = Vector3::new(o[0] + q[0], o[1] + q[1], o[2] + q[2]);
            let d = Diag3 { inv: self.inv[i].as_ref(), iso: self.iso[i].as_ref(), m3: &self.m3[i] };
            let ra: &mut [f64; 3] = (&mut x[3 * i..3 * i + 3]).try_into().expect("3 values");
            let new = local_3d_at(qa, self.mu[i], d, *ra, opts, local);
            if new.iter().all(|v| v.is_finite()) {
                light += update_3(ra, &new, opts.relaxation);
            }
        }
        let (x, mut sq) = (&self.x, 0.0);
        for i in 0..n_own {
            let v = [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
            sq += v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
            store3(shared, self.first + i, v);
        }
        (light, sq)
    }
}

#[inline(always)]
fn load3(x: &[AtomicU64], i: usize) -> [f64; 3] {
    let l = |k: usize| f64::from_bits(x[3 * i + k].load(Ordering::Relaxed));
    [l(0), l(1), l(2)]
}

#[inline(always)]
fn store3(x: &[AtomicU64], i: usize, v: [f64; 3]) {
    for (k, v) in v.into_iter().enumerate() {
        x[3 * i + k].store(v.to_bits(), Ordering::Relaxed);
    }
}

/// Buffers of the subdomain sweep.
#[derive(Debug, Default)]
pub(crate) struct DomainWorkspace {
    slabs: Vec<Mutex<Slab>>,
    inv_perm: Vec<usize>,
    local_of: Vec<usize>,
    /// The reactions in slab order, as bits: each slab publishes its own after its sweep.
    shared: Vec<AtomicU64>,
    /// The [`SUMS`] sums of each slab, as bits.
    sums: Vec<AtomicU64>,
    /// Nanoseconds each worker spent sweeping or checking parts in the last solve.
    busy: Vec<AtomicU64>,
    /// How the workers spent the last solve.
    last: Option<TeamTimes>,
}

/// How the workers of the last subdomain solve spent its sweeps: the time each one spent
/// sweeping (or checking) parts; the rest of `workers × wall` was spent waiting (spinning on a
/// neighbour part, on the next command or on the stopping test of the calling thread).
#[derive(Debug, Clone, PartialEq)]
pub struct TeamTimes {
    /// Wall time of the sweep loop (set-up and gather excluded).
    pub wall: std::time::Duration,
    /// Time in parts of each worker (the calling thread first; helpers in the order they
    /// checked in; a helper the pool never ran shows 0).
    pub busy: Vec<std::time::Duration>,
}

impl DomainWorkspace {
    /// The workers' times in the last subdomain solve (`None` before the first).
    pub fn last_times(&self) -> Option<&TeamTimes> {
        self.last.as_ref()
    }

    /// Clears [`DomainWorkspace::last_times`] (a solve that does not sweep on subdomains).
    pub fn forget_times(&mut self) {
        self.last = None;
    }
}

impl Clone for DomainWorkspace {
    fn clone(&self) -> Self {
        // Scratch space only: a clone starts empty.
        DomainWorkspace::default()
    }
}

/// What the workers share during a solve.
#[derive(Clone, Copy)]
struct SweepData<'a> {
    part: &'a Partition,
    slabs: &'a [Mutex<Slab>],
    shared: &'a [AtomicU64],
    sums: &'a [AtomicU64],
    busy: &'a [AtomicU64],
    opts: &'a NsgsOptions,
    local: LocalSolver,
}

impl SweepData<'_> {
    /// Sweeps slab `j` (or evaluates its part of the full error, `check`) on worker `t` and
    /// stores its sums.
    fn run_part(&self, j: usize, t: usize, check: bool) {
        let clock = Instant::now();
        let mut slab = self.slabs[j].lock().unwrap_or_else(PoisonError::into_inner);
        let (a, b) = if check { slab.check(self.shared) } else { slab.sweep(self.shared, self.opts, self.local) };
        let k = SUMS * j + if check { 2 } else { 0 };
        self.sums[k].store(a.to_bits(), Ordering::Relaxed);
        self.sums[k + 1].store(b.to_bits(), Ordering::Relaxed);
        drop(slab);
        self.busy[t].fetch_add(clock.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }

    /// Worker `t`'s part of command `phase` with `n_workers` workers. [`SWEEP`]: the workers
    /// take the parts in sweep order (by colour) from the counter `next` (tagged with the
    /// generation in its high 32 bits), and sweep each once its lower-coloured neighbours have
    /// been swept in this generation (`done[j]` = the generation in which part `j` was last
    /// swept); which worker sweeps a part does not change the bits. [`CHECK`]: its parts'
    /// shares of the full error.
    fn run_phase(&self, phase: usize, t: usize, n_workers: usize, generation: u64, team: &Team) {
        let (done, next) = (&team.swept[..], &team.next);
        let n_parts = self.part.parts.len();
        if phase == CHECK {
            for j in (t..n_parts).step_by(n_workers) {
                self.run_part(j, t, true);
            }
            return;
        }
        if self.opts.schedule == PartSchedule::Ready {
            self.sweep_ready(t, generation, team);
            return;
        }
        if self.opts.schedule == PartSchedule::Owned {
            for i in (t..n_parts).step_by(n_workers) {
                self.sweep_when_ready(self.part.order[i], t, generation, done);
            }
            return;
        }
        let tag = generation & 0xFFFF_FFFF;
        loop {
            let v = next.load(Ordering::Acquire);
            let i = (v & 0xFFFF_FFFF) as usize;
            if v >> 32 != tag || i >= n_parts {
                return;
            }
            if next.compare_exchange_weak(v, v + 1, Ordering::AcqRel, Ordering::Acquire).is_err() {
                continue;
            }
            self.sweep_when_ready(self.part.order[i], t, generation, done);
        }
    }

    /// Worker `t` sweeps part `j` once its lower-coloured neighbours are swept in `generation`,
    /// then marks it swept.
    fn sweep_when_ready(&self, j: usize, t: usize, generation: u64, done: &[AtomicU64]) {
        let wait = &self.part.wait_for[j];
        if !wait.is_empty() {
            spin_until(|| wait.iter().all(|&k| done[k].load(Ordering::Acquire) == generation));
        }
        self.run_part(j, t, false);
        done[j].store(generation, Ordering::Release);
    }

    /// Worker `t`'s part of a sweep with [`PartSchedule::Ready`]: takes the next part of the
    /// ready queue (its lower-coloured neighbours done), sweeps it, queues the higher-coloured
    /// neighbours it was the last to wait for, then marks it swept (in that order: once every
    /// part is marked, no worker touches the queue of this generation). The queue's head
    /// carries the generation in its high 32 bits, so a worker late from the last sweep cannot
    /// take a part of this one.
    fn sweep_ready(&self, t: usize, generation: u64, team: &Team) {
        let n_parts = self.part.parts.len() as u64;
        let tag = generation & 0xFFFF_FFFF;
        loop {
            let h = team.next.load(Ordering::Acquire);
            let i = h & 0xFFFF_FFFF;
            if h >> 32 != tag || i >= n_parts {
                return;
            }
            if i as usize >= team.tail.load(Ordering::Acquire) {
                std::hint::spin_loop(); // no part ready yet
                continue;
            }
            if team.next.compare_exchange_weak(h, h + 1, Ordering::AcqRel, Ordering::Acquire).is_err() {
                continue;
            }
            let slot = &team.queue[i as usize];
            let mut j = slot.load(Ordering::Acquire);
            while j == EMPTY_SLOT {
                std::hint::spin_loop(); // queued, not yet written
                j = slot.load(Ordering::Acquire);
            }
            let j = j as usize;
            self.run_part(j, t, false);
            for &k in &self.part.release[j] {
                if team.pending[k].fetch_sub(1, Ordering::AcqRel) == 1 {
                    let at = team.tail.fetch_add(1, Ordering::AcqRel);
                    team.queue[at].store(k as u32, Ordering::Release);
                }
            }
            team.swept[j].store(generation, Ordering::Release);
        }
    }

    /// `Σ_slabs` of sum `k` of [`SUMS`] (in slab order: the same bits for any thread count).
    fn total(&self, k: usize) -> f64 {
        self.sums.iter().skip(k).step_by(SUMS).map(|v| f64::from_bits(v.load(Ordering::Relaxed))).sum()
    }

    /// The reactions in the contacts' own order.
    fn gather(&self, r: &mut [f64]) {
        for (i, &a) in self.part.perm.iter().enumerate() {
            r[3 * a..3 * a + 3].copy_from_slice(&load3(self.shared, i));
        }
    }
}

/// The command word of a solve's team: generation (bits 16 and up), command (bits 8–15:
/// [`SWEEP`], [`CHECK`] or [`STOP`]) and the number of workers it is shared by (bits 0–7).
const STOP: u64 = 0xFF;
/// Commands: one sweep (the parts by colour), the full error.
const SWEEP: usize = 0;
const CHECK: usize = 1;
/// Sums kept per slab: `Σ‖Δr_α‖²`, `Σ‖r_α‖²` (sweep), natural-map residual², `Σ‖u_α‖²` (check).
const SUMS: usize = 4;
/// A slot of the ready queue not yet written.
const EMPTY_SLOT: u32 = u32::MAX;
/// At most this many workers (the command word's field).
const MAX_WORKERS: usize = 255;

fn command(generation: u64, phase: u64, workers: usize) -> u64 {
    (generation << 16) | (phase << 8) | workers as u64
}

/// The workers of a solve. The calling thread is worker 0 and never waits for a helper that has
/// not checked in: helpers (rayon tasks) join whenever the pool runs them, and each command is
/// shared by the workers that had checked in when it was published (same bits for any number).
/// A command's workers synchronize through `swept` (sweeps) or `done` (error checks).
struct Team {
    cmd: AtomicU64,
    joined: AtomicUsize,
    /// Workers done with the current [`CHECK`].
    done: AtomicUsize,
    /// The generation in which each part was last swept.
    swept: Vec<AtomicU64>,
    /// The next part of the sweep order (or of the ready queue) to take (low 32 bits), tagged
    /// with the generation.
    next: AtomicU64,
    /// [`PartSchedule::Ready`]: the parts in the order they became ready ([`EMPTY_SLOT`]: not
    /// yet written), the number queued, and each part's lower-coloured neighbours not yet swept.
    queue: Vec<AtomicU32>,
    tail: AtomicUsize,
    pending: Vec<AtomicU32>,
    max_workers: usize,
}

/// Spins, then yields, until `ready()`.
fn spin_until(mut ready: impl FnMut() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        if spins < 1 << 14 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

impl Team {
    fn new(max_workers: usize, n_slabs: usize) -> Self {
        Team {
            cmd: AtomicU64::new(command(0, 0, 0)),
            joined: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            swept: (0..n_slabs).map(|_| AtomicU64::new(0)).collect(),
            next: AtomicU64::new(0),
            queue: (0..n_slabs).map(|_| AtomicU32::new(EMPTY_SLOT)).collect(),
            tail: AtomicUsize::new(0),
            pending: (0..n_slabs).map(|_| AtomicU32::new(0)).collect(),
            max_workers: max_workers.clamp(1, MAX_WORKERS),
        }
    }

    /// A helper: checks in, then runs its parts of every phase that counts it until [`STOP`].
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    fn helper(&self, data: &SweepData<'_>) {
        let t = self.joined.fetch_add(1, Ordering::AcqRel) + 1;
        let mut c = self.cmd.load(Ordering::Acquire);
        loop {
            let (phase, workers) = ((c >> 8) & 0xFF, (c & 0xFF) as usize);
            if phase == STOP {
                return;
            }
            let generation = c >> 16;
            if t < workers {
                data.run_phase(phase as usize, t, workers, generation, self);
                if phase as usize == CHECK {
                    self.done.fetch_add(1, Ordering::Release);
                }
            }
            spin_until(|| {
                c = self.cmd.load(Ordering::Acquire);
                c >> 16 != generation
            });
        }
    }

    /// Runs command `phase` on the workers checked in so far (the calling thread is worker 0),
    /// waiting for all of it: every slab swept in this generation ([`SWEEP`]), or every
    /// worker's count in `done` ([`CHECK`]).
    fn run(&self, data: &SweepData<'_>, phase: usize) {
        let workers = (1 + self.joined.load(Ordering::Acquire)).min(self.max_workers);
        let generation = (self.cmd.load(Ordering::Relaxed) >> 16) + 1;
        // every worker of the previous command has finished: `done` can start again
        self.done.store(0, Ordering::Relaxed);
        self.next.store((generation & 0xFFFF_FFFF) << 32, Ordering::Relaxed);
        if phase == SWEEP && data.opts.schedule == PartSchedule::Ready {
            // every part of the last sweep is marked: nobody uses the queue now
            let part = data.part;
            let mut tail = 0;
            for &j in &part.order {
                let n = part.wait_for[j].len();
                self.pending[j].store(n as u32, Ordering::Relaxed);
                if n == 0 {
                    self.queue[tail].store(j as u32, Ordering::Relaxed);
                    tail += 1;
                }
            }
            self.queue[tail..].iter().for_each(|q| q.store(EMPTY_SLOT, Ordering::Relaxed));
            self.tail.store(tail, Ordering::Relaxed);
        }
        self.cmd.store(command(generation, phase as u64, workers), Ordering::Release);
        data.run_phase(phase, 0, workers, generation, self);
        if phase == CHECK {
            spin_until(|| self.done.load(Ordering::Acquire) == workers - 1);
        } else {
            spin_until(|| self.swept.iter().all(|g| g.load(Ordering::Acquire) == generation));
        }
    }

    fn stop(&self) {
        let generation = (self.cmd.load(Ordering::Relaxed) >> 16) + 1;
        self.cmd.store(command(generation, STOP, 0), Ordering::Release);
    }
}

/// Sends the helpers home however the solve loop ends.
struct StopOnDrop<'a>(&'a Team);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Fills every part's [`Slab`] (on rayon's pool with the feature `parallel`: each slab is a
/// function of the problem and the partition only, whoever fills it).
fn fill_slabs(
    ws: &mut DomainWorkspace,
    p: &FrictionContact,
    w: &BlockCsr,
    diag: DiagBlocks<'_>,
    part: &Partition,
    r: &[f64],
) {
    let nc = part.perm.len();
    let slabs = &mut ws.slabs[..part.parts.len()];
    let inv_perm = &ws.inv_perm;
    #[cfg(feature = "parallel")]
    if rayon::current_num_threads() > 1 && slabs.len() > 1 {
        use rayon::prelude::*;
        slabs.par_iter_mut().zip(&part.parts).for_each_init(
            || vec![usize::MAX; nc],
            |local_of, (slab, range)| {
                let slab = slab.get_mut().unwrap_or_else(PoisonError::into_inner);
                slab.fill(w, p, diag, part, inv_perm, range.clone(), local_of, r);
            },
        );
        return;
    }
    ws.local_of.clear();
    ws.local_of.resize(nc, usize::MAX);
    for (slab, range) in slabs.iter_mut().zip(&part.parts) {
        let slab = slab.get_mut().unwrap_or_else(PoisonError::into_inner);
        slab.fill(w, p, diag, part, inv_perm, range.clone(), &mut ws.local_of, r);
    }
}

/// NSGS in the slab order `part` on a 3D problem whose `W` (= `w`) has uniform 3 × 3
/// blocks; the stopping rule, error and report are those of [`super::solve_with`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve(
    ws: &mut DomainWorkspace,
    p: &FrictionContact,
    w: &BlockCsr,
    diag: DiagBlocks<'_>,
    part: &Partition,
    r: &mut [f64],
    u: &mut [f64],
    opts: &NsgsOptions,
    local: LocalSolver,
) -> SolveReport {
    let start = Instant::now();
    let nc = part.perm.len();
    ws.inv_perm.clear();
    ws.inv_perm.resize(nc, 0);
    for (i, &a) in part.perm.iter().enumerate() {
        ws.inv_perm[a] = i;
    }
    ws.slabs.resize_with(part.parts.len(), Default::default);
    fill_slabs(ws, p, w, diag, part, r);
    ws.shared.clear();
    ws.shared.extend(part.perm.iter().flat_map(|&a| r[3 * a..3 * a + 3].iter().map(|v| AtomicU64::new(v.to_bits()))));
    ws.sums.clear();
    ws.sums.resize_with(SUMS * part.parts.len(), || AtomicU64::new(0));
    ws.busy.clear();
    ws.busy.resize_with(MAX_WORKERS, || AtomicU64::new(0));
    let data = SweepData {
        part,
        slabs: &ws.slabs[..part.parts.len()],
        shared: &ws.shared,
        sums: &ws.sums,
        busy: &ws.busy,
        opts,
        local,
    };
    #[cfg(feature = "parallel")]
    let threads = match opts.threads {
        0 => rayon::current_num_threads(),
        n => n,
    };
    #[cfg(not(feature = "parallel"))]
    let threads = 1;
    // more spinning workers than cores would wait for each other's time slices
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let team = Team::new(threads.min(part.n_domains()).min(cores), part.parts.len());
    let loop_start = Instant::now();
    let main = || {
        let _stop = StopOnDrop(&team);
        sweeps(p, &team, &data, opts)
    };
    #[cfg(feature = "parallel")]
    let (status, iterations, error) = rayon::scope(|scope| {
        for _ in 1..team.max_workers {
            scope.spawn(|_| team.helper(&data));
        }
        main()
    });
    #[cfg(not(feature = "parallel"))]
    let (status, iterations, error) = main();
    let wall = loop_start.elapsed();
    let busy = ws.busy[..team.max_workers].iter().map(|b| Duration::from_nanos(b.load(Ordering::Relaxed))).collect();
    ws.last = Some(TeamTimes { wall, busy });
    data.gather(r);
    compute_u(p, r, u);
    // as the plain sweep: an unconverged solve reports the error of what it returns
    let error = if !error.is_finite() || !status.converged() { fc_error_with_u(p, r, u) } else { error };
    SolveReport { status, iterations, residual: error, elapsed: start.elapsed() }
}

/// The sweep loop of [`solve`] on the calling thread: status, sweeps and the last full error.
fn sweeps(p: &FrictionContact, team: &Team, data: &SweepData<'_>, opts: &NsgsOptions) -> (SolveStatus, usize, f64) {
    let mut monitor = SweepMonitor::new(opts.iter.tol, opts.iter.max_iter);
    let mut stagnation = Stagnation::new(opts.stagnation_sweeps);
    let mut error = f64::INFINITY;
    for sweep in 1..=opts.iter.max_iter {
        team.run(data, SWEEP);
        // Σ‖Δr_α‖² and ‖r‖², summed slab by slab (taken during each slab's sweep)
        let (light, rn) = (data.total(0), data.total(1).sqrt());
        let light = if rn > f64::EPSILON { light.sqrt() / rn } else { light.sqrt() };
        if monitor.wants_full(light, sweep) {
            // the normalized error of `fc_error_with_u`, its sums taken slab by slab
            team.run(data, CHECK);
            let (res, un) = (data.total(2).sqrt(), data.total(3).sqrt());
            let scale = p.q_norm().max(rn).max(un);
            error = if scale > DBL_EPSILON { res / scale } else { res };
            if let Some(s) = monitor.after_full(light, error) {
                return (s, sweep, error);
            }
            if stagnation.stalled(error, sweep) {
                return (SolveStatus::Failed(FailReason::Stalled), sweep, error);
            }
        }
    }
    // the last sweep is always checked (`wants_full` at `max_iter`)
    (SolveStatus::MaxIterations, opts.iter.max_iter, error)
}
