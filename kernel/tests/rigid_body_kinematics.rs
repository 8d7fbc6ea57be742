//! A rigid body as a kernel system: `q = (x, quaternion) ∈ R⁷`, `v = (ẋ, ω_body) ∈ R⁶`,
//! `M = diag(m, m, m, I₁, I₂, I₃)`, `F_gyr = (0, ω × I ω)`, and the kinematics
//! `q̇ = N(q) v = (ẋ, ½ q ⊗ (0, ω))` (Siconos `NewtonEulerDS` with its `T(q)`), integrated by the
//! semi-explicit Euler (`v_{k+1} = v_k + h M⁻¹ F(q_k, v_k)`, `q_{k+1} = q_k + h N(q_k) v_{k+1}`)
//! or by Moreau–Jean (θ-method on `v`, `q_{k+1} = q_k + h N(q_k) v_{k+θ}`). Checked against the
//! closed forms of those recurrences.

use nalgebra::{dvector, DMatrix, DVector};
use saltus_kernel::{KernelError, LagrangianDs, Mass, Nsds, Osi, Osnsp, Recorder, TimeStepping};

mod common;

const MASS: f64 = 2.0;
const INERTIA: [f64; 3] = [0.5, 1.0, 1.5];

fn body(q0: DVector<f64>, v0: DVector<f64>, g: f64) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    nsds.add_ds("body", common::rigid_body::body(MASS, INERTIA, q0, v0, g)).unwrap();
    nsds
}

/// A body spinning about its principal axis z at `w` and falling: `ω` stays `(0, 0, w)` (no
/// gyroscopic torque), each step multiplies the quaternion by `I + (h/2) Ω`, a rotation by
/// `2 atan(h w / 2)` about z scaled by `√(1 + (h w / 2)²)`, with either integrator; the centre
/// falls as the semi-explicit Euler's `z_n = z₀ + n h v₀ − g h² n (n + 1) / 2`, or Moreau–Jean
/// θ = ½'s trapezoidal `z_n = z₀ + n h v₀ − g h² n² / 2`.
#[test]
fn spin_about_a_principal_axis_and_free_fall() {
    spin_and_fall(Osi::semi_explicit_euler(), 1.0);
    spin_and_fall(Osi::moreau_jean(0.5), 0.0);
}

/// `fall_shift`: the `n (n + shift)` of the fall's closed form.
fn spin_and_fall(osi: Osi, fall_shift: f64) {
    let (h, w, g, v0) = (1e-3, 3.0, 9.81, 0.5);
    let mut nsds = body(dvector![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0], dvector![0.0, 0.0, v0, 0.0, 0.0, w], g);
    assert_eq!((nsds.systems()[0].dim_q(), nsds.systems()[0].dim_v()), (7, 6));
    let mut ts = TimeStepping::new(&nsds, h, osi, Osnsp::Equality).unwrap();
    let rec = Recorder::new(&nsds);
    let header = rec.header();
    let count = |prefix: &str| header.iter().filter(|c| c.starts_with(prefix)).count();
    assert_eq!((count("body.q"), count("body.v"), count("body.p")), (7, 6, 6));
    let n = 2000;
    for _ in 0..n {
        ts.step(&mut nsds).unwrap();
    }
    let (q, v) = (nsds.systems()[0].state(), nsds.systems()[0].velocity().unwrap());
    assert_eq!(v[5], w, "ω_z is untouched without gyroscopic torque");
    assert_eq!((v[3], v[4]), (0.0, 0.0));
    let nf = n as f64;
    let z = 1.0 + nf * h * v0 - g * h * h * nf * (nf + fall_shift) / 2.0;
    assert!((q[2] - z).abs() <= 1e-12, "z = {}, closed form {z}", q[2]);
    assert!((v[2] - (v0 - nf * h * g)).abs() <= 1e-12);
    let half = h * w / 2.0;
    let angle = 2.0 * nf * half.atan();
    let norm = (1.0 + half * half).powf(nf / 2.0);
    let quat = [q[3], q[4], q[5], q[6]];
    let expected = [norm * (angle / 2.0).cos(), 0.0, 0.0, norm * (angle / 2.0).sin()];
    for (a, b) in quat.iter().zip(expected) {
        assert!((a - b).abs() <= 1e-12, "quaternion {quat:?}, closed form {expected:?}");
    }
}

