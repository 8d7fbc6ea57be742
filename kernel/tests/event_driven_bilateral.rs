//! Bilateral constraints in event-driven runs: the cartesian pendulum (a point mass on a rigid
//! rod, `h(q) = (x² + y² − l²)/(2l) = 0`, `EqualityConditionNSL`) integrated with the
//! constraint index-reduced to the acceleration level and `q`, `v` projected at every event.

use nalgebra::{dmatrix, dvector, DMatrix};
use saltus_kernel::{
    EventDriven, EventDrivenOptions, EventKind, InterId, LagrangianLinearTiDs, LagrangianScleronomousR, NonSmoothLaw,
    Nsds, Relation,
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

/// The pendulum on its rod (a nonlinear bilateral constraint) against a wall `x ≥ 0` under the
/// pivot (`NewtonImpactNSL`, e = 1): it hits the wall at the bottom after the quarter period
/// `(l/g)^½ K(sin 45°) = 0.5919605`, moving along `−x`; the impact problem holds the rod (its
/// equation) and reverses the velocity, and the bob swings back to the horizontal, reaching it at
/// twice that time at rest (energy `½|v|² + g y = 0` kept throughout).
#[test]
fn a_pendulum_bounces_on_a_wall_under_its_pivot() {
    let mut nsds = pendulum();
    let wall = Relation::LagrangianLinearTi(saltus_kernel::LagrangianLinearTiR::new(dmatrix![1.0, 0.0]));
    nsds.link("wall", saltus_kernel::DsId(0), None, wall, NonSmoothLaw::NewtonImpact { e: 1.0 }).unwrap();
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 1e-3, ..Default::default() }).unwrap();
    // K(sin 45°) = 1.854074677301372
    let quarter = (L / G).sqrt() * 1.854_074_677_301_372;
    let (mut impacts, mut max_e, mut max_len) = (Vec::new(), 0.0f64, 0.0f64);
    sim.run(&mut nsds, 2.0 * quarter - 1e-3, &mut |nsds, rep| {
        let (q, v) = (nsds.systems()[0].state(), nsds.systems()[0].velocity().unwrap());
        max_len = max_len.max((q.norm() - L).abs());
        max_e = max_e.max((0.5 * v.norm_squared() + G * q[1]).abs());
        if rep.kind == EventKind::NonSmooth {
            let pre = &rep.pre_velocities.as_ref().unwrap()[0];
            assert!(pre[0] < 0.0 && (v[0] + pre[0]).abs() < 1e-8 && v[1].abs() < 1e-8, "{pre} -> {v}");
            impacts.push(rep.t);
        }
    })
    .unwrap();
    assert_eq!(impacts.len(), 1, "{impacts:?}");
    assert!((impacts[0] - quarter).abs() < 1e-7, "impact at {}, exact {quarter}", impacts[0]);
    assert!(max_len < 1e-10 && max_e < 1e-6, "rod {max_len:e}, energy {max_e:e}");
    // back near the horizontal, slowing to rest
    let q = nsds.systems()[0].state();
    assert!(q[0] > 0.99 && q[1] > -0.1, "{q}");
}

/// A bilateral constraint together with a unilateral contact: a bead (m = 1) on a straight wire
/// `y = x tan α` (`EqualityConditionNSL`, linear), released at rest from `x = 1`, slides down with
/// `s̈ = −g sin α` to the floor `y ≥ 0` (`NewtonImpactNSL`, e = ½) at the origin. The impact keeps
/// the bead on the wire (the wire's equation is part of the impact problem): it rebounds along the
/// wire at `e` times its speed, so the impacts come at `t₁ = (2 s₀ / (g sin α))^½` and
/// `t_{k+1} = t_k + 2 eᵏ v₁ / (g sin α)`, and between them the bead is on `s(t)` exactly.
#[test]
fn a_bead_on_a_wire_bounces_on_the_floor() {
    use saltus_kernel::LagrangianLinearTiR;
    let (alpha, e) = (0.5f64, 0.5);
    let (sa, ca, ta) = (alpha.sin(), alpha.cos(), alpha.tan());
    let mut nsds = Nsds::new(0.0);
    let bead = LagrangianLinearTiDs::new(dvector![1.0, ta], dvector![0.0, 0.0], DMatrix::identity(2, 2))
        .with_f_ext(dvector![0.0, -G]);
    let id = nsds.add_ds("bead", bead).unwrap();
    let wire = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![-ta, 1.0]));
    nsds.link("wire", id, None, wire, NonSmoothLaw::EqualityCondition { size: 1 }).unwrap();
    let floor = Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![0.0, 1.0]));
    nsds.link("floor", id, None, floor, NonSmoothLaw::NewtonImpact { e }).unwrap();
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 1e-2, ..Default::default() }).unwrap();
    let a = G * sa;
    let s0 = 1.0 / ca;
    let t1 = (2.0 * s0 / a).sqrt();
    let v1 = a * t1;
    let impacts_exact: Vec<f64> =
        (0..4).scan(t1, |t, k| Some(std::mem::replace(t, *t + 2.0 * e.powi(k + 1) * v1 / a))).collect();
    // s(t) along the wire from the closed form, flight by flight
    let s_exact = |t: f64| {
        if t <= t1 {
            return s0 - 0.5 * a * t * t;
        }
        let k = impacts_exact.iter().rposition(|&tk| tk <= t).unwrap();
        let (tk, u) = (impacts_exact[k], e.powi(k as i32 + 1) * v1);
        u * (t - tk) - 0.5 * a * (t - tk) * (t - tk)
    };
    let (mut impacts, mut worst_s, mut worst_wire) = (Vec::new(), 0.0f64, 0.0f64);
    sim.run(&mut nsds, impacts_exact[3] - 1e-3, &mut |nsds, rep| {
        let (q, v) = (nsds.systems()[0].state(), nsds.systems()[0].velocity().unwrap());
        worst_wire = worst_wire.max((q[1] - q[0] * ta).abs()).max((v[1] - v[0] * ta).abs());
        if rep.kind == EventKind::NonSmooth {
            let pre = &rep.pre_velocities.as_ref().unwrap()[0];
            // on the wire before and after; the rebound is e times the arrival speed, along the wire
            assert!((v.norm() - e * pre.norm()).abs() < 1e-9 * pre.norm(), "{pre} -> {v}");
            assert!(v[1] > 0.0 && pre[1] < 0.0);
            impacts.push(rep.t);
        } else {
            worst_s = worst_s.max((q.norm() * q[1].signum() - s_exact(rep.t)).abs());
        }
    })
    .unwrap();
    assert_eq!(impacts.len(), 3, "{impacts:?} vs {impacts_exact:?}");
    for (t, te) in impacts.iter().zip(&impacts_exact) {
        assert!((t - te).abs() < 1e-8, "impact at {t}, exact {te}");
    }
    assert!(worst_s < 1e-8, "s(t): {worst_s:e}");
    assert!(worst_wire < 1e-10, "off the wire: {worst_wire:e}");
}
