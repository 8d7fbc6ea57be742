//! `saltus solve` and `saltus solvers`: numerics problem files in (Siconos `.dat`, FCLib `.hdf5`,
//! and XML problem files of an NCP, MCP or VI with a plugin `F`), one CSV row per file out.
//!
//! CSV header (stdout): `problem,type,n,solver,tolerance,status,iterations,error,seconds`;
//! `status` is `converged`, `max_iterations`, `failed` or `error` (the file could not be read or
//! the solver does not apply); `seconds` is the median of 3 solves (solve time only).
//! With `--solutions DIR`, `DIR/<file name>.txt` gets one line per solution vector: the name, then
//! the numbers (`z`, `w` for LCP/MLCP/Relay/NCP/MCP/VI (`w = F(z)`); `x` for QP; `r`, `u` (and `v`) for friction contact).

use saltus_numerics::driver::{self, ProblemKind};
use saltus_numerics::{cp, IterOptions};
use saltus_runtime::problem;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a solve command failed: a usage error (exit 2) or an input error (exit 1).
pub enum SolveFailure {
    /// Bad command line.
    Usage(String),
    /// At least one file could not be read or solved (its message was printed already).
    Input(String),
}

/// Problem files under the given paths: a file as is, a folder's `*.dat` / `*.hdf5` files and its XML
/// problem files (root `<Problem>`) sorted.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, SolveFailure> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let rd = std::fs::read_dir(p).map_err(|e| SolveFailure::Input(format!("{}: {e}", p.display())))?;
            let mut v: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| match f.extension().and_then(|e| e.to_str()) {
                    Some("dat") | Some("hdf5") => true,
                    Some("xml") => problem::is_problem_file(f),
                    _ => false,
                })
                .collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// Why `f` cannot be read, found before reading it: a missing or unreadable file.
fn unreadable(f: &Path) -> Option<String> {
    if let Err(e) = std::fs::metadata(f) {
        return Some(match e.kind() {
            std::io::ErrorKind::NotFound => "not found".into(),
            _ => format!("cannot read it: {e}"),
        });
    }
    None
}

/// Parses `--type`.
pub fn parse_kind(kind: Option<&str>) -> Result<Option<ProblemKind>, SolveFailure> {
    match kind {
        None => Ok(None),
        Some(k) => ProblemKind::from_name(k).map(Some).ok_or_else(|| {
            let names: Vec<&str> = ProblemKind::ALL.iter().map(|k| k.as_str()).collect();
            SolveFailure::Usage(format!("unknown problem type `{k}` (one of {})", names.join(", ")))
        }),
    }
}

