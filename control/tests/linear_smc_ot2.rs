//! Siconos `LinearSMCOT2` (a sliding-mode control with a one-period disturbance predictor) on
//! the tutorial's plant `ẋ = b(t) + B u`, `b(t) = (sin 50t, −sin 50t)`, `B = (0, 2)`, `σ = x₂`,
//! `x₀ = (1, −1)`, `h = 1e-4`, `h_c = 1e-2`: the recursion checked by hand at the first instants,
//! and the whole run against Siconos 4.4's own reference (`SMCExampleImplicitOT2-py.ref` of the
//! Siconos tutorials, when `../shared/siconos-tutorials` is present).

mod common;
use common::ZohPlant;
use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_control::{Controller, LinearModel, LinearSmcOt2, Sensor};
use saltus_kernel::model::userfn::VecOp;
use saltus_kernel::FirstOrderLinearDs;
use std::sync::Arc;

const H: f64 = 1e-4;
const HC: f64 = 1e-2;

fn run() -> Vec<Vec<f64>> {
    let drift: saltus_kernel::model::userfn::TimeVecFn = Arc::new(|t: f64, out: &mut [f64]| {
        let s = (50.0 * t).sin();
        out[0] = s;
        out[1] = -s;
        Ok(())
    });
    // ẋ = b(t) + B u: A = 0, the drift held at b(t_{k+1}) by the zero-order hold; the
    // controller's model has no drift (the disturbance it predicts)
    let plant = FirstOrderLinearDs::new(dvector![1.0, -1.0], DMatrix::zeros(2, 2)).with_b(VecOp::Function(drift));
    let mut sim = ZohPlant::new(plant, LinearModel { a: DMatrix::zeros(2, 2), b: DVector::zeros(2) }, H);
    let s = sim.manager.add_sensor(Sensor::State, HC).unwrap();
    let ot2 = LinearSmcOt2 { csurface: dmatrix![0.0, 1.0], b: dmatrix![0.0; 2.0] };
    sim.manager.add_actuator("ot2", Controller::LinearSmcOt2(ot2), s, HC).unwrap();
    sim.run(10_000)
}

#[test]
fn the_predictor_recursion_by_hand() {
    let rows = run();
    assert_eq!(rows.len(), 10_001);
    // t = 0: x^Φ = x₀ (A = 0, no constant drift) and x̂₀ = x₀, so u_eq = κ x₂ with κ = −1/h_c = −100:
    // u_eq = 100, clipped to 2
    assert_eq!(rows[0][3], 2.0);
    // the first plant step holds b(t₁) and B u: x₁ = x₀ + h (b(h) + (0, 4))
    let s = (50.0 * H).sin();
    assert!((rows[1][1] - (1.0 + H * s)).abs() < 1e-15);
    assert!((rows[1][2] - (-1.0 + H * (-s + 4.0))).abs() < 1e-15);
    // at the second instant (row 100): x̂₁ = x₀ + h_c B u₀, and u_eq = κ (2 x₂ − x̂₁₂), clipped
    let (x2, xhat2) = (rows[100][2], -1.0 + HC * 4.0);
    let ueq: f64 = -100.0 * (2.0 * x2 - xhat2);
    assert!((rows[100][3] - ueq.clamp(-2.0, 2.0)).abs() < 1e-12, "{} vs {ueq}", rows[100][3]);
    // the input is held between instants
    assert!(rows[101..200].iter().all(|r| r[3] == rows[100][3]));
}

#[test]
fn agrees_with_siconos_44_reference() {
    let shared = std::env::var("SALTUS_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let path = shared.join("siconos-tutorials/examples/control/SMC/SMCExampleImplicitOT2-py.ref");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{} absent: the comparison with Siconos is skipped", path.display());
        return;
    };
    let reference: Vec<Vec<f64>> =
        text.lines().skip(1).map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect()).collect();
    let rows = run();
    assert_eq!(rows.len(), reference.len());
    let mut worst = [0.0f64; 4];
    for (r, s) in rows.iter().zip(&reference) {
        for j in 0..4 {
            worst[j] = worst[j].max((r[j] - s[j]).abs());
        }
    }
    eprintln!("largest differences (t, x1, x2, u): {worst:?}");
    assert!(worst[0] < 1e-12 && worst[1] < 1e-12 && worst[2] < 1e-12 && worst[3] < 1e-10, "{worst:?}");
}
