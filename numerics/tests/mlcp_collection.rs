//! Conformance over every Siconos MLCP file (`test_data_dir()/numerics/mlcp`): an expectation
//! per (file, solver) by name. `Solves` means status `Converged` with the Siconos MLCP error
//! <= 1e-8 (checked again here from z); `Refuses` means a typed error; `Skip` says why the pair
//! is not run. Every file of the folder must appear in the table. Skips with a printed reason
//! when the data is absent.

use saltus_numerics::io::test_data_dir;
use saltus_numerics::mlcp::{self, Mlcp};
use saltus_numerics::{IterOptions, NumericsError};

#[derive(Debug, Clone, Copy)]
enum Expect {
    Solves,
    Refuses,
    Skip(&'static str),
}
use Expect::*;

const TOL: f64 = 1e-8;

/// (file, [enum, pgs, newton-fb, lemke]).
const TABLE: &[(&str, [Expect; 4])] = &[
    ("Buck2_mlcp.dat", [Solves, Refuses, Solves, Solves]),
    ("BuckConverter_mlcp.dat", [Solves, Refuses, Solves, Solves]),
    ("BuckFirstStep_mlcp.dat", [Solves, Refuses, Solves, Solves]),
    ("PDSym_mlcp.dat", [Solves, Solves, Solves, Solves]),
    ("PD_mlcp.dat", [Solves, Refuses, Solves, Refuses]),
    ("RCD_mlcp.dat", [Solves, Refuses, Solves, Solves]),
    ("RLCD_mlcp.dat", [Solves, Refuses, Solves, Solves]),
    ("deltasigma_mlcp.dat", [Refuses, Refuses, Solves, Solves]),
    (
        "deltasigma2_mlcp.dat",
        [Refuses, Refuses, Skip("newton-fb stalls (line search) on this file; lemke solves it"), Solves],
    ),
    ("deudeu_mlcp.dat", [Solves, Solves, Solves, Solves]),
    ("diodeBridge_mlcp.dat", [Solves, Refuses, Solves, Refuses]),
    (
        "diodeBridge20_mlcp.dat",
        [Skip("enum visits ~1e6 active sets (seconds); run by the example"), Refuses, Solves, Refuses],
    ),
    ("diodeBridge40_mlcp.dat", [Refuses, Refuses, Solves, Refuses]),
    ("m2n1_mlcp.dat", [Solves, Solves, Solves, Solves]),
    ("m3n2_mlcp.dat", [Solves, Solves, Solves, Solves]),
    ("relay2_mlcp.dat", [Solves, Refuses, Solves, Solves]),
    ("relay3_mlcp.dat", [Solves, Refuses, Solves, Solves]),
];

/// Files no solver is run on, with the reason.
const UNREADABLE: &[(&str, &str)] =
    &[("Rectangular_mlcp.dat", "3x2 M: not an MLCP (Siconos's own collection leaves it out)")];

#[test]
fn every_mlcp_file_meets_its_expectation() {
    let Some(data) = test_data_dir() else {
        println!("skipped: no test data directory (set SALTUS_TEST_DATA)");
        return;
    };
    let dir = data.join("numerics/mlcp");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipped: {} is absent", dir.display());
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".dat"))
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for name in &names {
        let path = dir.join(name);
        if let Some((_, why)) = UNREADABLE.iter().find(|(n, _)| n == name) {
            match mlcp::read_mlcp_file(&path) {
                Err(NumericsError::NotSquare { .. }) => println!("{name}: refused as expected ({why})"),
                other => failures.push(format!("{name}: expected a NotSquare error, got {other:?}")),
            }
            continue;
        }
        let Some((_, expects)) = TABLE.iter().find(|(n, _)| n == name) else {
            failures.push(format!("{name}: not in the expectation table"));
            continue;
        };
        let p = match mlcp::read_mlcp_file(&path) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: unreadable: {e}"));
                continue;
            }
        };
        for ((sname, _), expect) in mlcp::SOLVERS.iter().zip(expects) {
            if let Err(f) = check(&p, sname, *expect) {
                failures.push(format!("{name} / {sname}: {f}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check(p: &Mlcp, sname: &str, expect: Expect) -> Result<(), String> {
    let solver = mlcp::solver_by_name(sname, IterOptions::new(TOL, 1000)).ok_or("unknown solver")?;
    let mut z = vec![0.0; p.size()];
    let mut w = vec![0.0; p.size()];
    let out = match expect {
        Skip(why) => {
            println!("skipped: {why}");
            return Ok(());
        }
        _ => mlcp::solve(p, &mut z, &mut w, &solver),
    };
    match (expect, out) {
        (Solves, Ok(r)) => {
            let e = mlcp::mlcp_error(p, &z);
            if r.status.converged() && e <= TOL && (e - r.residual).abs() <= 1e-12 * (1.0 + e) {
                Ok(())
            } else {
                Err(format!("expected to solve, got {r:?} (recomputed error {e:e})"))
            }
        }
        (Refuses, Err(_)) => Ok(()),
        (e, o) => Err(format!("expected {e:?}, got {o:?}")),
    }
}

#[test]
fn error_measure_matches_siconos_on_diode_bridge() {
    // Siconos 4.4 `mlcp_compute_error` of z = 0 on diodeBridge_mlcp.dat is 0.3327773144286906.
    let Some(data) = test_data_dir() else {
        println!("skipped: no test data directory");
        return;
    };
    let path = data.join("numerics/mlcp/diodeBridge_mlcp.dat");
    if !path.exists() {
        println!("skipped: {} is absent", path.display());
        return;
    }
    let p = mlcp::read_mlcp_file(&path).unwrap();
    assert!((mlcp::mlcp_error(&p, &vec![0.0; p.size()]) - 0.3327773144286906).abs() < 1e-15);
}
