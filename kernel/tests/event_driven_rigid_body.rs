//! Rigid bodies (`LagrangianDs::rigid_body`, Siconos `NewtonEulerDS`: `q ∈ R⁷` with a unit
//! quaternion, `v = (ẋ, Ω) ∈ R⁶`, `q̇ = N(q) v`) in event-driven runs: the integrator carries
//! `q` and `v` of different sizes, the contacts act through `H = ∇h N(q)`, and Euler's equations
//! keep the gyroscopic torque. Checked against closed forms: a spinning ball bouncing on the floor
//! (impact times, rebound, the orientation of a constant spin), and the torque-free tumbling of an
//! asymmetric body (energy and world angular momentum).

use nalgebra::{dmatrix, dvector, DVector, Matrix3, UnitQuaternion, Vector3};
use saltus_kernel::{
    EventDriven, EventDrivenOptions, EventKind, LagrangianDs, LagrangianLinearTiR, NonSmoothLaw, Nsds, Relation,
};
use saltus_numerics::ode::{Atol, Tolerance};

const G: f64 = 9.81;

fn tight(h: f64) -> EventDrivenOptions {
    let mut o = EventDrivenOptions { h, ..Default::default() };
    o.ode.tolerance = Tolerance::RelAbs { rtol: 1e-12, atol: Atol::Scalar(1e-14) };
    o
}

fn orientation(q: &DVector<f64>) -> UnitQuaternion<f64> {
    UnitQuaternion::new_normalize(nalgebra::Quaternion::new(q[3], q[4], q[5], q[6]))
}

/// A ball (m = 2, r = 0.1, `I = 2/5 m r²`) spinning at `Ω = (1, 2, 3)` (body frame) dropped from
/// z = 1 onto the floor `z ≥ r` (`NewtonImpactNSL` e = ½, frictionless, `H = [0 0 1 0 0 0 0]`
/// on `q`, `H N = e_z` on `v`). Impacts at `t₁ = (2 (z₀ − r)/g)^½`, `t₂ = t₁ + 2 e v₁/g`, …; the
/// rebound `e` times the arrival speed; the spin untouched (an isotropic body keeps `Ω`), so the
/// orientation is `q₀ ⊗ exp(t Ω / 2)` at every event.
#[test]
fn a_spinning_ball_bounces_and_keeps_its_spin() {
    let (m, r, e, z0) = (2.0, 0.1, 0.5, 1.0);
    let omega = Vector3::new(1.0, 2.0, 3.0);
    let q0 = dvector![0.0, 0.0, z0, 1.0, 0.0, 0.0, 0.0];
    let v0 = dvector![0.0, 0.0, 0.0, omega.x, omega.y, omega.z];
    let ball = LagrangianDs::rigid_body(q0, v0, m, Matrix3::from_diagonal_element(0.4 * m * r * r))
        .with_f_ext(dvector![0.0, 0.0, -m * G, 0.0, 0.0, 0.0]);
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("ball", ball).unwrap();
    let floor = LagrangianLinearTiR::new(dmatrix![0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]).with_b(dvector![-r]);
    nsds.link("floor", id, None, Relation::LagrangianLinearTi(floor), NonSmoothLaw::NewtonImpact { e }).unwrap();
    let mut sim = EventDriven::new(&nsds, tight(1e-2)).unwrap();
    let t1 = (2.0 * (z0 - r) / G).sqrt();
    let v1 = G * t1;
    let impacts_exact = [t1, t1 + 2.0 * e * v1 / G, t1 + 2.0 * e * v1 / G + 2.0 * e * e * v1 / G];
    let z_exact = |t: f64| {
        if t <= t1 {
            return z0 - 0.5 * G * t * t;
        }
        let k = impacts_exact.iter().rposition(|&tk| tk <= t).unwrap();
        let (tk, u) = (impacts_exact[k], e.powi(k as i32 + 1) * v1);
        r + u * (t - tk) - 0.5 * G * (t - tk) * (t - tk)
    };
    let (mut impacts, mut worst_z, mut worst_rot, mut worst_norm) = (Vec::new(), 0.0f64, 0.0f64, 0.0f64);
    sim.run(&mut nsds, impacts_exact[2] - 1e-2, &mut |n, rep| {
        let (q, v) = (n.systems()[0].state(), n.systems()[0].velocity().unwrap());
        assert_eq!((q.len(), v.len()), (7, 6));
        let exact = UnitQuaternion::from_scaled_axis(omega * rep.t);
        worst_rot = worst_rot.max(orientation(q).angle_to(&exact));
        worst_norm = worst_norm.max((q.rows(3, 4).norm() - 1.0).abs());
        assert!((v.rows(3, 3) - omega).norm() < 1e-12, "t = {}: Ω = {}", rep.t, v.rows(3, 3));
        if rep.kind == EventKind::NonSmooth {
            let pre = &rep.pre_velocities.as_ref().unwrap()[0];
            assert!((v[2] + e * pre[2]).abs() < 1e-9 * pre[2].abs(), "{pre} -> {v}");
            impacts.push(rep.t);
        } else {
            worst_z = worst_z.max((q[2] - z_exact(rep.t)).abs());
        }
    })
    .unwrap();
    eprintln!("impacts {impacts:?} vs {impacts_exact:?}; height {worst_z:e}, orientation {worst_rot:e}");
    assert_eq!(impacts.len(), 2, "{impacts:?}");
    for (t, te) in impacts.iter().zip(&impacts_exact) {
        assert!((t - te).abs() < 1e-9, "impact at {t}, exact {te}");
    }
    assert!(worst_z < 1e-9, "height: {worst_z:e}");
    assert!(worst_rot < 1e-8, "orientation: {worst_rot:e} rad");
    assert!(worst_norm < 1e-15, "the written quaternion is a unit one: {worst_norm:e}");
}

