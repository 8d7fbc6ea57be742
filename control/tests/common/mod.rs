//! Helpers shared by the control tests: reading the Siconos comparison CSVs of the samples.

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
