//! Anderson acceleration (type II, Walker & Ni 2011) of the NSGS sweep seen as a fixed-point map
//! `r ↦ G(r)` (one Gauss–Seidel sweep started from `r`).
//!
//! With `f_k = G(r_k) − r_k` and the differences of the last `m` iterates
//! `ΔR = [r_{i+1} − r_i]`, `ΔF = [f_{i+1} − f_i]`, the step is
//! `r_{k+1} = G(r_k) − (ΔR + ΔF) γ`, `γ = argmin ‖f_k − ΔF γ‖₂`,
//! solved from the normal equations `(ΔFᵀΔF + ε tr(ΔFᵀΔF)/m · I) γ = ΔFᵀ f_k` (Gram matrix updated
//! incrementally, Gaussian elimination with partial pivoting on an `m × m` system).
//! Each contact's extrapolated reaction is projected back on its cone.
//!
//! Safeguard: an extrapolated iterate `r_k` is kept only if the sweep from it does not blow up
//! the fixed-point residual, `‖f_k‖ ≤ 2 ‖f_{k−1}‖` (a plain sweep on a contraction never
//! increases it; on the jammed pile of `spheres_in_a_box` the strict test `‖f_k‖ ≤ ‖f_{k−1}‖`
//! rejected so many useful extrapolations that it cost more sweeps than it saved). Otherwise
//! the extrapolation is rejected: the iterate goes back to the plain sweep result `G(r_{k−1})`
//! it replaced and the history restarts (the extrapolation left the region where the
//! sweep is a contraction; the sweep spent on `r_k` is lost). Deterministic: a fixed sequence of
//! floating-point operations on the given data.

use super::cone::project_on_cone;

/// Relative Tikhonov weight added to the Gram diagonal.
const REG: f64 = 1e-12;
/// Reject an extrapolated iterate when `‖f_k‖ > GROWTH · ‖f_{k−1}‖`; restart the history when
/// a plain sweep does so.
const GROWTH: f64 = 2.0;

/// Buffers and history of the acceleration.
#[derive(Debug, Clone, Default)]
pub(crate) struct Anderson {
    m: usize,
    /// Ring buffers of `ΔR` and `ΔF` columns (each of the problem size).
    dr: Vec<Vec<f64>>,
    df: Vec<Vec<f64>>,
    /// Gram matrix `ΔFᵀΔF` of the ring (row-major `m × m`, ring indices).
    gram: Vec<f64>,
    len: usize,
    head: usize,
    prev_r: Vec<f64>,
    prev_f: Vec<f64>,
    prev_norm: f64,
    have_prev: bool,
    /// `G(r_{k−1})`, the plain sweep result the last extrapolation replaced.
    plain: Vec<f64>,
    /// Whether the current iterate is an extrapolation (else a plain sweep result).
    extrapolated: bool,
    f: Vec<f64>,
    sys: Vec<f64>,
    rhs: Vec<f64>,
}

impl Anderson {
    /// Resets for a problem of `n` unknowns and memory `m ≥ 1`.
    pub(crate) fn reset(&mut self, n: usize, m: usize) {
        self.m = m;
        self.dr.resize_with(m, Vec::new);
        self.df.resize_with(m, Vec::new);
        for v in self.dr.iter_mut().chain(self.df.iter_mut()) {
            v.clear();
            v.resize(n, 0.0);
        }
        self.gram.clear();
        self.gram.resize(m * m, 0.0);
        self.len = 0;
        self.head = 0;
        self.prev_r.clear();
        self.prev_r.resize(n, 0.0);
        self.prev_f.clear();
        self.prev_f.resize(n, 0.0);
        self.f.clear();
        self.f.resize(n, 0.0);
        self.plain.clear();
        self.plain.resize(n, 0.0);
        self.extrapolated = false;
        self.have_prev = false;
        self.prev_norm = f64::INFINITY;
    }

