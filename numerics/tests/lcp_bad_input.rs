//! Bad input gives typed errors, never a panic.

use nalgebra::DMatrix;
use saltus_numerics::lcp::*;
use saltus_numerics::relay::{self, Relay, RelaySolver};
use saltus_numerics::report::IterOptions;
use saltus_numerics::{BlockCsr, NumericsError, Operator};

fn d(n: usize, m: usize, v: f64) -> Operator {
    Operator::Dense(DMatrix::from_element(n, m, v))
}

#[test]
fn problem_construction_is_validated() {
    assert!(matches!(Lcp::new(d(2, 3, 1.0), vec![0.0; 2]), Err(NumericsError::NotSquare { rows: 2, cols: 3, .. })));
    assert!(matches!(
        Lcp::new(d(2, 2, 1.0), vec![0.0; 3]),
        Err(NumericsError::DimensionMismatch { what: "q", expected: 2, found: 3 })
    ));
    let mut m = DMatrix::identity(2, 2);
    m[(1, 0)] = f64::NAN;
    assert!(matches!(
        Lcp::new(Operator::Dense(m), vec![0.0; 2]),
        Err(NumericsError::NonFinite { what: "M", index: 1 })
    ));
    assert!(matches!(
        Lcp::new(d(2, 2, 1.0), vec![0.0, f64::INFINITY]),
        Err(NumericsError::NonFinite { what: "q", index: 1 })
    ));
    let id = || Operator::Dense(DMatrix::identity(2, 2));
    assert!(matches!(
        Relay::new(id(), vec![0.0; 2], vec![1.0, 0.0], vec![0.0, 1.0]),
        Err(NumericsError::InvalidOption { .. })
    ));
    assert!(matches!(
        Relay::new(id(), vec![0.0; 2], vec![0.0; 2], vec![1.0, f64::NAN]),
        Err(NumericsError::NonFinite { what: "ub", .. })
    ));
    assert!(matches!(
        Relay::new(id(), vec![0.0; 2], vec![0.0; 1], vec![1.0; 2]),
        Err(NumericsError::DimensionMismatch { what: "lb", .. })
    ));
}

#[test]
fn options_and_arguments_are_validated() {
    let lcp = Lcp::new(Operator::Dense(DMatrix::identity(2, 2) * 2.0), vec![-1.0, -1.0]).unwrap();
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    for tol in [0.0, -1.0, f64::NAN] {
        let s = solver_by_name("pgs", IterOptions::new(tol, 10)).unwrap();
        assert!(matches!(solve(&lcp, &mut z, &mut w, &s), Err(NumericsError::InvalidOption { option: "tol", .. })));
    }
    let mut o = PsorOptions::default();
    o.omega = 2.0;
    assert!(matches!(
        solve(&lcp, &mut z, &mut w, &LcpSolver::Psor(o)),
        Err(NumericsError::InvalidOption { option: "omega", .. })
    ));
    let mut short = vec![0.0; 1];
    assert!(matches!(
        solve(&lcp, &mut short, &mut w, &LcpSolver::Pgs(PgsOptions::default())),
        Err(NumericsError::DimensionMismatch { what: "z", .. })
    ));
    let mut o = PgsOptions::default();
    o.warm_start = true;
    let mut zn = vec![f64::NAN, 0.0];
    assert!(matches!(solve(&lcp, &mut zn, &mut w, &LcpSolver::Pgs(o)), Err(NumericsError::NonFinite { .. })));
    assert!(solver_by_name("simplex", IterOptions::default()).is_none());
    assert!(relay::solver_by_name("simplex", IterOptions::default()).is_none());
}

