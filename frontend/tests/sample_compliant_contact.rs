//! Gallery sample `compliant_contact`: a ball (m = 1, r = 0.1) dropped from z = 0.2 on a floor of
//! compliance c = 1e-4 (`LagrangianCompliantLinearTIR`, `NewtonImpactNSL` e = 0, Moreau–Jean θ = 1).
//! In contact the floor is a spring of stiffness 1/c: ω = 1/√(m c) = 100 rad/s.
//! Checks against the closed forms: the contact duration (π + 2 asin(m g c / A))/ω and the deepest
//! penetration m g c + A of a drop (A = √((m g c)² + (v/ω)²), v the impact speed); from rest on the
//! floor, the oscillation period 2π√(m c) (O(h)) and the rest deflection m g c (1e-9); and c = 0
//! gives the bits of the rigid `LagrangianLinearTIR` contact.
mod sample_util;
use saltus_runtime::xml::{convert, load_str};
use sample_util::*;

const M: f64 = 1.0;
const C: f64 = 1e-4;
const G: f64 = 9.81;
const R: f64 = 0.1;
const Z0: f64 = 0.2;
const H: f64 = 1e-4;

fn omega() -> f64 {
    1.0 / (M * C).sqrt()
}

fn text() -> String {
    std::fs::read_to_string(sample("compliant_contact/compliant_contact.xml")).unwrap()
}

/// One row per step (initial state first), full precision: (t, z, v, gap, impulse).
fn simulate(text: &str) -> Vec<[f64; 5]> {
    let file = sample("compliant_contact/edited.xml");
    let loaded = load_str(text, &file).unwrap();
    let mut b = convert::build(&loaded, vec![]).unwrap();
    let row = |n: &saltus_kernel::Nsds| {
        let (ds, it) = (&n.systems()[0], &n.interactions()[0]);
        [n.t(), ds.state()[0], ds.velocity().unwrap()[0], it.y(0).unwrap()[0], it.lambda(1).unwrap()[0]]
    };
    let mut rows = vec![row(&b.nsds)];
    for _ in 0..b.steps {
        b.sim.advance(&mut b.nsds).unwrap();
        rows.push(row(&b.nsds));
    }
    rows
}

