//! Gallery sample `cartesian_pendulum`: a point mass (m = 1) at q = (x, y) on a rigid rod of length
//! l = 1, the bilateral constraint h(q) = (x² + y² − l²)/(2l) = 0 from the plugin
//! `plugins/pendulum`, Moreau–Jean θ = 0.5 with an Equality problem, h = 1e-3, released
//! horizontally at rest. Checks: the constraint at velocity level (∇h·v = 0) and position level
//! (drift O(h²)), the exact large-amplitude period 4 √(l/g) K(sin 45°), the rod impulse
//! λ = −h m (|v|²/l − g y/l) (tension = centripetal + radial weight), and the energy
//! non-increasing (the scheme's numerical dissipation) and within 5 % of m g l after 2 periods.
// Rows are indexed: several columns are read at the same row k (and k − 1).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

const M: f64 = 1.0;
const G: f64 = 9.81;
const L: f64 = 1.0;
const H: f64 = 1e-3;

/// The quarter period `√(l/g) K(sin θ/2)` of the pendulum swinging at amplitude `θ`, with
/// `K(k) = π / (2 agm(1, √(1 − k²)))` by the arithmetic–geometric mean.
fn quarter_period(theta: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (0.5 * theta).cos());
    for _ in 0..30 {
        (a, b) = ((a + b) / 2.0, (a * b).sqrt());
    }
    (L / G).sqrt() * std::f64::consts::PI / (2.0 * a)
}

