//! Example Saltus plugin for `samples/diode_bridge/diode_bridge_plugin.xml`: the LC-tank state
//! matrix of the diode bridge, `A = [[0, -1/C], [1/L, 0]]` for `x = (v_C, i_L)`, computed from
//! `params = [L, C]` (column-major output, 2×2).
//!
//! The same circuit written as a nonlinear model (`FirstOrderNonLinearDS` with `f(t, x) = A x`
//! and a `FirstOrderType2R` bridge `y = h(x, λ) = C x + D λ`, `r = g(λ) = B λ`): the functions
//! `lc_tank_*` and `bridge_*` below, which the Python tests compare with the same model written
//! as Python callables (bit for bit) and with the linear model (to round-off).
#![warn(missing_docs)]

use saltus_plugin_abi::{export_abi_version, relation_fn, time_fn, vector_field_fn};

export_abi_version!();

time_fn!(
    /// `A(t) = [[0, -1/C], [1/L, 0]]` (column-major: `[0, 1/L, -1/C, 0]`); `params = [L, C]`.
    /// Status 1 if the parameters are missing or not positive, 2 if `nout != 4`.
    lc_tank_matrix,
    |_t, out, params| {
        let [l, c] = params else { return Err(1) };
        if !(*l > 0.0 && *c > 0.0) {
            return Err(1);
        }
        if out.len() != 4 {
            return Err(2);
        }
        out.copy_from_slice(&[0.0, 1.0 / l, -1.0 / c, 0.0]);
        Ok(())
    }
);

/// `[L, C]` from the parameters, both positive (status 1 otherwise).
fn tank(params: &[f64]) -> Result<(f64, f64), i32> {
    match params {
        [l, c] if *l > 0.0 && *c > 0.0 => Ok((*l, *c)),
        _ => Err(1),
    }
}

/// `[R, C]` from the parameters, both positive (status 1 otherwise).
fn load(params: &[f64]) -> Result<(f64, f64), i32> {
    match params {
        [r, c] if *r > 0.0 && *c > 0.0 => Ok((*r, *c)),
        _ => Err(1),
    }
}

/// Status 2 unless `out` has `n` values and the inputs at least `need`.
fn sizes(out: &[f64], n: usize, input: &[f64], need: usize) -> Result<(), i32> {
    if out.len() != n || input.len() < need {
        return Err(2);
    }
    Ok(())
}

vector_field_fn!(
    /// The LC tank as a vector field: `f(t, x) = A x = ((-1/C) i_L, (1/L) v_C)`; `params = [L, C]`.
    lc_tank_field,
    |_t, x, out, params| {
        let (l, c) = tank(params)?;
        sizes(out, 2, x, 2)?;
        out[0] = (-1.0 / c) * x[1];
        out[1] = (1.0 / l) * x[0];
        Ok(())
    }
);

vector_field_fn!(
    /// `∇ₓf = A = [[0, -1/C], [1/L, 0]]` (column-major); `params = [L, C]`.
    lc_tank_jacobian,
    |_t, _x, out, params| {
        let (l, c) = tank(params)?;
        if out.len() != 4 {
            return Err(2);
        }
        out.copy_from_slice(&[0.0, 1.0 / l, -1.0 / c, 0.0]);
        Ok(())
    }
);

relation_fn!(
    /// The four diodes, `y = h(x, λ) = C x + D λ` with `G = 1/R`:
    /// `y = (G λ₀ + G λ₁ − λ₂, G λ₀ + G λ₁ − λ₃, −v_C + λ₀, v_C + λ₁)`; `params = [R, C]`.
    bridge_h,
    |_t, x, lambda, out, params| {
        let (r, _) = load(params)?;
        sizes(out, 4, x, 1)?;
        sizes(out, 4, lambda, 4)?;
        let g = 1.0 / r;
        out[0] = g * lambda[0] + g * lambda[1] - lambda[2];
        out[1] = g * lambda[0] + g * lambda[1] - lambda[3];
        out[2] = -x[0] + lambda[0];
        out[3] = x[0] + lambda[1];
        Ok(())
    }
);

