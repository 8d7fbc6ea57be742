//! Generic mechanical problem: on random problems `W = J M⁻¹ Jᵀ` (a mechanical Delassus matrix,
//! positive definite) mixing equality blocks, complementarity blocks and 2D/3D friction contacts,
//! the block Gauss–Seidel answer satisfies each block's law to the tolerance (checked here from
//! `w = W z + q` directly, not from the solver's report), in dense and block-sparse storage.

use nalgebra::DMatrix;
use saltus_numerics::gmp::{self, GenericMechanical, GmpBlock, GmpOptions};
use saltus_numerics::rng::SplitMix64;
use saltus_numerics::{BlockCsr, IterOptions, Operator, SolveStatus};

fn problem(seed: u64, sparse: bool) -> GenericMechanical {
    let mut g = SplitMix64::new(seed);
    let blocks = vec![
        GmpBlock::Equality(2),
        GmpBlock::FrictionContact { dim: 3, mu: 0.5 },
        GmpBlock::Complementarity(3),
        GmpBlock::FrictionContact { dim: 2, mu: 0.3 },
        GmpBlock::Equality(1),
        GmpBlock::FrictionContact { dim: 3, mu: 0.8 },
        GmpBlock::Relay { lb: -0.3, ub: 0.2 },
        GmpBlock::Relay { lb: -0.05, ub: 0.05 },
        GmpBlock::Relay { lb: f64::NEG_INFINITY, ub: 0.1 },
    ];
    let n: usize = blocks.iter().map(GmpBlock::size).sum();
    let ndof = n + 4;
    let j = DMatrix::from_fn(n, ndof, |_, _| g.next_f64() - 0.5);
    let minv = DMatrix::from_diagonal(&nalgebra::DVector::from_fn(ndof, |_, _| 0.5 + g.next_f64()));
    let w = &j * minv * j.transpose();
    let q: Vec<f64> = (0..n).map(|_| 2.0 * g.next_f64() - 1.0).collect();
    let op = if sparse {
        let sizes: Vec<usize> = blocks.iter().map(GmpBlock::size).collect();
        Operator::BlockCsr(BlockCsr::from_dense(&w, &sizes, &sizes).unwrap())
    } else {
        Operator::Dense(w)
    };
    GenericMechanical::new(op, q, blocks).unwrap()
}

#[test]
fn block_gauss_seidel_satisfies_every_block_law() {
    let mut relay_cases = [0usize; 2];
    for seed in 1..=10u64 {
        for sparse in [false, true] {
            let p = problem(seed, sparse);
            let n = p.q().len();
            let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
            let rep = gmp::solve(&p, &mut z, &mut w, &GmpOptions::with_iter(IterOptions::new(1e-11, 100_000))).unwrap();
            assert_eq!(rep.status, SolveStatus::Converged, "seed {seed}: {rep:?}");
            // w = W z + q, recomputed
            let mut wz = p.q().to_vec();
            p.w().matvec_add(1.0, &z, &mut wz);
            let scale = 1.0 + z.iter().chain(&wz).fold(0.0f64, |m, x| m.max(x.abs()));
            let tol = 1e-8 * scale;
            let mut off = 0;
            for b in p.blocks() {
                let (zb, wb) = (&z[off..off + b.size()], &wz[off..off + b.size()]);
                match b {
                    GmpBlock::Equality(_) => assert!(wb.iter().all(|x| x.abs() <= tol), "seed {seed}: w = {wb:?}"),
                    GmpBlock::Complementarity(_) => {
                        for (zi, wi) in zb.iter().zip(wb) {
                            assert!(*zi >= -tol && *wi >= -tol && (zi * wi).abs() <= tol * scale, "seed {seed}");
                        }
                    }
                    GmpBlock::FrictionContact { mu, .. } => {
                        let rt = zb[1..].iter().map(|x| x * x).sum::<f64>().sqrt();
                        let ut = wb[1..].iter().map(|x| x * x).sum::<f64>().sqrt();
                        assert!(rt <= mu * zb[0] + tol, "seed {seed}: outside the cone");
                        // û ∈ K* gives u_N ≥ 0; zᵀû = 0 with the cone gives z_N u_N = 0
                        assert!(wb[0] >= -tol && (zb[0] * wb[0]).abs() <= tol * scale, "seed {seed}: normal law");
                        if ut > 1e-6 {
                            // sliding: r_T opposite to u_T, on the cone boundary
                            for k in 1..b.size() {
                                assert!((zb[k] * ut + mu * zb[0] * wb[k]).abs() <= 1e-6 * scale, "seed {seed}: slip");
                            }
                        }
                    }
                    GmpBlock::Relay { lb, ub } => {
                        let (z, w) = (zb[0], wb[0]);
                        assert!(z >= lb - tol && z <= ub + tol, "seed {seed}: relay z = {z} outside [{lb}, {ub}]");
                        let inside = z > lb + tol && z < ub - tol;
                        relay_cases[usize::from(inside)] += 1;
                        if inside {
                            assert!(w.abs() <= tol, "seed {seed}: relay strictly inside with w = {w}");
                        } else if z >= ub - tol {
                            assert!(w <= tol, "seed {seed}: relay at ub with w = {w}");
                        } else {
                            assert!(w >= -tol, "seed {seed}: relay at lb with w = {w}");
                        }
                    }
                }
                off += b.size();
            }
            assert!(gmp::gmp_error(&p, &z, &wz) <= 1e-11);
        }
    }
    // both relay cases were exercised
    assert!(relay_cases[0] > 0 && relay_cases[1] > 0, "{relay_cases:?}");
}

#[test]
fn relay_bounds_are_checked() {
    let w = Operator::Dense(DMatrix::identity(1, 1));
    for (lb, ub) in [(1.0, 0.0), (f64::NAN, 1.0), (f64::INFINITY, f64::INFINITY)] {
        let e = GenericMechanical::new(w.clone(), vec![0.0], vec![GmpBlock::Relay { lb, ub }]).unwrap_err();
        assert!(e.to_string().contains("relay"), "{e}");
    }
}
