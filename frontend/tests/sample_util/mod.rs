//! Shared helpers of the gallery tests (`sample_*.rs`): run a sample through the `saltus` binary
//! into a temporary directory, read its CSV by column name, validate its XML against the schema.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The workspace root (the parent of `frontend/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// `samples/<rel>` in the workspace.
pub fn sample(rel: &str) -> PathBuf {
    workspace_root().join("samples").join(rel)
}

/// `text` with each `(from, to)` replaced once (each `from` must occur).
pub fn edit(text: &str, edits: &[(&str, &str)]) -> String {
    edits.iter().fold(text.to_string(), |t, (a, b)| {
        assert!(t.contains(a), "{a} not in the sample");
        t.replacen(a, b, 1)
    })
}

/// Validates `file` with `xmllint --schema schemas/saltus-model.xsd`; prints why and returns when
/// xmllint is not installed.
pub fn validate_xml(file: &Path) {
    let xsd = workspace_root().join("schemas/saltus-model.xsd");
    match Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(file).output() {
        Ok(out) => assert!(
            out.status.success(),
            "{} does not validate against the schema:\n{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => eprintln!("skipping schema validation of {}: xmllint not available ({e})", file.display()),
    }
}

/// A trajectory CSV: column name -> values.
pub struct Trajectory {
    cols: HashMap<String, Vec<f64>>,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl Trajectory {
    /// Column `name` (panics with the list of columns if absent).
    pub fn col(&self, name: &str) -> &[f64] {
        self.cols.get(name).unwrap_or_else(|| {
            let mut k: Vec<_> = self.cols.keys().collect();
            k.sort();
            panic!("no column {name}; columns: {k:?}")
        })
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.col("t").len()
    }
}

/// Runs `saltus run <model> -o <tmp>/out.csv -q` plus `extra` args and reads the CSV.
pub fn run(model: &Path, extra: &[&str]) -> Trajectory {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out.csv");
    let start = Instant::now();
    let res = Command::new(env!("CARGO_BIN_EXE_saltus"))
        .arg("run")
        .arg(model)
        .arg("-o")
        .arg(&out)
        .arg("-q")
        .args(extra)
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    assert!(res.status.success(), "saltus run {} failed:\n{}", model.display(), String::from_utf8_lossy(&res.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); header.len()];
    for (k, l) in lines.enumerate() {
        let fields: Vec<&str> = l.split(',').collect();
        assert_eq!(
            fields.len(),
            header.len(),
            "row {k} of {} has {} fields for {} columns",
            model.display(),
            fields.len(),
            header.len()
        );
        for (j, f) in fields.into_iter().enumerate() {
            cols[j].push(f.parse().unwrap_or_else(|_| panic!("bad number {f}")));
        }
    }
    eprintln!("{}: {} rows in {:.2?}", model.display(), cols[0].len(), elapsed);
    Trajectory { cols: header.into_iter().zip(cols).collect(), elapsed }
}

/// Builds the plugin crate `krate` (through `$CARGO build -p krate`, same target dir and profile
/// as the tests) and returns the directory holding its shared library.
pub fn build_plugin(krate: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-p", krate])
        .current_dir(workspace_root())
        .status()
        .expect("cannot run cargo to build the plugin");
    assert!(status.success(), "building {krate} failed");
    // target/debug/deps/<test-exe> -> target/debug
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent().and_then(Path::parent).expect("target dir").to_path_buf()
}
