//! Runs the friction-contact solvers over Siconos collection files and prints CSV
//! `problem,type,n,solver,tolerance,status,iterations,error,seconds` (median of 3 solves;
//! 1 solve when the first exceeds 2 s).
//!
//! `cargo run --release -p saltus-numerics --example fc_collection -- [--tol 1e-8] [--max-iter N] [--solvers a,b]
//! [--factorization auto|dense|sparse] [--sparse-max-density D] DIR_OR_FILE...`
//! (`--factorization` / `--sparse-max-density` set the Jacobian factorization of prox and newton-ac;
//! `--sphere-column N` adds the generated N-contact column of `fc::generate::sphere_column(N, 7)`).
//! Files under a `fc2d` directory are 2D local problems, `fc3d` 3D local, `fc3d-global` global.

use saltus_numerics::fc::{self, global::gfc_solver_by_name, FcSolver, JacobianFactorization};
use saltus_numerics::IterOptions;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn kind(path: &Path) -> Option<&'static str> {
    match path.parent()?.file_name()?.to_str()? {
        "fc2d" => Some("fc2d"),
        "fc3d" => Some("fc3d"),
        "fc3d-global" => Some("gfc3d"),
        _ => None,
    }
}

/// Pseudo directory of the generated problems (`--sphere-column N`).
const GENERATED: &str = "<generated>";

/// The generated sphere column named by a `<generated>/fc3d/sphere_column-N` path.
fn generated(f: &Path) -> Option<saltus_numerics::Result<fc::FrictionContact>> {
    if !f.starts_with(GENERATED) {
        return None;
    }
    let n = f.file_name()?.to_str()?.strip_prefix("sphere_column-")?.parse().ok()?;
    Some(fc::generate::sphere_column(n, 7))
}

fn read_local(f: &Path, h5: bool) -> saltus_numerics::Result<fc::FrictionContact> {
    if let Some(p) = generated(f) {
        return p;
    }
    if h5 {
        fc::read_fclib_local(f)
    } else {
        fc::read_fc_file(f)
    }
}

