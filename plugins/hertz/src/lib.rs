//! Saltus plugin of `samples/compliant_hertz`: a `LagrangianCompliantR` for a ball on a floor
//! with a regularized Hertz compliance.
//!
//! The penetration under the normal force `λ ≥ 0` is `δ(λ) = c ((λ + λr)^{2/3} − λr^{2/3})`:
//! Hertz's `λ = (δ/c)^{3/2}` (a sphere of radius R on a flat, `c = (3 / (4 E* √R))^{2/3}`) for
//! `λ ≫ λr`, and a finite compliance `δ'(0) = (2/3) c λr^{-1/3}` at first touch (a pure Hertz
//! law has `δ'(0) = ∞`, which no Newton step can use). With `q₀` the height of the centre and
//! `e = −r`: `y = h(q, λ) = q₀ + e + δ(λ)`, `∇_q h = [1 0 …]`, `∇_λ h = δ'(λ) = (2/3) c (λ + λr)^{-1/3}`.
//! `params = [e, c, λr]` for every function (status 1 unless `c > 0`, `λr > 0`); status 2 on
//! sizes other than one output and one multiplier; status 3 if `λ + λr ≤ 0` (outside the law).
#![warn(missing_docs)]

use saltus_plugin_abi::{export_abi_version, relation_fn};

export_abi_version!();

/// The contact parameters.
struct Hertz {
    e: f64,
    c: f64,
    lr: f64,
}

impl Hertz {
    /// From `params = [e, c, λr]`.
    fn from(params: &[f64]) -> Result<Hertz, i32> {
        let [e, c, lr] = *params else { return Err(1) };
        if !(e.is_finite() && c > 0.0 && c.is_finite() && lr > 0.0 && lr.is_finite()) {
            return Err(1);
        }
        Ok(Hertz { e, c, lr })
    }
    /// `λ + λr`, status 3 unless positive.
    fn loaded(&self, l: f64) -> Result<f64, i32> {
        let s = l + self.lr;
        if s > 0.0 {
            Ok(s)
        } else {
            Err(3)
        }
    }
    /// The penetration `δ(λ)`.
    fn delta(&self, l: f64) -> Result<f64, i32> {
        Ok(self.c * (self.loaded(l)?.powf(2.0 / 3.0) - self.lr.powf(2.0 / 3.0)))
    }
    /// The compliance `δ'(λ)`.
    fn compliance(&self, l: f64) -> Result<f64, i32> {
        Ok(2.0 / 3.0 * self.c * self.loaded(l)?.powf(-1.0 / 3.0))
    }
}

/// Status 2 unless `q` is not empty, `λ` has one value and `out` has `nout`.
fn sizes(q: &[f64], lambda: &[f64], out: &[f64], nout: usize) -> Result<(f64, f64), i32> {
    match (q.first(), lambda) {
        (Some(q0), [l]) if out.len() == nout => Ok((*q0, *l)),
        _ => Err(2),
    }
}

relation_fn!(
    /// `y = h(q, λ) = q₀ + e + δ(λ)`.
    hertz_h,
    |_t, q, lambda, out, params| {
        let p = Hertz::from(params)?;
        let (q0, l) = sizes(q, lambda, out, 1)?;
        out[0] = q0 + p.e + p.delta(l)?;
        Ok(())
    }
);

relation_fn!(
    /// `∇_q h = [1 0 …]` (1×n).
    hertz_jacobian_q,
    |_t, q, lambda, out, params| {
        Hertz::from(params)?;
        sizes(q, lambda, out, q.len())?;
        out.fill(0.0);
        out[0] = 1.0;
        Ok(())
    }
);

relation_fn!(
    /// `∇_λ h = δ'(λ) = (2/3) c (λ + λr)^{-1/3}`.
    hertz_jacobian_lambda,
    |_t, q, lambda, out, params| {
        let p = Hertz::from(params)?;
        let (_, l) = sizes(q, lambda, out, 1)?;
        out[0] = p.compliance(l)?;
        Ok(())
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    type RelFn = unsafe extern "C" fn(f64, u32, *const f64, u32, *const f64, u32, *mut f64, u32, *const f64) -> i32;

    fn call(f: RelFn, q: f64, l: f64, p: &[f64]) -> Result<f64, i32> {
        let (x, lam, mut out) = ([q], [l], [0.0]);
        // SAFETY: every pointer points at a live local array of the length passed with it.
        let s = unsafe { f(0.0, 1, x.as_ptr(), 1, lam.as_ptr(), 1, out.as_mut_ptr(), p.len() as u32, p.as_ptr()) };
        if s == 0 {
            Ok(out[0])
        } else {
            Err(s)
        }
    }

    /// Both Jacobians against central differences, and the Hertz limit `λ ≫ λr`.
    #[test]
    fn jacobians_match_finite_differences() {
        let p = [-0.1, 1e-4, 1e-2];
        for (q, l) in [(0.099, 0.0), (0.0995, 3.0), (0.09, 250.0)] {
            let eq = 1e-7;
            let el = 1e-6 * (1.0 + l);
            let fd_q = (call(hertz_h, q + eq, l, &p).unwrap() - call(hertz_h, q - eq, l, &p).unwrap()) / (2.0 * eq);
            let fd_l = (call(hertz_h, q, l + el, &p).unwrap() - call(hertz_h, q, l - el, &p).unwrap()) / (2.0 * el);
            let jq = call(hertz_jacobian_q, q, l, &p).unwrap();
            let jl = call(hertz_jacobian_lambda, q, l, &p).unwrap();
            assert!((fd_q - jq).abs() <= 1e-7, "{fd_q} vs {jq}");
            assert!((fd_l - jl).abs() <= 1e-7 * jl, "{fd_l} vs {jl}");
        }
        // the pure Hertz law for λr → 0: y(q = r − c λ^{2/3}, λ) = −c λr^{2/3} + O(c λr λ^{-1/3})
        let (c, l, lr): (f64, f64, f64) = (1e-4, 1e3, 1e-9);
        let y = call(hertz_h, 0.1 - c * l.powf(2.0 / 3.0), l, &[-0.1, c, lr]).unwrap();
        assert!((y + c * lr.powf(2.0 / 3.0)).abs() <= 1e-14, "{y}");
    }

    #[test]
    fn bad_parameters_and_sizes_are_refused() {
        assert_eq!(call(hertz_h, 0.1, 0.0, &[-0.1, 1e-4]), Err(1));
        assert_eq!(call(hertz_h, 0.1, 0.0, &[-0.1, -1e-4, 1e-2]), Err(1));
        assert_eq!(call(hertz_h, 0.1, 0.0, &[-0.1, 1e-4, 0.0]), Err(1));
        assert_eq!(call(hertz_jacobian_lambda, 0.1, -1.0, &[-0.1, 1e-4, 1e-2]), Err(3));
        let (x, lam, mut out) = ([0.1], [0.0, 0.0], [0.0]);
        let p = [-0.1, 1e-4, 1e-2];
        // SAFETY: every pointer points at a live local array of the length passed with it.
        let s = unsafe { hertz_h(0.0, 1, x.as_ptr(), 2, lam.as_ptr(), 1, out.as_mut_ptr(), 3, p.as_ptr()) };
        assert_eq!(s, 2);
    }
}
