/* Template of a Saltus plugin in C: copy this folder, rename, edit, `make`.
 * The header comes from the Saltus checkout: plugins/abi/include/saltus_plugin.h (see the Makefile).
 * Every function returns 0 on success, any other value on failure (Saltus stops with an error naming the
 * library, the symbol and the XML element). Matrix outputs are column-major: out[i + rows * j] = A(i, j).
 * Functions must be reentrant: no global mutable state. */
#include "saltus_plugin.h"

SALTUS_DEFINE_ABI_VERSION()

/* <FExt library="my_plugin" function="weight" params="m g"/>: f_ext(t) = (-m g, 0, ..., 0). */
SALTUS_EXPORT int32_t weight(double t, uint32_t nout, double *out, uint32_t np, const double *params) {
    (void)t;
    if (np != 2 || nout < 1) return 1;
    for (uint32_t i = 0; i < nout; ++i) out[i] = 0.0;
    out[0] = -params[0] * params[1];
    return SALTUS_STATUS_OK;
}

/* <FInt library="my_plugin" function="spring" jacobian_q="spring_jac_q" jacobian_v="spring_jac_v"
 *       params="k c"/>: F_int(t, q, v) = k q + c v (on the left-hand side of M v' + F_int = F_ext + p). */
SALTUS_EXPORT int32_t spring(double t, uint32_t n, const double *q, const double *v, uint32_t nout, double *out,
                             uint32_t np, const double *params) {
    (void)t;
    if (np != 2 || nout != n) return 1;
    for (uint32_t i = 0; i < n; ++i) out[i] = params[0] * q[i] + params[1] * v[i];
    return SALTUS_STATUS_OK;
}

/* Fills the n x n matrix out with a * identity. */
static int32_t scaled_identity(uint32_t n, uint32_t nout, double *out, double a) {
    if (nout != n * n) return 2;
    for (uint32_t k = 0; k < nout; ++k) out[k] = 0.0;
    for (uint32_t i = 0; i < n; ++i) out[i + n * i] = a;
    return SALTUS_STATUS_OK;
}

/* dF_int/dq = k I. */
SALTUS_EXPORT int32_t spring_jac_q(double t, uint32_t n, const double *q, const double *v, uint32_t nout,
                                   double *out, uint32_t np, const double *params) {
    (void)t; (void)q; (void)v;
    if (np != 2) return 1;
    return scaled_identity(n, nout, out, params[0]);
}

/* dF_int/dv = c I. */
SALTUS_EXPORT int32_t spring_jac_v(double t, uint32_t n, const double *q, const double *v, uint32_t nout,
                                   double *out, uint32_t np, const double *params) {
    (void)t; (void)q; (void)v;
    if (np != 2) return 1;
    return scaled_identity(n, nout, out, params[1]);
}