/// A torque-free asymmetric body (`I = diag(1, 2, 3)`) spinning near its middle axis (the
/// Dzhanibekov flip): Euler's equations with the gyroscopic torque, `q̇ = N(q) v`. The kinetic
/// energy `½ Ωᵀ I Ω` and the world angular momentum `R I Ω` are invariants of the exact motion:
/// kept to the integrator's tolerance over 10 s (the body flips), while the body-frame `Ω` itself
/// changes by order one.
#[test]
fn an_asymmetric_body_tumbles_with_its_invariants() {
    let inertia = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let omega0 = Vector3::new(0.01, 3.0, 0.01);
    let q0 = dvector![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    let v0 = dvector![0.0, 0.0, 0.0, omega0.x, omega0.y, omega0.z];
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("body", LagrangianDs::rigid_body(q0, v0, 1.0, inertia)).unwrap();
    let mut sim = EventDriven::new(&nsds, tight(1e-2)).unwrap();
    let energy = |om: &Vector3<f64>| 0.5 * om.dot(&(inertia * om));
    let (e0, l0) = (energy(&omega0), inertia * omega0);
    let (mut worst_e, mut worst_l, mut min_y) = (0.0f64, 0.0f64, f64::INFINITY);
    sim.run(&mut nsds, 10.0, &mut |n, _| {
        let (q, v) = (n.systems()[0].state(), n.systems()[0].velocity().unwrap());
        let om = Vector3::new(v[3], v[4], v[5]);
        worst_e = worst_e.max((energy(&om) - e0).abs() / e0);
        worst_l = worst_l.max((orientation(q) * (inertia * om) - l0).norm() / l0.norm());
        min_y = min_y.min(om.y);
    })
    .unwrap();
    eprintln!("energy {worst_e:e}, angular momentum {worst_l:e}, min Ω_y {min_y}");
    assert!(min_y < -2.0, "the body flips: Ω_y went down to {min_y}");
    assert!(worst_e < 1e-8 && worst_l < 1e-7, "energy {worst_e:e}, angular momentum {worst_l:e}");
}
