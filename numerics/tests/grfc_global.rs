//! Global rolling friction contact (Siconos `GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`):
//! `M v = H r + q`, `u = Hᵀ v + b`, `(r, u)` in the rolling cone law. Checked against the
//! equations themselves (residuals of the two linear relations), the cone conditions recomputed
//! from `(r, u)` (primal and dual cone, orthogonality), a closed form (a sphere that sticks and
//! rolls without slip) and the local problem it condenses to.

use nalgebra::{DMatrix, DVector};
use saltus_numerics::fc::global::Triplets;
use saltus_numerics::fc::rolling::global::solve_global;
use saltus_numerics::fc::rolling::{
    in_rolling_cone, solve, GlobalRollingFrictionContact, RollingFrictionContact, RollingNsgsOptions,
};
use saltus_numerics::{IterOptions, Operator};

/// Contact rows of a sphere (radius R) on a plane with normal e_z, tangents e_x, e_y, against
/// the twist (v, ω): `u_N = v_z`, `u_T = (v_x − R ω_y, v_y + R ω_x)`, `u_R = (ω_x, ω_y)`.
fn sphere_rows(radius: f64) -> DMatrix<f64> {
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

fn triplets(a: &DMatrix<f64>) -> Triplets {
    let mut entries = Vec::new();
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            if a[(i, j)] != 0.0 {
                entries.push((i, j, a[(i, j)]));
            }
        }
    }
    Triplets { nrows: a.nrows(), ncols: a.ncols(), entries }
}

/// Checks `M v = H r + q`, `u = Hᵀ v + b` and, per contact, `r ∈ K`, `û ∈ K*`, `r·û = 0`.
fn check_solution(m: &DMatrix<f64>, h: &DMatrix<f64>, q: &[f64], b: &[f64], mu: &[f64], mu_r: &[f64], sol: &Sol) {
    let (r, u, v) = (DVector::from_row_slice(&sol.r), DVector::from_row_slice(&sol.u), DVector::from_row_slice(&sol.v));
    let eq1 = m * &v - h * &r - DVector::from_row_slice(q);
    let eq2 = &u - h.transpose() * &v - DVector::from_row_slice(b);
    let scale = 1.0 + r.amax() + v.amax();
    assert!(eq1.amax() <= 1e-12 * scale && eq2.amax() <= 1e-12 * scale, "{eq1} {eq2}");
    for (a, (&mu, &mu_r)) in mu.iter().zip(mu_r).enumerate() {
        let (ra, ua) = (&sol.r[5 * a..5 * a + 5], &sol.u[5 * a..5 * a + 5]);
        let nt = (ua[1] * ua[1] + ua[2] * ua[2]).sqrt();
        let nr = (ua[3] * ua[3] + ua[4] * ua[4]).sqrt();
        let mut hat = ua.to_vec();
        hat[0] += mu * nt + mu_r * nr;
        let tol = 1e-9 * scale;
        assert!(in_rolling_cone(ra, mu, mu_r, tol), "contact {a}: r = {ra:?} outside the rolling cone");
        // dual cone: û_N ≥ μ ‖û_T‖ + μ_r ‖û_R‖
        let dual = hat[0]
            - mu * (hat[1] * hat[1] + hat[2] * hat[2]).sqrt()
            - mu_r * (hat[3] * hat[3] + hat[4] * hat[4]).sqrt();
        assert!(dual >= -tol, "contact {a}: û = {hat:?} outside the dual cone ({dual})");
        let dot: f64 = ra.iter().zip(&hat).map(|(x, y)| x * y).sum();
        assert!(dot.abs() <= tol, "contact {a}: r·û = {dot}");
    }
}

struct Sol {
    r: Vec<f64>,
    u: Vec<f64>,
    v: Vec<f64>,
}

fn solve_tight(p: &GlobalRollingFrictionContact) -> Sol {
    let (mut r, mut u, mut v) = (vec![0.0; p.size()], vec![0.0; p.size()], vec![0.0; p.n_velocities()]);
    let rep =
        solve_global(p, &mut r, &mut u, &mut v, &RollingNsgsOptions::with_iter(IterOptions::new(1e-13, 500))).unwrap();
    assert!(rep.status.converged() && rep.residual <= 1e-13, "{rep:?}");
    Sol { r, u, v }
}

