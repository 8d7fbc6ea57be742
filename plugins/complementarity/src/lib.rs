//! `F` and `∇F` of nonlinear complementarity problems, for `<Problem>` files (`docs/model-format.md`,
//! "Complementarity problems") and `saltus.numerics.ncp(..., plugin=...)`: the vector-field ABI, called
//! with `t = 0`; Jacobians are column-major (`out[i + n j] = ∂F_i/∂z_j`).
//!
//! * `cable_force`: the energy gradient of a cable over a floor (sample `samples/cable_on_obstacle/`).
//!   Nodes `i = 1..n` at heights `y_i`, ends fixed at height `H` (`y_0 = y_{n+1} = H`), segments with the
//!   hardening spring energy `φ(δ) = k δ²/2 + k₃ δ⁴/4` of the height difference `δ`, nodal weight `w`:
//!   `E(y) = Σ_{i=0..n} φ(y_{i+1} − y_i) + w Σ y_i`, and
//!   `F_i(y) = ∂E/∂y_i = φ'(y_i − y_{i−1}) − φ'(y_{i+1} − y_i) + w`, with `φ'(δ) = k δ + k₃ δ³`.
//!   The floor `y ≥ 0` makes the equilibrium the NCP `0 ≤ y ⊥ F(y) ≥ 0` (the minimum of the convex `E`
//!   on `y ≥ 0`); `F_i` is then the floor's reaction on node `i`. `params = [k, k3, w, H]`.
//! * `mcplib_f`: the MCPLIB family of Kojima–Shindo (`params = [10, 9, 9]`; solutions `(√6/2, 0, 0, ½)`
//!   and `(1, 0, 3, 0)`) and Josephy (`[3, 3, 1]`; solution `(√6/2, 0, 0, ½)`):
//!   `F(a, b, c, d) = (3a² + 2ab + 2b² + c + 3d − 6, 2a² + a + b² + k₁c + 2d − 2,
//!   3a² + ab + 2b² + 2c + k₂d − k₃, a² + 3b² + 2c + 3d − 3)`.
//!
//! * `shift_f` (`F(x) = x − a`) and `halfspace_projection` (onto `{x : w·x ≤ c}`): a VI on a set known by
//!   its projection, solved by `x = P_K(a)`.
//!
//! A wrong size or parameter count returns status 1.

use saltus_plugin_abi::{export_abi_version, vector_field_fn};

export_abi_version!();

/// `φ'(δ) = k δ + k₃ δ³` and `φ''(δ) = k + 3 k₃ δ²`.
fn spring(k: f64, k3: f64, d: f64) -> (f64, f64) {
    (k * d + k3 * d * d * d, k + 3.0 * k3 * d * d)
}

/// The height of node `i` of `y`, with the ends `y_0 = y_{n+1} = h`.
fn node(y: &[f64], i: isize, h: f64) -> f64 {
    if i < 0 || i as usize >= y.len() {
        h
    } else {
        y[i as usize]
    }
}

vector_field_fn!(
    /// The cable's `F(y) = ∇E(y)` (see the crate documentation); `params = [k, k3, w, H]`.
    cable_force,
    |_t, y, out, params| {
        let [k, k3, w, h] = params else { return Err(1) };
        if out.len() != y.len() {
            return Err(1);
        }
        for (i, o) in out.iter_mut().enumerate() {
            let j = i as isize;
            let (yi, left, right) = (y[i], node(y, j - 1, *h), node(y, j + 1, *h));
            *o = spring(*k, *k3, yi - left).0 - spring(*k, *k3, right - yi).0 + w;
        }
        Ok(())
    }
);

vector_field_fn!(
    /// The cable's `∇F(y)` (tridiagonal, column-major); `params = [k, k3, w, H]`.
    cable_force_jacobian,
    |_t, y, out, params| {
        let [k, k3, _w, h] = params else { return Err(1) };
        let n = y.len();
        if out.len() != n * n {
            return Err(1);
        }
        out.fill(0.0);
        for i in 0..n {
            let j = i as isize;
            let (yi, left, right) = (y[i], node(y, j - 1, *h), node(y, j + 1, *h));
            let (a, b) = (spring(*k, *k3, yi - left).1, spring(*k, *k3, right - yi).1);
            out[i + n * i] = a + b;
            if i > 0 {
                out[i + n * (i - 1)] = -a;
            }
            if i + 1 < n {
                out[i + n * (i + 1)] = -b;
            }
        }
        Ok(())
    }
);

vector_field_fn!(
    /// The MCPLIB `F` of Kojima–Shindo and Josephy (see the crate documentation); `params = [k1, k2, k3]`.
    mcplib_f,
    |_t, x, out, params| {
        let ([k1, k2, k3], [a, b, c, d]) = (params, x) else { return Err(1) };
        if out.len() != 4 {
            return Err(1);
        }
        out[0] = 3.0 * a * a + 2.0 * a * b + 2.0 * b * b + c + 3.0 * d - 6.0;
        out[1] = 2.0 * a * a + a + b * b + k1 * c + 2.0 * d - 2.0;
        out[2] = 3.0 * a * a + a * b + 2.0 * b * b + 2.0 * c + k2 * d - k3;
        out[3] = a * a + 3.0 * b * b + 2.0 * c + 3.0 * d - 3.0;
        Ok(())
    }
);

vector_field_fn!(
    /// The MCPLIB `∇F` (column-major); `params = [k1, k2, k3]`.
    mcplib_jacobian,
    |_t, x, out, params| {
        let ([k1, k2, _k3], [a, b, _c, _d]) = (params, x) else { return Err(1) };
        if out.len() != 16 {
            return Err(1);
        }
        let rows = [
            [6.0 * a + 2.0 * b, 2.0 * a + 4.0 * b, 1.0, 3.0],
            [4.0 * a + 1.0, 2.0 * b, *k1, 2.0],
            [6.0 * a + b, a + 4.0 * b, 2.0, *k2],
            [2.0 * a, 6.0 * b, 2.0, 3.0],
        ];
        for (i, row) in rows.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                out[i + 4 * j] = *v;
            }
        }
        Ok(())
    }
);

vector_field_fn!(
    /// `F(x) = x − a` (`params = a`): the VI `⟨x − a, y − x⟩ ≥ 0` on `K` is solved by `x = P_K(a)`.
    shift_f,
    |_t, x, out, params| {
        if out.len() != x.len() || params.len() != x.len() {
            return Err(1);
        }
        for ((o, xi), ai) in out.iter_mut().zip(x).zip(params) {
            *o = xi - ai;
        }
        Ok(())
    }
);

vector_field_fn!(
    /// The projection onto the half-space `K = {x : w·x ≤ c}` (`params = [c, w...]`):
    /// `P_K(x) = x − max(0, w·x − c) w / ‖w‖²`, for a `<VI>`'s `<Projection>`.
    halfspace_projection,
    |_t, x, out, params| {
        let Some((c, w)) = params.split_first() else { return Err(1) };
        let ww: f64 = w.iter().map(|v| v * v).sum();
        if w.len() != x.len() || out.len() != x.len() || ww == 0.0 {
            return Err(1);
        }
        let excess = (w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() - c).max(0.0);
        for ((o, xi), wi) in out.iter_mut().zip(x).zip(w) {
            *o = xi - excess * wi / ww;
        }
        Ok(())
    }
);
