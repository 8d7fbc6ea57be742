//! MoreauJeanGOSI + GlobalFrictionContact: the global formulation (M and H kept apart) on the
//! Siconos tutorial `TwoBouncingBallTS-MoreauJeanGOSI` (two stacked balls, 3D contacts).
//!
//! * mathematics: every step satisfies the global problem's equations
//!   `M (v_{k+1} − v_free) = Hᵀ λ` (impulse balance per ball), the Newton impact law with
//!   Coulomb friction (`u = H v_{k+1} + e u_k`, `0 ≤ u_N ⊥ λ_N ≥ 0`, `‖λ_T‖ ≤ μ λ_N`) and the
//!   θ-scheme position update;
//! * it gives the same trajectory as the local formulation (MoreauJeanOSI + FrictionContact,
//!   `W = H M⁻¹ Hᵀ` formed) to 1e-10, and the W-free global NSGS the same as the condensed one;
//! * invalid pairings are refused before the run.

use nalgebra::{DMatrix, DVector};
use saltus_kernel::solvers::fc::{FcSolver, GfcSolver, NsgsOptions};
use saltus_kernel::*;
use saltus_numerics::IterOptions;

const R: f64 = 0.1;
const G: f64 = 9.81;
const H: f64 = 1e-3;

fn mass(m: f64) -> DMatrix<f64> {
    DMatrix::from_diagonal(&DVector::from_vec(vec![m, m, 0.4 * m * R * R]))
}

/// The tutorial's model: ball 1 (m = 1) on the floor, ball 2 (m = 2) 1 mm above it; contacts
/// y = q1 (floor, H = I) and y = q2 − q1 − 2R; NewtonImpactFrictionNSL(0.95, 0.95, 0.6, 3).
fn two_balls() -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let mut add = |name: &str, m: f64, z: f64| {
        let q0 = DVector::from_vec(vec![z, 0.0, 0.0]);
        let ds = LagrangianLinearTiDs::new(q0, DVector::zeros(3), mass(m)).with_f_ext(DVector::from_vec(vec![
            -m * G,
            0.0,
            0.0,
        ]));
        nsds.add_ds(name, ds).unwrap()
    };
    let b1 = add("ball1", 1.0, 0.1);
    let b2 = add("ball2", 2.0, 0.1 + 2.0 * R + 0.001);
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.95, et: 0.95, mu: 0.6, dim: 3 };
    let floor = LagrangianLinearTiR::new(DMatrix::identity(3, 3));
    nsds.link("floor", b1, None, Relation::LagrangianLinearTi(floor), law.clone()).unwrap();
    let mut hbb = DMatrix::zeros(3, 6);
    for i in 0..3 {
        hbb[(i, i)] = -1.0;
        hbb[(i, i + 3)] = 1.0;
    }
    let bb = LagrangianLinearTiR::new(hbb).with_b(DVector::from_vec(vec![-2.0 * R, 0.0, 0.0]));
    nsds.link("balls", b1, Some(b2), Relation::LagrangianLinearTi(bb), law).unwrap();
    nsds
}

fn nsgs(tol: f64) -> NsgsOptions {
    NsgsOptions::with_iter(IterOptions::new(tol, 1000))
}