#[test]
fn solvers_refuse_what_they_cannot_handle() {
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    // zero diagonal: PGS divides by M_ii
    let lcp =
        Lcp::new(Operator::Dense(DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 1.0])), vec![-1.0, -1.0]).unwrap();
    assert!(matches!(
        solve(&lcp, &mut z, &mut w, &LcpSolver::Pgs(PgsOptions::default())),
        Err(NumericsError::Singular { index: 0, .. })
    ));
    // non-symmetric M for the QP method
    let lcp =
        Lcp::new(Operator::Dense(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 0.0, 2.0])), vec![-1.0, -1.0]).unwrap();
    assert!(matches!(
        solve(&lcp, &mut z, &mut w, &LcpSolver::Qp(QpLcpOptions::default())),
        Err(NumericsError::Unsupported { solver: "qp", .. })
    ));
    // block storage for the dense-only solvers
    let b = BlockCsr::from_dense(&(DMatrix::identity(2, 2) * 2.0), &[1, 1], &[1, 1]).unwrap();
    let lcp = Lcp::new(Operator::BlockCsr(b), vec![-1.0, -1.0]).unwrap();
    for name in ["lemke", "newton-fb", "newton-min", "enum", "qp"] {
        let s = solver_by_name(name, IterOptions::default()).unwrap();
        assert!(matches!(solve(&lcp, &mut z, &mut w, &s), Err(NumericsError::Unsupported { .. })), "{name}");
    }
    // enumeration above its size cap
    let n = 21;
    let lcp = Lcp::new(Operator::Dense(DMatrix::identity(n, n)), vec![-1.0; n]).unwrap();
    let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
    assert!(matches!(
        solve(&lcp, &mut z, &mut w, &LcpSolver::Enumerative(EnumOptions::default())),
        Err(NumericsError::Unsupported { solver: "enum", .. })
    ));
    // relay lemke on block storage
    let b = BlockCsr::from_dense(&(DMatrix::identity(2, 2) * 2.0), &[1, 1], &[1, 1]).unwrap();
    let p = Relay::new(Operator::BlockCsr(b), vec![-1.0; 2], vec![0.0; 2], vec![1.0; 2]).unwrap();
    let (mut z, mut w) = (vec![0.0; 2], vec![0.0; 2]);
    assert!(matches!(
        relay::solve(&p, &mut z, &mut w, &RelaySolver::Lemke(LemkeOptions::default())),
        Err(NumericsError::Unsupported { .. })
    ));
}

#[test]
fn readers_report_line_and_column() {
    // q has a bad token on line 4
    let text = "2\n0\n2\n2\n2 2\n1 0 0 1\n-1 x\n";
    match read_lcp(text) {
        Err(NumericsError::Parse { line, column, .. }) => assert_eq!((line, column), (7, 4)),
        other => panic!("{other:?}"),
    }
    // truncated file
    assert!(matches!(read_lcp("2\n0\n2\n2\n2 2\n1 0 0 1\n-1\n"), Err(NumericsError::Parse { .. })));
    // size field disagrees with the matrix
    assert!(matches!(
        read_lcp("3\n0\n2\n2\n2 2\n1 0 0 1\n-1 -1\n"),
        Err(NumericsError::Parse { line: 1, column: 1, .. })
    ));
    // NaN in M is caught by the problem check and reported as a parse error
    assert!(matches!(read_lcp("2\n0\n2\n2\n2 2\n1 nan 0 1\n-1 -1\n"), Err(NumericsError::Parse { .. })));
    // relay: missing ub
    assert!(matches!(relay::read_relay("1\n0\n1\n1\n1 1\n2\n-1\n0\n"), Err(NumericsError::Parse { line: 9, .. })));
    // trailing text is ignored; M is column-major
    let p = read_lcp("2\n0\n2\n2\n2 2\n1 2\n0 1\n-1 -1\n# from a book\n").unwrap();
    let m = p.m().to_dense();
    assert_eq!((m[(0, 0)], m[(1, 0)], m[(0, 1)], m[(1, 1)]), (1.0, 2.0, 0.0, 1.0));
    assert!(matches!(read_lcp_file("/nonexistent/x.dat"), Err(NumericsError::Parse { .. })));
}
