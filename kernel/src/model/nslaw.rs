//! Nonsmooth laws (Siconos `NonSmoothLaw` hierarchy as one closed enum).

use nalgebra::{DMatrix, DVector};

/// A nonsmooth law relating the output `y` and the multiplier `λ` of one interaction.
#[derive(Clone, Debug, PartialEq)]
pub enum NonSmoothLaw {
    /// `0 ≤ y ⊥ λ ≥ 0`, componentwise, `size` components (Siconos `ComplementarityConditionNSL`).
    ComplementarityCondition {
        /// Number of components.
        size: usize,
    },
    /// Newton impact law at velocity level: `0 ≤ ẏ⁺ + e ẏ⁻ ⊥ λ ≥ 0` when the contact is active
    /// (Siconos `NewtonImpactNSL`, size 1).
    NewtonImpact {
        /// Restitution coefficient `e ∈ [0, 1]`.
        e: f64,
    },
    /// Newton impact with Coulomb friction (Siconos `NewtonImpactFrictionNSL`), size `dim`
    /// (2 or 3): normal component first, then the tangential ones.
    NewtonImpactFriction {
        /// Normal restitution.
        en: f64,
        /// Tangential restitution.
        et: f64,
        /// Friction coefficient `μ ≥ 0`.
        mu: f64,
        /// 2 (planar) or 3 (spatial).
        dim: usize,
    },
    /// `-y ∈ N_[lb, ub](λ)` (Siconos `RelayNSL`).
    Relay {
        /// Lower bounds.
        lb: DVector<f64>,
        /// Upper bounds.
        ub: DVector<f64>,
    },
    /// `−y ∈ N_P(λ)` with the polyhedron `P = {λ : H λ ≥ K}` (Siconos `NormalConeNSL`): `λ ∈ P`
    /// and `⟨y, μ − λ⟩ ≥ 0` for every `μ ∈ P`; equivalently `λ ∈ ∂σ_P(−y)`, `σ_P` the support
    /// function of `P`. The size is the number of columns of `H`. `RelayNSL` is the box case
    /// (`H = [I; −I]`, `K = [lb; −ub]`). Solved by the one-step problem `AVI`.
    NormalCone {
        /// `H` (rows of the polyhedron × size).
        h: DMatrix<f64>,
        /// `K` (one per row of `H`).
        k: DVector<f64>,
    },
    /// `y = 0`, `λ` free (Siconos `EqualityConditionNSL`).
    EqualityCondition {
        /// Number of components.
        size: usize,
    },
    /// The first `n_eq` components are equalities (`y = 0`), the next `n_comp` complementarities
    /// (Siconos `MixedComplementarityConditionNSL`).
    MixedComplementarityCondition {
        /// Number of equality components (first).
        n_eq: usize,
        /// Number of complementarity components (after).
        n_comp: usize,
    },
}

impl NonSmoothLaw {
    /// Number of components of `y` and `λ`.
    pub fn size(&self) -> usize {
        match self {
            NonSmoothLaw::ComplementarityCondition { size } | NonSmoothLaw::EqualityCondition { size } => *size,
            NonSmoothLaw::NewtonImpact { .. } => 1,
            NonSmoothLaw::NewtonImpactFriction { dim, .. } => *dim,
            NonSmoothLaw::Relay { lb, .. } => lb.len(),
            NonSmoothLaw::NormalCone { h, .. } => h.ncols(),
            NonSmoothLaw::MixedComplementarityCondition { n_eq, n_comp } => n_eq + n_comp,
        }
    }

