//! AVI on polyhedra by Cao–Ferris pivoting: every answer is checked against the definition
//! (`z ∈ K`, `M z + q = Hᵀ μ`, `0 ≤ μ ⊥ H z − k ≥ 0`), recomputed here from the problem data.

use nalgebra::DMatrix;
use saltus_numerics::avi::*;
use saltus_numerics::relay::{self, Relay};
use saltus_numerics::report::IterOptions;
use saltus_numerics::Operator;

/// xorshift64*, uniform in [−1, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let u = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
        2.0 * (u as f64 / (1u64 << 53) as f64) - 1.0
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
    let mut rng = Rng(7);
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
    let mut rng = Rng(11);
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
