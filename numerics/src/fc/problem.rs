//! The reduced (local) friction-contact problem `u = W r + q`, `K ∋ r ⟂ û ∈ K*`.

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::matrix::Operator;

/// Local friction-contact problem in dimension `dim` (2 or 3) with `nc` contacts:
/// `u = W r + q`; for each contact α, `K_α ∋ r_α ⟂ û_α ∈ K_α*` with the Coulomb cone
/// `K_α = {‖r_T‖ ≤ μ_α r_N}` and the De Saxcé velocity `û_α = u_α + μ_α ‖u_{α,T}‖ e_N`.
/// Unknowns are stacked contact by contact, the normal component first.
#[derive(Debug, Clone, PartialEq)]
pub struct FrictionContact {
    dim: usize,
    w: Operator,
    q: Vec<f64>,
    mu: Vec<f64>,
    q_norm: f64,
}

/// The checks shared by the contact problems with `dim` unknowns per contact and one `μ` per
/// contact: `W` square of size `dim·nc` with uniform `dim × dim` blocks, `q` of length `dim·nc`,
/// `W`, `q` and `μ` finite.
pub(crate) fn check_contact_data(dim: usize, w: &Operator, q: &[f64], mu: &[f64]) -> Result<()> {
    if w.nrows() != w.ncols() {
        return Err(NumericsError::NotSquare { what: "W", rows: w.nrows(), cols: w.ncols() });
    }
    let n = dim * mu.len();
    check_len("rows of W (dim × number of contacts)", n, w.nrows())?;
    check_len("q", n, q.len())?;
    if !w.has_uniform_blocks(dim) {
        return Err(NumericsError::DimensionMismatch {
            what: "block size of W (uniform dim × dim blocks)",
            expected: dim,
            found: 0,
        });
    }
    if let Some(index) = w.first_non_finite() {
        return Err(NumericsError::NonFinite { what: "W", index });
    }
    check_finite("q", q)?;
    check_finite("mu", mu)
}

/// Refuses a negative coefficient in `v` (the friction coefficients `mu`, or `mu_r`).
pub(crate) fn check_nonnegative(option: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|&m| m < 0.0) {
        Some(index) => Err(NumericsError::InvalidOption {
            option,
            reason: format!("friction coefficient {index} is negative ({})", v[index]),
        }),
        None => Ok(()),
    }
}

impl FrictionContact {
    /// Checks sizes (`W` square `dim·nc`, uniform `dim × dim` blocks, `q` of length `dim·nc`,
    /// one `μ ≥ 0` per contact) and finiteness.
    pub fn new(dim: usize, w: Operator, q: Vec<f64>, mu: Vec<f64>) -> Result<Self> {
        if dim != 2 && dim != 3 {
            return Err(NumericsError::InvalidOption {
                option: "dim",
                reason: format!("friction contact dimension must be 2 or 3, got {dim}"),
            });
        }
        check_contact_data(dim, &w, &q, &mu)?;
        check_nonnegative("mu", &mu)?;
        let q_norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        Ok(FrictionContact { dim, w, q, mu, q_norm })
    }
    /// Contact-space dimension (2 or 3).
    pub fn dim(&self) -> usize {
        self.dim
    }
    /// The Delassus operator `W`.
    pub fn w(&self) -> &Operator {
        &self.w
    }
    /// The free velocity `q`.
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// Friction coefficients, one per contact.
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }
    /// Gives back `(W, q, μ)` (lets a time-stepping loop reuse the buffers without allocating).
    pub fn into_parts(self) -> (Operator, Vec<f64>, Vec<f64>) {
        (self.w, self.q, self.mu)
    }
    /// Number of contacts.
    pub fn n_contacts(&self) -> usize {
        self.mu.len()
    }
    /// Number of unknowns `dim · nc`.
    pub fn size(&self) -> usize {
        self.q.len()
    }
    /// `‖q‖`.
    pub fn q_norm(&self) -> f64 {
        self.q_norm
    }
    /// `true` when every contact separates with `r = 0` (`q_{α,N} ≥ −DBL_EPSILON` for all α),
    /// the Siconos driver shortcut.
    pub fn is_trivial(&self) -> bool {
        (0..self.n_contacts()).all(|a| self.q[a * self.dim] >= -f64::EPSILON)
    }
}