/// Writes `text` to `path` through a temporary file, so no half-written file is left behind.
fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("txt.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// A solved file: its type, size, last report, median time and named solution vectors.
struct Solved {
    kind: &'static str,
    n: usize,
    report: saltus_numerics::SolveReport,
    median: Duration,
    vectors: Vec<(&'static str, Vec<f64>)>,
}

/// Why a file could not be solved: the message (with the file name), and the type and size when known.
struct Unsolved {
    message: String,
    kind: Option<&'static str>,
    n: usize,
}

impl Unsolved {
    fn new(message: String) -> Self {
        Unsolved { message, kind: None, n: 0 }
    }
}

/// An XML problem file (root `<Problem>`: an NCP, MCP or VI with a plugin function).
fn is_problem_file(f: &Path) -> bool {
    f.extension().and_then(|e| e.to_str()) == Some("xml")
}

/// A Siconos `.dat` or FCLib file, solved `REPEATS` times from zero.
fn solve_data_file(f: &Path, kind: Option<ProblemKind>, solver: &str, it: IterOptions) -> Result<Solved, Unsolved> {
    let problem = driver::read_problem(f, kind).map_err(|e| Unsolved::new(format!("{}:{e}", f.display())))?;
    let (k, n) = (problem.kind(), problem.size());
    let o = driver::solve(&problem, solver, it, REPEATS).map_err(|e| Unsolved {
        message: format!("{}: {e}", f.display()),
        kind: Some(k.as_str()),
        n,
    })?;
    Ok(Solved { kind: k.as_str(), n, report: o.report, median: o.median, vectors: o.vectors })
}

/// An XML problem file, solved `REPEATS` times from its starting point.
fn solve_problem_file(f: &Path, solver: &str, it: IterOptions, plugin_dirs: &[PathBuf]) -> Result<Solved, Unsolved> {
    let mut p = problem::load_problem(f, plugin_dirs).map_err(|e| Unsolved::new(e.to_string()))?;
    let (kind, n) = (p.kind(), p.size());
    let fail = |message: String| Unsolved { message, kind: Some(kind.as_str()), n };
    let s = cp::solver_by_name(solver, it)
        .ok_or_else(|| fail(format!("{}: {}", f.display(), driver::unknown_solver(kind, solver))))?;
    let mut times = Vec::with_capacity(REPEATS);
    let mut last = None;
    for _ in 0..REPEATS {
        let sol = p.solve(&s).map_err(|e| fail(format!("{}: {e}", f.display())))?;
        times.push(sol.report.elapsed);
        last = Some(sol);
    }
    let sol = last.ok_or_else(|| fail("no solve ran".into()))?;
    Ok(Solved {
        kind: kind.as_str(),
        n,
        report: sol.report,
        median: driver::median(&mut times),
        vectors: vec![("z", sol.z), ("w", sol.w)],
    })
}

/// Solves per file, for the median time.
const REPEATS: usize = 3;

/// `saltus solve`: solves every file with `solver` and prints the CSV. XML problem files find
/// their plugin beside the file, then in `plugin_dirs`.
pub fn solve(
    paths: &[PathBuf],
    solver: &str,
    kind: Option<&str>,
    it: IterOptions,
    solutions: Option<&Path>,
    plugin_dirs: &[PathBuf],
) -> Result<(), SolveFailure> {
    let kind = parse_kind(kind)?;
    it.validate().map_err(|e| SolveFailure::Usage(e.to_string()))?;
    if !ProblemKind::ALL.iter().any(|k| k.solvers().iter().any(|s| s.0 == solver)) {
        return Err(SolveFailure::Usage(format!("no solver called `{solver}` (see `saltus solvers`)")));
    }
    if let Some(dir) = solutions {
        std::fs::create_dir_all(dir).map_err(|e| SolveFailure::Input(format!("{}: {e}", dir.display())))?;
    }
    let files = expand(paths)?;
    if files.is_empty() {
        return Err(SolveFailure::Usage(
            "no problem file given (folders are searched for *.dat, *.hdf5 and XML problem files)".into(),
        ));
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "problem,type,n,solver,tolerance,status,iterations,error,seconds");
    let mut failures = 0usize;
    for f in &files {
        let name = f.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let guessed = kind.or_else(|| ProblemKind::guess(f));
        let type_name = if is_problem_file(f) { "unknown" } else { guessed.map(|k| k.as_str()).unwrap_or("unknown") };
        if let Some(why) = unreadable(f) {
            failures += 1;
            let _ = writeln!(std::io::stderr(), "error: {}: {why}", f.display());
            let _ = writeln!(out, "{name},{type_name},0,{solver},{:e},error,0,NaN,NaN", it.tol);
            continue;
        }
        let solved = if is_problem_file(f) {
            solve_problem_file(f, solver, it, plugin_dirs)
        } else {
            solve_data_file(f, kind, solver, it)
        };
        match solved {
            Ok(o) => {
                let r = &o.report;
                let _ = writeln!(
                    out,
                    "{name},{},{},{solver},{:e},{},{},{:e},{:e}",
                    o.kind,
                    o.n,
                    it.tol,
                    r.status.as_str(),
                    r.iterations,
                    r.residual,
                    o.median.as_secs_f64()
                );
                if let Some(dir) = solutions {
                    let mut text = String::new();
                    for (vname, v) in &o.vectors {
                        text.push_str(vname);
                        for x in v {
                            text.push(' ');
                            saltus_runtime::output::csv::fmt_num(*x, &mut text);
                        }
                        text.push('\n');
                    }
                    let path = dir.join(format!("{name}.txt"));
                    if let Err(e) = write_atomic(&path, &text) {
                        failures += 1;
                        let _ = writeln!(std::io::stderr(), "error: {}: {e}", path.display());
                    }
                }
            }
            Err(e) => {
                failures += 1;
                let _ = writeln!(std::io::stderr(), "error: {}", e.message);
                let (k, n) = (e.kind.unwrap_or(type_name), e.n);
                let _ = writeln!(out, "{name},{k},{n},{solver},{:e},error,0,NaN,NaN", it.tol);
            }
        }
    }
    let _ = out.flush();
    if failures > 0 {
        Err(SolveFailure::Input(format!(
            "{failures} of {} file(s) could not be solved (see the messages above)",
            files.len()
        )))
    } else {
        Ok(())
    }
}

/// `saltus solvers --elements`: the model files' solver elements (`saltus_runtime::xml::solver_elements`),
/// one a line: `ELEMENT [PROBLEM] attributes…  — description`.
pub fn solver_elements() {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for e in saltus_runtime::xml::solver_elements() {
        let _ = writeln!(out, "{} [{}] {} — {}", e.element, e.problem, e.options.join(" "), e.description);
    }
}

/// `saltus solvers`: one solver per line (name, a space, a one-line description).
pub fn solvers(kind: Option<&str>) -> Result<(), SolveFailure> {
    let kinds: Vec<ProblemKind> = match parse_kind(kind)? {
        Some(k) => vec![k],
        None => ProblemKind::ALL.to_vec(),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for k in kinds {
        for (name, desc) in k.solvers() {
            let _ = if kind.is_some() {
                writeln!(out, "{name} {desc}")
            } else {
                writeln!(out, "{name} [{}] {desc}", k.as_str())
            };
        }
    }
    Ok(())
}
