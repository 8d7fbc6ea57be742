//! Plugin of `samples/slider_crank`: the planar slider–crank mechanism with a translational
//! clearance between the slider and its guide (Flores, Leine & Glocker, Multibody Syst. Dyn.
//! 23 (2010) 165–190), as a `LagrangianDS` in q = (θ1 crank, θ2 rod, θ3 slider tilt)
//! `M(q) q̈ + F_gyr(q, q̇) + F_int(q) = p` with four unilateral contacts, one per slider corner.
//! The equations are in [`model`]; this file exports them with the Saltus C ABI.
//!
//! | symbol | ABI family | value | `params` |
//! |---|---|---|---|
//! | `slider_crank_mass` | vector field of q | `M(q)` (3×3, column-major) | [`Mechanism`] |
//! | `slider_crank_fgyr`, `_fgyr_jacobian_q`, `_fgyr_jacobian_v` | Lagrangian | `F_gyr`, `∂F_gyr/∂q`, `∂F_gyr/∂v` | [`Mechanism`] |
//! | `slider_crank_gravity`, `_gravity_jacobian_q`, `_gravity_jacobian_v` | Lagrangian | `F_int = ∇V`, `∂F_int/∂q`, 0 | [`Mechanism`] |
//! | `slider_crank_gap`, `slider_crank_gap_jacobian` | relation of q | corner gap `g(q)`, `∇g(q)` (1×3); with 2 outputs (friction) also the tangential coordinate `X(q)`: `(g, X)`, `(∇g; ∇X)` (2×3) | [`Corner`] |
//!
//! Every function returns status 1 when the sizes are not those of the table (3 coordinates)
//! or the parameters are invalid, and never writes a non-finite value from finite inputs.
#![warn(missing_docs)]
// The exported functions are the C ABI: the loader passes pointers with the lengths the ABI
// contract states, and the export macros check them (null with non-zero length is an error).
#![allow(clippy::not_unsafe_ptr_arg_deref)]

pub mod model;

pub use model::{Corner, Mechanism};
use saltus_plugin_abi::{export_abi_version, lagrangian_fn, relation_fn, vector_field_fn};

export_abi_version!();

/// Status of a call with bad sizes or parameters.
const BAD_INPUT: i32 = 1;

fn coords(q: &[f64]) -> Result<[f64; 3], i32> {
    <[f64; 3]>::try_from(q).map_err(|_| BAD_INPUT)
}

fn mechanism(p: &[f64]) -> Result<Mechanism, i32> {
    Mechanism::from_params(p).ok_or(BAD_INPUT)
}

/// Writes a row-major 3×3 matrix into a column-major output of 9 values.
fn write_matrix(a: &[[f64; 3]; 3], out: &mut [f64]) -> Result<(), i32> {
    if out.len() != 9 {
        return Err(BAD_INPUT);
    }
    for (i, row) in a.iter().enumerate() {
        for (j, x) in row.iter().enumerate() {
            out[i + 3 * j] = *x;
        }
    }
    Ok(())
}

fn write_vector(a: &[f64; 3], out: &mut [f64]) -> Result<(), i32> {
    if out.len() != 3 {
        return Err(BAD_INPUT);
    }
    out.copy_from_slice(a);
    Ok(())
}

vector_field_fn!(
    /// `M(q)`, 3×3 column-major; `params` = `[l1, l2, m1, m2, m3, J1, J2, J3, g]`.
    slider_crank_mass,
    |_t, q, out, params| { write_matrix(&mechanism(params)?.mass(&coords(q)?), out) }
);

lagrangian_fn!(
    /// `F_gyr(q, v) = k sin(θ1 − θ2) (ω2², −ω1², 0)`, `k = (m2/2 + m3) l1 l2`.
    slider_crank_fgyr,
    |_t, q, v, out, params| { write_vector(&mechanism(params)?.gyroscopic(&coords(q)?, &coords(v)?), out) }
);

lagrangian_fn!(
    /// `∂F_gyr/∂q`, 3×3 column-major.
    slider_crank_fgyr_jacobian_q,
    |_t, q, v, out, params| { write_matrix(&mechanism(params)?.gyroscopic_jac_q(&coords(q)?, &coords(v)?), out) }
);

lagrangian_fn!(
    /// `∂F_gyr/∂v`, 3×3 column-major.
    slider_crank_fgyr_jacobian_v,
    |_t, q, v, out, params| { write_matrix(&mechanism(params)?.gyroscopic_jac_v(&coords(q)?, &coords(v)?), out) }
);

lagrangian_fn!(
    /// Gravity as the internal force `F_int(q) = ∇V(q)`.
    slider_crank_gravity,
    |_t, q, v, out, params| {
        coords(v)?;
        write_vector(&mechanism(params)?.gravity(&coords(q)?), out)
    }
);

lagrangian_fn!(
    /// `∂F_int/∂q`, 3×3 column-major (diagonal).
    slider_crank_gravity_jacobian_q,
    |_t, q, v, out, params| {
        coords(v)?;
        write_matrix(&mechanism(params)?.gravity_jac_q(&coords(q)?), out)
    }
);

