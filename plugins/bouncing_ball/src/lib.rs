//! Example Saltus plugin for `samples/bouncing_ball/bouncing_ball_ts_plugin.xml`: the weight of
//! the ball as an external force `f_ext(t) = (-m g, 0, 0)` with `params = [m, g]`; and for
//! `samples/ball_events`: the event reset `ball_kick` and the trigger `ball_height`; for
//! `samples/stick_slip_ed`: the harmonic push on a block `harmonic_push`; for the rigid-body
//! variant of `samples/ball_events`: the reset `body_kick` of a body's 13-number state.
#![warn(missing_docs)]
// The exported functions are the C ABI: the loader passes pointers with the lengths the ABI
// contract states, and the export macro checks them (null with non-zero length is an error).
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use saltus_plugin_abi::{export_abi_version, time_fn, vector_field_fn};

export_abi_version!();

time_fn!(
    /// `f_ext(t) = (-m g, 0, …, 0)`; `params = [m, g]`; status 1 if the parameters are missing.
    ball_weight,
    |_t, out, params| {
        let [m, g] = params else { return Err(1) };
        if out.is_empty() {
            return Err(2);
        }
        out.fill(0.0);
        out[0] = -m * g;
        Ok(())
    }
);

time_fn!(
    /// `f_ext(t) = (F0 sin(ω t), −m g, 0, …, 0)`: a block on a horizontal plane (q = (x, z))
    /// pushed by a harmonic force, with its weight; `params = [F0, ω, m, g]`; status 1 if the
    /// parameters are missing, 2 if `out` has fewer than two entries.
    harmonic_push,
    |t, out, params| {
        let [f0, omega, m, g] = params else { return Err(1) };
        if out.len() < 2 {
            return Err(2);
        }
        out.fill(0.0);
        out[0] = f0 * (omega * t).sin();
        out[1] = -m * g;
        Ok(())
    }
);

vector_field_fn!(
    /// Event reset of a ball with state `s = (q, v)`: `v[0] := v_up`, the rest unchanged;
    /// `params = [v_up]`; status 1 on bad sizes or parameters.
    ball_kick,
    |_t, s, out, params| {
        let [v_up] = params else { return Err(1) };
        if s.len() != out.len() || s.len() < 2 || s.len() % 2 != 0 {
            return Err(1);
        }
        out.copy_from_slice(s);
        out[s.len() / 2] = *v_up;
        Ok(())
    }
);

vector_field_fn!(
    /// Event trigger `g(s) = q[0] − z` (the height above `z`) of a ball with state
    /// `s = (q, v)`; `params = [z]`; status 1 on bad sizes or parameters.
    ball_height,
    |_t, s, out, params| {
        let ([z], [g]) = (params, out) else { return Err(1) };
        let Some(q0) = s.first() else { return Err(1) };
        *g = q0 - z;
        Ok(())
    }
);

vector_field_fn!(
    /// Event reset of a rigid body with state `s = (x y z, qw qx qy qz, vx vy vz, Ωx Ωy Ωz)`
    /// (13 numbers): `vz := v_up`, the rest unchanged; `params = [v_up]`; status 1 on bad sizes
    /// or parameters.
    body_kick,
    |_t, s, out, params| {
        let [v_up] = params else { return Err(1) };
        if s.len() != 13 || out.len() != 13 {
            return Err(1);
        }
        out.copy_from_slice(s);
        out[9] = *v_up;
        Ok(())
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_of_unit_mass() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let mut out = [5.0; 3];
            let p = [1.0, 9.81];
            assert_eq!(ball_weight(0.3, 3, out.as_mut_ptr(), 2, p.as_ptr()), 0);
            assert_eq!(out, [-9.81, 0.0, 0.0]);
            assert_eq!(ball_weight(0.3, 3, out.as_mut_ptr(), 1, p.as_ptr()), 1);
        }
    }

    #[test]
    fn harmonic_push_is_f0_sin_omega_t_and_the_weight() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let mut out = [5.0; 2];
            let p = [5.0, std::f64::consts::PI, 2.0, 9.81];
            assert_eq!(harmonic_push(0.5, 2, out.as_mut_ptr(), 4, p.as_ptr()), 0);
            assert_eq!(out, [5.0, -19.62]);
            assert_eq!(harmonic_push(0.5, 1, out.as_mut_ptr(), 4, p.as_ptr()), 2);
            assert_eq!(harmonic_push(0.5, 2, out.as_mut_ptr(), 3, p.as_ptr()), 1);
        }
    }

    #[test]
    fn kick_sets_the_first_velocity_and_height_is_q0_minus_z() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let s = [0.3, 7.0, -2.0, 1.0];
            let mut out = [0.0; 4];
            assert_eq!(ball_kick(0.0, 4, s.as_ptr(), 4, out.as_mut_ptr(), 1, [3.0].as_ptr()), 0);
            assert_eq!(out, [0.3, 7.0, 3.0, 1.0]);
            assert_eq!(ball_kick(0.0, 4, s.as_ptr(), 3, out.as_mut_ptr(), 1, [3.0].as_ptr()), 1);
            let mut g = [0.0];
            assert_eq!(ball_height(0.0, 4, s.as_ptr(), 1, g.as_mut_ptr(), 1, [0.5].as_ptr()), 0);
            assert!((g[0] - (0.3 - 0.5)).abs() < 1e-15);
        }
    }

    #[test]
    fn body_kick_sets_vz_only() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let s: Vec<f64> = (0..13).map(f64::from).collect();
            let mut out = [0.0; 13];
            assert_eq!(body_kick(0.0, 13, s.as_ptr(), 13, out.as_mut_ptr(), 1, [3.0].as_ptr()), 0);
            let mut want = s.clone();
            want[9] = 3.0;
            assert_eq!(out.to_vec(), want);
            assert_eq!(body_kick(0.0, 4, s.as_ptr(), 4, out.as_mut_ptr(), 1, [3.0].as_ptr()), 1);
        }
    }
}
