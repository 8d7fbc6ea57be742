//! `samples/ball_on_plate`: a rigid body (`<NewtonEulerDS>`, q ∈ R⁷, v ∈ R⁶) and a Lagrangian
//! system (`<LagrangianLinearTIDS>`, a plate on a spring) in one interaction, integrated by the
//! kernel's Moreau–Jean. Checked against the mechanics of the model, not against printed
//! numbers: with θ = ½ and e = 1 the total energy (both bodies' kinetic energies, gravity, the
//! spring) is kept at every step; the contact passes through the ball's centre, so its rotational
//! energy and its world-frame angular momentum `R(q) I Ω` are kept through the impacts while it
//! tumbles about its unstable middle axis; each impact reverses the relative normal velocity.
mod sample_util;
use sample_util::*;

#[test]
fn a_tumbling_ball_bounces_on_a_sprung_plate() {
    let model = sample("ball_on_plate/ball_on_plate.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let (ydot, lambda) = (tr.col("contact.ydot[0]"), tr.col("contact.lambda[0]"));
    // an impulse on a row: ẏ reversed from the row before (Moreau–Jean's rows are its steps)
    let impacts: Vec<(usize, f64, f64)> =
        (1..tr.len()).filter(|&i| lambda[i] > 0.0).map(|i| (i, ydot[i - 1], ydot[i])).collect();
    check(&tr, &impacts, 1e-12);
}

/// `ball_on_plate_ed.xml`: the same model event driven (LSODAR, rtol 1e-12): the ball's 7
/// coordinates and 6 velocities with `q̇ = N(q) v` and Euler's gyroscopic torque, each impact
/// located by root finding. The same invariants to the integrator's tolerance (1e-9), the
/// relative velocity reversed at each located impact (rows `kind` 1 and 2: before and after),
/// and the first impact at the free-fall time `(2 · 0.4981 / g)^½` (the plate rests at its
/// equilibrium until then).
#[test]
fn the_tumbling_ball_event_driven() {
    let model = sample("ball_on_plate/ball_on_plate_ed.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let (t, kind, vz, vp) = (tr.col("t"), tr.col("kind"), tr.col("ball.v[2]"), tr.col("plate.v[0]"));
    // ẏ = v_ball,z − v_plate (the gap's rate)
    let impacts: Vec<(usize, f64, f64)> =
        (0..tr.len()).filter(|&i| kind[i] == 2.0).map(|i| (i, vz[i - 1] - vp[i - 1], vz[i] - vp[i])).collect();
    let first = (2.0 * 0.4981f64 / 9.81).sqrt();
    assert!((t[impacts[0].0] - first).abs() < 1e-10, "first impact at {}, free fall {first}", t[impacts[0].0]);
    check(&tr, &impacts, 1e-9);
}

/// The invariants of the model on every row of `tr` (energy, rotational energy, world angular
/// momentum to `tol` relative; a unit quaternion; no sideways motion) and, at each impact
/// `(row, ẏ before, ẏ after)`, the relative normal velocity reversed (e = 1).
fn check(tr: &Trajectory, impacts: &[(usize, f64, f64)], tol: f64) {
    let (m, big_m, k, g) = (0.5, 2.0, 200.0, 9.81);
    let inertia = [0.001, 0.002, 0.003];
    let q: Vec<&[f64]> = (0..7).map(|j| tr.col(&format!("ball.q[{j}]"))).collect();
    let v: Vec<&[f64]> = (0..6).map(|j| tr.col(&format!("ball.v[{j}]"))).collect();
    let (zp, vp) = (tr.col("plate.q[0]"), tr.col("plate.v[0]"));
    let energy = |i: usize| {
        let kin = 0.5 * m * (0..3).map(|j| v[j][i] * v[j][i]).sum::<f64>();
        let rot = 0.5 * (0..3).map(|j| inertia[j] * v[3 + j][i] * v[3 + j][i]).sum::<f64>();
        (kin + m * g * q[2][i] + 0.5 * big_m * vp[i] * vp[i] + 0.5 * k * zp[i] * zp[i] + big_m * g * zp[i], rot)
    };
    let momentum = |i: usize| {
        let (w, x, y, z) = (q[3][i], q[4][i], q[5][i], q[6][i]);
        let r = [
            [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
            [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
            [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
        ];
        [0, 1, 2].map(|a| (0..3).map(|b| r[a][b] * inertia[b] * v[3 + b][i]).sum::<f64>())
    };
    let (e0, rot0) = energy(0);
    let l0 = momentum(0);
    let l0n = l0.iter().map(|x| x * x).sum::<f64>().sqrt();
    let mut flips = 0;
    for i in 1..tr.len() {
        let (e, rot) = energy(i);
        assert!((e - e0).abs() <= tol * e0, "row {i}: energy {e} vs {e0}");
        assert!((rot - rot0).abs() <= tol * rot0, "row {i}: rotational energy {rot} vs {rot0}");
        let l = momentum(i);
        assert!((0..3).all(|a| (l[a] - l0[a]).abs() <= tol * l0n), "row {i}: angular momentum {l:?} vs {l0:?}");
        let qn = (3..7).map(|j| q[j][i] * q[j][i]).sum::<f64>().sqrt();
        assert!((qn - 1.0).abs() <= 1e-15, "row {i}: |quaternion| = {qn}");
        flips += usize::from(v[4][i] * v[4][i - 1] < 0.0);
        // the contact acts along z only
        assert_eq!((v[0][i], v[1][i]), (0.0, 0.0));
    }
    for &(i, before, after) in impacts {
        assert!(before < 0.0, "row {i}: an impulse on a separating contact");
        assert!((after + before).abs() <= tol * before.abs().max(1.0), "row {i}: ẏ {after} after {before}");
    }
    assert!(impacts.len() >= 5, "{} impacts", impacts.len());
    assert!(flips >= 1, "the spin about the middle axis flips over ({flips})");
}
