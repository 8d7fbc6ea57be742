//! The Nordsieck history array `z_j = h^j y^(j) / j!`, j = 0..=12, in one contiguous
//! allocation (column j is `data[j n .. (j + 1) n]`), with the column operations of a step:
//! Pascal prediction and its undo, rescaling by powers of a step ratio, and the corrector update.
//!
//! Every operation performs, per element, exactly the floating-point operations of the
//! column-by-column formulation in the same order, so results do not depend on the layout.

/// Highest Nordsieck order (Adams 12).
pub(crate) const MAX_COLS: usize = 13;
/// Components per block in [`History::predict`].
const LANES: usize = 4;

/// Contiguous Nordsieck history for `n` states.
#[derive(Debug, Clone)]
pub(crate) struct History {
    n: usize,
    data: Vec<f64>,
}

impl History {
    /// Zero history for `n` states.
    pub(crate) fn new(n: usize) -> Self {
        History { n, data: vec![0.0; MAX_COLS * n] }
    }

    /// Column `j`.
    #[inline]
    pub(crate) fn col(&self, j: usize) -> &[f64] {
        &self.data[j * self.n..(j + 1) * self.n]
    }

    /// Column `j`, mutable.
    #[inline]
    pub(crate) fn col_mut(&mut self, j: usize) -> &mut [f64] {
        &mut self.data[j * self.n..(j + 1) * self.n]
    }

    /// Columns `0..=q`, one after the other.
    pub(crate) fn cols_upto(&self, q: usize) -> &[f64] {
        &self.data[..(q + 1) * self.n]
    }

    /// Pascal-matrix prediction `z ← A z` of columns `0..=q`. Works on blocks of
    /// [`LANES`] components copied to a local array (the triangle of additions is the same for
    /// every component), which keeps small systems in registers and lets the additions run
    /// as vector operations.
    pub(crate) fn predict(&mut self, q: usize) {
        self.pascal(q, |a, b| a + b);
    }

    /// Undo of [`Self::predict`] (same additions, subtracted, in the same order).
    pub(crate) fn retract(&mut self, q: usize) {
        self.pascal(q, |a, b| a - b);
    }

    fn pascal(&mut self, q: usize, op: impl Fn(f64, f64) -> f64 + Copy) {
        // full blocks of LANES, then the remainder by 2 and by 1 (fixed widths: no memcpy calls)
        let n = self.n;
        let mut i0 = 0;
        while i0 + LANES <= n {
            pascal_block::<LANES>(&mut self.data, n, i0, q, op);
            i0 += LANES;
        }
        if i0 + 2 <= n {
            pascal_block::<2>(&mut self.data, n, i0, q, op);
            i0 += 2;
        }
        if i0 < n {
            pascal_block::<1>(&mut self.data, n, i0, q, op);
        }
    }

    /// Scales columns `1..=q` by `rh^j` (the power accumulated by repeated multiplication).
    pub(crate) fn scale(&mut self, q: usize, rh: f64) {
        let mut r = 1.0;
        for j in 1..=q {
            r *= rh;
            for z in self.col_mut(j) {
                *z *= r;
            }
        }
    }

    /// Corrector update `z_j += l_j acor`, j = 0..=q.
    pub(crate) fn add_correction(&mut self, q: usize, el: &[f64; MAX_COLS], acor: &[f64]) {
        for (j, e) in el.iter().enumerate().take(q + 1) {
            for (z, a) in self.col_mut(j).iter_mut().zip(acor) {
                *z += e * a;
            }
        }
    }
}

/// The Pascal triangle of [`History::predict`] on components `i0..i0 + W` of columns `0..=q`.
/// In each pass k, `z_j = op(z_j, z_{j+1})` for ascending j reads the `z_{j+1}` of the
/// previous pass, as the column-by-column loop does.
fn pascal_block<const W: usize>(data: &mut [f64], n: usize, i0: usize, q: usize, op: impl Fn(f64, f64) -> f64) {
    let mut c = [[0.0f64; W]; MAX_COLS];
    for (j, cj) in c.iter_mut().enumerate().take(q + 1) {
        let s = j * n + i0;
        *cj = data[s..s + W].try_into().expect("block of W");
    }
    for k in 1..=q {
        for j in (q - k)..q {
            let b = c[j + 1];
            for (x, y) in c[j].iter_mut().zip(b) {
                *x = op(*x, y);
            }
        }
    }
    for (j, cj) in c.iter().enumerate().take(q + 1) {
        let s = j * n + i0;
        data[s..s + W].copy_from_slice(cj);
    }
}
