//! Rolling friction contact (Siconos `RollingFrictionContactProblem`, `rolling_fc3d_*`,
//! `rolling_fc2d_*`): Coulomb friction plus a rolling resistance, as in Siconos's
//! `NewtonImpactRollingFrictionNSL`.
//!
//! Local problem `u = W r + q`. Each contact α has `d = 5` unknowns in 3D, `(N, T₁, T₂, R₁, R₂)`
//! (normal, two tangential, two rolling: the relative angular velocity about the two tangent
//! axes and its torque), or `d = 3` in 2D, `(N, T, R)`, and two coefficients `μ_α`, `μ_{r,α}`:
//!
//! `K_α ∋ r_α ⟂ û_α ∈ K_α*`, `K_α = {r_N ≥ 0, ‖r_T‖ ≤ μ_α r_N, ‖r_R‖ ≤ μ_{r,α} r_N}`,
//! `û_α = u_α + (μ_α ‖u_{α,T}‖ + μ_{r,α} ‖u_{α,R}‖) e_N` (the De Saxcé modified velocity of the
//! rolling cone). Sticking contacts have `u_T = 0` and rolling ones `u_R = 0`; sliding ones take
//! `r_T = −μ r_N u_T/‖u_T‖`, and a contact that rolls takes the resisting torque
//! `r_R = −μ_r r_N u_R/‖u_R‖`.
//!
//! The error is Siconos's `rolling_fc3d_compute_error`: the natural map on the rolling cone,
//! `‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖)` (unscaled when that max is ≤ DBL_EPSILON).

pub mod cone;
pub mod global;
mod local;
mod nsgs;

pub use cone::{in_rolling_cone, project_on_rolling_cone};
pub use global::{grfc_error, GlobalRollingFrictionContact};
pub use nsgs::{solve, RollingNsgsOptions};

use crate::report::IterOptions;

/// Solver catalogue of the rolling problem: (CLI name, description).
pub const SOLVERS: &[(&str, &str)] = &[(
    "nsgs",
    "rolling nonsmooth Gauss-Seidel, projection on the rolling cone per contact (ROLLING_FRICTION_3D_NSGS)",
)];

/// The solver called `name` in [`SOLVERS`] with the given tolerance and cap (cold start).
pub fn solver_by_name(name: &str, it: IterOptions) -> Option<RollingNsgsOptions> {
    (name == "nsgs").then(|| RollingNsgsOptions::with_iter(it))
}

use crate::error::{check_finite, check_len, NumericsError, Result};
use crate::fc::io::read_fc_head;
use crate::fc::problem::{check_contact_data, check_nonnegative};
use crate::io::{read_text, TokenReader};
use crate::matrix::Operator;

/// The rolling friction-contact problem: `dim` = 5 (3D) or 3 (2D), `W` square `dim·nc` with
/// uniform `dim × dim` blocks, `q`, `μ ≥ 0` and `μ_r ≥ 0` per contact.
#[derive(Debug, Clone, PartialEq)]
pub struct RollingFrictionContact {
    dim: usize,
    w: Operator,
    q: Vec<f64>,
    mu: Vec<f64>,
    mu_r: Vec<f64>,
    q_norm: f64,
}

