//! Plugin used by the frontend tests to exercise the error paths of the loader: a function that
//! returns a non-zero status, one that panics (the panic must not cross the C boundary), one that
//! returns NaN, and well-behaved relation/Lagrangian/vector-field functions.
#![warn(missing_docs)]

use saltus_plugin_abi::{export_abi_version, lagrangian_fn, relation_fn, time_fn, vector_field_fn};

export_abi_version!();

time_fn!(
    /// Always fails with status 7.
    always_fails,
    |_t, _out, _params| { Err(7) }
);

time_fn!(
    /// Panics (index out of range); the export macro turns this into `STATUS_PANIC`.
    always_panics,
    |_t, out, _params| {
        let i = out.len() + 1;
        out[i] = 1.0;
        Ok(())
    }
);

time_fn!(
    /// Writes NaN.
    returns_nan,
    |_t, out, _params| {
        out.fill(f64::NAN);
        Ok(())
    }
);

time_fn!(
    /// `out[i] = p0 * t + i`.
    ramp,
    |t, out, params| {
        let p0 = params.first().copied().unwrap_or(1.0);
        for (i, o) in out.iter_mut().enumerate() {
            *o = p0 * t + i as f64;
        }
        Ok(())
    }
);

lagrangian_fn!(
    /// Linear spring-damper internal force `f_int = k q + c v`, `params = [k, c]`.
    spring_damper,
    |_t, q, v, out, params| {
        let [k, c] = params else { return Err(1) };
        for i in 0..out.len().min(q.len()) {
            out[i] = k * q[i] + c * v[i];
        }
        Ok(())
    }
);

vector_field_fn!(
    /// Linear decay `f(t, x) = -a x`, `params = [a]`.
    decay,
    |_t, x, out, params| {
        let a = params.first().copied().ok_or(1)?;
        for (o, xi) in out.iter_mut().zip(x) {
            *o = -a * xi;
        }
        Ok(())
    }
);

relation_fn!(
    /// `h(x, λ) = x[0] + 2 λ[0]` (one output).
    affine_relation,
    |_t, x, lambda, out, _params| {
        out[0] = x[0] + 2.0 * lambda[0];
        Ok(())
    }
);

time_fn!(
    /// Weight `(-p1, 0, …)` until `t >= p0`, then status 3 (a plugin that fails mid-run).
    weight_then_fail,
    |t, out, params| {
        let [t_fail, w] = params else { return Err(1) };
        if t >= *t_fail {
            return Err(3);
        }
        out.fill(0.0);
        out[0] = -w;
        Ok(())
    }
);
