//! Gallery sample `slider_crank`: the slider–crank mechanism with a translational clearance
//! joint (Flores, Leine & Glocker 2010), q = (θ1, θ2, θ3), M(q), F_gyr and gravity from the plugin
//! `plugins/slider_crank`, four corner–wall contacts with the Newton impact law (e = 0.4),
//! Moreau–Jean θ = 0.5 with an LCP and the Newton loop, h = 1e-5, T = 0.2; and its variant
//! `slider_crank_friction.xml` with Coulomb friction (μ = 0.01, 2D friction contact).
//!
//! Checks (the equations come from the plugin crate's `model`, itself unit-tested against finite
//! differences and the Christoffel symbols of M):
//! * complementarity at every step and contact, with the Moreau–Jean index set reproduced from
//!   the output (`g + γ h ẏ ≤ 0`): λ ≥ 0, λ = 0 off the index set, `w = ẏ⁺ + e ẏ⁻ ≥ 0` on it and
//!   `w = 0` where λ > 0 — hence post-impact normal velocity = −e × pre-impact at every impact;
//! * no significant penetration (gaps ≥ −2 % of the clearance);
//! * energy: per step, the energy change is the work of the contact impulses
//!   `λᵀ(ẏ⁺ + ẏ⁻)/2` plus the O(h²) error of the smooth step; that work is never positive beyond
//!   round-off (dissipated energy never negative) and, at each impact, equals the rigid-body loss
//!   `½ (1 − e²) ẏ⁻ᵀ (W M⁻¹ Wᵀ)⁻¹ ẏ⁻`;
//! * kinematics: the free motion before the first contact agrees with an RK4 integration of the
//!   smooth equations, and the measured crank revolution times agree with the ideal (zero
//!   clearance) slider–crank at the same energy, by quadrature of `dt = dθ1 / ω1(θ1)`;
//! * without friction, the trajectory agrees with Siconos 4.4 (same scheme and equations,
//!   `tests/data/siconos_slider_crank.csv`, made by `samples/slider_crank/siconos/`);
//! * with friction: Coulomb's law at every active contact (|λt| ≤ μ λn; sliding: λt = −μ λn
//!   sign(u_t); sticking: u_t = 0) and the friction work −μ Σ λn |ū_t| < 0.
// Rows and contacts are indexed: several columns are read at the same row k (and k + 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use saltus_plugin_slider_crank::{Corner, Mechanism};
use sample_util::*;

