//! The relay AVI solver (Cao–Ferris pivoting) on random problems whose `M` is indefinite and
//! non-symmetric: the box is bounded, so a solution always exists and the method must find it
//! (Siconos error measure `‖z − P_[lb,ub](z − w)‖ / (‖q‖ + 1)`, checked again here from the
//! definition, componentwise).

use nalgebra::DMatrix;
use saltus_numerics::relay::*;
use saltus_numerics::report::IterOptions;
use saltus_numerics::Operator;

/// A small deterministic generator (xorshift64*), uniform in [−1, 1).
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
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let it = IterOptions::new(1e-10, 10_000);
    let avi = solver_by_name("avi-caoferris", it).unwrap();
    let lemke = solver_by_name("lemke", it).unwrap();
    let (mut lemke_failures, mut max_res, mut count): (usize, f64, usize) = (0, 0.0, 0);
    let mut state = RelaySolverState::new();
    for n in [1, 2, 3, 5, 8, 13, 21] {
        for _ in 0..60 {
            let p = random_relay(&mut rng, n);
            let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
            let rep = solve_with(&mut state, &p, &mut z, &mut w, &avi).unwrap();
            assert!(rep.status.converged(), "n = {n}: {rep:?}");
            assert_eq!(rep.residual, relay_error(&p, &z));
            check_solution(&p, &z, 1e-9);
            max_res = max_res.max(rep.residual);
            count += 1;
            let (mut z2, mut w2) = (vec![0.0; n], vec![0.0; n]);
            if !solve(&p, &mut z2, &mut w2, &lemke).unwrap().status.converged() {
                lemke_failures += 1;
            }
        }
    }
    eprintln!("{count} random relay problems: Cao-Ferris max residual {max_res:e}; Lemke (covering e) failed on {lemke_failures}");
}

/// On a positive definite `M` the solution is unique: the AVI, Lemke and PGS agree.
#[test]
fn cao_ferris_agrees_with_lemke_and_pgs_when_m_is_positive_definite() {
    let mut rng = Rng(42);
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
                let rep = solve(&p, &mut z, &mut w, &solver_by_name(name, it).unwrap()).unwrap();
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
