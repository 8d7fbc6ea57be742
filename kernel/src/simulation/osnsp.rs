//! One-step nonsmooth problems (Siconos `OneStepNSProblem`): which problem the active
//! interactions form at each step, and which numerics solver answers it.

use super::assembly::{Assembly, Storage};
use crate::error::KernelError;
use crate::model::nslaw::NonSmoothLaw;
use crate::solvers::avi::{self, Avi, AviSolver, AviSolverState};
use crate::solvers::fc::{self, FcSolver, FcWorkspace, FrictionContact, GfcSolver};
use crate::solvers::gmp::{self, GenericMechanical, GmpBlock, GmpOptions};
use crate::solvers::lcp::{self, Lcp, LcpSolver, LcpSolverState};
use crate::solvers::mlcp::{self, Mlcp, MlcpSolver, MlcpSolverState};
use crate::solvers::relay::{self, Relay, RelaySolver, RelaySolverState};
use nalgebra::DMatrix;
use saltus_numerics::mlcp::linalg::{lu_factor, lu_solve, max_abs};
use saltus_numerics::{NumericsError, Operator, SolveReport, SolveStatus};
use std::mem::take;
use std::time::Instant;

/// The one-step problem and its solver.
#[derive(Debug, Clone, PartialEq)]
pub enum Osnsp {
    /// `w = M λ + q`, `0 ≤ w ⊥ λ ≥ 0` (Siconos `LCP`), for `ComplementarityConditionNSL` and
    /// `NewtonImpactNSL`.
    Lcp(LcpSolver),
    /// `M λ + q = 0` (Siconos `Equality`), for `EqualityConditionNSL`; solved by dense LU.
    Equality,
    /// `w = M λ + q`, `−w ∈ N_[lb, ub](λ)` (Siconos `Relay`), for `RelayNSL`.
    Relay(RelaySolver),
    /// Affine variational inequality (Siconos `AVI`): `w = M λ + q`, `λ ∈ P`, `−w ∈ N_P(λ)`,
    /// for `NormalConeNSL` and `RelayNSL`. `P` is the product of the active interactions'
    /// polyhedra (block-diagonal `H`; a relay's box is `[I; −I] λ ≥ [lb; −ub]`). Siconos's `AVI`
    /// takes a single interaction; here any number share one problem.
    Avi(AviSolver),
    /// Mixed problem (Siconos `MLCP`): equality rows (`EqualityConditionNSL`, the first rows of
    /// `MixedComplementarityConditionNSL`) with free `λ`, complementarity rows
    /// (`ComplementarityConditionNSL`, `NewtonImpactNSL`) with `0 ≤ w ⊥ λ ≥ 0`.
    Mlcp(MlcpSolver),
    /// Local friction-contact problem in dimension `dim` (Siconos `FrictionContact(dim)`):
    /// `u = W r + q`, Coulomb cone per contact with the De Saxcé velocity, for
    /// `NewtonImpactFrictionNSL` of the same dimension.
    FrictionContact {
        /// 2 or 3.
        dim: usize,
        /// The solver.
        solver: FcSolver,
    },
    /// Global friction-contact problem in dimension `dim` (Siconos
    /// `GlobalFrictionContact(dim)`), the one-step problem of [`crate::Osi::MoreauJeanGosi`]:
    /// `M v = q + Hᵀ r` with `M` the block-diagonal iteration matrices, `u = H v + b` with `b` the
    /// impact-law terms, Coulomb cone per contact; for `NewtonImpactFrictionNSL` of the same
    /// dimension. `M` and `H` stay separate: the solver condenses `W = H M⁻¹ Hᵀ` block-sparse
    /// ([`GfcSolver::Condensed`], Siconos `*_WR`) or never forms it ([`GfcSolver::Nsgs`]).
    GlobalFrictionContact {
        /// 2 or 3.
        dim: usize,
        /// The solver.
        solver: GfcSolver,
    },
    /// Generic mechanical problem (Siconos `GenericMechanical`): `w = W λ + q` with one block per
    /// active interaction of its own kind, equality rows (`EqualityConditionNSL`),
    /// complementarity rows (`ComplementarityConditionNSL`, `NewtonImpactNSL`), relay rows
    /// (`RelayNSL`, one block per row) and friction
    /// contacts (`NewtonImpactFrictionNSL`, 2D or 3D), solved by a block Gauss–Seidel calling the
    /// solver of each block's kind ([`saltus_numerics::gmp`]).
    GenericMechanical(GmpOptions),
}

