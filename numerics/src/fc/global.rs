//! Global friction contact `M v = H r + q`, `u = Hᵀ v + b`, same cone conditions on `(u, r)`.
//!
//! Solved by condensation: a sparse LU of `M` (faer) gives the equivalent local problem
//! `W = Hᵀ M⁻¹ H`, `q_loc = Hᵀ M⁻¹ q + b`, which any local solver handles; then
//! `v = M⁻¹ (H r + q)`. The error of a global solution is the canonical error of that
//! equivalent local problem at `r` ([`gfc_error`]).

use super::block_diag::BlockDiagSystem;
use super::sparse_lu::SparseLu;
use super::{solve as solve_local, FcSolver, FrictionContact, NewtonOptions, NsgsOptions, ProxOptions};
use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::io::RawMatrix;
use crate::matrix::{BlockCsr, Operator};
use crate::report::{IterOptions, SolveReport};
use nalgebra::DMatrix;

/// A sparse matrix as (row, column, value) entries; duplicates are summed.
#[derive(Debug, Clone, PartialEq)]
pub struct Triplets {
    /// Rows.
    pub nrows: usize,
    /// Columns.
    pub ncols: usize,
    /// Entries.
    pub entries: Vec<(usize, usize, f64)>,
}

impl Triplets {
    /// From any stored matrix (dense entries that are exactly zero are dropped).
    pub fn from_raw(m: &RawMatrix) -> Self {
        let (nrows, ncols) = (m.nrows(), m.ncols());
        let mut entries = Vec::new();
        match m {
            RawMatrix::Dense(d) => {
                for j in 0..ncols {
                    for i in 0..nrows {
                        if d[(i, j)] != 0.0 {
                            entries.push((i, j, d[(i, j)]));
                        }
                    }
                }
            }
            RawMatrix::Sbm(b) => push_blocks(b, &mut entries),
            RawMatrix::Sparse { entries: e, .. } => entries = e.clone(),
        }
        Triplets { nrows, ncols, entries }
    }
    /// `y += A x`.
    pub fn matvec_add(&self, x: &[f64], y: &mut [f64]) {
        for &(i, j, v) in &self.entries {
            y[i] += v * x[j];
        }
    }
    /// `y += Aᵀ x`.
    pub fn tr_matvec_add(&self, x: &[f64], y: &mut [f64]) {
        for &(i, j, v) in &self.entries {
            y[j] += v * x[i];
        }
    }
}

fn push_blocks(b: &BlockCsr, out: &mut Vec<(usize, usize, f64)>) {
    let (rs, cs) = (b.row_starts(), b.col_starts());
    for r in 0..b.n_block_rows() {
        let h = rs[r + 1] - rs[r];
        for k in b.row_blocks(r) {
            let c = b.block_col(k);
            let w = cs[c + 1] - cs[c];
            let vals = b.block_values(k);
            for jj in 0..w {
                for ii in 0..h {
                    let v = vals[ii + jj * h];
                    if v != 0.0 {
                        out.push((rs[r] + ii, cs[c] + jj, v));
                    }
                }
            }
        }
    }
}

/// The checks of a global problem's data: `M` square `n × n`, `H` `n × (dim · nc)`, `q` of `n`,
/// `b` of `dim · nc` entries, every entry finite and inside its matrix.
pub(crate) fn check_global_data(dim: usize, nc: usize, m: &Triplets, h: &Triplets, q: &[f64], b: &[f64]) -> Result<()> {
    if m.nrows != m.ncols {
        return Err(NumericsError::NotSquare { what: "M", rows: m.nrows, cols: m.ncols });
    }
    check_len("rows of H", m.nrows, h.nrows)?;
    check_len("columns of H (dim × contacts)", dim * nc, h.ncols)?;
    check_len("q", m.nrows, q.len())?;
    check_len("b", h.ncols, b.len())?;
    for (what, t) in [("M", m), ("H", h)] {
        if let Some(index) = t.entries.iter().position(|e| !e.2.is_finite() || e.0 >= t.nrows || e.1 >= t.ncols) {
            return Err(NumericsError::NonFinite { what, index });
        }
    }
    check_finite("q", q)?;
    check_finite("b", b)
}

