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
    pub fn new(
        q: DMatrix<f64>,
        p: Vec<f64>,
        a: DMatrix<f64>,
        b: Vec<f64>,
        aeq: DMatrix<f64>,
        beq: Vec<f64>,
    ) -> Result<Self> {
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
                    return Err(NumericsError::Unsupported {
                        solver: "qp",
                        what: format!("a non-symmetric Q (entries ({i},{j}) and ({j},{i}) differ)"),
                    });
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

    /// KKT residual of `(x, λ, μ)` for the Lagrangian `½xᵀQx + pᵀx − λᵀ(Ax − b) − μᵀ(Aeq x − beq)`,
    /// each part relative to the size of its terms (so it is invariant to the scale of the
    /// multipliers of ill-conditioned active sets):
    /// stationarity `‖Qx + p − Aᵀλ − Aeqᵀμ‖∞ / (1 + max(‖Qx‖∞, ‖p‖∞, ‖Aᵀλ‖∞, ‖Aeqᵀμ‖∞))`,
    /// primal infeasibility `max(‖(b − Ax)₊‖∞, ‖Aeq x − beq‖∞) / (1 + max(‖Ax‖∞, ‖b‖∞, ‖Aeq x‖∞, ‖beq‖∞))`,
    /// dual infeasibility `‖λ₋‖∞ / (1 + ‖λ‖∞)` and
    /// complementarity `maxᵢ |λᵢ (Ax − b)ᵢ| / ((1 + ‖λ‖∞)(1 + max(‖Ax‖∞, ‖b‖∞)))`.
    pub fn kkt_residual(&self, x: &[f64], lambda: &[f64], mu: &[f64]) -> f64 {
        let n = self.n();
        let inf = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let mut qx = vec![0.0; n];
        for j in 0..n {
            for i in 0..n {
                qx[i] += self.q[(i, j)] * x[j];
            }
        }
        let mut atl = vec![0.0; n];
        let mut aeqtm = vec![0.0; n];
        let (mut ax_max, mut prim, mut comp_abs) = (0.0f64, 0.0f64, 0.0f64);
        for k in 0..self.a.nrows() {
            let mut ax = 0.0;
            for j in 0..n {
                ax += self.a[(k, j)] * x[j];
                atl[j] += self.a[(k, j)] * lambda[k];
            }
            let s = ax - self.b[k];
            ax_max = ax_max.max(ax.abs());
            prim = prim.max(-s);
            comp_abs = comp_abs.max((lambda[k] * s).abs());
        }
        let mut aeqx_max = 0.0f64;
        for k in 0..self.aeq.nrows() {
            let mut ax = 0.0;
            for j in 0..n {
                ax += self.aeq[(k, j)] * x[j];
                aeqtm[j] += self.aeq[(k, j)] * mu[k];
            }
            aeqx_max = aeqx_max.max(ax.abs());
            prim = prim.max((ax - self.beq[k]).abs());
        }
        let g: Vec<f64> = (0..n).map(|i| qx[i] + self.p[i] - atl[i] - aeqtm[i]).collect();
        let stat = inf(&g) / (1.0 + inf(&qx).max(inf(&self.p)).max(inf(&atl)).max(inf(&aeqtm)));
        let prim = prim / (1.0 + ax_max.max(inf(&self.b)).max(aeqx_max).max(inf(&self.beq)));
        let lmax = inf(lambda);
        let dual = lambda.iter().fold(0.0f64, |m, l| m.max(-l)) / (1.0 + lmax);
        let comp = comp_abs / ((1.0 + lmax) * (1.0 + ax_max.max(inf(&self.b))));
        let r = stat.max(prim).max(dual).max(comp);
        if r.is_finite() {
            r
        } else {
            f64::INFINITY
        }
    }
}
