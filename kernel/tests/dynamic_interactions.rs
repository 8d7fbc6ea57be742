//! Interactions linked and removed during a run (Siconos column-of-beads tutorial): a column of
//! N beads (m = 1, r = 0.1, g = 9.81) falls onto the ground; Newton impact e = 0.8, Moreau–Jean
//! θ = 1/2, h = 1e-3, Lemke. Run A declares every bead–bead contact up front; run B starts with the
//! ground contact only and, between steps, links contact i (beads i−1, i) when its gap
//! z_i − z_(i−1) − 2r drops below the activation distance d and removes it when the gap exceeds
//! d again. A contact farther than d is outside the Moreau–Jean active set (y + γ h ẏ > 0 since
//! d > γ h |ẏ|max) and gets no impulse, so both runs solve the same one-step problems.

// `linked[i]` and the gaps are indexed by the same bead number.
#![allow(clippy::needless_range_loop)]

use nalgebra::{dmatrix, dvector};
use saltus_kernel::{
    solvers::lcp::LcpSolver, DsId, EventDriven, EventDrivenOptions, InterId, KernelError, LagrangianLinearTiDs,
    LagrangianLinearTiR, NonSmoothLaw, Nsds, Osi, Osnsp, Relation, TimeStepping, VecOp,
};

const N: usize = 10;
const R: f64 = 0.1;
const G: f64 = 9.81;
const E: f64 = 0.8;
const H: f64 = 1e-3;

fn ground() -> Relation {
    Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0]).with_b(dvector![-R]))
}
fn pair() -> Relation {
    Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![-1.0, 1.0]).with_b(dvector![-2.0 * R]))
}
fn law() -> NonSmoothLaw {
    NonSmoothLaw::NewtonImpact { e: E }
}

/// Initial velocity of bead i (|v0| ≤ V0): neighbours fly towards and away from each other, so
/// contacts close and open in the air as well as in the column.
fn v0(i: usize) -> f64 {
    V0 * (((7 * i) % 5) as f64 - 2.0) / 2.0
}
const V0: f64 = 1.0;

/// The beads (bead i at z = 0.15 + 0.25 i, velocity `v0(i)`) and the ground contact; all pair
/// contacts if `all`.
fn column(all: bool) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    for i in 0..N {
        let ds = LagrangianLinearTiDs::new(dvector![0.15 + 0.25 * i as f64], dvector![v0(i)], dmatrix![1.0])
            .with_f_ext(VecOp::Constant(dvector![-G]));
        nsds.add_ds(format!("bead{i}"), ds).unwrap();
    }
    nsds.link("ground", DsId(0), None, ground(), law()).unwrap();
    if all {
        for i in 1..N {
            nsds.link(format!("contact{i}"), DsId(i as u32 - 1), Some(DsId(i as u32)), pair(), law()).unwrap();
        }
    }
    nsds
}

fn sim(nsds: &Nsds) -> TimeStepping {
    TimeStepping::new(nsds, H, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default()))).unwrap()
}

fn z(nsds: &Nsds, i: usize) -> f64 {
    nsds.systems()[i].state()[0]
}
fn v(nsds: &Nsds, i: usize) -> f64 {
    nsds.systems()[i].velocity().unwrap()[0]
}
fn gap(nsds: &Nsds, i: usize) -> f64 {
    z(nsds, i) - z(nsds, i - 1) - 2.0 * R
}

