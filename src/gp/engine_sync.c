/* The host's copies of a GPU-resident run: the programs, fitness and best read back from the
 * GPU only when the host needs them (gp_host_sync, gp_fitness_sync), and the packed container. */
#include <string.h>

#include "gp/engine_internal.h"
#include "gp/eval_internal.h"
#include "gp/gpu.h"

/* The best program of the current generation alone in out (from the GPU when resident). */
glevo_status gp_engine_best_program(const glevo_gp *gp, glevo_gp_programs *out)
{
    glevo_gp_programs_clear(out);
    if (gp->res && gp->host_stale) {
        int len = 0;
        glevo_status st = gp_resident_read_slot(gp->res, gp->best, gp->scratch.codes,
                                                gp->scratch.consts, &len);
        return st ? st : glevo_gp_programs_add(out, gp->scratch.codes, len, gp->scratch.consts);
    }
    const indiv *b = &gp->pops[gp->cur][gp->best];
    return glevo_gp_programs_add(out, b->codes, b->len, b->consts);
}

/* The best program's reported model (scaled and simplified, glevo_gp_model) and its error:
 * what the result, glevo_gp_best_error and the progress lines give. gp->one is scratch. */
glevo_status gp_engine_best_model(const glevo_gp *gp, glevo_gp_result *out)
{
    *out = (glevo_gp_result){0};
    glevo_gp_programs *one = ((glevo_gp *)gp)->one;
    glevo_status st = gp_engine_best_program(gp, one);
    return st ? st : glevo_gp_model(&gp->P, gp->data, one, 0, out);
}

/* The evaluator's container of the host population (what glevo_gp_population returns). */
glevo_status gp_engine_pack_host(glevo_gp *gp)
{
    const indiv *pop = gp->pops[gp->cur];
    glevo_status st = GLEVO_OK;
    glevo_gp_programs_clear(gp->progs);
    for (int i = 0; i < gp->P.pop && !st; ++i)
        st = glevo_gp_programs_add(gp->progs, pop[i].codes, pop[i].len, pop[i].consts);
    return st;
}

/* GLEVO_OK for CPU evaluation, and where the evaluator's GL context is current on this
 * thread (gpu_context_check): the resident engine breeds and reads on the GPU. */
glevo_status gp_gl_ready(const glevo_gp *gp, const char *function)
{
    if (!gp->ev || gp->ev->backend == GLEVO_BACKEND_CPU) return GLEVO_OK;
    return gpu_context_check(gp->ev->context, function);
}

glevo_status gp_fitness_sync(const glevo_gp *cgp)
{
    if (!cgp->fit_stale) return GLEVO_OK;
    glevo_status ready = gp_gl_ready(cgp, "glevo_gp");
    if (ready) return ready;
    glevo_gp *gp = (glevo_gp *)cgp; /* a cache of the GPU's, as in gp_host_sync */
    const glevo_gp_params *P = &gp->P;
    gp_fit_head head;
    glevo_status st = gp_resident_read_fitness(gp->res, gp->err, gp->fit, &head);
    if (!st) st = gp_resident_read_stats(gp->res);
    if (st) return st;
    if (head.bad >= 0)
        return glevo_fail(GLEVO_ERR_GL, "GP evaluation: program %d's result came back with "
                          "wrong run marks from the compute dispatches (a shader loop cut "
                          "short, a lost context or a driver timeout)", head.bad + 1);
    memcpy(gp->lens, gp->res->lens, sizeof *gp->lens * (size_t)P->pop);
    gp->best = head.best;
    memcpy(gp->elite, head.elite, sizeof head.elite);
    gp->nodes_evaluated += (long long)(head.codes - gp->codes_seen) * gp->data->cases;
    gp->codes_seen = head.codes;
    gp->fit_stale = false;
    return GLEVO_OK;
}

glevo_status gp_host_sync(const glevo_gp *cgp)
{
    glevo_status fst = gp_fitness_sync(cgp);
    if (fst) return fst;
    if (!cgp->res || !cgp->host_stale) return GLEVO_OK;
    glevo_status ready = gp_gl_ready(cgp, "glevo_gp");
    if (ready) return ready;
    /* The host copy is a cache of the GPU's population: filling it changes no state a caller
     * can see, hence the cast. */
    glevo_gp *gp = (glevo_gp *)cgp;
    size_t at = (size_t)gp->cur * (size_t)gp->P.pop * (size_t)gp->P.max_size;
    glevo_status st = gp_resident_download(gp->res, gp->codes_mem + at, gp->consts_mem + at,
                                           gp->lens);
    for (int i = 0; i < gp->P.pop && !st; ++i) gp->pops[gp->cur][i].len = gp->lens[i];
    if (!st) st = gp_engine_pack_host(gp);
    if (!st) gp->host_stale = false;
    return st;
}
