//! Helpers of the mechanics sample tests: run a `<Mechanics>` model through the `saltus` binary
//! (bodies CSV and `--contacts` CSV), read the tables by column name, and the physics shared by
//! the tests (momentum balance from the contact impulses).
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the parent of `frontend/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// `samples/<rel>`.
pub fn sample(rel: &str) -> PathBuf {
    workspace_root().join("samples").join(rel)
}

/// Writes `text` as `m.xml` in `dir` and runs `saltus ARGS m.xml` there: (exit code, stdout, stderr).
pub fn saltus_on_text(dir: &Path, text: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let f = dir.join("m.xml");
    std::fs::write(&f, text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).arg(&f).current_dir(dir).output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// A CSV table: header and rows.
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Rows of numbers.
    pub rows: Vec<Vec<f64>>,
    index: HashMap<String, usize>,
}

impl Table {
    /// Reads a CSV with one header line.
    pub fn read(path: &Path) -> Table {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut lines = text.lines();
        let header: Vec<String> = lines.next().expect("header").split(',').map(str::to_string).collect();
        let rows = lines.map(|l| l.split(',').map(|f| f.parse().expect("a number")).collect()).collect();
        let index = header.iter().enumerate().map(|(i, h)| (h.clone(), i)).collect();
        Table { header, rows, index }
    }
    /// The rows that `keep` accepts, under the same header.
    pub fn filtered(&self, keep: impl Fn(&[f64]) -> bool) -> Table {
        let rows = self.rows.iter().filter(|r| keep(r)).cloned().collect();
        Table { header: self.header.clone(), rows, index: self.index.clone() }
    }
    /// Index of column `name`.
    pub fn idx(&self, name: &str) -> usize {
        *self.index.get(name).unwrap_or_else(|| panic!("no column {name}; columns: {:?}", self.header))
    }
    /// Column `name`.
    pub fn col(&self, name: &str) -> Vec<f64> {
        let j = self.idx(name);
        self.rows.iter().map(|r| r[j]).collect()
    }
    /// Value of column `name` in the last row.
    pub fn last(&self, name: &str) -> f64 {
        self.rows.last().expect("rows")[self.idx(name)]
    }
    /// Value of column `name` in the first row.
    pub fn first(&self, name: &str) -> f64 {
        self.rows[0][self.idx(name)]
    }
}

/// A copy of `model` in `dir` with `<Time ... T="..">` set to `t_end` (short test horizons).
pub fn with_final_time(model: &Path, dir: &Path, t_end: f64) -> PathBuf {
    let text = std::fs::read_to_string(model).unwrap();
    let start = text.find("<Time ").expect("a <Time> element");
    let end = start + text[start..].find("/>").unwrap();
    let new = format!("{}<Time t0=\"0\" T=\"{t_end}\"{}", &text[..start], &text[end..]);
    let out = dir.join(model.file_name().unwrap());
    std::fs::write(&out, new).unwrap();
    out
}

/// `saltus run MODEL -o DIR/out.csv -q --contacts EXTRA`: the bodies and the contacts tables.
pub fn run(model: &Path, dir: &Path, extra: &[&str]) -> (Table, Table) {
    let out = dir.join("out.csv");
    let res = Command::new(env!("CARGO_BIN_EXE_saltus"))
        .arg("run")
        .arg(model)
        .arg("-o")
        .arg(&out)
        .args(["-q", "--contacts"])
        .args(extra)
        .output()
        .unwrap();
    assert!(res.status.success(), "saltus run {} failed:\n{}", model.display(), String::from_utf8_lossy(&res.stderr));
    (Table::read(&out), Table::read(&dir.join("out.contacts.csv")))
}

/// Σ over the contact rows of the impulse (world frame) that bodies `statics` give the others:
/// `+f` on body 2, `−f` on body 1.
pub fn impulse_from(contacts: &Table, statics: &[f64]) -> [f64; 3] {
    let (b1, b2) = (contacts.idx("body1"), contacts.idx("body2"));
    let f = [contacts.idx("fx"), contacts.idx("fy"), contacts.idx("fz")];
    let mut p = [0.0; 3];
    for r in &contacts.rows {
        let sign = match (statics.contains(&r[b1]), statics.contains(&r[b2])) {
            (true, false) => 1.0,
            (false, true) => -1.0,
            _ => 0.0,
        };
        for k in 0..3 {
            p[k] += sign * r[f[k]];
        }
    }
    p
}

/// Every row keeps `|q| = 1` for body `name` (to `tol`).
pub fn unit_quaternions(bodies: &Table, name: &str, tol: f64) {
    let j: Vec<usize> = ["qw", "qx", "qy", "qz"].iter().map(|c| bodies.idx(&format!("{name}.{c}"))).collect();
    for (i, r) in bodies.rows.iter().enumerate() {
        let n = j.iter().map(|&k| r[k] * r[k]).sum::<f64>().sqrt();
        assert!((n - 1.0).abs() <= tol, "{name}: |q| = {n} in row {i}");
    }
}
