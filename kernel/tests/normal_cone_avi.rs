//! `NormalConeNSL` and the `AVI` one-step problem on the implicit twisting controller of a double
//! integrator (the setup of Siconos's kernel test `testAVI`):
//! `x1' = x2`, `x2' = G (λ1 + β λ2)`, `y = x`, `−y ∈ N_P(λ)` with the parallelogram
//! `P = {λ : |λ1| ≤ 1, |λ2 − (h/2) λ1| ≤ 1}` (Euler–Moreau, θ = ½, h = 0.1, G = 10, β = 0.3).
//!
//! Checked against mathematics: `λ ∈ P` and the normal-cone inclusion at every step (through the
//! vertices of `P`: `−y ∈ N_P(λ)` ⇔ `⟨y, v − λ⟩ ≥ 0` for every vertex `v`), the closed form of the
//! first arc (λ at the vertex `(−1, −1 − h/2)`, constant acceleration, which the θ = ½ scheme
//! integrates exactly), finite-time convergence to the origin; and on a box `P` the same bits as
//! the `RelayNSL` formulation.
use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::solvers::{avi::AviSolver, relay::RelaySolver};
use saltus_kernel::*;

const G: f64 = 10.0;
const BETA: f64 = 0.3;
const H: f64 = 0.1;

fn twisting(law: NonSmoothLaw) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let a = dmatrix![0.0, 1.0; 0.0, 0.0];
    let id = nsds.add_ds("plant", FirstOrderLinearTiDs::new(dvector![10.0, 10.0], a)).unwrap();
    let rel = FirstOrderLinearTiR::new(DMatrix::identity(2, 2), dmatrix![0.0, 0.0; G, G * BETA]);
    nsds.link("twisting", id, None, Relation::FirstOrderLinearTi(rel), law).unwrap();
    nsds
}

fn parallelogram() -> (DMatrix<f64>, DVector<f64>) {
    let h = dmatrix![1.0, 0.0; -H / 2.0, 1.0; -1.0, 0.0; H / 2.0, -1.0];
    (h, dvector![-1.0, -1.0, -1.0, -1.0])
}

/// Rows `(t, x1, x2, y1, y2, λ1, λ2)` of a run to `t_end`.
fn run(law: NonSmoothLaw, osnsp: Osnsp, t_end: f64) -> Vec<[f64; 7]> {
    let mut nsds = twisting(law);
    let mut sim = TimeStepping::new(&nsds, H, Osi::euler_moreau(0.5), osnsp).unwrap();
    let mut rows = Vec::new();
    sim.run(&mut nsds, t_end, &mut |n, rep| {
        let x = n.systems()[0].state();
        let (y, l) = (n.interactions()[0].y(0).unwrap(), n.interactions()[0].lambda(0).unwrap());
        let st = rep.osnsp.as_ref().map(|r| r.status);
        assert_eq!(st, Some(SolveStatus::Converged), "t = {}", rep.t);
        rows.push([rep.t, x[0], x[1], y[0], y[1], l[0], l[1]]);
    })
    .unwrap();
    rows
}

/// `(distance of λ outside P, normal-cone residual max(0, −min_v ⟨y, v − λ⟩) / (1 + |y|))`.
fn law_residuals(h: &DMatrix<f64>, k: &DVector<f64>, vertices: &[[f64; 2]], y: [f64; 2], l: [f64; 2]) -> (f64, f64) {
    let lv = dvector![l[0], l[1]];
    let outside = (k - h * &lv).max().max(0.0);
    let worst = vertices.iter().map(|v| y[0] * (v[0] - l[0]) + y[1] * (v[1] - l[1])).fold(f64::INFINITY, f64::min);
    (outside, (-worst).max(0.0) / (1.0 + y[0].hypot(y[1])))
}

