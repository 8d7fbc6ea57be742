//! The Siconos ConvexQP over Coulomb cones (siconos-dat-formats.md §8):
//! `min ½ xᵀ M x + qᵀ x` subject to `x_α ∈ K_{μ_α}` for every contact `α`.

use super::cone::project_on_cone;
use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::io::{read_matrix, read_text, TokenReader};
use crate::matrix::Operator;

/// A convex QP whose feasible set is a product of Coulomb cones `K_μ = {‖x_T‖ <= μ x_N}` of
/// dimension `dim` (2 or 3, normal component first): `min ½ xᵀ M x + qᵀ x`, `x_α ∈ K_{μ_α}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexQp {
    dim: usize,
    m: Operator,
    q: Vec<f64>,
    mu: Vec<f64>,
}

impl ConvexQp {
    /// Checks `dim ∈ {2, 3}`, `M` square of size `dim · mu.len()`, `q` of that size, finite
    /// data and `μ >= 0`.
    pub fn new(dim: usize, m: Operator, q: Vec<f64>, mu: Vec<f64>) -> Result<Self> {
        if dim != 2 && dim != 3 {
            return Err(NumericsError::Unsupported {
                solver: "convex-qp",
                what: format!("cone dimension {dim} (2 or 3)"),
            });
        }
        if m.nrows() != m.ncols() {
            return Err(NumericsError::NotSquare { what: "M", rows: m.nrows(), cols: m.ncols() });
        }
        check_len("M rows (dim × contacts)", dim * mu.len(), m.nrows())?;
        check_len("q", m.nrows(), q.len())?;
        if let Some(index) = m.first_non_finite() {
            return Err(NumericsError::NonFinite { what: "M", index });
        }
        check_finite("q", &q)?;
        check_finite("mu", &mu)?;
        if let Some(i) = mu.iter().position(|&v| v < 0.0) {
            return Err(NumericsError::InvalidOption {
                option: "mu",
                reason: format!("friction coefficient {i} is negative"),
            });
        }
        Ok(ConvexQp { dim, m, q, mu })
    }
    /// Cone dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }
    /// The matrix `M`.
    pub fn m(&self) -> &Operator {
        &self.m
    }
    /// The vector `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// One `μ` per cone.
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }
    /// Number of unknowns.
    pub fn size(&self) -> usize {
        self.q.len()
    }
    /// Projects `x` on the product of cones in place.
    pub fn project(&self, x: &mut [f64]) {
        for (c, &mu) in x.chunks_exact_mut(self.dim).zip(&self.mu) {
            project_on_cone(c, mu);
        }
    }
    /// The objective `½ xᵀMx + qᵀx`.
    pub fn objective(&self, x: &[f64]) -> f64 {
        let mut g = vec![0.0; x.len()];
        self.m.matvec(x, &mut g);
        x.iter().zip(&g).zip(&self.q).map(|((x, g), q)| x * (0.5 * g + q)).sum()
    }
}

/// Siconos `convexQP_compute_error_reduced`: `‖z − P_C(z − (Mz + q))‖ / ‖q‖` (absolute when
/// `‖q‖ <= DBL_EPSILON`); `+inf` for a non-finite `z`.
pub fn convex_qp_error(p: &ConvexQp, z: &[f64]) -> f64 {
    let mut y = vec![0.0; z.len()];
    p.m.matvec(z, &mut y);
    for i in 0..y.len() {
        y[i] = z[i] - (y[i] + p.q[i]);
    }
    p.project(&mut y);
    let e = z.iter().zip(&y).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
    let qn = p.q.iter().map(|v| v * v).sum::<f64>().sqrt();
    let e = if qn > f64::EPSILON { e / qn } else { e };
    if e.is_finite() {
        e
    } else {
        f64::INFINITY
    }
}

/// Reads a ConvexQP from a local friction-contact `.dat` text (siconos-dat-formats.md §5):
/// `d`, `nc`, the matrix `M` (any storage), `q` (as many values as `M` has columns), `μ` (nc).
/// SBM storage is kept as `d×d` block storage.
pub fn read_convex_qp(text: &str) -> Result<ConvexQp> {
    let mut r = TokenReader::new(text);
    let dim = r.usize("dimension d")?;
    let nc = r.usize("number of contacts nc")?;
    let raw = read_matrix(&mut r, "M")?;
    let cols = raw.ncols();
    let m = raw.into_operator(dim)?;
    let q = r.f64s(cols, "q")?;
    let mu = r.f64s(nc, "mu")?;
    ConvexQp::new(dim, m, q, mu)
}

/// Reads a ConvexQP `.dat` file (see [`read_convex_qp`]).
pub fn read_convex_qp_file(path: impl AsRef<std::path::Path>) -> Result<ConvexQp> {
    read_convex_qp(&read_text(path.as_ref())?)
}