#[test]
fn linking_near_contacts_during_the_run_matches_declaring_them_all() {
    // speeds stay below V0 + sqrt(2 g z_top) (z_top = 2.4 + V0²/2g), relative ones below twice that
    let vrel = 2.0 * (V0 + (2.0 * G * 2.4 + V0 * V0).sqrt());
    let d = 2.0 * H * vrel;
    let mut max_ydot = 0.0f64;
    let mut live_sum = 0usize;
    let mut a = column(true);
    let mut b = column(false);
    let (mut sa, mut sb) = (sim(&a), sim(&b));
    let mut linked: Vec<Option<InterId>> = vec![None; N];
    let (mut max_pos, mut max_vel) = (0.0f64, 0.0f64);
    let (mut peak, mut links, mut removals, mut impulses) = (0usize, 0usize, 0usize, 0usize);
    let steps = 3000;
    for k in 0..steps {
        for i in 1..N {
            let g = gap(&b, i);
            match linked[i] {
                None if g < d => {
                    let id = sb
                        .link(&mut b, format!("contact{i}"), DsId(i as u32 - 1), Some(DsId(i as u32)), pair(), law())
                        .unwrap();
                    linked[i] = Some(id);
                    links += 1;
                }
                Some(id) if g > d => {
                    sb.remove_interaction(&mut b, id).unwrap();
                    linked[i] = None;
                    removals += 1;
                }
                _ => {}
            }
        }
        // B holds exactly the ground plus the contacts nearer than d, and no more slots than its peak
        let near = (1..N).filter(|&i| gap(&b, i) < d).count();
        assert_eq!(b.n_linked(), 1 + near, "step {k}");
        peak = peak.max(b.n_linked());
        live_sum += b.n_linked();
        assert!(b.n_interactions() <= peak, "slots {} > peak {peak}", b.n_interactions());
        // every contact of A's next active set is linked in B
        for id in sa.index_sets().set(1) {
            let i = id.index();
            assert!(i == 0 || linked[i].is_some(), "step {k}: contact {i} active in A, not linked in B");
        }
        sa.step(&mut a).unwrap();
        sb.step(&mut b).unwrap();
        for i in 0..N {
            max_pos = max_pos.max((z(&a, i) - z(&b, i)).abs());
            max_vel = max_vel.max((v(&a, i) - v(&b, i)).abs());
        }
        // contacts of A that B does not hold got no impulse
        for (i, l) in linked.iter().enumerate().skip(1) {
            max_ydot = max_ydot.max(a.interactions()[i].y(1).unwrap()[0].abs());
            let lam = a.interactions()[i].lambda(1).unwrap()[0];
            if lam > 0.0 {
                impulses += 1;
                assert!(l.is_some(), "step {k}: contact {i} got λ = {lam} in A but is not linked in B");
                let lb = b.interactions()[l.unwrap().index()].lambda(1).unwrap()[0];
                assert!((lam - lb).abs() <= 1e-12 * (1.0 + lam), "step {k}: λ {lam} vs {lb}");
            }
        }
    }
    eprintln!(
        "d = {d:.4}: {links} links, {removals} removals, peak {peak} live interactions, mean {:.2} (A: {}), {impulses} \
         bead-bead impulses, max |ẏ| {max_ydot:.3}; max |Δq| = {max_pos:e}, max |Δv| = {max_vel:e}",
        live_sum as f64 / steps as f64,
        a.n_interactions()
    );
    // the activation distance covers the Moreau–Jean look-ahead γ h ẏ actually met
    assert!(0.5 * H * max_ydot < d, "max |ẏ| = {max_ydot}");
    assert!(links > N - 1 && removals > 0, "the column must close and open contacts");
    assert!(impulses > 0);
    assert!(max_pos <= 1e-12 && max_vel <= 1e-12, "A vs B: |Δq| = {max_pos:e}, |Δv| = {max_vel:e}");
    // the column comes to rest: every contact is near, B then holds all of them
    assert_eq!(b.n_linked(), N);
}

