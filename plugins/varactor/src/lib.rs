//! Saltus plugin of `samples/varactor_diode`: a `FirstOrderNonLinearR` for a varactor (voltage
//! `v = x₀`, capacitance `C(v) = C0 (1 + α v)`) discharging through an ideal diode and a resistor
//! `R` into a source `E(t)` that steps from `E0` to `E1` at `t = ts`.
//!
//! With `λ = i` the diode current: `y = h(t, x, λ) = R λ + E(t) − v` (the reverse voltage of the
//! diode, `0 ≤ y ⊥ λ ≥ 0`) and `C(v) v̇ = −i`, i.e. `r = g(x, λ) = −λ / C(v)`. Jacobians:
//! `∇ₓh = −1`, `∇_λh = R`, `∇ₓg = λ C0 α / C(v)²`, `∇_λg = −1 / C(v)`.
//! `params = [R, C0, α, E0, E1, ts]` for every function.
#![warn(missing_docs)]

use saltus_plugin_abi::{export_abi_version, relation_fn};

export_abi_version!();

/// The circuit parameters.
struct Circuit {
    r: f64,
    c0: f64,
    alpha: f64,
    e0: f64,
    e1: f64,
    ts: f64,
}

impl Circuit {
    /// From `params = [R, C0, α, E0, E1, ts]` (status 1 unless `R > 0`, `C0 > 0`, `α ≥ 0`).
    fn from(params: &[f64]) -> Result<Circuit, i32> {
        let [r, c0, alpha, e0, e1, ts] = *params else { return Err(1) };
        if !(r > 0.0 && c0 > 0.0 && alpha >= 0.0 && e0.is_finite() && e1.is_finite() && ts.is_finite()) {
            return Err(1);
        }
        Ok(Circuit { r, c0, alpha, e0, e1, ts })
    }
    /// `E(t)`.
    fn source(&self, t: f64) -> f64 {
        if t < self.ts {
            self.e0
        } else {
            self.e1
        }
    }
    /// `C(v) = C0 (1 + α v)`; status 3 unless positive (the model leaves its range).
    fn cap(&self, v: f64) -> Result<f64, i32> {
        let c = self.c0 * (1.0 + self.alpha * v);
        if c > 0.0 {
            Ok(c)
        } else {
            Err(3)
        }
    }
}

/// Status 2 unless `x` and `λ` have one value each and `out` has `nout`.
fn scalar(x: &[f64], lambda: &[f64], out: &[f64], nout: usize) -> Result<(f64, f64), i32> {
    match (x, lambda) {
        ([v], [l]) if out.len() == nout => Ok((*v, *l)),
        _ => Err(2),
    }
}

relation_fn!(
    /// `y = h(t, x, λ) = R λ + E(t) − v`.
    varactor_h,
    |t, x, lambda, out, params| {
        let c = Circuit::from(params)?;
        let (v, l) = scalar(x, lambda, out, 1)?;
        out[0] = c.r * l + c.source(t) - v;
        Ok(())
    }
);

relation_fn!(
    /// `∇ₓh = −1`.
    varactor_jacobian_h_x,
    |_t, x, lambda, out, params| {
        Circuit::from(params)?;
        scalar(x, lambda, out, 1)?;
        out[0] = -1.0;
        Ok(())
    }
);

relation_fn!(
    /// `∇_λh = R`.
    varactor_jacobian_h_lambda,
    |_t, x, lambda, out, params| {
        let c = Circuit::from(params)?;
        scalar(x, lambda, out, 1)?;
        out[0] = c.r;
        Ok(())
    }
);

relation_fn!(
    /// `r = g(x, λ) = −λ / C(v)`.
    varactor_g,
    |_t, x, lambda, out, params| {
        let c = Circuit::from(params)?;
        let (v, l) = scalar(x, lambda, out, 1)?;
        out[0] = -l / c.cap(v)?;
        Ok(())
    }
);

relation_fn!(
    /// `K = ∇ₓg = λ C0 α / C(v)²`.
    varactor_jacobian_g_x,
    |_t, x, lambda, out, params| {
        let c = Circuit::from(params)?;
        let (v, l) = scalar(x, lambda, out, 1)?;
        out[0] = l * c.c0 * c.alpha / c.cap(v)?.powi(2);
        Ok(())
    }
);

relation_fn!(
    /// `B = ∇_λg = −1 / C(v)`.
    varactor_jacobian_g_lambda,
    |_t, x, lambda, out, params| {
        let c = Circuit::from(params)?;
        let (v, _) = scalar(x, lambda, out, 1)?;
        out[0] = -1.0 / c.cap(v)?;
        Ok(())
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    type RelFn = unsafe extern "C" fn(f64, u32, *const f64, u32, *const f64, u32, *mut f64, u32, *const f64) -> i32;

    fn call(f: RelFn, t: f64, v: f64, l: f64, p: &[f64]) -> Result<f64, i32> {
        let (x, lam, mut out) = ([v], [l], [0.0]);
        // SAFETY: every pointer points at a live local array of the length passed with it.
        let s = unsafe { f(t, 1, x.as_ptr(), 1, lam.as_ptr(), 1, out.as_mut_ptr(), p.len() as u32, p.as_ptr()) };
        if s == 0 {
            Ok(out[0])
        } else {
            Err(s)
        }
    }

    /// Every Jacobian against a central difference of its function.
    #[test]
    fn jacobians_match_finite_differences() {
        let p = [2.0, 1.5, 0.5, 1.0, 2.5, 1.0];
        let (t, v, l, e) = (0.5, 2.2, 0.3, 1e-6);
        let fd_x = |f: RelFn| (call(f, t, v + e, l, &p).unwrap() - call(f, t, v - e, l, &p).unwrap()) / (2.0 * e);
        let fd_l = |f: RelFn| (call(f, t, v, l + e, &p).unwrap() - call(f, t, v, l - e, &p).unwrap()) / (2.0 * e);
        let pairs: [(f64, f64); 4] = [
            (fd_x(varactor_h), call(varactor_jacobian_h_x, t, v, l, &p).unwrap()),
            (fd_l(varactor_h), call(varactor_jacobian_h_lambda, t, v, l, &p).unwrap()),
            (fd_x(varactor_g), call(varactor_jacobian_g_x, t, v, l, &p).unwrap()),
            (fd_l(varactor_g), call(varactor_jacobian_g_lambda, t, v, l, &p).unwrap()),
        ];
        for (fd, exact) in pairs {
            assert!((fd - exact).abs() <= 1e-8 * (1.0 + exact.abs()), "{fd} vs {exact}");
        }
        // y = R λ + E(t) − v before and after the step of the source
        assert!((call(varactor_h, 0.5, v, l, &p).unwrap() - (2.0 * l + 1.0 - v)).abs() < 1e-15);
        assert!((call(varactor_h, 1.0, v, l, &p).unwrap() - (2.0 * l + 2.5 - v)).abs() < 1e-15);
    }

    #[test]
    fn bad_parameters_and_sizes_are_refused() {
        assert_eq!(call(varactor_h, 0.0, 1.0, 0.0, &[1.0, 1.0]), Err(1));
        assert_eq!(call(varactor_g, 0.0, 1.0, 0.0, &[-1.0, 1.0, 0.5, 1.0, 2.0, 1.0]), Err(1));
        // C(v) <= 0: outside the model
        assert_eq!(call(varactor_g, 0.0, -3.0, 0.0, &[1.0, 1.0, 0.5, 1.0, 2.0, 1.0]), Err(3));
    }
}