/// The global problem `M v = H r + q`, `u = Hᵀ v + b`, `K_α ∋ r_α ⟂ û_α ∈ K_α*`.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalFrictionContact {
    dim: usize,
    m: Triplets,
    h: Triplets,
    q: Vec<f64>,
    b: Vec<f64>,
    mu: Vec<f64>,
}

impl GlobalFrictionContact {
    /// Checks sizes (`M` n×n, `H` n×(d·nc), `q` n, `b` d·nc) and finiteness.
    pub fn new(dim: usize, m: Triplets, h: Triplets, q: Vec<f64>, b: Vec<f64>, mu: Vec<f64>) -> Result<Self> {
        if dim != 2 && dim != 3 {
            return Err(NumericsError::InvalidOption { option: "dim", reason: format!("must be 2 or 3, got {dim}") });
        }
        check_global_data(dim, mu.len(), &m, &h, &q, &b)?;
        check_finite("mu", &mu)?;
        Ok(GlobalFrictionContact { dim, m, h, q, b, mu })
    }
    /// From matrices as read from a file.
    pub fn from_raw(dim: usize, m: RawMatrix, h: RawMatrix, q: Vec<f64>, b: Vec<f64>, mu: Vec<f64>) -> Result<Self> {
        Self::new(dim, Triplets::from_raw(&m), Triplets::from_raw(&h), q, b, mu)
    }
    /// Contact dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }
    /// Number of generalized velocities `n`.
    pub fn n_velocities(&self) -> usize {
        self.q.len()
    }
    /// Number of contacts.
    pub fn n_contacts(&self) -> usize {
        self.mu.len()
    }
    /// Number of contact unknowns `d · nc`.
    pub fn size(&self) -> usize {
        self.b.len()
    }
    /// `M`.
    pub fn m(&self) -> &Triplets {
        &self.m
    }
    /// `H` (n × d·nc).
    pub fn h(&self) -> &Triplets {
        &self.h
    }
    /// `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// `b`.
    pub fn b(&self) -> &[f64] {
        &self.b
    }
    /// Friction coefficients.
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }

    /// Factorizes `M` and builds the equivalent local problem (see `Condensation::new`).
    pub fn condense(&self) -> Result<Condensed> {
        let (c, w, qloc) = Condensation::new(self.dim, &self.m, &self.h, &self.q, &self.b)?;
        let local = FrictionContact::new(self.dim, w, qloc, self.mu.clone())?;
        Ok(Condensed { local, condensation: c })
    }
}

/// `M` factorized for a global problem `M v = H r + q`, `u = Hᵀ v + b` with `dim` unknowns per
/// contact (3 or 2 for friction, 5 or 3 for rolling friction): what a condensed solver needs to
/// go back from the contact impulses to the velocities.
pub(crate) struct Condensation {
    factors: Factors,
    q: Vec<f64>,
    h: Triplets,
}

