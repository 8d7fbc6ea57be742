/*
 * saltus_plugin.h -- the Saltus plugin ABI, version 1 (C view of the `saltus-plugin-abi` crate).
 *
 * A plugin is a shared library that exports
 *   - uint32_t saltus_plugin_abi_version(void), returning SALTUS_PLUGIN_ABI_VERSION;
 *   - any number of user functions with one of the four signatures below.
 *
 * Rules:
 *   - every user function returns an int32_t status: 0 = success, anything else = failure
 *     (Saltus stops the run with an error naming the library, the symbol and the XML element);
 *   - inputs are read-only arrays with their lengths; `out` has exactly `nout` doubles;
 *     `params` holds the `np` values of the XML `params` attribute (read-only, may be NULL when np = 0);
 *   - matrix outputs are column-major: out[i + rows * j] = A(i, j);
 *   - functions must be reentrant (no global mutable state): they may be called from several threads;
 *   - loading a library runs its initialisers: only load trusted plugins.
 */
#ifndef SALTUS_PLUGIN_H
#define SALTUS_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SALTUS_PLUGIN_ABI_VERSION 1u

#define SALTUS_STATUS_OK 0
#define SALTUS_STATUS_PANIC (-101)
#define SALTUS_STATUS_NULL_POINTER (-102)

#if defined(_WIN32)
#define SALTUS_EXPORT __declspec(dllexport)
#else
#define SALTUS_EXPORT __attribute__((visibility("default")))
#endif

/* Pure time function: external force f_ext(t), source terms b(t), e(t), matrices A(t). */
typedef int32_t (*saltus_time_fn)(double t, uint32_t nout, double *out,
                                  uint32_t np, const double *params);

/* Lagrangian function of (t, q, v), n degrees of freedom: f_int, f_gyr, M(q) (nout = n*n), Jacobians. */
typedef int32_t (*saltus_lagrangian_fn)(double t, uint32_t n, const double *q, const double *v,
                                        uint32_t nout, double *out,
                                        uint32_t np, const double *params);

/* First-order vector field f(t, x) and its Jacobian (nout = n*n). */
typedef int32_t (*saltus_vector_field_fn)(double t, uint32_t n, const double *x,
                                          uint32_t nout, double *out,
                                          uint32_t np, const double *params);

/* Relation function of (t, x, lambda): output h (nout = m), input g (nout = n), Jacobians
   (dh/dx: m*n, dh/dlambda: m*m, dg/dx: n*n, dg/dlambda: n*m, column-major). */
typedef int32_t (*saltus_relation_fn)(double t, uint32_t n, const double *x,
                                      uint32_t m, const double *lambda,
                                      uint32_t nout, double *out,
                                      uint32_t np, const double *params);

/* Declare the version symbol in the plugin: SALTUS_DEFINE_ABI_VERSION() at file scope. */
#define SALTUS_DEFINE_ABI_VERSION() \
    SALTUS_EXPORT uint32_t saltus_plugin_abi_version(void) { return SALTUS_PLUGIN_ABI_VERSION; }

#ifdef __cplusplus
}
#endif

#endif /* SALTUS_PLUGIN_H */
