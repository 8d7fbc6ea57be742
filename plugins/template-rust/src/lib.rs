//! Template of a Saltus plugin in Rust. Each `*_fn!` macro exports one function with the C ABI of
//! `plugins/abi/include/saltus_plugin.h`; the body returns `Ok(())` or `Err(status)` (any non-zero
//! status stops the run with an error naming the library, the symbol and the XML element), and a
//! panic inside it is caught and reported as a status. Matrix outputs are column-major.

use saltus_plugin_abi::{export_abi_version, lagrangian_fn, time_fn};

export_abi_version!();

time_fn!(
    /// `<FExt library="my_saltus_plugin" function="weight" params="m g"/>`:
    /// `f_ext(t) = (-m g, 0, …, 0)`.
    weight,
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

lagrangian_fn!(
    /// `<FInt library="my_saltus_plugin" function="spring" jacobian_q="spring_jac_q"
    /// jacobian_v="spring_jac_v" params="k c"/>`: `F_int(t, q, v) = k q + c v`.
    spring,
    |_t, q, v, out, params| {
        let [k, c] = params else { return Err(1) };
        for ((o, qi), vi) in out.iter_mut().zip(q).zip(v) {
            *o = k * qi + c * vi;
        }
        Ok(())
    }
);

/// `out = a I` (n×n, column-major).
fn scaled_identity(out: &mut [f64], n: usize, a: f64) -> Result<(), i32> {
    if out.len() != n * n {
        return Err(2);
    }
    out.fill(0.0);
    for i in 0..n {
        out[i + n * i] = a;
    }
    Ok(())
}

lagrangian_fn!(
    /// `∇_q F_int = k I`.
    spring_jac_q,
    |_t, q, _v, out, params| {
        let [k, _c] = params else { return Err(1) };
        scaled_identity(out, q.len(), *k)
    }
);

lagrangian_fn!(
    /// `∇_v F_int = c I`.
    spring_jac_v,
    |_t, q, _v, out, params| {
        let [_k, c] = params else { return Err(1) };
        scaled_identity(out, q.len(), *c)
    }
);
