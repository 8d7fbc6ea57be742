//! Rolling friction contact: one contact against closed forms (sticking, sliding, rolling
//! resistance), problems solved by Siconos 4.4 (`tests/data/rfc3d`), non-convergence as status.

use nalgebra::{DMatrix, DVector, Matrix2, Vector2};
use saltus_numerics::fc::rolling::{
    in_rolling_cone, read_rfc_file, rfc_error, solve, RollingFrictionContact, RollingNsgsOptions,
};
use saltus_numerics::{IterOptions, Operator, SolveStatus};

/// A sphere (mass m, radius R, inertia i = 2/5 m R²) on a plane with normal e_z, tangents e_x,
/// e_y: `u = H (v, ω)`, `u_N = v_z`, `u_T = (v_x − R ω_y, v_y + R ω_x)`, `u_R = (ω_x, ω_y)`.
fn sphere_h(radius: f64) -> DMatrix<f64> {
    let mut h = DMatrix::zeros(5, 6);
    h[(0, 2)] = 1.0;
    h[(1, 0)] = 1.0;
    h[(1, 4)] = -radius;
    h[(2, 1)] = 1.0;
    h[(2, 3)] = radius;
    h[(3, 3)] = 1.0;
    h[(4, 4)] = 1.0;
    h
}

fn sphere_problem(m: f64, radius: f64, v_free: [f64; 6], mu: f64, mu_r: f64) -> (RollingFrictionContact, DMatrix<f64>) {
    let i = 0.4 * m * radius * radius;
    let h = sphere_h(radius);
    let minv = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0 / m, 1.0 / m, 1.0 / m, 1.0 / i, 1.0 / i, 1.0 / i]));
    let w = &h * minv * h.transpose();
    let q = &h * DVector::from_row_slice(&v_free);
    let p = RollingFrictionContact::new(5, Operator::Dense(w.clone()), q.as_slice().to_vec(), vec![mu], vec![mu_r])
        .unwrap();
    (p, w)
}

fn solve_tight(p: &RollingFrictionContact) -> (Vec<f64>, Vec<f64>) {
    let mut r = vec![0.0; p.size()];
    let mut u = vec![0.0; p.size()];
    let rep = solve(p, &mut r, &mut u, &RollingNsgsOptions::with_iter(IterOptions::new(1e-13, 200))).unwrap();
    assert!(rep.status.converged(), "{rep:?}");
    assert!(rfc_error(p, &r) <= 1e-13);
    (r, u)
}

/// Sticking and rolling without slip: `r = −W⁻¹ q` inside the cone, `u = 0`.
#[test]
fn single_contact_sticking() {
    let (p, w) = sphere_problem(2.0, 0.1, [0.01, -0.02, -0.5, 0.03, 0.01, 0.0], 0.8, 0.5);
    let (r, u) = solve_tight(&p);
    let exact = -w.clone().try_inverse().unwrap() * DVector::from_row_slice(p.q());
    for k in 0..5 {
        assert!((r[k] - exact[k]).abs() <= 1e-12 * exact.norm(), "{r:?} {exact}");
        assert!(u[k].abs() <= 1e-12);
    }
    assert!(in_rolling_cone(&r, 0.8, 0.5, 0.0));
}

/// Separation: `q_N ≥ 0` gives `r = 0` in 0 iterations.
#[test]
fn single_contact_separating() {
    let (p, _) = sphere_problem(1.0, 0.1, [1.0, 0.0, 0.5, 2.0, 0.0, 0.0], 0.5, 0.1);
    let mut r = vec![1.0; 5];
    let mut u = vec![0.0; 5];
    let rep = solve(&p, &mut r, &mut u, &RollingNsgsOptions::default()).unwrap();
    assert_eq!((rep.iterations, r), (0, vec![0.0; 5]));
}

