//! The Gauss–Newton constraint projection shared by the kernel's direct projection
//! ([`super::TimeSteppingDirectProjection`], interactions of an `Nsds`) and the joint projection
//! of `saltus_mechanics` (joints and joint stops of rigid bodies): the iteration and its linear
//! algebra are here, the constraints (what a row is, how `H M⁻¹ Hᵀ` is formed, how a correction
//! moves the state) are a [`ConstraintSet`].
//!
//! Positions, repeated with the constraints re-evaluated until [`Evaluation::converged`] or
//! `max_iter` corrections:
//!
//! ```text
//! G = H M⁻¹ Hᵀ (+ ε max_i G_ii · I),   w = G μ + h(q),   w_e = 0 (μ_e free),   0 ≤ w_u ⊥ μ_u ≥ 0,
//! q ← q ⊕ M⁻¹ Hᵀ μ
//! ```
//!
//! over the `n_eq` equality rows and the unilateral candidates of the evaluation, solved exactly
//! by principal pivoting (`super::pivot`, Murty's least-index method on a Cholesky factor).
//! `⊕` is the set's retraction: `q + δq` for generalized coordinates, `(x + δx, q ⊗ exp(δθ))`
//! for a rigid body. Velocities: `v ← v + M⁻¹ Hₑᵀ ν` with `Hₑ M⁻¹ Hₑᵀ ν = −Hₑ v` on the equality
//! rows, the mass-weighted orthogonal projection onto the tangent space.
//! The shift `ε` ([`GaussNewton::shift`], 0 in the kernel) makes redundant equality rows (a
//! closed loop of joints) solvable, giving the least-norm correction.

use super::pivot::Pivot;
pub use super::pivot::PivotError;
use nalgebra::DMatrix;

/// The level a correction acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Positions: rows `h(q)`.
    Position,
    /// Velocities: rows `H v` of the equality constraints.
    Velocity,
}

/// The constraints at the current positions, as [`ConstraintSet::evaluate`] found them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluation {
    /// Rows of the next correction (equality rows first).
    pub rows: usize,
    /// Equality rows among them.
    pub n_eq: usize,
    /// The set's violation measure (reported, not tested here).
    pub violation: f64,
    /// The stopping test holds: no correction is needed.
    pub converged: bool,
}

/// Constraints projected by [`project_positions`] and [`project_velocities`].
pub trait ConstraintSet {
    /// The set's error (user functions, non-finite state).
    type Error;
    /// Evaluates the constraints at the current positions and chooses the rows of the next
    /// correction.
    fn evaluate(&mut self) -> Result<Evaluation, Self::Error>;
    /// The rows of a velocity projection (the equality rows), at the current positions.
    fn velocity_rows(&mut self) -> usize;
    /// `G = H M⁻¹ Hᵀ` over the rows of `level` into `g[..n, ..n]` and their values (`h(q)` or
    /// `H v`) into `y[..n]`; `g` has at least `n` rows and columns, and may be replaced by an
    /// `n × n` matrix.
    fn gram(&mut self, level: Level, g: &mut DMatrix<f64>, y: &mut [f64]) -> Result<(), Self::Error>;
    /// Applies the correction `M⁻¹ Hᵀ μ` at `level` and re-evaluates what depends on it.
    fn correct(&mut self, level: Level, mu: &[f64]) -> Result<(), Self::Error>;
}

/// Why a projection stopped without a result.
#[derive(Debug, Clone, PartialEq)]
pub enum ProjectionFailure<E> {
    /// An error of the constraint set.
    Constraints(E),
    /// The pivoting failed (a singular basis or cycling).
    Pivot(PivotError),
}

/// What [`project_positions`] did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Outcome {
    /// Corrections applied.
    pub iterations: usize,
    /// Rows of the last correction.
    pub active: usize,
    /// Violation at the last evaluation.
    pub violation: f64,
    /// The last evaluation converged.
    pub converged: bool,
}