/// `[l1, l2, m1, m2, m3, J1, J2, J3, g]` as in the XML.
const MECH: &str = "0.153 0.306 0.038 0.038 0.076 7.4e-5 5.9e-4 2.7e-6 9.81";
/// `[l1, l2, a, b, c]` as in the XML (then sx, sy per corner).
const GEO: &str = "0.153 0.306 0.05 0.025 0.001";
/// (sx, sy) of corner1..corner4.
const SIGNS: [(f64, f64); 4] = [(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
const E: f64 = 0.4;
const MU: f64 = 0.01;
const H: f64 = 1e-5;
const GAMMA: f64 = 0.5;
const CLEARANCE: f64 = 0.001;

fn numbers(s: &str) -> Vec<f64> {
    s.split_whitespace().map(|x| x.parse().unwrap()).collect()
}

fn m3(a: [[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_fn(|i, j| a[i][j])
}

/// `q̈ = M(q)⁻¹ (−F_gyr(q, v) − F_int(q))`.
fn acceleration(m: &Mechanism, q: &[f64; 3], v: &[f64; 3]) -> [f64; 3] {
    let (fg, fi) = (m.gyroscopic(q, v), m.gravity(q));
    let rhs = -Vector3::new(fg[0] + fi[0], fg[1] + fi[1], fg[2] + fi[2]);
    let a = m3(m.mass(q)).cholesky().expect("M is SPD").solve(&rhs);
    [a[0], a[1], a[2]]
}

/// Classical RK4 of the smooth dynamics from `(q, v)` over `steps` steps of `dt`.
fn rk4(m: &Mechanism, mut q: [f64; 3], mut v: [f64; 3], dt: f64, steps: usize) -> ([f64; 3], [f64; 3]) {
    let add = |x: &[f64; 3], d: &[f64; 3], s: f64| [x[0] + s * d[0], x[1] + s * d[1], x[2] + s * d[2]];
    for _ in 0..steps {
        let (k1q, k1v) = (v, acceleration(m, &q, &v));
        let (q2, v2) = (add(&q, &k1q, dt / 2.0), add(&v, &k1v, dt / 2.0));
        let (k2q, k2v) = (v2, acceleration(m, &q2, &v2));
        let (q3, v3) = (add(&q, &k2q, dt / 2.0), add(&v, &k2v, dt / 2.0));
        let (k3q, k3v) = (v3, acceleration(m, &q3, &v3));
        let (q4, v4) = (add(&q, &k3q, dt), add(&v, &k3v, dt));
        let (k4q, k4v) = (v4, acceleration(m, &q4, &v4));
        for i in 0..3 {
            q[i] += dt / 6.0 * (k1q[i] + 2.0 * k2q[i] + 2.0 * k3q[i] + k4q[i]);
            v[i] += dt / 6.0 * (k1v[i] + 2.0 * k2v[i] + 2.0 * k3v[i] + k4v[i]);
        }
    }
    (q, v)
}

/// Revolution time of the ideal slider–crank (slider centre on the axis, θ3 fixed) at energy
/// `e`: `∫₀^{2π} dθ1 / ω1(θ1)`, `ω1 = √(2 (e − V(θ1)) / I(θ1))`, `I = M11 + 2 M12 r + M22 r²`,
/// `r = dθ2/dθ1 = −l1 cos θ1 / (l2 cos θ2)`, `sin θ2 = −(l1/l2) sin θ1` (midpoint rule).
fn ideal_revolution_time(m: &Mechanism, e: f64) -> f64 {
    let n = 20_000;
    let dth = 2.0 * std::f64::consts::PI / n as f64;
    (0..n)
        .map(|i| {
            let th1 = (i as f64 + 0.5) * dth;
            let th2 = (-m.l1 / m.l2 * th1.sin()).asin();
            let r = -m.l1 * th1.cos() / (m.l2 * th2.cos());
            let q = [th1, th2, 0.0];
            let mm = m.mass(&q);
            let inertia = mm[0][0] + 2.0 * mm[0][1] * r + mm[1][1] * r * r;
            dth / (2.0 * (e - m.potential(&q)) / inertia).sqrt()
        })
        .sum()
}

#[test]
fn slider_crank_physics() {
    check_sample("slider_crank/slider_crank.xml", false);
}

#[test]
fn slider_crank_with_friction_physics() {
    check_sample("slider_crank/slider_crank_friction.xml", true);
}

/// Runs the sample and checks its physics; `friction`: the contacts are 2D friction contacts
/// (columns `y[1]`, `lambda[1]` = tangential velocity and impulse).
fn check_sample(rel: &str, friction: bool) {
    let dir = build_plugin("saltus-plugin-slider-crank");
    let model = sample(rel);
    validate_xml(&model);
    let xml = std::fs::read_to_string(&model).unwrap();
    assert!(xml.contains(&format!("params=\"{MECH}\"")), "the test's mechanism parameters are not the sample's");
    let mech = Mechanism::from_params(&numbers(MECH)).unwrap();
    let corners: Vec<Corner> = SIGNS
        .iter()
        .map(|(sx, sy)| {
            assert!(xml.contains(&format!("params=\"{GEO} {sx} {sy}\"")), "corner ({sx}, {sy}) not in the sample");
            let mut p = numbers(GEO);
            p.extend([*sx, *sy]);
            Corner::from_params(&p).unwrap()
        })
        .collect();

    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let n = tr.len();
    let t = tr.col("t");
    assert_eq!(n, 20_001);
    assert!((t[n - 1] - 0.2).abs() < 1e-9);
    let q: Vec<[f64; 3]> =
        (0..n).map(|k| [tr.col("crank.q[0]")[k], tr.col("crank.q[1]")[k], tr.col("crank.q[2]")[k]]).collect();
    let v: Vec<[f64; 3]> =
        (0..n).map(|k| [tr.col("crank.v[0]")[k], tr.col("crank.v[1]")[k], tr.col("crank.v[2]")[k]]).collect();
    let y: Vec<&[f64]> = (1..=4).map(|i| tr.col(&format!("corner{i}.ydot[0]"))).collect();
    let lam: Vec<&[f64]> = (1..=4).map(|i| tr.col(&format!("corner{i}.lambda[0]"))).collect();
    // tangential velocity and impulse (zero without friction)
    let zeros = vec![0.0; n];
    let tcol = |i: usize, c: &str| if friction { tr.col(&format!("corner{i}.{c}[1]")) } else { &zeros[..] };
    let ut: Vec<&[f64]> = (1..=4).map(|i| tcol(i, "ydot")).collect();
    let lt: Vec<&[f64]> = (1..=4).map(|i| tcol(i, "lambda")).collect();
    // the solver's tolerance: Lemke (exact pivoting) without friction, NSGS (1e-10) with it
    let w_tol = if friction { 1e-8 } else { 1e-9 };
    let energy: Vec<f64> = (0..n).map(|k| mech.kinetic(&q[k], &v[k]) + mech.potential(&q[k])).collect();

    // ---- complementarity, impact law, penetration ----
    let mut impacts = [0usize; 4];
    let mut min_gap = f64::INFINITY;
    for k in 0..n - 1 {
        for i in 0..4 {
            let (gap, pre, post, l) = (corners[i].gap(&q[k]), y[i][k], y[i][k + 1], lam[i][k + 1]);
            assert!(
                (y[i][k] - dot(&corners[i].gap_jacobian(&q[k]), &v[k])).abs() <= 1e-9 * (1.0 + y[i][k].abs()),
                "ẏ is not ∇g·v at t = {}",
                t[k]
            );
            assert!(l >= 0.0, "λ{} = {l} < 0 at t = {}", i + 1, t[k + 1]);
            let predicted = gap + GAMMA * H * pre; // Moreau–Jean activation
            let w = post + E * pre;
            if predicted > 1e-9 {
                assert_eq!(
                    (l, lt[i][k + 1]),
                    (0.0, 0.0),
                    "corner{} off the index set with λ = {l} at t = {}",
                    i + 1,
                    t[k + 1]
                );
            } else if predicted < -1e-9 {
                assert!(w >= -w_tol, "corner{}: w = ẏ⁺ + e ẏ⁻ = {w} < 0 at t = {}", i + 1, t[k + 1]);
            }
            if l > 0.0 {
                assert!(
                    w.abs() <= w_tol,
                    "corner{}: λ = {l} > 0 but w = {w} (impact law ẏ⁺ = −e ẏ⁻ violated) at t = {}",
                    i + 1,
                    t[k + 1]
                );
                if friction {
                    // Coulomb (et = 0): |λt| ≤ μ λn; inside the cone the corner sticks,
                    // on its boundary λt opposes the sliding velocity.
                    let (u, f) = (ut[i][k + 1], lt[i][k + 1]);
                    assert!(
                        f.abs() <= MU * l * (1.0 + 1e-9),
                        "corner{}: |λt| = {} > μ λn = {} at t = {}",
                        i + 1,
                        f.abs(),
                        MU * l,
                        t[k + 1]
                    );
                    if f.abs() < MU * l * (1.0 - 1e-6) {
                        assert!(
                            u.abs() <= 1e-8,
                            "corner{}: sticks (|λt| < μ λn) but u_t = {u} at t = {}",
                            i + 1,
                            t[k + 1]
                        );
                    } else {
                        assert!(
                            f * u <= 1e-12,
                            "corner{}: friction λt = {f} does not oppose u_t = {u} at t = {}",
                            i + 1,
                            t[k + 1]
                        );
                    }
                } else {
                    assert_eq!(lt[i][k + 1], 0.0);
                }
                if pre < -1e-3 {
                    impacts[i] += 1;
                }
            }
            min_gap = min_gap.min(corners[i].gap(&q[k + 1]));
        }
    }
    assert!(min_gap >= -0.02 * CLEARANCE, "penetration {min_gap} m (clearance {CLEARANCE} m)");
    // The upper corners (1, 2) hit the upper wall, the lower ones (3, 4) the lower wall, repeatedly.
    assert!(impacts.iter().all(|&c| c >= 5), "impacts per corner {impacts:?}");

    // ---- energy balance ----
    let mut dissipated = 0.0; // −Σ impulse work
    let (mut worst_smooth, mut worst_impact) = (0.0f64, 0.0f64);
    let mut first_contact = None;
    let mut friction_work = 0.0;
    for k in 0..n - 1 {
        let tangential: f64 = (0..4).map(|i| lt[i][k + 1] * (ut[i][k + 1] + ut[i][k]) / 2.0).sum();
        friction_work += tangential;
        let work: f64 = tangential + (0..4).map(|i| lam[i][k + 1] * (y[i][k + 1] + y[i][k]) / 2.0).sum::<f64>();
        assert!(work <= 1e-6, "contact impulses add {work} J at t = {}", t[k + 1]);
        dissipated -= work;
        assert!(dissipated >= -1e-6, "dissipated energy {dissipated} < 0 at t = {}", t[k + 1]);
        let de = energy[k + 1] - energy[k];
        let active: Vec<usize> = (0..4).filter(|&i| lam[i][k + 1] > 0.0).collect();
        if active.is_empty() {
            // smooth step: the θ-scheme's O(h²) local energy error (3.8e-5 J measured at h = 1e-5)
            worst_smooth = worst_smooth.max(de.abs());
            assert!(de.abs() <= 5e-5, "smooth step changes the energy by {de} J at t = {}", t[k + 1]);
            continue;
        }
        first_contact.get_or_insert(k);
        assert!(
            (de - work).abs() <= 0.03 * work.abs() + 5e-5,
            "ΔE = {de} J vs impulse work {work} J at t = {}",
            t[k + 1]
        );
        let pre: Vec<f64> = active.iter().map(|&i| y[i][k]).collect();
        if !friction && pre.iter().any(|&p| p < -0.1) {
            // rigid-body impact: ΔT = −½ (1 − e²) ẏ⁻ᵀ D⁻¹ ẏ⁻, D = W M⁻¹ Wᵀ. The step's λ also
            // holds the impulse h F_n of the smooth forces pressing the slider on the wall,
            // O(h F_n / (m ẏ⁻)) of the impact impulse: 1–2 % for the impacts above 0.1 m/s.
            let wm = DMatrix::from_fn(active.len(), 3, |r, c| corners[active[r]].gap_jacobian(&q[k + 1])[c]);
            let minv = DMatrix::from_fn(3, 3, |r, c| m3(mech.mass(&q[k + 1])).try_inverse().unwrap()[(r, c)]);
            let d = &wm * minv * wm.transpose();
            let yv = DVector::from_vec(pre);
            let loss = 0.5 * (1.0 - E * E) * yv.dot(&d.lu().solve(&yv).unwrap());
            worst_impact = worst_impact.max((work + loss).abs() / loss);
            assert!(
                (work + loss).abs() <= 0.03 * loss,
                "impact at t = {}: impulse work {work} J vs rigid-body loss −{loss} J",
                t[k + 1]
            );
        }
    }
    let drift = energy[n - 1] - energy[0] + dissipated;
    if friction {
        // the slider slides along the walls: Coulomb dissipation −μ Σ λn |ū_t| < 0
        let coulomb: f64 = (0..n - 1)
            .map(|k| (0..4).map(|i| -MU * lam[i][k + 1] * (ut[i][k + 1] + ut[i][k]).abs() / 2.0).sum::<f64>())
            .sum();
        eprintln!("friction work {friction_work:.6} J (Coulomb −μ Σ λn |ū_t| = {coulomb:.6} J)");
        assert!(friction_work < -0.01 * energy[0], "friction dissipates only {} J", -friction_work);
        assert!(
            (friction_work - coulomb).abs() <= 0.01 * coulomb.abs(),
            "friction work {friction_work} J vs Coulomb {coulomb} J"
        );
    }
    eprintln!(
        "E0 = {:.6} J, E(T) = {:.6} J, dissipated by the contacts {dissipated:.6} J, smooth-scheme drift {drift:+.6} J; impacts per corner {impacts:?}; \
         min gap {min_gap:.3e} m; worst smooth-step |ΔE| {worst_smooth:.2e} J",
        energy[0],
        energy[n - 1],
    );
    if !friction {
        eprintln!("worst deviation of an impact's loss from the rigid-body loss: {:.2} %", 100.0 * worst_impact);
    }
    assert!(dissipated > 0.02 * energy[0], "impacts dissipate only {dissipated} J");
    // Moreau–Jean is first order on a configuration-dependent inertia: the smooth flow's energy
    // error is O(h) over the run (+1.7 % of E0 at h = 1e-5, halving with h).
    assert!(drift.abs() <= 0.025 * energy[0], "smooth-scheme energy drift {drift} J");

    // ---- kinematics ----
    // Free motion before the first contact: Moreau–Jean (first order) vs RK4 with h/10
    // (measured |Δq| = 5e-5 rad, |Δv| = 0.044 rad/s on 150 rad/s after 269 steps).
    let k0 = first_contact.expect("the slider never touches the guide");
    let (qr, vr) = rk4(&mech, q[0], v[0], H / 10.0, 10 * k0);
    let dq = (0..3).map(|i| (qr[i] - q[k0][i]).abs()).fold(0.0, f64::max);
    let dv = (0..3).map(|i| (vr[i] - v[k0][i]).abs()).fold(0.0, f64::max);
    eprintln!("first contact at t = {:.5} s; free motion vs RK4: |Δq| = {dq:.2e} rad, |Δv| = {dv:.2e} rad/s", t[k0]);
    assert!(dq <= 2e-4 && dv <= 0.1, "free motion differs from RK4 by |Δq| = {dq}, |Δv| = {dv} at t = {}", t[k0]);
    // Crank revolution times vs the ideal mechanism at the revolution's mean energy.
    let turn = |j: f64| (0..n).find(|&k| q[k][0] >= 2.0 * std::f64::consts::PI * j).expect("the crank turns");
    for j in 0..2 {
        let (a, b) = (turn(j as f64), turn(j as f64 + 1.0));
        let mean_e = energy[a..b].iter().sum::<f64>() / (b - a) as f64;
        let (measured, ideal) = (t[b] - t[a], ideal_revolution_time(&mech, mean_e));
        eprintln!("revolution {j}: {measured:.5} s, ideal slider-crank at the mean energy {ideal:.5} s");
        assert!((measured - ideal).abs() <= 5e-3 * ideal, "revolution {j}: {measured} s vs ideal {ideal} s");
    }
    if !friction {
        compare_with_siconos(t, &q, &v);
    }
}

/// Siconos 4.4 (MoreauJeanOSI 0.5, Lemke LCP, Newton tolerance 1e-10) on the same model, every
/// 100th step: the two runs differ only by the Newton loops' stopping rules, so the trajectories
/// agree through all the impacts (measured |Δq| = 1.7e-5 rad, |Δv| = 5.0e-3 rad/s at most).
fn compare_with_siconos(t: &[f64], q: &[[f64; 3]], v: &[[f64; 3]]) {
    let path = workspace_root().join("frontend/tests/data/siconos_slider_crank.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut dq, mut dv, mut rows) = (0.0f64, 0.0f64, 0);
    for line in text.lines().skip(1) {
        let r = numbers(&line.replace(',', " "));
        let k = (r[0] / H).round() as usize;
        assert!((t[k] - r[0]).abs() < 1e-9, "row time {} vs {}", t[k], r[0]);
        for i in 0..3 {
            dq = dq.max((q[k][i] - r[1 + i]).abs());
            dv = dv.max((v[k][i] - r[4 + i]).abs());
        }
        rows += 1;
    }
    eprintln!("vs Siconos 4.4 ({rows} rows): max |Δq| = {dq:.2e} rad, max |Δv| = {dv:.2e} rad/s");
    assert_eq!(rows, 201);
    assert!(dq <= 1e-4 && dv <= 0.02, "Saltus and Siconos differ by |Δq| = {dq} rad, |Δv| = {dv} rad/s");
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
