//! Shared helpers for the kernel tests: reference CSV reading and the two Siconos models.
#![allow(dead_code)]

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::{presets, Nsds};

/// Reads a reference CSV (header + rows of numbers).
pub fn read_csv(name: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let header = lines
        .next()
        .expect("header")
        .split(',')
        .map(String::from)
        .collect();
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.split(',')
                .map(|v| v.parse::<f64>().expect("number"))
                .collect()
        })
        .collect();
    (header, rows)
}

/// The Siconos BouncingBallTS model: LagrangianLinearTIDS (3 dof), H = [1 0 0], e = 0.9.
pub fn bouncing_ball() -> Nsds {
    let (r, m, g) = (0.1, 1.0, 9.81);
    let mass = DMatrix::from_diagonal(&dvector![m, m, 2.0 / 5.0 * r * r]);
    let (nsds, _, _) = presets::lagrangian_contact(
        mass,
        dvector![1.0, 0.0, 0.0],
        DVector::zeros(3),
        dmatrix![1.0, 0.0, 0.0],
        None,
        0.9,
        Some(dvector![-m * g, 0.0, 0.0]),
    )
    .expect("valid model");
    nsds
}

/// The Siconos DiodeBridge model: LC oscillator + 4 ideal diodes + resistor.
pub fn diode_bridge() -> Nsds {
    let (l, c, r) = (1e-2, 1e-6, 1e3);
    let a = dmatrix![0.0, -1.0 / c; 1.0 / l, 0.0];
    let cm = dmatrix![0.0, 0.0; 0.0, 0.0; -1.0, 0.0; 1.0, 0.0];
    let d = dmatrix![1.0 / r, 1.0 / r, -1.0, 0.0; 1.0 / r, 1.0 / r, 0.0, -1.0; 1.0, 0.0, 0.0, 0.0; 0.0, 1.0, 0.0, 0.0];
    let b = dmatrix![0.0, 0.0, -1.0 / c, 1.0 / c; 0.0, 0.0, 0.0, 0.0];
    let (nsds, _, _) =
        presets::linear_complementarity_system(dvector![10.0, 0.0], a, b, cm, Some(d))
            .expect("valid model");
    nsds
}