/// States (q1, v1, q2, v2 along the contact normal) and impulses per step.
fn run(osi: Osi, osnsp: Osnsp, check: bool) -> Vec<[f64; 6]> {
    let mut nsds = two_balls();
    let mut sim = TimeStepping::new(&nsds, H, osi, osnsp).unwrap();
    let mut out = Vec::new();
    let (m1, m2) = (1.0, 2.0);
    let mut prev: Option<[f64; 4]> = None;
    sim.run(&mut nsds, 3.0, &mut |n, rep| {
        let q = |d: usize| n.systems()[d].state()[0];
        let v = |d: usize| n.systems()[d].velocity().unwrap()[0];
        let lam = |i: usize| n.interactions()[i].lambda(1).unwrap().clone();
        let (l0, l1) = (lam(0), lam(1));
        let now = [q(0), v(0), q(1), v(1)];
        if check {
            if let Some(p) = prev {
                // impulse balance M (v − v_k) = h F + Hᵀ λ (normal direction)
                assert!((m1 * (now[1] - p[1]) + m1 * G * H - (l0[0] - l1[0])).abs() <= 1e-12, "t = {}", rep.t);
                assert!((m2 * (now[3] - p[3]) + m2 * G * H - l1[0]).abs() <= 1e-12, "t = {}", rep.t);
                // θ = 1/2 position update
                assert!((now[0] - p[0] - 0.5 * H * (p[1] + now[1])).abs() <= 1e-15, "t = {}", rep.t);
                // Newton law on active contacts: 0 ≤ u_N + e u_{N,k} ⊥ λ_N ≥ 0
                for (i, (un, unk, l)) in
                    [(now[1], p[1], &l0), (now[3] - now[1], p[3] - p[1], &l1)].into_iter().enumerate()
                {
                    assert!(l[0] >= -1e-14, "λ_N ≥ 0, contact {i}, t = {}", rep.t);
                    let (l1n, l2n) = (l[1], l[2]);
                    assert!((l1n * l1n + l2n * l2n).sqrt() <= 0.6 * l[0] + 1e-14, "cone, t = {}", rep.t);
                    if l[0] > 1e-10 {
                        let w = un + 0.95 * unk;
                        assert!(w.abs() <= 1e-9 * (1.0 + unk.abs()), "u_N + e u_N,k = {w} at t = {}", rep.t);
                    }
                }
            }
        }
        prev = Some(now);
        out.push([now[0], now[1], now[2], now[3], l0[0], l1[0]]);
    })
    .unwrap();
    out
}

fn max_diff(a: &[[f64; 6]], b: &[[f64; 6]]) -> f64 {
    a.iter().zip(b).flat_map(|(x, y)| (0..4).map(move |k| (x[k] - y[k]).abs())).fold(0.0, f64::max)
}

#[test]
fn gosi_satisfies_the_discrete_equations_and_matches_the_local_formulation() {
    let gfc = Osnsp::GlobalFrictionContact { dim: 3, solver: GfcSolver::Condensed(FcSolver::NsgsAc(nsgs(1e-13))) };
    let global = run(Osi::moreau_jean_gosi(0.5), gfc, true);
    assert_eq!(global.len(), 3000);
    let impacts = global.iter().filter(|s| s[4] > 1e-6).count();
    assert!(impacts > 100, "the balls bounce and settle: {impacts} steps with a floor impulse");
    let local =
        run(Osi::moreau_jean(0.5), Osnsp::FrictionContact { dim: 3, solver: FcSolver::NsgsAc(nsgs(1e-13)) }, false);
    let d = max_diff(&global, &local);
    assert!(d <= 1e-10, "global and local formulations differ by {d}");
    let wfree = run(
        Osi::moreau_jean_gosi(0.5),
        Osnsp::GlobalFrictionContact { dim: 3, solver: GfcSolver::Nsgs(nsgs(1e-13)) },
        true,
    );
    let d = max_diff(&global, &wfree);
    assert!(d <= 1e-10, "W-free and condensed NSGS differ by {d}");
}

#[test]
fn gosi_needs_the_global_problem_and_vice_versa() {
    let nsds = two_balls();
    let fc = Osnsp::FrictionContact { dim: 3, solver: FcSolver::NsgsAc(nsgs(1e-8)) };
    let gfc = Osnsp::GlobalFrictionContact { dim: 3, solver: GfcSolver::Nsgs(nsgs(1e-8)) };
    assert!(matches!(
        TimeStepping::new(&nsds, H, Osi::moreau_jean_gosi(0.5), fc),
        Err(KernelError::InvalidOption { option: "osnsp", .. })
    ));
    assert!(matches!(
        TimeStepping::new(&nsds, H, Osi::moreau_jean(0.5), gfc.clone()),
        Err(KernelError::InvalidOption { option: "osi", .. })
    ));
    let gfc2 = Osnsp::GlobalFrictionContact { dim: 2, solver: GfcSolver::Nsgs(nsgs(1e-8)) };
    assert!(matches!(
        TimeStepping::new(&nsds, H, Osi::moreau_jean_gosi(0.5), gfc2),
        Err(KernelError::InvalidCombination { .. })
    ));
}