/// A sphere pressed onto the plane, spinning slowly: with enough friction it sticks and rolls
/// without slip, `u = 0` and `v = 0` at the contact (the closed form `r = −W⁻¹ q_loc`).
#[test]
fn sphere_sticks_and_rolls_without_slip() {
    let (mass, radius) = (2.0, 0.1);
    let i = 0.4 * mass * radius * radius;
    let m = DMatrix::from_diagonal(&DVector::from_vec(vec![mass, mass, mass, i, i, i]));
    let ht = sphere_rows(radius);
    let h = ht.transpose();
    let v_free = DVector::from_vec(vec![0.01, -0.02, -0.5, 0.03, 0.01, 0.0]);
    let q = &m * &v_free;
    let b = vec![0.0; 5];
    let (mu, mu_r) = (vec![0.8], vec![0.5]);
    let p = GlobalRollingFrictionContact::new(
        5,
        triplets(&m),
        triplets(&h),
        q.as_slice().to_vec(),
        b.clone(),
        mu.clone(),
        mu_r.clone(),
    )
    .unwrap();
    let sol = solve_tight(&p);
    check_solution(&m, &h, q.as_slice(), &b, &mu, &mu_r, &sol);
    let w = &ht * m.clone().try_inverse().unwrap() * &h;
    let exact = -w.try_inverse().unwrap() * (&ht * &v_free);
    for k in 0..5 {
        assert!((sol.r[k] - exact[k]).abs() <= 1e-12 * exact.norm(), "{:?} vs {exact}", sol.r);
        assert!(sol.u[k].abs() <= 1e-12);
    }
}

/// Two spheres on a line, each on the plane, the second also pressing on the first (three
/// contacts, `M` two 6×6 blocks), some sliding and rolling: the cone conditions and the linear
/// relations hold, and the impulses are those of the local problem it condenses to.
#[test]
fn two_spheres_three_contacts_solve_the_law_and_match_the_local_problem() {
    let (mass, radius) = (1.5, 0.05);
    let i = 0.4 * mass * radius * radius;
    let m = DMatrix::from_diagonal(&DVector::from_vec([mass, mass, mass, i, i, i, mass, mass, mass, i, i, i].to_vec()));
    let mut h = DMatrix::zeros(12, 15);
    let rows = sphere_rows(radius).transpose();
    h.view_mut((0, 0), (6, 5)).copy_from(&rows);
    h.view_mut((6, 5), (6, 5)).copy_from(&rows);
    // sphere 2 on sphere 1 along e_x: normal e_x, tangents e_y, e_z; rows act on (2) − (1)
    let mut c = DMatrix::zeros(5, 6);
    c[(0, 0)] = 1.0; // u_N = v_x
    c[(1, 1)] = 1.0;
    c[(1, 5)] = radius; // contact point at −R e_x from sphere 2's centre
    c[(2, 2)] = 1.0;
    c[(2, 4)] = -radius;
    c[(3, 4)] = 1.0;
    c[(4, 5)] = 1.0;
    let mut c1 = c.clone();
    c1[(1, 5)] = radius; // at +R e_x from sphere 1's centre, same lever sign for the difference
    c1[(2, 4)] = -radius;
    h.view_mut((0, 10), (6, 5)).copy_from(&(-c1.transpose()));
    h.view_mut((6, 10), (6, 5)).copy_from(&c.transpose());
    let v_free = DVector::from_vec(vec![0.3, 0.1, -0.8, 0.5, -1.0, 0.2, -0.4, 0.05, -0.6, -2.0, 3.0, 0.1]);
    let q = &m * &v_free;
    let b = vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.0, 0.0];
    let (mu, mu_r) = (vec![0.3, 0.5, 0.2], vec![0.05, 0.0, 0.1]);
    let p = GlobalRollingFrictionContact::new(
        5,
        triplets(&m),
        triplets(&h),
        q.as_slice().to_vec(),
        b.clone(),
        mu.clone(),
        mu_r.clone(),
    )
    .unwrap();
    let sol = solve_tight(&p);
    check_solution(&m, &h, q.as_slice(), &b, &mu, &mu_r, &sol);
    assert!(sol.r.iter().step_by(5).any(|&rn| rn > 1e-3), "no contact active: {:?}", sol.r);
    // the local problem W = Hᵀ M⁻¹ H, q_loc = Hᵀ M⁻¹ q + b, solved directly
    let minv = m.clone().try_inverse().unwrap();
    let w = h.transpose() * &minv * &h;
    let qloc = h.transpose() * &minv * &q + DVector::from_row_slice(&b);
    let local = RollingFrictionContact::new(5, Operator::Dense(w), qloc.as_slice().to_vec(), mu, mu_r).unwrap();
    let (mut r, mut u) = (vec![0.0; 15], vec![0.0; 15]);
    solve(&local, &mut r, &mut u, &RollingNsgsOptions::with_iter(IterOptions::new(1e-13, 500))).unwrap();
    let scale = r.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    for (k, (a, b)) in r.iter().zip(&sol.r).enumerate() {
        assert!((a - b).abs() <= 1e-9 * scale, "r[{k}]: {b} vs {a}");
    }
}

#[test]
fn bad_data_is_a_typed_error() {
    let m = triplets(&DMatrix::identity(6, 6));
    let h = triplets(&sphere_rows(0.1).transpose());
    let bad = |dim, mu_r: Vec<f64>| {
        GlobalRollingFrictionContact::new(dim, m.clone(), h.clone(), vec![0.0; 6], vec![0.0; 5], vec![0.5], mu_r)
    };
    assert!(bad(4, vec![0.1]).is_err());
    assert!(bad(5, vec![-0.1]).is_err());
    assert!(bad(5, vec![0.1, 0.2]).is_err());
    assert!(bad(5, vec![0.1]).is_ok());
}