fn read_global(f: &Path, h5: bool) -> saltus_numerics::Result<fc::GlobalFrictionContact> {
    if h5 {
        fc::read_fclib_global(f)
    } else {
        fc::read_gfc_file(f)
    }
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut tol, mut max_iter, mut only): (f64, usize, Option<Vec<String>>) = (1e-8, 10_000, None);
    let mut files: Vec<PathBuf> = Vec::new();
    let (mut factorization, mut max_density) = (None, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tol" => tol = args.next().and_then(|s| s.parse().ok()).unwrap_or(tol),
            "--max-iter" => max_iter = args.next().and_then(|s| s.parse().ok()).unwrap_or(max_iter),
            "--solvers" => only = args.next().map(|s| s.split(',').map(String::from).collect()),
            "--factorization" => {
                factorization = match args.next().as_deref() {
                    Some("auto") => Some(JacobianFactorization::Auto),
                    Some("dense") => Some(JacobianFactorization::Dense),
                    Some("sparse") => Some(JacobianFactorization::Sparse),
                    other => {
                        eprintln!("--factorization: expected auto, dense or sparse, got {other:?}");
                        std::process::exit(2);
                    }
                }
            }
            "--sphere-column" => {
                if let Some(n) = args.next().and_then(|s| s.parse::<usize>().ok()) {
                    files.push(Path::new(GENERATED).join("fc3d").join(format!("sphere_column-{n}")));
                }
            }
            "--sparse-max-density" => max_density = args.next().and_then(|s| s.parse::<f64>().ok()),
            _ => {
                let p = PathBuf::from(&a);
                if p.is_dir() {
                    let mut v: Vec<PathBuf> = std::fs::read_dir(&p)
                        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                        .unwrap_or_default();
                    v.retain(|f| {
                        f.extension().is_some_and(|e| e == "dat" || e == "hdf5") && !f.ends_with("ACinputs.dat")
                    });
                    v.sort();
                    files.extend(v);
                } else {
                    files.push(p);
                }
            }
        }
    }
    let it = IterOptions::new(tol, max_iter);
    println!("problem,type,n,solver,tolerance,status,iterations,error,seconds");
    for f in files {
        let Some(k) = kind(&f) else { continue };
        let name = f.file_name().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        let wanted = |s: &str| only.as_ref().is_none_or(|o| o.iter().any(|x| x == s));
        let is_h5 = f.extension().is_some_and(|e| e == "hdf5");
        if k == "gfc3d" {
            let p = match read_global(&f, is_h5) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    continue;
                }
            };
            for (s, _) in fc::global::GFC_SOLVERS {
                if !wanted(s) {
                    continue;
                }
                let solver = gfc_solver_by_name(s, it).expect("catalogue name");
                let mut times = Vec::new();
                let mut last = None;
                for _ in 0..3 {
                    let (mut r, mut u, mut v) = (vec![0.0; p.size()], vec![0.0; p.size()], vec![0.0; p.n_velocities()]);
                    let rep = fc::solve_global(&p, &mut r, &mut u, &mut v, &solver);
                    let stop = match &rep {
                        Ok(rep) => rep.elapsed.as_secs_f64() > 2.0,
                        Err(_) => true,
                    };
                    if let Ok(rep) = &rep {
                        times.push(rep.elapsed);
                    }
                    last = Some(rep);
                    if stop {
                        break;
                    }
                }
                match last {
                    Some(Ok(rep)) => println!(
                        "{name},{k},{},{s},{tol:e},{},{},{:.3e},{:.6}",
                        p.size(),
                        rep.status.as_str(),
                        rep.iterations,
                        rep.residual,
                        median(times)
                    ),
                    Some(Err(e)) => println!("{name},{k},{},{s},{tol:e},error,0,nan,nan  # {e}", p.size()),
                    None => {}
                }
            }
            continue;
        }
        let p = match read_local(&f, is_h5) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        for (s, _) in fc::SOLVERS {
            if !wanted(s) {
                continue;
            }
            let mut solver: FcSolver = fc::solver_by_name(s, it).expect("catalogue name");
            match &mut solver {
                FcSolver::Prox(o) => {
                    o.factorization = factorization.unwrap_or(o.factorization);
                    o.sparse_max_density = max_density.unwrap_or(o.sparse_max_density);
                }
                FcSolver::NewtonAc(o) => {
                    o.factorization = factorization.unwrap_or(o.factorization);
                    o.sparse_max_density = max_density.unwrap_or(o.sparse_max_density);
                }
                _ => {}
            }
            let is2 = matches!(solver, FcSolver::Nsgs2d(_) | FcSolver::Lemke2d(_));
            let only3 = matches!(
                solver,
                FcSolver::Prox(_)
                    | FcSolver::NewtonAc(_)
                    | FcSolver::NsgsFb(_)
                    | FcSolver::NsgsProj(_)
                    | FcSolver::NsgsAc(_)
            );
            if (p.dim() == 3 && is2) || (p.dim() == 2 && only3) {
                continue;
            }
            let mut times = Vec::new();
            let mut last = None;
            for _ in 0..3 {
                let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
                let rep = fc::solve(&p, &mut r, &mut u, &solver);
                let stop = match &rep {
                    Ok(rep) => rep.elapsed.as_secs_f64() > 2.0,
                    Err(_) => true,
                };
                if let Ok(rep) = &rep {
                    times.push(rep.elapsed);
                }
                last = Some(rep);
                if stop {
                    break;
                }
            }
            match last {
                Some(Ok(rep)) => println!(
                    "{name},{k},{},{s},{tol:e},{},{},{:.3e},{:.6}",
                    p.size(),
                    rep.status.as_str(),
                    rep.iterations,
                    rep.residual,
                    median(times)
                ),
                Some(Err(e)) => println!("{name},{k},{},{s},{tol:e},error,0,nan,nan  # {e}", p.size()),
                None => {}
            }
        }
    }
}
