//! The dense convex QP `min ½ xᵀQx + pᵀx  s.t.  A x >= b,  Aeq x = beq`.

use crate::error::{check_finite, check_len, NumericsError, Result};
use nalgebra::DMatrix;

/// A dense convex quadratic program
/// `min ½ xᵀ Q x + pᵀ x` subject to `A x >= b` (inequalities, one per row of `A`) and
/// `Aeq x = beq`, with `Q` symmetric positive semidefinite.
#[derive(Debug, Clone, PartialEq)]
pub struct Qp {
    q: DMatrix<f64>,
    p: Vec<f64>,
    a: DMatrix<f64>,
    b: Vec<f64>,
    aeq: DMatrix<f64>,
    beq: Vec<f64>,
}

impl Qp {
    /// Checks shapes, finiteness and the symmetry of `Q` (relative tolerance 1e-10; `Q` is then
    /// symmetrized). Positive semidefiniteness is checked by the solver (it returns
    /// `Unsupported` on negative curvature). `A` may have zero rows, and so may `Aeq`.
    pub fn new(q: DMatrix<f64>, p: Vec<f64>, a: DMatrix<f64>, b: Vec<f64>, aeq: DMatrix<f64>, beq: Vec<f64>) -> Result<Self> {
        if q.nrows() != q.ncols() {
            return Err(NumericsError::NotSquare { what: "Q", rows: q.nrows(), cols: q.ncols() });
        }
        let n = q.nrows();
        check_len("p", n, p.len())?;
        check_len("A columns", n, a.ncols())?;
        check_len("b", a.nrows(), b.len())?;
        check_len("Aeq columns", n, aeq.ncols())?;
        check_len("beq", aeq.nrows(), beq.len())?;
        check_finite("Q", q.as_slice())?;
        check_finite("p", &p)?;
        check_finite("A", a.as_slice())?;
        check_finite("b", &b)?;
        check_finite("Aeq", aeq.as_slice())?;
        check_finite("beq", &beq)?;
        let scale = q.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for j in 0..n {
            for i in 0..j {
                if (q[(i, j)] - q[(j, i)]).abs() > 1e-10 * scale.max(f64::MIN_POSITIVE) {
                    return Err(NumericsError::Unsupported { solver: "qp", what: format!("a non-symmetric Q (entries ({i},{j}) and ({j},{i}) differ)") });
                }
            }
        }
        let q = (&q + q.transpose()) * 0.5;
        Ok(Qp { q, p, a, b, aeq, beq })
    }

    /// An inequality-only QP (`Aeq` empty).
    pub fn with_inequalities(q: DMatrix<f64>, p: Vec<f64>, a: DMatrix<f64>, b: Vec<f64>) -> Result<Self> {
        let n = q.nrows();
        Qp::new(q, p, a, b, DMatrix::zeros(0, n), Vec::new())
    }

    /// Number of variables.
    pub fn n(&self) -> usize {
        self.p.len()
    }
    /// Hessian `Q`.
    pub fn q(&self) -> &DMatrix<f64> {
        &self.q
    }
    /// Linear term `p`.
    pub fn p(&self) -> &[f64] {
        &self.p
    }
    /// Inequality matrix `A` (`A x >= b`).
    pub fn a(&self) -> &DMatrix<f64> {
        &self.a
    }
    /// Inequality right-hand side `b`.
    pub fn b(&self) -> &[f64] {
        &self.b
    }
    /// Equality matrix `Aeq`.
    pub fn aeq(&self) -> &DMatrix<f64> {
        &self.aeq
    }
    /// Equality right-hand side `beq`.
    pub fn beq(&self) -> &[f64] {
        &self.beq
    }
    /// The objective `½ xᵀQx + pᵀx`.
    pub fn objective(&self, x: &[f64]) -> f64 {
        let n = self.n();
        let mut f = 0.0;
        for j in 0..n {
            let mut qx = 0.0;
            for i in 0..n {
                qx += self.q[(i, j)] * x[i];
            }
            f += x[j] * (0.5 * qx + self.p[j]);
        }
        f
    }

    /// KKT residual of `(x, λ, μ)` for the Lagrangian `½xᵀQx + pᵀx − λᵀ(Ax − b) − μᵀ(Aeq x − beq)`:
    /// the largest of
    /// stationarity `‖Qx + p − Aᵀλ − Aeqᵀμ‖∞ / (1 + ‖p‖∞)`,
    /// primal infeasibility `max(‖(b − Ax)₊‖∞, ‖Aeq x − beq‖∞) / (1 + max(‖b‖∞, ‖beq‖∞))`,
    /// dual infeasibility `‖λ₋‖∞ / (1 + ‖p‖∞)` and
    /// complementarity `maxᵢ |λᵢ (Ax − b)ᵢ| / (1 + ‖p‖∞)`.
    pub fn kkt_residual(&self, x: &[f64], lambda: &[f64], mu: &[f64]) -> f64 {
        let n = self.n();
        let inf = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let pn = 1.0 + inf(&self.p);
        let bn = 1.0 + inf(&self.b).max(inf(&self.beq));
        let mut g: Vec<f64> = self.p.clone();
        for j in 0..n {
            for i in 0..n {
                g[i] += self.q[(i, j)] * x[j];
            }
        }
        let mut prim = 0.0f64;
        let mut comp = 0.0f64;
        let mut dual = 0.0f64;
        for k in 0..self.a.nrows() {
            let mut s = -self.b[k];
            for j in 0..n {
                s += self.a[(k, j)] * x[j];
                g[j] -= self.a[(k, j)] * lambda[k];
            }
            prim = prim.max(-s);
            comp = comp.max((lambda[k] * s).abs());
            dual = dual.max(-lambda[k]);
        }
        for k in 0..self.aeq.nrows() {
            let mut s = -self.beq[k];
            for j in 0..n {
                s += self.aeq[(k, j)] * x[j];
                g[j] -= self.aeq[(k, j)] * mu[k];
            }
            prim = prim.max(s.abs());
        }
        let r = (inf(&g) / pn).max(prim / bn).max(dual / pn).max(comp / pn);
        if r.is_finite() {
            r
        } else {
            f64::INFINITY
        }
    }
}
