//! AVI on polyhedra and the relay problem as an AVI on a box, by Cao–Ferris pivoting: every
//! answer is checked against the definition (`z ∈ K`, `M z + q = Hᵀ μ`, `0 ≤ μ ⊥ H z − k ≥ 0`;
//! for the relay `z ∈ [lb, ub]`, `−(M z + q) ∈ N_[lb,ub](z)` componentwise), recomputed here from
//! the problem data. The relay problems have indefinite non-symmetric `M`: the box is bounded, so a
//! solution always exists and the method must find it (Siconos error measure
//! `‖z − P_[lb,ub](z − w)‖ / (‖q‖ + 1)`).

use nalgebra::DMatrix;
use saltus_numerics::avi::*;
use saltus_numerics::relay::{self, Relay};
use saltus_numerics::report::IterOptions;
use saltus_numerics::rng::SplitMix64;
use saltus_numerics::Operator;

/// Uniform in [−1, 1) from the crate's SplitMix64.
struct Rng(SplitMix64);
impl Rng {
    fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed))
    }
    fn next(&mut self) -> f64 {
        2.0 * self.0.next_f64() - 1.0
    }
}

/// `(max |M z + q − Hᵀμ|, min(H z − k), min μ, max |μ_j (H z − k)_j|)`.
fn kkt(p: &Avi, z: &[f64], mu: &[f64]) -> (f64, f64, f64, f64) {
    let zv = nalgebra::DVector::from_column_slice(z);
    let muv = nalgebra::DVector::from_column_slice(mu);
    let stat = p.m() * &zv + nalgebra::DVector::from_column_slice(p.q()) - p.h().transpose() * &muv;
    let slack = p.h() * &zv - nalgebra::DVector::from_column_slice(p.k());
    let comp = slack.iter().zip(mu).map(|(s, m)| (s * m).abs()).fold(0.0, f64::max);
    (stat.amax(), slack.min(), muv.min(), comp)
}

fn solve_checked(p: &Avi, tol: f64) -> Vec<f64> {
    let n = p.size();
    let mut state = AviSolverState::new();
    let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
    let s = solver_by_name("caoferris", IterOptions::new(1e-9, 10_000)).unwrap();
    let rep = solve_with(&mut state, p, &mut z, &mut w, &s).unwrap();
    assert!(rep.status.converged(), "{rep:?}");
    assert_eq!(rep.residual, avi_error(p, &z, state.mu()));
    let (stat, slack, mu_min, comp) = kkt(p, &z, state.mu());
    assert!(stat <= tol && slack >= -tol && mu_min >= 0.0 && comp <= tol, "{stat:e} {slack:e} {mu_min:e} {comp:e}");
    z
}

/// A polytope with a known vertex `z̄` on its first `n` rows and the box `[−3, 3]ⁿ` last.
fn random_polytope(rng: &mut Rng, n: usize, extra: usize) -> (DMatrix<f64>, Vec<f64>) {
    let rows = n + extra + 2 * n;
    let mut h = DMatrix::zeros(rows, n);
    for i in 0..n + extra {
        for j in 0..n {
            h[(i, j)] = rng.next() + if i == j { 2.0 } else { 0.0 };
        }
    }
    for j in 0..n {
        h[(n + extra + j, j)] = 1.0;
        h[(n + extra + n + j, j)] = -1.0;
    }
    let zbar: Vec<f64> = (0..n).map(|_| rng.next()).collect();
    let hz = &h * nalgebra::DVector::from_column_slice(&zbar);
    let k: Vec<f64> = (0..rows)
        .map(|i| {
            if i < n {
                hz[i]
            } else if i < n + extra {
                hz[i] - 0.5 * rng.next().abs()
            } else {
                -3.0
            }
        })
        .collect();
    (h, k)
}

