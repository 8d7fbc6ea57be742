//! Banded matrices and their LU factorization with partial pivoting (row interchanges within
//! the band, as LINPACK's band solver): storage and work are `O(n (ml + mu))`, so the BDF
//! Newton matrix of a large locally coupled system never becomes dense.

/// A square banded matrix with lower/upper bandwidths `ml`, `mu`, stored row-wise with room
/// for the `ml` extra upper diagonals created by pivoting: row `i` holds columns
/// `i − ml ..= i + ml + mu`.
#[derive(Debug, Clone)]
pub struct BandMatrix {
    n: usize,
    ml: usize,
    mu: usize,
    w: usize,
    a: Vec<f64>,
}

impl BandMatrix {
    /// Zero `n × n` band matrix.
    pub fn zeros(n: usize, ml: usize, mu: usize) -> Self {
        let w = 2 * ml + mu + 1;
        BandMatrix { n, ml, mu, w, a: vec![0.0; n * w] }
    }

    fn idx(&self, i: usize, j: usize) -> usize {
        // column j sits at offset j + ml − i in row i
        i * self.w + (j + self.ml - i)
    }

    /// Entry (i, j); must lie within the stored band.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.a[self.idx(i, j)]
    }

    /// Sets entry (i, j) (inside `|i − j|` bandwidths).
    pub fn set(&mut self, i: usize, j: usize, v: f64) {
        let k = self.idx(i, j);
        self.a[k] = v;
    }

    /// Sets all entries to zero.
    pub fn fill_zero(&mut self) {
        self.a.fill(0.0);
    }

    /// Iterator range of stored original-band columns of row i.
    pub fn row_cols(&self, i: usize) -> std::ops::RangeInclusive<usize> {
        i.saturating_sub(self.ml)..=(i + self.mu).min(self.n - 1)
    }

    /// `P = I − c A` into `out` (same shape), band part only.
    pub fn identity_minus(&self, c: f64, out: &mut BandMatrix) {
        out.fill_zero();
        for i in 0..self.n {
            for j in self.row_cols(i) {
                let v = -c * self.get(i, j) + if i == j { 1.0 } else { 0.0 };
                out.set(i, j, v);
            }
        }
    }

    /// In-place LU with partial pivoting. Returns the pivot rows, or None if singular.
    pub fn factor(&mut self) -> Option<Vec<usize>> {
        let (n, ml, mu) = (self.n, self.ml, self.mu);
        let mut piv = vec![0; n];
        for k in 0..n {
            let last = (k + ml).min(n - 1);
            let mut p = k;
            let mut best = self.get(k, k).abs();
            for i in k + 1..=last {
                let v = self.get(i, k).abs();
                if v > best {
                    best = v;
                    p = i;
                }
            }
            piv[k] = p;
            if best == 0.0 || !best.is_finite() {
                return None;
            }
            let jmax = (k + ml + mu).min(n - 1);
            if p != k {
                for j in k..=jmax {
                    let (a, b) = (self.idx(k, j), self.idx(p, j));
                    self.a.swap(a, b);
                }
            }
            let d = self.get(k, k);
            for i in k + 1..=last {
                let l = self.get(i, k) / d;
                self.set(i, k, l);
                if l != 0.0 {
                    for j in k + 1..=jmax {
                        let v = self.get(i, j) - l * self.get(k, j);
                        self.set(i, j, v);
                    }
                }
            }
        }
        Some(piv)
    }

    /// Solves `A x = b` in place with the factors of [`Self::factor`].
    pub fn solve(&self, piv: &[usize], b: &mut [f64]) {
        let (n, ml, mu) = (self.n, self.ml, self.mu);
        for k in 0..n {
            b.swap(k, piv[k]);
            let bk = b[k];
            for i in k + 1..=(k + ml).min(n - 1) {
                b[i] -= self.get(i, k) * bk;
            }
        }
        for k in (0..n).rev() {
            let mut s = b[k];
            for j in k + 1..=(k + ml + mu).min(n - 1) {
                s -= self.get(k, j) * b[j];
            }
            b[k] = s / self.get(k, k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    #[test]
    fn band_lu_matches_dense_solve() {
        let (n, ml, mu) = (9, 2, 1);
        let mut band = BandMatrix::zeros(n, ml, mu);
        let mut dense = DMatrix::zeros(n, n);
        for i in 0..n {
            for j in band.row_cols(i) {
                // small diagonal so that pivoting is needed
                let v = if i == j { 0.01 * (i as f64 + 1.0) } else { 1.0 + (3 * i + 7 * j) as f64 % 5.0 };
                band.set(i, j, v);
                dense[(i, j)] = v;
            }
        }
        let b: Vec<f64> = (0..n).map(|i| (i as f64).sin() + 1.0).collect();
        let x_dense = dense.clone().lu().solve(&DVector::from_column_slice(&b)).unwrap();
        let piv = band.factor().unwrap();
        let mut x = b.clone();
        band.solve(&piv, &mut x);
        for i in 0..n {
            assert!((x[i] - x_dense[i]).abs() < 1e-10 * (1.0 + x_dense[i].abs()), "{i}: {} vs {}", x[i], x_dense[i]);
        }
    }
}
