/* A GP run through the public API, the shape of the other families: glevo_gp_create (the
 * searches of engine_portfolio.c, each's first generation), glevo_gp_step (each search's next
 * generation, engine.c, then the run's report), the run's best and population, and
 * glevo_gp_run (create, step to the end, engine_result.c's result). */
#include <math.h>
#include <string.h>

#include "gp/engine_internal.h"
#include "core/args.h"
#include "gl/gpgpu.h"

glevo_status glevo_gp_create(const glevo_gp_params *params, const glevo_gp_data *data,
                             glevo_gp **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(out);
    *out = NULL;
    glevo_gp_params P;
    glevo_status st = gp_resolve_params(params, data, &P);
    glevo_gp *gp = NULL;
    /* The run's programs are built together (program_batch.c), every one a generation will
     * use (gp_engine_prebuild) issued before any is waited for: with a cold shader cache
     * NVIDIA then compiles them at once (H200, 2026-11-29: the first run +1.1-1.5 s over a
     * warm one, against +2.4-2.7 s with three of them built at their first use). */
    gpu_program_batch_begin();
    /* The main search's enumeration runs on a thread of its own from its engine's creation
     * on (gp_run_new), beside the other searches' engines, the programs' builds and then the
     * helpers' first generations, which go first (the searches are independent): the first
     * generation waits for it less. */
    if (!st) st = gp_run_new(&P, data, NULL, true, &gp);
    for (glevo_gp *s = gp; s && !st; s = s->next_search) st = gp_engine_prebuild(s);
    glevo_status built = gpu_program_batch_end();
    if (!st && built) st = built;
    if (st) {
        glevo_gp_destroy(gp);
        return st;
    }
    for (glevo_gp *s = gp->next_search; s && !st; s = s->next_search)
        st = gp_engine_first_generation(s);
    if (!st) st = gp_engine_first_generation(gp);
    if (st || (st = gp_portfolio_report(gp))) {
        glevo_gp_destroy(gp);
        return st;
    }
    *out = gp;
    return GLEVO_OK;
}

glevo_status glevo_gp_step(glevo_gp *gp, int generations)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    if (generations < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "%s: generations %d is negative", __func__,
                          generations);
    glevo_status st = gp_gl_ready(gp, __func__);
    if (st) return st;
    for (int k = 0; k < generations && !gp->done && !st; ++k) {
        if (glevo_interrupt_pending())
            return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_gp_step: interrupted after "
                              "generation %d", gp->generation);
        /* Every search's GPU work first, then their results: the GPU runs the searches back
         * to back, and only the first read waits (the searches are independent: the same
         * runs as one search's step after another's). */
        for (glevo_gp *s = gp; s && !st; s = s->next_search) st = gp_engine_step_submit(s);
        for (glevo_gp *s = gp; s && !st; s = s->next_search) st = gp_engine_evaluate_collect(s);
        if (!st) st = gp_portfolio_report(gp);
    }
    return st;
}

bool glevo_gp_done(const glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, false);
    return gp->done;
}
int glevo_gp_generation(const glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, -1);
    return gp->generation;
}
/* The error the result reports for the best program: its printed model's (scaled and
 * simplified, glevo_gp_model), which with linear scaling differs in the last digits from the
 * error the search ranked it by; a portfolio's better search's. */
double glevo_gp_best_error(const glevo_gp *gp)
{
    ARG_NOT_NULL_OR(gp, NAN);
    double e;
    return gp_portfolio_pick(gp, NULL, NULL, &e) ? NAN : e;
}

const glevo_gp_programs *glevo_gp_population(const glevo_gp *gp, int *best)
{
    ARG_NOT_NULL_OR(gp, NULL);
    /* Resident: the programs come back from the GPU (a failure leaves the last copy). The
     * container is packed here, on demand: GPU runs never fill it on their own, and a
     * container of an earlier generation (or none, right after create) would not match
     * *best. */
    if (!gp_host_sync(gp)) gp_engine_pack_host((glevo_gp *)gp);
    if (best) *best = gp->best;
    return gp->progs;
}

/* Result: the best program of the last evaluated generation (elitism keeps the best). */
glevo_status glevo_gp_run(const glevo_gp_params *params, const glevo_gp_data *data,
                          glevo_gp_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    glevo_gp *gp = NULL;
    glevo_status st = glevo_gp_create(params, data, &gp);
    while (!st && !glevo_gp_done(gp)) st = glevo_gp_step(gp, 1);
    if (!st) st = glevo_gp_result_get(gp, out);
    glevo_gp_destroy(gp);
    return st;
}