#[test]
fn random_polytopes_with_indefinite_matrices() {
    let mut rng = Rng::new(7);
    let mut count = 0;
    for n in [1, 2, 3, 5, 8] {
        for extra in [0, 2, 5] {
            for _ in 0..20 {
                let (h, k) = random_polytope(&mut rng, n, extra);
                let m = DMatrix::from_fn(n, n, |_, _| 2.0 * rng.next());
                let q: Vec<f64> = (0..n).map(|_| 4.0 * rng.next()).collect();
                let p = Avi::new(Operator::Dense(m), q, h, k).unwrap();
                solve_checked(&p, 1e-9);
                count += 1;
            }
        }
    }
    assert_eq!(count, 300);
}

/// The box written as a polyhedron `[I; −I] z ≥ [lb; −ub]` gives the relay answer.
#[test]
fn box_polyhedron_is_the_relay_problem() {
    let mut rng = Rng::new(11);
    for n in [1, 3, 6] {
        for _ in 0..20 {
            let m = DMatrix::from_fn(n, n, |_, _| rng.next());
            let m = &m * m.transpose() + DMatrix::identity(n, n);
            let q: Vec<f64> = (0..n).map(|_| 3.0 * rng.next()).collect();
            let (lb, ub) = (vec![-1.0; n], vec![0.5; n]);
            let mut h = DMatrix::zeros(2 * n, n);
            for j in 0..n {
                h[(j, j)] = 1.0;
                h[(n + j, j)] = -1.0;
            }
            let k: Vec<f64> = lb.iter().copied().chain(ub.iter().map(|u| -u)).collect();
            let z = solve_checked(&Avi::new(Operator::Dense(m.clone()), q.clone(), h, k).unwrap(), 1e-10);
            let r = Relay::new(Operator::Dense(m), q, lb, ub).unwrap();
            let (mut zr, mut wr) = (vec![0.0; n], vec![0.0; n]);
            let s = relay::solver_by_name("avi-caoferris", IterOptions::new(1e-12, 1000)).unwrap();
            assert!(relay::solve(&r, &mut zr, &mut wr, &s).unwrap().status.converged());
            for (a, b) in z.iter().zip(&zr) {
                assert!((a - b).abs() <= 1e-9, "{z:?} vs {zr:?}");
            }
        }
    }
}

/// A triangle `{x ≥ 0, y ≥ 0, x + y ≤ 1}` and `M = I`: the AVI is the projection of `−q`.
#[test]
fn projection_onto_a_triangle() {
    let h = DMatrix::from_row_slice(3, 2, &[1.0, 0.0, 0.0, 1.0, -1.0, -1.0]);
    let k = vec![0.0, 0.0, -1.0];
    // −q = (2, 0.5): projection (1, 0) ... on the edge x + y = 1: (1.25, −0.25) → clipped to (1, 0)
    for (q, expect) in [([-2.0, -0.5], [1.0, 0.0]), ([-0.2, -0.3], [0.2, 0.3]), ([-1.0, -1.0], [0.5, 0.5])] {
        let p = Avi::new(Operator::Dense(DMatrix::identity(2, 2)), q.to_vec(), h.clone(), k.clone()).unwrap();
        let z = solve_checked(&p, 1e-12);
        assert!((z[0] - expect[0]).abs() <= 1e-12 && (z[1] - expect[1]).abs() <= 1e-12, "{z:?} vs {expect:?}");
    }
}

#[test]
fn bad_polyhedra_are_refused() {
    let m = Operator::Dense(DMatrix::identity(2, 2));
    // rank 1: a strip, K contains a line
    let h = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, -1.0, -1.0]);
    let e = Avi::new(m.clone(), vec![0.0; 2], h, vec![0.0, -1.0]).unwrap_err();
    assert!(e.to_string().contains("rank 2"), "{e}");
    let h = DMatrix::from_row_slice(1, 2, &[1.0, 0.0]);
    assert!(Avi::new(m, vec![0.0; 2], h, vec![0.0, 1.0]).is_err());
}