impl Condensation {
    /// Factorizes `M` and returns the equivalent local problem's `W = Hᵀ M⁻¹ H` and
    /// `q_loc = Hᵀ M⁻¹ q + b`. A block-diagonal `M` (blocks of at most 256 rows, the mechanical
    /// case) is factored block by block and `W` assembled from the pairs of contacts sharing a
    /// block (block-sparse above 64 unknowns unless a quarter of its blocks are nonzero, and
    /// always above 600; never through a dense `M⁻¹H`); any other `M` goes through a sparse LU
    /// and a dense `M⁻¹ [H | q]`.
    pub(crate) fn new(
        dim: usize,
        mm: &Triplets,
        h: &Triplets,
        q: &[f64],
        b: &[f64],
    ) -> Result<(Condensation, Operator, Vec<f64>)> {
        let n = q.len();
        let m = b.len();
        let nc = m / dim;
        if let Some(sys) = BlockDiagSystem::new(dim, n, &mm.entries, &h.entries, nc)? {
            let mut qloc = b.to_vec();
            let mut vfree = vec![0.0; n];
            let zero = vec![0.0; m];
            if !sys.velocity(q, &zero, &mut vfree) {
                return Err(NumericsError::Singular { what: "M (block LU)", index: 0 });
            }
            h.tr_matvec_add(&vfree, &mut qloc);
            let op = sys.delassus(DENSE_MAX)?;
            let c = Condensation { factors: Factors::Blocks(sys), q: q.to_vec(), h: h.clone() };
            return Ok((c, op, qloc));
        }
        let pattern: Vec<(usize, usize)> = mm.entries.iter().map(|&(i, j, _)| (i, j)).collect();
        let mut lu = SparseLu::new(n, &pattern)
            .ok_or(NumericsError::InvalidOption { option: "M", reason: "entry out of range".into() })?;
        if n > 0 && !lu.factorize(mm.entries.iter().map(|e| e.2)) {
            return Err(NumericsError::Singular { what: "M (sparse LU)", index: 0 });
        }
        // X = M⁻¹ [H | q], column by column through one dense right-hand side block.
        let mut rhs = faer::Mat::<f64>::zeros(n, m + 1);
        for &(i, j, v) in &h.entries {
            rhs[(i, j)] += v;
        }
        for i in 0..n {
            rhs[(i, m)] = q[i];
        }
        if n > 0 && !lu.solve_in_place(rhs.as_mut()) {
            return Err(NumericsError::Singular { what: "M (sparse LU)", index: 0 });
        }
        for j in 0..=m {
            for i in 0..n {
                if !rhs[(i, j)].is_finite() {
                    return Err(NumericsError::Singular { what: "M (sparse LU)", index: i });
                }
            }
        }
        // W = Hᵀ X, q_loc = Hᵀ M⁻¹ q + b.
        let mut w = DMatrix::<f64>::zeros(m, m);
        let mut qloc = b.to_vec();
        for &(i, j, v) in &h.entries {
            for k in 0..m {
                w[(j, k)] += v * rhs[(i, k)];
            }
            qloc[j] += v * rhs[(i, m)];
        }
        let op = if m > DENSE_MAX {
            let sizes = vec![dim; nc];
            Operator::BlockCsr(BlockCsr::from_dense(&w, &sizes, &sizes)?)
        } else {
            Operator::Dense(w)
        };
        Ok((Condensation { factors: Factors::Lu(Box::new(lu)), q: q.to_vec(), h: h.clone() }, op, qloc))
    }

    /// `v = M⁻¹ (H r + q)` (NaN where `M` turned out singular).
    pub(crate) fn velocity(&self, r: &[f64], v: &mut [f64]) {
        let n = self.q.len();
        let lu = match &self.factors {
            Factors::Blocks(sys) => {
                if !sys.velocity(&self.q, r, v) {
                    v.iter_mut().for_each(|x| *x = f64::NAN);
                }
                return;
            }
            Factors::Lu(lu) => lu,
        };
        let mut x = self.q.clone();
        self.h.matvec_add(r, &mut x);
        let mut rhs = faer::Mat::<f64>::from_fn(n, 1, |i, _| x[i]);
        if n > 0 && !lu.solve_in_place(rhs.as_mut()) {
            rhs.fill(f64::NAN);
        }
        for i in 0..n {
            v[i] = rhs[(i, 0)];
        }
    }
}

/// Above this many contact unknowns the condensed `W` is stored block-sparse.
const DENSE_MAX: usize = 600;

/// The factors of `M`.
enum Factors {
    Lu(Box<SparseLu>),
    Blocks(BlockDiagSystem),
}

