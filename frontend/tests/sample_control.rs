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
