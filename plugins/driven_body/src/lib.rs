//! Saltus plugin of `samples/driven_body`: user forces on rigid bodies (`<RigidBody><ExternalForce>`).
//!
//! A body force is a vector-field function of `x = (x, y, z, qw, qx, qy, qz, vx, vy, vz, Ωx, Ωy,
//! Ωz)` (13 values: position, orientation, velocity in the world frame, angular velocity in the
//! body frame) with 6 outputs: the force (world frame) and the torque (body frame).
//!
//! `spring_damper`: a linear spring of stiffness `k` from the anchor `a`, a linear damper `c` on
//! the velocity and a rotational damper `c_r` on the angular velocity:
//! `f = −k (x − a) − c v`, `τ = −c_r Ω`; `params = [k, c, ax, ay, az, c_r]`. Status 1 on other
//! params, 2 on other sizes.
//!
//! `tilted_normal`: a `<ContactHook>` turning every contact normal by `alpha` about the world `y` axis.
//!
//! `ramp`: a prescribed velocity (`<BoundaryCondition type="Function">`), `out_i = a t` for every
//! prescribed index; `params = [a]`.
#![warn(missing_docs)]

use saltus_plugin_abi::{export_abi_version, time_fn, vector_field_fn};

export_abi_version!();

vector_field_fn!(
    /// `(f, τ) = (−k (x − a) − c v, −c_r Ω)`.
    spring_damper,
    |_t, x, out, params| {
        let [k, c, ax, ay, az, cr] = *params else { return Err(1) };
        if x.len() != 13 || out.len() != 6 {
            return Err(2);
        }
        let a = [ax, ay, az];
        for i in 0..3 {
            out[i] = -k * (x[i] - a[i]) - c * x[7 + i];
            out[3 + i] = -cr * x[10 + i];
        }
        Ok(())
    }
);

time_fn!(
    /// `out_i = a t` (`params = [a]`).
    ramp,
    |t, out, params| {
        let [a] = *params else { return Err(1) };
        out.fill(a * t);
        Ok(())
    }
);

vector_field_fn!(
    /// `<ContactHook>`: every contact normal rotated by `alpha` about the world `y` axis
    /// (`params = [alpha]`): a flat floor whose contacts push as a slope of angle `alpha` would.
    /// Inputs: the normal, the two contact points, the gap and the two bodies' 13 numbers (36);
    /// output: the normal (3).
    tilted_normal,
    |_t, x, out, params| {
        let [alpha] = *params else { return Err(1) };
        if x.len() != 36 || out.len() != 3 {
            return Err(2);
        }
        let (s, c) = alpha.sin_cos();
        out[0] = c * x[0] + s * x[2];
        out[1] = x[1];
        out[2] = -s * x[0] + c * x[2];
        Ok(())
    }
);
