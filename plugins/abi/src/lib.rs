//! # Saltus plugin ABI, version 1
//!
//! User functions (forces, mass matrices, relations, vector fields, source terms) can live in a
//! shared library written in any language that can export C functions. This crate is the
//! contract: the ABI version, the four function signatures, the status codes, and macros that
//! export panic-safe Rust functions with the right signature. The C header
//! `plugins/abi/include/saltus_plugin.h` states the same contract for C/C++/Fortran authors.
//!
//! ## The contract
//!
//! * Every plugin library exports `uint32_t saltus_plugin_abi_version(void)` returning
//!   [`ABI_VERSION`]; the loader refuses a library without it or with another value.
//! * Every user function returns an `int32_t` status: `0` = success, anything else = failure
//!   (the loader reports the code, the library, the symbol and the XML element).
//! * Inputs are `const double*` with their lengths; the output is a `double*` of length
//!   `nout`; parameters (`params`, `np` values from the XML `params` attribute) are read-only and
//!   separate from the output. Matrix outputs are **column-major** (`out[i + rows*j] = A[i][j]`).
//! * Functions must be reentrant and keep no global mutable state: the loader may call them from
//!   several threads at once (the wrappers are `Send + Sync`).
//! * A panic must never cross the C boundary (it would abort the process since Rust 1.81): the
//!   export macros of this crate wrap the body in `catch_unwind` and return [`STATUS_PANIC`].
//! * Loading a library runs its initialisers: load only trusted plugins.
//!
//! ## Signatures (one per family)
//!
//! | family | signature | roles |
//! |---|---|---|
//! | [`TimeFn`] | `(t, nout, out, np, params)` | external force `f_ext(t)`, source terms `b(t)`, `e(t)`, time-dependent matrices `A(t)` |
//! | [`LagrangianFn`] | `(t, n, q, v, nout, out, np, params)` | internal force `f_int(t,q,v)`, gyroscopic force `f_gyr(q,v)`, mass matrix `M(q)` (`nout = n*n`), Jacobians (`nout = n*n`) |
//! | [`VectorFieldFn`] | `(t, n, x, nout, out, np, params)` | first-order vector field `f(t,x)`, its Jacobian `∂f/∂x` (`nout = n*n`) |
//! | [`RelationFn`] | `(t, n, x, m, lambda, nout, out, np, params)` | relation output `h(t,x,λ)` (`nout = m`), input `g(t,x,λ)` (`nout = n`), Jacobians (column-major: ∇ₓh `m*n`, ∇_λh `m*m`, ∇ₓg `n*n`, ∇_λg `n*m`) |
//!
//! ## Example (Rust)
//!
//! ```
//! use saltus_plugin_abi::{export_abi_version, time_fn};
//! export_abi_version!();
//! time_fn!(
//!     /// Weight of a point mass: f_ext = (-m g, 0, 0), params = [m, g].
//!     weight, |_t, out, params| {
//!         let (m, g) = (params[0], params[1]);
//!         out.fill(0.0);
//!         out[0] = -m * g;
//!         Ok(())
//!     }
//! );
//! let mut out = [1.0; 3];
//! let p = [2.0, 10.0];
//! // SAFETY: `out` holds 3 writable values and `p` 2 readable ones, as passed.
//! assert_eq!(unsafe { weight(0.0, 3, out.as_mut_ptr(), 2, p.as_ptr()) }, 0);
//! assert_eq!(out, [-20.0, 0.0, 0.0]);
//! assert_eq!(saltus_plugin_abi_version(), saltus_plugin_abi::ABI_VERSION);
//! ```
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

use std::panic::{catch_unwind, AssertUnwindSafe};

/// The ABI version implemented by this crate and expected by the loader.
pub const ABI_VERSION: u32 = 1;

/// Name of the symbol every plugin library exports (returns [`ABI_VERSION`]).
pub const ABI_VERSION_SYMBOL: &str = "saltus_plugin_abi_version";

/// Status: success.
pub const STATUS_OK: i32 = 0;
/// Status returned by the export macros when the body panicked.
pub const STATUS_PANIC: i32 = -101;
/// Status returned by the export macros when a pointer is null while its length is non-zero.
pub const STATUS_NULL_POINTER: i32 = -102;

/// Pure time function: `out = f(t)` with `nout` values.
pub type TimeFn = unsafe extern "C" fn(t: f64, nout: u32, out: *mut f64, np: u32, params: *const f64) -> i32;

/// Lagrangian function of `(t, q, v)` with `n` degrees of freedom; `nout` = `n` or `n*n`.
pub type LagrangianFn = unsafe extern "C" fn(
    t: f64,
    n: u32,
    q: *const f64,
    v: *const f64,
    nout: u32,
    out: *mut f64,
    np: u32,
    params: *const f64,
) -> i32;

