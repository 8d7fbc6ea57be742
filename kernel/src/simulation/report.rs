//! What one step did.

use saltus_numerics::SolveReport;

/// The report of one time step (Siconos prints these; we return them).
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// Step index `k` (the step went from `t_{k-1}` to `t_k`).
    pub k: u64,
    /// Time at the end of the step, `t_k = t0 + k h`.
    pub t: f64,
    /// Newton iterations done (1 for linear models).
    pub newton_iterations: usize,
    /// Last Newton increment `‖x_{i+1} − x_i‖∞` (0 for linear models); with the relation
    /// residuals of [`crate::NewtonOptions`] asked for, the largest of it and them.
    pub newton_residual: f64,
    /// `false` if the Newton loop hit its cap (only with [`crate::OnNonConvergence::Accept`]).
    pub newton_converged: bool,
    /// The one-step solver's report of the last Newton iteration (`None` when no interaction
    /// was active, so no problem was solved).
    pub osnsp: Option<SolveReport>,
    /// Size of the one-step problem.
    pub osnsp_size: usize,
    /// Number of interactions in the one-step problem.
    pub active: usize,
    /// Report of the position projection (direct projection only).
    pub projection: Option<ProjectionReport>,
}

/// The report of the position projection of [`crate::TimeSteppingDirectProjection`].
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectionReport {
    /// Projection iterations done.
    pub iterations: usize,
    /// Largest constraint violation left after the projection: `|h(q)|` on bilateral rows,
    /// `max(0, −h(q))` on unilateral rows.
    pub violation: f64,
    /// Rows of the last projection problem (bilateral rows + unilateral rows with `h < tol`).
    pub active: usize,
    /// `violation ≤ tol` was reached within `max_iter` iterations.
    pub converged: bool,
    /// `max |∇h(q) v|` over the bilateral rows after the projection.
    pub velocity_violation: f64,
}