    /// Siconos class name (for messages).
    pub fn kind_name(&self) -> &'static str {
        match self {
            NonSmoothLaw::ComplementarityCondition { .. } => "ComplementarityConditionNSL",
            NonSmoothLaw::NewtonImpact { .. } => "NewtonImpactNSL",
            NonSmoothLaw::NewtonImpactFriction { .. } => "NewtonImpactFrictionNSL",
            NonSmoothLaw::Relay { .. } => "RelayNSL",
            NonSmoothLaw::NormalCone { .. } => "NormalConeNSL",
            NonSmoothLaw::EqualityCondition { .. } => "EqualityConditionNSL",
            NonSmoothLaw::MixedComplementarityCondition { .. } => "MixedComplementarityConditionNSL",
        }
    }

    /// Number of leading equality components (`y = 0`, `λ` free).
    pub fn n_equalities(&self) -> usize {
        match self {
            NonSmoothLaw::EqualityCondition { size } => *size,
            NonSmoothLaw::MixedComplementarityCondition { n_eq, .. } => *n_eq,
            _ => 0,
        }
    }

    /// `true` for unilateral laws whose activation is decided from the predicted gap.
    pub fn is_unilateral(&self) -> bool {
        matches!(
            self,
            NonSmoothLaw::NewtonImpact { .. }
                | NonSmoothLaw::NewtonImpactFriction { .. }
                | NonSmoothLaw::ComplementarityCondition { .. }
        )
    }

    /// The normal restitution coefficient (0 for laws without restitution).
    pub fn restitution(&self) -> f64 {
        match self {
            NonSmoothLaw::NewtonImpact { e } => *e,
            NonSmoothLaw::NewtonImpactFriction { en, .. } => *en,
            _ => 0.0,
        }
    }

    /// The polyhedron `P = {λ : H λ ≥ K}` of a law whose multiplier lives in a polyhedron:
    /// `NormalConeNSL` (its `H`, `K`) and `RelayNSL` (the box, `H = [I; −I]`, `K = [lb; −ub]`);
    /// `None` for the other laws.
    pub fn polyhedron(&self) -> Option<(DMatrix<f64>, DVector<f64>)> {
        match self {
            NonSmoothLaw::NormalCone { h, k } => Some((h.clone(), k.clone())),
            NonSmoothLaw::Relay { lb, ub } => {
                let m = lb.len();
                let h = DMatrix::from_fn(2 * m, m, |i, j| match (i < m, i % m == j) {
                    (true, true) => 1.0,
                    (false, true) => -1.0,
                    _ => 0.0,
                });
                let k = DVector::from_iterator(2 * m, lb.iter().copied().chain(ub.iter().map(|u| -u)));
                Some((h, k))
            }
            _ => None,
        }
    }

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), String> {
        let coef = |name: &str, v: f64| {
            if !(0.0..=1.0).contains(&v) {
                Err(format!("{name} = {v} is outside [0, 1]"))
            } else {
                Ok(())
            }
        };
        match self {
            NonSmoothLaw::NewtonImpact { e } => coef("e", *e),
            NonSmoothLaw::NewtonImpactFriction { en, et, mu, dim } => {
                coef("e_n", *en)?;
                coef("e_t", *et)?;
                if !(mu.is_finite() && *mu >= 0.0) {
                    return Err(format!("mu = {mu} must be finite and >= 0"));
                }
                if *dim != 2 && *dim != 3 {
                    return Err(format!("friction dimension {dim} must be 2 or 3"));
                }
                Ok(())
            }
            NonSmoothLaw::Relay { lb, ub } => {
                if lb.len() != ub.len() || lb.is_empty() {
                    return Err(format!("relay bounds have lengths {} and {}", lb.len(), ub.len()));
                }
                if lb.iter().zip(ub.iter()).any(|(l, u)| l > u || !l.is_finite() || !u.is_finite()) {
                    return Err("relay bounds must be finite with lb <= ub".into());
                }
                Ok(())
            }
            NonSmoothLaw::NormalCone { h, k } => check_polyhedron(h, k),
            _ if self.size() == 0 => Err("law of size 0".into()),
            _ => Ok(()),
        }
    }
}

/// `P = {λ : H λ ≥ K}`: `K` has one entry per row of `H`, all entries are finite, and `H` has
/// full column rank (no line in `P`, which the AVI solver needs to start at a vertex).
fn check_polyhedron(h: &DMatrix<f64>, k: &DVector<f64>) -> Result<(), String> {
    if h.ncols() == 0 || h.nrows() == 0 {
        return Err(format!("H is {}x{}: the polyhedron needs at least one row and one column", h.nrows(), h.ncols()));
    }
    if k.len() != h.nrows() {
        return Err(format!("K has {} entries but H has {} rows (one entry of K per row of H)", k.len(), h.nrows()));
    }
    if let Some(i) = h.iter().position(|v| !v.is_finite()) {
        return Err(format!("H has a non-finite entry at row {}, column {}", i % h.nrows(), i / h.nrows()));
    }
    if let Some(i) = k.iter().position(|v| !v.is_finite()) {
        return Err(format!("K has a non-finite entry at index {i}"));
    }
    let scale = h.amax();
    let rank = h.clone().svd(false, false).singular_values.iter().filter(|s| **s > 1e-10 * scale).count();
    if rank < h.ncols() {
        return Err(format!(
            "H has rank {rank} < {} columns: the polyhedron H λ >= K contains a line (AVI needs a vertex)",
            h.ncols()
        ));
    }
    Ok(())
}
