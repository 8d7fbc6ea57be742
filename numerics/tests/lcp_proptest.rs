//! Random problems with a unique solution: every applicable solver converges and all agree.
//! SPD `M = AAᵀ + I` (every solver, QP included) and strictly diagonally dominant
//! non-symmetric `M` (a P-matrix: every solver but QP).

use nalgebra::DMatrix;
use proptest::prelude::*;
use saltus_numerics::lcp::*;
use saltus_numerics::report::IterOptions;
use saltus_numerics::Operator;

fn spd(n: usize, a: &[f64]) -> DMatrix<f64> {
    let a = DMatrix::from_column_slice(n, n, &a[..n * n]);
    &a * a.transpose() + DMatrix::identity(n, n)
}

fn diag_dominant(n: usize, a: &[f64]) -> DMatrix<f64> {
    let mut m = DMatrix::from_column_slice(n, n, &a[..n * n]);
    for i in 0..n {
        let off: f64 = (0..n).filter(|&j| j != i).map(|j| m[(i, j)].abs()).sum();
        m[(i, i)] = off + 0.5 + m[(i, i)].abs();
    }
    m
}

fn check_all_agree(m: DMatrix<f64>, q: Vec<f64>, with_qp: bool) -> Result<(), TestCaseError> {
    let n = q.len();
    let lcp = Lcp::new(Operator::Dense(m), q).unwrap();
    let mut reference: Option<Vec<f64>> = None;
    for (name, _) in SOLVERS {
        if *name == "qp" && !with_qp {
            continue;
        }
        let s = solver_by_name(name, IterOptions::new(1e-11, 20_000)).unwrap();
        let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
        let rep = solve(&lcp, &mut z, &mut w, &s).unwrap();
        prop_assert!(rep.status.converged(), "{name}: {rep:?}");
        prop_assert!(rep.residual <= 1e-11);
        prop_assert!(z.iter().all(|&v| v >= -1e-9));
        match &reference {
            None => reference = Some(z),
            Some(r) => {
                let scale = 1.0 + r.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                for i in 0..n {
                    prop_assert!((z[i] - r[i]).abs() <= 1e-7 * scale, "{name}: z[{i}] = {} vs {}", z[i], r[i]);
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn spd_problems(n in 2usize..9, a in prop::collection::vec(-1.0f64..1.0, 64), q in prop::collection::vec(-2.0f64..2.0, 8)) {
        check_all_agree(spd(n, &a), q[..n].to_vec(), true)?;
    }

    #[test]
    fn p_matrix_problems(n in 2usize..9, a in prop::collection::vec(-1.0f64..1.0, 64), q in prop::collection::vec(-2.0f64..2.0, 8)) {
        check_all_agree(diag_dominant(n, &a), q[..n].to_vec(), false)?;
    }
}
