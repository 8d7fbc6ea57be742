//! One entry point over every problem family, for the `saltus solve` command and the collection
//! benchmarks: read a Siconos `.dat` file of any family, list the solvers, solve by name.

use crate::error::{NumericsError, Result};
use crate::report::{IterOptions, SolveReport};
use crate::{fc, lcp, mlcp, qp, relay};
use std::path::Path;
use std::time::Duration;

/// The problem families that have a file format (`Ncp`, `Mcp` and `Vi`: the XML problem files
/// of the runtime, whose `F` comes from a plugin; the others: Siconos `.dat` and FCLib files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProblemKind {
    /// Linear complementarity problem.
    Lcp,
    /// Mixed linear complementarity problem.
    Mlcp,
    /// Relay (box-constrained) LCP.
    Relay,
    /// Convex QP (over Coulomb cones in the Siconos files; dense polyhedral QPs have no file).
    Qp,
    /// 2D friction contact, local (reduced) formulation.
    Fc2d,
    /// 3D friction contact, local (reduced) formulation.
    Fc3d,
    /// Friction contact, global formulation (`M v = H r + f`), 3D or 2D.
    Gfc3d,
    /// Rolling friction contact, local formulation (Siconos `RollingFrictionContactProblem`:
    /// 5 unknowns per contact in 3D, 3 in 2D).
    Rfc3d,
    /// Nonlinear complementarity problem with a user function ([`crate::cp`]).
    Ncp,
    /// Mixed complementarity problem with a user function ([`crate::cp`]).
    Mcp,
    /// Variational inequality on a box or a ball with a user function ([`crate::cp`]).
    Vi,
}

impl ProblemKind {
    /// Every kind, in catalogue order.
    pub const ALL: &'static [ProblemKind] = &[
        ProblemKind::Lcp,
        ProblemKind::Mlcp,
        ProblemKind::Relay,
        ProblemKind::Qp,
        ProblemKind::Fc2d,
        ProblemKind::Fc3d,
        ProblemKind::Gfc3d,
        ProblemKind::Rfc3d,
        ProblemKind::Ncp,
        ProblemKind::Mcp,
        ProblemKind::Vi,
    ];

    /// The lower-case name used on the command line and in CSV output.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Lcp => "lcp",
            ProblemKind::Mlcp => "mlcp",
            ProblemKind::Relay => "relay",
            ProblemKind::Qp => "qp",
            ProblemKind::Fc2d => "fc2d",
            ProblemKind::Fc3d => "fc3d",
            ProblemKind::Gfc3d => "gfc3d",
            ProblemKind::Rfc3d => "rfc3d",
            ProblemKind::Ncp => "ncp",
            ProblemKind::Mcp => "mcp",
            ProblemKind::Vi => "vi",
        }
    }

    /// The kind called `name` (as printed by [`ProblemKind::as_str`]).
    pub fn from_name(name: &str) -> Option<ProblemKind> {
        Self::ALL.iter().copied().find(|k| k.as_str() == name)
    }

    /// The (CLI name, description) catalogue of this family's solvers.
    pub fn solvers(self) -> &'static [(&'static str, &'static str)] {
        match self {
            ProblemKind::Lcp => lcp::SOLVERS,
            ProblemKind::Mlcp => mlcp::SOLVERS,
            ProblemKind::Relay => relay::SOLVERS,
            ProblemKind::Qp => qp::SOLVERS,
            ProblemKind::Fc2d => fc::SOLVERS_2D,
            ProblemKind::Fc3d => fc::SOLVERS_3D,
            ProblemKind::Gfc3d => fc::GFC_SOLVERS,
            ProblemKind::Rfc3d => fc::rolling::SOLVERS,
            ProblemKind::Ncp | ProblemKind::Mcp | ProblemKind::Vi => crate::cp::SOLVERS,
        }
    }

    /// Guesses the family of a problem file from its folder (`lcp/`, `mlcp/`, `relay/`, `qp/`, as
    /// in the Siconos test data) or, failing that, from its file name.
    pub fn guess(path: &Path) -> Option<ProblemKind> {
        let folder = path.parent().and_then(|p| p.file_name()).and_then(|s| s.to_str()).unwrap_or("");
        if let Some(k) = Self::from_name(folder) {
            return Some(k);
        }
        if folder == "fc3d-global" || folder == "fc2d-global" {
            return Some(ProblemKind::Gfc3d);
        }
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("").to_ascii_lowercase();
        [
            ("rfc", ProblemKind::Rfc3d),
            ("gfc", ProblemKind::Gfc3d),
            ("fc2d", ProblemKind::Fc2d),
            ("fc3d", ProblemKind::Fc3d),
            ("frictioncontact3d", ProblemKind::Fc3d),
            ("mlcp", ProblemKind::Mlcp),
            ("relay", ProblemKind::Relay),
            ("lcp", ProblemKind::Lcp),
            ("qp", ProblemKind::Qp),
        ]
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix) || name.contains(&format!("_{prefix}")))
        .map(|&(_, k)| k)
    }
}

