//! Fixed-step Nordsieck coefficients of the Adams (orders 1–12) and BDF (orders 1–5) methods,
//! the `l` vectors and error-test constants, built as in Hindmarsh's ODEPACK (our own code).
//!
//! For order q, the corrector updates the Nordsieck array `z_j = h^j y^(j)/j!` by
//! `z_j ← z_j + l_j e`, with `e` the accumulated correction. The test constants `tq[q] = [down,
//! same, up]` turn `‖e‖` into error estimates at orders q−1, q and q+1.

/// Largest Adams order.
pub const ADAMS_MAX: usize = 12;
/// Largest BDF order.
pub const BDF_MAX: usize = 5;

/// Approximate stability-interval sizes of the Adams orders 1..=12 (LSODA's SM1), indexed by q.
pub const ADAMS_STAB: [f64; 13] = [0.0, 0.5, 0.575, 0.55, 0.45, 0.35, 0.25, 0.2, 0.15, 0.1, 0.075, 0.05, 0.025];

/// Coefficients of one method family.
#[derive(Debug, Clone)]
pub struct MethodCoeffs {
    /// `l[q][j]`, j = 0..=q, for q = 1..=max.
    pub l: Vec<[f64; 13]>,
    /// `tq[q] = [down, same, up]` test constants (0 when undefined).
    pub tq: Vec<[f64; 3]>,
    /// Error constant used for method comparison: `tq_same(q) · l_q(q)`.
    pub cm: Vec<f64>,
}

/// Adams–Moulton coefficients, orders 1..=12.
pub fn adams() -> MethodCoeffs {
    let mut l = vec![[0.0; 13]; ADAMS_MAX + 2];
    let mut tq = vec![[0.0; 3]; ADAMS_MAX + 2];
    // pc holds the coefficients of p(x) = (x+1)(x+2)...(x+q-1).
    let mut pc = [0.0f64; 14];
    l[1][0] = 1.0;
    l[1][1] = 1.0;
    tq[1] = [0.0, 2.0, 0.0];
    tq[2][0] = 1.0;
    pc[0] = 1.0;
    let mut rqfac = 1.0;
    for q in 2..=ADAMS_MAX {
        let rq1fac = rqfac;
        rqfac /= q as f64;
        let fqm1 = (q - 1) as f64;
        // multiply p by (x + q - 1)
        pc[q - 1] = 0.0;
        for i in (1..q).rev() {
            pc[i] = pc[i - 1] + fqm1 * pc[i];
        }
        pc[0] *= fqm1;
        // integrals over [-1, 0] of p(x) and x p(x)
        let mut pint = pc[0];
        let mut xpin = pc[0] / 2.0;
        let mut sign = 1.0;
        for (i, &c) in pc.iter().enumerate().take(q).skip(1) {
            sign = -sign;
            pint += sign * c / (i + 1) as f64;
            xpin += sign * c / (i + 2) as f64;
        }
        l[q][0] = pint * rq1fac;
        l[q][1] = 1.0;
        for i in 1..q {
            l[q][i + 1] = rq1fac * pc[i] / (i + 1) as f64;
        }
        let ragq = 1.0 / (rqfac * xpin);
        tq[q][1] = ragq;
        if q < ADAMS_MAX {
            tq[q + 1][0] = ragq * rqfac / (q + 1) as f64;
        }
        tq[q - 1][2] = ragq;
    }
    let cm = (0..=ADAMS_MAX).map(|q| if q == 0 { 0.0 } else { tq[q][1] * l[q][q] }).collect();
    MethodCoeffs { l, tq, cm }
}

/// BDF coefficients, orders 1..=5.
pub fn bdf() -> MethodCoeffs {
    let mut l = vec![[0.0; 13]; BDF_MAX + 2];
    let mut tq = vec![[0.0; 3]; BDF_MAX + 2];
    let mut pc = [0.0f64; 14];
    pc[0] = 1.0;
    let mut rq1fac = 1.0;
    for q in 1..=BDF_MAX {
        let fq = q as f64;
        // multiply by (x + q)
        pc[q] = 0.0;
        for i in (1..=q).rev() {
            pc[i] = pc[i - 1] + fq * pc[i];
        }
        pc[0] *= fq;
        for i in 0..=q {
            l[q][i] = pc[i] / pc[1];
        }
        l[q][1] = 1.0;
        tq[q][0] = rq1fac;
        tq[q][1] = (q + 1) as f64 / l[q][0];
        tq[q][2] = (q + 2) as f64 / l[q][0];
        rq1fac /= fq;
    }
    let cm = (0..=BDF_MAX).map(|q| if q == 0 { 0.0 } else { tq[q][1] * l[q][q] }).collect();
    MethodCoeffs { l, tq, cm }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_orders_match_known_methods() {
        let a = adams();
        // order 2 Adams-Moulton = trapezoidal rule: l = (1/2, 1, 1/2), error constant 1/12
        assert!((a.l[2][0] - 0.5).abs() < 1e-15 && (a.l[2][2] - 0.5).abs() < 1e-15);
        assert!((a.tq[2][1] - 12.0).abs() < 1e-12);
        let b = bdf();
        // BDF2: l = (2/3, 1, 1/3)
        assert!((b.l[2][0] - 2.0 / 3.0).abs() < 1e-15 && (b.l[2][2] - 1.0 / 3.0).abs() < 1e-15);
        // order 1 of both families is implicit Euler: equal error constants
        assert!((a.cm[1] - b.cm[1]).abs() < 1e-15);
        // l_1 == 1 always; l_0 of Adams order q is the Adams-Moulton beta_0 ... positive
        for q in 1..=12 {
            assert_eq!(a.l[q][1], 1.0);
            assert!(a.l[q][0] > 0.0 && a.tq[q][1] > 0.0);
        }
    }
}
