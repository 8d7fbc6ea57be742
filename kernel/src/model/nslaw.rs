//! Nonsmooth laws (Siconos `NonSmoothLaw` hierarchy as one closed enum).

use nalgebra::DVector;

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
            _ if self.size() == 0 => Err("law of size 0".into()),
            _ => Ok(()),
        }
    }
}