/// First-order vector field of `(t, x)` with state size `n`; `nout` = `n` or `n*n`.
pub type VectorFieldFn =
    unsafe extern "C" fn(t: f64, n: u32, x: *const f64, nout: u32, out: *mut f64, np: u32, params: *const f64) -> i32;

/// Relation function of `(t, x, λ)`: state size `n`, multiplier size `m`, output size `nout`.
pub type RelationFn = unsafe extern "C" fn(
    t: f64,
    n: u32,
    x: *const f64,
    m: u32,
    lambda: *const f64,
    nout: u32,
    out: *mut f64,
    np: u32,
    params: *const f64,
) -> i32;

/// Function type of the version symbol.
pub type AbiVersionFn = extern "C" fn() -> u32;

/// Runs `body` and converts its outcome into a status code: `Ok` -> 0, `Err(code)` -> `code`
/// (a zero error code is turned into -1 so that failure stays failure), panic -> [`STATUS_PANIC`].
pub fn guarded<F: FnOnce() -> Result<(), i32>>(body: F) -> i32 {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => STATUS_OK,
        Ok(Err(0)) => -1,
        Ok(Err(code)) => code,
        Err(_) => STATUS_PANIC,
    }
}

/// Views a C input array as a slice (empty when `len == 0`).
///
/// # Safety
/// When `len > 0`, `ptr` must point to `len` initialised `f64` that stay valid and unmodified
/// for the lifetime `'a` (the duration of the call, per the ABI contract).
pub unsafe fn input<'a>(ptr: *const f64, len: u32) -> Result<&'a [f64], i32> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(STATUS_NULL_POINTER);
    }
    // SAFETY: non-null, and the caller guarantees `len` valid values for `'a`.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len as usize) })
}

/// Views a C output array as a mutable slice (empty when `len == 0`).
///
/// # Safety
/// When `len > 0`, `ptr` must point to `len` writable `f64`, not aliased by any other argument,
/// valid for the lifetime `'a` (the duration of the call, per the ABI contract).
pub unsafe fn output<'a>(ptr: *mut f64, len: u32) -> Result<&'a mut [f64], i32> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(STATUS_NULL_POINTER);
    }
    // SAFETY: non-null, exclusive, and the caller guarantees `len` writable values for `'a`.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len as usize) })
}

/// Exports `saltus_plugin_abi_version() -> u32` returning [`ABI_VERSION`]. Use once per library.
#[macro_export]
macro_rules! export_abi_version {
    () => {
        /// Saltus plugin ABI version implemented by this library.
        #[no_mangle]
        pub extern "C" fn saltus_plugin_abi_version() -> u32 {
            $crate::ABI_VERSION
        }
    };
}

