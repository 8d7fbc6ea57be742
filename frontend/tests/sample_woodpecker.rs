//! Gallery sample `woodpecker` (Glocker 1995; Leine, Glocker and van Campen 2003; the Siconos
//! example "Woodpecker"): q = (y, φ_M, φ_S), LagrangianLinearTIDS, three 2D Newton impact–friction
//! contacts (beak–pole e = 0.5, the two sleeve edges e = 0, μ = 0.3), Moreau–Jean θ = 1/2 and a 2D
//! FrictionContact problem, h = 2e-5, T = 0.5. Checks, from the CLI's CSV at every step:
//! the Siconos 4.4 trajectory (`siconos_reference.csv`, every 100th step); the Newton impact law
//! u_N⁺ = −e u_N⁻ at every contact carrying an impulse; λ_N ≥ 0, the gap closed where λ_N > 0 and
//! bounded penetration; the Coulomb cone |λ_T| ≤ μ λ_N with sticking (u_T = 0) inside it and
//! sliding opposite to λ_T on its boundary; the discrete energy balance of the θ = 1/2 scheme
//! (E_{k+1} − E_k = Σ λ·(u_k + u_{k+1})/2, exact) with the impact work ≤ 0, the friction work at the
//! end velocity ≤ 0 and the dissipated energy E_0 − E_k ≥ 0; and the motion: the beak hits the pole
//! once per cycle, the sleeve jams (v_y = 0) and descends at every cycle.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

const H: f64 = 2e-5;
const MU: f64 = 0.3;
// sleeve (M) and bird (S)
const M_M: f64 = 3e-4;
const J_M: f64 = 5e-9;
const M_S: f64 = 4.5e-3;
const J_S: f64 = 7e-7;
const L_M: f64 = 0.01;
const L_G: f64 = 0.015;
const L_S: f64 = 0.0201;
const H_S: f64 = 0.02;
const H_M: f64 = 0.0058;
const R_M: f64 = 0.0031;
const R_O: f64 = 0.0025;
const C_PHI: f64 = 0.0056;
const G: f64 = 9.81;

struct Contact {
    name: &'static str,
    /// normal row, tangential row of H; gap offset b_N; restitution
    hn: [f64; 3],
    ht: [f64; 3],
    b: f64,
    e: f64,
}

