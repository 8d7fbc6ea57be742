//! GenericMechanical one-step problem (equality rows, complementarity rows and friction contacts
//! in one problem, block Gauss–Seidel with the solver of each block's kind).
//!
//! * Mixed scene with an analytic answer: body A (3 coordinates: height, tangential position,
//!   angle) slides on the floor with Coulomb friction (μ = 0.4, 3D contact, resting: no bounce);
//!   body B is tied to A tangentially by an equality (y = x_B − x_A) and bounces on the floor
//!   without friction (Newton impact, e = 0.5). The pair decelerates at μ m_A g / (m_A + m_B) and
//!   stops at v₀ (m_A + m_B) / (μ m_A g); every step satisfies the equality at velocity level, the
//!   Newton law on B, the cone on A, and the problem's residual is below the tolerance.
//! * Pure cases reduce to the specialised problems: a column of beads (Newton impacts only)
//!   gives the LCP/Lemke trajectory, a frictional contact scene the FrictionContact/NSGS one.

use nalgebra::{DMatrix, DVector};
use saltus_kernel::solvers::fc::{FcSolver, NsgsOptions};
use saltus_kernel::solvers::gmp::GmpOptions;
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::*;
use saltus_numerics::IterOptions;

mod common;

const G: f64 = 9.81;
const H: f64 = 1e-3;

fn gmp() -> Osnsp {
    Osnsp::GenericMechanical(GmpOptions::with_iter(IterOptions::new(1e-12, 2000)))
}

fn lti(q: [f64; 3], v: [f64; 3], m: f64) -> LagrangianLinearTiDs {
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![m, m, 0.004 * m]));
    LagrangianLinearTiDs::new(DVector::from_row_slice(&q), DVector::from_row_slice(&v), mass)
        .with_f_ext(DVector::from_vec(vec![-m * G, 0.0, 0.0]))
}

fn rel(h: DMatrix<f64>) -> Relation {
    Relation::LagrangianLinearTi(LagrangianLinearTiR::new(h))
}

#[test]
fn mixed_equality_impact_friction_matches_the_analytic_sliding() {
    let (ma, mb, mu, v0) = (1.0, 0.5, 0.4, 1.0);
    let mut nsds = Nsds::new(0.0);
    let a = nsds.add_ds("A", lti([0.0, 0.0, 0.0], [0.0, v0, 0.0], ma)).unwrap();
    let b = nsds.add_ds("B", lti([0.3, 0.0, 0.0], [0.0, v0, 0.0], mb)).unwrap();
    let friction = NonSmoothLaw::NewtonImpactFriction { en: 0.0, et: 0.0, mu, dim: 3 };
    nsds.link("floorA", a, None, rel(DMatrix::identity(3, 3)), friction).unwrap();
    nsds.link(
        "floorB",
        b,
        None,
        rel(DMatrix::from_row_slice(1, 3, &[1.0, 0.0, 0.0])),
        NonSmoothLaw::NewtonImpact { e: 0.5 },
    )
    .unwrap();
    let tie = DMatrix::from_row_slice(1, 6, &[0.0, -1.0, 0.0, 0.0, 1.0, 0.0]);
    nsds.link("tie", a, Some(b), rel(tie), NonSmoothLaw::EqualityCondition { size: 1 }).unwrap();
    let mut sim = TimeStepping::new(&nsds, H, Osi::moreau_jean(0.5), gmp()).unwrap();
    let decel = mu * ma * G / (ma + mb);
    let t_stop = v0 / decel;
    let mut prev_vb = 0.0;
    let mut impacts = 0;
    sim.run(&mut nsds, t_stop + 0.2, &mut |n, rep| {
        let rep_o = rep.osnsp.as_ref().expect("the floor contact of A is always active");
        assert!(rep_o.status.converged() && rep_o.residual <= 1e-12, "t = {}: {rep_o:?}", rep.t);
        let (va, vb) = (n.systems()[0].velocity().unwrap(), n.systems()[1].velocity().unwrap());
        // equality at velocity level
        assert!((vb[1] - va[1]).abs() <= 1e-12, "tie broken at t = {}", rep.t);
        // Newton law on B, cone and no bounce on A
        let lb = n.interactions()[1].lambda(1).unwrap()[0];
        assert!(lb >= -1e-14);
        if lb > 1e-10 {
            assert!((vb[0] + 0.5 * prev_vb).abs() <= 1e-10 * (1.0 + prev_vb.abs()), "Newton law at t = {}", rep.t);
            impacts += usize::from(prev_vb < -1e-3);
        }
        prev_vb = vb[0];
        let la = n.interactions()[0].lambda(1).unwrap();
        assert!((la[1] * la[1] + la[2] * la[2]).sqrt() <= mu * la[0] + 1e-14, "cone at t = {}", rep.t);
        assert!(va[0].abs() <= 1e-10, "A stays on the floor at t = {}", rep.t);
        // analytic tangential velocity of the tied pair
        let expected = (v0 - decel * rep.t).max(0.0);
        assert!((va[1] - expected).abs() <= 1e-9, "t = {}: v_T = {}, expected {expected}", rep.t, va[1]);
    })
    .unwrap();
    assert!(impacts >= 2, "B bounces: {impacts} impacts");
}

