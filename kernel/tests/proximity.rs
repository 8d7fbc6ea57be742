//! Interactions declared with an activation distance (`ProximityManager`): a column of N beads
//! (m = 1, r = 0.1, g = 9.81, e = 0.8, Moreau–Jean θ = 1/2, h = 1e-3, Lemke) whose neighbours fly
//! towards and away from each other. Run A declares every bead–bead contact up front; run B
//! declares them with an activation distance d and lets the simulation link and remove them.
//! While d > γ h |ẏ|max a contact farther than d cannot be active, so both runs solve the same
//! one-step problems: the trajectories agree to round-off, with far fewer live interactions in B.

use nalgebra::{dmatrix, dvector};
use saltus_kernel::{
    solvers::lcp::LcpSolver, DsId, Interaction, KernelError, LagrangianLinearTiDs, LagrangianLinearTiR,
    LagrangianScleronomousR, NonSmoothLaw, Nsds, Osi, Osnsp, ProximityInteraction, ProximityManager, Relation,
    TimeStepping, VecOp,
};

const N: usize = 12;
const R: f64 = 0.1;
const G: f64 = 9.81;
const H: f64 = 1e-3;

fn law() -> NonSmoothLaw {
    NonSmoothLaw::NewtonImpact { e: 0.8 }
}
fn pair() -> Relation {
    Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![-1.0, 1.0]).with_b(dvector![-2.0 * R]))
}
fn contact(i: usize) -> Interaction {
    Interaction::new(format!("contact{i}"), DsId(i as u32 - 1), Some(DsId(i as u32)), pair(), law())
}

/// Beads at z = 0.15 + 0.25 i with velocities in [−1, 1] (neighbours approach and separate),
/// the ground contact, and every pair contact if `all`.
fn column(all: bool) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    for i in 0..N {
        let v = (((7 * i) % 5) as f64 - 2.0) / 2.0;
        let ds = LagrangianLinearTiDs::new(dvector![0.15 + 0.25 * i as f64], dvector![v], dmatrix![1.0])
            .with_f_ext(VecOp::Constant(dvector![-G]));
        nsds.add_ds(format!("bead{i}"), ds).unwrap();
    }
    let ground = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0]).with_b(dvector![-R]));
    nsds.link("ground", DsId(0), None, ground, law()).unwrap();
    if all {
        for i in 1..N {
            nsds.add_interaction(contact(i)).unwrap();
        }
    }
    nsds
}

fn sim(nsds: &Nsds) -> TimeStepping {
    TimeStepping::new(nsds, H, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default()))).unwrap()
}

fn declared(d: f64) -> Vec<ProximityInteraction> {
    (1..N).map(|i| ProximityInteraction { template: contact(i), distance: d }).collect()
}

