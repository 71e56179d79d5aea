/* Defaults and checks of the symbolic-regression parameters (issue 26; the choices and their
 * sources: docs/symbolic-regression.md). */
#include "gp/sr_params.h"

void gp_sr_params_defaults(glevo_gp_params *P)
{
    int squared = P->metric == GLEVO_GP_MSE || P->metric == GLEVO_GP_RMSE;
    P->linear_scaling = P->linear_scaling == GLEVO_ZERO ? 0
                        : P->linear_scaling             ? P->linear_scaling
                                                        : squared;
    /* Off unless asked (PySR's optimizer_iterations = 8 and optimize_probability = 0.14 are
     * what --const-opt 8 gives). On the compute backend the fitting runs on the GPU
     * (shaders/gp/const_fit.glsl), ~100x faster than on the host: a generation of 10^4
     * programs x 1000 cases takes 1.35-1.96x as long with 1 step, 2.3-3.5x with 4 (H100;
     * docs/performance.md, 2026-11-26). Other backends fit with the host twin, whose cost a
     * default would impose on every CPU run: not weighed yet. */
    P->const_opt_iters = P->const_opt_iters == GLEVO_ZERO ? 0 : P->const_opt_iters;
    if (P->const_opt_fraction == 0) P->const_opt_fraction = 0.14;
}

glevo_status gp_sr_params_check(const glevo_gp_params *P)
{
    if (P->ops && (P->ops >> GLEVO_GP_OP_COUNT || !(P->ops & ~3u)))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.ops 0x%x is not a set of operators",
                          (unsigned)P->ops);
    if (P->linear_scaling != 0 && P->linear_scaling != 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.linear_scaling %d is not 0, 1 or "
                          "GLEVO_ZERO", P->linear_scaling);
    if (P->linear_scaling && P->metric != GLEVO_GP_MSE && P->metric != GLEVO_GP_RMSE)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.linear_scaling needs metric mse "
                          "or rmse (got %s)", glevo_gp_metric_name(P->metric));
    if (!(P->parsimony >= 0 && P->parsimony < 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.parsimony %g is outside [0, 1)",
                          P->parsimony);
    if (P->const_opt_iters < 0 || P->const_opt_iters > 1000)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_opt_iters %d is outside "
                          "0..1000", P->const_opt_iters);
    if (!(P->const_opt_fraction > 0 && P->const_opt_fraction <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_opt_fraction %g is outside "
                          "(0, 1]", P->const_opt_fraction);
    if (!(P->const_min < P->const_max))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_min..const_max %g..%g is not "
                          "a range", P->const_min, P->const_max);
    return GLEVO_OK;
}