/// Workspace and options of the projection; sized by [`GaussNewton::new`] and grown when a set
/// has more rows (a kernel projection sized for all its rows never allocates).
#[derive(Debug)]
pub struct GaussNewton {
    /// Relative diagonal shift `ε` of `G` (see the module documentation); 0: exact.
    pub shift: f64,
    g: DMatrix<f64>,
    y: Vec<f64>,
    mu: Vec<f64>,
    w: Vec<f64>,
    pivot: Pivot,
}

impl Default for GaussNewton {
    /// An empty workspace without shift.
    fn default() -> Self {
        GaussNewton::new(0, 0.0)
    }
}

impl GaussNewton {
    /// A workspace for up to `n` rows with the diagonal shift `shift`.
    pub fn new(n: usize, shift: f64) -> Self {
        GaussNewton {
            shift,
            g: DMatrix::zeros(n, n),
            y: vec![0.0; n],
            mu: vec![0.0; n],
            w: vec![0.0; n],
            pivot: Pivot::new(n),
        }
    }

    fn reserve(&mut self, n: usize) {
        if self.y.len() < n {
            *self = GaussNewton::new(n, self.shift);
        }
        if self.g.nrows() < n || self.g.ncols() < n {
            self.g = DMatrix::zeros(n, n);
        }
    }

    /// Forms and solves the mixed problem of `n` rows (`n_eq` equalities) at `level`; `μ` in
    /// `self.mu[..n]`.
    fn solve<C: ConstraintSet>(
        &mut self,
        set: &mut C,
        level: Level,
        n: usize,
        n_eq: usize,
    ) -> Result<(), ProjectionFailure<C::Error>> {
        self.reserve(n);
        set.gram(level, &mut self.g, &mut self.y).map_err(ProjectionFailure::Constraints)?;
        if self.shift > 0.0 {
            let scale = (0..n).map(|i| self.g[(i, i)]).fold(0.0f64, f64::max);
            for i in 0..n {
                self.g[(i, i)] += self.shift * scale;
            }
        }
        self.pivot.solve(&self.g, &self.y, n, n_eq, &mut self.mu, &mut self.w).map_err(ProjectionFailure::Pivot)?;
        Ok(())
    }
}

/// Projects the positions of `set` (see the module documentation) with at most `max_iter`
/// corrections.
pub fn project_positions<C: ConstraintSet>(
    set: &mut C,
    ws: &mut GaussNewton,
    max_iter: usize,
) -> Result<Outcome, ProjectionFailure<C::Error>> {
    let mut out = Outcome::default();
    loop {
        let ev = set.evaluate().map_err(ProjectionFailure::Constraints)?;
        out.violation = ev.violation;
        if ev.converged {
            out.converged = true;
            return Ok(out);
        }
        if out.iterations == max_iter {
            return Ok(out);
        }
        out.iterations += 1;
        out.active = ev.rows;
        ws.solve(set, Level::Position, ev.rows, ev.n_eq)?;
        set.correct(Level::Position, &ws.mu[..ev.rows]).map_err(ProjectionFailure::Constraints)?;
    }
}