impl Osnsp {
    /// Siconos class name.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Osnsp::Lcp(_) => "LCP",
            Osnsp::Equality => "Equality",
            Osnsp::Relay(_) => "Relay",
            Osnsp::Avi(_) => "AVI",
            Osnsp::Mlcp(_) => "MLCP",
            Osnsp::FrictionContact { .. } => "FrictionContact",
            Osnsp::GlobalFrictionContact { .. } => "GlobalFrictionContact",
            Osnsp::GenericMechanical(_) => "GenericMechanical",
        }
    }

    /// `true` when the solver needs a dense matrix: read from the solver's own declaration
    /// (`LcpSolver::needs_dense`, ...); the equality, MLCP and AVI problems are factored or
    /// pivoted dense.
    pub fn needs_dense(&self) -> bool {
        match self {
            Osnsp::Lcp(s) => s.needs_dense(),
            Osnsp::Relay(s) => s.needs_dense(),
            Osnsp::Equality | Osnsp::Mlcp(_) | Osnsp::Avi(_) => true,
            Osnsp::FrictionContact { solver, .. } => solver.needs_dense(),
            Osnsp::GlobalFrictionContact { .. } | Osnsp::GenericMechanical(_) => false,
        }
    }

    /// `Ok` if an interaction with `law` can enter this problem (with `lagrangian` systems or not).
    pub fn accepts(&self, law: &NonSmoothLaw, lagrangian: bool) -> Result<(), String> {
        let ok = match self {
            Osnsp::Lcp(_) => match law {
                NonSmoothLaw::ComplementarityCondition { .. } => true,
                NonSmoothLaw::NewtonImpact { .. } => lagrangian,
                _ => false,
            },
            Osnsp::Equality => matches!(law, NonSmoothLaw::EqualityCondition { .. }),
            Osnsp::Relay(_) => matches!(law, NonSmoothLaw::Relay { .. }),
            Osnsp::Avi(_) => matches!(law, NonSmoothLaw::NormalCone { .. } | NonSmoothLaw::Relay { .. }),
            Osnsp::FrictionContact { dim, .. } | Osnsp::GlobalFrictionContact { dim, .. } => {
                matches!(law, NonSmoothLaw::NewtonImpactFriction { dim: d, .. } if d == dim) && lagrangian
            }
            Osnsp::GenericMechanical(_) => match law {
                NonSmoothLaw::EqualityCondition { .. }
                | NonSmoothLaw::ComplementarityCondition { .. }
                | NonSmoothLaw::Relay { .. } => true,
                NonSmoothLaw::NewtonImpact { .. } | NonSmoothLaw::NewtonImpactFriction { .. } => lagrangian,
                _ => false,
            },
            Osnsp::Mlcp(_) => match law {
                NonSmoothLaw::EqualityCondition { .. }
                | NonSmoothLaw::ComplementarityCondition { .. }
                | NonSmoothLaw::MixedComplementarityCondition { .. } => true,
                NonSmoothLaw::NewtonImpact { .. } => lagrangian,
                _ => false,
            },
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "{} cannot be solved by the one-step problem {}{}",
                law.kind_name(),
                self.kind_name(),
                if lagrangian { "" } else { " with first-order systems" }
            ))
        }
    }

    /// Validates the solver options.
    pub fn validate(&self) -> Result<(), KernelError> {
        match self {
            Osnsp::Lcp(s) => s.validate(),
            Osnsp::Relay(s) => s.validate(),
            Osnsp::Avi(s) => s.validate(),
            Osnsp::Mlcp(s) => s.validate(),
            Osnsp::Equality => Ok(()),
            Osnsp::FrictionContact { dim, .. } if *dim != 2 && *dim != 3 => Err(NumericsError::InvalidOption {
                option: "dim",
                reason: format!("friction contact dimension {dim} must be 2 or 3"),
            }),
            Osnsp::FrictionContact { .. } => Ok(()),
            Osnsp::GlobalFrictionContact { dim, .. } if *dim != 2 && *dim != 3 => Err(NumericsError::InvalidOption {
                option: "dim",
                reason: format!("global friction contact dimension {dim} must be 2 or 3"),
            }),
            Osnsp::GlobalFrictionContact { solver: GfcSolver::Nsgs(o), .. } => o.validate(),
            Osnsp::GlobalFrictionContact { .. } => Ok(()),
            Osnsp::GenericMechanical(o) => o.validate(),
        }
        .map_err(|e| KernelError::InvalidOption { option: "osnsp solver", reason: e.to_string() })
    }
}

/// What to do when the one-step solver (or the Newton loop) does not converge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnNonConvergence {
    /// Keep the (finite) answer and report the status in the [`crate::StepReport`] (Siconos's
    /// behaviour, minus the warning).
    #[default]
    Accept,
    /// Return [`KernelError::NotConverged`] / [`KernelError::NewtonNotConverged`]; the state is
    /// left at the previous step.
    Fail,
}

