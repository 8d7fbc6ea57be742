//! Runs every Saltus MLCP solver on every MLCP `.dat` file of the given folders (or files) and
//! prints CSV `problem,type,n,solver,tolerance,status,iterations,error,seconds`, the same
//! columns as `benches/siconos/mlcp_siconos.py`.
//!
//! `n` is the total size `n_eq + m`; `seconds` is the median of 3 timed solves from `z = 0`
//! (after one untimed solve); `error` is the Siconos MLCP error of the answer. A solver that
//! refuses the problem prints `error:<reason>` in the status column; an unreadable file prints
//! one `unreadable` row.
//!
//! `cargo run --release -p saltus-numerics --example mlcp_collection -- DIR... [--tol 1e-8]`

use saltus_numerics::mlcp::{self, Mlcp};
use saltus_numerics::IterOptions;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut tol = 1e-8;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--tol" {
            tol = args.next().and_then(|t| t.parse().ok()).unwrap_or(tol);
        } else {
            paths.push(PathBuf::from(a));
        }
    }
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> =
                std::fs::read_dir(&p).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
            v.retain(|f| f.extension().is_some_and(|e| e == "dat"));
            v.sort();
            files.extend(v);
        } else {
            files.push(p);
        }
    }
    println!("problem,type,n,solver,tolerance,status,iterations,error,seconds");
    for f in files {
        let name = f.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let p = match mlcp::read_mlcp_file(&f) {
            Ok(p) => p,
            Err(e) => {
                println!("{name},mlcp,,,{tol:e},unreadable: {},,,", e.to_string().replace(',', ";"));
                continue;
            }
        };
        for (sname, _) in mlcp::SOLVERS {
            let Some(solver) = mlcp::solver_by_name(sname, IterOptions::new(tol, 1000)) else { continue };
            run(&name, &p, sname, &solver, tol);
        }
    }
}

fn run(name: &str, p: &Mlcp, sname: &str, solver: &mlcp::MlcpSolver, tol: f64) {
    let n = p.size();
    let mut z = vec![0.0; n];
    let mut w = vec![0.0; n];
    let mut times = Vec::new();
    let mut last = None;
    for k in 0..4 {
        let t0 = Instant::now();
        let r = mlcp::solve(p, &mut z, &mut w, solver);
        let dt = t0.elapsed().as_secs_f64();
        if k > 0 {
            times.push(dt);
        }
        last = Some(r);
    }
    times.sort_by(f64::total_cmp);
    match last {
        Some(Ok(r)) => println!(
            "{name},mlcp,{n},{sname},{tol:e},{},{},{:e},{:.9}",
            r.status.as_str(),
            r.iterations,
            r.residual,
            times[1]
        ),
        Some(Err(e)) => println!("{name},mlcp,{n},{sname},{tol:e},error: {},,,", e.to_string().replace(',', ";")),
        None => {}
    }
}