/// Exports a [`TimeFn`]: `time_fn!(name, |t, out, params| { ...; Ok(()) })`.
/// The body returns `Result<(), i32>`; a panic becomes [`STATUS_PANIC`].
#[macro_export]
macro_rules! time_fn {
    ($(#[$m:meta])* $name:ident, |$t:pat_param, $out:ident, $p:ident| $body:block) => {
        $(#[$m])*
        ///
        /// # Safety
        /// Called through the Saltus plugin ABI: every pointer is valid for the length passed with it.
        #[no_mangle]
        pub unsafe extern "C" fn $name(t: f64, nout: u32, out: *mut f64, np: u32, params: *const f64) -> i32 {
            $crate::guarded(|| {
                // SAFETY: the ABI contract gives `nout` writable and `np` readable values.
                let ($out, $p) = unsafe { ($crate::output(out, nout)?, $crate::input(params, np)?) };
                let $t = t;
                let r: ::core::result::Result<(), i32> = $body;
                r
            })
        }
    };
}

/// Exports a [`LagrangianFn`]: `lagrangian_fn!(name, |t, q, v, out, params| { ... })`.
#[macro_export]
macro_rules! lagrangian_fn {
    ($(#[$m:meta])* $name:ident, |$t:pat_param, $q:pat_param, $v:pat_param, $out:ident, $p:ident| $body:block) => {
        $(#[$m])*
        ///
        /// # Safety
        /// Called through the Saltus plugin ABI: every pointer is valid for the length passed with it.
        #[no_mangle]
        pub unsafe extern "C" fn $name(t: f64, n: u32, q: *const f64, v: *const f64, nout: u32,
                                out: *mut f64, np: u32, params: *const f64) -> i32 {
            $crate::guarded(|| {
                // SAFETY: the ABI contract gives `n` values in q and v, `nout` writable values in
                // out and `np` readable values in params, valid for the call.
                let (qs, vs, $out, $p) = unsafe {
                    ($crate::input(q, n)?, $crate::input(v, n)?, $crate::output(out, nout)?,
                     $crate::input(params, np)?)
                };
                let ($t, $q, $v) = (t, qs, vs);
                let r: ::core::result::Result<(), i32> = $body;
                r
            })
        }
    };
}

/// Exports a [`VectorFieldFn`]: `vector_field_fn!(name, |t, x, out, params| { ... })`.
#[macro_export]
macro_rules! vector_field_fn {
    ($(#[$m:meta])* $name:ident, |$t:pat_param, $x:pat_param, $out:ident, $p:ident| $body:block) => {
        $(#[$m])*
        ///
        /// # Safety
        /// Called through the Saltus plugin ABI: every pointer is valid for the length passed with it.
        #[no_mangle]
        pub unsafe extern "C" fn $name(t: f64, n: u32, x: *const f64, nout: u32, out: *mut f64,
                                np: u32, params: *const f64) -> i32 {
            $crate::guarded(|| {
                // SAFETY: the ABI contract gives `n` values in x, `nout` writable values in out
                // and `np` readable values in params, valid for the call.
                let (xs, $out, $p) = unsafe {
                    ($crate::input(x, n)?, $crate::output(out, nout)?, $crate::input(params, np)?)
                };
                let ($t, $x) = (t, xs);
                let r: ::core::result::Result<(), i32> = $body;
                r
            })
        }
    };
}

/// Exports a [`RelationFn`]: `relation_fn!(name, |t, x, lambda, out, params| { ... })`.
#[macro_export]
macro_rules! relation_fn {
    ($(#[$m:meta])* $name:ident, |$t:pat_param, $x:pat_param, $l:pat_param, $out:ident, $p:ident| $body:block) => {
        $(#[$m])*
        ///
        /// # Safety
        /// Called through the Saltus plugin ABI: every pointer is valid for the length passed with it.
        #[no_mangle]
        pub unsafe extern "C" fn $name(t: f64, n: u32, x: *const f64, m: u32, lambda: *const f64,
                                nout: u32, out: *mut f64, np: u32, params: *const f64) -> i32 {
            $crate::guarded(|| {
                // SAFETY: the ABI contract gives `n` values in x, `m` in lambda, `nout` writable
                // values in out and `np` readable values in params, valid for the call.
                let (xs, ls, $out, $p) = unsafe {
                    ($crate::input(x, n)?, $crate::input(lambda, m)?, $crate::output(out, nout)?,
                     $crate::input(params, np)?)
                };
                let ($t, $x, $l) = (t, xs, ls);
                let r: ::core::result::Result<(), i32> = $body;
                r
            })
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    time_fn!(ok_fn, |t, out, p| {
        out[0] = t * p[0];
        Ok(())
    });
    time_fn!(err_fn, |_t, _out, _p| { Err(7) });
    time_fn!(panicking_fn, |_t, out, _p| {
        out[5] = 1.0; // index out of bounds on purpose
        Ok(())
    });
    relation_fn!(rel, |_t, x, l, out, _p| {
        out[0] = x[0] + l[0];
        Ok(())
    });

    #[test]
    fn statuses() {
        let mut out = [0.0];
        let p = [3.0];
        // SAFETY (this test and the next): every non-null pointer points at a live local array of
        // the length passed with it; the null ones come with length 0 or test the null check.
        assert_eq!(unsafe { ok_fn(2.0, 1, out.as_mut_ptr(), 1, p.as_ptr()) }, STATUS_OK);
        assert_eq!(out[0], 6.0);
        assert_eq!(unsafe { err_fn(0.0, 1, out.as_mut_ptr(), 0, std::ptr::null()) }, 7);
        assert_eq!(unsafe { panicking_fn(0.0, 1, out.as_mut_ptr(), 0, std::ptr::null()) }, STATUS_PANIC);
        assert_eq!(unsafe { ok_fn(0.0, 1, std::ptr::null_mut(), 0, std::ptr::null()) }, STATUS_NULL_POINTER);
    }

    #[test]
    fn relation_reads_both_inputs() {
        let (x, l, mut out) = ([1.5], [2.0], [0.0]);
        let s = unsafe { rel(0.0, 1, x.as_ptr(), 1, l.as_ptr(), 1, out.as_mut_ptr(), 0, std::ptr::null()) };
        assert_eq!((s, out[0]), (0, 3.5));
    }

    #[test]
    fn zero_error_code_stays_failure() {
        assert_eq!(guarded(|| Err(0)), -1);
    }
}
