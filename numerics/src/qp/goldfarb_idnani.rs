//! The Goldfarb–Idnani dual active-set method for strictly convex QPs.
//!
//! Solves `min ½ xᵀGx + gᵀx  s.t.  A x >= b,  Aeq x = beq` with `G` positive definite
//! (Goldfarb & Idnani, Math. Programming 27, 1983). Starting from the unconstrained minimum
//! `x = −G⁻¹g`, it adds the equalities, then repeatedly picks the most violated inequality and
//! moves primal and dual variables so that it becomes active, dropping active constraints whose
//! multiplier would turn negative. Every iterate is dual feasible, so the first primal-feasible
//! point is optimal, and an inequality that cannot be made active proves infeasibility.
//!
//! Numerics: with `G = L Lᵀ`, `J = L⁻ᵀ Q` and `Jᵀ N = [R; 0]` for the active normals `N`,
//! the primal direction is `z = J₂ J₂ᵀ n⁺` and the dual direction `r = R⁻¹ J₁ᵀ n⁺`; `J` and `R`
//! are updated with Givens rotations when a constraint is added or dropped.

use super::problem::Qp;
use nalgebra::DMatrix;

/// How the core iteration ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GiEnd {
    /// Primal feasible (hence optimal).
    Optimal,
    /// An inequality or equality cannot be satisfied.
    Infeasible,
    /// Iteration cap.
    MaxIterations,
}