/// A global problem with `M` factorized and its equivalent local problem.
pub struct Condensed {
    local: FrictionContact,
    condensation: Condensation,
}

impl Condensed {
    /// The equivalent local problem `W = Hᵀ M⁻¹ H`, `q_loc = Hᵀ M⁻¹ q + b`.
    pub fn local(&self) -> &FrictionContact {
        &self.local
    }
    /// `v = M⁻¹ (H r + q)`.
    pub fn velocity(&self, r: &[f64], v: &mut [f64]) {
        self.condensation.velocity(r, v)
    }
}

/// Error of a global solution: the canonical error of the equivalent local problem at `r`.
pub fn gfc_error(c: &Condensed, r: &[f64]) -> f64 {
    super::fc_error(c.local(), r)
}

/// Solvers of the global problem.
#[derive(Debug, Clone, PartialEq)]
pub enum GfcSolver {
    /// Condense (Siconos `*_WR`: `W = Hᵀ M⁻¹ H`, see [`GlobalFrictionContact::condense`]), then
    /// solve the local problem with this solver.
    Condensed(FcSolver),
    /// NSGS on the global problem without forming `W` (Siconos `GFC3D_NSGS`; `M`
    /// block-diagonal): [`super::global_nsgs`], with the Alart–Curnier one-contact solver.
    Nsgs(NsgsOptions),
}

/// Global solver catalogue.
pub const GFC_SOLVERS: &[(&str, &str)] = &[
    ("gfc3d-nsgs", "condense W = H^T M^-1 H (sparse LU), then NSGS with Alart-Curnier local solver"),
    ("gfc3d-newton", "condense, then the global Alart-Curnier semismooth Newton"),
    ("gfc3d-prox", "condense, then proximal point around Newton"),
    ("gfc3d-nsgs-global", "NSGS on the global problem without forming W (M block-diagonal)"),
    ("gfc3d-admm-wr", "condense, then ADMM on the local problem (Siconos GFC3D_ADMM_WR)"),
];

/// The global solver called `name` in [`GFC_SOLVERS`].
pub fn gfc_solver_by_name(name: &str, it: IterOptions) -> Option<GfcSolver> {
    if name == "gfc3d-nsgs-global" {
        return Some(GfcSolver::Nsgs(NsgsOptions::with_iter(it)));
    }
    Some(GfcSolver::Condensed(match name {
        "gfc3d-nsgs" => FcSolver::NsgsAc(NsgsOptions::with_iter(it)),
        "gfc3d-newton" => FcSolver::NewtonAc(NewtonOptions::with_iter(it)),
        "gfc3d-prox" => FcSolver::Prox(ProxOptions::with_iter(it)),
        "gfc3d-admm-wr" => FcSolver::Admm(super::AdmmOptions::with_iter(it)),
        _ => return None,
    }))
}

/// Solves the global problem: on exit `r`, `u = Hᵀ v + b` and `v`. The report's residual is
/// [`gfc_error`].
pub fn solve_global(
    p: &GlobalFrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    v: &mut [f64],
    solver: &GfcSolver,
) -> Result<SolveReport> {
    check_len("r", p.size(), r.len())?;
    check_len("u", p.size(), u.len())?;
    check_len("v", p.n_velocities(), v.len())?;
    let start = std::time::Instant::now();
    let s = match solver {
        GfcSolver::Condensed(s) => s,
        GfcSolver::Nsgs(o) => return super::global_nsgs::solve(p, r, u, v, o, super::LocalSolver::AlartCurnier),
    };
    let c = p.condense()?;
    let mut rep = solve_local(c.local(), r, u, s)?;
    c.velocity(r, v);
    if v.iter().any(|x| !x.is_finite()) {
        v.iter_mut().for_each(|x| *x = 0.0);
    }
    u.copy_from_slice(&p.b);
    p.h.tr_matvec_add(v, u);
    rep.elapsed = start.elapsed();
    Ok(rep)
}