#[test]
fn cartesian_pendulum_physics() {
    let dir = build_plugin("saltus-plugin-pendulum");
    let model = sample("cartesian_pendulum/cartesian_pendulum.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let n = tr.len();
    let (t, x, y, vx, vy) =
        (tr.col("t"), tr.col("bob.q[0]"), tr.col("bob.q[1]"), tr.col("bob.v[0]"), tr.col("bob.v[1]"));
    let (yr, lam) = (tr.col("rod.ydot[0]"), tr.col("rod.lambda[0]"));
    assert!((t[n - 1] - 5.0).abs() < 1e-9);

    let period = 4.0 * quarter_period(std::f64::consts::FRAC_PI_2);

    let energy = |k: usize| 0.5 * M * (vx[k] * vx[k] + vy[k] * vy[k]) + M * G * y[k];
    let mut crossings = Vec::new();
    for k in 1..n {
        // constraint: velocity level exactly, position level up to a small drift
        assert!(yr[k].abs() <= 1e-10, "grad h . v = {} at t = {}", yr[k], t[k]);
        assert!(((x[k] * x[k] + y[k] * y[k]).sqrt() - L).abs() <= 1e-5, "rod length drifts at t = {}", t[k]);
        // rod impulse = −h × tension
        let tension = M * (vx[k] * vx[k] + vy[k] * vy[k]) / L - M * G * y[k] / L;
        assert!(
            (lam[k] + H * tension).abs() <= 1e-2 * 3.0 * M * G * H,
            "lambda = {} vs -h T = {} at t = {}",
            lam[k],
            -H * tension,
            t[k]
        );
        // energy: never increases, bounded numerical dissipation
        assert!(energy(k) <= energy(k - 1) + 1e-12, "energy grows at t = {}", t[k]);
        if x[k - 1] > 0.0 && x[k] <= 0.0 {
            crossings.push(t[k]);
        }
    }
    assert!(
        energy(n - 1) >= energy(0) - 0.05 * M * G * L,
        "energy loss {} over two periods",
        energy(0) - energy(n - 1)
    );
    // x crosses 0 leftwards at T/4 and 5T/4
    assert_eq!(crossings.len(), 2, "crossings {crossings:?}");
    assert!(
        (crossings[0] - period / 4.0).abs() <= 0.01 * period,
        "first crossing {} vs T/4 = {}",
        crossings[0],
        period / 4.0
    );
    assert!(
        (crossings[1] - crossings[0] - period).abs() <= 0.01 * period,
        "measured period {} vs {period}",
        crossings[1] - crossings[0]
    );
}

/// `cartesian_pendulum_projection.xml` (the same model with `<Projection tol="1e-10">`) against
/// `cartesian_pendulum.xml`. Without projection the θ = 1/2 scheme with the velocity-level
/// constraint drifts by exactly h(q_k) = h²/(8l) (|v_0|² − |v_k|²) (h(q) quadratic), up to
/// 2.4e-6 here; with projection |h(q)| ≤ tol at every row and ∇h·v = 0 still holds.
#[test]
fn cartesian_pendulum_projection_removes_the_drift() {
    const TOL: f64 = 1e-10;
    let dir = build_plugin("saltus-plugin-pendulum");
    let plugin_dir = dir.to_str().expect("utf-8 target dir");
    let with_model = sample("cartesian_pendulum/cartesian_pendulum_projection.xml");
    validate_xml(&with_model);
    let plain = run(&sample("cartesian_pendulum/cartesian_pendulum.xml"), &["--plugin-dir", plugin_dir]);
    let proj = run(&with_model, &["--plugin-dir", plugin_dir]);
    assert_eq!(plain.len(), proj.len());
    let h_of = |tr: &Trajectory, k: usize| {
        let (x, y) = (tr.col("bob.q[0]")[k], tr.col("bob.q[1]")[k]);
        (x * x + y * y - L * L) / (2.0 * L)
    };
    let v2 = |tr: &Trajectory, k: usize| tr.col("bob.v[0]")[k].powi(2) + tr.col("bob.v[1]")[k].powi(2);
    let t = proj.col("t");
    let (mut drift_plain, mut drift_proj): (f64, f64) = (0.0, 0.0);
    for k in 0..proj.len() {
        let (hp, hq) = (h_of(&plain, k), h_of(&proj, k));
        // the drift law of the unprojected scheme
        let law = H * H / (8.0 * L) * (v2(&plain, 0) - v2(&plain, k));
        assert!((hp - law).abs() <= 1e-11, "drift {hp:e} vs law {law:e} at t = {}", t[k]);
        assert!(hq.abs() <= TOL, "|h(q)| = {hq:e} > tol with projection at t = {}", t[k]);
        assert!(
            proj.col("rod.ydot[0]")[k].abs() <= 1e-12,
            "grad h . v = {} at t = {}",
            proj.col("rod.ydot[0]")[k],
            t[k]
        );
        drift_plain = drift_plain.max(hp.abs());
        drift_proj = drift_proj.max(hq.abs());
    }
    eprintln!(
        "max |h(q)|: without projection {drift_plain:e}, with {drift_proj:e}; run times {:.2?} / {:.2?}",
        plain.elapsed, proj.elapsed
    );
    assert!(drift_plain > 100.0 * drift_proj, "{drift_plain:e} vs {drift_proj:e}");
    assert!(drift_plain > 1e4 * TOL);
    // the projected motion is the same pendulum: same period (x crosses 0 within a step or two)
    let cross = |tr: &Trajectory| {
        (1..tr.len()).find(|&k| tr.col("bob.q[0]")[k - 1] > 0.0 && tr.col("bob.q[0]")[k] <= 0.0).expect("x crosses 0")
    };
    assert!(cross(&plain).abs_diff(cross(&proj)) <= 2);
}

/// `cartesian_pendulum_ed.xml`: the rod held at acceleration level by the event-driven
/// integrator, q and v projected at every TD event (10 ms): the rod length to 1e-12 and
/// ∇h·v = 0 at every row, the energy conserved (no numerical dissipation, unlike θ = ½ time
/// stepping: measured 6.9e-9), the period from two crossings of x = 0, and the rod force
/// λ = −m (|v|²/l − g y/l) (a force, not an impulse, in event-driven runs).
#[test]
fn cartesian_pendulum_event_driven() {
    let dir = build_plugin("saltus-plugin-pendulum");
    let model = sample("cartesian_pendulum/cartesian_pendulum_ed.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let n = tr.len();
    assert_eq!(n, 500, "one row per TD event, no nonsmooth event");
    let (t, x, y, vx, vy, lam) = (
        tr.col("t"),
        tr.col("bob.q[0]"),
        tr.col("bob.q[1]"),
        tr.col("bob.v[0]"),
        tr.col("bob.v[1]"),
        tr.col("rod.lambda[0]"),
    );
    let period = 4.0 * quarter_period(std::f64::consts::FRAC_PI_2);
    let mut crossings = Vec::new();
    for k in 0..n {
        assert!(((x[k] * x[k] + y[k] * y[k]).sqrt() - L).abs() <= 1e-12, "rod length at t = {}", t[k]);
        assert!((x[k] * vx[k] + y[k] * vy[k]).abs() / L <= 1e-12, "grad h . v at t = {}", t[k]);
        let v2 = vx[k] * vx[k] + vy[k] * vy[k];
        assert!((0.5 * M * v2 + M * G * y[k]).abs() <= 2e-9 * M * G * L, "energy at t = {}", t[k]);
        let tension = M * v2 / L - M * G * y[k] / L;
        assert!((lam[k] + tension).abs() <= 1e-8 * 3.0 * M * G, "λ = {} vs −T = {} at t = {}", lam[k], -tension, t[k]);
        if k > 0 && x[k - 1] > 0.0 && x[k] <= 0.0 {
            crossings.push(t[k - 1] + (t[k] - t[k - 1]) * x[k - 1] / (x[k - 1] - x[k]));
        }
    }
    assert_eq!(crossings.len(), 2, "{crossings:?}");
    assert!((crossings[0] - period / 4.0).abs() <= 1e-4, "{} vs {}", crossings[0], period / 4.0);
    assert!((crossings[1] - crossings[0] - period).abs() <= 1e-4, "{} vs {period}", crossings[1] - crossings[0]);
}

/// `cartesian_pendulum_wall_ed.xml`: the event-driven pendulum against a wall `x ≥ 0` under the
/// pivot (e = 0.8), a bilateral constraint and a unilateral contact in one model. Closed forms: the
/// first impact after `(l/g)^½ K(sin 45°)` at `(2 g l)^½`; each impact returns `e` times the
/// arrival speed, horizontally (the rod's equation is part of the impact problem); the bob then
/// swings to `cos θ = 1 − e^{2k}` and is back at the wall after `2 (l/g)^½ K(sin(θ/2))`. Rod
/// length and `∇h·v` to 1e-12 at every row, the energy constant between impacts.
#[test]
fn cartesian_pendulum_against_a_wall_event_driven() {
    let dir = build_plugin("saltus-plugin-pendulum");
    let model = sample("cartesian_pendulum/cartesian_pendulum_wall_ed.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let (t, x, y, vx, vy, kind) =
        (tr.col("t"), tr.col("bob.q[0]"), tr.col("bob.q[1]"), tr.col("bob.v[0]"), tr.col("bob.v[1]"), tr.col("kind"));
    let e: f64 = 0.8;
    let mut expected = vec![quarter_period(std::f64::consts::FRAC_PI_2)];
    for j in 1..3 {
        let theta = (1.0 - e.powi(2 * j)).acos();
        expected.push(expected[j as usize - 1] + 2.0 * quarter_period(theta));
    }
    let pre: Vec<usize> = (0..tr.len()).filter(|&k| kind[k] == 1.0).collect();
    assert_eq!(pre.len(), 3, "three impacts in 3 s");
    let v0 = (2.0 * G * L).sqrt();
    for (j, &k) in pre.iter().enumerate() {
        assert!((t[k] - expected[j]).abs() <= 1e-8, "impact {j} at {}, exact {}", t[k], expected[j]);
        assert_eq!(kind[k + 1], 2.0);
        let arrival = v0 * e.powi(j as i32);
        assert!((vx[k] + arrival).abs() <= 1e-7 && (vx[k + 1] - e * arrival).abs() <= 1e-7, "impact {j}");
        assert!(vy[k + 1].abs() <= 1e-12 && (y[k + 1] + L).abs() <= 1e-12, "impact {j}: horizontal, at the bottom");
    }
    for k in 0..tr.len() {
        assert!(((x[k] * x[k] + y[k] * y[k]).sqrt() - L).abs() <= 1e-12, "rod length at t = {}", t[k]);
        assert!((x[k] * vx[k] + y[k] * vy[k]).abs() / L <= 1e-12, "grad h . v at t = {}", t[k]);
        assert!(x[k] >= -1e-12, "behind the wall at t = {}", t[k]);
        // impacts before this row (a pre-impact row holds the energy before its impact)
        let after = pre.iter().filter(|&&i| i < k).count();
        let energy = 0.5 * (vx[k] * vx[k] + vy[k] * vy[k]) + G * y[k];
        let want = -G * L + 0.5 * (v0 * e.powi(after as i32)).powi(2);
        assert!((energy - want).abs() <= 1e-7, "energy at t = {}: {energy} vs {want}", t[k]);
    }
}

/// `cartesian_pendulum_semiexplicit.xml` (`<SemiExplicitEuler>`, no projection) and
/// `cartesian_pendulum_semiexplicit_projection.xml` (`<Projection>` with `<Accuracy alpha="1e-9"
/// constraint_tol="0.1" norm="max">`, i.e. |h(q)| ≤ 1e-10), both also at h/2. Without projection
/// `q_{k+1} = q_k + h u_{k+1}` and `∇h(q_{k+1}) u_{k+1} = 0` give exactly
/// `h(q_{k+1}) − h(q_k) = −h²|u_{k+1}|²/(2l)`: checked at every row, first order in h, linear in
/// time. With projection |h(q)| ≤ 1e-10 and ∇h·u = 0 at every row. Both: the quarter period, and
/// the energy loss of velocity-level impulses, first order in h.
#[test]
fn cartesian_pendulum_semiexplicit_projection() {
    const TOL: f64 = 1e-10;
    let dir = build_plugin("saltus-plugin-pendulum");
    let args = ["--plugin-dir", dir.to_str().expect("utf-8 target dir")];
    let tmp = tempfile::tempdir().unwrap();
    let runs = |name: &str| {
        let model = sample(&format!("cartesian_pendulum/{name}.xml"));
        validate_xml(&model);
        let text = std::fs::read_to_string(&model).unwrap();
        assert!(text.contains(r#"h="1e-3""#));
        let half = tmp.path().join(format!("{name}_half.xml"));
        std::fs::write(&half, text.replace(r#"h="1e-3""#, r#"h="5e-4""#)).unwrap();
        (run(&model, &args), run(&half, &args))
    };
    let (plain, plain_half) = runs("cartesian_pendulum_semiexplicit");
    let (proj, proj_half) = runs("cartesian_pendulum_semiexplicit_projection");
    let h_of = |tr: &Trajectory, k: usize| {
        let (x, y) = (tr.col("bob.q[0]")[k], tr.col("bob.q[1]")[k]);
        (x * x + y * y - L * L) / (2.0 * L)
    };
    let v2 = |tr: &Trajectory, k: usize| tr.col("bob.v[0]")[k].powi(2) + tr.col("bob.v[1]")[k].powi(2);
    let energy = |tr: &Trajectory, k: usize| 0.5 * M * v2(tr, k) + M * G * tr.col("bob.q[1]")[k];
    let n = plain.len();
    assert_eq!(n, 5001);
    let mut law = 0.0;
    for k in 1..n {
        law -= H * H * v2(&plain, k) / (2.0 * L);
        let hp = h_of(&plain, k);
        assert!((hp - law).abs() <= 1e-6 * law.abs() + 1e-15, "row {k}: h(q) = {hp:e} vs the law {law:e}");
        assert!(plain.col("rod.ydot[0]")[k].abs() <= 1e-12, "row {k}: grad h . u");
        assert!(h_of(&proj, k).abs() <= TOL, "row {k}: |h(q)| = {:e} with projection", h_of(&proj, k));
        assert!(proj.col("rod.ydot[0]")[k].abs() <= 1e-12, "row {k}: grad h . u with projection");
    }
    for k in 1..proj_half.len() {
        assert!(h_of(&proj_half, k).abs() <= TOL, "h/2, row {k}");
    }
    let (end, mid, end_half) = (h_of(&plain, n - 1), h_of(&plain, n / 2), h_of(&plain_half, plain_half.len() - 1));
    let order = (end / end_half).log2();
    let growth = end / mid;
    let loss = |a: &Trajectory, b: &Trajectory| energy(a, a.len() - 1) / energy(b, b.len() - 1);
    let (loss_plain, loss_proj) = (loss(&plain, &plain_half), loss(&proj, &proj_half));
    eprintln!(
        "semi-explicit Euler: h(q) at T {end:e} (h/2: {end_half:e}, order {order:.3}), at T/2 {mid:e}; energy at T \
         {:.4} / {:.4} (ratios h vs h/2: {loss_plain:.3}, {loss_proj:.3}); run times {:.2?} / {:.2?}",
        energy(&plain, n - 1),
        energy(&proj, n - 1),
        plain.elapsed,
        proj.elapsed
    );
    assert!((order - 1.0).abs() < 0.05, "drift order {order}");
    assert!((growth - 2.0).abs() < 0.1, "drift(T) / drift(T/2) = {growth}");
    assert!(end.abs() > 1e6 * TOL);
    for r in [loss_plain, loss_proj] {
        assert!((r - 2.0).abs() < 0.1, "energy loss ratio {r}");
    }
    // the quarter period (l/g)^½ K(sin 45°) = 0.591949 from the first zero crossing of x
    for tr in [&plain, &proj] {
        let x = tr.col("bob.q[0]");
        let k = (1..tr.len()).find(|&k| x[k - 1] > 0.0 && x[k] <= 0.0).expect("x crosses 0");
        let t = tr.col("t");
        let tc = t[k - 1] + (t[k] - t[k - 1]) * x[k - 1] / (x[k - 1] - x[k]);
        assert!((tc - 0.591949).abs() <= 5e-3, "quarter period {tc}");
    }
}

/// `<EventDriven><Accuracy constraint_tol>`: the rod projected at every event until
/// |h(q)| / t ≤ α (one row, max norm); a looser tolerance leaves a larger violation.
#[test]
fn cartesian_pendulum_ed_constraint_tolerance_from_xml() {
    let dir = build_plugin("saltus-plugin-pendulum");
    let args = ["--plugin-dir", dir.to_str().expect("utf-8 target dir")];
    let text = std::fs::read_to_string(sample("cartesian_pendulum/cartesian_pendulum_ed.xml")).unwrap();
    let osi = "<LsodarOSI rtol=\"1e-12\" atol=\"1e-14\"/>\n    </OneStepIntegrator>";
    assert!(text.contains(osi));
    let tmp = tempfile::tempdir().unwrap();
    let worst = |t_i: f64| {
        let acc = format!(
            "<LsodarOSI/>\n    </OneStepIntegrator>\n    <Accuracy alpha=\"1e-6\" constraint_tol=\"{t_i}\" norm=\"max\"/>"
        );
        let path = tmp.path().join(format!("ed_{t_i}.xml"));
        std::fs::write(&path, text.replacen(osi, &acc, 1)).unwrap();
        validate_xml(&path);
        let tr = run(&path, &args);
        let (x, y) = (tr.col("bob.q[0]"), tr.col("bob.q[1]"));
        let w = (0..tr.len()).map(|k| ((x[k] * x[k] + y[k] * y[k] - L * L) / (2.0 * L)).abs()).fold(0.0, f64::max);
        assert!(w <= 1e-6 * t_i, "max |h(q)| = {w:e} > alpha t = {:e}", 1e-6 * t_i);
        w
    };
    let (tight, loose) = (worst(1e-6), worst(1.0));
    eprintln!("event driven, alpha = 1e-6: max |h(q)| {tight:e} (t = 1e-6), {loose:e} (t = 1)");
    assert!(loose > 100.0 * tight, "{loose:e} vs {tight:e}");
}

/// `cartesian_pendulum_paddle_nullspace.xml`: the null-space method with user events. Released from
/// the horizontal, the bob is struck back at the bottom (`v := −e v`, e = 0.8): after `n` strikes it
/// swings up to `y = −l cos θₙ`, `1 − cos θₙ = e²ⁿ`, and returns after `2 τ(θₙ)`, where
/// `τ(θ) = √(l/g) K(sin θ/2)` is the quarter period. Event rows (column `event`: 1 the paddle, 2 the
/// apex) at the closed-form times and heights; the energy `e²ⁿ m g l` between strikes; the rod held.
#[test]
fn cartesian_pendulum_paddle_null_space_events() {
    let dir = build_plugin("saltus-plugin-pendulum");
    let model = sample("cartesian_pendulum/cartesian_pendulum_paddle_nullspace.xml");
    validate_xml(&model);
    let tr = run(&model, &["--plugin-dir", dir.to_str().expect("utf-8 target dir")]);
    let (t, x, y, vx, vy) =
        (tr.col("t"), tr.col("bob.q[0]"), tr.col("bob.q[1]"), tr.col("bob.v[0]"), tr.col("bob.v[1]"));
    let (event, violation) = (tr.col("event"), tr.col("violation"));
    let e = 0.8f64;
    let mut expected = Vec::new(); // (event, t, y)
    let (mut te, mut factor) = (quarter_period(std::f64::consts::FRAC_PI_2), 1.0f64);
    while te < 5.0 {
        expected.push((1.0, te, -L));
        factor *= e * e;
        let theta = (1.0 - factor).acos();
        if te + quarter_period(theta) < 5.0 {
            expected.push((2.0, te + quarter_period(theta), -L * theta.cos()));
        }
        te += 2.0 * quarter_period(theta);
    }
    let rows: Vec<usize> = (0..tr.len()).filter(|&k| event[k] != 0.0).collect();
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    assert_eq!(tr.len(), 501 + expected.len());
    for (&k, &(ev, te, ye)) in rows.iter().zip(&expected) {
        assert_eq!(event[k], ev);
        assert!((t[k] - te).abs() <= 1e-8, "event {ev} at {} vs {te}", t[k]);
        assert!((y[k] - ye).abs() <= 1e-8, "y = {} vs {ye} at {}", y[k], t[k]);
        // the state before the paddle: at the bottom moving left; at the apex: at rest
        if ev == 1.0 {
            assert!(x[k].abs() <= 1e-9 && vx[k] < 0.0, "{} {}", x[k], vx[k]);
        } else {
            assert!(vx[k].abs() <= 1e-8 && vy[k].abs() <= 1e-8, "{} {}", vx[k], vy[k]);
        }
    }
    // energy between strikes: e^(2n) m g l, n strikes so far (E = ½ m |v|² + m g (y + l))
    let mut strikes = 0;
    for k in 0..tr.len() {
        if event[k] == 1.0 {
            strikes += 1;
            continue;
        }
        let energy = 0.5 * M * (vx[k] * vx[k] + vy[k] * vy[k]) + M * G * (y[k] + L);
        let exact = M * G * L * e.powi(2 * strikes);
        assert!((energy - exact).abs() <= 1e-8 * M * G * L, "E = {energy} vs {exact} at t = {}", t[k]);
        assert!(violation[k] <= 1e-10, "|C| = {} at t = {}", violation[k], t[k]);
    }
    // the summary of `saltus run` counts them; a stop event ends the run at the first strike
    let tmp = tempfile::tempdir().unwrap();
    let stop = tmp.path().join("stop.xml");
    let text = std::fs::read_to_string(&model).unwrap();
    std::fs::write(
        &stop,
        edit(
            &text,
            &[
                (r#"action="reset""#, r#"action="stop""#),
                (r#"<Reset library="saltus_plugin_pendulum" function="rod_paddle" params="0.8"/>"#, ""),
            ],
        ),
    )
    .unwrap();
    // (the first strike at 0.591960486894 s, 1e-11 from the closed form)
    for (file, said) in [(&model, "9 user events\n"), (&stop, "1 user events; stopped by an event at t = 0.5919604868")]
    {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_saltus"))
            .args(["run", file.to_str().unwrap(), "-o", tmp.path().join("o.csv").to_str().unwrap()])
            .args(["--plugin-dir", dir.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(err.contains(said), "{err}");
    }
}