impl RollingFrictionContact {
    /// Checks sizes, block structure, finiteness and the signs of the coefficients.
    pub fn new(dim: usize, w: Operator, q: Vec<f64>, mu: Vec<f64>, mu_r: Vec<f64>) -> Result<Self> {
        if dim != 3 && dim != 5 {
            return Err(NumericsError::InvalidOption {
                option: "dim",
                reason: format!("rolling friction contact dimension must be 5 (3D) or 3 (2D), got {dim}"),
            });
        }
        check_len("mu_r (one per contact)", mu.len(), mu_r.len())?;
        check_contact_data(dim, &w, &q, &mu)?;
        check_finite("mu_r", &mu_r)?;
        check_nonnegative("mu", &mu)?;
        check_nonnegative("mu_r", &mu_r)?;
        let q_norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        Ok(RollingFrictionContact { dim, w, q, mu, mu_r, q_norm })
    }
    /// Unknowns per contact: 5 (3D) or 3 (2D).
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
    /// Friction coefficients.
    pub fn mu(&self) -> &[f64] {
        &self.mu
    }
    /// Rolling friction coefficients.
    pub fn mu_r(&self) -> &[f64] {
        &self.mu_r
    }
    /// Number of contacts.
    pub fn n_contacts(&self) -> usize {
        self.mu.len()
    }
    /// Number of unknowns `dim · nc`.
    pub fn size(&self) -> usize {
        self.q.len()
    }
    /// `true` when every `q_{α,N} ≥ −DBL_EPSILON` (then `r = 0` solves it: Siconos's shortcut).
    pub fn is_trivial(&self) -> bool {
        (0..self.n_contacts()).all(|a| self.q[a * self.dim] >= -f64::EPSILON)
    }
    /// Gives back `(W, q, μ, μ_r)`.
    pub fn into_parts(self) -> (Operator, Vec<f64>, Vec<f64>, Vec<f64>) {
        (self.w, self.q, self.mu, self.mu_r)
    }
}

/// One contact's `‖r_α − P_{K_α}(r_α − û_α)‖²` (slices of length 5 or 3).
pub(crate) fn natural_map_contact(mu: f64, mu_r: f64, ra: &[f64], ua: &[f64]) -> f64 {
    let d = ra.len();
    let k = (d - 1) / 2;
    let nt = ua[1..1 + k].iter().map(|v| v * v).sum::<f64>().sqrt();
    let nr = ua[1 + k..].iter().map(|v| v * v).sum::<f64>().sqrt();
    let mut x = [0.0; 5];
    for i in 0..d {
        x[i] = ra[i] - ua[i];
    }
    x[0] -= mu * nt + mu_r * nr;
    project_on_rolling_cone(&mut x[..d], mu, mu_r);
    (0..d).map(|i| (ra[i] - x[i]).powi(2)).sum()
}

/// The normalized error given `u = W r + q`:
/// `sqrt(Σ_α ‖r_α − P_{K_α}(r_α − û_α)‖²) / max(‖q‖, ‖r‖, ‖u‖)`.
pub fn rfc_error_with_u(p: &RollingFrictionContact, r: &[f64], u: &[f64]) -> f64 {
    let d = p.dim;
    let e: f64 = (0..p.n_contacts())
        .map(|a| natural_map_contact(p.mu[a], p.mu_r[a], &r[a * d..(a + 1) * d], &u[a * d..(a + 1) * d]))
        .sum::<f64>()
        .sqrt();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let scale = p.q_norm.max(norm(r)).max(norm(u));
    if scale > f64::EPSILON {
        e / scale
    } else {
        e
    }
}

/// Siconos's `rolling_fc3d_compute_error` (and the 2D one) with `norm = ‖q‖`: recomputes
/// `u = W r + q` and returns [`rfc_error_with_u`].
pub fn rfc_error(p: &RollingFrictionContact, r: &[f64]) -> f64 {
    let mut u = p.q.clone();
    p.w.matvec_add(1.0, r, &mut u);
    rfc_error_with_u(p, r, &u)
}

/// Reads a Siconos rolling friction-contact `.dat` file (what
/// `rollingFrictionContact_printInFilename` writes): `d` (5 or 3), `nc`, the matrix `W` (any
/// storage of the NumericsMatrix block), `q` (`d·nc`), `μ` (`nc`), `μ_r` (`nc`).
pub fn read_rfc(text: &str) -> Result<RollingFrictionContact> {
    let mut t = TokenReader::new(text);
    let (dim, w, q, mu) = read_fc_head(&mut t)?;
    let mu_r = t.f64s(mu.len(), "mu_r")?;
    RollingFrictionContact::new(dim, w, q, mu, mu_r)
}

/// [`read_rfc`] on a file.
pub fn read_rfc_file(path: &std::path::Path) -> Result<RollingFrictionContact> {
    read_rfc(&read_text(path)?)
}
