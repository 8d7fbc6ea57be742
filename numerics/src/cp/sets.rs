//! Closed convex sets given by their Euclidean projection `P_K`.

use super::UserFnError;

/// A user projection `out = P_K(x)` onto a closed convex set of dimension `size()`.
pub trait Projection {
    /// The dimension of the space.
    fn size(&self) -> usize;
    /// Writes `P_K(x)` into `out`.
    fn project(&mut self, x: &[f64], out: &mut [f64]) -> Result<(), UserFnError>;
}

/// The set `K` of a [`super::Vi`].
pub enum ConvexSet {
    /// `K = [lb, ub]` (infinite bounds allowed): `P_K(x)_i = min(max(x_i, lb_i), ub_i)`.
    Box {
        /// Lower bounds.
        lb: Vec<f64>,
        /// Upper bounds.
        ub: Vec<f64>,
    },
    /// `K = {x : ‖x − c‖ ≤ r}`: `P_K(x) = c + (x − c) min(1, r / ‖x − c‖)`.
    Ball {
        /// The centre `c`.
        center: Vec<f64>,
        /// The radius `r ≥ 0`.
        radius: f64,
    },
    /// A set known by its projection (user function).
    User(Box<dyn Projection>),
}

impl std::fmt::Debug for ConvexSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConvexSet::Box { lb, ub } => f.debug_struct("Box").field("lb", lb).field("ub", ub).finish(),
            ConvexSet::Ball { center, radius } => {
                f.debug_struct("Ball").field("center", center).field("radius", radius).finish()
            }
            ConvexSet::User(p) => write!(f, "User(dimension {})", p.size()),
        }
    }
}

impl ConvexSet {
    /// The dimension.
    pub fn size(&self) -> usize {
        match self {
            ConvexSet::Box { lb, .. } => lb.len(),
            ConvexSet::Ball { center, .. } => center.len(),
            ConvexSet::User(p) => p.size(),
        }
    }

    /// `out = P_K(x)`.
    pub fn project(&mut self, x: &[f64], out: &mut [f64]) -> Result<(), UserFnError> {
        match self {
            ConvexSet::Box { lb, ub } => {
                for i in 0..x.len() {
                    out[i] = x[i].max(lb[i]).min(ub[i]);
                }
                Ok(())
            }
            ConvexSet::Ball { center, radius } => {
                let d = x.iter().zip(center.iter()).map(|(a, c)| (a - c) * (a - c)).sum::<f64>().sqrt();
                let s = if d > *radius { *radius / d } else { 1.0 };
                for i in 0..x.len() {
                    out[i] = center[i] + (x[i] - center[i]) * s;
                }
                Ok(())
            }
            ConvexSet::User(p) => p.project(x, out),
        }
    }
}