/// Sliding without rolling (μ_r large, u_R = 0): eliminating r_R leaves `u_T = q̂_T + r_T/m` with
/// `q̂_T = q_T − W_TR W_RR⁻¹ q_R` (the Schur complement of the sphere's block is `1/m`), so
/// `r_N = −m q_N`, `r_T = −μ r_N q̂_T/‖q̂_T‖`, `r_R = −W_RR⁻¹ (q_R + W_RT r_T)`.
#[test]
fn single_contact_sliding() {
    let m = 1.5;
    let (p, w) = sphere_problem(m, 0.2, [3.0, 1.0, -0.4, 0.5, -0.2, 0.0], 0.3, 10.0);
    let (r, u) = solve_tight(&p);
    let q = DVector::from_row_slice(p.q());
    let wrr = Matrix2::new(w[(3, 3)], w[(3, 4)], w[(4, 3)], w[(4, 4)]);
    let wtr = Matrix2::new(w[(1, 3)], w[(1, 4)], w[(2, 3)], w[(2, 4)]);
    let wrr_inv = wrr.try_inverse().unwrap();
    let qt = Vector2::new(q[1], q[2]) - wtr * wrr_inv * Vector2::new(q[3], q[4]);
    let rn = -m * q[0];
    let rt = -0.3 * rn * qt / qt.norm();
    let rr = -wrr_inv * (Vector2::new(q[3], q[4]) + wtr.transpose() * rt);
    let exact = [rn, rt.x, rt.y, rr.x, rr.y];
    for k in 0..5 {
        assert!((r[k] - exact[k]).abs() <= 1e-10 * rn, "{r:?} vs {exact:?}");
    }
    assert!(Vector2::new(u[3], u[4]).norm() <= 1e-10, "no rolling");
    assert!(Vector2::new(u[1], u[2]).norm() > 0.1, "slides");
}

/// Rolling resistance (T sticks, R rolls): eliminating r_T leaves `u_R = q̌_R + s r_R`,
/// `s = 1/i − (R/i)²/(1/m + R²/i)`, so `r_R = −μ_r r_N q̌_R/‖q̌_R‖`,
/// `q̌_R = q_R − W_RT W_TT⁻¹ q_T`, `r_T = −W_TT⁻¹ (q_T + W_TR r_R)`.
#[test]
fn single_contact_rolling_resistance() {
    let (m, radius) = (1.0, 0.1);
    // Rolling forward along x: v_x = R ω_y.
    let (p, w) = sphere_problem(m, radius, [1.0, 0.0, -0.2, 0.0, 10.0, 0.0], 1.0, 0.02);
    let (r, u) = solve_tight(&p);
    let q = DVector::from_row_slice(p.q());
    let wtt = Matrix2::new(w[(1, 1)], w[(1, 2)], w[(2, 1)], w[(2, 2)]);
    let wtr = Matrix2::new(w[(1, 3)], w[(1, 4)], w[(2, 3)], w[(2, 4)]);
    let wtt_inv = wtt.try_inverse().unwrap();
    let qr = Vector2::new(q[3], q[4]) - wtr.transpose() * wtt_inv * Vector2::new(q[1], q[2]);
    let rn = -m * q[0];
    let rr = -0.02 * rn * qr / qr.norm();
    let rt = -wtt_inv * (Vector2::new(q[1], q[2]) + wtr * rr);
    let exact = [rn, rt.x, rt.y, rr.x, rr.y];
    for k in 0..5 {
        assert!((r[k] - exact[k]).abs() <= 1e-10 * rn, "{r:?} vs {exact:?}");
    }
    assert!(Vector2::new(u[1], u[2]).norm() <= 1e-10, "no slip");
    // The torque opposes the rolling (ω_y > 0): r_R2 < 0 at |r_R| = μ_r r_N.
    assert!(r[4] < 0.0 && (Vector2::new(r[3], r[4]).norm() - 0.02 * rn).abs() <= 1e-12);
}

fn siconos_data(name: &str) -> (RollingFrictionContact, Vec<f64>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rfc3d");
    let p = read_rfc_file(&dir.join(format!("{name}.dat"))).unwrap();
    let text = std::fs::read_to_string(dir.join(format!("{name}.siconos-r.txt"))).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let r: Vec<f64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
    (p, r)
}

/// Problems written by Siconos's format and solved by Siconos 4.4 (tol 1e-12): Saltus solves
/// them to 1e-12, the recomputed error agrees, and the reactions agree with Siconos's.
#[test]
fn siconos_problems() {
    for name in ["RFC3D_random_4c", "RFC3D_random_12c"] {
        let (p, r_siconos) = siconos_data(name);
        assert_eq!(p.dim(), 5);
        assert!(rfc_error(&p, &r_siconos) <= 1e-12, "Siconos's answer under our measure");
        let mut r = vec![0.0; p.size()];
        let mut u = vec![0.0; p.size()];
        let rep = solve(&p, &mut r, &mut u, &RollingNsgsOptions::with_iter(IterOptions::new(1e-12, 1000))).unwrap();
        assert!(rep.status.converged(), "{name}: {rep:?}");
        let e = rfc_error(&p, &r);
        assert!(e <= 1e-12 && (e - rep.residual).abs() <= 1e-15, "{name}: {e} {rep:?}");
        let scale = r_siconos.iter().map(|x| x * x).sum::<f64>().sqrt();
        for (a, b) in r.iter().zip(&r_siconos) {
            assert!((a - b).abs() <= 1e-9 * scale, "{name}: {a} vs Siconos {b}");
        }
        println!("{name}: {} sweeps, error {:.2e}", rep.iterations, rep.residual);
    }
}