lagrangian_fn!(
    /// `∂F_int/∂v = 0`.
    slider_crank_gravity_jacobian_v,
    |_t, q, v, out, params| {
        coords(q)?;
        coords(v)?;
        mechanism(params)?;
        write_matrix(&[[0.0; 3]; 3], out)
    }
);

relation_fn!(
    /// Corner gap `g(q) = (b + c) − sy Y(q)` (1 output), or `(g(q), X(q))` (2 outputs: normal
    /// then tangential, for a friction law); `params` = `[l1, l2, a, b, c, sx, sy]`.
    slider_crank_gap,
    |_t, q, _lambda, out, params| {
        let corner = Corner::from_params(params).ok_or(BAD_INPUT)?;
        let q = coords(q)?;
        match out {
            [g] => *g = corner.gap(&q),
            [g, x] => (*g, *x) = (corner.gap(&q), corner.abscissa(&q)),
            _ => return Err(BAD_INPUT),
        }
        Ok(())
    }
);

relation_fn!(
    /// `∇g(q)` (1×3), or the 2×3 column-major `(∇g; ∇X)` with 2 outputs;
    /// `params` = `[l1, l2, a, b, c, sx, sy]`.
    slider_crank_gap_jacobian,
    |_t, q, _lambda, out, params| {
        let corner = Corner::from_params(params).ok_or(BAD_INPUT)?;
        let q = coords(q)?;
        let n = corner.gap_jacobian(&q);
        match out.len() {
            3 => write_vector(&n, out),
            6 => {
                let t = corner.abscissa_jacobian(&q);
                for j in 0..3 {
                    out[2 * j] = n[j];
                    out[2 * j + 1] = t[j];
                }
                Ok(())
            }
            _ => Err(BAD_INPUT),
        }
    }
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr::null;

    const MECH: [f64; 9] = [0.153, 0.306, 0.038, 0.038, 0.076, 7.4e-5, 5.9e-4, 2.7e-6, 9.81];

    #[test]
    fn exports_write_column_major_and_refuse_bad_sizes() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let (q, v) = ([0.3, -0.2, 0.01], [150.0, -75.0, 2.0]);
            let mut m = [0.0; 9];
            assert_eq!(slider_crank_mass(0.0, 3, q.as_ptr(), 9, m.as_mut_ptr(), 9, MECH.as_ptr()), 0);
            let want = Mechanism::from_params(&MECH).unwrap().mass(&q);
            assert_eq!(m[1], want[1][0]);
            assert_eq!(m[3], want[0][1]);
            assert_eq!(m[8], want[2][2]);
            let mut j = [0.0; 9];
            assert_eq!(
                slider_crank_fgyr_jacobian_v(0.0, 3, q.as_ptr(), v.as_ptr(), 9, j.as_mut_ptr(), 9, MECH.as_ptr()),
                0
            );
            let want = Mechanism::from_params(&MECH).unwrap().gyroscopic_jac_v(&q, &v);
            assert_eq!(j[3], want[0][1]);
            assert_eq!(j[1], want[1][0]);
            // wrong output size, wrong parameter count
            assert_eq!(slider_crank_mass(0.0, 3, q.as_ptr(), 4, m.as_mut_ptr(), 9, MECH.as_ptr()), BAD_INPUT);
            assert_eq!(
                slider_crank_fgyr(0.0, 3, q.as_ptr(), v.as_ptr(), 3, m.as_mut_ptr(), 8, MECH.as_ptr()),
                BAD_INPUT
            );
            let corner = [0.153, 0.306, 0.05, 0.025, 0.001, 1.0, -1.0];
            let mut g = [0.0];
            assert_eq!(slider_crank_gap(0.0, 3, q.as_ptr(), 0, null(), 1, g.as_mut_ptr(), 7, corner.as_ptr()), 0);
            assert_eq!(g[0], Corner::from_params(&corner).unwrap().gap(&q));
            assert_eq!(
                slider_crank_gap(0.0, 3, q.as_ptr(), 0, null(), 3, m.as_mut_ptr(), 7, corner.as_ptr()),
                BAD_INPUT
            );
            // friction form: (g, X) and the 2×3 column-major (∇g; ∇X)
            let c = Corner::from_params(&corner).unwrap();
            let mut gx = [0.0; 2];
            assert_eq!(slider_crank_gap(0.0, 3, q.as_ptr(), 0, null(), 2, gx.as_mut_ptr(), 7, corner.as_ptr()), 0);
            assert_eq!(gx, [c.gap(&q), c.abscissa(&q)]);
            let mut jac = [0.0; 6];
            assert_eq!(
                slider_crank_gap_jacobian(0.0, 3, q.as_ptr(), 0, null(), 6, jac.as_mut_ptr(), 7, corner.as_ptr()),
                0
            );
            assert_eq!((jac[2], jac[3]), (c.gap_jacobian(&q)[1], c.abscissa_jacobian(&q)[1]));
            assert_eq!(
                slider_crank_gap_jacobian(0.0, 3, q.as_ptr(), 0, null(), 4, jac.as_mut_ptr(), 7, corner.as_ptr()),
                BAD_INPUT
            );
            assert_eq!(
                slider_crank_gap(0.0, 2, q.as_ptr(), 0, null(), 1, g.as_mut_ptr(), 7, corner.as_ptr()),
                BAD_INPUT
            );
        }
    }
}