#[test]
fn implicit_twisting_normal_cone_law_holds_and_reaches_the_origin() {
    let (h, k) = parallelogram();
    let law = NonSmoothLaw::NormalCone { h: h.clone(), k: k.clone() };
    let rows = run(law, Osnsp::Avi(AviSolver::CaoFerris(Default::default())), 20.0);
    assert_eq!(rows.len(), 200);
    let vertices = [[1.0, 1.0 + H / 2.0], [1.0, -1.0 + H / 2.0], [-1.0, 1.0 - H / 2.0], [-1.0, -1.0 - H / 2.0]];
    let (mut worst_in, mut worst_cone) = (0.0f64, 0.0f64);
    for r in &rows {
        // y = C x with C = I, D = 0
        assert_eq!([r[3], r[4]], [r[1], r[2]], "y != x at t = {}", r[0]);
        let (inside, cone) = law_residuals(&h, &k, &vertices, [r[3], r[4]], [r[5], r[6]]);
        worst_in = worst_in.max(inside);
        worst_cone = worst_cone.max(cone);
    }
    assert!(worst_in <= 1e-12, "λ leaves P by {worst_in:e}");
    assert!(worst_cone <= 1e-12, "normal-cone residual {worst_cone:e}");

    // First arc: λ = (−1, −1 − h/2) while x2 > 0, so x2' = −G (1 + β (1 + h/2)) is constant and
    // the trapezoidal rule is exact: x2 = 10 + a t, x1 = 10 + 10 t + a t²/2.
    let a = -G * (1.0 + BETA * (1.0 + H / 2.0));
    for r in rows.iter().take_while(|r| 10.0 + a * r[0] > 0.0) {
        let t = r[0];
        assert!((r[5] + 1.0).abs() <= 1e-14 && (r[6] + 1.0 + H / 2.0).abs() <= 1e-14, "λ at t = {t}: {r:?}");
        assert!((r[2] - (10.0 + a * t)).abs() <= 1e-12, "x2({t}) = {}", r[2]);
        assert!((r[1] - (10.0 + 10.0 * t + a * t * t / 2.0)).abs() <= 1e-12, "x1({t}) = {}", r[1]);
    }

    // Finite-time convergence: at the origin (round-off) over the last 2 s, with λ in P.
    for r in rows.iter().filter(|r| r[0] > 18.0) {
        assert!(r[1].abs() < 1e-13 && r[2].abs() < 1e-13, "not at the origin at t = {}: {r:?}", r[0]);
    }
}

/// On the box `[−1, 1]²` the normal-cone law is `RelayNSL`: `AVI` on `NormalConeNSL` and
/// `Relay` (Cao–Ferris, and Lemke) on `RelayNSL` give the same trajectory: the same bits when
/// the relay law goes through `AVI`, within 1e-12 relative to the relay's Cao–Ferris solver (the
/// same pivots in another order of operations; measured 9.4e-14), and within 1e-11 relative to
/// Lemke on the relay's LCP of size 2n (another algorithm; 1.0e-12, in the chattering limit
/// cycle `x2 = ±0.2` that the box law, unlike the implicit twisting, ends in).
#[test]
fn box_normal_cone_equals_the_relay_formulation() {
    let h = dmatrix![1.0, 0.0; 0.0, 1.0; -1.0, 0.0; 0.0, -1.0];
    let k = dvector![-1.0, -1.0, -1.0, -1.0];
    let cone = run(NonSmoothLaw::NormalCone { h, k }, Osnsp::Avi(AviSolver::CaoFerris(Default::default())), 20.0);
    let relay_law = || NonSmoothLaw::Relay { lb: dvector![-1.0, -1.0], ub: dvector![1.0, 1.0] };
    let relay = run(relay_law(), Osnsp::Relay(RelaySolver::AviCaoFerris(Default::default())), 20.0);
    let lemke = run(relay_law(), Osnsp::Relay(RelaySolver::Lemke(Default::default())), 20.0);
    // the relay law through the AVI one-step problem (its box as a polyhedron)
    let relay_avi = run(relay_law(), Osnsp::Avi(AviSolver::CaoFerris(Default::default())), 20.0);
    assert_eq!(cone, relay_avi, "NormalConeNSL(box) and RelayNSL under AVI differ");
    let mut worst = (0.0f64, 0.0f64);
    for ((a, b), c) in cone.iter().zip(&relay).zip(&lemke) {
        for j in 1..7 {
            worst.0 = worst.0.max((a[j] - b[j]).abs() / (1.0 + a[j].abs()));
            worst.1 = worst.1.max((a[j] - c[j]).abs() / (1.0 + a[j].abs()));
        }
    }
    assert!(worst.0 <= 1e-12 && worst.1 <= 1e-11, "AVI vs Relay: {:e} (Cao–Ferris), {:e} (Lemke)", worst.0, worst.1);
    eprintln!("box: AVI vs Relay Cao–Ferris {:e}, vs Relay Lemke {:e}", worst.0, worst.1);
}

#[test]
fn avi_refuses_other_laws_and_bad_polyhedra() {
    let nsds = twisting(NonSmoothLaw::ComplementarityCondition { size: 2 });
    let err = TimeStepping::new(&nsds, H, Osi::euler_moreau(0.5), Osnsp::Avi(AviSolver::CaoFerris(Default::default())))
        .err()
        .expect("AVI with a complementarity law");
    assert!(err.to_string().contains("cannot be solved by the one-step problem AVI"), "{err}");
    // K of the wrong length, H with a line (rank 1)
    let bad_k = NonSmoothLaw::NormalCone { h: DMatrix::identity(2, 2), k: dvector![0.0] };
    assert!(bad_k.validate().unwrap_err().contains("K has 1 entries but H has 2 rows"));
    let line = NonSmoothLaw::NormalCone { h: dmatrix![1.0, 1.0; -1.0, -1.0], k: dvector![-1.0, -1.0] };
    assert!(line.validate().unwrap_err().contains("rank 1"));
}