/// A problem of any family.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Problem {
    /// See [`lcp::Lcp`].
    Lcp(lcp::Lcp),
    /// See [`mlcp::Mlcp`].
    Mlcp(mlcp::Mlcp),
    /// See [`relay::Relay`].
    Relay(relay::Relay),
    /// See [`qp::ConvexQp`].
    Qp(qp::ConvexQp),
    /// See [`fc::FrictionContact`] (2D or 3D).
    Fc(fc::FrictionContact),
    /// See [`fc::GlobalFrictionContact`].
    Gfc(fc::GlobalFrictionContact),
    /// See [`fc::rolling::RollingFrictionContact`] (3D or 2D).
    Rfc(fc::rolling::RollingFrictionContact),
}

impl Problem {
    /// Its family.
    pub fn kind(&self) -> ProblemKind {
        match self {
            Problem::Lcp(_) => ProblemKind::Lcp,
            Problem::Mlcp(_) => ProblemKind::Mlcp,
            Problem::Relay(_) => ProblemKind::Relay,
            Problem::Qp(_) => ProblemKind::Qp,
            Problem::Fc(p) if p.dim() == 2 => ProblemKind::Fc2d,
            Problem::Fc(_) => ProblemKind::Fc3d,
            Problem::Gfc(_) => ProblemKind::Gfc3d,
            Problem::Rfc(_) => ProblemKind::Rfc3d,
        }
    }

    /// Number of unknowns.
    pub fn size(&self) -> usize {
        match self {
            Problem::Lcp(p) => p.size(),
            Problem::Mlcp(p) => p.size(),
            Problem::Relay(p) => p.size(),
            Problem::Qp(p) => p.size(),
            Problem::Fc(p) => p.size(),
            Problem::Gfc(p) => p.size(),
            Problem::Rfc(p) => p.size(),
        }
    }
}

/// Reads a problem file; `kind` overrides [`ProblemKind::guess`].
pub fn read_problem(path: &Path, kind: Option<ProblemKind>) -> Result<Problem> {
    let kind = kind.or_else(|| ProblemKind::guess(path)).ok_or_else(|| NumericsError::Parse {
        line: 1,
        column: 1,
        message: "cannot tell the problem type from the folder or file name; give it with --type".into(),
    })?;
    if path.extension().and_then(|e| e.to_str()) == Some("hdf5") {
        return read_fclib(path, kind);
    }
    let text = crate::io::read_text(path)?;
    let p = match kind {
        ProblemKind::Lcp => Problem::Lcp(lcp::read_lcp(&text)?),
        ProblemKind::Mlcp => Problem::Mlcp(mlcp::read_mlcp(&text)?),
        ProblemKind::Relay => Problem::Relay(relay::read_relay(&text)?),
        ProblemKind::Qp => Problem::Qp(qp::read_convex_qp(&text)?),
        ProblemKind::Fc2d | ProblemKind::Fc3d => Problem::Fc(fc::read_fc(&text)?),
        ProblemKind::Gfc3d => Problem::Gfc(fc::read_gfc(&text)?),
        ProblemKind::Rfc3d => Problem::Rfc(fc::rolling::read_rfc(&text)?),
        ProblemKind::Ncp | ProblemKind::Mcp | ProblemKind::Vi => return Err(user_function_kind(kind)),
    };
    check_kind(p, kind)
}