/// Projects the velocities of `set` onto the tangent space of its equality rows (nothing when
/// it has none).
pub fn project_velocities<C: ConstraintSet>(
    set: &mut C,
    ws: &mut GaussNewton,
) -> Result<(), ProjectionFailure<C::Error>> {
    let n = set.velocity_rows();
    ws.solve(set, Level::Velocity, n, n)?;
    set.correct(Level::Velocity, &ws.mu[..n]).map_err(ProjectionFailure::Constraints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{dmatrix, DVector};

    /// A point of unit mass in the plane on the unit circle `|q|² − 1 = 0` (equality) above the
    /// line `q_y ≥ 0.5` (unilateral).
    struct Circle {
        q: DVector<f64>,
        v: DVector<f64>,
        rows: Vec<usize>,
    }

    impl Circle {
        fn value(&self, r: usize) -> f64 {
            if r == 0 {
                self.q.norm_squared() - 1.0
            } else {
                self.q[1] - 0.5
            }
        }
        fn grad(&self, r: usize) -> DVector<f64> {
            if r == 0 {
                &self.q * 2.0
            } else {
                DVector::from_vec(vec![0.0, 1.0])
            }
        }
    }

    impl ConstraintSet for Circle {
        type Error = ();
        fn evaluate(&mut self) -> Result<Evaluation, ()> {
            let (e, u) = (self.value(0), self.value(1));
            self.rows = if u < 1e-14 { vec![0, 1] } else { vec![0] };
            let violation = e.abs().max(-u);
            Ok(Evaluation { rows: self.rows.len(), n_eq: 1, violation, converged: violation <= 1e-14 })
        }
        fn velocity_rows(&mut self) -> usize {
            self.rows = vec![0];
            1
        }
        fn gram(&mut self, level: Level, g: &mut DMatrix<f64>, y: &mut [f64]) -> Result<(), ()> {
            for (a, &ra) in self.rows.iter().enumerate() {
                for (b, &rb) in self.rows.iter().enumerate() {
                    g[(a, b)] = self.grad(ra).dot(&self.grad(rb));
                }
                y[a] = if level == Level::Position { self.value(ra) } else { self.grad(ra).dot(&self.v) };
            }
            Ok(())
        }
        fn correct(&mut self, level: Level, mu: &[f64]) -> Result<(), ()> {
            for (&r, m) in self.rows.iter().zip(mu) {
                let d = self.grad(r) * *m;
                match level {
                    Level::Position => self.q += d,
                    Level::Velocity => self.v += d,
                }
            }
            Ok(())
        }
    }

    #[test]
    fn projects_onto_the_circle_above_the_line_then_onto_its_tangent() {
        let mut c = Circle { q: DVector::from_vec(vec![1.2, 0.1]), v: DVector::from_vec(vec![1.0, 1.0]), rows: vec![] };
        let mut ws = GaussNewton::new(0, 0.0);
        let out = project_positions(&mut c, &mut ws, 20).unwrap();
        assert!(out.converged && out.iterations > 1 && out.active == 2, "{out:?}");
        // on the circle at q_y = 0.5: q = (√3/2, 1/2)
        assert!((c.q[0] - 0.75f64.sqrt()).abs() < 1e-14 && (c.q[1] - 0.5).abs() < 1e-14, "{}", c.q);
        project_velocities(&mut c, &mut ws).unwrap();
        assert!(c.q.dot(&c.v).abs() < 1e-14);
        // the projection removed the normal part only: |v|² = 2 − (q·v₀)²
        let qv0 = c.q.dot(&DVector::from_vec(vec![1.0, 1.0]));
        assert!((c.v.norm_squared() - (2.0 - qv0 * qv0)).abs() < 1e-13);
    }

    #[test]
    fn a_shift_solves_redundant_rows_with_the_least_norm_correction() {
        // the same row twice: G is singular, the shifted system splits the correction evenly
        struct Twice(f64, Vec<f64>);
        impl ConstraintSet for Twice {
            type Error = ();
            fn evaluate(&mut self) -> Result<Evaluation, ()> {
                Ok(Evaluation { rows: 2, n_eq: 2, violation: self.0.abs(), converged: self.0.abs() < 1e-9 })
            }
            fn velocity_rows(&mut self) -> usize {
                0
            }
            fn gram(&mut self, _: Level, g: &mut DMatrix<f64>, y: &mut [f64]) -> Result<(), ()> {
                *g = dmatrix![1.0, 1.0; 1.0, 1.0];
                y[..2].fill(self.0);
                Ok(())
            }
            fn correct(&mut self, _: Level, mu: &[f64]) -> Result<(), ()> {
                self.1 = mu.to_vec();
                self.0 += mu[0] + mu[1];
                Ok(())
            }
        }
        let mut t = Twice(1.0, vec![]);
        assert!(matches!(
            project_positions(&mut t, &mut GaussNewton::new(2, 0.0), 5),
            Err(ProjectionFailure::Pivot(PivotError::Singular(1)))
        ));
        let out = project_positions(&mut t, &mut GaussNewton::new(2, 1e-12), 5).unwrap();
        assert!(out.converged && out.iterations == 1);
        // split evenly to the accuracy of a shift-1e-12 factorization
        assert!((t.1[0] - t.1[1]).abs() < 1e-9 && (t.1[0] + 0.5).abs() < 1e-9, "{:?}", t.1);
    }
}
