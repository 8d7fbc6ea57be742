//! Dense output: the polynomial of the last accepted step, so that report times and event
//! localization never change the step sequence.

/// Interpolant over the last accepted step `[t − h, t]`.
#[derive(Debug, Clone, Default)]
pub struct DenseOutput {
    /// End of the step.
    pub t: f64,
    /// Length of the step (0 before the first step: the interpolant is the constant `y(t)`).
    pub h: f64,
    /// Representation.
    pub kind: DenseKind,
}

/// The polynomial representations of the methods.
#[derive(Debug, Clone, Default)]
pub enum DenseKind {
    /// Nordsieck columns `z_j` (stored one after the other, `n` values each),
    /// `y(t + s h) = Σ_j z_j s^j`, `s ∈ [−1, 0]`.
    Nordsieck {
        /// Number of states (column length).
        n: usize,
        /// Columns `z_0 .. z_q`.
        z: Vec<f64>,
    },
    /// Dormand–Prince continuous extension: `r1..r5` with `θ = (τ − (t − h)) / h`,
    /// `y = r1 + θ (r2 + (1−θ)(r3 + θ (r4 + (1−θ) r5)))`.
    Dopri([Vec<f64>; 5]),
    /// Linear interpolation between `y0` (at `t − h`) and `y1` (at `t`).
    Linear(Vec<f64>, Vec<f64>),
    /// Nothing yet.
    #[default]
    Empty,
}

impl DenseOutput {
    /// Start of the interval covered.
    pub fn t_start(&self) -> f64 {
        self.t - self.h
    }

    /// Whether `tau` lies in the interval, with 100 uround of slack.
    pub fn covers(&self, tau: f64) -> bool {
        let slack = 100.0 * f64::EPSILON * (self.t.abs() + self.h.abs());
        tau >= self.t_start() - slack && tau <= self.t + slack
    }

    /// Sets a Nordsieck interpolant with columns `cols` (`n` values each), reusing the storage
    /// of the previous one (no allocation once it has grown to the largest order).
    pub fn set_nordsieck(&mut self, t: f64, h: f64, n: usize, cols: &[f64]) {
        self.t = t;
        self.h = h;
        match &mut self.kind {
            DenseKind::Nordsieck { n: m, z } => {
                *m = n;
                z.clear();
                z.extend_from_slice(cols);
            }
            kind => *kind = DenseKind::Nordsieck { n, z: cols.to_vec() },
        }
    }

    /// Writes `y(tau)` into `out`.
    pub fn eval(&self, tau: f64, out: &mut [f64]) {
        match &self.kind {
            DenseKind::Nordsieck { n, z } => {
                if *n == 0 {
                    return;
                }
                let s = if self.h == 0.0 { 0.0 } else { (tau - self.t) / self.h };
                let mut cols = z.chunks_exact(*n).rev();
                out.copy_from_slice(cols.next().expect("at least z_0"));
                for zj in cols {
                    for (o, zj) in out.iter_mut().zip(zj) {
                        *o = *o * s + zj;
                    }
                }
            }
            DenseKind::Dopri(r) => {
                let th = if self.h == 0.0 { 1.0 } else { (tau - self.t_start()) / self.h };
                let th1 = 1.0 - th;
                for (i, o) in out.iter_mut().enumerate() {
                    *o = r[0][i] + th * (r[1][i] + th1 * (r[2][i] + th * (r[3][i] + th1 * r[4][i])));
                }
            }
            DenseKind::Linear(y0, y1) => {
                let th = if self.h == 0.0 { 1.0 } else { (tau - self.t_start()) / self.h };
                for (i, o) in out.iter_mut().enumerate() {
                    *o = y0[i] + th * (y1[i] - y0[i]);
                }
            }
            DenseKind::Empty => {}
        }
    }
}
