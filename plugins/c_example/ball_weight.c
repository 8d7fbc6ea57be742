/* A Saltus plugin written in C: the weight of the bouncing ball, and a failing function.
 * Build: cc -shared -fPIC -I plugins/abi/include plugins/c_example/ball_weight.c -o libball_weight_c.so */
#include "saltus_plugin.h"

SALTUS_DEFINE_ABI_VERSION()

/* f_ext(t) = (-m g, 0, ..., 0); params = [m, g]. */
SALTUS_EXPORT int32_t c_ball_weight(double t, uint32_t nout, double *out,
                                    uint32_t np, const double *params) {
    (void)t;
    if (np < 2 || nout < 1) return 1;
    for (uint32_t i = 0; i < nout; ++i) out[i] = 0.0;
    out[0] = -params[0] * params[1];
    return SALTUS_STATUS_OK;
}

/* Always fails with status 42 (used to test the error path). */
SALTUS_EXPORT int32_t c_always_fails(double t, uint32_t nout, double *out,
                                     uint32_t np, const double *params) {
    (void)t; (void)nout; (void)out; (void)np; (void)params;
    return 42;
}