/// The iteration cap is a status, not an error, and the report's residual is the true one.
#[test]
fn cap_is_a_status() {
    let (p, _) = siconos_data("RFC3D_random_12c");
    let mut r = vec![0.0; p.size()];
    let mut u = vec![0.0; p.size()];
    let rep = solve(&p, &mut r, &mut u, &RollingNsgsOptions::with_iter(IterOptions::new(1e-14, 2))).unwrap();
    assert_eq!(rep.status, SolveStatus::MaxIterations);
    assert_eq!(rep.iterations, 2);
    assert_eq!(rep.residual, rfc_error(&p, &r));
}

/// Bad input is a typed error.
#[test]
fn rejects_bad_input() {
    let w = Operator::Dense(DMatrix::identity(5, 5));
    assert!(RollingFrictionContact::new(5, w.clone(), vec![0.0; 5], vec![0.5], vec![-0.1]).is_err());
    assert!(RollingFrictionContact::new(4, w.clone(), vec![0.0; 5], vec![0.5], vec![0.1]).is_err());
    assert!(RollingFrictionContact::new(5, w, vec![f64::NAN; 5], vec![0.5], vec![0.1]).is_err());
}

/// 2D (d = 3: N, T, R), a disk (mass m, radius R, inertia m R²/2) rolling on a line with
/// `u_N = v_z`, `u_T = v_x − R ω`, `u_R = ω`: the tangential part sticks and the rolling torque
/// is `−μ_r r_N sign(q̌_R)`, `q̌_R = q_R − W_RT q_T / W_TT`, `r_T = −(q_T + W_TR r_R)/W_TT`.
#[test]
fn disk_2d_rolling_resistance() {
    let (m, radius, mu_r) = (2.0, 0.2, 0.01);
    let i = 0.5 * m * radius * radius;
    let h = DMatrix::from_row_slice(3, 3, &[0.0, 1.0, 0.0, 1.0, 0.0, -radius, 0.0, 0.0, 1.0]);
    let minv = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0 / m, 1.0 / m, 1.0 / i]));
    let w = &h * minv * h.transpose();
    // Rolling forward: v_x = R ω, pressed down by the step's gravity.
    let q = &h * DVector::from_row_slice(&[2.0, -0.01, 2.0 / radius]);
    let p = RollingFrictionContact::new(3, Operator::Dense(w.clone()), q.as_slice().to_vec(), vec![0.5], vec![mu_r])
        .unwrap();
    let (r, u) = solve_tight(&p);
    let rn = -m * q[0];
    let qr = q[2] - w[(2, 1)] * q[1] / w[(1, 1)];
    let rr = -mu_r * rn * qr.signum();
    let rt = -(q[1] + w[(1, 2)] * rr) / w[(1, 1)];
    for (k, e) in [rn, rt, rr].into_iter().enumerate() {
        assert!((r[k] - e).abs() <= 1e-10 * rn, "{r:?} vs {:?}", [rn, rt, rr]);
    }
    assert!(u[1].abs() <= 1e-10 && u[2] > 0.0, "rolls without slipping: {u:?}");
}

/// The driver (`saltus solve`) reads RFC3D files by name and solves them with `nsgs`.
#[test]
fn driver_reads_and_solves_rfc_files() {
    use saltus_numerics::driver::{read_problem, solve as drive, ProblemKind};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rfc3d/RFC3D_random_4c.dat");
    assert_eq!(ProblemKind::guess(&path), Some(ProblemKind::Rfc3d));
    let p = read_problem(&path, None).unwrap();
    let out = drive(&p, "nsgs", IterOptions::new(1e-12, 1000), 1).unwrap();
    assert!(out.report.status.converged() && out.report.residual <= 1e-12);
    assert_eq!(out.vectors[0].0, "r");
    assert!(drive(&p, "nsgs-ac", IterOptions::new(1e-12, 1000), 1).is_err());
}
