//! Runs every problem of `integrator-test-problems.md` and prints CSV:
//! `problem,method,rtol,atol,steps,rejected,nfev,njev,switches,digits,seconds`.
//!
//! `cargo run --release -p saltus-numerics --example ivp_testset -- [--rtol R] [--method lsoda|adams|bdf|dopri5] [--problem NAME] [--fd] [--banded] [--repeat K] [--ybits]`
//!
//! nfev counts every RHS evaluation, including finite-difference Jacobian columns. `--fd`
//! forces finite-difference Jacobians (the default uses the analytic one where the problem
//! has it); `--banded` gives bruss1d its banded (ml = mu = 2) sparse Jacobian. `--ybits` also prints,
//! on stderr, the bit patterns of y(tf) per run (to check that a change is bitwise neutral). Without `--rtol`, runs rtol = 1e-4, 1e-6, 1e-8. `seconds` is the best of K runs.

#[path = "../tests/common/ode_problems.rs"]
mod problems;

use saltus_numerics::ode::{Integrator, JacobianKind, OdeMethod, OdeOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut rtols = vec![1e-4, 1e-6, 1e-8];
    let mut method = "lsoda".to_string();
    let mut only: Option<String> = None;
    let mut fd = false;
    let mut banded = false;
    let mut repeat = 1usize;
    let mut ybits = false;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--rtol" => {
                rtols = vec![args.get(i + 1).and_then(|s| s.parse().ok()).expect("--rtol needs a number")];
                i += 1;
            }
            "--method" => {
                method = args.get(i + 1).cloned().expect("--method needs a name");
                i += 1;
            }
            "--problem" => {
                only = args.get(i + 1).cloned();
                i += 1;
            }
            "--repeat" => {
                repeat = args.get(i + 1).and_then(|s| s.parse().ok()).expect("--repeat needs a count");
                i += 1;
            }
            "--fd" => fd = true,
            "--banded" => banded = true,
            "--ybits" => ybits = true,
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
        i += 1;
    }
    let m = match method.as_str() {
        "lsoda" => OdeMethod::Lsoda,
        "adams" => OdeMethod::Adams,
        "bdf" => OdeMethod::Bdf,
        "dopri5" => OdeMethod::Dopri5,
        _ => {
            eprintln!("unknown method {method}");
            std::process::exit(2);
        }
    };
    println!("problem,method,rtol,atol,steps,rejected,nfev,njev,switches,digits,seconds");
    for &rtol in &rtols {
        for name in problems::NAMES {
            if only.as_deref().is_some_and(|o| o != name) {
                continue;
            }
            let mut p = problems::problem(name);
            if fd {
                p.analytic_jac = false;
            }
            let atol = p.atol_ratio * rtol;
            let mut opts = OdeOptions::with_tol(rtol, atol);
            opts.method = m;
            if fd {
                opts.jacobian = JacobianKind::FiniteDifference;
            }
            if banded && name == "bruss1d" {
                opts.jacobian = JacobianKind::Banded { ml: 2, mu: 2 };
            }
            let mut best = f64::INFINITY;
            let mut line = String::new();
            for _ in 0..repeat {
                let start = std::time::Instant::now();
                let mut ode = match Integrator::new(p.clone(), 0.0, &p.y0, opts.clone()) {
                    Ok(o) => o,
                    Err(e) => {
                        eprintln!("{name}: {e}");
                        continue;
                    }
                };
                let res = ode.step_until(p.tf);
                let secs = start.elapsed().as_secs_f64();
                best = best.min(secs);
                let s = ode.stats();
                if ybits {
                    let bits: Vec<String> = ode.y().iter().map(|v| format!("{:016x}", v.to_bits())).collect();
                    eprintln!("{name},{rtol:e},{}", bits.join(" "));
                }
                let digits = match res {
                    Ok(_) => p.digits(ode.y()),
                    Err(e) => {
                        eprintln!("{name} rtol={rtol:e}: {e}");
                        f64::NAN
                    }
                };
                line = format!(
                    "{name},{method},{rtol:e},{atol:e},{},{},{},{},{},{digits:.2},",
                    s.steps, s.rejected, s.rhs_evals, s.jac_evals, s.switches
                );
            }
            println!("{line}{best:.6}");
        }
    }
}