/// A local problem read for `fc2d` must be 2D, for `fc3d` 3D.
fn check_kind(p: Problem, kind: ProblemKind) -> Result<Problem> {
    if matches!(kind, ProblemKind::Fc2d | ProblemKind::Fc3d) && p.kind() != kind {
        return Err(NumericsError::Parse {
            line: 1,
            column: 1,
            message: format!("the file holds a {} problem, not {}", p.kind().as_str(), kind.as_str()),
        });
    }
    Ok(p)
}

/// An NCP, MCP or VI has a user function: no `.dat` or FCLib form.
fn user_function_kind(kind: ProblemKind) -> NumericsError {
    NumericsError::Unsupported {
        solver: "reader",
        what: format!(
            "{} problems in .dat or FCLib files: they have a user function F, given in an XML problem file (root <Problem>)",
            kind.as_str()
        ),
    }
}

fn read_fclib(path: &Path, kind: ProblemKind) -> Result<Problem> {
    let p = match kind {
        ProblemKind::Ncp | ProblemKind::Mcp | ProblemKind::Vi => return Err(user_function_kind(kind)),
        ProblemKind::Gfc3d => Problem::Gfc(fc::read_fclib_global(path)?),
        ProblemKind::Rfc3d => {
            return Err(NumericsError::Unsupported {
                solver: "reader",
                what: "rolling friction-contact problems in FCLib HDF5 files (FCLib has no rolling format)".into(),
            })
        }
        _ => Problem::Fc(fc::read_fclib_local(path)?),
    };
    check_kind(p, kind)
}

/// The answer of a [`solve`]: the report, the named solution vectors (`z`, `w` for LCP, MLCP and
/// Relay; `x` for QP; `r`, `u` (and `v` for the global form) for friction contact), and the median wall time of the repeated solves.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The report of the last solve.
    pub report: SolveReport,
    /// Solution vectors by name.
    pub vectors: Vec<(&'static str, Vec<f64>)>,
    /// Median of the solve times.
    pub median: Duration,
}

/// The error for a solver name that `kind` does not have (the known names listed).
pub fn unknown_solver(kind: ProblemKind, name: &str) -> NumericsError {
    let names: Vec<&str> = kind.solvers().iter().map(|s| s.0).collect();
    NumericsError::InvalidOption {
        option: "solver",
        reason: format!("no {} solver `{name}` (known: {})", kind.as_str(), names.join(", ")),
    }
}