fn trajectory(nsds: &mut Nsds, osi: Osi, osnsp: Osnsp, t_end: f64) -> Vec<f64> {
    let mut sim = TimeStepping::new(nsds, H, osi, osnsp).unwrap();
    let mut out = Vec::new();
    sim.run(nsds, t_end, &mut |n, _| {
        for d in n.systems() {
            out.extend(d.state().iter().chain(d.velocity().into_iter().flatten()));
        }
    })
    .unwrap();
    out
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

#[test]
fn pure_impacts_give_the_lcp_trajectory() {
    let beads = || presets::column_of_beads(5, 0.05, 1.0, G, 0.5, 0.01).unwrap();
    let lcp = trajectory(&mut beads(), Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())), 1.0);
    let gm = trajectory(&mut beads(), Osi::moreau_jean(0.5), gmp(), 1.0);
    let d = max_diff(&lcp, &gm);
    assert!(d <= 1e-9, "GenericMechanical and LCP differ by {d}");
}

#[test]
fn pure_friction_gives_the_friction_contact_trajectory() {
    let scene = || {
        let mut nsds = Nsds::new(0.0);
        let a = nsds.add_ds("A", lti([0.05, 0.0, 0.0], [-1.0, 2.0, 0.0], 1.0)).unwrap();
        let law = NonSmoothLaw::NewtonImpactFriction { en: 0.3, et: 0.0, mu: 0.2, dim: 3 };
        nsds.link("floor", a, None, rel(DMatrix::identity(3, 3)), law).unwrap();
        nsds
    };
    let fc = Osnsp::FrictionContact {
        dim: 3,
        solver: FcSolver::NsgsAc(NsgsOptions::with_iter(IterOptions::new(1e-12, 1000))),
    };
    let a = trajectory(&mut scene(), Osi::moreau_jean(0.5), fc, 1.5);
    let b = trajectory(&mut scene(), Osi::moreau_jean(0.5), gmp(), 1.5);
    let d = max_diff(&a, &b);
    assert!(d <= 1e-10, "GenericMechanical and FrictionContact differ by {d}");
}

/// Relay rows in the generic problem (one `Relay` block per row): the relay oscillator of
/// `samples/relay_oscillator` gives the Relay/Lemke trajectory.
#[test]
fn pure_relay_gives_the_relay_trajectory() {
    use saltus_kernel::solvers::relay::RelaySolver;
    let relay = Osnsp::Relay(RelaySolver::Lemke(Default::default()));
    let a = trajectory(&mut common::relay_oscillator(), Osi::euler_moreau(0.5), relay, 12.0);
    let b = trajectory(&mut common::relay_oscillator(), Osi::euler_moreau(0.5), gmp(), 12.0);
    let d = max_diff(&a, &b);
    assert!(d <= 1e-10, "GenericMechanical and Relay differ by {d}");
    // the oscillator sticks at x1 = 0.5 from t = 3π (up to the O(h) error of where it stops)
    assert!((a[a.len() - 2] - 0.5).abs() <= 1e-5, "x1(12) = {}", a[a.len() - 2]);
}

/// Relay and equality rows in one problem, with an analytic answer: `ẋ = −λ − μ`, `ż = μ`,
/// relay `λ ∈ sgn(x)` (y = −x, `−y ∈ N_[−1,1](λ)`) and the tie `z − x = 0` (equality, multiplier
/// μ). From x = z = 1 the pair moves at −1/2 until the sliding mode x = z = 0 at t = 2; implicit
/// Euler is exact at the grid points.
#[test]
fn relay_and_equality_rows_in_one_problem() {
    let mut nsds = Nsds::new(0.0);
    let x = nsds.add_ds("x", FirstOrderLinearTiDs::new(DVector::from_vec(vec![1.0]), DMatrix::zeros(1, 1))).unwrap();
    let z = nsds.add_ds("z", FirstOrderLinearTiDs::new(DVector::from_vec(vec![1.0]), DMatrix::zeros(1, 1))).unwrap();
    let relay = FirstOrderLinearTiR::new(DMatrix::from_element(1, 1, -1.0), DMatrix::from_element(1, 1, -1.0));
    let bounds = NonSmoothLaw::Relay { lb: DVector::from_vec(vec![-1.0]), ub: DVector::from_vec(vec![1.0]) };
    nsds.link("relay", x, None, Relation::FirstOrderLinearTi(relay), bounds).unwrap();
    let tie = FirstOrderLinearTiR::new(
        DMatrix::from_row_slice(1, 2, &[-1.0, 1.0]),
        DMatrix::from_column_slice(2, 1, &[-1.0, 1.0]),
    );
    nsds.link("tie", x, Some(z), Relation::FirstOrderLinearTi(tie), NonSmoothLaw::EqualityCondition { size: 1 })
        .unwrap();
    let h = 0.01;
    let mut sim = TimeStepping::new(&nsds, h, Osi::euler_moreau(1.0), gmp()).unwrap();
    let mut steps = 0;
    sim.run(&mut nsds, 3.0, &mut |n, rep| {
        steps += 1;
        let (xv, zv) = (n.systems()[0].state()[0], n.systems()[1].state()[0]);
        let expected = (1.0 - 0.5 * rep.t).max(0.0);
        assert!((xv - expected).abs() <= 1e-12 && (zv - expected).abs() <= 1e-12, "t = {}: x = {xv}, z = {zv}", rep.t);
        let l = n.interactions()[0].lambda(0).unwrap()[0];
        assert!((-1.0..=1.0).contains(&l), "λ = {l} outside the relay bounds");
        if rep.t < 2.0 - 1e-9 {
            assert!((l - 1.0).abs() <= 1e-12, "t = {}: λ = {l}", rep.t);
        }
    })
    .unwrap();
    assert_eq!(steps, 300);
}