fn contacts() -> [Contact; 3] {
    [
        Contact { name: "beak", hn: [0.0, 0.0, -H_S], ht: [1.0, L_M, L_G - L_S], b: L_M + L_G - L_S - R_O, e: 0.5 },
        Contact { name: "upper", hn: [0.0, H_M, 0.0], ht: [1.0, R_M, 0.0], b: R_M - R_O, e: 0.0 },
        Contact { name: "lower", hn: [0.0, -H_M, 0.0], ht: [1.0, R_M, 0.0], b: R_M - R_O, e: 0.0 },
    ]
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[test]
fn woodpecker_physics() {
    let model = sample("woodpecker/woodpecker.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let n = tr.len();
    let t = tr.col("t");
    assert_eq!(n, 25001);
    assert!((t[n - 1] - 0.5).abs() < 1e-9);
    let q: Vec<[f64; 3]> =
        (0..n).map(|k| [tr.col("toy.q[0]")[k], tr.col("toy.q[1]")[k], tr.col("toy.q[2]")[k]]).collect();
    let v: Vec<[f64; 3]> =
        (0..n).map(|k| [tr.col("toy.v[0]")[k], tr.col("toy.v[1]")[k], tr.col("toy.v[2]")[k]]).collect();

    // --- Siconos 4.4 reference (same model and solver tolerance), every 100th step
    let text = std::fs::read_to_string(sample("woodpecker/siconos_reference.csv")).unwrap();
    let (mut dq, mut dv) = (0.0f64, 0.0f64);
    for (i, line) in text.lines().skip(1).enumerate() {
        let r: Vec<f64> = line.split(',').map(|s| s.parse().unwrap()).collect();
        let k = i * 100;
        assert!((r[0] - t[k]).abs() < 1e-12);
        for j in 0..3 {
            dq = dq.max((r[1 + j] - q[k][j]).abs());
            dv = dv.max((r[4 + j] - v[k][j]).abs());
        }
    }
    eprintln!("max difference to Siconos 4.4: q {dq:e}, v {dv:e}");
    assert!(dq <= 1e-10 && dv <= 1e-8, "q {dq:e}, v {dv:e}");

    // --- contact laws, per contact and step
    let mut impacts = vec![0usize; 3];
    let mut sticking = 0usize;
    let mut max_pen: f64 = 0.0;
    for (ci, c) in contacts().iter().enumerate() {
        let (un, ut) = (tr.col(&format!("{}.ydot[0]", c.name)), tr.col(&format!("{}.ydot[1]", c.name)));
        let (ln, lt) = (tr.col(&format!("{}.lambda[0]", c.name)), tr.col(&format!("{}.lambda[1]", c.name)));
        for k in 1..n {
            let at = |what: &str| format!("{what} at contact {} t = {}", c.name, t[k]);
            // the outputs are H v
            assert!(
                (un[k] - dot(&c.hn, &v[k])).abs() <= 1e-12 && (ut[k] - dot(&c.ht, &v[k])).abs() <= 1e-12,
                "{}",
                at("y != H v")
            );
            let gap = dot(&c.hn, &q[k]) + c.b;
            max_pen = max_pen.max(-gap);
            assert!(ln[k] >= 0.0, "{}", at("λ_N < 0"));
            assert!(
                lt[k].abs() <= MU * ln[k] * (1.0 + 1e-9) + 1e-18,
                "{}: |λ_T| = {} > μ λ_N = {}",
                at("Coulomb cone"),
                lt[k].abs(),
                MU * ln[k]
            );
            if ln[k] > 1e-14 {
                // Newton impact law at the contacts in the problem that carry an impulse
                assert!(
                    (un[k] + c.e * un[k - 1]).abs() <= 1e-10,
                    "{}: u+ = {}, u- = {}",
                    at("impact law"),
                    un[k],
                    un[k - 1]
                );
                assert!(gap.abs() <= 2e-5, "{}: gap {gap}", at("λ_N > 0 on an open gap"));
                if ln[k - 1] == 0.0 && un[k - 1] < -1e-3 {
                    impacts[ci] += 1;
                }
                if lt[k].abs() < MU * ln[k] * (1.0 - 1e-6) {
                    // inside the cone: sticking
                    assert!(ut[k].abs() <= 1e-9, "{}: u_T = {}", at("sticking with slip"), ut[k]);
                    sticking += 1;
                } else if ut[k].abs() > 1e-9 {
                    // on the boundary: the friction impulse opposes the sliding velocity
                    assert!(lt[k] * ut[k] < 0.0, "{}", at("friction does not oppose sliding"));
                }
            }
        }
    }
    eprintln!(
        "impacts (beak, upper, lower) {impacts:?}, sticking contact-steps {sticking}, max penetration {max_pen:e}"
    );
    assert!(max_pen <= 2e-5, "penetration {max_pen:e}");
    assert!(impacts[0] >= 3 && impacts[1] + impacts[2] >= 3, "impacts {impacts:?}");
    assert!(sticking > 1000);

    // --- energy: E = ½ vᵀMv + ½ qᵀKq − Fᵀq (gravity's potential); the θ = 1/2 scheme gives
    // E_{k+1} − E_k = Σ_contacts λ·(u_k + u_{k+1})/2 exactly for this linear system.
    let mass = [
        [M_S + M_M, M_S * L_M, M_S * L_G],
        [M_S * L_M, J_M + M_S * L_M * L_M, M_S * L_M * L_G],
        [M_S * L_G, M_S * L_M * L_G, J_S + M_S * L_G * L_G],
    ];
    let f = [-(M_S + M_M) * G, -M_S * L_M * G, -M_S * L_G * G];
    let energy = |k: usize| {
        let mv: Vec<f64> = (0..3).map(|i| dot(&mass[i], &v[k])).collect();
        let kin = 0.5 * (0..3).map(|i| v[k][i] * mv[i]).sum::<f64>();
        let spring = 0.5 * C_PHI * (q[k][1] - q[k][2]).powi(2);
        kin + spring - dot(&f, &q[k])
    };
    let e0 = energy(0);
    let scale = (0..n).map(|k| energy(k).abs()).fold(0.0, f64::max);
    let (mut max_balance, mut max_rise, mut max_friction_mid): (f64, f64, f64) = (0.0, 0.0, 0.0);
    for k in 1..n {
        let (mut work, mut friction_mid) = (0.0, 0.0);
        for c in contacts() {
            let (un, ut) = (tr.col(&format!("{}.ydot[0]", c.name)), tr.col(&format!("{}.ydot[1]", c.name)));
            let (ln, lt) = (tr.col(&format!("{}.lambda[0]", c.name)), tr.col(&format!("{}.lambda[1]", c.name)));
            let normal = ln[k] * (un[k - 1] + un[k]) / 2.0;
            let tangential = lt[k] * (ut[k - 1] + ut[k]) / 2.0;
            // impacts dissipate: λ_N u_N⁻ (1 − e)/2 ≤ 0; Coulomb dissipates at the end velocity
            assert!(normal <= 1e-18, "impact work {normal} > 0 at {} t = {}", c.name, t[k]);
            assert!(lt[k] * ut[k] <= 1e-18, "friction power λ_T u_T⁺ > 0 at {} t = {}", c.name, t[k]);
            work += normal + tangential;
            friction_mid += tangential;
        }
        let de = energy(k) - energy(k - 1);
        max_balance = max_balance.max((de - work).abs());
        max_rise = max_rise.max(de);
        max_friction_mid = max_friction_mid.max(friction_mid);
        // the dissipated energy is never negative
        assert!(e0 - energy(k) >= -1e-12 * scale, "E_k = {} > E_0 = {e0} at t = {}", energy(k), t[k]);
    }
    eprintln!(
        "energy: E0 {e0:e}, E_end {:e}, balance error {max_balance:e}, max one-step rise {max_rise:e} (max midpoint friction work in a step {max_friction_mid:e})",
        energy(n - 1)
    );
    assert!(max_balance <= 1e-12 * scale, "energy balance error {max_balance:e}");
    // One-step rises come only from the midpoint friction work at slip reversals (θ = 1/2 is not
    // dissipative there, Acary 2016); they stay below 1e-9 of the energy scale.
    assert!(max_rise <= 1e-9 * scale, "energy rises by {max_rise:e}");
    assert!(energy(n - 1) < e0);

    // --- the motion: one beak hit per cycle, the sleeve lower at every hit, the bird oscillating
    let (beak_ln, vy) = (tr.col("beak.lambda[0]"), tr.col("toy.v[0]"));
    let hits: Vec<usize> = (1..n).filter(|&k| beak_ln[k] > 0.0 && beak_ln[k - 1] == 0.0).collect();
    let hit_t: Vec<f64> = hits.iter().map(|&k| t[k]).collect();
    eprintln!("beak hits at {hit_t:?}; y at the hits {:?}", hits.iter().map(|&k| q[k][0]).collect::<Vec<_>>());
    assert!(hits.len() >= 4, "beak hits {hit_t:?}");
    for w in hits.windows(2) {
        let period = t[w[1]] - t[w[0]];
        assert!((0.1..0.25).contains(&period), "cycle {period} s");
        assert!(q[w[1]][0] < q[w[0]][0] - 1e-3, "the sleeve does not descend over the cycle {:?}", (t[w[0]], t[w[1]]));
        // within each cycle the sleeve jams (v_y = 0 over many steps) and the bird swings back
        let jammed = (w[0]..w[1]).filter(|&k| vy[k] == 0.0).count();
        eprintln!("cycle {:.4} s: jammed {:.4} s", period, jammed as f64 * H);
        assert!(jammed as f64 * H > 0.005, "jammed {} s", jammed as f64 * H);
        let swing = (w[0]..w[1]).map(|k| q[k][2]).fold(f64::INFINITY, f64::min);
        assert!(swing < -0.2, "bird swing back to {swing}");
    }
    let descent = (q[hits[hits.len() - 1]][0] - q[hits[0]][0]) / (t[hits[hits.len() - 1]] - t[hits[0]]);
    eprintln!("mean descent speed {descent:.4} m/s, run time {:.2?}", tr.elapsed);
    assert!(descent < -0.05);
}
