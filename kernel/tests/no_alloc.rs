//! Once the active set is stable, a step allocates nothing (bouncing ball at rest, diode
//! bridge). Counted with a global allocator wrapper; this file holds a single test so no other
//! thread allocates while counting.
mod common;

use saltus_kernel::{solvers::lcp::LcpSolver, Osi, Osnsp, TimeStepping};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn no_allocation_per_step_once_the_active_set_is_stable() {
    // bouncing ball: at rest after the Zeno point (t > 8.6 s), the contact stays active
    let mut nsds = common::bouncing_ball();
    let mut sim = TimeStepping::new(
        &nsds,
        0.005,
        Osi::moreau_jean(0.5),
        Osnsp::Lcp(LcpSolver::Lemke(Default::default())),
    )
    .unwrap();
    for _ in 0..1800 {
        sim.step(&mut nsds).unwrap();
    }
    let before = ALLOCS.load(Ordering::Relaxed);
    for _ in 0..200 {
        let rep = sim.step(&mut nsds).unwrap();
        assert_eq!(rep.active, 1);
    }
    assert_eq!(
        ALLOCS.load(Ordering::Relaxed) - before,
        0,
        "bouncing ball steps allocated"
    );
    // diode bridge: every interaction is always active
    let mut nsds = common::diode_bridge();
    let mut sim = TimeStepping::new(
        &nsds,
        1e-6,
        Osi::euler_moreau(0.5),
        Osnsp::Lcp(LcpSolver::Lemke(Default::default())),
    )
    .unwrap();
    for _ in 0..10 {
        sim.step(&mut nsds).unwrap();
    }
    let before = ALLOCS.load(Ordering::Relaxed);
    for _ in 0..1000 {
        sim.step(&mut nsds).unwrap();
    }
    assert_eq!(
        ALLOCS.load(Ordering::Relaxed) - before,
        0,
        "diode bridge steps allocated"
    );
}
