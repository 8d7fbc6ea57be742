//! A user's interaction manager (Siconos `InteractionManager`, `insertInteractionManager`): the
//! column of beads of the Siconos tutorial with its contact detection written by the user —
//! link the contact of two neighbours when their gap `q_i − q_{i−1} − 2r` is at most `d`, remove
//! it when it opens beyond `d` — runs through the same hook as the activation-distance
//! `ProximityManager`, so the two runs take the same decisions in the same order and give the
//! same bits; and a manager that links a contact at a chosen time makes a bead bounce there.

use nalgebra::{dmatrix, dvector};
use saltus_kernel::{
    solvers::lcp::LcpSolver, DsId, InterId, Interaction, InteractionManager, KernelError, LagrangianLinearTiDs,
    LagrangianLinearTiR, NonSmoothLaw, Nsds, Osi, Osnsp, ProximityInteraction, ProximityManager, Relation,
    TimeStepping, VecOp,
};

const N: usize = 8;
const R: f64 = 0.1;
const G: f64 = 9.81;
const H: f64 = 1e-3;
const D: f64 = 0.02;

fn law() -> NonSmoothLaw {
    NonSmoothLaw::NewtonImpact { e: 0.8 }
}
fn pair() -> Relation {
    Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![-1.0, 1.0]).with_b(dvector![-2.0 * R]))
}

fn column() -> Nsds {
    let mut nsds = Nsds::new(0.0);
    for i in 0..N {
        let v = (((7 * i) % 5) as f64 - 2.0) / 2.0;
        let ds = LagrangianLinearTiDs::new(dvector![0.15 + 0.25 * i as f64], dvector![v], dmatrix![1.0])
            .with_f_ext(VecOp::Constant(dvector![-G]));
        nsds.add_ds(format!("bead{i}"), ds).unwrap();
    }
    let ground = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0]).with_b(dvector![-R]));
    nsds.link("ground", DsId(0), None, ground, law()).unwrap();
    nsds
}

fn sim(nsds: &Nsds) -> TimeStepping {
    TimeStepping::new(nsds, H, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default()))).unwrap()
}

/// The user's contact detection of the bead column.
struct Beads {
    slots: Vec<Option<InterId>>,
    links: usize,
}

impl InteractionManager for Beads {
    fn update_interactions(&mut self, ts: &mut TimeStepping, nsds: &mut Nsds) -> Result<(), KernelError> {
        for i in 1..N {
            let q = |k: usize| nsds.systems()[k].state()[0];
            let gap = q(i) - q(i - 1) - 2.0 * R;
            match self.slots[i - 1] {
                None if gap <= D => {
                    let (a, b) = (DsId(i as u32 - 1), Some(DsId(i as u32)));
                    self.slots[i - 1] = Some(ts.link(nsds, format!("contact{i}"), a, b, pair(), law())?);
                    self.links += 1;
                }
                Some(id) if gap > D => {
                    ts.remove_interaction(nsds, id)?;
                    self.slots[i - 1] = None;
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[test]
fn a_users_contact_detection_runs_as_the_proximity_manager() {
    let mut a = column();
    let declared = (1..N)
        .map(|i| ProximityInteraction {
            template: Interaction::new(format!("contact{i}"), DsId(i as u32 - 1), Some(DsId(i as u32)), pair(), law()),
            distance: D,
        })
        .collect();
    let manager = ProximityManager::new(declared, &a).unwrap();
    let mut sa = sim(&a).with_proximity(manager, &mut a).unwrap();
    let mut b = column();
    let beads = Box::new(Beads { slots: vec![None; N - 1], links: 0 });
    let mut sb = sim(&b).with_interaction_manager(beads, &mut b).unwrap();
    assert!(sb.proximity().is_none() && sa.proximity().is_some());
    let mut max_linked = 0;
    for k in 0..3000 {
        sa.step(&mut a).unwrap();
        sb.step(&mut b).unwrap();
        max_linked = max_linked.max(b.n_linked());
        for i in 0..N {
            let (x, y) = (&a.systems()[i], &b.systems()[i]);
            assert_eq!(x.state()[0].to_bits(), y.state()[0].to_bits(), "step {k}, bead {i}");
            assert_eq!(x.velocity().unwrap()[0].to_bits(), y.velocity().unwrap()[0].to_bits(), "step {k}, bead {i}");
        }
        assert_eq!(a.n_linked(), b.n_linked(), "step {k}");
    }
    assert!(max_linked > 2, "contacts were linked ({max_linked} at most)");
}

/// A manager that links a floor under a falling bead at t = 0.1 s: the bead falls freely until
/// then, rests on the floor afterwards (e = 0: its speed is zero from the first step the floor
/// holds it), and a manager on an integrator that cannot follow links is refused by name.
#[test]
fn a_manager_links_a_floor_at_a_chosen_time() {
    struct Floor(bool);
    impl InteractionManager for Floor {
        fn update_interactions(&mut self, ts: &mut TimeStepping, nsds: &mut Nsds) -> Result<(), KernelError> {
            if !self.0 && ts.t() >= 0.1 - 1e-12 {
                let q = nsds.systems()[0].state()[0];
                let floor = LagrangianLinearTiR::new(dmatrix![1.0]).with_b(dvector![-q]);
                let e0 = NonSmoothLaw::NewtonImpact { e: 0.0 };
                ts.link(nsds, "floor", DsId(0), None, Relation::LagrangianLinearTi(floor), e0)?;
                self.0 = true;
            }
            Ok(())
        }
    }
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![1.0], dvector![0.0], dmatrix![1.0])
        .with_f_ext(VecOp::Constant(dvector![-G]));
    nsds.add_ds("bead", ds).unwrap();
    let mut ts = sim(&nsds).with_interaction_manager(Box::new(Floor(false)), &mut nsds).unwrap();
    let mut z_floor = None;
    for k in 1..=300 {
        ts.step(&mut nsds).unwrap();
        let (t, z, v) = (ts.t(), nsds.systems()[0].state()[0], nsds.systems()[0].velocity().unwrap()[0]);
        if t <= 0.1 + 1e-12 {
            assert!((z - (1.0 - 0.5 * G * t * t)).abs() < 1e-12, "free fall, step {k}");
            z_floor = Some(z);
        } else if t > 0.1 + 2.0 * H {
            assert!(v.abs() < 1e-12 && z <= z_floor.unwrap() + 1e-12, "rests on the floor, step {k}: {z} {v}");
        }
    }
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("bead", LagrangianLinearTiDs::new(dvector![1.0], dvector![0.0], dmatrix![1.0])).unwrap();
    let se = TimeStepping::new(&nsds, H, Osi::semi_explicit_euler(), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
        .unwrap();
    let Err(KernelError::InvalidCombination { reason, .. }) =
        se.with_interaction_manager(Box::new(Floor(false)), &mut nsds)
    else {
        panic!("a manager accepted with the semi-explicit Euler")
    };
    assert!(reason.contains("MoreauJeanOSI"), "{reason}");
}
