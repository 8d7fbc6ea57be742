//! Helpers shared by the control tests: the Siconos comparison CSVs of the samples, and a linear
//! plant stepped by the kernel's zero-order hold under a control manager.
#![allow(dead_code)] // each test file uses some of the helpers

use std::path::PathBuf;

/// `samples/NAME/FILE` from the repository root.
pub fn sample_file(name: &str, file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("samples").join(name).join(file)
}

/// Rows of a CSV with one header line.
pub fn read_csv(path: &std::path::Path) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().skip(1).map(|l| l.split(',').map(|v| v.trim().parse::<f64>().unwrap()).collect()).collect()
}

/// Largest |a − b| over rows and the first `cols` columns (rows must align in time).
pub fn max_diff(ours: &[Vec<f64>], theirs: &[Vec<f64>], cols: usize) -> f64 {
    assert_eq!(ours.len(), theirs.len(), "row counts differ");
    let mut m = 0.0f64;
    for (a, b) in ours.iter().zip(theirs) {
        assert!((a[0] - b[0]).abs() < 1e-12, "times differ: {} vs {}", a[0], b[0]);
        for j in 1..cols {
            m = m.max((a[j] - b[j]).abs());
        }
    }
    m
}

/// A linear plant integrated by the kernel's zero-order hold (`Osi::ZeroOrderHold`) under the
/// controllers of `manager`: Siconos's `ControlZOHSimulation`, written as a Rust user drives a
/// time stepping (the control instants of step `k` read `x_k`, then the input `g = Σ B u` is held
/// over the next step).
pub struct ZohPlant {
    pub nsds: saltus_kernel::Nsds,
    pub ts: saltus_kernel::TimeStepping,
    pub ds: saltus_kernel::DsId,
    pub manager: saltus_control::ControlManager,
    h: f64,
}

impl ZohPlant {
    /// The plant from t = 0 with step `h`; its controllers' model `(A, b)`.
    pub fn new(plant: impl Into<saltus_kernel::DynamicalSystem>, model: saltus_control::LinearModel, h: f64) -> Self {
        use saltus_kernel::{solvers::lcp::LcpSolver, Nsds, Osi, Osnsp, TimeStepping};
        let mut nsds = Nsds::new(0.0);
        let ds = nsds.add_ds("plant", plant).unwrap();
        let n = nsds.systems()[0].dim_q();
        let ts =
            TimeStepping::new(&nsds, h, Osi::ZeroOrderHold, Osnsp::Lcp(LcpSolver::Lemke(Default::default()))).unwrap();
        let manager = saltus_control::ControlManager::new(n, h, Some(model)).unwrap();
        ZohPlant { nsds, ts, ds, manager, h }
    }

    /// The control instants of step `k` on the current state, then the input held by the simulation.
    pub fn instant(&mut self, k: usize) -> Result<(), saltus_control::ControlError> {
        let x = self.nsds.systems()[0].state().clone();
        self.manager.instant(k, k as f64 * self.h, &x)?;
        let mut g = nalgebra::DVector::zeros(x.len());
        self.manager.input_term(&mut g);
        self.ts.set_control_input(self.ds, g.as_slice()).unwrap();
        Ok(())
    }

    /// Runs `steps` steps; rows `t`, `x`, the inputs and estimates (row 0 after the instants of t = 0).
    pub fn run(&mut self, steps: usize) -> Vec<Vec<f64>> {
        let mut rows = Vec::with_capacity(steps + 1);
        for k in 0..=steps {
            if k > 0 {
                self.ts.step(&mut self.nsds).unwrap();
            }
            self.instant(k).unwrap();
            let mut row = vec![k as f64 * self.h];
            row.extend(self.nsds.systems()[0].state().iter());
            self.manager.row_into(&mut row);
            rows.push(row);
        }
        rows
    }
}