/// Options of the one-step problem (the solver's own options live in [`Osnsp`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OsnspOptions {
    /// Matrix storage.
    pub storage: Storage,
    /// With [`Storage::Auto`], problems with more rows than this use sparse block storage
    /// (unless the solver needs a dense matrix).
    pub sparse_threshold: usize,
    /// Start from the previous step's `λ` (interactions newly active start from 0). The
    /// solver's own `warm_start` option decides whether it uses that start.
    pub warm_start: bool,
    /// Policy on non-convergence.
    pub on_non_convergence: OnNonConvergence,
}

impl Default for OsnspOptions {
    fn default() -> Self {
        OsnspOptions {
            storage: Storage::Auto,
            sparse_threshold: 64,
            warm_start: true,
            on_non_convergence: OnNonConvergence::Accept,
        }
    }
}

impl OsnspOptions {
    /// `true` if a problem of size `n` solved by `osnsp` is stored sparse.
    pub fn sparse_for(&self, osnsp: &Osnsp, n: usize) -> bool {
        match self.storage {
            Storage::Dense => false,
            Storage::SparseBlock => !osnsp.needs_dense(),
            Storage::Auto => !osnsp.needs_dense() && n > self.sparse_threshold,
        }
    }
}

/// Solver workspaces kept across steps, and the per-row data of the active problem. Every
/// buffer is reused, so a step with a stable active set does not allocate.
#[derive(Default)]
pub(crate) struct OsnspState {
    lcp: LcpSolverState,
    relay: RelaySolverState,
    avi: AviSolverState,
    mlcp: MlcpSolverState,
    fc: FcWorkspace,
    /// Relay bounds of the active rows.
    pub lb: Vec<f64>,
    pub ub: Vec<f64>,
    /// AVI: the polyhedron `H λ ≥ K` of the active rows (block diagonal over the interactions).
    pub poly_h: DMatrix<f64>,
    pub poly_k: Vec<f64>,
    /// MLCP: `perm[i]` = problem row placed at MLCP row `i` (equality rows first), and `n_eq`.
    pub perm: Vec<usize>,
    pub n_eq: usize,
    /// Friction coefficients of the active contacts.
    pub mu: Vec<f64>,
    /// Blocks of the generic mechanical problem, one per active interaction.
    pub gmp: Vec<GmpBlock>,
    /// The permuted MLCP (matrix, `q`, `z`, `w`), or the LU factors and pivots of the
    /// Equality problem (in `dense` and `piv`).
    dense: DMatrix<f64>,
    qp: Vec<f64>,
    zp: Vec<f64>,
    wp: Vec<f64>,
    piv: Vec<usize>,
}

/// Solves the assembled problem in `asm` (`op`, `q`, warm start in `z`); `(z, w)` hold the answer.
/// The problem types own their data, so `op`, `q` and the row data are moved in and moved back.
pub(crate) fn solve(osnsp: &Osnsp, asm: &mut Assembly, st: &mut OsnspState) -> Result<SolveReport, NumericsError> {
    let Some(op) = asm.op.take() else {
        return Err(NumericsError::DimensionMismatch { what: "one-step problem matrix", expected: asm.n, found: 0 });
    };
    match osnsp {
        Osnsp::Lcp(solver) => {
            let problem = Lcp::new(op, take(&mut asm.q))?;
            let res = lcp::solve_with(&mut st.lcp, &problem, &mut asm.z, &mut asm.w, solver);
            (asm.op, asm.q) = {
                let (op, q) = problem.into_parts();
                (Some(op), q)
            };
            res
        }
        Osnsp::Relay(solver) => {
            let problem = Relay::new(op, take(&mut asm.q), take(&mut st.lb), take(&mut st.ub))?;
            let res = relay::solve_with(&mut st.relay, &problem, &mut asm.z, &mut asm.w, solver);
            let (op, q, lb, ub) = problem.into_parts();
            (asm.op, asm.q, st.lb, st.ub) = (Some(op), q, lb, ub);
            res
        }
        Osnsp::Avi(solver) => {
            let problem = Avi::new(op, take(&mut asm.q), take(&mut st.poly_h), take(&mut st.poly_k))?;
            let res = avi::solve_with(&mut st.avi, &problem, &mut asm.z, &mut asm.w, solver);
            let (op, q, h, k) = problem.into_parts();
            (asm.op, asm.q, st.poly_h, st.poly_k) = (Some(op), q, h, k);
            res
        }
        Osnsp::FrictionContact { dim, solver } => {
            let problem = FrictionContact::new(*dim, op, take(&mut asm.q), take(&mut st.mu))?;
            let res = fc::solve_with_workspace(&mut st.fc, &problem, &mut asm.z, &mut asm.w, solver);
            let (op, q, mu) = problem.into_parts();
            (asm.op, asm.q, st.mu) = (Some(op), q, mu);
            res
        }
        Osnsp::Mlcp(solver) => {
            let res = solve_mlcp(solver, &op, asm, st);
            asm.op = Some(op);
            res
        }
        Osnsp::Equality => {
            let res = solve_equality(&op, asm, st);
            asm.op = Some(op);
            res
        }
        Osnsp::GenericMechanical(o) => {
            let problem = GenericMechanical::new(op, take(&mut asm.q), take(&mut st.gmp))?;
            let res = gmp::solve(&problem, &mut asm.z, &mut asm.w, o);
            let (op, q, blocks) = problem.into_parts();
            (asm.op, asm.q, st.gmp) = (Some(op), q, blocks);
            res
        }
        Osnsp::GlobalFrictionContact { .. } => {
            asm.op = Some(op);
            Err(NumericsError::Unsupported {
                solver: "GlobalFrictionContact",
                what: "a condensed matrix (the global problem is solved by the MoreauJeanGOSI step)".into(),
            })
        }
    }
}

