//! Plugin of `samples/cartesian_pendulum`: a point mass at q = (x, y) on a rigid massless rod of
//! length l attached at the origin, written in Cartesian coordinates as the holonomic constraint
//! `h(q) = (x² + y² − l²) / (2 l) = 0` with Jacobian `∇h = (x, y) / l`; `params = [l]`. And
//! the event reset `rod_paddle` of `cartesian_pendulum_paddle_nullspace.xml`.
#![warn(missing_docs)]
// The exported functions are the C ABI: the loader passes pointers with the lengths the ABI
// contract states, and the export macro checks them (null with non-zero length is an error).
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use saltus_plugin_abi::{export_abi_version, relation_fn, vector_field_fn};

export_abi_version!();

relation_fn!(
    /// `h(q) = (x² + y² − l²) / (2 l)`; `params = [l]`; status 1 on bad sizes or parameters.
    rod_h,
    |_t, q, _lambda, out, params| {
        let ([l], [x, y], [h]) = (params, q, out) else { return Err(1) };
        *h = (x * x + y * y - l * l) / (2.0 * l);
        Ok(())
    }
);

relation_fn!(
    /// `∇h(q) = (x / l, y / l)` (a 1×2 matrix); `params = [l]`; status 1 on bad sizes.
    rod_jacobian,
    |_t, q, _lambda, out, params| {
        let ([l], [x, y], [jx, jy]) = (params, q, out) else { return Err(1) };
        *jx = x / l;
        *jy = y / l;
        Ok(())
    }
);

vector_field_fn!(
    /// Event reset of a paddle striking the bob back, `s = (x, y, ẋ, ẏ)`:
    /// `(ẋ, ẏ) := −e (ẋ, ẏ)`, the position unchanged; `params = [e]`; status 1 on bad sizes or
    /// parameters.
    rod_paddle,
    |_t, s, out, params| {
        let ([e], [x, y, vx, vy], [ox, oy, ovx, ovy]) = (params, s, out) else { return Err(1) };
        (*ox, *oy, *ovx, *ovy) = (*x, *y, -e * vx, -e * vy);
        Ok(())
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraint_vanishes_on_the_circle_and_jacobian_is_its_gradient() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let (l, q) = (2.0f64, [1.2f64, -1.6f64]);
            let (mut h, mut j) = ([9.0], [9.0; 2]);
            assert_eq!(rod_h(0.0, 2, q.as_ptr(), 0, std::ptr::null(), 1, h.as_mut_ptr(), 1, &l), 0);
            assert!(h[0].abs() < 1e-15);
            assert_eq!(rod_jacobian(0.0, 2, q.as_ptr(), 0, std::ptr::null(), 2, j.as_mut_ptr(), 1, &l), 0);
            let eps = 1e-6;
            let mut hp = [0.0];
            let qp = [q[0] + eps, q[1]];
            rod_h(0.0, 2, qp.as_ptr(), 0, std::ptr::null(), 1, hp.as_mut_ptr(), 1, &l);
            assert!(((hp[0] - h[0]) / eps - j[0]).abs() < 1e-5);
            assert_eq!(rod_h(0.0, 2, q.as_ptr(), 0, std::ptr::null(), 1, h.as_mut_ptr(), 0, std::ptr::null()), 1);
        }
    }

    #[test]
    fn paddle_reverses_and_scales_the_velocity_only() {
        let (s, mut out, e) = ([0.0, -1.0, -3.0, 0.5], [9.0; 4], 0.8f64);
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            assert_eq!(rod_paddle(0.0, 4, s.as_ptr(), 4, out.as_mut_ptr(), 1, &e), 0);
            assert_eq!(out, [0.0, -1.0, 2.4000000000000004, -0.4]);
            assert_eq!(rod_paddle(0.0, 4, s.as_ptr(), 3, out.as_mut_ptr(), 1, &e), 1);
        }
    }
}
