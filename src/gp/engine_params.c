/* GP's parameters: the one place their defaults are written, and the checks of a run's
 * parameters against its data and the memory it asks for (gp_resolve_params: glevo_gp_create
 * and a checkpoint load). */
#include <math.h>
#include <stdio.h>

#include "gp/engine_internal.h"
#include "core/args.h"
#include "core/memory.h"
#include "gp/eval/gpu.h"
#include "gp/sr/portfolio.h"
#include "gp/sr/sr_params.h"

/* The one place GP's defaults are written (the CLI prints these in --help). */
glevo_gp_params glevo_gp_params_defaults(const glevo_gp_params *in)
{
    glevo_gp_params P = {0};
    if (in) P = *in;
    if (!P.pop) P.pop = 1000;
    P.generations = P.generations == GLEVO_ZERO ? 0 : P.generations ? P.generations : 50;
    if (!P.tournament) P.tournament = 4;
    P.pc = P.pc == GLEVO_ZERO ? 0.0 : P.pc == 0 ? 0.9 : P.pc;
    P.pm = P.pm == GLEVO_ZERO ? 0.0 : P.pm == 0 ? 0.1 : P.pm;
    P.elitism = P.elitism == GLEVO_ZERO ? 0 : P.elitism ? P.elitism : 1;
    if (!P.init_min_depth) P.init_min_depth = 2;
    if (!P.init_max_depth) P.init_max_depth = 6;
    if (!P.report_every) P.report_every = 10;
    if (P.const_min == 0 && P.const_max == 0) P.const_min = -1, P.const_max = 1;
    P.const_prob = P.const_prob == GLEVO_ZERO ? 0.0 : P.const_prob == 0 ? 0.25 : P.const_prob;
    gp_sr_params_defaults(&P); /* issue 26 (max_size too): src/gp/sr/sr_params.c */
    gp_portfolio_default(&P);  /* issue 26: src/gp/sr/portfolio.c */
    return P;
}

/* The memory a run asks for, checked before anything is allocated (in double: no product
 * wraps). Host: two generations of pop programs of up to max_size codes and constants, the
 * individuals, errors and sums; GPU evaluation: the programs packed for upload (on the host
 * and in textures of GP_TEX_WIDTH words a row, which must fit the context's texture size
 * even when every program has grown to max_size). */
static glevo_status check_memory(const glevo_gp_params *P)
{
    double pop = P->pop, codes = pop * (P->max_size + 1.0);
    double host = 2.0 * codes * 8.0 + pop * (2.0 * sizeof(indiv) + 48.0), device = 0;
    glevo_backend backend = glevo_gp_backend_resolve(P->backend);
    char request[128];
    snprintf(request, sizeof request, "glevo_gp_params.pop %d (max_size %d, %s backend)", P->pop,
             P->max_size, glevo_backend_name(backend));
    if (backend != GLEVO_BACKEND_CPU) {
        const gpu_limits *l = gpu_context_limits();
        double rows = ceil(codes / (GP_TEX_WIDTH - 1.0));
        if (l->max_texture_size > 0 && rows > l->max_texture_size)
            return glevo_fail(GLEVO_ERR_INVALID, "%s: programs of up to %.0f codes do not fit "
                              "the program texture (%d x %d words)", request, codes,
                              GP_TEX_WIDTH, l->max_texture_size);
        host += codes * 8.0;
        device = codes * 8.0 + pop * 16.0;
        if (l->software) return gpu_memory_check(host + device, rows * GP_TEX_WIDTH * 4.0, request);
        glevo_status st = gpu_memory_check(device, rows * GP_TEX_WIDTH * 4.0, request);
        if (st) return st;
    }
    return memory_check_host(host, request);
}

glevo_status gp_resolve_params(const glevo_gp_params *params, const glevo_gp_data *data,
                               glevo_gp_params *out)
{
    glevo_gp_params P = glevo_gp_params_defaults(params);
    P.eval.backend = P.backend;
    P.eval.moments = P.linear_scaling == 1; /* issue 26: the evaluator sums f*y, f*f, f */
    *out = P;
    glevo_status sr = gp_sr_params_check(&P); /* issue 26: src/gp/sr/sr_params.c */
    if (sr) return sr;
    if (P.pop < 2) return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pop %d is below 2", P.pop);
    if (P.generations < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.generations %d is negative", P.generations);
    if (P.tournament < 1 || P.tournament > P.pop)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.tournament %d is outside 1..pop (%d)",
                          P.tournament, P.pop);
    /* Written so that NaN fails every range. */
    if (!(P.pc >= 0 && P.pc <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pc %g is outside [0, 1]", P.pc);
    if (!(P.pm >= 0 && P.pm <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pm %g is outside [0, 1]", P.pm);
    if (!(P.const_prob >= 0 && P.const_prob <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_prob %g is outside [0, 1]",
                          P.const_prob);
    if (!(isfinite(P.const_min) && isfinite(P.const_max) && P.const_min <= P.const_max))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_min..const_max %g..%g is not "
                          "a finite range", P.const_min, P.const_max);
    if ((unsigned)P.function_set > GLEVO_GP_CLASSIFICATION)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.function_set %d is unknown "
                          "(regression 0, classification 1)", (int)P.function_set);
    if ((unsigned)P.metric > GLEVO_GP_ACCURACY)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.metric %d is unknown (sae, mse, "
                          "rmse, accuracy: 0..3)", (int)P.metric);
    if ((unsigned)P.backend > GLEVO_BACKEND_LAST)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.backend %d is unknown",
                          (int)P.backend);
    if (P.stop_on_target && isnan(P.target_error))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.target_error is NaN with "
                          "stop_on_target");
    /* Errors are never negative: such a target would never stop the run, which the CLI's
     * --target-error refuses too (-1 there means "never"). */
    if (P.stop_on_target && P.target_error < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.target_error %g is negative: no "
                          "error reaches it (leave stop_on_target off never to stop early)",
                          P.target_error);
    if (P.report_every < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.report_every %d is below 1",
                          P.report_every);
    if (P.eval.threads < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.eval.threads %d is negative",
                          P.eval.threads);
    if (P.max_size < 1 || P.max_size > 100000)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.max_size %d is outside 1..100000",
                          P.max_size);
    if (P.elitism < 0 || P.elitism >= P.pop)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.elitism %d is not in 0..pop-1 (%d)",
                          P.elitism, P.pop - 1);
    if (P.init_min_depth < 0 || P.init_max_depth < P.init_min_depth)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.init_min_depth..init_max_depth "
                          "%d..%d is not a range", P.init_min_depth, P.init_max_depth);
    if (data->vars < 1) return glevo_fail(GLEVO_ERR_INVALID, "the data has no input variables");
    glevo_status split = gp_portfolio_check(&P);
    return split ? split : check_memory(&P);
}
