//! Gallery sample `hinge_stop`: an arm hinged to the world (PivotJointR) released horizontal
//! falls onto a stop (JointStopR, e = 0.5) with Coulomb friction in the hinge (JointFrictionR,
//! T = 0.5 N m). Run through the CLI; checked against mechanics, with `s` the hinge angle below
//! the horizontal, `I_p = I_c + m l²`, `τ_g = m g l cos s`:
//! * the first fall against the work balance `½ I_p ṡ² = m g l sin s − T s` (O(h)), and the
//!   time of the first impact against its quadrature `t₁ = ∫ ds / ṡ(s)`;
//! * every impact obeys Newton's law `ṡ⁺ = −e ṡ⁻` (to the velocity projection, 1e-6 relative);
//! * the friction impulse is at most `h T` and equals `−h T sign(ṡ)` while the arm slides;
//! * the arm never passes the stop (projection tolerance), and comes to rest on it, where the
//!   stop and the friction together balance gravity: `λ_stop + λ_friction = −h τ_g`.

mod sample_util;
use sample_util::{run as run_sample, sample, validate_xml};

const M: f64 = 1.0;
const L: f64 = 0.5;
const IC: f64 = 0.0835416666667;
const G: f64 = 9.81;
const T: f64 = 0.5;
const E: f64 = 0.5;
const H: f64 = 1e-3;

struct Run {
    t: Vec<f64>,
    s: Vec<f64>,
    w: Vec<f64>,
    stop: Vec<f64>,
    fric: Vec<f64>,
}

fn run() -> Run {
    let model = sample("hinge_stop/hinge_stop.xml");
    validate_xml(&model);
    let tr = run_sample(&model, &["--strict"]);
    let get = |c: &str| tr.col(c).to_vec();
    Run {
        t: get("t"),
        s: get("hinge.stop[0].s"),
        w: get("arm.wy"),
        stop: get("hinge.stop[0].lambda"),
        fric: get("hinge.friction[0].lambda"),
    }
}

#[test]
fn hinge_stop_sample_against_mechanics() {
    let r = run();
    let n = r.t.len();
    assert_eq!(n, 2001);
    let ip = IC + M * L * L;
    let mgl = M * G * L;
    // Never past the stop.
    let top = r.s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    assert!(top <= 1.0 + 1e-12, "passed the stop: s = {top}");
    // The first fall: work balance (O(h)), then the impact time against the quadrature.
    let first = (1..n).find(|&k| r.stop[k] != 0.0).expect("the arm reaches the stop");
    let mut worst = 0.0f64;
    for k in 1..first {
        let balance = mgl * r.s[k].sin() - T * r.s[k];
        worst = worst.max((0.5 * ip * r.w[k] * r.w[k] - balance).abs());
    }
    assert!(worst < 2.0 * H * mgl, "work balance off by {worst:e} before the impact");
    let steps = 100_000;
    let mut t1 = 0.0;
    for i in 0..steps {
        // s = φ², ds = 2φ dφ removes the 1/√s singularity at the start
        let phi = (i as f64 + 0.5) / steps as f64;
        let s = phi * phi;
        let w = (2.0 * (mgl * s.sin() - T * s) / ip).sqrt();
        t1 += 2.0 * phi / w / steps as f64;
    }
    assert!((r.t[first] - t1).abs() <= 2.0 * H, "first impact at {}, quadrature {t1}", r.t[first]);
    // Newton's law at every impact (the stop enters and pushes): ṡ⁺ = −e ṡ⁻.
    let mut impacts = 0;
    for k in 1..n {
        if r.stop[k] < 0.0 && r.stop[k - 1] == 0.0 && r.w[k - 1] > 1e-3 {
            // exact for the solved velocity; the velocity projection onto the hinge after the
            // step (J(q_{k+1}) v = 0 instead of the mid-step J) moves it by ~1e-7 relative
            let err = (r.w[k] + E * r.w[k - 1]).abs();
            assert!(err < 1e-6 * r.w[k - 1], "t = {}: {} after {}", r.t[k], r.w[k], r.w[k - 1]);
            impacts += 1;
        }
    }
    assert!(impacts >= 5, "{impacts} impacts");
    // Friction: bounded by h T; at the bound against the motion while sliding freely.
    for k in 1..n {
        assert!(r.fric[k].abs() <= H * T * (1.0 + 1e-12), "t = {}: friction {}", r.t[k], r.fric[k]);
        if r.stop[k] == 0.0 && r.w[k - 1].abs() > 1e-6 && r.w[k].abs() > 1e-6 && r.w[k - 1] * r.w[k] > 0.0 {
            assert!((r.fric[k] + H * T * r.w[k].signum()).abs() < 1e-12 * H * T, "t = {}", r.t[k]);
        }
    }
    // At rest on the stop at the end: gravity balanced by the stop and the friction together.
    let rest = (0..n).rev().take_while(|&k| r.w[k].abs() < 1e-10).last().expect("at rest at the end");
    assert!(r.t[rest] < 1.5, "settles at {}", r.t[rest]);
    for k in rest + 1..n {
        assert!(r.s[k] > 1.0 - 1e-5, "rests at s = {}", r.s[k]);
        let tau = mgl * r.s[k].cos();
        let total = r.stop[k] + r.fric[k];
        assert!((total + H * tau).abs() < 1e-9 * H * tau, "t = {}: impulses {total} vs −h τ_g = {}", r.t[k], -H * tau);
    }
}