#[test]
fn dropped_ball_contact_phases() {
    let model = sample("compliant_contact/compliant_contact.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let (t, gap, lam, v) = (tr.col("t"), tr.col("floor.y[0]"), tr.col("floor.lambda[0]"), tr.col("ball.v[0]"));
    // contact phases: runs of steps with a positive impulse
    let mut phases = Vec::new();
    let mut start = None;
    for (k, l) in lam.iter().enumerate() {
        match (*l > 0.0, start) {
            (true, None) => start = Some(k),
            (false, Some(s)) => {
                phases.push((s, k));
                start = None
            }
            _ => {}
        }
    }
    assert!(phases.len() >= 3, "three bounces expected, got {phases:?}");
    let (s, e) = phases[0];
    let w = omega();
    let v_impact = (2.0 * G * (Z0 - R)).sqrt();
    let a = ((M * G * C).powi(2) + (v_impact / w).powi(2)).sqrt();
    let duration = (std::f64::consts::PI + 2.0 * (M * G * C / a).asin()) / w;
    let measured = t[e] - t[s];
    // the contact starts and ends within a step of the exact instants
    assert!((measured - duration).abs() <= 2.0 * H, "contact lasts {measured}, closed form {duration}");
    let deepest = gap[s..e].iter().copied().fold(f64::INFINITY, f64::min);
    // backward-Euler damping (ωh)²/2 per step over the ~160 steps to the deepest point: 0.8 %
    let expected = -(M * G * C + a);
    assert!((deepest - expected).abs() <= 0.02 * expected.abs(), "deepest gap {deepest}, closed form {expected}");
    // the spring gives the speed back (e = 0 acts on the compliant output, not on the ball)
    let rebound = v[e];
    assert!(rebound > 0.95 * v_impact && rebound < v_impact, "rebound {rebound} for an impact at {v_impact}");
    eprintln!("contact {measured} s (closed form {duration}), deepest {deepest} ({expected}), rebound {rebound}");
}

/// Released on the floor at rest, h = 5e-3 (ωh = 0.5, strong numerical damping): the ball rests
/// at the gap −m g c with the impulse m g h, to 1e-9.
#[test]
fn rest_deflection_is_m_g_c() {
    let h = 5e-3;
    let rows = simulate(&edit(
        &text(),
        &[
            ("<q0>0.2</q0>", "<q0>0.1</q0>"),
            ("<Time t0=\"0\" T=\"1\"/>", "<Time t0=\"0\" T=\"3\"/>"),
            ("<TimeDiscretisation h=\"1e-4\"/>", "<TimeDiscretisation h=\"5e-3\"/>"),
        ],
    ));
    let [_, _, v, gap, p] = rows[rows.len() - 1];
    let deflection = M * G * C;
    assert!((gap + deflection).abs() <= 1e-9 * deflection, "gap {gap:e}, closed form {:e}", -deflection);
    assert!((p / h - M * G).abs() <= 1e-9 * M * G, "force {}", p / h);
    assert!(v.abs() <= 1e-9 * deflection * omega(), "v {v:e}");
}

/// Released on the floor at rest: λ(t) = m g (1 − cos ωt) (slowly damped); the period between
/// upward crossings of λ = m g is 2π√(m c) to O(h); measured: O(h²), backward Euler's relative
/// phase error (ωh)²/3 (8.4e-6 s at h = 2e-4, 2.1e-6 s at h = 1e-4).
#[test]
fn contact_oscillation_period() {
    let period = 2.0 * std::f64::consts::PI * (M * C).sqrt();
    let mut errors = Vec::new();
    for h in [2e-4, 1e-4] {
        let rows = simulate(&edit(
            &text(),
            &[
                ("<q0>0.2</q0>", "<q0>0.1</q0>"),
                ("<Time t0=\"0\" T=\"1\"/>", "<Time t0=\"0\" T=\"0.3\"/>"),
                ("<TimeDiscretisation h=\"1e-4\"/>", &format!("<TimeDiscretisation h=\"{h}\"/>")),
            ],
        ));
        let f = |r: &[f64; 5]| r[4] / h - M * G;
        let mut ups = Vec::new();
        for k in 1..rows.len() {
            let (a, b) = (f(&rows[k - 1]), f(&rows[k]));
            assert!(rows[k][4] > 0.0, "the ball must stay in contact (t = {})", rows[k][0]);
            if a < 0.0 && b >= 0.0 {
                ups.push(rows[k - 1][0] + h * a / (a - b));
            }
        }
        assert!(ups.len() >= 4, "{} upward crossings", ups.len());
        let measured = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64;
        let err = (measured - period).abs();
        let phase = (omega() * h).powi(2) / 3.0 * period;
        assert!(err <= h && err <= 1.5 * phase, "h = {h}: period {measured}, closed form {period}");
        errors.push(err);
    }
    eprintln!("period errors at h = 2e-4, 1e-4: {errors:?} (closed form {period})");
    assert!(errors[1] < errors[0], "the period error must decrease with h: {errors:?}");
}

/// c = 0: the same bits as the rigid contact `LagrangianLinearTIR` (H = C, b = e) at every step.
#[test]
fn zero_compliance_is_the_rigid_contact() {
    let t = text();
    let soft = edit(&t, &[("<D rows=\"1\" cols=\"1\">1e-4</D>", "<D rows=\"1\" cols=\"1\">0</D>")]);
    let rigid = edit(
        &t,
        &[
            ("<LagrangianCompliantLinearTIR>", "<LagrangianLinearTIR>"),
            ("<C rows=\"1\" cols=\"1\">1</C>", "<H rows=\"1\" cols=\"1\">1</H>"),
            ("<D rows=\"1\" cols=\"1\">1e-4</D>", ""),
            ("<e>-0.1</e>", "<b>-0.1</b>"),
            ("</LagrangianCompliantLinearTIR>", "</LagrangianLinearTIR>"),
        ],
    );
    let (a, b) = (simulate(&soft), simulate(&rigid));
    assert_eq!(a.len(), b.len());
    let mut contacts = 0;
    for (ra, rb) in a.iter().zip(&b) {
        contacts += usize::from(ra[4] > 0.0);
        for (x, y) in ra.iter().zip(rb) {
            assert_eq!(x.to_bits(), y.to_bits(), "t = {}: {ra:?} vs {rb:?}", ra[0]);
        }
    }
    assert!(contacts > 1000, "the ball must rest on the floor ({contacts} contact steps)");
}

/// A compliance that is not positive semi-definite is a located error naming `D`.
#[test]
fn negative_compliance_is_a_located_error() {
    let bad = edit(&text(), &[("<D rows=\"1\" cols=\"1\">1e-4</D>", "<D rows=\"1\" cols=\"1\">-1e-4</D>")]);
    let file = sample("compliant_contact/edited.xml");
    let loaded = load_str(&bad, &file).unwrap();
    let msg = match convert::build(&loaded, vec![]) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a negative compliance must be refused"),
    };
    assert!(msg.contains("edited.xml:22:11") && msg.contains("positive semi-definite"), "{msg}");
    assert!(msg.contains("LagrangianCompliantLinearTIR/D"), "{msg}");
}
