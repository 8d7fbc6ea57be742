//! Bilateral constraints in event-driven runs: the cartesian pendulum (a point mass on a rigid
//! rod, `h(q) = (x² + y² − l²)/(2l) = 0`, `EqualityConditionNSL`) integrated with the
//! constraint index-reduced to the acceleration level and `q`, `v` projected at every event.

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_kernel::{
    EventDriven, EventDrivenOptions, EventKind, InterId, KernelError, LagrangianLinearTiDs, LagrangianScleronomousR,
    NonSmoothLaw, Nsds, Relation,
};

const G: f64 = 9.81;
const L: f64 = 1.0;

fn rod() -> Relation {
    Relation::LagrangianScleronomous(LagrangianScleronomousR::new(
        1,
        |_, q, y| {
            y[0] = (q[0] * q[0] + q[1] * q[1] - L * L) / (2.0 * L);
            Ok(())
        },
        |_, q, j: &mut DMatrix<f64>| {
            j[(0, 0)] = q[0] / L;
            j[(0, 1)] = q[1] / L;
            Ok(())
        },
    ))
}

/// Released from the horizontal (1, 0) at rest.
fn pendulum() -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let bob = LagrangianLinearTiDs::new(dvector![L, 0.0], dvector![0.0, 0.0], DMatrix::identity(2, 2))
        .with_f_ext(dvector![0.0, -G]);
    let id = nsds.add_ds("bob", bob).unwrap();
    nsds.link("rod", id, None, rod(), NonSmoothLaw::EqualityCondition { size: 1 }).unwrap();
    nsds
}

/// Rod length and energy `½|v|² + g y = 0` at every TD event, the rod tension against
/// `T = m (|v|²/l − g y/l)` (radial balance, y ≤ 0 below the pivot), and the quarter period
/// `(l/g)^½ K(sin 45°) = 0.591949` from the first zero crossing of x.
#[test]
fn cartesian_pendulum_keeps_rod_length_and_energy() {
    let mut nsds = pendulum();
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 1e-2, ..Default::default() }).unwrap();
    assert!(sim.is_closed(InterId::new(0, 0)));
    let (mut max_len, mut max_e, mut max_tension) = (0.0f64, 0.0f64, 0.0f64);
    let mut prev: Option<(f64, f64)> = None;
    let mut first_zero = None;
    let mut tension = Vec::new();
    sim.run(&mut nsds, 5.0, &mut |nsds, rep| {
        assert_eq!(rep.kind, EventKind::TimeDiscretisation, "a bilateral constraint makes no event");
        let (q, v) = (nsds.systems()[0].state(), nsds.systems()[0].velocity().unwrap());
        max_len = max_len.max((q.norm() - L).abs());
        max_e = max_e.max((0.5 * v.norm_squared() + G * q[1]).abs());
        let lam = nsds.interactions()[0].lambda(0).unwrap()[0];
        // m v̇ = F + ∇hᵀ λ, ∇h = q/l: the radial force is λ, the tension −λ
        let t_exact = v.norm_squared() / L - G * q[1] / L;
        max_tension = max_tension.max((-lam - t_exact).abs());
        tension.push(-lam);
        if let (Some((t0, x0)), None) = (prev, first_zero) {
            if x0 > 0.0 && q[0] <= 0.0 {
                first_zero = Some(t0 + (rep.t - t0) * x0 / (x0 - q[0]));
            }
        }
        prev = Some((rep.t, q[0]));
    })
    .unwrap();
    eprintln!("pendulum ED: max ||q| − l| = {max_len:e}, max |E| = {max_e:e}, max tension error {max_tension:e}, quarter period {first_zero:?}");
    assert!(max_len <= 1e-12, "{max_len:e}");
    // the integration error (rtol 1e-12) over 5 s, measured 6.9e-9 = 7e-10 m g l
    assert!(max_e <= 2e-9 * G * L, "{max_e:e}");
    // measured 7.6e-8 = 3e-9 of the largest tension 3 m g
    assert!(max_tension <= 1e-8 * 3.0 * G, "{max_tension:e}");
    assert!((first_zero.unwrap() - 0.591949).abs() <= 2e-4, "{first_zero:?}");
    // the tension reaches 3 m g at the bottom (energy 0 from the horizontal)
    let t_max = tension.iter().copied().fold(0.0, f64::max);
    assert!((t_max - 3.0 * G).abs() <= 0.05 * G, "{t_max}");
}

/// Bilateral constraints together with unilateral contacts are a typed error naming the constraint.
#[test]
fn bilateral_with_unilateral_is_typed_error() {
    let mut nsds = pendulum();
    let floor = Relation::LagrangianLinearTi(saltus_kernel::LagrangianLinearTiR::new(dmatrix![0.0, 1.0]));
    nsds.link("floor", saltus_kernel::DsId(0), None, floor, NonSmoothLaw::NewtonImpact { e: 0.5 }).unwrap();
    match EventDriven::new(&nsds, EventDrivenOptions::default()) {
        Err(KernelError::InvalidCombination { name, id, reason }) => {
            assert_eq!((name.as_str(), id), ("rod", InterId::new(0, 0)));
            assert!(reason.contains("EqualityConditionNSL") && reason.contains("NewtonImpactNSL"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}