fn random_relay(rng: &mut Rng, n: usize) -> Relay {
    let m = DMatrix::from_fn(n, n, |_, _| 3.0 * rng.next());
    let q: Vec<f64> = (0..n).map(|_| 5.0 * rng.next()).collect();
    let lb: Vec<f64> = (0..n).map(|_| -1.0 - rng.next().abs()).collect();
    // some degenerate boxes (lb = ub) and some thin ones
    let ub: Vec<f64> =
        lb.iter().enumerate().map(|(i, l)| if i % 7 == 3 { *l } else { l + 0.5 + 2.0 * rng.next().abs() }).collect();
    Relay::new(Operator::Dense(m), q, lb, ub).unwrap()
}

/// `z ∈ [lb, ub]` and `w = M z + q` in `−N_[lb,ub](z)`, to `tol`.
fn check_solution(p: &Relay, z: &[f64], tol: f64) {
    let mut w = p.q().to_vec();
    p.m().matvec_add(1.0, z, &mut w);
    for i in 0..z.len() {
        let (l, u) = (p.lb()[i], p.ub()[i]);
        assert!(z[i] >= l && z[i] <= u, "z[{i}] = {} outside [{l}, {u}]", z[i]);
        if z[i] > l + tol && z[i] < u - tol {
            assert!(w[i].abs() <= tol, "interior z[{i}] with w = {}", w[i]);
        } else if z[i] <= l + tol && u - l > 2.0 * tol {
            assert!(w[i] >= -tol, "z[{i}] at lb with w = {}", w[i]);
        } else if z[i] >= u - tol && u - l > 2.0 * tol {
            assert!(w[i] <= tol, "z[{i}] at ub with w = {}", w[i]);
        }
    }
}

#[test]
fn cao_ferris_solves_every_random_relay_with_an_indefinite_matrix() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let it = IterOptions::new(1e-10, 10_000);
    let avi = relay::solver_by_name("avi-caoferris", it).unwrap();
    let lemke = relay::solver_by_name("lemke", it).unwrap();
    let (mut lemke_failures, mut max_res, mut count): (usize, f64, usize) = (0, 0.0, 0);
    let mut state = relay::RelaySolverState::new();
    for n in [1, 2, 3, 5, 8, 13, 21] {
        for _ in 0..60 {
            let p = random_relay(&mut rng, n);
            let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
            let rep = relay::solve_with(&mut state, &p, &mut z, &mut w, &avi).unwrap();
            assert!(rep.status.converged(), "n = {n}: {rep:?}");
            assert_eq!(rep.residual, relay::relay_error(&p, &z));
            check_solution(&p, &z, 1e-9);
            max_res = max_res.max(rep.residual);
            count += 1;
            let (mut z2, mut w2) = (vec![0.0; n], vec![0.0; n]);
            if !relay::solve(&p, &mut z2, &mut w2, &lemke).unwrap().status.converged() {
                lemke_failures += 1;
            }
        }
    }
    eprintln!("{count} random relay problems: Cao-Ferris max residual {max_res:e}; Lemke (covering e) failed on {lemke_failures}");
}

/// On a positive definite `M` the solution is unique: the AVI, Lemke and PGS agree.
#[test]
fn cao_ferris_agrees_with_lemke_and_pgs_when_m_is_positive_definite() {
    let mut rng = Rng::new(42);
    let it = IterOptions::new(1e-12, 100_000);
    for n in [2, 4, 9] {
        for _ in 0..20 {
            let a = DMatrix::from_fn(n, n, |_, _| rng.next());
            let m = &a * a.transpose() + DMatrix::identity(n, n) * (n as f64);
            let q: Vec<f64> = (0..n).map(|_| 4.0 * rng.next()).collect();
            let p = Relay::new(Operator::Dense(m), q, vec![-1.0; n], vec![0.5; n]).unwrap();
            let mut sols = Vec::new();
            for name in ["avi-caoferris", "lemke", "pgs"] {
                let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
                let rep = relay::solve(&p, &mut z, &mut w, &relay::solver_by_name(name, it).unwrap()).unwrap();
                assert!(rep.status.converged(), "{name}: {rep:?}");
                sols.push(z);
            }
            for s in &sols[1..] {
                for (a, b) in sols[0].iter().zip(s) {
                    assert!((a - b).abs() <= 1e-8, "{:?} vs {s:?}", sols[0]);
                }
            }
        }
    }
}