/// The median of repeated solve times (the upper one of an even count; zero for none).
pub fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// Solves `problem` from a cold start with the solver called `solver`, `repeats` times (at least
/// once), and returns the last answer with the median time. Each repeat starts from zero, so the
/// times measure the same work.
pub fn solve(problem: &Problem, solver: &str, it: IterOptions, repeats: usize) -> Result<Outcome> {
    it.validate()?;
    let kind = problem.kind();
    let n = problem.size();
    let mut times = Vec::with_capacity(repeats.max(1));
    let mut last = None;
    for _ in 0..repeats.max(1) {
        let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
        let mut v = Vec::new();
        let report = match problem {
            Problem::Lcp(p) => lcp::solve(
                p,
                &mut a,
                &mut b,
                &lcp::solver_by_name(solver, it).ok_or_else(|| unknown_solver(kind, solver))?,
            )?,
            Problem::Mlcp(p) => mlcp::solve(
                p,
                &mut a,
                &mut b,
                &mlcp::solver_by_name(solver, it).ok_or_else(|| unknown_solver(kind, solver))?,
            )?,
            Problem::Relay(p) => relay::solve(
                p,
                &mut a,
                &mut b,
                &relay::solver_by_name(solver, it).ok_or_else(|| unknown_solver(kind, solver))?,
            )?,
            Problem::Qp(p) => qp::solve_convex_qp(
                p,
                &mut a,
                &qp::solver_by_name(solver, it).ok_or_else(|| unknown_solver(kind, solver))?,
            )?,
            Problem::Fc(p) => {
                if !kind.solvers().iter().any(|s| s.0 == solver) {
                    return Err(unknown_solver(kind, solver));
                }
                fc::solve(
                    p,
                    &mut a,
                    &mut b,
                    &fc::solver_by_name(solver, it).ok_or_else(|| unknown_solver(kind, solver))?,
                )?
            }
            Problem::Gfc(p) => {
                v = vec![0.0; p.n_velocities()];
                fc::solve_global(
                    p,
                    &mut a,
                    &mut b,
                    &mut v,
                    &fc::gfc_solver_by_name(solver, it).ok_or_else(|| unknown_solver(kind, solver))?,
                )?
            }
            Problem::Rfc(p) => fc::rolling::solve(
                p,
                &mut a,
                &mut b,
                &fc::rolling::solver_by_name(solver, it).ok_or_else(|| unknown_solver(kind, solver))?,
            )?,
        };
        times.push(report.elapsed);
        last = Some((report, a, b, v));
    }
    let median = median(&mut times);
    let (report, a, b, v) =
        last.ok_or_else(|| NumericsError::InvalidOption { option: "repeats", reason: "no solve ran".into() })?;
    let vectors = match kind {
        ProblemKind::Qp => vec![("x", a)],
        ProblemKind::Fc2d | ProblemKind::Fc3d | ProblemKind::Rfc3d => vec![("r", a), ("u", b)],
        ProblemKind::Gfc3d => vec![("r", a), ("u", b), ("v", v)],
        _ => vec![("z", a), ("w", b)],
    };
    Ok(Outcome { report, vectors, median })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_catalogue() {
        for &k in ProblemKind::ALL {
            assert_eq!(ProblemKind::from_name(k.as_str()), Some(k));
            assert!(!k.solvers().is_empty());
        }
        assert_eq!(ProblemKind::guess(Path::new("data/lcp/x.dat")), Some(ProblemKind::Lcp));
        assert_eq!(ProblemKind::guess(Path::new("somewhere/mlcp_deudeu.dat")), Some(ProblemKind::Mlcp));
        assert_eq!(ProblemKind::guess(Path::new("x/y.dat")), None);
        assert_eq!(ProblemKind::guess(Path::new("d/fc3d-global/GFC3D_Example1.dat")), Some(ProblemKind::Gfc3d));
        // The combined friction catalogue is exactly the 3D list then the 2D list.
        let both: Vec<_> = fc::SOLVERS_3D.iter().chain(fc::SOLVERS_2D).collect();
        assert_eq!(both, fc::SOLVERS.iter().collect::<Vec<_>>());
    }

    #[test]
    fn solves_a_small_lcp_by_name() {
        let m = nalgebra::DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let p = Problem::Lcp(lcp::Lcp::new(m.into(), vec![-5.0, -6.0]).unwrap());
        for (name, _) in lcp::SOLVERS {
            let o = solve(&p, name, IterOptions::new(1e-10, 1000), 3).unwrap();
            assert!(o.report.status.converged(), "{name}: {:?}", o.report);
            let z = &o.vectors[0].1;
            // z = M⁻¹(-q) = (4/3, 7/3), both positive so w = 0.
            assert!((z[0] - 4.0 / 3.0).abs() < 1e-8 && (z[1] - 7.0 / 3.0).abs() < 1e-8, "{name}: {z:?}");
        }
        assert!(matches!(solve(&p, "nope", IterOptions::default(), 1), Err(NumericsError::InvalidOption { .. })));
    }
}