/// Working state.
struct Gi {
    n: usize,
    j: DMatrix<f64>,
    r: DMatrix<f64>,
    iq: usize,
    /// Active constraints: `Eq(k)` or `Ineq(k)`.
    active: Vec<Con>,
    u: Vec<f64>,
    d: Vec<f64>,
    z: Vec<f64>,
    rr: Vec<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Con {
    Eq(usize),
    Ineq(usize),
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

impl Gi {
    /// `d = Jᵀ np`, `z = Σ_{k >= iq} J[:,k] d_k`, `rr = R⁻¹ d[0..iq]`.
    fn directions(&mut self, np: &[f64]) {
        let n = self.n;
        let js = self.j.as_slice();
        for k in 0..n {
            self.d[k] = dot(&js[k * n..(k + 1) * n], np);
        }
        self.z.iter_mut().for_each(|v| *v = 0.0);
        for k in self.iq..n {
            let dk = self.d[k];
            if dk != 0.0 {
                for (zi, jik) in self.z.iter_mut().zip(&js[k * n..(k + 1) * n]) {
                    *zi += dk * jik;
                }
            }
        }
        // Column-oriented back substitution R rr = d[0..iq] (R upper triangular).
        let rs = self.r.as_slice();
        self.rr[..self.iq].copy_from_slice(&self.d[..self.iq]);
        for i in (0..self.iq).rev() {
            let col = &rs[i * n..i * n + i + 1];
            let v = self.rr[i] / col[i];
            self.rr[i] = v;
            if v != 0.0 {
                for (x, rk) in self.rr[..i].iter_mut().zip(&col[..i]) {
                    *x -= v * rk;
                }
            }
        }
    }

    fn rotate_j(&mut self, a: usize, b: usize, cc: f64, ss: f64) {
        let n = self.n;
        let js = self.j.as_mut_slice();
        let (lo, hi) = js.split_at_mut(b * n);
        let ca = &mut lo[a * n..(a + 1) * n];
        let cb = &mut hi[..n];
        for (x, y) in ca.iter_mut().zip(cb.iter_mut()) {
            let (t1, t2) = (*x, *y);
            *x = cc * t1 + ss * t2;
            *y = -ss * t1 + cc * t2;
        }
    }

    /// Adds the constraint whose `d = Jᵀ n` is in `self.d`. `false` if it is (numerically)
    /// dependent on the active ones.
    fn add(&mut self, c: Con, eps: f64) -> bool {
        let n = self.n;
        for k in (self.iq + 1..n).rev() {
            let (a, b) = (self.d[k - 1], self.d[k]);
            if b == 0.0 {
                continue;
            }
            let h = (a * a + b * b).sqrt();
            let (cc, ss) = (a / h, b / h);
            self.d[k - 1] = h;
            self.d[k] = 0.0;
            self.rotate_j(k - 1, k, cc, ss);
        }
        if self.d[self.iq].abs() <= eps {
            return false;
        }
        for i in 0..=self.iq {
            self.r[(i, self.iq)] = self.d[i];
        }
        self.active.push(c);
        self.iq += 1;
        true
    }

    /// Drops the active constraint at position `qq`; `u` (including the candidate multiplier at
    /// index `iq`) shifts down with it.
    fn drop(&mut self, qq: usize) {
        let iq = self.iq;
        self.active.remove(qq);
        for k in qq..iq {
            self.u[k] = self.u[k + 1];
        }
        for k in qq..iq - 1 {
            for i in 0..=k + 1 {
                self.r[(i, k)] = self.r[(i, k + 1)];
            }
        }
        for i in 0..self.n {
            self.r[(i, iq - 1)] = 0.0;
        }
        for k in qq..iq - 1 {
            let (a, b) = (self.r[(k, k)], self.r[(k + 1, k)]);
            if b == 0.0 {
                continue;
            }
            let h = (a * a + b * b).sqrt();
            let (cc, ss) = (a / h, b / h);
            for col in k..iq - 1 {
                let (t1, t2) = (self.r[(k, col)], self.r[(k + 1, col)]);
                self.r[(k, col)] = cc * t1 + ss * t2;
                self.r[(k + 1, col)] = -ss * t1 + cc * t2;
            }
            self.r[(k + 1, k)] = 0.0;
            self.rotate_j(k, k + 1, cc, ss);
        }
        self.iq -= 1;
    }
}

/// Result of the core iteration.
pub(crate) struct GiOut {
    pub end: GiEnd,
    pub iterations: usize,
}

/// Runs Goldfarb–Idnani for `min ½xᵀGx + gᵀx` on the constraints of `qp`, where `jinv = L⁻ᵀ`
/// for the Cholesky factor `L` of `G`. Writes `x`, `lambda` (inequalities), `mu` (equalities).
pub(crate) fn goldfarb_idnani(
    qp: &Qp,
    jinv: &DMatrix<f64>,
    g: &[f64],
    max_iter: usize,
    x: &mut [f64],
    lambda: &mut [f64],
    mu: &mut [f64],
) -> GiOut {
    let n = qp.n();
    let (me, mi) = (qp.aeq().nrows(), qp.a().nrows());
    let mut s = Gi {
        n,
        j: jinv.clone(),
        r: DMatrix::zeros(n, n),
        iq: 0,
        active: Vec::with_capacity(n),
        u: vec![0.0; n + 1],
        d: vec![0.0; n],
        z: vec![0.0; n],
        rr: vec![0.0; n],
    };
    lambda.iter_mut().for_each(|v| *v = 0.0);
    mu.iter_mut().for_each(|v| *v = 0.0);
    // x = −G⁻¹ g = −J Jᵀ g.
    let jtg: Vec<f64> = (0..n).map(|k| (0..n).map(|i| s.j[(i, k)] * g[i]).sum()).collect();
    for i in 0..n {
        x[i] = -(0..n).map(|k| s.j[(i, k)] * jtg[k]).sum::<f64>();
    }
    let jscale = jinv.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
    let row = |m: &DMatrix<f64>, k: usize| -> Vec<f64> { (0..n).map(|j| m[(k, j)]).collect() };
    // Inequality rows contiguous (Aᵀ column-major) and their norms, computed once.
    let at = qp.a().transpose();
    let ats = at.as_slice();
    let a_norm: Vec<f64> = (0..mi)
        .map(|k| dot(&ats[k * n..(k + 1) * n], &ats[k * n..(k + 1) * n]).sqrt().max(f64::MIN_POSITIVE))
        .collect();
    let mut is_active = vec![false; mi];
    let anorm = |v: &[f64]| 1.0 + v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let eps = 1e-13;
    // Equalities.
    for k in 0..me {
        let np = row(qp.aeq(), k);
        s.directions(&np);
        let zn = dot(&s.z, &np);
        let viol = qp.beq()[k] - dot(&np, x);
        let feas_tol = 1e-12 * anorm(&np) * (1.0 + x.iter().fold(0.0f64, |m, v| m.max(v.abs())) + qp.beq()[k].abs());
        if zn.abs() <= eps * anorm(&np) * anorm(&np) * jscale * jscale {
            if viol.abs() <= feas_tol.max(1e-9) {
                continue; // redundant equality
            }
            return GiOut { end: GiEnd::Infeasible, iterations: 0 };
        }
        let t = viol / zn;
        for i in 0..n {
            x[i] += t * s.z[i];
        }
        for i in 0..s.iq {
            s.u[i] -= t * s.rr[i];
        }
        s.u[s.iq] = t;
        if !s.add(Con::Eq(k), eps) {
            return GiOut { end: GiEnd::Infeasible, iterations: 0 };
        }
    }
    let mut iterations = 0;
    loop {
        iterations += 1;
        if iterations > max_iter {
            write_multipliers(&s, lambda, mu);
            return GiOut { end: GiEnd::MaxIterations, iterations: max_iter };
        }
        // Most violated inequality (scaled by its normal's norm).
        let mut worst: Option<(usize, f64)> = None;
        let xmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for k in 0..mi {
            if is_active[k] {
                continue;
            }
            let an = a_norm[k];
            let sk = (dot(&ats[k * n..(k + 1) * n], x) - qp.b()[k]) / an;
            let tol = 1e-12 * (1.0 + qp.b()[k].abs() / an + xmax);
            if sk < -tol && worst.map_or(true, |(_, w)| sk < w) {
                worst = Some((k, sk));
            }
        }
        let Some((p, _)) = worst else {
            write_multipliers(&s, lambda, mu);
            return GiOut { end: GiEnd::Optimal, iterations };
        };
        let np = ats[p * n..(p + 1) * n].to_vec();
        s.u[s.iq] = 0.0;
        let mut sp = dot(&np, x) - qp.b()[p];
        loop {
            s.directions(&np);
            // Partial (dual) step: the first active inequality whose multiplier reaches 0.
            let mut t1 = f64::INFINITY;
            let mut l = None;
            for k in 0..s.iq {
                if matches!(s.active[k], Con::Ineq(_)) && s.rr[k] > 0.0 {
                    let tk = s.u[k] / s.rr[k];
                    if tk < t1 {
                        t1 = tk;
                        l = Some(k);
                    }
                }
            }
            let zn = dot(&s.z, &np);
            let znorm = dot(&s.z, &s.z).sqrt();
            let t2 = if znorm > eps * jscale * anorm(&np) && zn > 0.0 { -sp / zn } else { f64::INFINITY };
            let t = t1.min(t2);
            if !t.is_finite() {
                write_multipliers(&s, lambda, mu);
                return GiOut { end: GiEnd::Infeasible, iterations };
            }
            if !t2.is_finite() {
                // Dual step only.
                for k in 0..s.iq {
                    s.u[k] -= t * s.rr[k];
                }
                s.u[s.iq] += t;
                if let Some(qq) = l {
                    if let Con::Ineq(i) = s.active[qq] {
                        is_active[i] = false;
                    }
                    s.drop(qq);
                }
                continue;
            }
            for i in 0..n {
                x[i] += t * s.z[i];
            }
            for k in 0..s.iq {
                s.u[k] -= t * s.rr[k];
            }
            s.u[s.iq] += t;
            if t2 <= t1 {
                is_active[p] = true;
                if !s.add(Con::Ineq(p), eps) {
                    // Numerically dependent: treat as satisfied and continue the outer loop.
                    write_multipliers(&s, lambda, mu);
                    return GiOut { end: GiEnd::MaxIterations, iterations };
                }
                break;
            }
            if let Some(qq) = l {
                if let Con::Ineq(i) = s.active[qq] {
                    is_active[i] = false;
                }
                s.drop(qq);
            }
            sp = dot(&np, x) - qp.b()[p];
            iterations += 1;
            if iterations > max_iter {
                write_multipliers(&s, lambda, mu);
                return GiOut { end: GiEnd::MaxIterations, iterations: max_iter };
            }
        }
    }
}

fn write_multipliers(s: &Gi, lambda: &mut [f64], mu: &mut [f64]) {
    for (k, c) in s.active.iter().enumerate() {
        match *c {
            Con::Eq(i) => mu[i] = s.u[k],
            Con::Ineq(i) => lambda[i] = s.u[k].max(0.0),
        }
    }
}
