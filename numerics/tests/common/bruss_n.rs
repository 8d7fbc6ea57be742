//! The 1D Brusselator of `integrator-test-problems.md` (bruss1d) with `m` grid points
//! (`2m` unknowns, interleaved `(u_i, v_i)`), for the sparse-Jacobian tests and bench:
//! `u_i' = 1 + u_i² v_i − 4 u_i + c (u_{i−1} − 2u_i + u_{i+1})`,
//! `v_i' = 3 u_i − u_i² v_i + c (v_{i−1} − 2v_i + v_{i+1})`, `c = (m+1)²/50`,
//! boundary values `u = 1`, `v = 3`; `u_i(0) = 1 + sin(2π x_i)`, `v_i(0) = 3`.
#![allow(dead_code)]

use nalgebra::DMatrix;
use saltus_numerics::ode::{OdeSystem, SparsityPattern, UserFnError};

/// The problem; `analytic` exposes the sparse Jacobian (else finite differences are used).
#[derive(Debug, Clone)]
pub struct BrussN {
    pub m: usize,
    pub analytic: bool,
    pattern: SparsityPattern,
}

impl BrussN {
    pub fn new(m: usize, analytic: bool) -> Self {
        BrussN { m, analytic, pattern: Self::pattern(m) }
    }

    /// Structural nonzeros of the Jacobian.
    pub fn pattern(m: usize) -> SparsityPattern {
        let mut e = Vec::new();
        for i in 0..m {
            let (u, v) = (2 * i, 2 * i + 1);
            e.extend([(u, u), (u, v), (v, u), (v, v)]);
            if i > 0 {
                e.extend([(u, u - 2), (v, v - 2)]);
            }
            if i + 1 < m {
                e.extend([(u, u + 2), (v, v + 2)]);
            }
        }
        SparsityPattern::from_entries(2 * m, &e).expect("valid pattern")
    }

    pub fn y0(&self) -> Vec<f64> {
        let mut y0 = Vec::with_capacity(2 * self.m);
        for i in 1..=self.m {
            let x = i as f64 / (self.m + 1) as f64;
            y0.push(1.0 + (2.0 * std::f64::consts::PI * x).sin());
            y0.push(3.0);
        }
        y0
    }

    fn c(&self) -> f64 {
        (self.m + 1) as f64 * (self.m + 1) as f64 / 50.0
    }
}

impl OdeSystem for BrussN {
    fn dim(&self) -> usize {
        2 * self.m
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        let (m, c) = (self.m, self.c());
        for i in 0..m {
            let (u, v) = (y[2 * i], y[2 * i + 1]);
            let (ul, vl) = if i == 0 { (1.0, 3.0) } else { (y[2 * i - 2], y[2 * i - 1]) };
            let (ur, vr) = if i == m - 1 { (1.0, 3.0) } else { (y[2 * i + 2], y[2 * i + 3]) };
            dy[2 * i] = 1.0 + u * u * v - 4.0 * u + c * (ul - 2.0 * u + ur);
            dy[2 * i + 1] = 3.0 * u - u * u * v + c * (vl - 2.0 * v + vr);
        }
        Ok(())
    }

    fn has_jacobian(&self) -> bool {
        false
    }

    fn jacobian(&self, _t: f64, _y: &[f64], _jac: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        Err(UserFnError::NotProvided)
    }

    fn has_sparse_jacobian(&self) -> bool {
        self.analytic
    }

    fn sparse_jacobian(&self, _t: f64, y: &[f64], values: &mut [f64]) -> Result<(), UserFnError> {
        let (m, c) = (self.m, self.c());
        let p = &self.pattern;
        let mut set = |i: usize, j: usize, v: f64| {
            if let Some(k) = p.entry_index(i, j) {
                values[k] = v;
            }
        };
        for i in 0..m {
            let (iu, iv) = (2 * i, 2 * i + 1);
            let (u, v) = (y[iu], y[iv]);
            set(iu, iu, 2.0 * u * v - 4.0 - 2.0 * c);
            set(iu, iv, u * u);
            set(iv, iu, 3.0 - 2.0 * u * v);
            set(iv, iv, -u * u - 2.0 * c);
            if i > 0 {
                set(iu, iu - 2, c);
                set(iv, iv - 2, c);
            }
            if i + 1 < m {
                set(iu, iu + 2, c);
                set(iv, iv + 2, c);
            }
        }
        Ok(())
    }
}