#[test]
fn bad_ids_dimensions_and_stale_topologies_are_typed_errors() {
    let mut nsds = column(false);
    let mut s = sim(&nsds);
    // unknown id, then remove twice
    assert!(matches!(s.remove_interaction(&mut nsds, InterId::new(7, 0)), Err(KernelError::InvalidModel { .. })));
    let id = s.link(&mut nsds, "c1", DsId(0), Some(DsId(1)), pair(), law()).unwrap();
    assert_eq!(id, InterId::new(1, 0));
    s.remove_interaction(&mut nsds, id).unwrap();
    assert!(matches!(s.remove_interaction(&mut nsds, id), Err(KernelError::InvalidModel { .. })));
    // wrong dimension (H has 3 columns, the two beads 2 coordinates) and unknown system: nothing changes
    let bad = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0, 1.0, 1.0]));
    let e = s.link(&mut nsds, "bad", DsId(0), Some(DsId(1)), bad, law()).unwrap_err();
    assert!(matches!(e, KernelError::InvalidModel { .. }), "{e}");
    assert!(s.link(&mut nsds, "bad", DsId(0), Some(DsId(99)), pair(), law()).is_err());
    assert_eq!(nsds.n_linked(), 1);
    // the freed slot is reused
    let id2 = s.link(&mut nsds, "c2", DsId(1), Some(DsId(2)), pair(), law()).unwrap();
    assert_eq!(id2, InterId::new(1, 1), "slot 1 reused, next generation");
    assert_eq!(nsds.interactions_of(DsId(2)), &[id2]);
    // the handle of the removed c1 is stale: refused, never taken for c2 in its slot
    assert!(!nsds.is_linked(id) && nsds.interaction(id).is_none());
    match s.remove_interaction(&mut nsds, id) {
        Err(e @ KernelError::InvalidModel { .. }) => assert!(e.to_string().contains("stale handle"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(nsds.is_linked(id2) && nsds.interaction(id2).is_some_and(|i| i.name == "c2"));
    assert!(nsds.interactions_of(DsId(0)).iter().all(|i| *i == InterId::new(0, 0)));
    s.step(&mut nsds).unwrap();
    // Siconos's pattern: nsds.link, then initializeInteraction (the log entry is then consumed)
    nsds.link("c3", DsId(2), Some(DsId(3)), pair(), law()).unwrap();
    s.initialize_interaction(&mut nsds, InterId::new(2, 0)).unwrap();
    s.step(&mut nsds).unwrap();
    assert!(nsds.interactions().iter().all(|i| i.y(0).unwrap().iter().all(|y| y.is_finite())));
    // event-driven simulations need a model without tombstones
    s.remove_interaction(&mut nsds, id2).unwrap();
    let ed = EventDriven::new(&nsds, EventDrivenOptions::default());
    assert!(matches!(ed, Err(KernelError::InvalidOption { option: "nsds", .. })));
    // a removed slot keeps zero y and λ in the model while the run goes on
    s.step(&mut nsds).unwrap();
    let dead = &nsds.interactions()[1];
    assert!(!nsds.is_linked(id2) && dead.y(0).unwrap()[0] == 0.0 && dead.lambda(1).unwrap()[0] == 0.0);
}

/// Links and removals made on the model alone (`Nsds::link`, `Nsds::remove_interaction`
/// between steps) are taken from the model's change log at the start of the next step, exactly
/// as if they had gone through the simulation: run A links and removes through
/// `TimeStepping::link`/`remove_interaction`, run B on the model only, and both keep the same
/// bits; several changes between two steps, a link removed again and a reused slot included. A
/// system added during a run is refused at the next step, by name, never ignored.
#[test]
fn changes_made_on_the_model_are_replayed_at_the_next_step() {
    let (mut a, mut b) = (column(false), column(false));
    let (mut sa, mut sb) = (sim(&a), sim(&b));
    let mut ids = Vec::new();
    for k in 0..400 {
        match k {
            20 => {
                for i in 1..N {
                    let (d1, d2) = (DsId(i as u32 - 1), Some(DsId(i as u32)));
                    let ia = sa.link(&mut a, format!("c{i}"), d1, d2, pair(), law()).unwrap();
                    let ib = b.link(format!("c{i}"), d1, d2, pair(), law()).unwrap();
                    assert_eq!(ia, ib);
                    ids.push(ia);
                }
            }
            150 => {
                // a link and its removal between the same two steps, then a removal, then a
                // link that reuses the freed slot
                let t = sa.link(&mut a, "tmp", DsId(0), Some(DsId(2)), pair(), law()).unwrap();
                sa.remove_interaction(&mut a, t).unwrap();
                let u = b.link("tmp", DsId(0), Some(DsId(2)), pair(), law()).unwrap();
                b.remove_interaction(u).unwrap();
                sa.remove_interaction(&mut a, ids[3]).unwrap();
                b.remove_interaction(ids[3]).unwrap();
                let ra = sa.link(&mut a, "again", DsId(3), Some(DsId(4)), pair(), law()).unwrap();
                let rb = b.link("again", DsId(3), Some(DsId(4)), pair(), law()).unwrap();
                assert_eq!(ra, rb);
            }
            _ => {}
        }
        sa.step(&mut a).unwrap();
        sb.step(&mut b).unwrap();
        for (da, db) in a.systems().iter().zip(b.systems()) {
            let bits = |d: &saltus_kernel::DynamicalSystem| {
                let v = d.velocity().unwrap();
                (d.state()[0].to_bits(), v[0].to_bits())
            };
            assert_eq!(bits(da), bits(db), "step {k}");
        }
    }
    assert_eq!(a.n_linked(), b.n_linked());
    // the column came down on its contacts: some bead-bead impulse was applied
    assert!(b.interactions().iter().skip(1).any(|i| i.lambda(1).is_some_and(|l| l[0] > 0.0)));
    let extra = LagrangianLinearTiDs::new(dvector![5.0], dvector![0.0], dmatrix![1.0]);
    b.add_ds("late", extra).unwrap();
    match sb.step(&mut b) {
        Err(KernelError::UnsupportedSystem { reason, .. }) => assert!(reason.contains("`late`"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // the direct projection fixes its constraint rows at construction: a change is refused
    let mut c = column(false);
    let lemke = Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
    let mut p =
        saltus_kernel::TimeSteppingDirectProjection::new(&c, H, Osi::moreau_jean(0.5), lemke, Default::default())
            .unwrap();
    p.step(&mut c).unwrap();
    c.link("c1", DsId(0), Some(DsId(1)), pair(), law()).unwrap();
    assert!(matches!(p.step(&mut c), Err(KernelError::InvalidOption { option: "nsds", .. })));
}
