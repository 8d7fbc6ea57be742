//! Control samples run from their model files by `saltus run` (the `<Control>` section):
//! `smc_double_integrator` (implicit and explicit linear SMC) and `dc_motor_pid_observer` (PID +
//! Luenberger observer) against the Siconos 4.4 CSVs written by each sample's
//! `siconos_compare.py` (same algorithms: trajectories to 1e-9), and the control laws' mathematics.
mod sample_util;
use sample_util::*;

fn siconos(rel: &str) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(sample(rel)).unwrap();
    text.lines().skip(1).map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect()
}

fn compare(tr: &Trajectory, cols: &[&str], theirs: &[Vec<f64>], tol: f64) {
    assert_eq!(tr.len(), theirs.len());
    let mut worst = 0.0f64;
    for (j, c) in cols.iter().enumerate() {
        let ours = tr.col(c);
        for (k, row) in theirs.iter().enumerate() {
            worst = worst.max((ours[k] - row[j]).abs());
        }
    }
    println!("{cols:?}: max |diff| = {worst:e}");
    assert!(worst < tol, "max |diff| {worst:e}");
}

#[test]
fn smc_double_integrator_from_xml_matches_siconos() {
    for (file, csv) in [("model.xml", "siconos_implicit.csv"), ("model_explicit.xml", "siconos_explicit.csv")] {
        let model = sample(&format!("smc_double_integrator/{file}"));
        validate_xml(&model);
        let tr = run(&model, &[]);
        compare(
            &tr,
            &["t", "plant.x[0]", "plant.x[1]", "smc.u[0]"],
            &siconos(&format!("smc_double_integrator/{csv}")),
            1e-9,
        );
        // the input never exceeds |u^eq| + α, and σ = x1 + x2 ends near 0
        let (x1, x2) = (tr.col("plant.x[0]"), tr.col("plant.x[1]"));
        let n = tr.len() - 1;
        assert!((x1[n] + x2[n]).abs() < 2e-2, "{file}: σ(T) = {}", x1[n] + x2[n]);
    }
}

#[test]
fn dc_motor_pid_observer_from_xml_matches_siconos() {
    let model = sample("dc_motor_pid_observer/model.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let cols = ["t", "motor.x[0]", "motor.x[1]", "pid.u[0]", "obs.xhat[0]", "obs.xhat[1]"];
    compare(&tr, &cols, &siconos("dc_motor_pid_observer/siconos.csv"), 1e-9 * 202.0);
    // integral action: ω(T) = reference; the estimate of the unmeasured current has converged
    let n = tr.len() - 1;
    assert!((tr.col("motor.x[0]")[n] - 1.0).abs() < 1e-4);
    assert!((tr.col("obs.xhat[1]")[n] - tr.col("motor.x[1]")[n]).abs() < 1e-9);
}

/// Explicit twisting (`model_twisting.xml`): finite-time convergence to an O(h_c²) × O(h_c)
/// neighbourhood of the origin, and Siconos 4.4
/// (`siconos_twisting.py`).
#[test]
fn twisting_from_xml_converges_and_matches_siconos() {
    let model = sample("smc_double_integrator/model_twisting.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let cols = ["t", "plant.x[0]", "plant.x[1]", "twisting.u[0]", "twisting.u[1]"];
    compare(&tr, &cols, &siconos("smc_double_integrator/siconos_twisting.csv"), 1e-9);
    let (t, x1, x2) = (tr.col("t"), tr.col("plant.x[0]"), tr.col("plant.x[1]"));
    let (g, beta, hc) = (2.0, 0.5, 1e-2);
    for k in 0..tr.len() {
        // from t = 5 on: a limit cycle of the sampled law, |x1| < G h_c², |x2| <= G h_c
        if t[k] >= 5.0 {
            assert!(x1[k].abs() < g * hc * hc, "t = {}: x1 = {}", t[k], x1[k]);
            assert!(x2[k].abs() <= g * hc * (1.0 + 1e-9), "t = {}: x2 = {}", t[k], x2[k]);
        }
        // and |x2| never exceeds what G(1 + β) can build up from x(0) = (1, 0): x2² <= 2 G(1 + β) |x1(0)|
        assert!(x2[k] * x2[k] <= 2.0 * g * (1.0 + beta) + 1e-9);
    }
}