relation_fn!(
    /// `C = ∇ₓh` (4×2, column-major): `[[0, 0], [0, 0], [−1, 0], [1, 0]]`.
    bridge_jacobian_h_x,
    |_t, _x, _lambda, out, _params| {
        if out.len() != 8 {
            return Err(2);
        }
        out.copy_from_slice(&[0.0, 0.0, -1.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
        Ok(())
    }
);

relation_fn!(
    /// `D = ∇_λ h` (4×4, column-major): `[[G, G, −1, 0], [G, G, 0, −1], [1, 0, 0, 0], [0, 1, 0, 0]]`.
    bridge_jacobian_h_lambda,
    |_t, _x, _lambda, out, params| {
        let (r, _) = load(params)?;
        if out.len() != 16 {
            return Err(2);
        }
        let g = 1.0 / r;
        out.copy_from_slice(&[g, g, 1.0, 0.0, g, g, 0.0, 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0]);
        Ok(())
    }
);

relation_fn!(
    /// `r = g(λ) = B λ = ((1/C)(λ₃ − λ₂), 0)` (called with `λ` as `x`); `params = [R, C]`.
    bridge_g,
    |_t, lambda, _, out, params| {
        let (_, c) = load(params)?;
        sizes(out, 2, lambda, 4)?;
        out[0] = (1.0 / c) * (lambda[3] - lambda[2]);
        out[1] = 0.0;
        Ok(())
    }
);

relation_fn!(
    /// `B = ∇_λ g` (2×4, column-major): `[[0, 0, −1/C, 1/C], [0, 0, 0, 0]]`.
    bridge_jacobian_g,
    |_t, _lambda, _, out, params| {
        let (_, c) = load(params)?;
        if out.len() != 8 {
            return Err(2);
        }
        out.copy_from_slice(&[0.0, 0.0, 0.0, 0.0, -1.0 / c, 0.0, 1.0 / c, 0.0]);
        Ok(())
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tank_matrix_of_the_tutorial() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let mut out = [0.0; 4];
            let p = [1e-2, 1e-6];
            assert_eq!(lc_tank_matrix(0.0, 4, out.as_mut_ptr(), 2, p.as_ptr()), 0);
            assert_eq!(out, [0.0, 100.0, -1e6, 0.0]);
            assert_eq!(lc_tank_matrix(0.0, 3, out.as_mut_ptr(), 2, p.as_ptr()), 2);
        }
    }

    /// `M v` for a column-major `rows×cols` matrix.
    fn mul(m: &[f64], rows: usize, v: &[f64]) -> Vec<f64> {
        (0..rows).map(|i| v.iter().enumerate().map(|(j, vj)| m[i + j * rows] * vj).sum()).collect()
    }

    #[test]
    fn nonlinear_form_is_the_linear_sample() {
        // The sample's matrices (samples/diode_bridge/diode_bridge.xml), column-major.
        let a = [0.0, 100.0, -1e6, 0.0];
        let c = [0.0, 0.0, -1.0, 1.0, 0.0, 0.0, 0.0, 0.0];
        let d = [1e-3, 1e-3, 1.0, 0.0, 1e-3, 1e-3, 0.0, 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0];
        let b = [0.0, 0.0, 0.0, 0.0, -1e6, 0.0, 1e6, 0.0];
        let (tank_p, load_p) = ([1e-2, 1e-6], [1e3, 1e-6]);
        let x = [3.5, -0.25];
        let lambda = [0.5, 2.0, -1.5, 0.75];
        let (mut f, mut ja, mut y, mut jc, mut jd, mut r, mut jb) =
            ([0.0; 2], [0.0; 4], [0.0; 4], [0.0; 8], [0.0; 16], [0.0; 2], [0.0; 8]);
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let (xp, lp, tp, pp) = (x.as_ptr(), lambda.as_ptr(), tank_p.as_ptr(), load_p.as_ptr());
            assert_eq!(lc_tank_field(0.0, 2, xp, 2, f.as_mut_ptr(), 2, tp), 0);
            assert_eq!(lc_tank_jacobian(0.0, 2, xp, 4, ja.as_mut_ptr(), 2, tp), 0);
            assert_eq!(bridge_h(0.0, 2, xp, 4, lp, 4, y.as_mut_ptr(), 2, pp), 0);
            assert_eq!(bridge_jacobian_h_x(0.0, 2, xp, 4, lp, 8, jc.as_mut_ptr(), 2, pp), 0);
            assert_eq!(bridge_jacobian_h_lambda(0.0, 2, xp, 4, lp, 16, jd.as_mut_ptr(), 2, pp), 0);
            assert_eq!(bridge_g(0.0, 4, lp, 0, lp, 2, r.as_mut_ptr(), 2, pp), 0);
            assert_eq!(bridge_jacobian_g(0.0, 4, lp, 0, lp, 8, jb.as_mut_ptr(), 2, pp), 0);
            assert_eq!(bridge_h(0.0, 2, xp, 4, lp, 4, y.as_mut_ptr(), 1, pp), 1, "missing C");
        }
        let close = |u: &[f64], v: &[f64]| u.iter().zip(v).all(|(p, q)| (p - q).abs() <= 1e-12 * (1.0 + q.abs()));
        assert!(close(&ja, &a) && close(&jc, &c) && close(&jd, &d) && close(&jb, &b));
        assert!(close(&f, &mul(&a, 2, &x)));
        let cx = mul(&c, 4, &x);
        let dl = mul(&d, 4, &lambda);
        let yl: Vec<f64> = cx.iter().zip(&dl).map(|(p, q)| p + q).collect();
        assert!(close(&y, &yl));
        assert!(close(&r, &mul(&b, 2, &lambda)));
    }
}