/// A torque-free asymmetric body spun about its intermediate axis tips over (Dzhanibekov) over
/// 5 s. The semi-explicit Euler keeps the size of the angular momentum (`|I ω|`, that of the
/// world-frame `R(q) I ω`) and the kinetic energy within O(h) (measured 1.0e-4 and 2.1e-4 of
/// them, h = 1e-4); Moreau–Jean θ = ½, implicit midpoint on `ω`, within 1.7e-9 and 3.3e-9. The
/// quaternion's norm drifts at O(h) with both (2.8e-4: `N` is taken at `q_k`).
#[test]
fn torque_free_body_keeps_its_momentum_to_first_order() {
    tip_over(Osi::semi_explicit_euler(), 1e-3);
    tip_over(Osi::moreau_jean(0.5), 1e-7);
}

/// `tol`: the relative bound on the momentum's and the energy's changes.
fn tip_over(osi: Osi, tol: f64) {
    let h = 1e-4;
    let w0 = [0.1, 2.0, 0.1];
    let mut nsds = body(dvector![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], dvector![0.0, 0.0, 0.0, w0[0], w0[1], w0[2]], 0.0);
    let mut ts = TimeStepping::new(&nsds, h, osi, Osnsp::Equality).unwrap();
    let momentum = |w: &[f64]| (0..3).map(|i| (INERTIA[i] * w[i]).powi(2)).sum::<f64>().sqrt();
    let energy = |w: &[f64]| 0.5 * (0..3).map(|i| INERTIA[i] * w[i] * w[i]).sum::<f64>();
    let (l0, e0) = (momentum(&w0), energy(&w0));
    let mut max_w1: f64 = 0.0;
    for _ in 0..50_000 {
        ts.step(&mut nsds).unwrap();
        let v = nsds.systems()[0].velocity().unwrap();
        let w = [v[3], v[4], v[5]];
        max_w1 = max_w1.max(w[0].abs());
        assert!((momentum(&w) - l0).abs() <= tol * l0 && (energy(&w) - e0).abs() <= tol * e0);
    }
    // the intermediate axis is unstable: the spin about y tips over, ω_x grows to ~2
    assert!(max_w1 > 1.5, "ω_x stayed below {max_w1}");
    let q = nsds.systems()[0].state();
    let qn = (3..7).map(|i| q[i] * q[i]).sum::<f64>().sqrt();
    assert!((qn - 1.0).abs() <= 1e-3, "|q| = {qn}");
}

/// Sizes: `v0` of another size than `q0` needs a kinematics map; Euler–Moreau (first order) and
/// Moreau–Jean–Bilbao refuse a system with one.
#[test]
fn sizes_and_integrators_are_checked() {
    let m = Mass::Constant(DMatrix::identity(6, 6));
    let plain = LagrangianDs::new(DVector::zeros(7), DVector::zeros(6), m);
    let mut nsds = Nsds::new(0.0);
    let err = nsds.add_ds("body", plain).unwrap_err();
    assert!(err.to_string().contains("v0 has length 6, expected 7"), "{err}");
    let nsds = body(dvector![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], DVector::zeros(6), 9.81);
    for (osi, osnsp) in [(Osi::MoreauJeanBilbao, Osnsp::Equality), (Osi::euler_moreau(0.5), Osnsp::Equality)] {
        let r = TimeStepping::new(&nsds, 1e-3, osi, osnsp);
        assert!(matches!(r, Err(KernelError::UnsupportedSystem { .. })), "{:?}", r.err());
    }
}
