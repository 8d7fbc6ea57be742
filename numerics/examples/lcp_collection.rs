//! Runs every LCP / relay solver on every `.dat` file of the given directories and prints CSV
//! `problem,type,n,solver,tolerance,status,iterations,error,seconds` (seconds = median of 3).
//! A directory whose name contains `relay` is read as relay problems, otherwise as LCPs.
//!
//! `cargo run --release -p saltus-numerics --example lcp_collection -- DIR...`

use saltus_numerics::report::{IterOptions, SolveReport};
use saltus_numerics::{lcp, relay};
use std::path::{Path, PathBuf};

const TOL: f64 = 1e-8;
const MAX_ITER: usize = 10_000;

fn median3(mut run: impl FnMut() -> Result<SolveReport, String>) -> Result<(SolveReport, f64), String> {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let rep = run()?;
        times.push(t.elapsed().as_secs_f64());
        last = Some(rep);
    }
    times.sort_by(f64::total_cmp);
    Ok((last.ok_or("no run")?, times[1]))
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "dat")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn row(name: &str, ty: &str, n: usize, solver: &str, r: Result<(SolveReport, f64), String>) {
    match r {
        Ok((rep, secs)) => println!(
            "{name},{ty},{n},{solver},{TOL:e},{},{},{:e},{secs:e}",
            rep.status.as_str(),
            rep.iterations,
            rep.residual
        ),
        Err(e) => println!("{name},{ty},{n},{solver},{TOL:e},error,0,nan,0 # {}", e.replace(',', ";")),
    }
}

fn main() {
    println!("problem,type,n,solver,tolerance,status,iterations,error,seconds");
    let it = IterOptions::new(TOL, MAX_ITER);
    for dir in std::env::args().skip(1) {
        let dir = PathBuf::from(dir);
        let is_relay = dir.file_name().is_some_and(|n| n.to_string_lossy().contains("relay"));
        for f in files(&dir) {
            let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            if is_relay {
                let p = match relay::read_relay_file(&f) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("{}: {e}", f.display());
                        continue;
                    }
                };
                let n = p.size();
                let mut rstate = relay::RelaySolverState::new();
                for (sname, _) in relay::SOLVERS {
                    let Some(s) = relay::solver_by_name(sname, it) else { continue };
                    let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
                    row(
                        &name,
                        "relay",
                        n,
                        sname,
                        median3(|| relay::solve_with(&mut rstate, &p, &mut z, &mut w, &s).map_err(|e| e.to_string())),
                    );
                }
            } else {
                let p = match lcp::read_lcp_file(&f) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("{}: {e}", f.display());
                        continue;
                    }
                };
                let n = p.size();
                let mut state = lcp::LcpSolverState::new();
                for (sname, _) in lcp::SOLVERS {
                    let Some(s) = lcp::solver_by_name(sname, it) else { continue };
                    let (mut z, mut w) = (vec![0.0; n], vec![0.0; n]);
                    row(
                        &name,
                        "lcp",
                        n,
                        sname,
                        median3(|| lcp::solve_with(&mut state, &p, &mut z, &mut w, &s).map_err(|e| e.to_string())),
                    );
                }
            }
        }
    }
}
