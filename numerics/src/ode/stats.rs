//! Work counters of an integration (the names of `integrator-test-problems.md`).

/// Counters accumulated since construction (not reset by `reinit`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OdeStats {
    /// Accepted steps (`nst`).
    pub steps: u64,
    /// Accepted steps taken with BDF.
    pub bdf_steps: u64,
    /// Rejected step attempts: error-test plus convergence/projection failures.
    pub rejected: u64,
    /// Error-test failures (`netf`).
    pub error_test_failures: u64,
    /// Nonlinear convergence failures (`ncfn`), including recoverable RHS failures.
    pub convergence_failures: u64,
    /// RHS evaluations (`nfe`), including finite-difference Jacobian columns.
    pub rhs_evals: u64,
    /// RHS evaluations spent on finite-difference Jacobians (included in `rhs_evals`).
    pub jac_rhs_evals: u64,
    /// Jacobian evaluations (`nje`), analytic or by finite differences.
    pub jac_evals: u64,
    /// LU factorizations of the iteration matrix `I − h l0 J` (`nlu`).
    pub lu_decomps: u64,
    /// Root-function evaluations (`nge`, one per vector call of `g`).
    pub root_evals: u64,
    /// Successful projections (`nproj`).
    pub projections: u64,
    /// Failed projections (each one rejected a step).
    pub projection_failures: u64,
    /// Adams ↔ BDF switches (`nswitch`).
    pub switches: u64,
}