/// The polyhedron of the active rows for the AVI: for each active interaction (its row offset
/// and law), the rows of its `H` placed at its columns, and its `K`. Row data of the other
/// problems is left alone.
pub(crate) fn fill_polyhedron<'a>(
    st: &mut OsnspState,
    n: usize,
    laws: impl Iterator<Item = (usize, &'a NonSmoothLaw)>,
) {
    let blocks: Vec<_> = laws.filter_map(|(off, law)| law.polyhedron().map(|p| (off, p))).collect();
    let rows = blocks.iter().map(|(_, (h, _))| h.nrows()).sum();
    st.poly_h = DMatrix::zeros(rows, n);
    st.poly_k.clear();
    let mut r = 0;
    for (off, (h, k)) in blocks {
        st.poly_h.view_mut((r, off), h.shape()).copy_from(&h);
        st.poly_k.extend(k.iter());
        r += h.nrows();
    }
}

/// The matrix of `op` (dense view; block storage is converted, which allocates).
fn with_dense<R>(op: &Operator, f: impl FnOnce(&DMatrix<f64>) -> R) -> R {
    match op {
        Operator::Dense(m) => f(m),
        Operator::BlockCsr(b) => f(&b.to_dense()),
    }
}

/// MLCP: rows permuted so that the equality rows come first (`st.perm`), solved, and the
/// answer permuted back.
fn solve_mlcp(
    solver: &MlcpSolver,
    op: &Operator,
    asm: &mut Assembly,
    st: &mut OsnspState,
) -> Result<SolveReport, NumericsError> {
    let n = asm.n;
    let perm = &st.perm;
    let mut mp = take(&mut st.dense);
    if mp.shape() != (n, n) {
        mp = DMatrix::zeros(n, n);
    }
    with_dense(op, |m| {
        for j in 0..n {
            for i in 0..n {
                mp[(i, j)] = m[(perm[i], perm[j])];
            }
        }
    });
    let mut qp = take(&mut st.qp);
    qp.clear();
    qp.extend(perm.iter().map(|&i| asm.q[i]));
    st.zp.clear();
    st.zp.extend(perm.iter().map(|&i| asm.z[i]));
    st.wp.clear();
    st.wp.resize(n, 0.0);
    let problem = Mlcp::new(mp, qp, st.n_eq)?;
    let res = mlcp::solve_with(&mut st.mlcp, &problem, &mut st.zp, &mut st.wp, solver);
    (st.dense, st.qp) = problem.into_parts();
    for (k, &i) in st.perm.iter().enumerate() {
        asm.z[i] = st.zp[k];
        asm.w[i] = st.wp[k];
    }
    res
}

/// Equality: `M λ + q = 0` by LU with partial pivoting; `w = M λ + q` is the residual.
fn solve_equality(op: &Operator, asm: &mut Assembly, st: &mut OsnspState) -> Result<SolveReport, NumericsError> {
    let start = Instant::now();
    let n = asm.n;
    if st.dense.shape() != (n, n) {
        st.dense = DMatrix::zeros(n, n);
    }
    with_dense(op, |m| st.dense.copy_from(m));
    st.piv.clear();
    st.piv.resize(n, 0);
    let a = st.dense.as_mut_slice();
    let tiny = 1e-14 * max_abs(a);
    lu_factor(a, n, &mut st.piv, tiny)
        .map_err(|k| NumericsError::Singular { what: "Equality problem matrix", index: k })?;
    for (z, q) in asm.z.iter_mut().zip(&asm.q) {
        *z = -q;
    }
    lu_solve(st.dense.as_slice(), n, &st.piv, &mut asm.z);
    asm.w.copy_from_slice(&asm.q);
    op.matvec_add(1.0, &asm.z, &mut asm.w);
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let residual = norm(&asm.w) / (1.0 + norm(&asm.q));
    Ok(SolveReport { status: SolveStatus::Converged, iterations: 1, residual, elapsed: start.elapsed() })
}
