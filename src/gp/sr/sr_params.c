/* Defaults and checks of the symbolic-regression parameters (issue 26; the choices and their
 * sources: docs/symbolic-regression.md). */
#include "gp/sr/sr_params.h"

void gp_sr_params_defaults(glevo_gp_params *P)
{
    int squared = P->metric == GLEVO_GP_MSE || P->metric == GLEVO_GP_RMSE;
    P->linear_scaling = P->linear_scaling == GLEVO_ZERO ? 0
                        : P->linear_scaling             ? P->linear_scaling
                                                        : squared;
    /* Squared errors (symbolic regression) default to one fitting step on 14 % of the
     * programs a generation and programs of up to 100 nodes; other metrics to no fitting and
     * 50 nodes. Measured (docs/symbolic-regression-bench.md, 2026-11-26, 30 seeds twice):
     * Friedman-1's median test R^2 0.921 / 0.922 against 0.882 / 0.866 with neither, 0.896 /
     * 0.914 with the larger programs alone; Nguyen's exact recovery unchanged (28.1 % against
     * 29.4 %). Cost (H100, compute, 10^4 programs x 1000 cases, 100 nodes): a generation
     * 1.50-1.97x as long as without the fitting, which runs on the GPU there
     * (shaders/gp/const_fit.glsl); the other backends fit with the host twin, on every core.
     * PySR's optimizer_iterations = 8 is --const-opt 8 (0.90-0.94, 4-5x the cost). */
    P->const_opt_iters = P->const_opt_iters == GLEVO_ZERO ? 0
                         : P->const_opt_iters             ? P->const_opt_iters
                                                          : squared;
    if (P->const_opt_fraction == 0) P->const_opt_fraction = 0.14;
    /* At most 1024 programs fitted a generation (on average): the same fits up to ~7300
     * programs a search (9750 a default portfolio), none of the symbolic-regression suites'
     * runs changed. At 10^5 programs x 1000 cases on the H200 (2026-11-29, seeds 1-5) the
     * fits of 1024 found the same best errors as those of 10 500 (1.7e-15..2.8e-15 against
     * 8.6e-16..8.8e-15) in 0.74 s a run against 1.65; at 10^4 x 1000 a limit of 256 cost a
     * 30x worse median error (docs/performance.md, GP defaults). */
    if (P->const_opt_max == 0) P->const_opt_max = GP_CONST_OPT_MAX_DEFAULT;
    /* Squared errors enumerate 10^5 candidates: over the regression set every program of up
     * to 7 nodes of one input, 6 of two and part of 7 (docs/symbolic-regression-bench.md,
     * "Enumerated short programs": Nguyen's recoveries the same at 5 x 10^4 and 3 x 10^5). */
    P->enumeration = P->enumeration == GLEVO_ZERO ? 0
                     : P->enumeration             ? P->enumeration
                                                  : (squared ? GP_ENUMERATION_DEFAULT : 0);
    /* The result's linear layer: 32 terms for squared errors (docs/symbolic-regression-bench.md,
     * "The result's linear layer": SRBench's Feynman accuracy at noise 0 76.7 -> 92.0 %, 88.7
     * with 16 terms). */
    P->linear_layer = P->linear_layer == GLEVO_ZERO ? 0
                      : P->linear_layer             ? P->linear_layer
                                                    : (squared ? GP_LINEAR_LAYER_DEFAULT : 0);
    /* The result's noise pruned for squared errors (docs/symbolic-regression-bench.md, "Noise
     * pruned"). */
    P->prune = P->prune == GLEVO_ZERO ? 0 : P->prune ? P->prune : squared;
    if (!P->max_size) P->max_size = squared ? 100 : 50;
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
    if (P->const_opt_max < 1 && P->const_opt_max != GLEVO_ZERO)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_opt_max %d is not a count "
                          "(>= 1; 0: the default, GLEVO_ZERO: no limit)", P->const_opt_max);
    if (P->enumeration < 0 || P->enumeration > GP_ENUMERATION_MAX)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.enumeration %d is outside 0..%d",
                          P->enumeration, GP_ENUMERATION_MAX);
    if (P->linear_layer < 0 || P->linear_layer > GP_LINEAR_LAYER_MAX)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.linear_layer %d is outside 0..%d",
                          P->linear_layer, GP_LINEAR_LAYER_MAX);
    if (P->prune != 0 && P->prune != 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.prune %d is not 0, 1 or GLEVO_ZERO",
                          P->prune);
    if (P->prune && P->metric != GLEVO_GP_MSE && P->metric != GLEVO_GP_RMSE)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.prune needs metric mse or rmse "
                          "(got %s)", glevo_gp_metric_name(P->metric));
    /* Equal bounds: every random constant is that value (the portfolio's constant 1). */
    if (!(P->const_min <= P->const_max))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_min..const_max %g..%g is not "
                          "a range", P->const_min, P->const_max);
    return GLEVO_OK;
}