    /// Given the iterate `r_k` (`start`) and the sweep's result `G(r_k)` (in `r`), overwrites
    /// `r` with the accelerated iterate `r_{k+1}` (projected on the cones `mu` of dimension `dim`),
    /// or, when the safeguard rejects the extrapolated `r_k`, with the plain result `G(r_{k−1})`.
    pub(crate) fn step(&mut self, start: &[f64], r: &mut [f64], dim: usize, mu: &[f64]) {
        let n = r.len();
        for i in 0..n {
            self.f[i] = r[i] - start[i];
        }
        let fnorm = self.f.iter().map(|x| x * x).sum::<f64>().sqrt();
        if self.extrapolated && !(fnorm <= GROWTH * self.prev_norm) {
            // Reject r_k: back to G(r_{k−1}) (whose residual ‖f_{k−1}‖ stays the reference),
            // forget the history.
            r.copy_from_slice(&self.plain);
            self.extrapolated = false;
            self.len = 0;
            self.head = 0;
            self.have_prev = false;
            return;
        }
        if fnorm > GROWTH * self.prev_norm {
            // A plain sweep grew the residual: keep G(r_k) as the next iterate, forget the history.
            self.len = 0;
            self.head = 0;
            self.have_prev = false;
        }
        if self.have_prev {
            let slot = self.head;
            for (d, (s, p)) in self.dr[slot].iter_mut().zip(start.iter().zip(&self.prev_r)) {
                *d = s - p;
            }
            for (d, (f, p)) in self.df[slot].iter_mut().zip(self.f.iter().zip(&self.prev_f)) {
                *d = f - p;
            }
            self.head = (self.head + 1) % self.m;
            self.len = (self.len + 1).min(self.m);
            for j in 0..self.len {
                let d = dot(&self.df[slot], &self.df[j]);
                self.gram[slot * self.m + j] = d;
                self.gram[j * self.m + slot] = d;
            }
        }
        self.prev_r.copy_from_slice(start);
        self.prev_f.copy_from_slice(&self.f);
        self.prev_norm = fnorm;
        self.have_prev = true;
        let k = self.len;
        if k == 0 {
            self.extrapolated = false;
            return;
        }
        // Normal equations over the ring slots 0..k (order irrelevant to the solution).
        self.sys.clear();
        self.rhs.clear();
        let trace: f64 = (0..k).map(|j| self.gram[j * self.m + j]).sum();
        let eps = REG * trace / k as f64;
        for i in 0..k {
            for j in 0..k {
                self.sys.push(self.gram[i * self.m + j] + if i == j { eps } else { 0.0 });
            }
            self.rhs.push(dot(&self.df[i], &self.f));
        }
        if !solve_dense(&mut self.sys, &mut self.rhs, k) || self.rhs.iter().any(|g| !g.is_finite()) {
            self.extrapolated = false;
            return;
        }
        self.plain.copy_from_slice(r);
        self.extrapolated = true;
        for (j, &g) in self.rhs.iter().enumerate() {
            let (dr, df) = (&self.dr[j], &self.df[j]);
            for i in 0..n {
                r[i] -= g * (dr[i] + df[i]);
            }
        }
        for (a, &m) in mu.iter().enumerate() {
            project_on_cone(&mut r[a * dim..(a + 1) * dim], m);
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves the row-major `k × k` system in place (solution in `b`); `false` if singular.
fn solve_dense(a: &mut [f64], b: &mut [f64], k: usize) -> bool {
    for c in 0..k {
        let p = (c..k).max_by(|&i, &j| a[i * k + c].abs().total_cmp(&a[j * k + c].abs())).unwrap_or(c);
        if a[p * k + c] == 0.0 || !a[p * k + c].is_finite() {
            return false;
        }
        if p != c {
            for j in 0..k {
                a.swap(p * k + j, c * k + j);
            }
            b.swap(p, c);
        }
        for i in c + 1..k {
            let l = a[i * k + c] / a[c * k + c];
            for j in c..k {
                a[i * k + j] -= l * a[c * k + j];
            }
            b[i] -= l * b[c];
        }
    }
    for c in (0..k).rev() {
        let s: f64 = (c + 1..k).map(|j| a[c * k + j] * b[j]).sum();
        b[c] = (b[c] - s) / a[c * k + c];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a linear contraction `G(x) = A x + b` (n = 3, inside the cone: no projection effect),
    /// Anderson(3) reaches the fixed point in at most n + 1 accelerated steps (exact in exact
    /// arithmetic for type-II AA with full memory), while plain iteration is still far.
    #[test]
    fn anderson_solves_a_linear_fixed_point_in_n_plus_one_steps() {
        let a = [[0.9, 0.05, 0.0], [0.02, 0.85, 0.03], [0.0, 0.04, 0.95]];
        let b = [1.0, 0.1, -0.05];
        let g =
            |x: &[f64]| -> Vec<f64> { (0..3).map(|i| b[i] + (0..3).map(|j| a[i][j] * x[j]).sum::<f64>()).collect() };
        // Fixed point by plain iteration (slow but sure).
        let mut xs = vec![0.0; 3];
        for _ in 0..5000 {
            xs = g(&xs);
        }
        let mut acc = Anderson::default();
        acc.reset(3, 3);
        let mut x = vec![1.0, 0.0, 0.0];
        let mut plain = x.clone();
        for _ in 0..5 {
            let start = x.clone();
            let mut next = g(&start);
            // One 3D contact with a huge μ: the cone contains every iterate here.
            acc.step(&start, &mut next, 3, &[1e6]);
            x = next;
            plain = g(&plain);
        }
        let err = |v: &[f64]| v.iter().zip(&xs).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
        assert!(err(&x) < 1e-9, "accelerated error {}", err(&x));
        assert!(err(&plain) > 1e-2, "plain error {}", err(&plain));
    }

    /// An extrapolated iterate whose sweep more than doubles the fixed-point residual is
    /// rejected: the next iterate is the plain sweep result it replaced, and the history restarts
    /// (the following call does not extrapolate).
    #[test]
    fn anderson_rejects_an_extrapolation_that_blows_up_the_residual() {
        let g = |x: &[f64]| -> Vec<f64> { x.iter().map(|v| 0.5 * v + 1.0).collect() };
        let mut acc = Anderson::default();
        acc.reset(3, 3);
        let x0 = vec![0.0, 0.5, 0.2];
        let mut x1 = g(&x0);
        acc.step(&x0, &mut x1, 3, &[1e6]); // no history yet: x1 = G(x0)
        let plain = g(&x1);
        let mut x2 = plain.clone();
        acc.step(&x1, &mut x2, 3, &[1e6]); // extrapolates away from G(x1)
        assert_ne!(x2, plain);
        // A "sweep" from x2 that moves far: ‖f‖ grows by much more than 2.
        let mut bad: Vec<f64> = x2.iter().map(|v| v + 100.0).collect();
        acc.step(&x2, &mut bad, 3, &[1e6]);
        assert_eq!(bad, plain, "rejected: back to G(x1)");
        // History restarted: the next step keeps the plain sweep result as it is.
        let mut next = g(&bad);
        let expect = next.clone();
        acc.step(&bad, &mut next, 3, &[1e6]);
        assert_eq!(next, expect);
    }

    #[test]
    fn dense_solve_matches_a_known_solution() {
        let mut a = vec![0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let x = [1.0, -2.0, 0.5];
        let mut b: Vec<f64> = (0..3).map(|i| (0..3).map(|j| a[i * 3 + j] * x[j]).sum()).collect();
        assert!(solve_dense(&mut a, &mut b, 3));
        for i in 0..3 {
            assert!((b[i] - x[i]).abs() < 1e-14);
        }
        let mut s = vec![1.0, 2.0, 2.0, 4.0];
        assert!(!solve_dense(&mut s, &mut [1.0, 1.0], 2));
    }
}