#[test]
fn declared_with_an_activation_distance_matches_declaring_every_contact() {
    let d = 0.02;
    let mut a = column(true);
    let mut sa = sim(&a);
    let mut b = column(false);
    let manager = ProximityManager::new(declared(d), &b).unwrap();
    let mut sb = sim(&b).with_proximity(manager, &mut b).unwrap();
    // at t = 0 every pair gap is 0.05 > d: only the ground contact is live
    assert_eq!(b.n_linked(), 1);
    let (mut peak, mut max_ydot, mut impulses) = (0usize, 0.0f64, 0usize);
    let (mut links, mut removals) = (0usize, 0usize);
    let mut was: Vec<bool> = vec![false; N - 1];
    let mut dormant_checked = 0usize;
    let steps = 3000;
    for k in 0..steps {
        sa.step(&mut a).unwrap();
        sb.step(&mut b).unwrap();
        let p = sb.proximity().unwrap();
        peak = peak.max(b.n_linked());
        for (i, w) in was.iter_mut().enumerate() {
            let now = p.slot(i).is_some();
            links += usize::from(now && !*w);
            removals += usize::from(!now && *w);
            *w = now;
        }
        assert_eq!(b.n_linked(), 1 + p.n_linked(), "step {k}");
        for i in 0..N {
            let (sa_, sb_) = (a.systems()[i].state()[0], b.systems()[i].state()[0]);
            let (va, vb) = (a.systems()[i].velocity().unwrap()[0], b.systems()[i].velocity().unwrap()[0]);
            assert!((sa_ - sb_).abs() <= 1e-12 && (va - vb).abs() <= 1e-12, "step {k} bead {i}: {sa_} {sb_} {va} {vb}");
        }
        // every declared contact's outputs: the same gap and relative velocity as in A; λ equal
        for i in 1..N {
            let ia = &a.interactions()[i];
            let o = p.outputs(i - 1, &b, 1).unwrap();
            let (ga, gb) = (ia.y(0).unwrap()[0], o.y[0][0]);
            assert!((ga - gb).abs() <= 1e-12, "step {k} contact {i}: gap {ga} vs {gb}");
            assert!((ia.y(1).unwrap()[0] - o.y[1][0]).abs() <= 1e-9, "step {k} contact {i}: ydot");
            let (la, lb) = (ia.lambda(1).unwrap()[0], o.lambda[0]);
            assert!((la - lb).abs() <= 1e-12 * (1.0 + la.abs()), "step {k} contact {i}: λ {la} vs {lb}");
            if la > 0.0 {
                impulses += 1;
                assert!(p.slot(i - 1).is_some(), "step {k}: contact {i} has an impulse but is dormant");
            }
            if p.slot(i - 1).is_none() {
                assert!(gb > d, "step {k}: dormant contact {i} at gap {gb} <= d");
                dormant_checked += 1;
            }
            max_ydot = max_ydot.max(ia.y(1).unwrap()[0].abs());
        }
    }
    // the premise of the rule: a contact farther than d cannot be in the Moreau–Jean active set
    assert!(0.5 * H * max_ydot < d, "max |ẏ| = {max_ydot}");
    assert!(impulses > 0 && dormant_checked > 0);
    assert!(links > N - 1 && removals > 0, "{links} links, {removals} removals: contacts must close and open");
    assert!(peak <= N);
}

#[test]
fn typed_errors_for_bad_declarations() {
    let nsds = column(false);
    let bad = |template: Interaction, distance: f64| {
        ProximityManager::new(vec![ProximityInteraction { template, distance }], &nsds)
    };
    assert!(matches!(bad(contact(1), -1.0), Err(KernelError::InvalidModel { .. })));
    assert!(matches!(bad(contact(1), f64::NAN), Err(KernelError::InvalidModel { .. })));
    let unknown = Interaction::new("x", DsId(0), Some(DsId(99)), pair(), law());
    assert!(matches!(bad(unknown, 0.1), Err(KernelError::InvalidModel { .. })));
    let same = Interaction::new("x", DsId(1), Some(DsId(1)), pair(), law());
    assert!(matches!(bad(same, 0.1), Err(KernelError::InvalidModel { .. })));
    let first_order =
        Relation::FirstOrderLinearTi(saltus_kernel::FirstOrderLinearTiR::new(dmatrix![1.0, -1.0], dmatrix![1.0; 1.0]));
    let fo = Interaction::new("x", DsId(0), Some(DsId(1)), first_order, law());
    let e = bad(fo, 0.1).err().unwrap().to_string();
    assert!(e.contains("Lagrangian"), "{e}");
}

#[test]
fn a_failing_gap_function_is_a_typed_error_with_the_time() {
    let mut nsds = column(false);
    let h = LagrangianScleronomousR::new(
        1,
        |t, q, y| {
            if t > 0.0025 {
                return Err(saltus_kernel::UserFnError::new("boom"));
            }
            y[0] = q[1] - q[0] - 2.0 * R;
            Ok(())
        },
        |_, _, j| {
            j[(0, 0)] = -1.0;
            j[(0, 1)] = 1.0;
            Ok(())
        },
    );
    let inter = Interaction::new("c", DsId(3), Some(DsId(4)), Relation::LagrangianScleronomous(h), law());
    let m = ProximityManager::new(vec![ProximityInteraction { template: inter, distance: 0.01 }], &nsds).unwrap();
    let mut s = sim(&nsds).with_proximity(m, &mut nsds).unwrap();
    s.step(&mut nsds).unwrap();
    s.step(&mut nsds).unwrap();
    let e = s.step(&mut nsds).unwrap_err();
    assert!(matches!(e, KernelError::UserFn { t, .. } if (t - 0.003).abs() < 1e-12), "{e}");
    assert!(e.to_string().contains("interaction `c`"), "{e}");
}
